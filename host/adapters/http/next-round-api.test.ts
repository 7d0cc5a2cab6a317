// The next round of a Swiss event over the API (docs/api.md "The next round"), on a host composed
// by host/start-host.ts (the pairing adapter wired as in `chessclock host`): a pairing program's
// TRF loaded into the running host (POST /api/events/:event/rounds) is checked against the journal
// and filed as proposed; GET /api/rounds/proposed shows it to arbiters; approve opens the round,
// reject sets it aside; the engine's Re-run answers its failure with the exit code and stderr.
// The engine is a stand-in script following bbpPairings' command line, failing on demand
// (host/adapters/exports/fixtures/stand-in-pairing-engine.mjs; the real bbpPairings:
// test/trf-bbp-pairings.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../start-host.ts';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { buildApi } from './api.ts';
import { JournalBoards } from '../../app/journal-boards.fixture.ts';
import { PROPOSE_ROUND, APPROVE_ROUND, REJECT_ROUND } from '../../app/proposal-records.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../../app/next-round.fixture.ts';

const TOKEN = 'next-round-arbiter-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(raw: unknown = swissTournament(['--mode=exit'])): Promise<RunningHost> {
  const host = await startHost({
    journal: new Journal(':memory:'),
    hall: parseTournament(raw),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
    log: () => undefined,
  });
  running.push(host);
  return host;
}

/** The host's own TRF after round 1 with round 2 added as a pairing program writes it. */
function trfWithRound2(r: RunningHost, pairs: [number, number][], bye: number | null, edit: (lines: string[]) => void = () => undefined): string {
  return addRoundToTrf(r.exports.trf(SWISS, 1), 1, pairs, bye, edit);
}

const lineOf = (text: string, rank: number) => text.split('\r\n').findIndex((l) => l.startsWith(`001 ${String(rank).padStart(4)}`)) + 1;
const ROUND2: [number, number][] = [
  [2, 1],
  [4, 3],
  [5, 6],
];

describe("POST /api/events/:event/rounds: the next round from a pairing program's TRF", () => {
  it("files the TRF's round as proposed (arbiters only), opens it on approval with the arbiter journaled; nothing is opened before", async () => {
    const r = await start();
    const api = r.api!;
    // Round 1 is not finished: nothing to pair yet.
    const early = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf: 'x' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/round 1 is not finished/);
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle(); // the engine (--mode=exit) fails: the arbiter loads a TRF instead

    const trf = trfWithRound2(r, ROUND2, 7);
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, payload: { trf } })).statusCode).toBe(401);
    expect((await api.inject({ url: '/api/rounds/proposed' })).statusCode).toBe(401);
    const filed = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } });
    expect(filed.statusCode).toBe(201);
    expect(filed.json()).toMatchObject({ ok: true, arbiter: ARBITER, proposal: { event: SWISS, round: 2, status: 'proposed', source: 'trf', by: ARBITER } });
    // FIDE board order (C.04.2): the pair with the better-placed higher player first.
    expect(filed.json().proposal.boards.map((b: { white: { rank: number }; black: { rank: number } }) => [b.white.rank, b.black.rank])).toEqual(ROUND2);
    expect(filed.json().proposal.byes).toEqual([{ kind: 'U', player: { rank: 7, name: 'Sedmi, Igralec' } }]);
    const listed = await api.inject({ url: '/api/rounds/proposed', headers });
    expect(listed.json().proposals).toEqual([filed.json().proposal]);
    expect((await api.inject({ url: `/api/boards?event=${SWISS}&round=2` })).json().boards).toEqual([]);
    // A second TRF while one waits: refused, the first kept.
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } })).statusCode).toBe(409);

    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/3/approve`, headers })).statusCode).toBe(409);
    const approved = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/approve`, headers });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ ok: true, arbiter: ARBITER, event: SWISS, round: 2 });
    const boards = (await api.inject({ url: `/api/boards?event=${SWISS}&round=2` })).json().boards as { id: string; board: number; white: { name: string } }[];
    expect(boards.map((b) => [b.board, b.white.name])).toEqual([
      [1, 'Drugi, Igralec'],
      [2, 'Četrti, Igralec'],
      [3, 'Peti, Igralec'],
    ]);
    expect(approved.json().boards).toEqual(boards.map((b) => b.id));
    const actions = r.journal.arbiterActions();
    const proposal = actions.filter((a) => a.action === PROPOSE_ROUND).at(-1)!;
    expect(proposal).toMatchObject({ arbiter: ARBITER, outcome: 'applied', payload: expect.objectContaining({ source: 'trf', trf }) });
    expect(actions.filter((a) => a.action === APPROVE_ROUND)).toEqual([
      expect.objectContaining({ arbiter: ARBITER, round: 2, payload: { proposal: proposal.id } }),
    ]);
    expect((await api.inject({ url: '/api/rounds/proposed', headers })).json().proposals).toEqual([]);
    // The TRF export now runs through round 2's pairings once played: tag 142 still the planned 3.
    expect(r.exports.trf(SWISS, 1)).toMatch(/\r\n142 3\r\n/);
  });

  it('refuses a TRF that disagrees with the journal, naming the line and the field; nothing is filed', async () => {
    const r = await start();
    const api = r.api!;
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle();
    const post = (trf: string) => api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } });
    const before = r.journal.arbiterActions().length;
    const setCol = (line: string, col: number, text: string) => line.slice(0, col - 1) + text + line.slice(col - 1 + text.length);

    // Player 5 lost round 1 (journal 0); the TRF says 1.
    const result = trfWithRound2(r, ROUND2, 7, (ls) => (ls[lineOf(ls.join('\r\n'), 5) - 1] = setCol(ls[lineOf(ls.join('\r\n'), 5) - 1], 99, '1')));
    let res = await post(result);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(`TRF line ${lineOf(result, 5)}, columns 99 (round 1 result): player 5 has "0001 b 1" in the TRF, the journal "0001 b 0"`);

    // Another opponent in round 1.
    const opponent = trfWithRound2(r, ROUND2, 7, (ls) => (ls[lineOf(ls.join('\r\n'), 6) - 1] = setCol(ls[lineOf(ls.join('\r\n'), 6) - 1], 92, '   3')));
    res = await post(opponent);
    expect(res.json().message).toBe(
      `TRF line ${lineOf(opponent, 6)}, columns 92-95 (round 1 opponent): player 6 has "0003 w 0" in the TRF, the journal "0002 w 0"`,
    );

    // A different name.
    const name = trfWithRound2(r, ROUND2, 7, (ls) => (ls[lineOf(ls.join('\r\n'), 3) - 1] = setCol(ls[lineOf(ls.join('\r\n'), 3) - 1], 15, 'Tretja, Igralka')));
    res = await post(name);
    expect(res.json().message).toBe(
      `TRF line ${lineOf(name, 3)}, columns 15-47 (name): player 3 is "Tretja, Igralka" in the TRF, "Tretji, Igralec" in the tournament`,
    );

    // Round 2 already played.
    const played = trfWithRound2(r, ROUND2, 7, (ls) => (ls[lineOf(ls.join('\r\n'), 2) - 1] = setCol(ls[lineOf(ls.join('\r\n'), 2) - 1], 109, '1')));
    res = await post(played);
    expect(res.json().message).toBe(
      `TRF line ${lineOf(played, 2)}, columns 109 (round 2 result): player 2 already has result "1"; the next round must be unplayed`,
    );

    // No round 2 at all (the host's own TRF), and a player not in the event.
    res = await post(r.exports.trf(SWISS, 1));
    expect(res.json().message).toBe('the TRF pairs no round 2: its player lines end at round 1');
    const stranger = trfWithRound2(r, ROUND2, 7, (ls) =>
      ls.push(setCol(setCol(ls[lineOf(ls.join('\r\n'), 7) - 1], 5, '   8'), 15, 'Tujec, Igralec'.padEnd(33))),
    );
    res = await post(stranger);
    expect(res.json().message).toBe(
      `TRF line ${stranger.split('\r\n').length}, columns 5-8 (starting rank): player 8 "Tujec, Igralec" is not in event "${SWISS}"`,
    );
    // A line the TRF reader cannot read: its line and columns.
    const broken = trfWithRound2(r, ROUND2, 7, (ls) => (ls[lineOf(ls.join('\r\n'), 4) - 1] = setCol(ls[lineOf(ls.join('\r\n'), 4) - 1], 102, '00x0')));
    res = await post(broken);
    expect(res.json().message).toMatch(new RegExp(`^TRF line ${lineOf(broken, 4)}, columns 102-105: round 2 opponent must be digits, got "00x0"`));

    expect(r.journal.arbiterActions().length).toBe(before);
    expect((await api.inject({ url: '/api/rounds/proposed', headers })).json().proposals).toEqual([
      expect.objectContaining({ status: 'failed', source: 'engine' }),
    ]);
  });

  it('reject sets the pairings aside with the reason journaled; Re-run answers an engine failure with its exit code and stderr', async () => {
    const r = await start();
    const api = r.api!;
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle();
    const filed = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf: trfWithRound2(r, ROUND2, 7) } });
    expect(filed.statusCode).toBe(201);
    const rejected = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/reject`, headers, payload: { reason: 'wrong file' } });
    expect(rejected.statusCode).toBe(200);
    expect(r.journal.arbiterActions().filter((a) => a.action === REJECT_ROUND)).toEqual([expect.objectContaining({ arbiter: ARBITER, reason: 'wrong file' })]);
    expect((await api.inject({ url: '/api/rounds/proposed', headers })).json().proposals).toEqual([
      expect.objectContaining({ status: 'rejected', rejected: expect.objectContaining({ by: ARBITER, reason: 'wrong file' }) }),
    ]);
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/approve`, headers })).statusCode).toBe(409);
    // Nothing left to reject; a body with an unknown field is a 400 naming it; no body is fine.
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/reject`, headers })).statusCode).toBe(409);
    const typo = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/reject`, headers, payload: { reson: 'x' } });
    expect([typo.statusCode, typo.json().field]).toEqual([400, 'reson']);

    const rerun = await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/pair`, headers });
    expect(rerun.statusCode).toBe(422);
    expect(rerun.json().message).toBe('the pairing engine exited with code 3: Error: no valid pairing exists (stand-in --mode=exit)');
    expect(rerun.json().proposal).toMatchObject({
      status: 'failed',
      by: ARBITER,
      engine: { exitCode: 3, signal: null, stderr: 'Error: no valid pairing exists (stand-in --mode=exit)\n' },
    });
    expect(r.journal.gamesByRound(SWISS, 2)).toEqual([]);
    expect((await api.inject({ method: 'POST', url: '/api/events/nope/rounds/pair', headers })).statusCode).toBe(404);
  });

  it('a team Swiss (Ivanovo 2018): round 2 from a TRF with its 310 team records opens as the team matches the program paired, the team bye kept; a team record that disagrees is refused naming its line', async () => {
    const IVANOVO = 'ivanovo-2018';
    const raw = JSON.parse(readFileSync(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)), 'utf8'));
    const fileRound2 = raw.events[0].rounds.pop(); // the file lists round 1 only; round 2 comes from the TRF
    const r = await start(raw);
    await confirmRound(r.host, 1, ['1-0', '1/2-1/2', '0-1', '1/2-1/2', '1-0', '-+', '1/2-1/2', '0-1'], IVANOVO);
    const pairs = fileRound2.teamMatches.flatMap((m: { boards: { white: number; black: number }[] }) => m.boards.map((b) => [b.white, b.black] as const));
    const team4 = raw.events[0].teams.find((t: { id: number }) => t.id === 4).players as number[];
    const trf = addRoundToTrf(r.exports.trf(IVANOVO, 1), 1, pairs, team4, undefined, 'H');
    const post = (text: string) => r.api!.inject({ method: 'POST', url: `/api/events/${IVANOVO}/rounds`, headers, payload: { trf: text } });

    // Team 2's players in another order in its 310 record: refused, naming the line.
    const lines = trf.split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('310   2'));
    const swapped = [...lines];
    swapped[at] = swapped[at].slice(0, 73) + swapped[at].slice(78, 82) + ' ' + swapped[at].slice(73, 77) + swapped[at].slice(82);
    const refused = await post(swapped.join('\r\n'));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(`TRF line ${at + 1}, columns 74- (team players): team 2 has players 6 5 7 8 in the TRF, 5 6 7 8 in the tournament`);

    const filed = await post(trf);
    expect(filed.statusCode).toBe(201);
    expect(filed.json().proposal.byes).toEqual([{ kind: 'H', team: { id: 4, name: expect.any(String) } }]);
    expect((await r.api!.inject({ method: 'POST', url: `/api/events/${IVANOVO}/rounds/2/approve`, headers })).statusCode).toBe(200);
    const games = r.journal.gamesByRound(IVANOVO, 2);
    expect(games.map((g) => [g.whiteRank, g.blackRank]).sort()).toEqual([...pairs].map((p) => [...p]).sort());
    const event = r.host.hall.events.find((e) => e.id === IVANOVO)!;
    expect(event.rounds[1].teamMatches.map((m) => [m.white, m.black]).sort()).toEqual(
      fileRound2.teamMatches.map((m: { white: number; black: number }) => [m.white, m.black]).sort(),
    );
    expect(event.rounds[1].byes).toEqual([{ player: null, team: 4, kind: 'H' }]);
    // Team players keep their teams in the journal's games.
    expect(games.every((g) => g.whiteTeam !== null && g.blackTeam !== null && g.whiteTeam !== g.blackTeam)).toBe(true);
  });

  it('a pairs list with the TRF it was paired from (docs/tournament.md "An event with an outside pairing program"): proposed with source pairs; pairs without a TRF is 400', async () => {
    const r = await start();
    const api = r.api!;
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle();
    const post = (payload: Record<string, string>) => api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload });
    const alone = await post({ pairs: '4\n2 1\n4 3\n5 6\n7 0\n' });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toMatch(/trf/);
    const res = await post({ pairs: '4\n2 1\n4 3\n5 6\n7 0\n', trf: r.exports.trf(SWISS, 1) });
    expect(res.statusCode).toBe(201);
    expect(res.json().proposal).toMatchObject({ round: 2, status: 'proposed', source: 'pairs', by: ARBITER });
    const listed = await api.inject({ method: 'GET', url: '/api/rounds/proposed', headers });
    expect(
      listed
        .json()
        .proposals.map((p: { source: string; boards: { board: number; white: { rank: number }; black: { rank: number } }[] }) => [
          p.source,
          p.boards.map((b) => [b.board, b.white.rank, b.black.rank]),
        ]),
    ).toEqual([
      [
        'pairs',
        [
          [1, 2, 1],
          [2, 4, 3],
          [3, 5, 6],
        ],
      ],
    ]);
  });

  it('a host without a next-round side lists no proposals and answers 501 to the writes', async () => {
    const ports = new JournalBoards();
    const app = await buildApi({ state: ports, commands: ports, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false });
    try {
      expect((await app.inject({ url: '/api/rounds/proposed', headers })).json()).toEqual({ proposals: [], waiting: [] });
      const res = await app.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf: 'x' } });
      expect(res.statusCode).toBe(501);
      expect(res.json().message).toMatch(/no match director/);
    } finally {
      await app.close();
      ports.close();
    }
  });
});

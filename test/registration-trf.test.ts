// The registration TRF (docs/tournament.md "An event with an outside pairing program"; docs/exports.md
// "The TRF before round 1"): `chessclock export --trf --round 0` and GET /api/export/trf?round=0 write
// the file a pairing program pairs round 1 from — the players, tag 142 and XXR the planned rounds,
// 222 the time control, XXC the colour by lot — for an event with no games yet, and the pairing
// program (the real bbpPairings where it is built, else the stand-in, saying so) pairs round 1 from it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { parsePairsFile } from '../host/adapters/exports/trf-import.ts';
import { parseTrf } from '../host/adapters/exports/trf-parser.ts';
import { ARBITER, stoppedClock, SWISS, swissBeforeRound1 } from '../host/app/next-round.fixture.ts';
import { PROPOSE_ROUND, type RoundProposal } from '../host/app/proposal-records.ts';
import { chessclock, EVENT, lotOf, openSwiss, pairingProgram, runProgram } from './pairing-program.fixture.ts';

const TOKEN = 'registration-trf-arbiter-token-0123456789';

const dir = mkdtempSync(join(tmpdir(), 'registration-trf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the registration TRF: round 0 out, for a pairing program to pair round 1 (FIDE C.04 Annex 2 TRF; JaVaFo AUM XXR, XXC; FIDE C.04.3 initial colour)', () => {
  it('chessclock export --trf --round 0 of an event with no games (no journal yet) is paired by the pairing program; without a lot it is refused saying how to give one', {
    timeout: 120_000,
  }, async () => {
    const tournament = join(dir, 'open.json');
    writeFileSync(tournament, JSON.stringify(openSwiss()));
    const out = join(dir, 'round0.trf');
    const base = ['export', '--tournament', tournament, '--event', EVENT, '--trf', '--round', '0'];
    const [written, noLot, pgn] = await Promise.all([
      chessclock([...base, '--initial-colour', 'black', '--out', out]),
      chessclock(base),
      chessclock(['export', '--tournament', tournament, '--event', EVENT, '--pgn', '--round', '0']),
    ]);
    expect([written.status, written.stderr]).toEqual([0, '']);
    const trf = readFileSync(out, 'utf8');
    const file = parseTrf(trf);
    // Every player, no round field; the planned rounds (142, XXR), the time control (222), the lot (XXC).
    expect(file.players.map((p) => [p.rank, p.name, p.rounds.length])).toEqual(
      (openSwiss().events as { players: { rank: number; name: string }[] }[])[0].players.map((p) => [p.rank, p.name, 0]),
    );
    expect([file.tags.get('142'), file.xxr, file.tags.get('222')]).toEqual([['5'], 5, ['900+10']]);
    expect(lotOf(trf)).toBe('black');

    expect(noLot.status).toBe(1);
    expect(noLot.stderr).toBe(
      "chessclock export: the TRF before round 1 needs the colour drawn by lot for the top-ranked player on board 1 (FIDE C.04.3; TRF XXC): give it (chessclock export --initial-colour white|black; the API's initialColour=white|black)\n",
    );
    expect([pgn.status, pgn.stderr]).toEqual([2, 'chessclock export: --round 0 is the TRF before round 1: only with --trf or --trf16 (and no --category)\n']);

    // A lot recorded in the tournament file (drawn in the hall) is written; another colour contradicts it.
    const withLot = openSwiss();
    (withLot.events as Record<string, unknown>[])[0].pairingEngine = { command: ['bbpPairings.exe', '--dutch'], initialColour: 'white' };
    const lotFile = join(dir, 'open-lot.json');
    writeFileSync(lotFile, JSON.stringify(withLot));
    const lotBase = ['export', '--tournament', lotFile, '--event', EVENT, '--trf', '--round', '0'];
    const [recorded, contradicted] = await Promise.all([chessclock(lotBase), chessclock([...lotBase, '--initial-colour', 'black'])]);
    expect([recorded.status, recorded.stderr]).toEqual([0, '']);
    expect(lotOf(recorded.stdout)).toBe('white');
    expect([contradicted.status, contradicted.stderr]).toEqual([
      1,
      "chessclock export: round 1's colours are drawn already: white for the top-ranked player (the tournament file, pairingEngine.initialColour); black contradicts the lot\n",
    ]);

    // The pairing program pairs round 1 from it: every player paired once, the odd one the bye.
    const program = pairingProgram();
    const pairsFile = join(dir, 'round1.txt');
    const run = await runProgram(program, [out, '-p', pairsFile]);
    expect([run.status, run.stderr], program.name).toEqual([0, '']);
    const pairs = parsePairsFile(readFileSync(pairsFile, 'utf8'));
    expect(pairs).toHaveLength(6);
    expect(
      pairs
        .flatMap((p) => [p.white, p.black])
        .filter((r) => r !== null)
        .sort((a, b) => a! - b!),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // FIDE C.04.3 round 1: the top half against the bottom half; the lot gave the top player Black.
    expect(pairs[0]).toEqual({ board: 1, white: 6, black: 1 });
  });

  it('GET /api/export/trf?round=0 of an event that has no board yet, with the lot given; initialColour only with round 0', {
    timeout: 60_000,
  }, async () => {
    const running = await startHost({
      journal: new Journal(':memory:'),
      hall: parseTournament(openSwiss()),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
      log: () => undefined,
    });
    try {
      const get = (query: string) => fetch(`${running.url}/api/export/trf?event=${EVENT}&${query}`);
      const white = await get('round=0&initialColour=white');
      expect(white.status).toBe(200);
      const text = await white.text();
      expect(lotOf(text)).toBe('white');
      expect(parseTrf(text).players).toHaveLength(11);
      const [noLot, wrongRound, unknown] = await Promise.all([
        get('round=0'),
        get('round=1&initialColour=white'),
        fetch(`${running.url}/api/export/trf?event=nope&round=0`),
      ]);
      expect([noLot.status, ((await noLot.json()) as { message: string }).message]).toEqual([
        409,
        "the TRF before round 1 needs the colour drawn by lot for the top-ranked player on board 1 (FIDE C.04.3; TRF XXC): give it (chessclock export --initial-colour white|black; the API's initialColour=white|black)",
      ]);
      expect(wrongRound.status).toBe(400);
      expect(((await wrongRound.json()) as { message: string }).message).toMatch(/initialColour goes with round=0/);
      expect(unknown.status).toBe(404);
    } finally {
      await running.close();
    }
  });

  it("the lot the host drew for its own engine's round 1 (journaled with the run) is the registration TRF's; another colour contradicts it", {
    timeout: 60_000,
  }, async () => {
    const running = await startHost({
      journal: new Journal(':memory:'),
      hall: parseTournament(swissBeforeRound1()),
      clock: stoppedClock(),
      log: () => undefined,
    });
    try {
      await running.host.idle(); // the engine paired round 1 at the start, with a lot the host drew
      const run = running.journal.arbiterActions().find((a) => a.action === PROPOSE_ROUND)!.payload as RoundProposal;
      expect(run.initialColourDrawnBy).toBe('host');
      const drawn = run.initialColour!;
      expect(lotOf(running.exports.trf(SWISS, 0))).toBe(drawn);
      const other = drawn === 'white' ? 'black' : 'white';
      expect(() => running.exports.trf(SWISS, 0, { initialColour: other })).toThrow(
        new RegExp(`round 1's colours are drawn already: ${drawn} for the top-ranked player \\(journal action \\d+\\); ${other} contradicts the lot`),
      );
    } finally {
      await running.close();
    }
  });
});

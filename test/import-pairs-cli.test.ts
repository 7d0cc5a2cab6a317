// `chessclock tournament import-pairs PAIRS --trf FILE` (docs/tournament.md "An event with an outside
// pairing program"): a pairing program's pairs list (JaVaFo/bbpPairings `-p`) read against the TRF it
// was paired from, printed as the tournament-file round, or loaded into a running host where it is
// checked against the journal and waits for an arbiter's approval. The real command against a real host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { PROPOSE_ROUND } from '../host/app/proposal-records.ts';
import { ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { chessclock } from './pairing-program.fixture.ts';

const TOKEN = 'import-pairs-cli-arbiter-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'import-pairs-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** A host whose round 1 is confirmed (its own engine fails: --mode=exit), the TRF after round 1 it exports, and a pairs list for round 2. */
async function afterRound1(): Promise<{ r: RunningHost; trf: string; pairs: string }> {
  const r = await startHost({
    journal: new Journal(':memory:'),
    hall: parseTournament(swissTournament(['--mode=exit'])),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
    log: () => undefined,
  });
  running.push(r);
  await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
  await r.host.idle();
  const trf = join(dir, `after-round-1-${running.length}.trf`);
  writeFileSync(trf, r.exports.trf(SWISS, 1));
  const pairs = join(dir, `round-2-${running.length}.txt`);
  writeFileSync(pairs, '4\n2 1\n4 3\n5 6\n7 0\n');
  return { r, trf, pairs };
}

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const proposalsOf = (r: RunningHost) => r.journal.arbiterActions().filter((a) => a.action === PROPOSE_ROUND && a.outcome === 'applied');

describe('chessclock tournament import-pairs', () => {
  it('without --host: the round after the TRF, boards in the list order, printed for the tournament file (which then loads); a bad line is named', {
    timeout: 60_000,
  }, async () => {
    const { trf, pairs } = await afterRound1();
    const bad = file('bad.txt', '4\n2 1\n4 17\n5 6\n7 0\n');
    const [out, refused, noTrf] = await Promise.all([
      chessclock(['tournament', 'import-pairs', pairs, '--trf', trf]),
      chessclock(['tournament', 'import-pairs', bad, '--trf', trf]),
      chessclock(['tournament', 'import-pairs', pairs]),
    ]);
    expect([out.status, out.stderr]).toEqual([0, '']);
    const round = JSON.parse(out.stdout);
    expect(round).toEqual({
      number: 2,
      boards: [
        { board: 1, white: 2, black: 1 },
        { board: 2, white: 4, black: 3 },
        { board: 3, white: 5, black: 6 },
      ],
      byes: [{ player: 7, kind: 'U' }],
    });
    const raw = swissTournament();
    (raw.events[0].rounds as unknown[]).push(round);
    expect(parseTournament(raw).events[0].rounds.map((r) => r.number)).toEqual([1, 2]);
    expect([refused.status, refused.stderr]).toEqual([
      1,
      `chessclock tournament import-pairs: ${bad} (paired from ${trf}): pairs file line 3: player 17 is not in the TRF (its 001 lines have starting ranks 1-7)\n`,
    ]);
    expect([noTrf.status, noTrf.stderr]).toEqual([
      2,
      'chessclock tournament import-pairs: --trf FILE is required: the TRF the pairs list was paired from (its players and rounds played)\n',
    ]);
  });

  it('--host: proposed as the next round (nothing opens until approved); the approved round is the list', { timeout: 60_000 }, async () => {
    const { r, trf, pairs } = await afterRound1();
    const out = await chessclock(['tournament', 'import-pairs', pairs, '--trf', trf, '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN });
    expect([out.status, out.stderr]).toEqual([0, '']);
    const [filed] = proposalsOf(r);
    expect(filed).toMatchObject({ arbiter: ARBITER, round: 2, payload: expect.objectContaining({ source: 'pairs', pairs: '4\n2 1\n4 3\n5 6\n7 0\n' }) });
    expect(out.stdout).toBe(
      `${SWISS} round 2: proposed from the pairs list by ${ARBITER} (journal action ${filed.id}); nothing is opened until an arbiter approves it (dashboard, Next round; or POST /api/events/${SWISS}/rounds/2/approve)\n` +
        '  board 1: 2 Drugi, Igralec - 1 Prvi, Igralec\n  board 2: 4 Četrti, Igralec - 3 Tretji, Igralec\n  board 3: 5 Peti, Igralec - 6 Šesti, Igralec\n  bye (U): 7 Sedmi, Igralec\n',
    );
    expect(r.journal.gamesByRound(SWISS, 2)).toEqual([]);
    expect(await r.host.approveRound(SWISS, 2, { arbiter: ARBITER })).toMatchObject({ ok: true, round: 2 });
    expect(r.journal.gamesByRound(SWISS, 2).map((g) => [g.board, g.whiteRank, g.blackRank])).toEqual([
      [1, 2, 1],
      [2, 4, 3],
      [3, 5, 6],
    ]);
  });

  it('--host: a TRF of another round, a TRF that disagrees with the journal, a bad pairs line: refused with the line (422), nothing filed', {
    timeout: 60_000,
  }, async () => {
    const { r, trf, pairs } = await afterRound1();
    const before1 = file('before-round-1.trf', r.exports.trf(SWISS, 0, { initialColour: 'white' }));
    // Player 5 lost round 1 (journal 0); this TRF says 1 (TRF16 round 1 result: column 99).
    const lines = r.exports.trf(SWISS, 1).split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('001    5'));
    lines[at] = lines[at].slice(0, 98) + '1' + lines[at].slice(99);
    const wrong = file('wrong-result.trf', lines.join('\r\n'));
    const bad = file('bad-line.txt', '4\n2 1\n4 17\n5 6\n7 0\n');
    const load = (p: string, t: string) =>
      chessclock(['tournament', 'import-pairs', p, '--trf', t, '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN });
    const [oldTrf, disagrees, badLine] = await Promise.all([load(pairs, before1), load(pairs, wrong), load(bad, trf)]);
    const refused = (what: string, why: string) => [
      1,
      `chessclock tournament import-pairs: the host refused ${what} as event "${SWISS}"'s next round (422 Unprocessable Entity): ${why}\n`,
    ];
    expect([oldTrf.status, oldTrf.stderr]).toEqual(
      refused(
        pairs,
        `the TRF the pairs were made from was written after round 0, and event "${SWISS}" has played 1 round(s): pair round 2 from the TRF after round 1 (chessclock export --trf --round 1)`,
      ),
    );
    expect([disagrees.status, disagrees.stderr]).toEqual(
      refused(pairs, `TRF line ${at + 1}, columns 99 (round 1 result): player 5 has "0001 b 1" in the TRF, the journal "0001 b 0"`),
    );
    expect([badLine.status, badLine.stderr]).toEqual(refused(bad, 'pairs file line 3: player 17 is not in the TRF (its 001 lines have starting ranks 1-7)'));
    expect(proposalsOf(r)).toEqual([]);
  });
});

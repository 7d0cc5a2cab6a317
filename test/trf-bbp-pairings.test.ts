// Our TRFs through the real bbpPairings (the FIDE-endorsed Dutch engine; test/bbp-pairings.fixture.ts
// builds it from its source, or the tests skip and say why). A small Swiss is run by the host with
// bbpPairings as its pairing engine from nothing: each round is paired by `bbpPairings --dutch
// IN.trf -p OUT.txt` on the TRF the host writes, approved, played and confirmed; then the TRF after
// the round (TRF-2026, and the TRF16 form) is handed to `bbpPairings --dutch TRF -c`, which pairs
// the last round again and exits 0 only when its pairing equals the file's (docs/exports.md "FIDE
// TRF", "What bbpPairings checked"). The registration TRF (before round 1) passes the same check.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bbpPairings } from './bbp-pairings.fixture.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { Host } from '../host/app/host.ts';
import { PROPOSE_ROUND, type RoundProposal } from '../host/app/proposal-records.ts';
import { journalNextRoundPairing } from '../host/adapters/exports/next-round.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import { eventTrf, eventTrfReport } from '../host/adapters/exports/trf-event.ts';
import { formatTrf } from '../host/adapters/exports/trf.ts';
import { parseTrf } from '../host/adapters/exports/trf-parser.ts';
import { parsePairsFile } from '../host/adapters/exports/trf-import.ts';
import { ARBITER, confirmRound, stoppedClock, SWISS, swissBeforeRound1 } from '../host/app/next-round.fixture.ts';
import type { GameResult } from '../rules/vocabulary.ts';

const bbp = bbpPairings();
if (bbp.skip) console.warn(`test/trf-bbp-pairings.test.ts skipped: ${bbp.skip}`);

const dir = mkdtempSync(join(tmpdir(), 'trf-bbp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/**
 * `bbpPairings.exe --dutch FILE -c`: it pairs every round of the file again from the rounds before
 * it and prints `NAME: Round #r` per round (NAME: the file's name without its folder and extension), followed by the pairings that differ ("Checker
 * pairings … Tournament pairings") where its own differ from the file's. It exits 0 either way
 * (README.txt, error codes: a round with no valid pairing is a discrepancy too), so the rounds
 * checked and the discrepancies are read from what it prints.
 */
function check(trf: string): { status: number | null; rounds: number; discrepancies: string } {
  const file = join(dir, `check-${++files}.trf`);
  writeFileSync(file, trf);
  const run = spawnSync(bbp.exe!, ['--dutch', file, '-c'], { encoding: 'utf8', timeout: 60_000 });
  const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.trim() !== '');
  const header = (l: string) => /^\S+: Round #\d+$/.test(l);
  return { status: run.status, rounds: lines.filter(header).length, discrepancies: lines.filter((l) => !header(l)).join('\n') };
}

/** `bbpPairings.exe --dutch FILE -p OUT`: the pairs it writes. */
function pair(trf: string): string {
  const file = join(dir, `pair-${++files}.trf`);
  const out = `${file}.pairs`;
  writeFileSync(file, trf);
  execFileSync(bbp.exe!, ['--dutch', file, '-p', out], { timeout: 60_000 });
  return readFileSync(out, 'utf8');
}

/** 9 players, 4 rounds, no round in the file: bbpPairings pairs every round, the arbiter drew White for the top player. */
function swissByBbp() {
  const raw = swissBeforeRound1([], { initialColour: 'white' });
  const event = raw.events[0] as Record<string, unknown> & { players: unknown[]; pairingEngine: { command: string[] } };
  event.plannedRounds = 4;
  event.pairingEngine.command = [bbp.exe!, '--dutch'];
  event.players.push({ rank: 8, name: 'Osmi, Igralec', rating: 2050 }, { rank: 9, name: 'Deveti, Igralec', rating: 2000 });
  return raw;
}

/** The TRF with board 1 of `round` played with the colours reversed (both players' colour columns; the results as they were). */
function swapColoursOfBoard1(trf: string, board: { white: number; black: number }, round: number): string {
  const at = 92 + 10 * (round - 1) + 5 - 1; // colour column (0-based)
  return trf
    .split('\r\n')
    .map((l) => {
      if (!l.startsWith('001') || ![board.white, board.black].includes(Number(l.slice(4, 8)))) return l;
      const colour = l[at] === 'w' ? 'b' : 'w';
      return l.slice(0, at) + colour + l.slice(at + 1);
    })
    .join('\r\n');
}

// Each round's results, board by board: wins both ways, draws and a forfeit (FIDE Laws 6.7.1: the
// TRF's `+`/`-`, a game not played, which the Dutch rules let the two meet again).
const RESULTS: GameResult[][] = [
  ['1-0', '1/2-1/2', '0-1', '1-0'],
  ['0-1', '1-0', '+-', '1/2-1/2'],
  ['1/2-1/2', '0-1', '1-0', '1-0'],
  ['1-0', '1-0', '1/2-1/2', '-+'],
];

describe.skipIf(!!bbp.skip)('TRF-2026 checked by the real bbpPairings (FIDE C.04 Annex 2 TRF-2026; bbpPairings -c and -p)', () => {
  it('the registration TRF (players, 142, 152, XXR, XXC, 222; no round) passes -c, and -p pairs round 1 from it', () => {
    const journal = new Journal(':memory:');
    try {
      const hall = parseTournament(swissByBbp());
      const trf = eventTrf(journal, hall, SWISS, { upToRound: 0, initialColour: 'white' });
      expect(trf.split('\r\n')).toEqual(expect.arrayContaining(['142 4', '152 W', 'XXR 4', 'XXC white1', '222 900+10']));
      expect(check(trf)).toEqual({ status: 0, rounds: 0, discrepancies: '' });
      // FIDE C.04.3 round 1 of 9: top half against bottom half, 9 the bye, White to 1 as drawn.
      expect(pair(trf)).toBe('5\n1 5\n6 2\n3 7\n8 4\n9 0\n');
    } finally {
      journal.close();
    }
  });

  it('a 4-round Swiss paired by bbpPairings through the host: the TRF-2026 and the TRF16 after every round pass -c', async () => {
    const journal = new Journal(':memory:');
    const hall = parseTournament(swissByBbp());
    const host = new Host({ journal, hall, clock: stoppedClock(), pairing: journalNextRoundPairing(journal, hall), log: () => undefined }).start();
    const exports = journalExports(journal, hall, () => 0);
    try {
      for (let round = 1; round <= 4; round++) {
        await host.idle();
        const proposals = journal.arbiterActions().filter((a) => a.action === PROPOSE_ROUND);
        const proposal = proposals[proposals.length - 1].payload as RoundProposal;
        expect(proposal.engine, `round ${round} proposed by the engine`).toMatchObject({ exitCode: 0 });
        expect(proposal.round!.number).toBe(round);
        // The host's proposal is bbpPairings' own list, board for board.
        expect(proposal.round!.boards.map((b) => [b.white, b.black])).toEqual(
          parsePairsFile(proposal.engine!.output!)
            .filter((p) => p.black !== null)
            .map((p) => [p.white, p.black]),
        );
        expect((await host.approveRound(SWISS, round, { arbiter: ARBITER })).ok).toBe(true);
        await confirmRound(host, round, RESULTS[round - 1]);
        await host.idle();

        const trf26 = exports.trf(SWISS, round);
        const trf16 = exports.trf(SWISS, round, { format: 'trf16' });
        expect(parseTrf(trf26).version).toBe('TRF-2026');
        expect(parseTrf(trf26).players.every((p) => p.rounds.length === round)).toBe(true);
        // Every round of the file re-paired by bbpPairings equals the file's, in both forms.
        expect(check(trf26), `TRF-2026 after round ${round}:\n${trf26}`).toEqual({ status: 0, rounds: round, discrepancies: '' });
        expect(check(trf16), `TRF16 after round ${round}:\n${trf16}`).toEqual({ status: 0, rounds: round, discrepancies: '' });
        // The check has teeth: the same file with one board's colours swapped is not its pairing.
        const swapped = check(swapColoursOfBoard1(trf26, proposal.round!.boards[0], round));
        expect(swapped.discrepancies).toMatch(/Checker pairings/);
      }
      // The forfeit of round 2 is in the file as bbpPairings read it: `+` and `-`, not a played game.
      const codes = parseTrf(exports.trf(SWISS, 4)).players.flatMap((p) => p.rounds.map((r) => r.code));
      expect(codes).toEqual(expect.arrayContaining(['+', '-', '1', '0', '=', 'U']));
    } finally {
      await host.close();
      journal.close();
    }
  });

  it('bbpPairings reads our 240 records: a player with a half-point bye asked for the next round is left out of its pairing', () => {
    const journal = new Journal(':memory:');
    try {
      const hall = parseTournament(swissByBbp());
      const report = eventTrfReport(journal, hall, SWISS, { upToRound: 0, initialColour: 'white' });
      report.requestedByes = [{ kind: 'H', round: 1, players: [1, 9] }];
      const trf = formatTrf(report);
      expect(trf.split('\r\n')).toContain('240 H 001    1    9');
      const pairs = parsePairsFile(pair(trf));
      const paired = pairs.flatMap((p) => [p.white, p.black]).filter((r) => r !== null);
      expect(paired.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8]);
      expect(pairs.some((p) => p.black === null)).toBe(true); // 7 left: one of them has the pairing-allocated bye
    } finally {
      journal.close();
    }
  });
});

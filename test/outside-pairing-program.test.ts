// The organiser's loop with an outside pairing program (docs/tournament.md "An event with an outside
// pairing program"), end to end: a 5-round Swiss of 11 players whose tournament file lists no round.
// Every round goes out as the host's TRF (`chessclock export --trf --round N`, from round 0, the
// registration TRF), is paired by the pairing program (`PROGRAM --dutch IN.trf -p OUT.txt`: the real
// bbpPairings where test/bbp-pairings.fixture.ts builds it, else the stand-in with its command line,
// which the output says), comes back as its pairs list with no hand edit (`chessclock tournament
// import-pairs OUT.txt --trf IN.trf --host URL --event ID`), is approved by an arbiter (the API the
// dashboard's Approve calls), and is played: results entered and confirmed through the host. With the
// real engine, every TRF after a round passes bbpPairings' checker `-c` (the round's pairing is the
// one the engine itself makes from the TRF before it: FIDE C.04.3 Dutch system, by a FIDE-endorsed program).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../host/start-host.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { parsePairsFile } from '../host/adapters/exports/trf-import.ts';
import { checkTrf, parseTrf } from '../host/adapters/exports/trf-parser.ts';
import { ARBITER, confirmRound, stoppedClock } from '../host/app/next-round.fixture.ts';
import type { GameResult } from '../rules/vocabulary.ts';
import { chessclock, EVENT, openSwiss, pairingProgram, runProgram } from './pairing-program.fixture.ts';

const TOKEN = 'outside-pairing-program-arbiter-token-0123';
const ROUNDS = 5;
const dir = mkdtempSync(join(tmpdir(), 'outside-pairing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Varied results, the same every run: wins both ways and draws, so the score groups split. */
const resultOf = (round: number, board: number): GameResult => (['1-0', '0-1', '1/2-1/2', '1-0'] as const)[(round * 3 + board) % 4];

describe('an event with an outside pairing program: every round out as TRF and back as a pairs list, no hand edit (docs/tournament.md)', () => {
  it('plays a 5-round Swiss of 11 players from the registration TRF on; with bbpPairings every TRF passes its checker -c', { timeout: 300_000 }, async () => {
    const program = pairingProgram();
    console.info(`the pairing program of this run: ${program.name}`);
    const tournament = join(dir, 'open.json');
    writeFileSync(tournament, JSON.stringify(openSwiss()));
    const db = join(dir, 'hall.db');
    const running = await startHost({
      journal: db,
      hall: loadTournamentFile(tournament),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
      log: () => undefined,
    });
    try {
      const exportTrf = async (round: number): Promise<string> => {
        const file = join(dir, `after-round-${round}.trf`);
        const lot = round === 0 ? ['--initial-colour', 'white'] : [];
        const out = await chessclock([
          'export',
          '--db',
          db,
          '--tournament',
          tournament,
          '--event',
          EVENT,
          '--trf',
          '--round',
          String(round),
          ...lot,
          '--out',
          file,
        ]);
        expect([out.status, out.stderr], `export --round ${round}`).toEqual([0, '']);
        expect(checkTrf(readFileSync(file, 'utf8'))).toEqual([]);
        return file;
      };
      const check = async (trf: string, round: number) => {
        if (!program.real) return; // the stand-in has no checker
        const checked = await runProgram(program, [trf, '-c']);
        // The checker re-pairs every round from the rounds before it and prints "FILE: Round #k" per
        // round, each followed by the pairings that differ from its own: none may follow.
        const name = trf
          .split('/')
          .at(-1)!
          .replace(/\.trf$/, '');
        const lines = checked.stdout.split(/\r?\n/).filter((l) => l.trim() !== '');
        expect([checked.status, checked.stderr, lines], `bbpPairings -c on the TRF after round ${round}`).toEqual([
          0,
          '',
          Array.from({ length: round }, (_, k) => `${name}: Round #${k + 1}`),
        ]);
      };

      for (let round = 1; round <= ROUNDS; round++) {
        const trf = await exportTrf(round - 1);
        if (round > 1) await check(trf, round - 1);
        const pairsFile = join(dir, `round-${round}.txt`);
        const paired = await runProgram(program, [trf, '-p', pairsFile]);
        expect([paired.status, paired.stderr], `${program.name} pairs round ${round}`).toEqual([0, '']);

        const loaded = await chessclock(['tournament', 'import-pairs', pairsFile, '--trf', trf, '--host', running.url!, '--event', EVENT], {
          CHESSCLOCK_TOKEN: TOKEN,
        });
        expect([loaded.status, loaded.stderr], `import-pairs round ${round}`).toEqual([0, '']);
        expect(loaded.stdout).toMatch(new RegExp(`^${EVENT} round ${round}: proposed from the pairs list by ${ARBITER.replace(/[()]/g, '\\$&')} `));
        // Nothing opens before the arbiter approves.
        expect(running.journal.gamesByRound(EVENT, round)).toEqual([]);
        const approved = await fetch(`${running.url}/api/events/${EVENT}/rounds/${round}/approve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(approved.status, `approve round ${round}`).toBe(200);

        // The round opened is the program's: its boards in its order, its bye; nothing edited.
        const pairs = parsePairsFile(readFileSync(pairsFile, 'utf8'));
        const boards = pairs.filter((p) => p.black !== null);
        expect(running.journal.gamesByRound(EVENT, round).map((g) => [g.board, g.whiteRank, g.blackRank])).toEqual(
          boards.map((p, i) => [i + 1, p.white, p.black]),
        );
        expect(running.host.hall.events[0].rounds.at(-1)!.byes).toEqual(
          pairs.filter((p) => p.black === null).map((p) => ({ player: p.white, team: null, kind: 'U' })),
        );

        await confirmRound(
          running.host,
          round,
          boards.map((_, i) => resultOf(round, i + 1)),
          EVENT,
        );
      }

      // The TRF after the last round: every player with 5 round fields, each round the program's pairs; the checker agrees.
      const last = await exportTrf(ROUNDS);
      await check(last, ROUNDS);
      const file = parseTrf(readFileSync(last, 'utf8'));
      expect(file.players.map((p) => p.rounds.length)).toEqual(Array(11).fill(ROUNDS));
      for (let round = 1; round <= ROUNDS; round++) {
        const pairs = parsePairsFile(readFileSync(join(dir, `round-${round}.txt`), 'utf8'));
        for (const p of pairs) {
          const white = file.players.find((x) => x.rank === p.white)!.rounds[round - 1];
          expect(white, `round ${round}, player ${p.white}`).toMatchObject(
            p.black === null ? { opponent: null, code: 'U' } : { opponent: p.black, colour: 'w' },
          );
        }
      }
      // Every player met a different opponent each round (the program's pairings, played as given).
      for (const p of file.players) {
        const met = p.rounds.map((r) => r.opponent).filter((o) => o !== null);
        expect(new Set(met).size, `player ${p.rank} met someone twice`).toBe(met.length);
      }
    } finally {
      await running.close();
    }
  });
});

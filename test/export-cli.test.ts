// `chessclock export` (docs/exports.md): a journal's TRF, round PGN and JSON Lines to stdout,
// from the real command over a SQLite journal the director and the results wrote. The PGN is
// read by chessops and pgn-parser; the TRF is refused (exit 1, saying why) until every result
// of the round is confirmed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { Director } from '../host/app/director.ts';
import { readPgnWithBoth } from '../host/adapters/exports/pgn-readers.fixture.ts';
import { writeFileSync } from 'node:fs';
import { checkTrf, parseTrf } from '../host/adapters/exports/trf-parser.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const TOURNAMENT = fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url));
const START = Date.UTC(2018, 1, 13, 12, 0);

describe('chessclock export', () => {
  it('--pgn, --trf and --jsonl of a journal; the TRF refused with a reason until round 1 is confirmed', { timeout: 120_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
    try {
      const db = join(dir, 'hall.db');
      const journal = new Journal(db);
      const games = new Director(journal, loadTournamentFile(TOURNAMENT)).openRound('ivanovo-2018', 1, START, { 1: 'clk-1' });
      journal.append({
        clockId: 'clk-1',
        bootId: 'b',
        seq: 1,
        type: 'started',
        whiteMs: 3_600_000,
        blackMs: 3_600_000,
        monoMs: 0,
        utcMs: START,
        uncertaintyMs: 2,
      });
      for (const g of games)
        journal.reportResult(g.gameId, {
          result: g.board === 3 ? '--' : '1-0',
          how: 'played',
          source: 'arbiter',
          arbiter: 'Главный судья',
          utcMs: START + 60 * 60_000,
        });
      const exp = (...args: string[]) =>
        spawnSync(process.execPath, [BIN, 'export', '--db', db, '--tournament', TOURNAMENT, '--event', 'ivanovo-2018', ...args], { encoding: 'utf8' });

      const refused = exp('--trf', '--round', '1');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/cannot write the TRF: round 1 board 1 .*confirm/);

      for (const g of games) journal.confirmResult(g.gameId, 'Главный судья', START + 61 * 60_000);
      journal.close();
      const trf = exp('--trf', '--round', '1');
      expect(trf.status).toBe(0);
      expect(checkTrf(trf.stdout)).toEqual([]);
      expect(parseTrf(trf.stdout).xxr).toBe(7);
      // --trf16: the older form. A team event's two forms are the same file: what TRF-2026 adds
      // (tag 152 before round 1, 240 records) is written for individual events only (docs/exports.md).
      const trf16 = exp('--trf16', '--round', '1');
      expect(trf16.status).toBe(0);
      expect(trf16.stdout).toBe(trf.stdout);
      expect(exp('--trf', '--trf16').status).toBe(2);

      const pgn = exp('--pgn', '--round', '1');
      expect(pgn.status).toBe(0);
      // Board 3's double forfeit is written 0-0 (docs/exports.md "Forfeits in PGN").
      expect(readPgnWithBoth(pgn.stdout).map((g) => [g.tags.Round, g.result])).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8].map((b) => [`1.${b}`, b === 3 ? '0-0' : '1-0']),
      );

      const jsonl = exp('--jsonl');
      expect(jsonl.status).toBe(0);
      expect(
        jsonl.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ).toEqual([expect.objectContaining({ clock: 'clk-1', event: 'ivanovo-2018', round: 1, board: 1, type: 'started', utcMs: START })]);

      expect(exp('--pgn', '--trf').status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--pgn --moves GAMES.pgn: [%clk]/[%emt] from the presses (exit 0), a count that differs reported (exit 3), bad input named by line:column (exit 1)', {
    timeout: 120_000,
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-moves-'));
    try {
      const db = join(dir, 'hall.db');
      const journal = new Journal(db);
      const [b1] = new Director(journal, loadTournamentFile(TOURNAMENT)).openRound('ivanovo-2018', 1, START, { 1: 'clk-1' });
      // 60 min sudden death: White thinks 4.2 s, Black 7 s (the clock's own times, as a clock reports them).
      const ev = (
        seq: number,
        type: 'started' | 'moved',
        side: 'white' | 'black' | null,
        move: number | null,
        monoMs: number,
        whiteMs: number,
        blackMs: number,
      ) => journal.append({ clockId: 'clk-1', bootId: 'b', seq, type, side, move, whiteMs, blackMs, monoMs, utcMs: START + monoMs, uncertaintyMs: 2 });
      ev(1, 'started', null, null, 0, 3_600_000, 3_600_000);
      ev(2, 'moved', 'white', 1, 4_200, 3_595_800, 3_600_000);
      ev(3, 'moved', 'black', 1, 11_200, 3_595_800, 3_593_000);
      journal.close();
      const tags = `[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1.1"]\n[White "${b1.white}"]\n[Black "${b1.black}"]\n[Result "*"]\n\n`;
      const moves = (name: string, text: string) => {
        const path = join(dir, name);
        writeFileSync(path, text);
        return spawnSync(process.execPath, [BIN, 'export', '--db', db, '--tournament', TOURNAMENT, '--event', 'ivanovo-2018', '--pgn', '--moves', path], {
          encoding: 'utf8',
        });
      };

      const ok = moves('ok.pgn', `${tags}1. e4 e5 *\n`);
      expect(ok.status).toBe(0);
      expect(ok.stderr).toBe('chessclock export: 1 game(s) merged, 0 warning(s)\n');
      const [game] = readPgnWithBoth(ok.stdout);
      // %clk rounded up as the clock shows it: 3595.8 s → 0:59:56; %emt 4.2 s → 5 s, 7 s.
      expect([game.clocks, game.emts]).toEqual([
        [3596, 3593],
        [5, 7],
      ]);

      const more = moves('more.pgn', `${tags}1. e4 e5 2. Nf3 *\n`);
      expect(more.status).toBe(3);
      expect(more.stderr).toContain(
        `warning: ${join(dir, 'more.pgn')}:1: 1.1 ${b1.white} – ${b1.black}: the moves and the presses differ: White 2 moves / 1 presses`,
      );
      expect(readPgnWithBoth(more.stdout)[0].clocks).toEqual([3596, 3593, null]);

      const bad = moves('bad.pgn', `${tags}1. e4 {no end *\n`);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toBe(`chessclock export: --moves ${join(dir, 'bad.pgn')}:9:7: comment "{" not closed by "}" before the end of the file\n`);
      expect(bad.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The organiser's commands say what they do and refuse what they cannot do: `tournament init
// --help` prints its usage (it wrote a file named `--help`), an export of a round the journal
// does not have is an error (it wrote nothing and exited 0), the top-level help names every
// export, and the hall's log words a decisive result by what happened (it said "agreed").
// Spawns the real command where the command line is what is checked.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Director } from '../host/app/director.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { Journal } from '../host/store/journal.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { Fleet } from '../simulator/fleet.ts';
import { describeEnding } from '../simulator/player-script.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const TOURNAMENT = fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url));
const chessclock = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd });

describe('chessclock tournament: an option is not a FILE (docs/tournament.md "The file")', () => {
  it('init --help and validate --help print the usage and write nothing; init -o is refused (exit 2) without writing a file', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-commands-'));
    try {
      for (const command of ['init', 'validate']) {
        const help = chessclock(dir, 'tournament', command, '--help');
        expect([help.status, help.stderr]).toEqual([0, '']);
        expect(help.stdout).toMatch(/^usage: chessclock tournament init \[FILE\]/);
      }
      const option = chessclock(dir, 'tournament', 'init', '-o');
      expect(option.status).toBe(2);
      expect(option.stderr).toMatch(/^chessclock tournament init: unknown option -o \(FILE may not begin with "-"; write \.\/-o for such a file\)/);
      expect(readdirSync(dir)).toEqual([]);
      // A file whose name begins with "-" is still written when the organiser says so.
      expect(chessclock(dir, 'tournament', 'init', './-o').status).toBe(0);
      expect(existsSync(join(dir, '-o'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chessclock export: a round the journal does not have (docs/exports.md)', () => {
  it('--pgn --round 7 of an event whose journal holds round 1 is refused (exit 1), saying the rounds there are; round 1 is written', {
    timeout: 60_000,
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-commands-'));
    try {
      const db = join(dir, 'hall.db');
      const journal = new Journal(db);
      new Director(journal, loadTournamentFile(TOURNAMENT)).openRound('ivanovo-2018', 1, Date.UTC(2018, 1, 13, 12), { 1: 'clk-1' });
      journal.close();
      const exp = (...args: string[]) => chessclock(dir, 'export', '--db', db, '--tournament', TOURNAMENT, '--event', 'ivanovo-2018', ...args);
      for (const kind of ['--pgn', '--jsonl', '--report']) {
        const r = exp(kind, '--round', '7');
        expect([r.status, r.stdout, r.stderr], kind).toEqual([
          1,
          '',
          'chessclock export: --round 7: event "ivanovo-2018" has no round 7 in the journal (the journal has round 1; the event has 7 rounds)\n',
        ]);
      }
      const pgn = exp('--pgn', '--round', '1');
      expect(pgn.status).toBe(0);
      expect(pgn.stdout).toContain('[Round "1.1"]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chessclock --help (README.md, the subcommands)', () => {
  it("names every export `chessclock export` writes in the export line (its usage's choice of --trf … --report)", () => {
    const dir = tmpdir();
    const exportHelp = chessclock(dir, 'export', '--help').stdout;
    const choice = /\((--trf[^)]*)\)/.exec(exportHelp.split('\n')[0])![1];
    const kinds = choice.split('|').map((k) => k.trim().split(' ')[0]);
    expect(kinds).toContain('--report');
    const line = chessclock(dir, '--help')
      .stdout.split('\n')
      .find((l) => /^\s+export\s/.test(l))!;
    for (const kind of kinds) expect(line, kind).toContain(kind);
  });
});

describe("the hall's log: how a game ended, from what happened", () => {
  it('a decisive result the players entered is a resignation, a draw is agreed, a flag and a forfeit are said as such (never "agreed" for 1-0 or 0-1)', async () => {
    const fleet = await Fleet.create({
      clocks: 6,
      seed: 7,
      timeControl: (i) => presetTimeControl(i < 4 ? 'rapid' : 'armageddon', { defaultTime: i === 5 ? 0 : null }),
      players: { movesMin: 6, movesMax: 60, penaltyProbability: 0, pauseProbability: 0, lateProbability: 0.5, lateMaxMs: 20 * 60_000 },
    });
    try {
      const reports = await fleet.run();
      for (const [i, r] of reports.entries()) {
        const status = fleet.clocks[i].firmware.reading().status;
        const reason = describeEnding(r);
        if (status === 'flagged') expect(r.ended).toBe('flag');
        else if (status === 'forfeited') expect(r.ended).toBe('forfeit');
        else expect(r.ended).toBe(r.result === '1/2-1/2' ? 'draw agreed' : 'resignation');
        if (r.result === '1-0' || r.result === '0-1') expect(reason).not.toMatch(/agreed/);
        if (r.ended === 'resignation') expect(reason).toBe(`resignation: ${r.result === '1-0' ? 'Black' : 'White'} resigned`);
      }
      // The seed plays a resignation (the line the hall logged as "agreed").
      expect(reports.map((r) => r.ended)).toContain('resignation');
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});

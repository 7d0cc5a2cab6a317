// `chessclock tournament init | validate` (docs/tournament.md): the commented template is valid
// as it stands and is the example the docs show; validate names every problem by line:column
// and field path and exits 1; init never overwrites a file. Spawns the real command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOURNAMENT_TEMPLATE } from '../host/domain/tournament-template.ts';
import { parseTournamentText } from '../host/domain/tournament-file.ts';
import { Director } from '../host/app/director.ts';
import { Journal } from '../host/store/journal.ts';
import { CODE_POINTS, roundRecords } from '../host/domain/standings.ts';
import { formatTrf } from '../host/adapters/exports/trf.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const chessclock = (...args: string[]) => spawnSync(process.execPath, [BIN, 'tournament', ...args], { encoding: 'utf8' });

describe('chessclock tournament', () => {
  it('the template is the docs example, loads as it stands, and its events play: the knockout opens, the team round robin is paired by the Berger tables', () => {
    const docs = readFileSync(fileURLToPath(new URL('../docs/tournament.md', import.meta.url)), 'utf8');
    const block = /```jsonc\n([\s\S]*?)```/.exec(docs)![1];
    expect(block).toBe(TOURNAMENT_TEMPLATE);
    const hall = parseTournamentText(TOURNAMENT_TEMPLATE);
    expect(hall.events.map((e) => [e.id, e.kind, e.plannedRounds])).toEqual([
      ['final-2007', 'knockout', 2],
      ['team-2018', 'team', 3],
    ]);
    const journal = new Journal(':memory:');
    try {
      const director = new Director(journal, hall);
      expect(director.openRound('final-2007', 1, Date.UTC(2007, 7, 16, 14)).map((g) => [g.white, g.black])).toEqual([
        ['Rožič, Vesna', 'Četrta, Igralka'],
        expect.any(Array),
      ]);
      // FIDE Berger table of 4, round 1: 1-4, 2-3.
      expect(hall.events[1].rounds[0].teamMatches.map((m) => `${m.white}-${m.black}`)).toEqual(['1-4', '2-3']);
      expect(director.openRound('team-2018', 1, Date.UTC(2018, 1, 13, 12))).toHaveLength(8);
    } finally {
      journal.close();
    }
  });

  it('init writes the template and never overwrites; validate says ok, or lists each problem with line:column and field path (exit 1)', {
    timeout: 60_000,
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tournament-cli-'));
    try {
      const file = join(dir, 'hall.json');
      const init = chessclock('init', file);
      expect(init.status).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(TOURNAMENT_TEMPLATE);
      const again = chessclock('init', file);
      expect([again.status, again.stderr]).toEqual([1, `chessclock tournament init: ${file} exists; not overwritten\n`]);

      // Two mistakes an organiser makes: a name with a newline, game 1's White not a player of the match.
      writeFileSync(file, TOURNAMENT_TEMPLATE.replace('"name": "Bajt, Indira"', '"name": "Bajt,\\nIndira"').replace('"firstWhite": 1', '"firstWhite": 3'));
      const bad = chessclock('validate', file);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain(`${file}: 2 problem(s) in the tournament file:`);
      expect(bad.stderr).toMatch(/line 22:22 events\[0\]\.players\[1\]\.name: "Bajt,\\nIndira" holds the control character U\+000A at position 6/);
      expect(bad.stderr).toMatch(
        /line 29:46 events\[0\]\.rounds\[0\]\.knockout\[0\]\.firstWhite: must be one of the match's players \(player 1 or player 4\), got 3/,
      );
      const ok = chessclock('validate', join(dir, 'none.json'));
      expect([ok.status, ok.stderr]).toEqual([1, expect.stringMatching(/cannot read .*none\.json/)]);
      expect(chessclock('validate').status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("import-trf turns a pairing program's TRF into a tournament file that validates (its boards in the FIDE board order)", { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tournament-cli-'));
    try {
      // Round 1 played (1-4 1-0, 3-2 ½-½); round 2 paired by the program: 2-1, 4-3.
      const records = roundRecords(
        [1, 2, 3, 4],
        2,
        [
          { round: 1, board: 1, white: 1, black: 4, result: '1-0' },
          { round: 1, board: 2, white: 3, black: 2, result: '1/2-1/2' },
        ],
        [],
      );
      for (const [w, b] of [
        [4, 3],
        [2, 1],
      ]) {
        records.get(w)![1] = { opponent: b, colour: 'w', code: ' ' };
        records.get(b)![1] = { opponent: w, colour: 'b', code: ' ' };
      }
      const trf = formatTrf({
        name: 'Open',
        city: 'Ljubljana',
        federation: 'SLO',
        startDate: '2007/08/16',
        endDate: '2007/08/19',
        chiefArbiter: 'Ana Srebrnič',
        deputyArbiters: [],
        type: 'Swiss',
        timeControlText: null,
        timeControl: '5400+30',
        rounds: 2,
        plannedRounds: 5,
        roundDates: [],
        players: [1, 2, 3, 4].map((rank) => ({
          rank,
          sex: null,
          title: null,
          name: `Player, ${rank}`,
          rating: 2300 - rank * 50,
          federation: 'SLO',
          fideId: null,
          birthDate: null,
          points: records.get(rank)!.reduce((s, r) => s + CODE_POINTS[r.code], 0),
          placement: rank,
          rounds: records.get(rank)!,
        })),
      });
      writeFileSync(join(dir, 'pairs.trf'), trf);
      const r = chessclock('import-trf', join(dir, 'pairs.trf'), '--id', 'open-2007', '--default-time', '1800');
      expect([r.status, r.stderr]).toEqual([0, '']);
      const hall = parseTournamentText(r.stdout);
      const ev = hall.events[0];
      expect([ev.id, ev.name, ev.plannedRounds, ev.timeControl.defaultTimeMs]).toEqual(['open-2007', 'Open', 5, 1_800_000]);
      // Round 2: 2-1 (the higher player 1 has 1 point) before 4-3 (player 3 has ½).
      expect(ev.rounds[1].boards).toEqual([
        { board: 1, white: 2, black: 1 },
        { board: 2, white: 4, black: 3 },
      ]);
      writeFileSync(join(dir, 'broken.trf'), trf.replace('001    2', '001    x'));
      const bad = chessclock('import-trf', join(dir, 'broken.trf'), '--id', 'x');
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/TRF line \d+, columns 5-8: starting rank must be digits/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

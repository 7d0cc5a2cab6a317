// The commands on input that grows badly or is cut short (docs/tournament.md "Limits",
// docs/exports.md "Reading a TRF"): `chessclock tournament validate` and `import-trf` refuse it
// with the line and column and exit 1, never a stack trace, never an import with fields lost.
// Spawns the real command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const chessclock = (...args: string[]) => spawnSync(process.execPath, [BIN, 'tournament', ...args], { encoding: 'utf8' });

/** A 001 line by its TRF16 columns (rank 5-8, name 15-47, points 81-84, rank 86-89), then its round fields. */
const playerLine = (rank: number, opponent: number, colour: string, rounds: number) =>
  `001 ${String(rank).padStart(4)} m    ${`Player, ${rank}`.padEnd(33)} 2000 SLO ${''.padStart(11)} ${''.padEnd(10)}  0.0 ${String(rank).padStart(4)}  ` +
  Array.from({ length: rounds }, () => `${String(opponent).padStart(4)} ${colour}  `).join('  ');

describe('chessclock tournament: input limits', () => {
  it('validate: too deep a nesting and a key written twice are refused with their line:column (exit 1)', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    try {
      writeFileSync(join(dir, 'deep.json'), `{ "events": ${'['.repeat(100_000)}${']'.repeat(100_000)} }`);
      const deep = chessclock('validate', join(dir, 'deep.json'));
      expect([deep.status, deep.stderr]).toEqual([
        1,
        `${join(dir, 'deep.json')}: 1 problem(s) in the tournament file:\n  line 1:76: nested deeper than 64 levels of objects and arrays; a tournament file needs far fewer (docs/tournament.md "Limits")\n`,
      ]);
      writeFileSync(join(dir, 'twice.json'), '{ "events": [],\n  "events": [] }');
      const twice = chessclock('validate', join(dir, 'twice.json'));
      expect(twice.status).toBe(1);
      expect(twice.stderr).toContain('line 2:3 events: duplicate key "events", first written at line 1:3');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('import-trf: a cut 001 line and an XXR below the rounds the lines carry are refused by line and columns (exit 1)', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    try {
      const head = ['012 Open', '222 5400+30'];
      const whole = [...head, 'XXR 7', playerLine(1, 2, 'w', 7), playerLine(2, 1, 'b', 7)];
      writeFileSync(join(dir, 'whole.trf'), whole.join('\n') + '\n');
      expect(chessclock('import-trf', join(dir, 'whole.trf'), '--id', 'open').status).toBe(0);
      writeFileSync(join(dir, 'cut.trf'), [...whole.slice(0, 4), whole[4].slice(0, 40)].join('\n') + '\n');
      const cut = chessclock('import-trf', join(dir, 'cut.trf'), '--id', 'open');
      expect([cut.status, cut.stdout]).toEqual([1, '']);
      expect(cut.stderr).toContain('TRF line 5, columns 41-84: player line cut short: it ends at column 40');
      writeFileSync(join(dir, 'xxr.trf'), whole.join('\n').replace('XXR 7', 'XXR 5') + '\n');
      const xxr = chessclock('import-trf', join(dir, 'xxr.trf'), '--id', 'open');
      expect([xxr.status, xxr.stdout]).toEqual([1, '']);
      expect(xxr.stderr).toContain('TRF line 3, columns 5-: XXR 5 plans 5 rounds, but line 4 carries 7 round fields (round 6 at columns 142-149)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

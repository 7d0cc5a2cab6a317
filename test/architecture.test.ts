// The rooms and which may import which (README "Architecture", docs/architecture.md): every
// relative import of every product file is checked against the table, so a loop between
// rooms, an import upward (the domain reaching into the store, an adapter reached from the
// app) or product code importing a test helper fails here, naming the file and the import.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Each room and the rooms its product code may import (its own always). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  protocol: [],
  rules: ['protocol'],
  'firmware-ts': ['rules', 'protocol'],
  simulator: ['firmware-ts', 'rules', 'protocol'],
  'host/domain': ['rules', 'protocol'],
  'host/store': ['rules', 'protocol'],
  'host/clocks': ['host/store', 'rules', 'protocol'],
  'host/app': ['host/domain', 'host/store', 'host/clocks', 'rules', 'protocol'],
  'host/adapters/http': ['host/app', 'host/domain', 'rules', 'protocol'],
  'host/adapters/mqtt': ['host/app', 'host/store', 'rules', 'protocol'],
  'host/adapters/exports': ['host/app', 'host/domain', 'host/store', 'rules', 'protocol'],
  // The one composition of a host.
  'host/start-host.ts': ['host/app', 'host/store', 'host/clocks', 'host/adapters/http', 'host/adapters/mqtt', 'host/adapters/exports'],
  // A simulated hall: a host started by its composition, with simulated clocks.
  hall: ['host/start-host.ts', 'host/app', 'host/domain', 'host/store', 'host/clocks', 'host/adapters/mqtt', 'simulator', 'firmware-ts', 'rules', 'protocol'],
};

function roomOf(file: string): string | null {
  if (file === 'host/start-host.ts') return file;
  const parts = file.split('/');
  if (parts[0] === 'host') return parts[1] === 'adapters' ? `host/adapters/${parts[2]}` : `host/${parts[1]}`;
  return parts[0] in MAY_IMPORT ? parts[0] : null;
}

const isTestCode = (f: string) => /\.test\.ts$|\.fixture\.ts$|(^|\/)testing\//.test(f) || f.startsWith('test/');

const productFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && roomOf(f) !== null && !isTestCode(f));

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(normalize(join(dirname(file), m[1])));
  return out;
}

describe('the rooms import only downward (README "Architecture")', () => {
  it('has product files in every room it names', () => {
    const rooms = new Set(productFiles.map(roomOf));
    expect([...Object.keys(MAY_IMPORT)].filter((r) => !rooms.has(r))).toEqual([]);
  });

  it('no product file imports a room it may not, nor a test helper', () => {
    const wrong: string[] = [];
    for (const file of productFiles) {
      const room = roomOf(file)!;
      for (const target of importsOf(file)) {
        const rel = relative(ROOT, join(ROOT, target));
        if (isTestCode(rel)) {
          wrong.push(`${file} imports the test helper ${rel}`);
          continue;
        }
        const to = roomOf(rel);
        if (to === null || to === room) continue;
        if (!MAY_IMPORT[room].includes(to)) wrong.push(`${file} (${room}) imports ${rel} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the allowed imports have no loop between rooms', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const loops: string[] = [];
    const visit = (room: string, path: string[]) => {
      if (done.has(room)) return;
      if (visiting.has(room)) return void loops.push([...path, room].join(' → '));
      visiting.add(room);
      for (const next of MAY_IMPORT[room] ?? []) visit(next, [...path, room]);
      visiting.delete(room);
      done.add(room);
    };
    for (const room of Object.keys(MAY_IMPORT)) visit(room, []);
    expect(loops).toEqual([]);
  });
});

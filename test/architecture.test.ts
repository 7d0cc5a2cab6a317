// The rooms and which may import which (README "Architecture", docs/architecture.md): every
// relative import of every product file is checked against the table, so a loop between
// rooms, an import upward (the domain reaching into the store, an adapter reached from the
// app) or product code importing a test helper fails here, naming the file and the import.
// Within the rooms too, no file may import itself back through others (a file-level import
// loop, type-only imports included): the loop is named file by file. No product file is over
// 600 lines nor any function over 80 (rule 15), and nothing cites an issue number or a path
// outside the repository (rule 14).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import ts from 'typescript';
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
  'host/adapters/broadcast': ['host/app', 'host/domain', 'host/store', 'rules', 'protocol'],
  // The one composition of a host.
  'host/start-host.ts': [
    'host/app',
    'host/store',
    'host/clocks',
    'host/adapters/http',
    'host/adapters/mqtt',
    'host/adapters/exports',
    'host/adapters/broadcast',
  ],
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

/** Every product file: the rooms', the commands', the benchmarks' and the scripts'. */
const allProductFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !isTestCode(f));

const productFiles = allProductFiles.filter((f) => roomOf(f) !== null);

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  // `… from '…'`, `import('…')`, and a bare `import '…'`.
  for (const m of text.matchAll(/(?:from\s+|import\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(normalize(join(dirname(file), m[1])));
  return out;
}

/**
 * The file-level import loops among `files`, each named file by file (`a.ts → b.ts → a.ts`),
 * one at least per group of files that import each other round. A type-only import counts:
 * the files of a loop still cannot be read, changed or tested apart.
 */
function importLoops(files: readonly string[]): string[] {
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => known.has(t))]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const loops = new Set<string>();
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file)!) {
      if (state.get(next) === 'open') {
        // The same loop by the same name whichever file the walk entered it by: from its first file in sort order.
        const loop = stack.slice(stack.indexOf(next));
        const first = loop.indexOf([...loop].sort()[0]);
        loops.add([...loop.slice(first), ...loop.slice(0, first), loop[first]].join(' → '));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...files].sort()) if (!state.has(file)) visit(file);
  return [...loops];
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

describe('no file imports itself back (docs/architecture.md)', () => {
  it('no product file imports itself back through other files (no file-level import loop)', () => {
    expect(allProductFiles.length).toBeGreaterThan(productFiles.length); // the commands and scripts are walked too
    expect(importLoops(allProductFiles)).toEqual([]);
  });
});

/** Files the size limits do not apply to: the generated protobuf code and the tests. */
const isGenerated = (f: string) => /_pb\.ts$/.test(f) || f.endsWith('.d.ts');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;

/** Every function-like with a body in `file` that spans more than `limit` lines, named where it can be. */
function longFunctions(file: string, limit: number): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: ts.FunctionLikeDeclaration): string => {
    if (node.name) return node.name.getText(source);
    const parent = node.parent;
    if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name)
      return parent.name.getText(source);
    return '(anonymous)';
  };
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const from = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - from + 1;
      if (lines > limit) found.push(`${file}:${from} ${nameOf(node as ts.FunctionLikeDeclaration)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('files and functions a newcomer can read (docs/architecture.md, rule 15)', () => {
  const sized = allProductFiles.filter((f) => !isGenerated(f));

  it(`no product file is over ${MAX_FILE_LINES} lines`, () => {
    const over = sized
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ f, lines }) => `${f} (${lines} lines)`);
    expect(over).toEqual([]);
  });

  it(`no function in product code is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(sized.flatMap((f) => longFunctions(f, MAX_FUNCTION_LINES))).toEqual([]);
  });

  it('the function measure sees a long function (the check can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'size-limit-'));
    const probe = join(dir, 'probe.ts');
    writeFileSync(probe, `export function tooLong(): void {\n${body}\n}\nexport const short = () => 1;\n`);
    try {
      expect(longFunctions(relative(ROOT, probe), MAX_FUNCTION_LINES)).toEqual([`${relative(ROOT, probe)}:1 tooLong (${MAX_FUNCTION_LINES + 2} lines)`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the repository stands alone (docs/architecture.md, rule 14)', () => {
  // A user's clone has no issue tracker and no folder beside it: the code and the docs cite the
  // project's own doc sections and the Laws, never an issue number or a path outside the clone.
  const texts = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.md', '*.html', '*.sh', '.ci/run'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && f !== 'test/architecture.test.ts');
  // What the check forbids, written in parts: this file is read by other checks of the tree too,
  // and must not itself cite a folder outside the clone or an issue by number.
  const OUTSIDE_FOLDER = ['..', 'shared'].join('/');
  const ISSUE_WORD = 'iss' + 'ue';
  const ISSUE = new RegExp(`\\b${ISSUE_WORD}s? ?(?:#|§|no\\.? ?)? ?\\d+|\\b${ISSUE_WORD} §|\\bthe ${ISSUE_WORD}\\b`, 'i');

  it('no file cites an issue of this project by number or a path to the folder beside the clone', () => {
    const found: string[] = [];
    for (const f of texts) {
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (ISSUE.test(line) || line.includes(OUTSIDE_FOLDER)) found.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the pattern catches the forms a diary would use', () => {
    const diary = [`see ${ISSUE_WORD} 29`, `${ISSUE_WORD} #12`, `${ISSUE_WORD} §6 time`, `I${ISSUE_WORD.slice(1)} 30:`, `as the ${ISSUE_WORD} says`];
    for (const s of diary) expect(ISSUE.test(s)).toBe(true);
    for (const s of [`lichess ${ISSUE_WORD} lila#15037`, `re${ISSUE_WORD} the token`, `${ISSUE_WORD}s a command`]) expect(ISSUE.test(s)).toBe(false);
  });
});

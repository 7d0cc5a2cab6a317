// The `chessclock replay [FILE]` command as a user runs it (docs/replay.md, the opening list): the real
// `node bin/chessclock.mjs replay` in a child process, on a temp file and on stdin.
// Expected figures are worked out by hand in the comments.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contractOnly,
  GAME_HEADER,
  jsonLines as lines,
  manyShortGames,
  outputBeforeEnd,
  parseLines as parse,
  pressLine,
  replayFileMeasured,
  runReplay,
  writeLines,
} from './replay.cli.helpers.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chessclock-replay-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], stdin?: string) => runReplay(args, stdin);

// rapid 900+10, increment before the move: 910 000 each at the start.
// White moves at 5 000: 910 000 − 5 000 + 10 000 = 915 000. At 6 000 Black shows 909 000.
const GOOD = lines([
  { type: 'setup', preset: 'rapid' },
  { t: 0, type: 'start' },
  { t: 5000, type: 'press', side: 'white' },
  { t: 6000, type: 'end' },
]);
const GOOD_OUT = [
  { t: 5000, type: 'move', side: 'white', move: 1, white: 915000, black: 910000 },
  {
    t: 6000,
    type: 'state',
    status: 'running',
    turn: 'black',
    white: 915000,
    black: 909000,
    moves: { white: 1, black: 0 },
    flag: null,
    illegal: { white: 0, black: 0 },
  },
];
// The same game with line 4 malformed: the move of line 3 must already be on stdout.
const BAD =
  lines([
    { type: 'setup', preset: 'rapid' },
    { t: 0, type: 'start' },
    { t: 5000, type: 'press', side: 'white' },
  ]) + '{"t":6000,"type":"press","side":\n';

describe('chessclock replay: exit status and streams (docs/replay.md, the opening list)', () => {
  it('a good FILE → exit 0, JSON Lines on stdout, nothing on stderr', async () => {
    const file = join(dir, 'good.jsonl');
    writeFileSync(file, GOOD);
    const r = await run([file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(contractOnly(parse(r.stdout))).toEqual(GOOD_OUT);
  });

  it('without FILE it reads stdin', async () => {
    const r = await run([], GOOD);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(contractOnly(parse(r.stdout))).toEqual(GOOD_OUT);
  });

  it('bad input in FILE → exit 2, exactly one stderr line "line N: …", earlier output kept', async () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, BAD);
    const r = await run([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^line 4: [^\n]+\n$/);
    expect(contractOnly(parse(r.stdout))).toEqual([GOOD_OUT[0]]);
  });

  it('bad input on stdin → exit 2, one stderr line, earlier output kept', async () => {
    const r = await run([], BAD);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^line 4: [^\n]+\n$/);
    expect(contractOnly(parse(r.stdout))).toEqual([GOOD_OUT[0]]);
  });

  it.each([
    ['an unknown type', '{"t":1,"type":"jump"}', 3],
    ['an unknown side', '{"t":1,"type":"press","side":"red"}', 3],
    ['t going backwards', '{"t":1,"type":"start"}\n{"t":0,"type":"pause"}', 4],
    ['a bad time control', '{"type":"setup","timeControl":"40/5400+x"}', 3],
  ])('%s (%s) → exit 2 naming line %i', async (_what, tail, lineNo) => {
    const r = await run(
      [],
      lines([
        { type: 'setup', preset: 'rapid' },
        { t: 0, type: 'pause' },
      ]) +
        tail +
        '\n',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^line ${lineNo}: [^\\n]+\\n$`));
  });

  it('a line before any setup → exit 2, line 1', async () => {
    const r = await run([], '{"t":0,"type":"start"}\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^line 1: [^\n]+\n$/);
    expect(r.stdout).toBe('');
  });

  it('docs/architecture.md rule 10: a FILE that does not exist is an error naming the file', async () => {
    const missing = join(dir, 'no-such-file.jsonl');
    const r = await run([missing]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('no-such-file.jsonl');
  });
});

describe('chessclock replay: streaming (docs/replay.md: "memory stays constant for files of millions of lines")', () => {
  it('with many games, output for early games is written before the input has ended', async () => {
    // 30 000 lines = 300 games of 100 lines, then a wait for output with stdin still open.
    // A reader that slurped all input first would print nothing until stdin closed.
    let first = '';
    for (const l of manyShortGames(30000)) first += l;
    const r = await outputBeforeEnd(first, GAME_HEADER + pressLine(1) + '{"t":200,"type":"end"}\n', 20000);
    expect(r.early).toBe(true);
    expect(r.code).toBe(0);
    // White's first move at 100: 3 610 000 − 100 + 10 000 = 3 619 900.
    expect(parse(r.stdout)[0]).toMatchObject({ t: 100, type: 'move', side: 'white', move: 1, white: 3619900 });
    // 301 state lines: the 300 games, then the short one (1 White move).
    const states = parse(r.stdout).filter((o) => o.type === 'state');
    expect(states).toHaveLength(301);
    expect(states[300].moves).toEqual({ white: 1, black: 0 });
  }, 60000);

  it('peak RSS of 200 000 lines (2 000 games) stays within 64 MB of 100 000 lines', async () => {
    const small = join(dir, 'many-100k.jsonl');
    const big = join(dir, 'many-200k.jsonl');
    await writeLines(small, manyShortGames(100000));
    await writeLines(big, manyShortGames(200000)); // ≈ 9 MB in, ≈ 17 MB out
    const s = await replayFileMeasured(small, dir);
    const b = await replayFileMeasured(big, dir);
    expect(s.code).toBe(0);
    expect(b.code).toBe(0);
    // Each game: 97 presses → 49 White moves, 48 Black; t 9 800: White moved last at 9 700.
    expect(b.last).toMatchObject({ type: 'state', moves: { white: 49, black: 48 } });
    console.log(`replay peak RSS: 100 000 lines ${s.maxRssKb} KiB, 200 000 lines ${b.maxRssKb} KiB`);
    // Twice the input must not cost a proportional amount of memory: measured here ≈ +5..17 MB.
    expect(b.maxRssKb - s.maxRssKb).toBeLessThan(64 * 1024);
  }, 90000);
});

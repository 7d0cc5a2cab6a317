// `chessclock replay` streams one long game too (docs/replay.md: streaming, constant memory): written
// from the spec by the independent test suite; these failed before the replay stream routed
// games to lanes in chunks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAME_HEADER, oneLongGame, outputBeforeEnd, parseLines, pressLine, replayFileMeasured, writeLines } from './replay.cli.helpers.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chessclock-replay-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('chessclock replay: one long game streams too (docs/replay.md, the opening list)', () => {
  it('streaming: output for the first moves of one game appears before the input ends', async () => {
    // 20 000 lines of one game (~0.9 MB, ~1.6 MB of output), then a wait with stdin open.
    let first = GAME_HEADER;
    for (let i = 1; i <= 20000; i++) first += pressLine(i);
    const r = await outputBeforeEnd(first, `{"t":${20001 * 100},"type":"end"}\n`, 20000);
    expect(r.early).toBe(true);
    expect(r.code).toBe(0);
    // White's first move at 100: 3 610 000 − 100 + 10 000 = 3 619 900.
    expect(parseLines(r.stdout)[0]).toMatchObject({ t: 100, type: 'move', side: 'white', move: 1, white: 3619900 });
  }, 60000);

  it('constant memory: one game of 200 000 lines costs no more than 64 MB over 100 000 lines', async () => {
    const small = join(dir, 'one-100k.jsonl');
    const big = join(dir, 'one-200k.jsonl');
    await writeLines(small, oneLongGame(100000));
    await writeLines(big, oneLongGame(200000));
    const s = await replayFileMeasured(small, dir);
    const b = await replayFileMeasured(big, dir);
    expect(s.code).toBe(0);
    expect(b.code).toBe(0);
    // 199 997 presses: 99 999 White moves, 99 998 Black.
    expect(b.last).toMatchObject({ type: 'state', moves: { white: 99999, black: 99998 } });
    expect(b.maxRssKb - s.maxRssKb).toBeLessThan(64 * 1024);
  }, 90000);
});

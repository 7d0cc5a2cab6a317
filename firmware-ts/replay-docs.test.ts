// docs/replay.md is a contract that people and other software read: each worked example
// there (an input block followed by its output block) must be what `chessclock replay`
// prints, so the document cannot drift from the clock (FIDE Laws 6.7.1, 6.10.2, 7.5.1,
// 7.5.5 in the examples).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayText } from './replay.ts';

const doc = readFileSync(new URL('../docs/replay.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/```jsonl\n([\s\S]*?)```/g)].map((m) => m[1].trim());

describe('docs/replay.md worked examples are what the replay prints', () => {
  it('has input/output pairs', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.length % 2).toBe(0);
  });
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    it(`example ${i / 2 + 1}`, () => {
      expect(replayText(blocks[i]).join('\n')).toBe(blocks[i + 1]);
    });
  }
});

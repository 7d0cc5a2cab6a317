// Bad input that once grew badly or leaked into the arbiter's terminal (docs/replay.md
// "Input"): a line longer than MAX_LINE_CHARS is refused before it is held whole, an error
// quoting the input escapes its control characters, and a byte-order mark before the first
// line is ignored (RFC 8259 §8.1).
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { replayStream } from './replay-stream.ts';
import { MAX_LINE_CHARS, escapeControls } from './replay.ts';

async function replay(source: Readable): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  const code = await replayStream(source, out, err, { workers: 0 });
  return { code, stdout, stderr };
}

const GAME = ['{"type":"setup","preset":"rapid"}', '{"t":0,"type":"start"}', '{"t":1000,"type":"press","side":"white"}', '{"t":5000,"type":"end"}'];

describe('replay input limits (docs/replay.md "Input")', () => {
  it('a 60 MB line is refused by its number after at most a chunk past the cap, the lines before it replayed', async () => {
    const MB = Buffer.alloc(1024 * 1024, 0x61); // "aaaa…": one line that never ends
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        yield Buffer.from(`${GAME.slice(0, 3).join('\n')}\n`);
        for (let i = 0; i < 60; i++) {
          pulled += 1;
          yield MB;
        }
      })(),
    );
    const { code, stdout, stderr } = await replay(source);
    expect(code).toBe(2);
    expect(stderr).toBe(`line 4: the line is longer than ${MAX_LINE_CHARS} characters\n`);
    expect(stdout).toContain('"type":"move","side":"white","move":1');
    expect(pulled).toBeLessThanOrEqual(2); // read no further than the cap needed
  });

  it('a whole line over the cap is refused the same way', async () => {
    const long = `{"t":2000,"type":"press","side":"black","pad":"${'x'.repeat(MAX_LINE_CHARS)}"}`;
    const { code, stderr } = await replay(Readable.from([`${GAME.slice(0, 3).join('\n')}\n${long}\n`]));
    expect(code).toBe(2);
    expect(stderr).toBe(`line 4: the line is longer than ${MAX_LINE_CHARS} characters\n`);
  });

  it('an error quoting bad input escapes its control characters: no escape sequence reaches the terminal', async () => {
    const { code, stderr } = await replay(Readable.from([`${GAME[0]}\n\u001b[2J\u001b[31mred\u009b1m\u202eevil\n`]));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^line 2: malformed JSON/);
    expect(stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(stderr).toContain('\\u001b');
    expect(escapeControls('a\u0007b\u2028c\u2066')).toBe('a\\u0007b\\u2028c\\u2066');
    expect(escapeControls('Ана Сребрнич – ½')).toBe('Ана Сребрнич – ½'); // letters and signs stay
  });

  it('a byte-order mark before the first line is ignored; the output is that of the same input without it', async () => {
    const text = `${GAME.join('\n')}\n`;
    const plain = await replay(Readable.from([Buffer.from(text)]));
    const bom = await replay(Readable.from([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), Buffer.from(text)]));
    expect(plain.code).toBe(0);
    expect(bom).toEqual(plain);
    // Only before the first line: a mark inside the input is still bad input.
    const inside = await replay(Readable.from([`${GAME[0]}\n\ufeff${GAME[1]}\n`]));
    expect(inside.stderr).toMatch(/^line 2: malformed JSON/);
  });
});

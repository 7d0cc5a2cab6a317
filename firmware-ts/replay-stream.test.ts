// The streaming replay: batches of whole games on worker threads must print exactly what
// one thread prints, in input order, and stop at the first bad line with its number.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { replayStream, type ReplayStreamOptions } from './replay-stream.ts';

function game(i: number, presses: number): string[] {
  const lines = [i % 2 ? '{"type":"setup","preset":"rapid"}' : '{"type":"setup","white":"360","black":"300"}', '{"t":0,"type":"start"}'];
  let t = 0;
  for (let k = 0; k < presses; k++) {
    t += 1_000 + ((i * 7919 + k * 104_729) % 20_000);
    lines.push(`{"t":${t},"type":"press","side":"${k % 2 ? 'black' : 'white'}"}`);
  }
  lines.push(`{"t":${t + 400_000},"type":"end"}`);
  return lines;
}

async function run(text: string, options: ReplayStreamOptions, chunkSize = 97) {
  // Odd-sized chunks split lines (and multi-byte characters) anywhere.
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  const code = await replayStream(Readable.from(chunks), out, err, options);
  return { code, stdout, stderr };
}

describe('replay stream (docs/replay.md: streaming, several games per stream)', () => {
  const games = Array.from({ length: 40 }, (_, i) => game(i, 5 + (i % 13))).flat();
  const text = games.join('\n') + '\n';

  it('games spread over worker lanes in chunks print exactly what one thread prints, in input order', async () => {
    const one = await run(text, { workers: 0 });
    const many = await run(text, { workers: 2, inlineLines: 25, chunkLines: 7 });
    expect(one.code).toBe(0);
    expect(many).toEqual(one);
    // Every game ends with a state line: 40 games, 40 states.
    expect(one.stdout.split('\n').filter((l) => l.includes('"type":"state"'))).toHaveLength(40);
  });

  it('a bad line deep in the stream is reported with its own number; everything before it is written', async () => {
    const bad = [...games];
    const badLine = 300; // 1-based
    bad[badLine - 1] = '{"t":99999999,"type":"press","side":"green"}';
    const before = await run(games.slice(0, badLine - 1).join('\n') + '\n', { workers: 0 });
    for (const options of [{ workers: 0 }, { workers: 2, inlineLines: 25, chunkLines: 7 }]) {
      const r = await run(bad.join('\n') + '\n', options);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`line ${badLine}: "side" must be "white" or "black", got "green"\n`);
      expect(r.stdout).toBe(before.stdout);
    }
  });

  it('CRLF line ends and a last line without a newline are read', async () => {
    const crlf = games.slice(0, 20).join('\r\n');
    const lf = games.slice(0, 20).join('\n') + '\n';
    expect(await run(crlf, { workers: 0 })).toEqual(await run(lf, { workers: 0 }));
  });

  it('a timed line before any setup is an error on that line', async () => {
    const r = await run('\n{"t":0,"type":"start"}\n', { workers: 2, inlineLines: 0, chunkLines: 1 });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'line 2: "start" before any setup line\n' });
  });
});

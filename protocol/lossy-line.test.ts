import { describe, expect, it } from 'vitest';
import { FakeTime, settle } from './testing/fake-time.ts';
import { createLossyPair, type Impairment } from './lossy-line.ts';

async function transfer(seed: number, impairment: Impairment, chunks: number) {
  const time = new FakeTime();
  const pair = createLossyPair({ seed, time, impairment, latencyMs: 1 });
  const got: Buffer[] = [];
  pair.b.on('data', (c: Buffer) => got.push(c));
  for (let i = 0; i < chunks; i++) pair.a.write(Buffer.from([i & 0xff, (i >> 8) & 0xff, 0xaa, 0x55]));
  await time.runUntil(() => time.pendingTimers === 0);
  await settle();
  return { got, stats: pair.stats.aToB };
}

describe('seeded lossy Duplex pair (test utility)', () => {
  it('with no impairment: every chunk arrives once, unchanged, in order', async () => {
    const { got, stats } = await transfer(1, {}, 500);
    expect(Buffer.concat(got)).toEqual(Buffer.concat(Array.from({ length: 500 }, (_, i) => Buffer.from([i & 0xff, i >> 8, 0xaa, 0x55]))));
    expect(stats).toMatchObject({ chunks: 500, bytes: 2000, dropped: 0, corrupted: 0 });
  });

  it('impairs at about the requested rates, and the same seed gives the same line', async () => {
    const imp: Impairment = { drop: 0.1, corrupt: 0.05, duplicate: 0.05, split: 0.1, delay: 0.2, maxDelayMs: 30 };
    const first = await transfer(42, imp, 4000);
    expect(first.stats.dropped / 4000).toBeGreaterThan(0.08);
    expect(first.stats.dropped / 4000).toBeLessThan(0.12);
    expect(first.stats.corrupted).toBeGreaterThan(100);
    expect(first.stats.duplicated).toBeGreaterThan(100);
    expect(first.stats.split).toBeGreaterThan(250);
    const again = await transfer(42, imp, 4000);
    expect(again.stats).toEqual(first.stats);
    expect(Buffer.concat(again.got)).toEqual(Buffer.concat(first.got));
    const other = await transfer(43, imp, 4000);
    expect(other.stats).not.toEqual(first.stats);
  });

  it('keeps FIFO order on a serial-like line even when chunks are delayed', async () => {
    const { got } = await transfer(7, { delay: 0.5, maxDelayMs: 50 }, 300);
    const ids = Buffer.concat(got);
    const seq: number[] = [];
    for (let i = 0; i < ids.length; i += 4) seq.push(ids[i] | (ids[i + 1] << 8));
    expect(seq).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('ending one side ends the other side (EOF after what is still on the line)', async () => {
    const time = new FakeTime();
    const { a, b } = createLossyPair({ seed: 3, time, latencyMs: 5 });
    const got: Buffer[] = [];
    let ended = false;
    b.on('data', (c: Buffer) => got.push(c));
    b.on('end', () => (ended = true));
    a.write(Buffer.from('x'));
    a.end();
    await settle();
    expect(ended).toBe(false);
    await time.runUntil(() => ended);
    expect(Buffer.concat(got).toString()).toBe('x');
  });
});

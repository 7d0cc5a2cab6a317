// The terminal clock (`chessclock sim`) driven by its keys through a stream, as a person at a
// terminal: what it paints is the virtual LCD, and a start at a default time of 0 asks first.
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { arbiterItemIndex } from '../firmware-ts/menu-arbiter.ts';
import { runTerminal } from './terminal-ui.ts';
import { VirtualClock } from './virtual-clock.ts';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A terminal on streams: keys in, frames out; `frame(test)` waits for a painted frame that passes. */
async function terminal(clock: VirtualClock) {
  const input = new PassThrough();
  let last = '';
  const waiters: Array<{ test: (f: string) => boolean; resolve: (f: string) => void }> = [];
  const output = new Writable({
    write(chunk, _enc, done) {
      last = chunk.toString();
      for (const w of waiters.splice(0)) {
        if (w.test(last)) w.resolve(last);
        else waiters.push(w);
      }
      done();
    },
  });
  const exited = runTerminal(clock, { input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, status: () => [] });
  const frame = (test: (f: string) => boolean, what: string) =>
    new Promise<string>((resolve, reject) => {
      if (test(last)) return resolve(last);
      const timer = setTimeout(() => reject(new Error(`the terminal never showed ${what}; last frame:\n${last}`)), 5_000);
      waiters.push({ test, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  stops.push(async () => {
    input.write('q');
    await exited;
    await clock.stop();
  });
  return { keys: (text: string) => input.write(text), frame, exited };
}

describe('the terminal clock', () => {
  it('FIDE Laws 6.7.1: at a default time of 0 space asks who is present; Enter (both) marks both present, then starts: nobody is forfeited', async () => {
    const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid', { defaultTime: 0 }) });
    const t = await terminal(clock);
    await t.frame((f) => f.includes('│  15:10??15:10  │'), 'the ready clock');
    t.keys(' ');
    await t.frame((f) => f.includes('│Present? +/- ok │') && f.includes('│both W and B    │'), 'the presence question');
    expect(clock.outputs).toEqual([]);
    t.keys('\r');
    const started = await t.frame((f) => f.includes('  started'), 'the start');
    expect(started).toContain('  white is present\n  black is present\n  started');
    clock.advance(60_000);
    expect(clock.outputs.map((o) => o.type)).toEqual(['arrived', 'arrived', 'started']);
    expect(clock.firmware.reading().status).toBe('running');
  });

  it('FIDE Laws 7.1: the arbiter takes a move back keeping the times (A, m to "take back", Enter, +, Enter); the log says so', async () => {
    const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid') });
    const t = await terminal(clock);
    t.keys(' ');
    await t.frame((f) => f.includes('  started'), 'the start');
    clock.advance(5_000);
    t.keys('a');
    await t.frame((f) => f.includes('white move 1'), "White's move");
    t.keys(' A');
    await t.frame((f) => f.includes('│ARB W time 1m   │'), 'arbiter mode');
    t.keys('m'.repeat(arbiterItemIndex('takeback')));
    await t.frame((f) => f.includes('│ok: annul W #1  │'), 'the take-back item');
    t.keys('\r+');
    await t.frame((f) => f.includes('│keep times   +/-│') && f.includes('│  15:15  15:10  │'), 'the keep preview');
    t.keys('\r');
    await t.frame((f) => f.includes("take-back: white's move 1 annulled, times kept (illegal moves: 1)"), 'the take-back in the log');
  });
});

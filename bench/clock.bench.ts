// Clock core figures (docs/benchmarks.md "Clock core — statechart and replay"):
//  - replay throughput: completed moves per second through `chessclock replay`'s
//    streaming path over a generated stream of ≥ 1,000,000 presses;
//  - per-press handling time of the statechart (p50/p99 µs), one actor, SimulatedClock.
import { PassThrough, Readable, Writable } from 'node:stream';
import { assign, createActor, setup, SimulatedClock } from 'xstate';
import { presetTimeControl } from '../protocol/time-control.ts';
import { clockMachine } from '../rules/clock.machine.ts';
import { replayStream } from '../firmware-ts/replay-stream.ts';

const PRESSES = 1_000_000;
const GAME_MOVES = 80; // per side: each game crosses the move-40 bonus

/** A classical stream: games of 80 moves a side, 1–60 s per move, deterministic. */
function* replayLines(presses: number): Generator<string> {
  let seed = 12345;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let made = 0;
  while (made < presses) {
    yield '{"type":"setup","preset":"classical"}';
    let t = 0;
    yield '{"t":0,"type":"start"}';
    for (let i = 0; i < GAME_MOVES * 2 && made < presses; i++, made++) {
      t += 1000 + Math.floor(rand() * 59_000);
      yield `{"t":${t},"type":"press","side":"${i % 2 === 0 ? 'white' : 'black'}"}`;
    }
    yield `{"t":${t},"type":"end"}`;
  }
}

async function replayThroughput(): Promise<void> {
  const source = Readable.from(
    (function* () {
      let chunk: string[] = [];
      for (const line of replayLines(PRESSES)) {
        chunk.push(line);
        if (chunk.length === 4096) {
          yield chunk.join('\n') + '\n';
          chunk = [];
        }
      }
      if (chunk.length) yield chunk.join('\n') + '\n';
    })(),
  );
  let moves = 0;
  let tail = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const text = tail + chunk.toString('utf8');
      let i = -1;
      while ((i = text.indexOf('"type":"move"', i + 1)) !== -1) moves++;
      tail = text.slice(text.lastIndexOf('\n') + 1);
      done();
    },
  });
  const errors = new PassThrough();
  const t0 = performance.now();
  const rss0 = process.memoryUsage().rss;
  const code = await replayStream(source, sink, errors);
  const seconds = (performance.now() - t0) / 1000;
  const rss1 = process.memoryUsage().rss;
  if (code !== 0) throw new Error(`replay failed: ${errors.read()}`);
  console.log(`replay: ${PRESSES.toLocaleString('en')} presses, ${moves.toLocaleString('en')} moves in ${seconds.toFixed(2)} s`);
  console.log(`replay throughput: ${Math.round(moves / seconds).toLocaleString('en')} moves/s (target ≥ 200,000)`);
  console.log(`replay memory: rss ${(rss0 / 2 ** 20).toFixed(0)} → ${(rss1 / 2 ** 20).toFixed(0)} MiB`);
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function pressLatency(): void {
  const N = 200_000;
  const samples = new Float64Array(N);
  const tc = presetTimeControl('classical');
  let clock = new SimulatedClock();
  let actor = createActor(clockMachine, { input: { timeControl: tc }, clock });
  actor.start();
  actor.send({ type: 'START', at: 0 });
  let t = 0;
  let side: 'white' | 'black' = 'white';
  for (let i = 0; i < N; i++) {
    if (i % (GAME_MOVES * 2) === 0 && i > 0) {
      actor.stop();
      clock = new SimulatedClock();
      actor = createActor(clockMachine, { input: { timeControl: tc }, clock });
      actor.start();
      actor.send({ type: 'START', at: 0 });
      t = 0;
      side = 'white';
    }
    t += 10_000;
    clock.set(t);
    const s = performance.now();
    actor.send({ type: 'PRESS', side, at: t });
    samples[i] = (performance.now() - s) * 1000;
    side = side === 'white' ? 'black' : 'white';
  }
  samples.sort();
  console.log(
    `statechart per press: p50 ${percentile(samples, 0.5).toFixed(1)} µs, p99 ${percentile(samples, 0.99).toFixed(1)} µs ` +
      `(${N.toLocaleString('en')} presses; target p99 ≤ 50 µs)`,
  );
}

/**
 * What XState itself costs per event: a two-state machine that re-arms one `after` timer
 * and assigns one number per event. No clock rules at all: the floor under any statechart.
 */
function xstateFloor(): void {
  const N = 300_000;
  const floor = setup({
    types: { context: {} as { n: number }, events: {} as { type: 'P' } },
    delays: { d: () => 1_000 },
  }).createMachine({
    context: { n: 0 },
    initial: 'a',
    states: {
      a: { after: { d: 'a' }, on: { P: { target: 'b', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
      b: { after: { d: 'b' }, on: { P: { target: 'a', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
    },
  });
  const actor = createActor(floor, { clock: new SimulatedClock() });
  actor.start();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) actor.send({ type: 'P' });
  const us = ((performance.now() - t0) * 1000) / N;
  console.log(`xstate floor (2 states, 1 timer, 1 assign): ${us.toFixed(2)} µs/event = ${Math.round(1e6 / us).toLocaleString('en')} events/s on one core`);
}

export async function run(): Promise<void> {
  xstateFloor();
  pressLatency();
  await replayThroughput();
}

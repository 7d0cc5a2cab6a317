// Host memory per clock (the goal: under 100 kB per clock): the host runs in a process of its own
// (bench/support/host-process.ts: the real host with its journal on disk, the director and
// the API), N simulated clocks run in this process and reach it over loopback TCP, so the
// host's rss holds none of the simulated clocks' own share. Measured after a full GC
// (--expose-gc) at three points: the host started with its N boards and no clock, every clock
// online and configured, and after the players pressed for a while (median think 5 s). Per
// clock = (after − no clock) / N; the fixed cost of the host is in the "no clock" figure.
//
//   npm run bench -- host-memory          (HOST_MEMORY_N=1000,2000 by default)
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { bootLoadClock, PressLoad, type LoadClock } from '../simulator/load-clocks.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLAY_MS = 30_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const kb = (bytes: number) => (bytes / 1024).toFixed(0);

interface Mem {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

async function measure(n: number): Promise<void> {
  const child = spawn(process.execPath, ['--expose-gc', 'bin/run-ts.mjs', 'bench/support/host-process.ts', JSON.stringify({ n })], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => JSON.parse(String((await lines.next()).value));
  const ask = async (what: string) => {
    child.stdin!.write(what + '\n');
    return next();
  };
  const ready = await next();
  const port = ready.port as number;
  const noClock = ready.started as Mem;
  const time = new AcceleratedTime(1);
  const clocks: LoadClock[] = [];
  for (let i = 0; i < n; i++) {
    const c = await bootLoadClock(i, 'headless', { time, seed: 1 });
    const socket = connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    await new Promise<void>((r) => socket.once('connect', () => r()));
    c.cable.attach(socket);
    clocks.push(c);
  }
  const t0 = Date.now();
  while (((await ask('online')).online as number) < n || !clocks.every((c) => c.configured > 0)) {
    if (Date.now() - t0 > 180_000) throw new Error(`${n} clocks: not all online and configured after 180 s`);
    await sleep(500);
  }
  const online = (await ask('mem')).mem as Mem;
  const players = new PressLoad({ time, thinkMedianMs: 5_000, thinkSigma: 0.5, seed: 1, startSpreadMs: 5_000 });
  players.start(clocks);
  await sleep(PLAY_MS);
  const presses = clocks.reduce((s, c) => s + c.presses, 0);
  const played = (await ask('mem')).mem as Mem;
  await players.stop();
  const per = (m: Mem, k: keyof Mem) => (m[k] - noClock[k]) / n;
  console.log(
    `  N = ${String(n).padStart(4)} clocks: host rss ${mb(noClock.rss)} MB with no clock, ${mb(online.rss)} MB online, ${mb(played.rss)} MB after ${presses} presses in ${PLAY_MS / 1000} s;` +
      ` per clock: rss ${kb(per(online, 'rss'))} kB online, ${kb(per(played, 'rss'))} kB playing; heap used ${kb(per(online, 'heapUsed'))} kB online, ${kb(per(played, 'heapUsed'))} kB playing (V8 heap committed ${kb(per(played, 'heapTotal'))} kB); external ${kb(per(played, 'external'))} kB`,
  );
  child.stdin!.write('stop\n');
  await new Promise<void>((r) => child.once('exit', () => r()));
  for (const c of clocks) await c.stop();
}

export async function run(): Promise<void> {
  console.log(
    `  host in its own process (after a full GC), clocks over loopback TCP from the bench process; players press ${PLAY_MS / 1000} s (median think 5 s)`,
  );
  for (const n of (process.env.HOST_MEMORY_N ?? '1000,2000').split(',').map(Number)) await measure(n);
}

// Host — ceiling and a hall with the host alone in its process (goals: press→journal p99 ≤ 20 ms
// with 2,000 clocks, and the most presses per second the host takes).
//
// The host runs in a process of its own (bench/support/host-process.ts: startHost through
// LoadHost — the journal on disk with synchronous=FULL, group commit, the director, the API
// with its /ws feed, and MQTT from the journal's outbox to a Debian Mosquitto broker this bench
// starts) with one TCP connection on 127.0.0.1 per clock. The clocks and every reader (a /ws
// client, an MQTT subscriber to the events) run in this process, so the host's CPU is its own.
// Press → journal is measured across the two processes on one time base (CLOCK_MONOTONIC,
// process.hrtime): stamped here when the press is made, in the host when the event's commit is
// done (the host's feed fires after the commit).
//
// 1. Hall: N firmware clocks (simulator/headless-clock.ts, as in host-hall) pressed at the hall
//    rate (median think 5 s, log-normal σ 0.5), 20 s measured. HOST_CEILING_HALL_N (2000,5000).
// 2. Ceiling: 1,000 light clocks (bench/support/wire-clock.ts: the real link and the rule
//    book's clock core, without the firmware adapter, so that this process can offer the
//    rate) pressed at a fixed offered rate, 10 s per step, rising: HOST_CEILING_RATES
//    (2000,5000,10000,20000,30000 presses/s). Each step reports what was journaled, received
//    on /ws and by the MQTT subscriber, press → journal and press → ack percentiles, and the
//    host's CPU. The ceiling is the highest step the host keeps up with (journaled ≈ offered,
//    nothing lost) with press → journal p99 ≤ 100 ms.
//
//   npm run bench -- host-ceiling
//   HOST_CEILING_PROFILE=/tmp/prof npm run bench -- host-ceiling   (a CPU profile of the host per step)
//   HOST_CEILING_WRITER=thread,loop npm run bench -- host-ceiling   (each measurement with the journal's
//     writer thread, the default, then with the commits on the host's event loop: A/B in one run)
//   HOST_CEILING_MQTT=thread,loop npm run bench -- host-ceiling   (each measurement with the MQTT
//     publisher on its own thread, the default, then on the host's event loop: A/B in one run)
//
// Finding the hall's stalls (docs/benchmarks-history.md, "Where the hall's stalls come from"):
//   HOST_CEILING_TRACE=/tmp/t   a timeline of each hall window in /tmp/t-hall-N-WRITER.txt (and of each
//     ceiling step in /tmp/t-ceiling-RATE-WRITER.txt): the host's and
//     this process's event-loop stalls and GC pauses of 20 ms or more, the WAL checkpoints, and
//     the presses journaled 40 ms or more after they were made, on CLOCK_MONOTONIC, so that
//     `perf record -k CLOCK_MONOTONIC` samples of the same run line up with it
//   HOST_PROCESS_CPUS=0 … taskset -c 1 npm run bench   the host on core 0, the clocks on core 1
//   HOST_PROCESS_MAIN_CPUS=0 HOST_PROCESS_HELPER_CPUS=1 … taskset -c 1   the host's event loop alone on
//     core 0, its other threads with the clocks on core 1
//   HOST_PROCESS_NODE_ARGS='--trace-gc-nvp' HOST_PROCESS_LOG=/tmp/gc.log   V8 flags for the host; what
//     it prints goes to the log
//   HOST_PROCESS_HEAP_PROFILE=1 (every allocation) or =survivors (what outlived a scavenge, i.e. was
//     promoted) with HOST_CEILING_PROFILE=DIR: a sampled allocation profile next to the CPU profile
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { topicFilter } from '../host/adapters/mqtt/topics.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { bootLoadClock, PressLoad, pressKey, type LoadClock } from '../simulator/load-clocks.ts';
import { freePort, Mosquitto, MOSQUITTO } from '../test/mosquitto.ts';
import { systemMonotonicMs, WireClock } from './support/wire-clock.ts';
import { connectTo, HostProcess } from './support/host-process-client.ts';
import { recordStalls, stallText, type Stall, type StallsReport } from './support/stalls.ts';

const SYNC_PHASE_MS = 33_000;
const HALL_MEASURE_MS = 20_000;
const STEP_MS = 10_000;
const CEILING_CLOCKS = Number(process.env.HOST_CEILING_CLOCKS ?? 1_000);
/**
 * Where the host commits the clock events (startHost `journalWriter`): HOST_CEILING_WRITER=thread,loop
 * runs each measurement with the journal's writer thread and then on the event loop (A/B in one run).
 */
type Writer = 'thread' | 'loop';
const WRITERS = (process.env.HOST_CEILING_WRITER ?? 'thread').split(',').filter((w): w is Writer => w === 'thread' || w === 'loop');
/**
 * Where the host's MQTT publisher runs (startHost `mqttThread`): HOST_CEILING_MQTT=thread,loop runs
 * each measurement with the publisher on its own thread, the default, then on the event loop.
 */
const MQTTS = (process.env.HOST_CEILING_MQTT ?? 'thread').split(',').filter((w): w is Writer => w === 'thread' || w === 'loop');
/** One way of running the host: where the journal commits, where MQTT publishes. */
interface Variant {
  readonly writer: Writer;
  readonly mqtt: Writer;
}
const VARIANTS: Variant[] = WRITERS.flatMap((writer) => MQTTS.map((mqtt) => ({ writer, mqtt })));
const variantName = (v: Variant) => `${v.writer}${v.mqtt === 'loop' ? '-mqtt-loop' : ''}`;
const variantText = (v: Variant) =>
  `commits on the ${v.writer === 'thread' ? 'writer thread' : 'event loop'}, MQTT ${v.mqtt === 'thread' ? 'on its thread' : 'on the event loop'}`;
const hostOptions = (n: number, v: Variant, mqttUrl: string | null) => ({
  n,
  journalWriter: v.writer,
  mqttThread: v.mqtt === 'thread',
  ...(mqttUrl ? { mqttUrl } : {}),
});
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const f1 = (x: number) => x.toFixed(1);

/** The host process's answer to `cpu` (bench/support/host-process.ts). */
interface HostCpu {
  us: number;
  mainUs: number | null;
  loopDelay: { p99: number; max: number };
  /** The host's garbage-collection pauses since the previous `cpu`. */
  gc: { count: number; totalMs: number; maxMs: number; longest: Record<string, number> };
  /** The journal's WAL checkpoints since the previous `cpu` (its checkpoint worker). */
  checkpoints: { count: number; maxMs: number; maxLog: number; partial: number };
}

/**
 * CPU between two `cpu` answers, in % of one core: the host process, of which its main thread
 * (the event loop; the rest is the journal's writer thread and the other helper threads), and
 * this process (the clocks and the readers), which shares the machine's cores with the host.
 */
function cpuText(from: HostCpu, to: HostCpu, self0: NodeJS.CpuUsage, seconds: number): string {
  const pc = (us: number) => `${((us / 1e6 / seconds) * 100).toFixed(0)}%`;
  const self = process.cpuUsage(self0);
  const main = from.mainUs !== null && to.mainUs !== null ? ` (main thread ${pc(to.mainUs - from.mainUs)})` : '';
  const kinds = Object.entries(to.gc.longest)
    .map(([k, ms]) => `${k} ${ms.toFixed(1)}`)
    .join(', ');
  const gc = `GC pauses ${to.gc.count} taking ${pc(to.gc.totalMs * 1000)}, longest ${to.gc.maxMs.toFixed(1)} ms (${kinds})`;
  const cp = to.checkpoints;
  const wal = `WAL checkpoints ${cp.count}, longest ${cp.maxMs.toFixed(1)} ms, WAL up to ${cp.maxLog} frames, ${cp.partial} left frames behind`;
  return `host CPU ${pc(to.us - from.us)} of a core${main} (${gc}; ${wal}), the bench's clocks and readers ${pc(self.user + self.system)}`;
}

/** What the readers received: events on /ws and on MQTT, by press key. */
class Readers {
  ws = 0;
  mqtt = 0;
  private readonly socket: WebSocket;
  private readonly client: mqtt.MqttClient | null;

  private constructor(socket: WebSocket, client: mqtt.MqttClient | null) {
    this.socket = socket;
    this.client = client;
    socket.on('message', (data) => {
      const s = String(data);
      if (s.includes('"type":"event"') && s.includes('"moved"')) this.ws++;
    });
    client?.on('message', (_topic, payload) => {
      if (payload.includes('"moved"')) this.mqtt++;
    });
  }

  static async open(url: string, mqttUrl: string | null): Promise<Readers> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    await new Promise<void>((r) => socket.once('open', () => r()));
    let client: mqtt.MqttClient | null = null;
    if (mqttUrl) {
      client = await mqtt.connectAsync(mqttUrl, { clientId: `bench-reader-${process.pid}`, reconnectPeriod: 500 });
      await client.subscribeAsync(topicFilter('events'), { qos: 1 });
    }
    return new Readers(socket, client);
  }

  async close(): Promise<void> {
    this.socket.close();
    await this.client?.endAsync();
  }
}

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, boundMs: number): Promise<void> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > boundMs) throw new Error(`${what}: not within ${boundMs / 1000} s`);
    await sleep(200);
  }
}

/** Press → journal latencies (ms) of the presses in `pressedAt`, from the host's stamps. */
function journalLatencies(
  pressedAt: Map<string, number>,
  stamps: Array<[string, number]>,
): { lat: number[]; lost: number; dup: number; journaledAt: Map<string, number> } {
  const seen = new Map<string, number>();
  let dup = 0;
  for (const [k, at] of stamps) {
    if (!pressedAt.has(k)) continue;
    if (seen.has(k)) dup++;
    else seen.set(k, at);
  }
  const lat = [...pressedAt]
    .filter(([k]) => seen.has(k))
    .map(([k, at]) => seen.get(k)! - at)
    .sort((a, b) => a - b);
  return { lat, lost: pressedAt.size - seen.size, dup, journaledAt: seen };
}

/** Collects the host's stamps until every press in `pressedAt` is journaled (or 60 s), then measures. */
async function journaledPresses(host: HostProcess, pressedAt: Map<string, number>): Promise<ReturnType<typeof journalLatencies>> {
  let stamps: Array<[string, number]> = [];
  await waitFor(
    'every press journaled',
    async () => {
      stamps = stamps.concat(await host.ask<Array<[string, number]>>('stamps', 'stamps'));
      return journalLatencies(pressedAt, stamps).lost === 0;
    },
    60_000,
  ).catch(() => undefined);
  return journalLatencies(pressedAt, stamps);
}

/**
 * One timeline of a measured window (HOST_CEILING_TRACE=FILE), in ms from its first press: the
 * host's stalls and GC pauses, its WAL checkpoints, this process's stalls, and the presses that
 * took 40 ms or more to be journaled, so that what held each late press can be read off.
 */
function writeTrace(file: string, pressedAt: Map<string, number>, journaledAt: Map<string, number>, host: StallsReport, bench: Stall[]): void {
  const t0 = Math.min(...pressedAt.values());
  const rows: Array<[number, string]> = [];
  for (const s of host.stalls) rows.push([s.at, stallText('host', s)]);
  for (const s of bench) rows.push([s.at, stallText('bench', s)]);
  for (const [at, ms, log] of host.checkpoints) rows.push([at - ms, `host checkpoint ${f1(ms)} ms, ${log} frames`]);
  for (const [k, at] of pressedAt) {
    const j = journaledAt.get(k);
    if (j !== undefined && j - at >= 40) rows.push([at, `press ${k} journaled after ${f1(j - at)} ms`]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  const head = `# ms from the first press, at ${t0.toFixed(3)} ms on CLOCK_MONOTONIC (perf record -k CLOCK_MONOTONIC stamps in seconds)\n`;
  writeFileSync(file, head + rows.map(([at, what]) => `${(at - t0).toFixed(1).padStart(9)}  ${what}`).join('\n') + '\n');
  console.log(`  timeline of the window: ${file}`);
}

async function hall(n: number, mqttUrl: string | null, variant: Variant): Promise<void> {
  const host = await HostProcess.start(hostOptions(n, variant, mqttUrl));
  const readers = await Readers.open(host.url, mqttUrl);
  const time = new AcceleratedTime(1);
  let measuring = false;
  const pressedAt = new Map<string, number>();
  const clocks: LoadClock[] = [];
  for (let i = 0; i < n; i++) {
    const c = await bootLoadClock(i, 'headless', {
      time,
      seed: 1,
      onPress: (p) => {
        if (measuring) pressedAt.set(pressKey(p.clockId, p.side, p.move), systemMonotonicMs());
      },
    });
    c.cable.attach(await connectTo(host.port));
    clocks.push(c);
  }
  await waitFor(`${n} clocks configured`, () => clocks.every((c) => c.configured > 0), 300_000);
  await sleep(SYNC_PHASE_MS);
  const players = new PressLoad({ time, thinkMedianMs: 5_000, thinkSigma: 0.5, seed: 1, startSpreadMs: 5_000 });
  players.start(clocks);
  await sleep(10_000);
  await host.ask('stamps', 'stamps');
  const load0 = loadavg()[0];
  const cpu0 = await host.ask<HostCpu>('cpu');
  const threads0 = process.env.HOST_CEILING_THREADS ? await host.ask<Record<string, number>>('threads', 'threads') : null;
  const self0 = process.cpuUsage();
  const ws0 = readers.ws;
  const mq0 = readers.mqtt;
  const profile = process.env.HOST_CEILING_PROFILE;
  if (profile) await host.ask('prof-start', 'ok');
  // This process's own stalls: a press is stamped here before its frame leaves, so a stall of
  // the clocks' process between the two counts in press → journal as if it were the host's.
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const trace = process.env.HOST_CEILING_TRACE;
  const benchStalls = trace ? recordStalls(20) : null;
  if (trace) await host.ask('stalls-start', 'ok');
  measuring = true;
  const from = performance.now();
  await sleep(HALL_MEASURE_MS);
  measuring = false;
  eld.disable();
  const hostStalls = trace ? await host.ask<StallsReport>('stalls-stop') : null;
  const ownStalls = benchStalls?.stop() ?? [];
  if (profile) await host.ask(`prof-stop ${join(profile, `hall-${n}-${variantName(variant)}.cpuprofile`)}`, 'ok');
  const seconds = (performance.now() - from) / 1000;
  const cpuNow = await host.ask<HostCpu>('cpu');
  const cpu = cpuText(cpu0, cpuNow, self0, seconds);
  if (threads0) {
    const t1 = await host.ask<Record<string, number>>('threads', 'threads');
    const busy = Object.entries(t1)
      .map(([t, us]) => [t, ((us - (threads0[t] ?? 0)) / 1e6 / seconds) * 100] as const)
      .filter(([, pc]) => pc >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    console.log(`  host threads (% of a core): ${busy.map(([t, pc]) => `${t} ${pc.toFixed(1)}`).join(', ')}`);
  }
  await players.stop();
  const { lat, lost, dup, journaledAt } = await journaledPresses(host, pressedAt);
  if (trace && hostStalls) writeTrace(`${trace}-hall-${n}-${variantName(variant)}.txt`, pressedAt, journaledAt, hostStalls, ownStalls);
  console.log(
    `  hall, N = ${n} firmware clocks, ${variantText(variant)}: ${(pressedAt.size / seconds).toFixed(0)} presses/s; press→journal p50 ${f1(pct(lat, 50))} ms p99 ${f1(pct(lat, 99))} ms max ${f1(lat.at(-1) ?? NaN)} ms;` +
      ` lost ${lost}, duplicated ${dup}; ${cpu}, its event loop delay p99 ${f1(cpuNow.loopDelay.p99)} ms max ${f1(cpuNow.loopDelay.max)} ms;` +
      ` this process's event loop delay p99 ${f1(eld.percentile(99) / 1e6)} ms max ${f1(eld.max / 1e6)} ms;` +
      ` readers got ${((readers.ws - ws0) / seconds).toFixed(0)}/s on /ws, ${mqttUrl ? `${((readers.mqtt - mq0) / seconds).toFixed(0)}/s on MQTT` : 'no MQTT'}; load avg ${load0.toFixed(2)}`,
  );
  await readers.close();
  for (const c of clocks) await c.stop();
  await host.stop();
}

/**
 * Offers `rate` presses a second for STEP_MS, stamping each in `pressedAt` and its ack latency in `ackLat`:
 * the presses made and the seconds taken.
 */
async function offerPresses(
  clocks: WireClock[],
  rate: number,
  pressedAt: Map<string, number>,
  ackLat: number[],
): Promise<{ made: number; offeredSeconds: number }> {
  const n = clocks.length;
  // Presses go round the clocks in turn; every 2 ms the presses due by then are made.
  let made = 0;
  let next = 0;
  const from = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - from;
      const due = Math.min(Math.floor((elapsed / 1000) * rate), Math.floor((STEP_MS / 1000) * rate));
      for (; made < due; made++) {
        const c = clocks[next];
        next = (next + 1) % n;
        const at = systemMonotonicMs();
        const p = c.press(() => ackLat.push(systemMonotonicMs() - at));
        pressedAt.set(pressKey(c.serialId, p.side, p.move), at);
      }
      if (elapsed >= STEP_MS) resolve();
      else setTimeout(tick, 2);
    };
    tick();
  });
  return { made, offeredSeconds: (performance.now() - from) / 1000 };
}

async function ceiling(rates: number[], mqttUrl: string | null, variant: Variant): Promise<void> {
  const n = CEILING_CLOCKS;
  const host = await HostProcess.start(hostOptions(n, variant, mqttUrl));
  const readers = await Readers.open(host.url, mqttUrl);
  const clocks: WireClock[] = [];
  for (let i = 0; i < n; i++) clocks.push(new WireClock(`load-${i + 1}`, await connectTo(host.port), 1000 + i));
  await waitFor(`${n} clocks configured`, () => clocks.every((c) => c.gameId !== null), 300_000);
  await sleep(SYNC_PHASE_MS);
  for (const c of clocks) c.start();
  await waitFor('every start acknowledged', () => clocks.every((c) => c.acked >= 2), 60_000);
  let stopAll = false;
  for (const rate of rates) {
    if (stopAll) break;
    await host.ask('stamps', 'stamps');
    const pressedAt = new Map<string, number>();
    const ackLat: number[] = [];
    const ws0 = readers.ws;
    const mq0 = readers.mqtt;
    const load0 = loadavg()[0];
    const cpu0 = await host.ask<HostCpu>('cpu');
    const self0 = process.cpuUsage();
    const profile = process.env.HOST_CEILING_PROFILE;
    if (profile) await host.ask('prof-start', 'ok');
    const eld = monitorEventLoopDelay({ resolution: 5 });
    eld.enable();
    const trace = process.env.HOST_CEILING_TRACE;
    const benchStalls = trace ? recordStalls(20) : null;
    if (trace) await host.ask('stalls-start', 'ok');
    const { made, offeredSeconds } = await offerPresses(clocks, rate, pressedAt, ackLat);
    const drainFrom = performance.now();
    const { lat, lost, dup, journaledAt } = await journaledPresses(host, pressedAt);
    const drainS = (performance.now() - drainFrom) / 1000;
    if (trace)
      writeTrace(
        `${trace}-ceiling-${rate}-${variantName(variant)}.txt`,
        pressedAt,
        journaledAt,
        await host.ask<StallsReport>('stalls-stop'),
        benchStalls?.stop() ?? [],
      );
    // One `cpu` request: it also resets the host's event-loop delay histogram.
    const cpuNow = await host.ask<HostCpu>('cpu');
    const hostLoop = cpuNow.loopDelay;
    eld.disable();
    if (profile) await host.ask(`prof-stop ${join(profile, `host-${rate}-${variantName(variant)}.cpuprofile`)}`, 'ok');
    const seconds = offeredSeconds + drainS;
    const cpu = cpuText(cpu0, cpuNow, self0, seconds);
    await waitFor('readers caught up', () => readers.ws - ws0 >= pressedAt.size && (!mqttUrl || readers.mqtt - mq0 >= pressedAt.size), 30_000).catch(
      () => undefined,
    );
    ackLat.sort((a, b) => a - b);
    const kept = lost === 0 && pct(lat, 99) <= 100;
    console.log(
      `  ${variantText(variant)}: offered ${rate} presses/s (${(made / offeredSeconds).toFixed(0)} made, ${n} clocks): journaled ${pressedAt.size - lost} of ${made} (drain ${drainS.toFixed(1)} s after the last press);` +
        ` press→journal p50 ${f1(pct(lat, 50))} ms p99 ${f1(pct(lat, 99))} ms; press→ack p99 ${f1(pct(ackLat, 99))} ms; lost ${lost}, duplicated ${dup};` +
        ` /ws ${readers.ws - ws0}, MQTT ${mqttUrl ? readers.mqtt - mq0 : 'none'}; ${cpu}, its event loop delay p99 ${f1(hostLoop.p99)} ms max ${f1(hostLoop.max)} ms (this process: p99 ${f1(eld.percentile(99) / 1e6)} ms); load avg ${load0.toFixed(2)}${kept ? '' : '  ← not kept up'}`,
    );
    if (!kept) stopAll = true;
    await sleep(2_000);
  }
  await readers.close();
  for (const c of clocks) c.close();
  await host.stop();
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ceiling-'));
  let broker: Mosquitto | null = null;
  if (MOSQUITTO) {
    broker = new Mosquitto(await freePort(), dir);
    await broker.start();
  } else console.log('  no Mosquitto (apt-get install mosquitto): measured without MQTT');
  const mqttUrl = broker ? `mqtt://127.0.0.1:${broker.port}` : null;
  try {
    const rates = (process.env.HOST_CEILING_RATES ?? '2000,5000,10000,20000,30000')
      .split(',')
      .map(Number)
      .filter((x) => x > 0);
    if (rates.length) {
      console.log(
        `  ceiling: ${CEILING_CLOCKS} light clocks over loopback TCP, ${STEP_MS / 1000} s per offered rate; host alone in its process, journal synchronous=FULL on disk, /ws client and MQTT subscriber here`,
      );
      for (const v of VARIANTS) await ceiling(rates, mqttUrl, v);
    }
    for (const n of (process.env.HOST_CEILING_HALL_N ?? '2000,5000')
      .split(',')
      .map(Number)
      .filter((x) => x > 0)) {
      for (const v of VARIANTS) await hall(n, mqttUrl, v);
    }
  } finally {
    await broker?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

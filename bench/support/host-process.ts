// The host side of the benches that need the host alone in its process
// (bench/host-memory.bench.ts, bench/host-ceiling.bench.ts): the real host (startHost through
// LoadHost: the journal on disk, synchronous=FULL, the director, the API with its /ws feed,
// and MQTT from the journal's outbox when a broker is given) with one line per clock, each line
// a TCP connection from the bench process on 127.0.0.1. It answers on stdout with one JSON
// line per request read from stdin:
//   mem     memory after a full GC (run with --expose-gc)
//   online  clocks online
//   cpu     this process's CPU time so far (µs, user + system)
//   stamps  the moves journaled since the last `stamps`: [clockId/side/move, when] with `when`
//           on CLOCK_MONOTONIC (process.hrtime), the time base the bench process stamps its
//           presses on, so press → journal is measured across the two processes
//   prof-start / prof-stop FILE   a CPU profile of the steady state only (node:inspector)
//   stalls-start / stalls-stop    the main thread's stalls and GC pauses of 20 ms or more, and
//           the WAL checkpoints, on CLOCK_MONOTONIC (bench/support/stalls.ts)
//   stop
//
//   node --expose-gc bin/run-ts.mjs bench/support/host-process.ts '{"n":1000,"mqttUrl":"mqtt://…"}'
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { systemTime } from '../../protocol/monotonic.ts';
import { AnchoredClock } from '../../host/app/utc.ts';
import { LoadHost, loadTournament } from '../../scripts/load-host.ts';
import { pressKey } from '../../simulator/load-clocks.ts';
import { systemMonotonicMs } from './wire-clock.ts';
import { gcKind, recordStalls, type Stall, type StallsReport } from './stalls.ts';

export interface HostProcessOptions {
  readonly n: number;
  /** Publish to this broker (the journal's outbox drained by the MQTT publisher). */
  readonly mqttUrl?: string;
  /** Host option: 'turn' (group commit, the default) or 'event'. */
  readonly groupCommit?: 'turn' | 'event';
  /** Where the journal commits clock events: 'thread' (the default) or 'loop' (the host before the writer thread). */
  readonly journalWriter?: 'thread' | 'loop';
  /** Where the MQTT publisher runs: on its own thread (true, the default) or on the event loop. */
  readonly mqttThread?: boolean;
  /** Keep the journaled moves' stamps for `stamps` (off for the memory bench: they take memory). */
  readonly stamps?: boolean;
  /** Serve the dashboard (`/`, `/public`) with the API (bench/dashboard.bench.ts). */
  readonly dashboard?: boolean;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as HostProcessOptions;
const n = opts.n;
const gc = (globalThis as { gc?: () => void }).gc;
const mem = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
};
const say = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
/**
 * A thread's CPU time so far (µs), from Linux's per-thread counters (/proc/self/task/TID/stat
 * utime + stime, in clock ticks of 10 ms); null where /proc is not there.
 */
function threadCpuUs(tid: string): number | null {
  try {
    const st = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return null;
  }
}

/**
 * The host's main thread alone: the rest of the process's time is its other threads' (the
 * journal's writer and checkpoint threads, libuv's pool, V8's helpers).
 */
const mainThreadCpuUs = (): number | null => threadCpuUs(String(process.pid));

/** Every thread's CPU time so far (µs), by thread id, the main thread as `main`. */
function threadsCpuUs(): Record<string, number> {
  const out: Record<string, number> = {};
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    // no /proc: nothing to tell
  }
  for (const tid of tids) {
    const us = threadCpuUs(tid);
    if (us !== null) out[tid === String(process.pid) ? 'main' : tid] = us;
  }
  return out;
}

/**
 * HOST_PROCESS_MAIN_CPUS=0 HOST_PROCESS_HELPER_CPUS=1: the host's main thread (its event loop)
 * on core 0 alone, and every other thread of it (the journal's writer and checkpoint threads,
 * V8's GC and compiler threads, libuv's pool) on core 1, which the bench's clocks share (run
 * the bench with `taskset -c 1`). A hall PC gives the host's helpers cores of their own; on
 * this 2-core machine the event loop at least gets one without them. Threads are placed again
 * at each request, since the host starts threads as it goes (taskset -p on Linux).
 */
const mainCpus = process.env.HOST_PROCESS_MAIN_CPUS;
const helperCpus = process.env.HOST_PROCESS_HELPER_CPUS;
const placed = new Set<string>();
function placeThreads(): void {
  if (!mainCpus || !helperCpus) return;
  for (const tid of readdirSync('/proc/self/task')) {
    if (placed.has(tid)) continue;
    placed.add(tid);
    execFileSync('taskset', ['-p', '-c', tid === String(process.pid) ? mainCpus : helperCpus, tid], { stdio: 'ignore' });
  }
}
placeThreads();
const dir = mkdtempSync(join(tmpdir(), 'bench-host-'));
const sockets: Socket[] = [];
const waiting: Array<(s: Socket) => void> = [];
const server = createServer((s) => {
  s.setNoDelay(true);
  const w = waiting.shift();
  if (w) w(s);
  else sockets.push(s);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as { port: number }).port;
const nextSocket = () => new Promise<Socket>((resolve) => (sockets.length ? resolve(sockets.shift()!) : waiting.push(resolve)));

let stamps: Array<[string, number]> = [];
const eld = monitorEventLoopDelay({ resolution: 5 });
eld.enable();
/** The journal's WAL checkpoints since the last `cpu`: how many, the longest, the most WAL frames, how many left frames behind. */
let checkpoints = { count: 0, maxMs: 0, maxLog: 0, partial: 0 };
/** While `stalls-start` … `stalls-stop`: the stalls, and each checkpoint as it was reported. */
let stallRec: { stop(): Stall[] } | null = null;
let checkpointTimes: StallsReport['checkpoints'] = [];
/** The main thread's garbage-collection pauses (ms) since the last `cpu`. */
const gcPauses: number[] = [];
/** The longest pause per kind of collection (minor = scavenge of the young generation, major = mark-compact) since the last `cpu`. */
let gcLongest: Record<string, number> = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcPauses.push(e.duration);
    const kind = gcKind(e);
    gcLongest[kind] = Math.max(gcLongest[kind] ?? 0, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
const inspector = new Session();
inspector.connect();
const before = mem();
const hostClock = new AnchoredClock(
  { now: () => systemTime.now(), setTimer: systemTime.setTimer, setRepeating: systemTime.setRepeating, clearTimer: systemTime.clearTimer },
  { hostMs: 0, utcMs: Date.UTC(2026, 0, 10, 10, 0) },
);
const lh = await LoadHost.start(
  {
    dbFile: join(dir, 'bench.db'),
    hall: loadTournament(n),
    clock: hostClock,
    api: true,
    ...(opts.dashboard ? { dashboard: true } : {}),
    ...(opts.mqttUrl ? { mqttUrl: opts.mqttUrl } : {}),
    ...(opts.groupCommit ? { groupCommit: opts.groupCommit } : {}),
    ...(opts.journalWriter ? { journalWriter: opts.journalWriter } : {}),
    ...(opts.mqttThread !== undefined ? { mqttThread: opts.mqttThread } : {}),
    onCheckpoint: (r) => {
      checkpoints.count++;
      checkpoints.maxMs = Math.max(checkpoints.maxMs, r.ms);
      checkpoints.maxLog = Math.max(checkpoints.maxLog, r.log);
      if (r.log > 0 && r.checkpointed < r.log) checkpoints.partial++;
      if (stallRec) checkpointTimes.push([systemMonotonicMs(), r.ms, r.log]);
    },
    onJournaled: (e) => {
      if (opts.stamps && e.type === 'moved' && e.side !== null && e.move !== null) stamps.push([pressKey(e.clockId, e.side, e.move), systemMonotonicMs()]);
    },
  },
  Array.from({ length: n }, (_, i) => ({
    key: `tcp:${i + 1}`,
    table: i + 1,
    clockId: `load-${i + 1}`,
    open: async () => {
      const s = await nextSocket();
      return { duplex: s, close: () => void s.destroy() };
    },
  })),
);
placeThreads();
say({ type: 'ready', port, url: lh.url, before, started: mem() });

for await (const line of createInterface({ input: process.stdin })) {
  placeThreads();
  if (line === 'mem') say({ type: 'mem', mem: mem(), online: lh.online() });
  else if (line === 'online') say({ type: 'online', online: lh.online() });
  else if (line === 'cpu') {
    // CPU so far, and the event loop's delay since the last `cpu` (ms): how long work waited for the loop.
    const c = process.cpuUsage();
    const pauses = gcPauses.splice(0).sort((a, b) => a - b);
    const gcs = { count: pauses.length, totalMs: pauses.reduce((a, b) => a + b, 0), maxMs: pauses.at(-1) ?? 0, longest: gcLongest };
    gcLongest = {};
    say({
      type: 'cpu',
      us: c.user + c.system,
      mainUs: mainThreadCpuUs(),
      loopDelay: { p99: eld.percentile(99) / 1e6, max: eld.max / 1e6 },
      gc: gcs,
      checkpoints,
    });
    checkpoints = { count: 0, maxMs: 0, maxLog: 0, partial: 0 };
    eld.reset();
  } else if (line === 'threads') {
    // CPU per thread so far (µs), by thread id: the bench diffs two answers (HOST_CEILING_THREADS=1).
    say({ type: 'threads', threads: threadsCpuUs() });
  } else if (line === 'prof-start') {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
    // HOST_PROCESS_HEAP_PROFILE=survivors leaves out what a scavenge collected: what is left is
    // what lived long enough to be promoted to the old generation, which only a mark-compact
    // frees (its marking takes the core from the event loop).
    const survivors = process.env.HOST_PROCESS_HEAP_PROFILE === 'survivors';
    if (process.env.HOST_PROCESS_HEAP_PROFILE)
      await inspector.post('HeapProfiler.startSampling', {
        samplingInterval: 32_768,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: !survivors,
      } as never);
    say({ type: 'prof', ok: true });
  } else if (line.startsWith('prof-stop ')) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(line.slice('prof-stop '.length), JSON.stringify(profile));
    if (process.env.HOST_PROCESS_HEAP_PROFILE) {
      // Where the host allocates (HOST_PROCESS_HEAP_PROFILE=1): sampled allocations of the same steady state.
      const { profile: heap } = await inspector.post('HeapProfiler.stopSampling');
      writeFileSync(line.slice('prof-stop '.length).replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify(heap));
    }
    say({ type: 'prof', ok: true });
  } else if (line === 'stalls-start') {
    stallRec = recordStalls(20);
    checkpointTimes = [];
    say({ type: 'stalls', ok: true });
  } else if (line === 'stalls-stop') {
    const stalls = stallRec?.stop() ?? [];
    stallRec = null;
    const report: StallsReport = { stalls, checkpoints: checkpointTimes };
    say({ type: 'stalls', ...report });
  } else if (line === 'stamps') {
    say({ type: 'stamps', stamps });
    stamps = [];
  } else if (line === 'stop') break;
}
await lh.close();
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);

// Host — hall: N clocks on in-memory lines into ONE real Host — one
// session actor per clock, the SQLite journal (WAL, synchronous=FULL, a file on disk),
// the director that configured every clock — and out through the API's WebSocket feed
// (/ws, real Fastify on 127.0.0.1) to a `ws` client.
//
// The clocks are the firmware without its Johnny-Five board (simulator/headless-clock.ts:
// the firmware adapter, its statecharts and its link with the outbox); players press at a
// realistic rate for a busy hall: a median think of 5 s (log-normal, σ 0.5; mean 5.7 s
// per press per board — a rapid/blitz hall; a classical hall presses ~10× less often), in
// real time. Latency = the press accepted by the clock's statechart → the host's feed after
// the journal committed (event-to-journal) and → the ws client's receipt, one monotonic
// time base (all in this process). Zero loss: every press journaled once and received once.
//
// Group commit: each N runs twice in this process, back to back, with the host's
// default (the events of one event-loop turn in one transaction) and with one transaction per
// event (the host before group commit), so the ratio is measured on the same machine load.
// HOST_HALL_N=100,1000,2000 chooses the N (default 1000,2000).
//
//   npm run bench -- host-hall
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { monotonicNowMs, systemTime } from '../protocol/monotonic.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import type { ClockEventRecord } from '../host/app/ports.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { bootLoadClock, PressLoad, pressKey, type LoadClock } from '../simulator/load-clocks.ts';
import { LoadHost, loadTournament } from '../scripts/load-host.ts';

const MEASURE_MS = 20_000;
const THINK_MEDIAN_MS = 5_000;
const SYNC_PHASE_MS = 33_000;

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Each press's times, by its key (clock, side, move): when the clock's statechart accepted it
 * (pressed while measuring), when the host's feed gave it after the journal committed, when
 * the ws client received it (every arrival: a second one is a duplicate).
 */
class PressTimes {
  readonly pressedAt = new Map<string, number>();
  readonly journaledAt = new Map<string, number[]>();
  readonly wsAt = new Map<string, number[]>();

  /** An arrival of event `e` (only presses made while measuring count). */
  note(m: Map<string, number[]>, e: Pick<ClockEventRecord, 'clockId' | 'type' | 'side' | 'move'>): void {
    if (e.type !== 'moved' || e.side === null || e.move === null) return;
    const key = pressKey(e.clockId, e.side, e.move);
    if (!this.pressedAt.has(key)) return;
    const list = m.get(key) ?? [];
    list.push(monotonicNowMs());
    m.set(key, list);
  }

  /** Some press not yet journaled or not yet on /ws. */
  missing(): boolean {
    return [...this.pressedAt.keys()].some((k) => !this.journaledAt.has(k) || !this.wsAt.has(k));
  }

  /** Each press's latency to its first arrival in `m`, sorted. */
  latencies(m: Map<string, number[]>): number[] {
    return [...this.pressedAt]
      .filter(([k]) => m.has(k))
      .map(([k, at]) => m.get(k)![0] - at)
      .sort((a, b) => a - b);
  }
}

/** `n` headless clocks on hall time, each press noted while `measuring()`. */
async function bootClocks(n: number, time: AcceleratedTime, presses: PressTimes, measuring: () => boolean): Promise<LoadClock[]> {
  const clocks: LoadClock[] = [];
  for (let i = 0; i < n; i++) {
    clocks.push(
      await bootLoadClock(i, 'headless', {
        time,
        seed: 1,
        onPress: (p) => {
          if (measuring()) presses.pressedAt.set(pressKey(p.clockId, p.side, p.move), p.atRealMs);
        },
      }),
    );
  }
  return clocks;
}

async function hall(n: number, groupCommit: 'turn' | 'event'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-hall-'));
  const time = new AcceleratedTime(1);
  const hostClock = new AnchoredClock(
    { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
    { hostMs: 0, utcMs: Date.UTC(2026, 0, 10, 10, 0) },
  );
  let measuring = false;
  const presses = new PressTimes();
  let journaled = 0;
  let wsEvents = 0;
  const clocks = await bootClocks(n, time, presses, () => measuring);
  const lh = await LoadHost.start(
    {
      dbFile: join(dir, 'bench.db'),
      hall: loadTournament(n),
      clock: hostClock,
      api: true,
      groupCommit,
      onJournaled: (e) => {
        if (measuring) journaled++;
        presses.note(presses.journaledAt, e);
      },
    },
    clocks.map((c) => ({ key: `memory:${c.serialId}`, table: c.index + 1, clockId: c.serialId, open: c.cable.memoryLine() })),
  );
  const ws = new WebSocket(`${lh.url!.replace(/^http/, 'ws')}/ws`);
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { type: string; event?: ClockEventRecord };
    if (m.type !== 'event' || !m.event) return;
    if (measuring) wsEvents++;
    presses.note(presses.wsAt, m.event);
  });
  await new Promise<void>((r) => ws.once('open', () => r()));
  const t0 = monotonicNowMs();
  while (!clocks.every((c) => c.configured > 0)) {
    if (monotonicNowMs() - t0 > 120_000) throw new Error(`${n} clocks: only ${clocks.filter((c) => c.configured > 0).length} configured after 120 s`);
    await sleep(100);
  }
  // A hall's clocks are connected long before the round: let the connect-time sync phase
  // (128 exchanges at 4/s per clock, protocol/link.ts AUTO_SYNC_DEFAULTS) pass first.
  await sleep(SYNC_PHASE_MS);
  const players = new PressLoad({ time, thinkMedianMs: THINK_MEDIAN_MS, thinkSigma: 0.5, seed: 1, startSpreadMs: 5_000 });
  players.start(clocks);
  await sleep(5_000 + THINK_MEDIAN_MS); // every board started and pressing
  const load0 = loadavg()[0];
  const cpu0 = process.cpuUsage();
  measuring = true;
  const from = monotonicNowMs();
  await sleep(MEASURE_MS);
  measuring = false;
  const seconds = (monotonicNowMs() - from) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await players.stop();
  const drainUntil = monotonicNowMs() + 30_000;
  while (monotonicNowMs() < drainUntil && presses.missing()) await sleep(50);

  const { pressedAt, journaledAt, wsAt } = presses;
  const toJournal = presses.latencies(journaledAt);
  const toWs = presses.latencies(wsAt);
  const lost = [...pressedAt.keys()].filter((k) => !journaledAt.has(k)).length;
  const lostWs = [...pressedAt.keys()].filter((k) => !wsAt.has(k)).length;
  const dup = [...journaledAt.values()].filter((l) => l.length > 1).length + [...wsAt.values()].filter((l) => l.length > 1).length;
  const f = (x: number) => x.toFixed(1);
  console.log(
    `  N = ${String(n).padStart(4)} clocks, commit per ${groupCommit === 'turn' ? 'turn ' : 'event'}: ${(pressedAt.size / seconds).toFixed(0)} presses/s, ${(journaled / seconds).toFixed(0)} events/s journaled, ${(wsEvents / seconds).toFixed(0)} events/s on /ws;` +
      ` press→journal p50 ${f(pct(toJournal, 50))} ms p99 ${f(pct(toJournal, 99))} ms; press→/ws p50 ${f(pct(toWs, 50))} ms p99 ${f(pct(toWs, 99))} ms;` +
      ` lost ${lost} (journal) ${lostWs} (/ws), duplicated ${dup}; CPU ${(((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100).toFixed(0)}% of a core; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB; load avg ${load0.toFixed(2)}`,
  );
  ws.close();
  await lh.close();
  for (const c of clocks) await c.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A round start: every clock is started by its arbiter within one second (start
 * times spread uniformly), and the time from the first start until every start is journaled,
 * with each start's latency (the start accepted by the clock → the host's feed after commit).
 */
async function roundStart(n: number, groupCommit: 'turn' | 'event'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const time = new AcceleratedTime(1);
  const hostClock = new AnchoredClock(
    { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
    { hostMs: 0, utcMs: Date.UTC(2026, 0, 10, 10, 0) },
  );
  const clocks: LoadClock[] = [];
  for (let i = 0; i < n; i++) clocks.push(await bootLoadClock(i, 'headless', { time, seed: 1 }));
  const startedAt = new Map<string, number>();
  const journaledAt = new Map<string, number>();
  const lh = await LoadHost.start(
    {
      dbFile: join(dir, 'bench.db'),
      hall: loadTournament(n),
      clock: hostClock,
      groupCommit,
      onJournaled: (e) => {
        if (e.type === 'started' && !journaledAt.has(e.clockId)) journaledAt.set(e.clockId, monotonicNowMs());
      },
    },
    clocks.map((c) => ({ key: `memory:${c.serialId}`, table: c.index + 1, clockId: c.serialId, open: c.cable.memoryLine() })),
  );
  const t0 = monotonicNowMs();
  while (!clocks.every((c) => c.configured > 0)) {
    if (monotonicNowMs() - t0 > 120_000) throw new Error(`${n} clocks: only ${clocks.filter((c) => c.configured > 0).length} configured after 120 s`);
    await sleep(100);
  }
  await sleep(SYNC_PHASE_MS);
  for (const c of clocks) {
    c.firmware.on('output', (out: { type: string }) => {
      if (out.type === 'started' && !startedAt.has(c.serialId)) startedAt.set(c.serialId, monotonicNowMs());
    });
  }
  // The arbiters start every board within one second.
  const first = monotonicNowMs();
  await Promise.all(
    clocks.map(async (c, i) => {
      await sleep((i / n) * 1_000);
      await c.tap('startPause');
    }),
  );
  const until = monotonicNowMs() + 60_000;
  while (journaledAt.size < n && monotonicNowMs() < until) await sleep(10);
  const last = Math.max(...journaledAt.values());
  const lat = [...startedAt]
    .filter(([k]) => journaledAt.has(k))
    .map(([k, at]) => journaledAt.get(k)! - at)
    .sort((a, b) => a - b);
  console.log(
    `  round start, N = ${String(n).padStart(4)} clocks started within 1 s, commit per ${groupCommit === 'turn' ? 'turn ' : 'event'}: every start journaled ${((last - first) / 1000).toFixed(2)} s after the first;` +
      ` start→journal p50 ${pct(lat, 50).toFixed(1)} ms p99 ${pct(lat, 99).toFixed(1)} ms max ${lat.at(-1)!.toFixed(1)} ms; journaled ${journaledAt.size} of ${n}`,
  );
  await lh.close();
  for (const c of clocks) await c.stop();
  rmSync(dir, { recursive: true, force: true });
}

export async function run(): Promise<void> {
  console.log(
    `  ${MEASURE_MS / 1000} s per N, real time, median think ${THINK_MEDIAN_MS / 1000} s per press (log-normal σ 0.5), journal synchronous=FULL on disk`,
  );
  const ns = (process.env.HOST_HALL_N ?? '1000,2000').split(',').map(Number);
  for (const n of ns) {
    await hall(n, 'turn');
    await hall(n, 'event');
  }
  const starts = (process.env.HOST_HALL_START_N ?? String(Math.max(...ns))).split(',').map(Number);
  for (const n of starts) {
    await roundStart(n, 'turn');
    await roundStart(n, 'event');
  }
}

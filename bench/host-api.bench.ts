// Host — API and feed: clock events from N in-memory event sources, journaled by the host's
// JournalPorts in a journal in memory (SQLite `:memory:`), pushed through the API's WebSocket feed (/ws, real Fastify on
// 127.0.0.1) to a `ws` client. Latency = source emit → client receipt, measured on one
// monotonic time base (both ends run in this process). Every event must arrive.
//
//   npm run bench -- host-api
import WebSocket from 'ws';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import type { ClockEventRecord } from '../host/app/ports.ts';
import { monotonicNowMs } from '../protocol/monotonic.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { MqttPublisher } from '../host/adapters/mqtt/publisher.ts';
import { Journal } from '../host/store/journal.ts';
import { startEmbeddedBroker } from '../host/adapters/mqtt/mqtt-target.ts';
import { subscribeClockEvents } from '../host/adapters/mqtt/subscriber.ts';

const TOKEN = 'bench-token-0123456789abcdef';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Rig {
  host: JournalBoards;
  latencies: number[];
  received: () => number;
  emit: (clock: number) => void;
  close: () => Promise<void>;
}

async function rig(n: number): Promise<Rig> {
  const host = new JournalBoards();
  for (let i = 0; i < n; i++) {
    host.addBoard({
      event: 'Bench Open',
      round: 1,
      board: i + 1,
      clockId: `clk-${i + 1}`,
      white: { name: `W${i + 1}` },
      black: { name: `B${i + 1}` },
      timeControl: '5400+30',
    });
  }
  const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'bench', token: TOKEN }], dashboard: false, wsMaxBufferedBytes: 1 << 30 });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
  const latencies: number[] = [];
  /** When each event (clock/seq) left its source: latency is measured from here (the journal keeps whole ms). */
  const emittedAt = new Map<string, number>();
  let received = 0;
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.type !== 'event') return;
    latencies.push(monotonicNowMs() - emittedAt.get(`${m.event.clockId}/${m.event.seq}`)!);
    received++;
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve()); // the hello
    ws.once('error', reject);
  });
  const seqs = new Array<number>(n).fill(0);
  const remaining = new Array<number>(n).fill(5_430_000);
  return {
    host,
    latencies,
    received: () => received,
    emit(clock: number) {
      const seq = ++seqs[clock];
      const side = seq % 2 === 0 ? 'white' : 'black';
      remaining[clock] -= 1000;
      const e: ClockEventRecord = {
        clockId: `clk-${clock + 1}`,
        bootId: 'boot-1',
        seq,
        event: 'Bench Open',
        round: 1,
        board: clock + 1,
        type: seq === 1 ? 'started' : 'moved',
        side: seq === 1 ? null : side,
        move: seq === 1 ? null : Math.floor(seq / 2),
        whiteMs: remaining[clock],
        blackMs: remaining[clock],
        monoMs: seq * 1000,
        utcMs: 1_750_000_000_000 + seq,
      };
      emittedAt.set(`${e.clockId}/${seq}`, monotonicNowMs());
      host.ingest(e);
    },
    async close() {
      ws.close();
      await app.close();
      host.close();
    },
  };
}

async function waitForCount(r: Rig, count: number, timeoutMs: number): Promise<boolean> {
  const until = monotonicNowMs() + timeoutMs;
  while (r.received() < count) {
    if (monotonicNowMs() > until) return false;
    await new Promise((res) => setTimeout(res, 5));
  }
  return true;
}

/** Every clock presses once per `periodMs` (spread evenly), for `durationMs`. */
async function paced(n: number, periodMs: number, durationMs: number): Promise<void> {
  const r = await rig(n);
  const tickMs = 10;
  const ticks = Math.round(durationMs / tickMs);
  const perTick = (n * tickMs) / periodMs;
  let emitted = 0;
  let owed = 0;
  const start = monotonicNowMs();
  for (let t = 0; t < ticks; t++) {
    owed += perTick;
    while (owed >= 1) {
      r.emit(emitted % n);
      emitted++;
      owed--;
    }
    const next = start + (t + 1) * tickMs;
    await new Promise((res) => setTimeout(res, Math.max(0, next - monotonicNowMs())));
  }
  const complete = await waitForCount(r, emitted, 10_000);
  const seconds = (monotonicNowMs() - start) / 1000;
  const sorted = [...r.latencies].sort((a, b) => a - b);
  console.log(
    `  paced    N=${String(n).padStart(5)}  one press per clock every ${periodMs / 1000} s: ${emitted} events, ${(emitted / seconds).toFixed(0)} events/s, ` +
      `latency p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms, ` +
      `lost ${emitted - r.received()}${complete ? '' : ' (TIMED OUT)'}`,
  );
  await r.close();
}

/** As fast as the host takes them: batches of events between event-loop turns. */
async function saturated(n: number, total: number): Promise<void> {
  const r = await rig(n);
  const batch = 200;
  const start = monotonicNowMs();
  for (let i = 0; i < total; i += batch) {
    for (let j = i; j < Math.min(total, i + batch); j++) r.emit(j % n);
    await new Promise((res) => setImmediate(res));
  }
  const complete = await waitForCount(r, total, 30_000);
  const seconds = (monotonicNowMs() - start) / 1000;
  const sorted = [...r.latencies].sort((a, b) => a - b);
  console.log(
    `  saturated N=${String(n).padStart(5)}  ${total} events: ${(total / seconds).toFixed(0)} events/s end to end, ` +
      `latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, ` +
      `lost ${total - r.received()}${complete ? '' : ' (TIMED OUT)'}`,
  );
  await r.close();
}

/**
 * MQTT: events through the durable outbox (the journal's outbox table, Journal.outboxStore, in a
 * journal file: synchronous=FULL, one fsync per outbox transaction) and QoS 1 to the embedded
 * Aedes broker, to a deduping subscriber. `batch` events are stored per transaction (1 = one
 * fsync per event).
 */
async function mqttOutbox(n: number, total: number, batch: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mqtt-'));
  const broker = await startEmbeddedBroker('127.0.0.1', 0);
  const sub = mqtt.connect(broker.url, { clientId: 'bench-sub' });
  const emittedAt = new Map<string, number>();
  const latencies: number[] = [];
  await subscribeClockEvents(sub, (e) => latencies.push(monotonicNowMs() - emittedAt.get(`${e.clockId}/${e.seq}`)!));
  const journal = new Journal(join(dir, 'journal.db'));
  const store = journal.outboxStore(() => Date.now());
  const publisher = new MqttPublisher({ client: mqtt.connect(broker.url, { clientId: 'bench-host' }), outbox: store });
  const seqs = new Array<number>(n).fill(0);
  const start = monotonicNowMs();
  let pending: ClockEventRecord[] = [];
  for (let i = 0; i < total; i++) {
    const clock = i % n;
    const seq = ++seqs[clock];
    emittedAt.set(`clk-${clock + 1}/${seq}`, monotonicNowMs());
    pending.push({
      clockId: `clk-${clock + 1}`,
      bootId: 'boot-1',
      seq,
      event: 'Bench Open',
      round: 1,
      board: clock + 1,
      type: 'moved',
      side: seq % 2 ? 'white' : 'black',
      move: seq,
      whiteMs: 1,
      blackMs: 1,
      monoMs: seq,
      utcMs: seq,
    });
    if (pending.length === batch) {
      publisher.publishEvents(pending);
      pending = [];
      await new Promise((res) => setImmediate(res));
    }
  }
  publisher.publishEvents(pending);
  await publisher.idle();
  const until = monotonicNowMs() + 30_000;
  while (latencies.length < total && monotonicNowMs() < until) await new Promise((res) => setTimeout(res, 5));
  const seconds = (monotonicNowMs() - start) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `  mqtt     N=${String(n).padStart(5)}  ${total} events, ${batch} per outbox transaction, QoS 1 via Aedes: ${(total / seconds).toFixed(0)} events/s, ` +
      `latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, lost ${total - latencies.length}`,
  );
  await publisher.close();
  journal.close();
  await sub.endAsync(true);
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
}

export async function run(): Promise<void> {
  console.log('Host — API and feed: N in-memory event sources → JournalPorts (journal in memory) → /ws (Fastify, 127.0.0.1) → ws client');
  for (const n of [100, 1000]) await paced(n, n === 100 ? 1000 : 2000, 5000);
  for (const n of [100, 1000]) await saturated(n, 50_000);
  await mqttOutbox(1000, 1000, 1);
  await mqttOutbox(1000, 20_000, 100);
}

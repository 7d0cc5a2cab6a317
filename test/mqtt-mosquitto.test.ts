// MQTT scale-out against a real Mosquitto broker started by the test (Debian package
// `mosquitto`), at the publisher level (test/mqtt-hosts.test.ts runs whole hosts with
// simulated clocks): two publishers send synthetic clock event streams through their durable
// outboxes to one broker; a subscriber must see every event exactly once after dedupe by
// (clockId, bootId, seq), also when the broker is killed mid-stream and restarted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { MqttPublisher } from '../host/adapters/mqtt/publisher.ts';
import { Journal, type JournalOutboxStore } from '../host/store/journal.ts';
import { subscribeClockEvents, type EventSubscription } from '../host/adapters/mqtt/subscriber.ts';
import type { EventPayload } from '../host/adapters/mqtt/payload.ts';
import type { ClockEventRecord } from '../host/app/ports.ts';
import { Mosquitto, TcpGate, freePort, SKIP_MOSQUITTO, SKIP_MOSQUITTO_MESSAGE } from './mosquitto.ts';

const SKIP = SKIP_MOSQUITTO;
if (SKIP) console.warn(SKIP_MOSQUITTO_MESSAGE);

const work = mkdtempSync(join(tmpdir(), 'mqtt-mosquitto-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

/** A host's simulated stream: `clocks` boards of one event, moves round-robin. */
class SimulatedHost {
  private readonly seqs: number[];
  readonly produced: ClockEventRecord[] = [];
  constructor(
    readonly name: string,
    readonly event: string,
    readonly clocks: number,
  ) {
    this.seqs = Array.from({ length: clocks }, () => 0);
  }
  next(utcMs: number): ClockEventRecord {
    const i = this.produced.length % this.clocks;
    const seq = ++this.seqs[i];
    const e: ClockEventRecord = {
      clockId: `${this.name}-clock-${i + 1}`,
      bootId: `${this.name}-boot-1`,
      seq,
      event: this.event,
      round: 1,
      board: i + 1,
      type: seq === 1 ? 'started' : 'moved',
      side: seq === 1 ? null : seq % 2 === 0 ? 'white' : 'black',
      move: seq === 1 ? null : Math.floor(seq / 2),
      whiteMs: 3_600_000 - seq * 700,
      blackMs: 3_600_000 - seq * 650,
      monoMs: seq * 1_000,
      utcMs,
    };
    this.produced.push(e);
    return e;
  }
}

const key = (e: { clockId: string; bootId: string; seq: number }): string => `${e.clockId}/${e.bootId}/${e.seq}`;

async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function track(c: MqttClient): MqttClient {
  cleanups.push(() => c.endAsync(true));
  c.on('error', () => {}); // connection refused while the broker is down: MQTT.js retries
  return c;
}

describe.skipIf(SKIP)('MQTT scale-out through a real Mosquitto (Debian package `mosquitto`)', () => {
  let broker: Mosquitto;
  let gate: TcpGate;
  let gatePort: number;

  beforeAll(async () => {
    broker = new Mosquitto(await freePort(), work);
    cleanups.push(() => broker.kill());
    await broker.start();
    gate = new TcpGate(broker.port);
    gatePort = await gate.listen();
    cleanups.push(() => gate.close());
  });

  async function subscriber(name: string): Promise<{ client: MqttClient; seen: EventPayload[]; sub: EventSubscription }> {
    const client = track(mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { clientId: name, reconnectPeriod: 50 }));
    const seen: EventPayload[] = [];
    const sub = await subscribeClockEvents(client, (e) => seen.push(e));
    return { client, seen, sub };
  }

  function host(name: string): { store: JournalOutboxStore; publisher: MqttPublisher } {
    const journal = new Journal(join(work, `${name}.db`));
    const store = journal.outboxStore(() => Date.now());
    const client = track(mqtt.connect(`mqtt://127.0.0.1:${gatePort}`, { clientId: name, reconnectPeriod: 100 }));
    const publisher = new MqttPublisher({ client, outbox: store });
    cleanups.push(async () => {
      await publisher.close();
      journal.close();
    });
    return { store, publisher };
  }

  it('two hosts, one broker: the subscriber gets every event exactly once, also after a host replays events', async () => {
    const { seen, sub } = await subscriber('sub-1');
    const a = new SimulatedHost('hostA', 'Slovenian Final 2025/26', 4);
    const b = new SimulatedHost('hostB', 'Team Swiss Ivanovo', 8);
    const pa = host('hostA-1');
    const pb = host('hostB-1');
    for (let i = 0; i < 400; i++) {
      pa.publisher.publishEvent(a.next(1_750_000_000_000 + i));
      pb.publisher.publishEvent(b.next(1_750_000_000_000 + i));
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    // Host B restarts and replays its last 100 events from the journal: same keys again.
    for (const e of b.produced.slice(-100)) pb.publisher.publishEvent(e);
    await Promise.all([pa.publisher.idle(), pb.publisher.idle()]);
    const expected = [...a.produced, ...b.produced].map(key).sort();
    await waitFor(() => seen.length === expected.length && sub.deduper.duplicatesDropped >= 100, `${expected.length} events`);
    expect(seen.map(key).sort()).toEqual(expected);
    expect(sub.deduper.duplicatesDropped).toBe(100);
    // Per clock, the order of publication is kept (MQTT 3.1.1 §4.6: ordered per topic at QoS 1).
    const seqsOf = (clockId: string): number[] => seen.filter((e) => e.clockId === clockId).map((e) => e.seq);
    expect(seqsOf('hostA-clock-1')).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('a broker crash (SIGKILL, restart on the same port) loses no event: the outboxes resend', async () => {
    const { client: subClient, seen, sub } = await subscriber('sub-2');
    const a = new SimulatedHost('hostC', 'Slovenian Final 2025/26', 4);
    const b = new SimulatedHost('hostD', 'Team Swiss Ivanovo', 6);
    const pc = host('hostC-1');
    const pd = host('hostD-1');
    const TOTAL = 300; // per host
    let produced = 0;
    let utc = 1_750_000_100_000;
    // A steady press stream, a pair of events every 2 ms, while the broker dies and returns.
    const stream = (async () => {
      while (produced < TOTAL) {
        pc.publisher.publishEvent(a.next(utc++));
        pd.publisher.publishEvent(b.next(utc++));
        produced++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    await waitFor(() => produced >= TOTAL / 3 && seen.length > 0, 'the stream to be under way');
    gate.setOpen(false);
    await broker.kill();
    const atKill = produced;
    await waitFor(() => produced >= atKill + 40, '40 more events per host while the broker is down');
    // Nothing could be acknowledged meanwhile: the events are waiting in the outboxes.
    expect(pc.store.pendingCount()).toBeGreaterThanOrEqual(40);
    expect(pd.store.pendingCount()).toBeGreaterThanOrEqual(40);

    await broker.start();
    // The subscriber is back and subscribed (SUBACK) before the hosts may reach the broker.
    await waitFor(() => subClient.connected, 'the subscriber to reconnect');
    await subClient.subscribeAsync('chessclock/v1/+/+/+/events', { qos: 1 });
    gate.setOpen(true);

    await stream;
    await Promise.all([pc.publisher.idle(), pd.publisher.idle()]);
    const expected = [...a.produced, ...b.produced].map(key).sort();
    await waitFor(() => seen.length === expected.length, `${expected.length} distinct events (saw ${seen.length})`);
    expect(seen.map(key).sort()).toEqual(expected);
    expect(pc.store.pendingCount() + pd.store.pendingCount()).toBe(0);
    // Dedupe removed whatever was resent (in flight at the crash); nothing was doubled.
    expect(new Set(seen.map(key)).size).toBe(seen.length);
    console.log(`broker crash: ${expected.length} events, ${sub.deduper.duplicatesDropped} duplicates dropped`);
  });
});

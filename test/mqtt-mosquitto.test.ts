// MQTT scale-out against a real Mosquitto broker started by the test (Debian package
// `mosquitto`): two hosts publish simulated clock event streams through their durable
// outboxes to one broker; a subscriber must see every event exactly once after dedupe by
// (clockId, bootId, seq), also when the broker is killed mid-stream and restarted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { MqttPublisher } from '../host/mqtt/publisher.ts';
import { SqliteOutboxStore } from '../host/mqtt/sqlite-outbox-store.ts';
import { subscribeClockEvents, type EventSubscription } from '../host/mqtt/subscriber.ts';
import type { EventPayload } from '../host/mqtt/payload.ts';
import type { ClockEventRecord } from '../host/api/host-ports.ts';

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => spawnSync(p, ['-h']).error === undefined);
const SKIP = MOSQUITTO === undefined && !process.env.CI;
if (SKIP) console.warn('skipping the Mosquitto tests: install the Debian package `mosquitto` (apt-get install mosquitto)');

const work = mkdtempSync(join(tmpdir(), 'mqtt-mosquitto-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A broker process on 127.0.0.1:port with persistence off (retained and sessions die with it). */
class Mosquitto {
  private proc: ChildProcess | null = null;
  private log: string[] = [];
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    if (MOSQUITTO === undefined) throw new Error('mosquitto not found: install the Debian package `mosquitto`');
    const conf = join(work, `mosquitto-${this.port}.conf`);
    writeFileSync(conf, [`listener ${this.port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', ''].join('\n'));
    const proc = spawn(MOSQUITTO, ['-c', conf, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    const keep = (chunk: Buffer): void => {
      this.log.push(chunk.toString());
      if (this.log.length > 50) this.log.shift();
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    // Ready once it accepts TCP connections.
    const until = performance.now() + 10_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`mosquitto exited (${proc.exitCode}):\n${this.log.join('')}`);
      const ok = await new Promise<boolean>((resolve) => {
        const s = connect(this.port, '127.0.0.1');
        s.once('connect', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      if (performance.now() > until) throw new Error(`mosquitto did not listen on ${this.port}:\n${this.log.join('')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** SIGKILL: a crash, no goodbye to the clients. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    this.proc = null;
  }
}

/**
 * The hosts reach the broker through this relay so the test can keep them away from the
 * restarted broker until the subscriber has subscribed again: MQTT does not replay a
 * non-retained message to a subscriber that was not subscribed when it arrived (and with
 * persistence off the broker forgets sessions when it dies), so without this ordering a
 * lost message could be the subscriber's absence rather than the publisher's fault.
 */
class TcpGate {
  readonly server: Server;
  private open = true;
  private readonly pairs = new Set<Socket>();
  constructor(private readonly targetPort: number) {
    this.server = createServer((down) => {
      if (!this.open) return void down.destroy();
      const up = connect(this.targetPort, '127.0.0.1');
      this.pairs.add(down).add(up);
      const drop = (): void => {
        down.destroy();
        up.destroy();
        this.pairs.delete(down);
        this.pairs.delete(up);
      };
      down.on('error', drop).on('close', drop);
      up.on('error', drop).on('close', drop);
      down.pipe(up).pipe(down);
    });
  }
  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as { port: number }).port;
  }
  setOpen(open: boolean): void {
    this.open = open;
    if (!open) for (const s of this.pairs) s.destroy();
  }
  async close(): Promise<void> {
    this.setOpen(false);
    await new Promise((r) => this.server.close(r));
  }
}

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
    broker = new Mosquitto(await freePort());
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

  function host(name: string): { store: SqliteOutboxStore; publisher: MqttPublisher } {
    const store = new SqliteOutboxStore(join(work, `${name}.db`));
    const client = track(mqtt.connect(`mqtt://127.0.0.1:${gatePort}`, { clientId: name, reconnectPeriod: 100 }));
    const publisher = new MqttPublisher({ client, outbox: store });
    cleanups.push(async () => {
      await publisher.close();
      store.close();
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

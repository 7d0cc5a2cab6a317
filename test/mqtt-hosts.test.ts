// Scale-out end to end (docs/mqtt.md): two whole hosts — each with its SQLite journal, its
// tournament and simulated clocks (the unchanged firmware on virtual boards, players
// pressing at accelerated time) — publish to one real Mosquitto broker (Debian package
// `mosquitto`) through their journals' durable outboxes. A subscriber to the whole hall
// (`chessclock/v1/+/+/+/events`, docs/mqtt.md) must see every journaled event of both
// hosts exactly once (dedupe by clockId, bootId, seq), also when the broker is stopped for
// a while as the players go on pressing, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { systemTime } from '../protocol/monotonic.ts';
import { Host } from '../host/app/host.ts';
import { Journal } from '../host/store/journal.ts';
import type { ClockEventRow } from '../host/store/types.ts';
import { journalOutboxTopic } from '../host/adapters/mqtt/journal-topics.ts';
import { publishHostToMqtt, startHostMqtt, type HostMqtt } from '../host/adapters/mqtt/host-mqtt.ts';
import { subscribeClockEvents } from '../host/adapters/mqtt/subscriber.ts';
import { parseBoardTopic, topicFilter } from '../host/adapters/mqtt/topics.ts';
import type { EventPayload } from '../host/adapters/mqtt/payload.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { HallClocks } from '../simulator/hall-clocks.ts';
import { Mosquitto, TcpGate, freePort, SKIP_MOSQUITTO, SKIP_MOSQUITTO_MESSAGE } from './mosquitto.ts';

const SKIP = SKIP_MOSQUITTO;
if (SKIP) console.warn(SKIP_MOSQUITTO_MESSAGE);

const FIXTURES = fileURLToPath(new URL('../host/domain/fixtures/', import.meta.url));
/** Hall time runs this much faster: a classical move every few hundred real ms per board. */
const SPEED = 400;

const work = mkdtempSync(join(tmpdir(), 'mqtt-hosts-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

const key = (e: { clockId: string; bootId: string; seq: number }): string => `${e.clockId}/${e.bootId}/${e.seq}`;

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One hall PC: a host on its own journal, its tournament, `clocks` simulated clocks, MQTT through `brokerUrl`. */
class HallHost {
  private constructor(
    readonly name: string,
    readonly journal: Journal,
    readonly host: Host,
    readonly clocks: HallClocks,
    readonly mqtt: HostMqtt,
    private readonly stopPublishing: () => void,
  ) {}

  static async start(name: string, fixture: string, clocks: number, brokerUrl: string): Promise<HallHost> {
    const hall = parseTournament(JSON.parse(readFileSync(join(FIXTURES, fixture), 'utf8')));
    const journal = new Journal(join(work, `${name}.db`), { outboxTopic: journalOutboxTopic });
    const time = new AcceleratedTime(SPEED);
    const hostClock = new AnchoredClock(
      { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
      { hostMs: 0, utcMs: 1_780_000_000_000 },
    );
    const host = new Host({ journal, hall, clock: hostClock, log: () => undefined, backoff: { initialMs: 50, maxMs: 500 } }).start();
    const fleet = await HallClocks.boot({ count: clocks, time, seed: 11, serialId: (i) => `${name}-clk-${i + 1}`, statusIntervalMs: 0 });
    for (const c of fleet.clocks) host.addLine(`memory:${c.serialId}`, c.cable.memoryLine(), { table: c.index + 1 });
    const hostMqtt = await startHostMqtt({
      target: { kind: 'external', url: brokerUrl },
      outbox: journal.outboxStore(() => hostClock.nowUtcMs()),
      clientId: `chessclock-${name}`,
      reconnectPeriodMs: 100,
      onError: () => undefined, // refused while the broker is down: MQTT.js retries
    });
    const h = new HallHost(name, journal, host, fleet, hostMqtt!, publishHostToMqtt(host.state, hostMqtt!, 200));
    cleanups.push(() => h.close());
    fleet.play();
    return h;
  }

  /** Events journaled so far that have a board address (those are the ones published), in journal order. */
  *addressedRows(): Generator<ClockEventRow & { event: string; round: number; board: number }> {
    for (let after = 0; ; ) {
      const rows = this.journal.eventsAfter(after, 1000);
      if (rows.length === 0) return;
      for (const r of rows)
        if (r.event !== null && r.round !== null && r.board !== null) yield r as ClockEventRow & { event: string; round: number; board: number };
      after = rows[rows.length - 1].id;
    }
  }

  journaledKeys(): string[] {
    return [...this.addressedRows()].map(key);
  }

  pending(): number {
    return this.journal.outboxStore(() => 0).pendingCount();
  }

  private closed = false;
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.clocks.stop();
    this.stopPublishing();
    await this.mqtt.close();
    await this.host.close();
    this.journal.close();
  }
}

describe.skipIf(SKIP)('two hosts with simulated clocks publish to one Mosquitto (docs/mqtt.md: scale-out)', () => {
  let broker: Mosquitto;
  let gate: TcpGate;
  let brokerUrl: string;

  beforeAll(async () => {
    broker = new Mosquitto(await freePort(), work);
    cleanups.push(() => broker.kill());
    await broker.start();
    gate = new TcpGate(broker.port);
    brokerUrl = `mqtt://127.0.0.1:${await gate.listen()}`;
    cleanups.push(() => gate.close());
  });

  it('a subscriber to the whole hall sees every journaled event of both hosts exactly once, across a broker stop', { timeout: 90_000 }, async () => {
    const sub: MqttClient = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { clientId: 'hall-subscriber', reconnectPeriod: 50 });
    sub.on('error', () => undefined);
    cleanups.push(() => sub.endAsync(true));
    const seen: EventPayload[] = [];
    const subscription = await subscribeClockEvents(sub, (e) => seen.push(e));

    const slo = await HallHost.start('hall-slo', 'slovenian-final-2007.json', 3, brokerUrl);
    const iva = await HallHost.start('hall-iva', 'ivanovo-white-rook-2018.json', 4, brokerUrl);
    const hosts = [slo, iva];
    const journaled = (): number => hosts.reduce((n, h) => n + h.journaledKeys().length, 0);

    // Both halls are playing and publishing.
    await waitFor(() => hosts.every((h) => h.journaledKeys().length >= 20) && seen.length >= 20, 'both hosts to journal and publish 20 events');

    // The broker stops (a crash: SIGKILL) while the players go on pressing.
    gate.setOpen(false);
    await broker.kill();
    const atStop = journaled();
    await waitFor(() => journaled() >= atStop + 30, '30 more presses journaled while the broker is down');
    // Nothing could be acknowledged meanwhile: those events wait in the journals' outboxes.
    expect(slo.pending() + iva.pending()).toBeGreaterThanOrEqual(30);

    await broker.start();
    // The subscriber is back and subscribed before the hosts may reach the broker again.
    await waitFor(() => sub.connected, 'the subscriber to reconnect');
    await sub.subscribeAsync('chessclock/v1/+/+/+/events', { qos: 1 });
    gate.setOpen(true);
    await waitFor(() => journaled() >= atStop + 60, 'play to go on after the broker is back');

    // Stop the players, then let the outboxes drain.
    await Promise.all(hosts.map((h) => h.clocks.stop()));
    await waitFor(() => hosts.every((h) => h.pending() === 0), 'both outboxes to drain');
    const expected = hosts.flatMap((h) => h.journaledKeys()).sort();
    await waitFor(() => seen.length >= expected.length, `${expected.length} events at the subscriber (saw ${seen.length})`);

    // Exactly the journaled events, each once: nothing lost in the outage, nothing invented.
    const got = seen.map(key);
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual(expected);
    // Both hosts' events, each on its own event's topics.
    expect(new Set(seen.map((e) => e.clockId.split('-clk-')[0]))).toEqual(new Set(['hall-slo', 'hall-iva']));
    expect(subscription.invalid()).toBe(0);

    // A dashboard joining now gets each board's live state from the retained `state` topics
    // (docs/mqtt.md), as of the board's last journaled event — also after the broker restart,
    // which forgot every retained message (persistence off).
    const lastSeq = new Map<string, number>();
    for (const h of hosts) for (const r of h.addressedRows()) lastSeq.set(`${r.event}/${r.round}/${r.board}`, r.seq);
    // (the publishers gather states for a moment before storing them: let them finish, so what
    // the late client gets is what the broker retained, not a live delivery)
    await Promise.all(hosts.map((h) => h.mqtt.publisher.idle()));
    const late: MqttClient = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { clientId: 'late-dashboard', reconnectPeriod: 50 });
    late.on('error', () => undefined);
    cleanups.push(() => late.endAsync(true));
    const states = new Map<string, { seq: number; retained: boolean }>();
    late.on('message', (topic, payload, packet) => {
      const addr = parseBoardTopic(topic);
      const s = JSON.parse(payload.toString()) as { seq: number };
      states.set(`${addr.event}/${addr.round}/${addr.board}`, { seq: s.seq, retained: packet.retain });
    });
    await late.subscribeAsync(topicFilter('state'), { qos: 1 });
    await waitFor(() => [...lastSeq].every(([k, seq]) => states.get(k)?.seq === seq), `retained state of ${lastSeq.size} boards at their last seq`);
    expect([...states.values()].every((s) => s.retained)).toBe(true);
    console.log(`two hosts: ${expected.length} events journaled and received once each; ${subscription.deduper.duplicatesDropped} redeliveries dropped`);
  });
});

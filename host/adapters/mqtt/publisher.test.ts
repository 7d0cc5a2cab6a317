// The durable-outbox publisher against the embedded Aedes broker (a real MQTT broker
// in-process, over real TCP on 127.0.0.1). The Mosquitto tests are in test/mqtt-*.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { MqttPublisher } from './publisher.ts';
import { Journal, type JournalOutboxStore } from '../../store/journal.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-target.ts';
import { subscribeClockEvents } from './subscriber.ts';
import { encodeEvent, type EventPayload } from './payload.ts';
import { eventsTopic, stateTopic } from './topics.ts';
import type { ClockEventRecord, LiveClockState } from '../../app/ports.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mqtt-pub-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'journal.db');
}

/** The host's outbox, the journal's (Journal.outboxStore), on the journal file at `path`; closed after the test. */
function journalOutbox(path = tempDb()): JournalOutboxStore & { close(): void } {
  const journal = new Journal(path);
  cleanups.push(() => journal.close());
  return { ...journal.outboxStore(() => Date.now()), close: () => journal.close() };
}

async function broker(): Promise<EmbeddedBroker> {
  const b = await startEmbeddedBroker('127.0.0.1', 0);
  cleanups.push(() => b.close());
  return b;
}

function client(url: string, clientId: string): MqttClient {
  const c = mqtt.connect(url, { clientId, reconnectPeriod: 100 });
  cleanups.push(() => c.endAsync(true));
  return c;
}

const EVENT = 'Slovenian Final 2025/26';

function event(seq: number, clockId = 'clk-1', bootId = 'boot-a'): ClockEventRecord {
  return {
    clockId,
    bootId,
    seq,
    event: EVENT,
    round: 1,
    board: 1,
    type: seq === 1 ? 'started' : 'moved',
    side: seq === 1 ? null : seq % 2 === 0 ? 'white' : 'black',
    move: seq === 1 ? null : Math.floor(seq / 2),
    whiteMs: 5_400_000 - seq * 1000,
    blackMs: 5_400_000 - seq * 900,
    monoMs: 10_000 + seq * 1000,
    utcMs: 1_750_000_000_000 + seq * 1000,
  };
}

function state(e: ClockEventRecord): LiveClockState {
  return {
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    status: 'running',
    turn: e.seq % 2 === 0 ? 'black' : 'white',
    whiteMs: e.whiteMs ?? 0,
    blackMs: e.blackMs ?? 0,
    atUtcMs: e.utcMs,
    moves: { white: Math.floor(e.seq / 2), black: Math.floor((e.seq - 1) / 2) },
    flag: null,
    period: { white: 1, black: 1 },
    present: { white: true, black: true },
    flags: [],
    startedAtUtcMs: 1_750_000_000_000,
  };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('MqttPublisher with the embedded Aedes broker', () => {
  it('publishes every event once at QoS 1 with the retained state, and empties the outbox', async () => {
    const b = await broker();
    const sub = client(b.url, 'sub');
    const seen: EventPayload[] = [];
    await subscribeClockEvents(sub, (e) => seen.push(e));
    const store = journalOutbox();
    const pub = new MqttPublisher({ client: client(b.url, 'host-1'), outbox: store });
    cleanups.push(() => pub.close());

    for (let seq = 1; seq <= 50; seq++) pub.publishEvent(event(seq), state(event(seq)));
    await pub.idle();
    expect(store.pendingCount()).toBe(0);
    await waitFor(() => seen.length === 50, '50 events at the subscriber');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(seen[1]).toMatchObject({ v: 1, clockId: 'clk-1', bootId: 'boot-a', event: EVENT, type: 'moved', side: 'white', move: 1 });

    // MQTT 3.1.1 §3.3.1.3: a late subscriber gets the retained state at once.
    const late = client(b.url, 'late');
    const states: unknown[] = [];
    late.on('message', (topic, payload) => {
      if (topic === stateTopic(event(1))) states.push(JSON.parse(payload.toString()));
    });
    await late.subscribeAsync(stateTopic(event(1)), { qos: 1 });
    await waitFor(() => states.length === 1, 'retained state');
    expect(states[0]).toMatchObject({ v: 1, seq: 50, event: EVENT, round: 1, board: 1, whiteMs: 5_400_000 - 50_000 });
  });

  it('gathers retained states: the newest per board, all boards in one outbox transaction (one fsync, not one per press)', async () => {
    const b = await broker();
    const store = journalOutbox();
    const appends: number[] = [];
    // The journal's store takes retained states aside (Journal.outboxAside), as on the host.
    const append = store.appendRetainedAside;
    store.appendRetainedAside = (drafts) => {
      appends.push(drafts.length);
      return append(drafts);
    };
    const pub = new MqttPublisher({ client: client(b.url, 'host-2'), outbox: store, stateBatchMs: 50 });
    cleanups.push(() => pub.close());
    const board2 = (seq: number): ClockEventRecord => ({ ...event(seq, 'clk-2'), board: 2 });
    for (let seq = 1; seq <= 5; seq++) pub.publishStateSoon(event(seq), state(event(seq)));
    for (let seq = 1; seq <= 3; seq++) pub.publishStateSoon(board2(seq), state(board2(seq)));
    expect(appends).toEqual([]); // nothing stored yet: gathered for stateBatchMs
    await pub.idle();
    expect(appends).toEqual([2]); // one transaction, one state per board

    // MQTT 3.1.1 §3.3.1.3: the retained value is the newest.
    const late = client(b.url, 'late-2');
    const got = new Map<string, number>();
    late.on('message', (topic, payload) => got.set(topic, (JSON.parse(payload.toString()) as { seq: number }).seq));
    await late.subscribeAsync([stateTopic(event(1)), stateTopic(board2(1))], { qos: 1 });
    await waitFor(() => got.size === 2, 'both retained states');
    expect(got.get(stateTopic(event(1)))).toBe(5);
    expect(got.get(stateTopic(board2(1)))).toBe(3);
  });

  it('gathers delivery marks: the PUBACKs of markBatchMs are marked in one outbox transaction, and a close marks what was gathered', async () => {
    const b = await broker();
    const store = journalOutbox();
    const marks: number[] = [];
    const markDone = store.markDoneAside;
    store.markDoneAside = (ids) => {
      marks.push(ids.length);
      return markDone(ids);
    };
    // Longer than the test: only the close writes the marks.
    const pub = new MqttPublisher({ client: client(b.url, 'host-3'), outbox: store, markBatchMs: 60_000 });
    for (let seq = 1; seq <= 30; seq++) pub.publishEvent(event(seq));
    await waitFor(() => pub.stats().acked === 30, 'every PUBACK');
    pub.publishPending(); // a turn's new rows bring no marks with them
    expect(marks).toEqual([]);
    // MQTT 3.1.1 §4.3.2: acknowledged but not marked, a message is still owed (resent after a crash).
    expect(store.pendingCount()).toBe(30);
    await pub.close();
    expect(marks).toEqual([30]);
    expect(store.pendingCount()).toBe(0);
  });

  it('keeps a message in the outbox until the PUBACK arrives, not when it is sent (MQTT 3.1.1 §4.3.2)', async () => {
    const b = await broker();
    // Aedes sends the PUBACK only after authorizePublish calls back: hold it.
    const held: Array<() => void> = [];
    let received = 0;
    b.aedes.authorizePublish = (_client, packet, cb) => {
      if (packet.topic.endsWith('/events')) {
        received++;
        held.push(() => cb(null));
      } else cb(null);
    };
    const store = journalOutbox();
    const pub = new MqttPublisher({ client: client(b.url, 'host-1'), outbox: store });
    cleanups.push(() => pub.close());

    pub.publishEvent(event(1));
    await waitFor(() => received === 1, 'the broker to receive the PUBLISH packet');
    await new Promise((r) => setTimeout(r, 100));
    expect(store.pendingCount()).toBe(1); // sent, not acknowledged: still owned by us
    pub.publishEvent(event(2));
    held.shift()!();
    await waitFor(() => received === 2, 'the second PUBLISH (Aedes reads a client serially)');
    await waitFor(() => store.pendingCount() === 1, 'the first PUBACK to clear its row');
    expect(store.pending(10).map((m) => JSON.parse(m.payload).seq)).toEqual([2]);
    held.shift()!();
    await pub.idle();
    expect(store.pendingCount()).toBe(0);
  });

  it('sends what a previous run left in the outbox, and the subscriber drops the resent duplicates', async () => {
    const b = await broker();
    const sub = client(b.url, 'sub');
    const seen: EventPayload[] = [];
    const subscription = await subscribeClockEvents(sub, (e) => seen.push(e));
    const path = tempDb();

    // Run 1: the broker is unreachable (nothing listens on port 1), the host stops.
    const first = journalOutbox(path);
    const offline = new MqttPublisher({ client: mqtt.connect('mqtt://127.0.0.1:1', { reconnectPeriod: 50 }), outbox: first });
    for (let seq = 1; seq <= 20; seq++) offline.publishEvent(event(seq));
    await offline.close();
    expect(first.pendingCount()).toBe(20);
    first.close();

    // Meanwhile events 1-5 had in fact reached the broker (PUBACK lost in the crash).
    const raw = client(b.url, 'raw');
    for (let seq = 1; seq <= 5; seq++) await raw.publishAsync(eventsTopic(event(seq)), encodeEvent(event(seq)), { qos: 1 });
    await waitFor(() => seen.length === 5, 'the 5 early events');

    // Run 2 on the same outbox file: everything goes out, nothing twice downstream.
    const second = journalOutbox(path);
    const pub = new MqttPublisher({ client: client(b.url, 'host-1'), outbox: second });
    cleanups.push(() => pub.close());
    await pub.idle();
    await waitFor(() => seen.length === 20 && subscription.deduper.duplicatesDropped === 5, '20 distinct events and 5 duplicates');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  // A result closes the game everywhere (docs/mqtt.md, "state"): the host drafts the board's
  // `finished` state into the outbox with the result (no clock event follows a result entered at
  // the host). A state gathered at the last press must not be stored after it.
  it('a retained state drafted by the journal with a result is not overtaken by a state gathered at the press before it', async () => {
    const b = await broker();
    const store = journalOutbox();
    const pub = new MqttPublisher({ client: client(b.url, 'host-r'), outbox: store, stateBatchMs: 30 });
    cleanups.push(() => pub.close());
    const press = event(7);
    pub.publishStateSoon(press, state(press)); // gathered: stored 30 ms later
    // Meanwhile the arbiter enters the result: the journal drafts the board's state at the same event, finished.
    const finished: LiveClockState = { ...state(press), status: 'finished' };
    store.append([{ topic: stateTopic(press), payload: JSON.stringify({ v: 1, event: EVENT, round: 1, board: 1, ...finished }), retain: true }]);
    await waitFor(() => store.pendingCount() === 0 && pub.stats().acked >= 1, 'the outbox drained');
    await pub.idle();

    const late = client(b.url, 'late-r');
    const states: Array<{ seq: number; status: string }> = [];
    late.on('message', (_t, payload) => states.push(JSON.parse(payload.toString())));
    await late.subscribeAsync(stateTopic(press), { qos: 1 });
    await waitFor(() => states.length === 1, 'the retained state');
    expect(states[0]).toMatchObject({ seq: 7, status: 'finished' });

    // A later press of the same clock (a new event) is newer than the drafted state: it is stored.
    const next = event(8);
    pub.publishStateSoon(next, state(next));
    await waitFor(() => pub.stats().acked >= 2, 'the next state');
    const later = client(b.url, 'later-r');
    const again: Array<{ seq: number; status: string }> = [];
    later.on('message', (_t, payload) => again.push(JSON.parse(payload.toString())));
    await later.subscribeAsync(stateTopic(press), { qos: 1 });
    await waitFor(() => again.length === 1, 'the retained state again');
    expect(again[0]).toMatchObject({ seq: 8, status: 'running' });
  });

  it('reports an invalid events payload with the field, and does not pass it on', async () => {
    const b = await broker();
    const sub = client(b.url, 'sub');
    const errors: string[] = [];
    const seen: EventPayload[] = [];
    await subscribeClockEvents(sub, (e) => seen.push(e), { onInvalid: (err) => errors.push(err.message) });
    const raw = client(b.url, 'raw');
    const bad = { ...JSON.parse(encodeEvent(event(1))), seq: 'one' };
    await raw.publishAsync(eventsTopic(event(1)), JSON.stringify(bad), { qos: 1 });
    await raw.publishAsync(eventsTopic(event(2)), encodeEvent(event(2)), { qos: 1 });
    await waitFor(() => seen.length === 1 && errors.length === 1, 'one good and one bad message');
    expect(errors[0]).toMatch(/field "seq" must be an integer/);
  });
});

// The MQTT publisher on its own thread (publisher-thread.ts): the journal's outbox on disk, read
// by the thread's own connection, sent to the embedded Aedes broker over real TCP; the thread's
// writes (delivery marks, retained states) made through the journal's writer thread.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Journal } from '../../store/journal.ts';
import { startEmbeddedBroker } from './mqtt-target.ts';
import { subscribeClockEvents } from './subscriber.ts';
import { encodeEvent, type EventPayload } from './payload.ts';
import { eventsTopic, stateTopic } from './topics.ts';
import { PublisherThread } from './publisher-thread.ts';
import type { LiveClockState } from '../../app/ports.ts';
import { cleanups, client, movedEvent, runningState, waitFor } from './publisher-tests.fixture.ts';

const BOARD = { clockId: 'clk-7', event: 'Olympiad Hall', round: 2, board: 7 };
const event = (seq: number) => movedEvent(BOARD, seq);
const state = runningState;

/** The journal on disk with its writer thread, the embedded broker, a subscriber collecting events, and the publisher thread. */
async function start() {
  const dir = mkdtempSync(join(tmpdir(), 'mqtt-thread-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const journal = new Journal(join(dir, 'journal.db'), { writerThread: true });
  cleanups.push(() => journal.close());
  const outbox = journal.outboxStore(() => 1_750_000_100_000);
  const broker = await startEmbeddedBroker('127.0.0.1', 0);
  cleanups.push(() => broker.close());
  const seen: EventPayload[] = [];
  await subscribeClockEvents(client(broker.url, 'sub'), (e) => seen.push(e));
  const errors: Error[] = [];
  const pub = await PublisherThread.start({
    journalPath: journal.path,
    outbox,
    url: broker.url,
    options: { clientId: 'host-thread', reconnectPeriod: 100 },
    stateBatchMs: 20,
    onError: (e) => errors.push(e),
  });
  cleanups.push(() => pub.close());
  return { outbox, broker, seen, errors, pub };
}

describe('the MQTT publisher thread', () => {
  it("sends the journal's outbox in order, marks each row only after its PUBACK, and stores the boards' retained states through the journal (MQTT 3.1.1 §4.3.2, §3.3.1.3)", async () => {
    const { outbox, broker, seen, errors, pub } = await start();
    // On Linux the thread gives way to the event loop and the journal's writer thread: its nice
    // value is 10 above the host's (docs/mqtt.md "Delivery", 6).
    if (process.platform === 'linux') {
      expect(pub.tid).not.toBeNull();
      expect(getPriority(pub.tid!)).toBe(Math.min(19, getPriority(process.pid) + 10));
    }

    // Stored in the journal's file (as the journal drafts each event's message), then announced.
    for (let seq = 1; seq <= 40; seq++) {
      const e = event(seq);
      outbox.append([{ topic: eventsTopic(e), payload: encodeEvent(e), retain: false }]);
      if (seq % 10 === 0) pub.publishPending();
    }
    pub.publishStateSoon(event(40), state(event(40)));
    await pub.idle();
    await waitFor(() => seen.length === 40, '40 events at the subscriber');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Every row acknowledged is marked in the file, by the journal's writer thread.
    expect(outbox.pendingCount()).toBe(0);
    // 40 events and the state (sent once more if the thread's connection came up after it was stored).
    const stats = pub.stats();
    expect(stats).toMatchObject({ inFlight: 0, pending: 0, acked: stats.published });
    expect(stats.published).toBeGreaterThanOrEqual(41);
    expect(errors).toEqual([]);

    // The retained state a late subscriber gets is the board's newest.
    const late = client(broker.url, 'late');
    let retained: LiveClockState | null = null;
    late.on('message', (_t, payload) => (retained = JSON.parse(payload.toString()) as LiveClockState));
    await late.subscribeAsync(stateTopic(event(40)), { qos: 1 });
    await waitFor(() => retained !== null, 'the retained state');
    expect(retained).toMatchObject({ seq: 40, clockId: 'clk-7' });

    // Closing ends the thread after its connection; what comes later waits in the outbox.
    await pub.close();
    outbox.append([{ topic: eventsTopic(event(41)), payload: encodeEvent(event(41)), retain: false }]);
    pub.publishPending();
    expect(outbox.pendingCount()).toBe(1);
  });

  it('starts a thread that died again, and it sends what the outbox kept meanwhile, in order and once (nothing accepted is lost: docs/mqtt.md "Delivery")', async () => {
    const { outbox, broker, seen, errors, pub } = await start();
    const store = (from: number, to: number) => {
      for (let seq = from; seq <= to; seq++) outbox.append([{ topic: eventsTopic(event(seq)), payload: encodeEvent(event(seq)), retain: false }]);
      pub.publishPending();
    };

    store(1, 10);
    await pub.idle();
    await waitFor(() => seen.length === 10, '10 events at the subscriber');
    // The thread dies (as an uncaught error would end it); what is stored meanwhile waits.
    const dead = new Promise<void>((resolve) => (pub as unknown as { worker: Worker }).worker.once('exit', () => resolve()));
    void (pub as unknown as { worker: Worker }).worker.terminate();
    await dead;
    store(11, 20);
    pub.publishStateSoon(event(20), state(event(20)));
    expect(errors.map((e) => e.message).join('\n')).toMatch(/MQTT publisher thread stopped/);

    await waitFor(() => pub.restarts === 1, 'the thread started again');
    await pub.idle();
    await waitFor(() => seen.length >= 20, '20 events at the subscriber');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(outbox.pendingCount()).toBe(0);
    // The state given while no thread ran is retained once one runs again.
    const late = client(broker.url, 'late');
    let retained: LiveClockState | null = null;
    late.on('message', (_t, payload) => (retained = JSON.parse(payload.toString()) as LiveClockState));
    await late.subscribeAsync(stateTopic(event(20)), { qos: 1 });
    await waitFor(() => retained !== null, 'the retained state');
    expect(retained).toMatchObject({ seq: 20 });
  });
});

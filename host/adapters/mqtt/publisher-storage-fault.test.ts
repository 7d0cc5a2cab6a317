// The publisher when the journal cannot write (docs/reliability.md: disk full). Its outbox
// writes run from timers and broker callbacks, where a throw would end the host: they are
// reported through onError and tried again, and nothing is lost or sent twice to a subscriber
// that drops repeats. The fault is a real one from the real engine: SQLite refusing writes
// (`query_only`, SQLITE_READONLY), against the embedded Aedes broker over real TCP.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MqttPublisher, type MqttPublisherOptions } from './publisher.ts';
import { startEmbeddedBroker } from './mqtt-target.ts';
import { subscribeClockEvents } from './subscriber.ts';
import type { EventPayload } from './payload.ts';
import { cleanups, client, movedEvent, runningState, waitFor as waitUntil } from './publisher-tests.fixture.ts';
import { storageFaultCode } from '../../store/storage-health.ts';
import { Journal } from '../../store/journal.ts';
import { journalSql } from '../../store/journal-sql.fixture.ts';

const BOARD = { clockId: 'clk-9', event: 'Disk Full Open', round: 1, board: 1 };
const event = (seq: number) => movedEvent(BOARD, seq);
const state = runningState;

/** A publisher on `store` against a fresh embedded broker, and a subscriber that collects the events. */
async function publisherOn(store: MqttPublisherOptions['outbox']): Promise<{ pub: MqttPublisher; seen: EventPayload[]; errors: Error[] }> {
  const b = await startEmbeddedBroker('127.0.0.1', 0);
  cleanups.push(() => b.close());
  const sub = client(b.url, 'sub');
  const seen: EventPayload[] = [];
  await subscribeClockEvents(sub, (e) => seen.push(e));
  const errors: Error[] = [];
  const pub = new MqttPublisher({ client: client(b.url, 'host'), outbox: store, stateBatchMs: 20, onError: (e) => errors.push(e) });
  cleanups.push(() => pub.close());
  return { pub, seen, errors };
}

const waitFor = (check: () => boolean, what: string) => waitUntil(check, what, 15_000);

/**
 * docs/reliability.md "Disk full": each kind of refused write (the marks, the retained states)
 * told once as its refusals begin and once as it is stored again, not at every try.
 */
async function toldOncePerKind(errors: readonly Error[]): Promise<void> {
  // A kind's recovery is told when its write is answered, which may come after the outbox emptied.
  const recovered = /(mark acknowledged messages published|store the boards' retained states): done again/;
  await waitFor(() => errors.filter((e) => recovered.test(e.message)).length >= 2, 'both kinds told as stored again').catch((err) => {
    throw new Error(`${err.message}; told: ${JSON.stringify(errors.map((e) => e.message))}`);
  });
  const told = errors.map((e) => e.message);
  expect(told.filter((m) => /could not mark \d+ acknowledged/.test(m))).toHaveLength(1);
  expect(told.filter((m) => /could not store the boards' retained states/.test(m))).toHaveLength(1);
  expect(told.filter((m) => /mark acknowledged messages published: done again after \d+ refused tries/.test(m))).toHaveLength(1);
  expect(told.filter((m) => /store the boards' retained states: done again after \d+ refused tries/.test(m))).toHaveLength(1);
}

describe('MqttPublisher when the journal cannot write', () => {
  it('reports the fault instead of throwing from its timers; marks and retained states are written once the journal writes again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mqtt-fault-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const journal = new Journal(join(dir, 'journal.db'));
    cleanups.push(() => journal.close());
    const store = journal.outboxStore(() => 1_750_000_000_000);
    const { pub, seen, errors } = await publisherOn(store);

    // Stored while the journal writes; then it refuses every write while the PUBACKs come in.
    for (let seq = 1; seq <= 20; seq++) pub.publishEvent(event(seq));
    journalSql(journal).pragma('query_only = ON');
    pub.publishStateSoon(event(20), state(event(20)));
    await waitFor(() => seen.length === 20, '20 events at the subscriber');
    await waitFor(
      () => errors.some((e) => /mark \d+ acknowledged/.test(e.message)) && errors.some((e) => /retained states/.test(e.message)),
      'both faults reported',
    );
    expect(errors.every((e) => /SQLITE_READONLY|readonly/i.test(e.message))).toBe(true);
    // The acknowledged rows could not be marked: they are still in the outbox, not lost.
    expect(store.pendingCount()).toBe(20);
    let refused: unknown = null;
    try {
      store.append([{ topic: 't', payload: 'x', retain: false }]);
    } catch (err) {
      refused = err;
    }
    expect(storageFaultCode(refused)).toMatch(/^SQLITE_READONLY/);

    // Space returns: the next drain marks them, the gathered state is stored and sent.
    journalSql(journal).pragma('query_only = OFF');
    await waitFor(() => {
      pub.publishPending();
      return store.pendingCount() === 0 && pub.stats().acked >= 21;
    }, 'the outbox emptied after the journal writes again');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await toldOncePerKind(errors);
  });

  it("with the journal's writer thread: a refused mark or retained state written there is reported, kept, and written once the journal writes again (MQTT 3.1.1 §4.3.2: a message stays owed until marked)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mqtt-fault-thread-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const journal = new Journal(join(dir, 'journal.db'), { writerThread: true });
    cleanups.push(() => journal.close());
    const store = journal.outboxStore(() => 1_750_000_000_000);
    const { pub, seen, errors } = await publisherOn(store);

    for (let seq = 1; seq <= 20; seq++) pub.publishEvent(event(seq));
    // A real refusal by SQLite in the writer thread's own connection: triggers in the file refuse
    // every mark and every retained state, as a full disk would refuse the writes.
    journalSql(journal).exec(`
      CREATE TRIGGER refuse_marks BEFORE UPDATE ON outbox BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
      CREATE TRIGGER refuse_states BEFORE INSERT ON outbox WHEN NEW.retain = 1 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;`);
    pub.publishStateSoon(event(20), state(event(20)));
    await waitFor(() => seen.length === 20, '20 events at the subscriber');
    await waitFor(
      () => errors.some((e) => /mark \d+ acknowledged/.test(e.message)) && errors.some((e) => /retained states/.test(e.message)),
      'both faults reported',
    );
    expect(errors.every((e) => /refused by the test/.test(e.message))).toBe(true);
    expect(store.pendingCount()).toBe(20); // acknowledged by the broker, not marked: still owed, not lost

    journalSql(journal).exec('DROP TRIGGER refuse_marks; DROP TRIGGER refuse_states;');
    await waitFor(() => {
      pub.publishPending();
      return store.pendingCount() === 0 && pub.stats().acked >= 21;
    }, 'the outbox emptied after the journal writes again');
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(store.pending(10, 0)).toEqual([]);
    await toldOncePerKind(errors);
  });
});

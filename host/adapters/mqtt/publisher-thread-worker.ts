// The MQTT publisher thread (publisher-thread.ts): the durable-outbox publisher (publisher.ts,
// unchanged) with its MQTT.js client, off the host's event loop. It reads the journal's outbox
// with a connection of its own (query-only: the journal's writer thread stays the one writer),
// and asks the event loop for the writes it needs, which the loop hands to the journal's writer
// thread as before (Journal.outboxAside): the delivery marks and the retained states.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { outboxReader } from '../../store/journal.ts';
import type { OutboxDraft, OutboxStore } from './outbox-store.ts';
import { MqttPublisher } from './publisher.ts';
import type { FromPublisherThread, PublisherThreadData, ToPublisherThread } from './publisher-thread-messages.ts';

/**
 * The thread's nice value on Linux: it gives way to the event loop, which takes the clocks'
 * presses, and to the journal's writer thread, which commits them, when they share a core.
 * Nothing here is urgent: a message waits in the durable outbox, and subscribers read it
 * tens of milliseconds later (docs/mqtt.md "Delivery", 6). Relative to the host's own nice value.
 */
const NICE_ABOVE_HOST = 10;

/** Lowers this thread's priority (Linux: setpriority on the thread's own id); returns that id, or null elsewhere. */
function giveWay(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>"; setpriority with a tid changes that thread only.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return null;
    setPriority(tid, Math.min(19, getPriority(tid) + NICE_ABOVE_HOST));
    return tid;
  } catch {
    // Not allowed or not there (a container without /proc): the thread runs at the host's priority.
    return null;
  }
}
const tid = giveWay();

const port = parentPort!;
const data = workerData as PublisherThreadData;
const post = (m: FromPublisherThread): void => port.postMessage(m);

const db = new Database(data.journalPath);
db.pragma('query_only = ON');
db.pragma('busy_timeout = 5000');

/** Writes asked of the event loop and not yet answered, by number. */
const writes = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
let writeN = 0;
let writesDone: (() => void) | null = null;
function writeAside(marks: readonly number[] | null, rows: readonly OutboxDraft[] | null): Promise<void> {
  const k = ++writeN;
  return new Promise<void>((resolve, reject) => {
    writes.set(k, { resolve, reject });
    post({ type: 'write', k, marks, rows });
  });
}

const refuse = (): never => {
  throw new Error('the MQTT publisher thread writes the outbox only through the journal (appendRetainedAside, markDoneAside)');
};
const outbox: OutboxStore = {
  ...outboxReader(db),
  // The publisher writes through the asides when the store has them: these are never called.
  append: refuse,
  markDone: refuse,
  appendRetainedAside: (drafts) => writeAside(null, drafts),
  markDoneAside: (ids) => writeAside(ids, null),
};

// MQTT.js logs through `debug`, whose calls allocate even when nobody listens (host-mqtt.ts).
const client = mqtt.connect(data.url, { ...data.options, ...(process.env.DEBUG ? {} : { log: () => {} }) });
const report = (err: Error): void => post({ type: 'error', message: err.message });
client.on('error', report);
// The event loop gathers the states for 250 ms already: stored at once here.
const publisher = new MqttPublisher({ client, outbox, stateBatchMs: 0, onError: report });

// The stats the host's metrics read, a few times a second while they change.
let lastStats = '';
const statsTimer = setInterval(() => {
  const stats = publisher.stats();
  const text = JSON.stringify(stats);
  if (text !== lastStats) post({ type: 'stats', stats });
  lastStats = text;
}, 250);

port.on('message', (m: ToPublisherThread) => {
  switch (m.type) {
    case 'pending':
      publisher.publishPending();
      break;
    case 'states':
      for (const { addr, state } of m.states) publisher.publishStateSoon(addr, state);
      break;
    case 'written': {
      const w = writes.get(m.k);
      writes.delete(m.k);
      if (m.error === null) w?.resolve();
      else w?.reject(new Error(m.error));
      if (writes.size === 0) writesDone?.();
      break;
    }
    case 'idle':
      void publisher.idle().then(() => post({ type: 'idle', k: m.k, stats: publisher.stats() }));
      break;
    case 'close':
      void close();
      break;
  }
});

async function close(): Promise<void> {
  clearInterval(statsTimer);
  await publisher.close().catch(report);
  // The last delivery marks are written by the event loop's journal: wait for its answers.
  if (writes.size > 0) await new Promise<void>((resolve) => (writesDone = resolve));
  db.close();
  post({ type: 'closed' });
  port.close();
}

post({ type: 'ready', tid });

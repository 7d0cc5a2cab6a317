// How clock events come into the journal: `appendMany` commits a batch on the event loop before
// it returns; `appendInBackground` (the host's path for every press) commits it on the writer
// thread when there is one, else here at once. Either way the sequencer prepares every event
// first (event-sequencer.ts), the batch is ONE transaction (one fsync: group commit), and
// nothing of it is durable before its commit returned.
import type { ClockEvents } from './clock-events.ts';
import { EVENT_COLUMNS } from './clock-events.ts';
import type { JournalConnection } from './connection.ts';
import type { BackgroundAppend, BatchOverlay, EventSequencer, PreparedEvent } from './event-sequencer.ts';
import { JournalError } from './fields.ts';
import type { Outbox, OutboxTuple } from './outbox.ts';
import type { AppendResult, ClockEventInput } from './types.ts';
import type { WriterThread } from './writer-thread.ts';

/** What `appendInBackground` answers at once: each event's row (or why it was refused), and when they are durable. */
export interface BackgroundBatch {
  /** Per event, in order: its row as it will be stored (ids numbered by this thread), or the error that refused it. */
  readonly results: readonly (AppendResult | Error)[];
  /**
   * Resolves once every accepted event of the batch is committed and the WAL fsynced; rejects
   * (with SQLite's error, its `code` kept) when the commit failed: then none of them is stored.
   */
  readonly durable: Promise<void>;
}

export class EventAppends {
  private readonly insertMany: (events: readonly ClockEventInput[]) => AppendResult[];

  constructor(
    private readonly conn: JournalConnection,
    private readonly sequencer: EventSequencer,
    private readonly events: ClockEvents,
    private readonly outbox: Outbox,
    private readonly writer: WriterThread | null,
  ) {
    // Made once: the transaction wrapper is on the path of every batch committed on this thread.
    this.insertMany = conn.db.transaction((events: readonly ClockEventInput[]) => {
      const batch = this.sequencer.newBatch();
      const prepared = events.map((e) => this.sequencer.prepareEvent(e, batch));
      for (const p of prepared) this.insertPrepared(p);
      this.sequencer.committed(batch); // forgotten below if the commit fails
      return prepared.map((p) => p.result);
    }).immediate;
  }

  /** Journals many events in ONE transaction (one fsync): all or none. Durable when it returns. */
  appendMany(events: readonly ClockEventInput[]): AppendResult[] {
    if (this.writer?.writing)
      throw new JournalError('a batch of clock events is being written on the writer thread: append after it is durable (Journal.settled())');
    try {
      return this.conn.guarded(() => this.insertMany(events));
    } catch (err) {
      this.sequencer.forget();
      throw err;
    }
  }

  /**
   * Journals a batch of clock events in ONE transaction, committed on the writer thread when
   * there is one (JournalOptions.writerThread), else here before it returns. This thread
   * prepares every event now — validates it, finds its game, looks for a duplicate, numbers it
   * and drafts its outbox row — so the rows it answers are the ones that will be stored, with
   * their journal ids. An event it refuses (bad content) is left out, with the later events of
   * its group. One batch at a time: it throws while the previous one is not settled.
   * Nothing in the batch is durable before `durable` resolves; if it rejects, nothing is stored.
   */
  appendInBackground(items: readonly BackgroundAppend[]): BackgroundBatch {
    if (this.writer?.writing) throw new JournalError('a batch of clock events is already being written: wait for it (Journal.settled())');
    if (!this.writer?.running) return this.appendHere(items);
    const overlay = this.sequencer.newBatch();
    const firstId = overlay.nextId;
    const prepared = this.sequencer.prepareAll(items, overlay);
    const events: unknown[][] = [];
    const outbox: OutboxTuple[] = [];
    for (const p of prepared) {
      if (p instanceof Error || !p.params) continue;
      events.push(EVENT_COLUMNS.map((c) => p.params![c]));
      if (p.outbox) outbox.push(p.outbox);
    }
    const results = prepared.map((p) => (p instanceof Error ? p : p.result));
    if (events.length === 0) return { results, durable: Promise.resolve() }; // duplicates of committed events only
    return { results, durable: this.writer.write(overlay, firstId, { events, outbox }) };
  }

  /** appendInBackground without a writer thread: the same batch, committed on this thread now. */
  private appendHere(items: readonly BackgroundAppend[]): BackgroundBatch {
    let results: (AppendResult | Error)[] = [];
    try {
      this.conn.transaction(() => {
        const batch: BatchOverlay = this.sequencer.newBatch();
        const prepared = this.sequencer.prepareAll(items, batch);
        for (const p of prepared) if (!(p instanceof Error)) this.insertPrepared(p);
        this.sequencer.committed(batch); // forgotten below if the commit fails
        results = prepared.map((p) => (p instanceof Error ? p : p.result));
      });
    } catch (err) {
      this.sequencer.forget();
      return { results: items.map(() => err as Error), durable: Promise.reject(err as Error) };
    }
    return { results, durable: Promise.resolve() };
  }

  private insertPrepared(p: PreparedEvent): void {
    if (!p.params) return;
    this.events.insert(p.params);
    if (p.outbox) this.outbox.insert(p.outbox);
  }
}

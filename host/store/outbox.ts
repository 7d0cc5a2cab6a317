// The `outbox` table: the MQTT messages drafted from journaled facts, each in the same
// transaction as its fact, and marked published once the broker acknowledged them
// (docs/mqtt.md). The MQTT publisher reads it as its OutboxStore (`Outbox.store`).
import type Database from 'better-sqlite3';
import type { JournalConnection } from './connection.ts';
import { JournalError, text, type Row } from './fields.ts';
import type { OutboxRow } from './types.ts';

/** An MQTT message drafted from a journaled fact (the MQTT room's OutboxDraft shape). */
export interface OutboxDraft {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
}

/** Maps a fact (kind + payload object) to the MQTT message to publish, or null to publish nothing for it. */
export type OutboxTopicHook = (kind: string, payload: unknown) => OutboxDraft | null;

/** An outbox row's values in the order both connections insert them (here and writer-worker.mjs). */
export type OutboxTuple = [kind: string, topic: string | null, retain: 0 | 1, payload: string, utcMs: number];

/** Outbox writes that are not the record (Journal.outboxAside): delivery marks, retained board states. */
export interface AsideJob {
  readonly marks?: { readonly ids: readonly number[]; readonly utcMs: number };
  readonly rows?: readonly OutboxTuple[];
}

/** The MQTT room's OutboxStore contract (host/adapters/mqtt/outbox-store.ts), served from the journal's outbox table. */
export interface JournalOutboxStore {
  append(drafts: readonly OutboxDraft[]): void;
  pending(limit: number, afterId?: number): (OutboxDraft & { id: number })[];
  markDone(ids: readonly number[]): void;
  pendingCount(): number;
  /** Retained states, stored on the journal's writer thread (Journal.outboxAside). */
  appendRetainedAside(drafts: readonly OutboxDraft[]): Promise<void>;
  /** Delivery marks, written on the journal's writer thread (Journal.outboxAside). */
  markDoneAside(ids: readonly number[]): Promise<void>;
}

/**
 * What the MQTT publisher reads of the outbox: the rows with a topic not yet published, in id
 * order. One definition for the journal's own store (`Journal.outboxStore`) and for the MQTT
 * publisher thread, which reads the journal's file with a connection of its own
 * (host/adapters/mqtt/publisher-thread-worker.ts).
 */
export function outboxReader(db: Database.Database): Pick<JournalOutboxStore, 'pending' | 'pendingCount'> {
  const pendingTopics = db.prepare<[number, number], { id: number; topic: string; payload: string; retain: number }>(
    'SELECT id, topic, payload, retain FROM outbox WHERE published_utc_ms IS NULL AND topic IS NOT NULL AND id > ? ORDER BY id LIMIT ?',
  );
  const pendingTopicCount = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM outbox WHERE published_utc_ms IS NULL AND topic IS NOT NULL');
  return {
    pending: (limit, afterId = 0) => pendingTopics.all(afterId, limit).map((r) => ({ id: r.id, topic: r.topic, payload: r.payload, retain: r.retain === 1 })),
    pendingCount: () => pendingTopicCount.get()!.n,
  };
}

export class Outbox {
  private readonly insertRow;
  private readonly pendingRows;
  private readonly markRow;
  private readonly backlogCount;

  constructor(
    private readonly conn: JournalConnection,
    /** Without a hook, rows are stored with their kind and no topic. */
    private readonly topicOf: OutboxTopicHook | undefined,
    /** Where the publisher's marks and retained states are written: the writer thread when there is one (Journal.outboxAside). */
    private readonly aside: (job: AsideJob) => Promise<void>,
  ) {
    this.insertRow = conn.prepare('INSERT INTO outbox (kind, topic, retain, payload, created_utc_ms) VALUES (?, ?, ?, ?, ?)');
    this.pendingRows = conn.prepare('SELECT * FROM outbox WHERE published_utc_ms IS NULL ORDER BY id LIMIT ?');
    this.markRow = conn.prepare('UPDATE outbox SET published_utc_ms = ? WHERE id = ? AND published_utc_ms IS NULL');
    this.backlogCount = conn.prepare('SELECT COUNT(*) AS n FROM outbox WHERE published_utc_ms IS NULL');
  }

  /** A fact's outbox row, through the topic hook when there is one (null: nothing to publish). */
  row(kind: string, payload: unknown, utcMs: number): OutboxTuple | null {
    if (this.topicOf) {
      const draft = this.topicOf(kind, payload);
      if (draft === null) return null;
      return [kind, draft.topic, draft.retain ? 1 : 0, draft.payload, utcMs];
    }
    return [kind, null, 0, JSON.stringify(payload), utcMs];
  }

  /** Stores a drafted row (inside the caller's transaction); returns its id. */
  insert(row: OutboxTuple): number {
    return Number(this.insertRow.run(...row).lastInsertRowid);
  }

  /** Writes a fact's outbox row (inside the caller's transaction), through the topic hook when there is one. */
  write(kind: string, payload: unknown, utcMs: number): number | null {
    const row = this.row(kind, payload, utcMs);
    return row === null ? null : this.insert(row);
  }

  /** Adds a row to publish (for facts not journaled here, e.g. live status). */
  enqueue(kind: string, payload: unknown, utcMs: number): number | null {
    return this.write(text(kind, 'kind', 'outbox row'), payload, utcMs);
  }

  /**
   * The outbox as the MQTT publisher's store (host/adapters/mqtt/outbox-store.ts `OutboxStore`):
   * only rows with a topic; `markDone` stamps them published at `nowUtcMs()`.
   */
  store(nowUtcMs: () => number): JournalOutboxStore {
    const reader = outboxReader(this.conn.db);
    return {
      append: (drafts) => {
        const write = () =>
          this.conn.transaction(() => {
            const at = nowUtcMs();
            for (const d of drafts) this.insertRow.run('mqtt', text(d.topic, 'topic', 'outbox draft'), d.retain ? 1 : 0, d.payload, at);
          });
        // Retained board states only (the publisher's batch every 250 ms, up to one row per
        // board): a convenience for late subscribers, drafted again at the board's next event,
        // never the record (a result's state is drafted in the result's own transaction). So, as
        // for the outbox marks, no fsync of their own on the event loop (this transaction was one
        // of the 50–80 ms stalls: docs/host.md "The journal's writer thread"): written with
        // synchronous=NORMAL, they become durable with the next clock events' commit, which
        // syncs the whole WAL.
        if (drafts.length === 0 || !drafts.every((d) => d.retain)) return write();
        this.conn.withoutOwnFsync(write);
      },
      ...reader,
      markDone: (ids) => {
        this.markPublished(ids, nowUtcMs());
      },
      appendRetainedAside: (drafts) => {
        let rows: OutboxTuple[];
        try {
          const at = nowUtcMs();
          rows = drafts.map((d) => {
            if (!d.retain) throw new JournalError('only retained states are stored aside: a message is stored with its record');
            return ['mqtt', text(d.topic, 'topic', 'outbox draft'), 1, d.payload, at];
          });
        } catch (err) {
          return Promise.reject(err as Error);
        }
        return this.aside({ rows });
      },
      markDoneAside: (ids) => this.aside({ marks: { ids: [...ids], utcMs: nowUtcMs() } }),
    };
  }

  /** Unpublished rows, oldest first. */
  pendingOutbox(limit = 100): OutboxRow[] {
    return (this.pendingRows.all(limit) as Row[]).map((r) => ({
      id: r.id as number,
      kind: r.kind as string,
      topic: (r.topic as string | null) ?? null,
      retain: r.retain === 1,
      payload: r.topic === null ? JSON.parse(r.payload as string) : r.payload,
      createdUtcMs: r.created_utc_ms as number,
    }));
  }

  /** Marks rows published (after the broker acknowledged them); returns how many were newly marked. */
  markPublished(ids: readonly number[], utcMs: number): number {
    // A mark lost in a power cut only publishes its row once more (subscribers deduplicate by
    // journalSeq: docs/mqtt.md), so it is not worth an fsync of its own (one per burst of
    // PUBACKs): written with synchronous=NORMAL, it becomes durable with the next journaled
    // event's commit, which syncs the whole WAL (WAL frames are kept in order).
    return this.conn.withoutOwnFsync(() => this.conn.transaction(() => ids.reduce((n, id) => n + this.markRow.run(utcMs, id).changes, 0)));
  }

  outboxBacklog(): number {
    return (this.backlogCount.get() as { n: number }).n;
  }

  /** Writes an aside job on this connection (no writer thread, or one that did not answer it). */
  writeAside(job: AsideJob): void {
    this.conn.withoutOwnFsync(() =>
      this.conn.transaction(() => {
        if (job.marks) for (const id of job.marks.ids) this.markRow.run(job.marks.utcMs, id);
        if (job.rows) for (const o of job.rows) this.insertRow.run(...o);
      }),
    );
  }
}

// An `OutboxStore` in SQLite (better-sqlite3, WAL, synchronous=FULL so an appended
// message survives a power cut before it is published).
import Database from 'better-sqlite3';
import type { OutboxDraft, OutboxMessage, OutboxStore } from './outbox-store.ts';

interface Row {
  id: number;
  topic: string;
  payload: string;
  retain: number;
}

export class SqliteOutboxStore implements OutboxStore {
  readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly insert: Database.Statement;
  private readonly selectPending: Database.Statement<[number, number], Row>;
  private readonly remove: Database.Statement;
  private readonly count: Database.Statement<[], { n: number }>;
  private readonly appendAll: (drafts: readonly OutboxDraft[]) => void;
  private readonly removeAll: (ids: readonly number[]) => void;

  /** `db`: a file path (opened here, WAL) or an open database shared with the host. */
  constructor(db: string | Database.Database, table = 'mqtt_outbox') {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad outbox table name "${table}"`);
    this.ownsDb = typeof db === 'string';
    this.db = typeof db === 'string' ? new Database(db) : db;
    if (this.ownsDb) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
    }
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         topic TEXT NOT NULL,
         payload TEXT NOT NULL,
         retain INTEGER NOT NULL
       )`,
    );
    this.insert = this.db.prepare(`INSERT INTO ${table} (topic, payload, retain) VALUES (?, ?, ?)`);
    this.selectPending = this.db.prepare(`SELECT id, topic, payload, retain FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`);
    this.remove = this.db.prepare(`DELETE FROM ${table} WHERE id = ?`);
    this.count = this.db.prepare(`SELECT count(*) AS n FROM ${table}`);
    this.appendAll = this.db.transaction((drafts: readonly OutboxDraft[]) => {
      for (const d of drafts) this.insert.run(d.topic, d.payload, d.retain ? 1 : 0);
    });
    this.removeAll = this.db.transaction((ids: readonly number[]) => {
      for (const id of ids) this.remove.run(id);
    });
  }

  append(drafts: readonly OutboxDraft[]): void {
    this.appendAll(drafts);
  }

  pending(limit: number, afterId = 0): OutboxMessage[] {
    return this.selectPending.all(afterId, limit).map((r) => ({ id: r.id, topic: r.topic, payload: r.payload, retain: r.retain === 1 }));
  }

  markDone(ids: readonly number[]): void {
    if (ids.length > 0) this.removeAll(ids);
  }

  pendingCount(): number {
    return this.count.get()!.n;
  }

  close(): void {
    if (this.ownsDb) this.db.close();
  }
}

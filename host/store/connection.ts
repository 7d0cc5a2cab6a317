// The journal's one SQLite connection on the event loop: the file opened with its pragmas and
// schema, every write's outcome reported to the storage health, and the two ways to write
// several statements at once (`transaction`, `withoutOwnFsync`). Each table module prepares its
// own statements here (`prepare`); nothing else in the host holds the database handle.
//
// Durability: `PRAGMA synchronous = FULL`. In WAL mode, NORMAL syncs the log only at
// checkpoints, so a commit that already returned can roll back after a power cut or OS crash;
// the host acknowledges an event to the clock only after its commit returned, and the clock
// then drops it from its outbox, so an acknowledged press must survive a power cut. FULL syncs
// the WAL at every commit: one fsync per commit (bench/host-journal.bench.ts).
import Database from 'better-sqlite3';
import { JournalError } from './fields.ts';
import { SCHEMA_STEPS, SCHEMA_VERSION } from './schema.ts';
import { StorageHealthTracker } from './storage-health.ts';

/** The journal file cannot be opened or is not a journal: what SQLite said, with the path and what to check. */
export class JournalOpenError extends JournalError {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as { code?: string } | null)?.code;
    const why = (cause as Error)?.message ?? String(cause);
    const hint =
      code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT'
        ? ' (the file is not a chessclock journal, or it is damaged: restore it from a copy, or give another --db)'
        : code?.startsWith('SQLITE_READONLY') || code?.startsWith('SQLITE_CANTOPEN') || /directory does not exist/.test(why)
          ? ' (check that the directory exists and that this user may write there)'
          : '';
    super(`cannot open the journal ${path}: ${why}${code ? ` (${code})` : ''}${hint}`);
    this.name = 'JournalOpenError';
  }
}

export interface ConnectionOptions {
  /** UTC now, for when a storage fault began and cleared (default: the system clock). */
  nowUtcMs?: () => number;
  /** The commits' sync level: FULL as shipped; NORMAL only for the benchmark's comparison (JournalOptions.synchronous). */
  synchronous?: 'FULL' | 'NORMAL';
}

export class JournalConnection {
  readonly db: Database.Database;
  /** Whether writes succeed (a full disk, an I/O error): every write reports its outcome here. */
  readonly storage: StorageHealthTracker;
  /** Nesting of guarded writes: only the outermost one's outcome is the storage's. */
  private writeDepth = 0;
  private totalChangesStmt: Database.Statement | null = null;
  private readonly synchronous: 'FULL' | 'NORMAL';

  /** Opens (or creates) the journal at `path`; `:memory:` for a throw-away one. Reopening resumes. */
  constructor(
    readonly path: string,
    options: ConnectionOptions = {},
  ) {
    this.storage = new StorageHealthTracker(path, options.nowUtcMs ?? (() => Date.now()));
    this.synchronous = options.synchronous ?? 'FULL';
    // A journal that cannot be opened is said in one line naming the file (docs/reliability.md).
    try {
      this.db = new Database(path);
    } catch (err) {
      throw new JournalOpenError(path, err);
    }
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${this.synchronous}`);
      this.db.pragma('foreign_keys = ON');
      // A second process (e.g. `chessclock host --replay` while the host runs) waits for the write lock.
      this.db.pragma('busy_timeout = 5000');
      this.migrate();
    } catch (err) {
      this.db.close();
      throw err instanceof JournalError ? err : new JournalOpenError(path, err);
    }
  }

  /** A file journal (the worker threads open the file with connections of their own); not `:memory:`. */
  get onDisk(): boolean {
    return this.path !== ':memory:' && this.path !== '';
  }

  get open(): boolean {
    return this.db.open;
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /**
   * Prepares a statement of a table module. One that writes reports its outcome to `storage`
   * when it runs: outside a transaction it autocommits, and may meet a full disk there
   * (transactions meet it at COMMIT: `transaction`).
   */
  prepare(sql: string): Database.Statement {
    const s = this.db.prepare(sql);
    if (!s.reader) {
      const run = s.run.bind(s);
      s.run = ((...args: unknown[]) => this.guarded(() => run(...(args as [])))) as typeof s.run;
    }
    return s;
  }

  /** Runs a write, reporting its storage outcome (only the outermost of nested writes counts). */
  guarded<T>(write: () => T): T {
    this.writeDepth++;
    // During a fault only a write that changed a row clears it (storage-health.ts): one that
    // changed none committed without touching the disk.
    const changesBefore = this.writeDepth === 1 && this.storage.faulty ? this.totalChanges() : null;
    try {
      const out = write();
      if (this.writeDepth === 1) this.storage.succeeded(undefined, changesBefore === null || this.totalChanges() > changesBefore);
      return out;
    } catch (err) {
      if (this.writeDepth === 1) this.storage.failed(err);
      throw err;
    } finally {
      this.writeDepth--;
    }
  }

  /** Rows changed by this connection since it opened (SQLite's total_changes()). */
  private totalChanges(): number {
    this.totalChangesStmt ??= this.db.prepare('SELECT total_changes()').pluck();
    return this.totalChangesStmt.get() as number;
  }

  /** One write transaction, reported to `storage`. */
  transaction<T>(fn: () => T): T {
    // BEGIN IMMEDIATE: the writer thread commits from another connection; a deferred transaction
    // that read first and wrote after its commit would fail (SQLITE_BUSY_SNAPSHOT) instead of waiting.
    return this.guarded(() => this.db.transaction(fn).immediate());
  }

  /**
   * Runs a write that is not the record (MQTT delivery marks, retained states) with
   * synchronous=NORMAL: no fsync of its own; it becomes durable with the next clock events'
   * commit, which syncs the whole WAL (WAL frames are kept in order).
   */
  withoutOwnFsync<T>(write: () => T): T {
    this.db.pragma('synchronous = NORMAL');
    try {
      return write();
    } finally {
      this.db.pragma(`synchronous = ${this.synchronous}`);
    }
  }

  /** The WAL size at which a commit of this connection checkpoints (SQLite's wal_autocheckpoint, in pages). */
  autocheckpointAt(pages: number): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new JournalError(`journal ${this.path} has schema version ${version}, newer than this host understands (${SCHEMA_VERSION}); upgrade the host`);
    }
    // Each missing step in its own transaction: a file stops at the last complete version.
    for (let v = version; v < SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        this.db.exec(SCHEMA_STEPS[v]);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }
}

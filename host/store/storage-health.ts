// Whether the journal can write (docs/reliability.md "Faults": faults become reports). A full disk, an I/O error
// or a file turned read-only is a fault of the storage, not of the request that met it: the
// host stays up, acknowledges nothing it could not write (a clock keeps such an event in its
// outbox and sends it again), says so on /api/health and the dashboard, and clears the fault
// by itself with the first write that succeeds once space returns.
//
// Only SQLite's storage result codes count: a constraint or a malformed value is the caller's
// error and says nothing about the disk.

/** SQLite result codes (and their extended forms, e.g. SQLITE_IOERR_WRITE) that mean the storage failed. */
const STORAGE_CODES = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_PROTOCOL'];

/** The storage result code of an error thrown by better-sqlite3, or null for any other error. */
export function storageFaultCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  return STORAGE_CODES.some((c) => code === c || code.startsWith(`${c}_`)) ? code : null;
}

/** What an arbiter reads about a storage fault: what happened and what to do. */
export function describeStorageFault(code: string, message: string, path: string): string {
  const what = code.startsWith('SQLITE_FULL')
    ? `the journal's disk is full`
    : code.startsWith('SQLITE_READONLY')
      ? 'the journal cannot be written (read-only)'
      : code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')
        ? 'the journal file is damaged'
        : `the journal's disk failed to write`;
  return `${what} (${code}: ${message}) at ${path}: clock events are not acknowledged until it can write again; the clocks keep them and send them again`;
}

export interface StorageHealth {
  /** True while the last write succeeded (or none failed yet). */
  readonly ok: boolean;
  /** The storage result code of the failing writes (e.g. SQLITE_FULL), while not ok. */
  readonly code?: string;
  /** What is wrong and what it means, in words (docs/reliability.md). */
  readonly reason?: string;
  /** When the first write of this fault failed (UTC ms). */
  readonly sinceUtcMs?: number;
  /** Writes refused since the fault began. */
  readonly failedWrites?: number;
  /** When the last fault cleared (UTC ms), or null if none has. */
  readonly recoveredUtcMs: number | null;
}

/** Tracks the journal's storage faults: fed by every write's outcome. */
export class StorageHealthTracker {
  private fault: { code: string; reason: string; sinceUtcMs: number; failedWrites: number } | null = null;
  private recoveredUtcMs: number | null = null;
  private readonly listeners = new Set<(h: StorageHealth) => void>();

  constructor(
    private readonly path: string,
    private readonly nowUtcMs: () => number,
  ) {}

  /** A write failed: records it if it is a storage fault. Returns whether it was one. */
  failed(err: unknown): boolean {
    const code = storageFaultCode(err);
    if (code === null) return false;
    if (this.fault) {
      this.fault.failedWrites++;
      if (this.fault.code === code) return true;
    }
    this.fault = {
      code,
      reason: describeStorageFault(code, (err as Error).message, this.path),
      sinceUtcMs: this.fault?.sinceUtcMs ?? this.nowUtcMs(),
      failedWrites: this.fault?.failedWrites ?? 1,
    };
    this.emit();
    return true;
  }

  /** A write succeeded: the storage works again. */
  succeeded(): void {
    if (!this.fault) return;
    this.fault = null;
    this.recoveredUtcMs = this.nowUtcMs();
    this.emit();
  }

  get current(): StorageHealth {
    const f = this.fault;
    return f ? { ok: false, ...f, recoveredUtcMs: this.recoveredUtcMs } : { ok: true, recoveredUtcMs: this.recoveredUtcMs };
  }

  /** Calls `fn` on every change (fault begins, its code changes, it clears). Returns the unsubscribe. */
  onChange(fn: (h: StorageHealth) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    const h = this.current;
    for (const fn of this.listeners) {
      try {
        fn(h);
      } catch {
        // A listener's failure must not turn a report into a crash.
      }
    }
  }
}

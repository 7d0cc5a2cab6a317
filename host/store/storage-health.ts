// Whether the journal can write (docs/reliability.md "Faults": faults become reports). A full disk, an I/O error
// or a file turned read-only is a fault of the storage, not of the request that met it: the
// host stays up, acknowledges nothing it could not write (a clock keeps such an event in its
// outbox and sends it again), says so on /api/health and the dashboard, and clears the fault
// by itself once space returns.
//
// What "cleared" means (docs/reliability.md, "Disk full"): a write that stored something
// succeeded, and every kind of retried write that failed during the fault (the clocks' events,
// the MQTT outbox's marks and retained states) has since stored something. A write that changes
// no row (a mark of rows already marked, an empty transaction) commits on a full disk without
// touching it, and a small write may fit in space the WAL file already has: either alone once
// cleared the fault while the disk was still full, and the next refused write began it again.
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
export function describeStorageFault(code: string, message: string, path?: string): string {
  const what = code.startsWith('SQLITE_FULL')
    ? `the journal's disk is full`
    : code.startsWith('SQLITE_READONLY')
      ? 'the journal cannot be written (read-only)'
      : code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')
        ? 'the journal file is damaged'
        : `the journal's disk failed to write`;
  return `${what} (${code}: ${message})${path === undefined ? '' : ` at ${path}`}: clock events are not acknowledged until it can write again; the clocks keep them and send them again`;
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
  /** Told with the change that clears a fault (onChange only): the fault that cleared. */
  readonly cleared?: { readonly code: string; readonly sinceUtcMs: number; readonly failedWrites: number };
}

/**
 * Writes that are tried again until they are stored: the clocks' events (the clocks resend
 * them) and the MQTT outbox's marks and retained states (the publisher retries them). A fault
 * in which one failed clears only once one of that kind stored something again.
 */
export type RetriedWrite = 'clock events' | 'MQTT outbox';

/** Tracks the journal's storage faults: fed by every write's outcome. */
export class StorageHealthTracker {
  private fault: { code: string; reason: string; sinceUtcMs: number; failedWrites: number } | null = null;
  /** The retried writes that failed in this fault and have not stored anything since. */
  private readonly awaiting = new Set<RetriedWrite>();
  private recoveredUtcMs: number | null = null;
  private readonly listeners = new Set<(h: StorageHealth) => void>();

  constructor(
    private readonly path: string,
    private readonly nowUtcMs: () => number,
  ) {}

  /** Whether a storage fault is current. */
  get faulty(): boolean {
    return this.fault !== null;
  }

  /** A write (of `kind`, if retried) failed: records it if it is a storage fault. Returns whether it was one. */
  failed(err: unknown, kind?: RetriedWrite): boolean {
    const code = storageFaultCode(err);
    if (code === null) return false;
    if (kind) this.awaiting.add(kind);
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

  /**
   * A write (of `kind`, if retried) succeeded. `stored`: whether it changed a row; one that
   * changed none did not touch the disk and says nothing about it. The fault clears once no
   * retried kind that failed awaits a stored write (the module's head).
   */
  succeeded(kind?: RetriedWrite, stored = true): void {
    if (!this.fault || !stored) return;
    if (kind) this.awaiting.delete(kind);
    if (this.awaiting.size > 0) return;
    const { code, sinceUtcMs, failedWrites } = this.fault;
    this.fault = null;
    this.recoveredUtcMs = this.nowUtcMs();
    this.emit({ cleared: { code, sinceUtcMs, failedWrites } });
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

  private emit(extra: Partial<StorageHealth> = {}): void {
    const h = { ...this.current, ...extra };
    for (const fn of this.listeners) {
      try {
        fn(h);
      } catch {
        // A listener's failure must not turn a report into a crash.
      }
    }
  }
}

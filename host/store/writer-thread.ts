// The client of the journal's writer thread (writer-worker.mjs; Journal option `writerThread`,
// docs/host.md "The journal's writer thread"). better-sqlite3 is synchronous: a commit with
// synchronous=FULL holds the thread that runs it for its fsync, and under load some take
// 50–80 ms. So the batches of clock events the sequencer prepared are committed on a thread of
// their own, one batch at a time: journal order is the order sent, and a batch is always
// numbered from what is committed. A batch's events are read nowhere on this thread until the
// writer answered (`visibleEventId`), so they appear everywhere at the instant the host
// acknowledges them. The thread also writes the MQTT publisher's marks and retained states
// (`aside`), so the event loop never waits for the writer's lock.
import { Worker } from 'node:worker_threads';
import type { JournalConnection } from './connection.ts';
import type { BatchOverlay, EventSequencer } from './event-sequencer.ts';
import { JournalError } from './fields.ts';
import type { AsideJob, Outbox, OutboxTuple } from './outbox.ts';

/** The rows of one batch as the writer thread inserts them: each event's values in EVENT_COLUMNS order, and its outbox rows. */
export interface BatchRows {
  readonly events: readonly unknown[][];
  readonly outbox: readonly OutboxTuple[];
}

interface InFlight {
  readonly n: number;
  readonly firstId: number;
  readonly overlay: BatchOverlay;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
  readonly done: Promise<void>;
}

type WriterMessage = { type: string; n?: number; k?: number; message?: string; code?: string | null; stored?: boolean };

function noop(): void {}

/** SQLite's error as the writer thread reported it, its code kept (a full disk is a storage fault). */
function writerError(m: WriterMessage): Error {
  return Object.assign(new Error(m.message), m.code ? { code: m.code } : {});
}

export class WriterThread {
  private worker: Worker | null;
  /** The batch on the writer thread, until its answer: one at a time, so journal order is send order. */
  private inFlight: InFlight | null = null;
  private batches = 0;
  /** Outbox writes handed to the writer thread (`aside`) and not yet answered, by number. */
  private readonly asideJobs = new Map<number, { job: AsideJob; resolve: () => void; reject: (err: Error) => void }>();
  private asideN = 0;

  constructor(
    private readonly conn: JournalConnection,
    private readonly sequencer: EventSequencer,
    private readonly outbox: Outbox,
  ) {
    // The writer thread checkpoints in its own commits (SQLite's default, every 1,000 WAL pages):
    // they are off the event loop, and only a checkpoint between a connection's own commits lets
    // SQLite start the WAL over. With commits every few ms the checkpoint worker's never did: the
    // WAL grew by every frame ever written (78 MB after 20,000 events in a test, 170 MB in the
    // first 90 s of the benchmark's hall of 2,000 clocks), until the disk was full.
    const worker = new Worker(new URL('./writer-worker.mjs', import.meta.url), { workerData: { path: conn.path, autocheckpoint: 1000 } });
    worker.unref();
    worker.on('message', (m: WriterMessage) => {
      if (m.type === 'broken') return this.stop(worker, m);
      if (m.type === 'aside-done' || m.type === 'aside-failed')
        return this.settleAside(m.k!, m.type === 'aside-done' ? null : writerError(m), m.stored ?? true);
      if (this.inFlight?.n !== m.n) return;
      if (m.type === 'done') this.settle(null, null);
      else this.settle(writerError(m), null);
    });
    worker.on('error', (err) => this.stop(worker, err));
    worker.on('exit', (code) => this.stop(worker, code));
    this.worker = worker;
  }

  /** Whether the thread runs: a writer that cannot run (or stopped) leaves the journal committing on the event loop. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Whether a batch is being written (its events not yet known durable). */
  get writing(): boolean {
    return this.inFlight !== null;
  }

  /** The newest clock event id this thread may show: below the batch being written (Journal.visibleEventId). */
  get visibleEventId(): number {
    return this.inFlight ? this.inFlight.firstId - 1 : Number.MAX_SAFE_INTEGER;
  }

  /** Whether the batch being written holds a start or move of the game. */
  playInFlight(gameId: number): boolean {
    return this.inFlight?.overlay.played.has(gameId) ?? false;
  }

  /** Resolves once no batch is being written (whatever its outcome). */
  settled(): Promise<void> {
    return this.inFlight ? this.inFlight.done.then(noop, noop) : Promise.resolve();
  }

  /** Sends a prepared batch; resolves once its commit returned (the WAL fsynced), rejects when nothing of it is stored. */
  write(overlay: BatchOverlay, firstId: number, rows: BatchRows): Promise<void> {
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    const n = ++this.batches;
    this.inFlight = { n, firstId, overlay, resolve, reject, done };
    // One JSON string: cloning it across threads costs a copy, where thousands of row objects
    // cost a structured clone each (writer-worker.mjs).
    this.worker!.postMessage({ type: 'batch', n, rows: JSON.stringify(rows) });
    return done;
  }

  /** Hands an outbox write that is not the record to the thread, after whatever was posted before (Journal.outboxAside). */
  aside(job: AsideJob): Promise<void> {
    const k = ++this.asideN;
    return new Promise<void>((resolve, reject) => {
      this.asideJobs.set(k, { job, resolve, reject });
      this.worker!.postMessage({ type: 'aside', k, marks: job.marks ?? null, rows: job.rows ?? null });
    });
  }

  /** Stops the thread: a batch not yet answered is not known durable; aside jobs not answered are written here. */
  close(): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    worker.postMessage({ type: 'close' });
    void worker.terminate();
    this.settle(null, new JournalError(`the journal ${this.conn.path} was closed before the batch was durable`));
    // What the thread may not have written before it was stopped is written here (marks are
    // idempotent; a retained state written twice is the same state twice).
    if (this.conn.open) this.runAsideHere();
  }

  private stop(worker: Worker, why: { message?: string } | number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    const reason = typeof why === 'number' ? `exited (${why})` : why.message;
    this.settle(null, new JournalError(`the journal's writer thread stopped (${reason}): the batch is not known durable`));
    this.runAsideHere();
  }

  /** Ends the batch in flight: `storage` failed it, or the journal gave up on it (`abandoned`), or it is durable. */
  private settle(storage: Error | null, abandoned: Error | null): void {
    const b = this.inFlight;
    if (!b) return;
    this.inFlight = null;
    if (storage) {
      this.sequencer.forget();
      this.conn.storage.failed(storage, 'clock events');
      b.reject(storage);
    } else if (abandoned) {
      this.sequencer.forget();
      b.reject(abandoned);
    } else {
      this.sequencer.committed(b.overlay);
      this.conn.storage.succeeded('clock events');
      b.resolve();
    }
  }

  /** Ends an aside job; `stored`: whether it changed a row (a mark of rows already marked changes none). */
  private settleAside(k: number, err: Error | null, stored: boolean): void {
    const j = this.asideJobs.get(k);
    if (!j) return;
    this.asideJobs.delete(k);
    if (err) {
      this.conn.storage.failed(err, 'MQTT outbox');
      j.reject(err);
    } else {
      this.conn.storage.succeeded('MQTT outbox', stored);
      j.resolve();
    }
  }

  /** Writes here the aside jobs the writer thread did not answer (it stopped, or the journal closes). */
  private runAsideHere(): void {
    for (const [k, j] of [...this.asideJobs]) {
      this.asideJobs.delete(k);
      try {
        this.outbox.writeAside(j.job);
        j.resolve();
      } catch (err) {
        j.reject(err as Error);
      }
    }
  }
}

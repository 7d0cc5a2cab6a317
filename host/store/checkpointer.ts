// The client of the checkpoint worker (checkpoint-worker.mjs; Journal option
// `checkpointInBackground`, docs/host.md "What is journaled, and when"). SQLite's automatic
// checkpoint runs inside the commit that crosses wal_autocheckpoint, which then stalls the event
// loop for the copy and its fsync; the worker copies the WAL into the file from a connection of
// its own instead, with a PASSIVE checkpoint every `intervalMs`.
import { Worker } from 'node:worker_threads';
import type { JournalConnection } from './connection.ts';

/** One WAL checkpoint of the checkpoint worker (PRAGMA wal_checkpoint's answer in pages, and how long it took). */
export interface CheckpointReport {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
  readonly ms: number;
}

export interface CheckpointOptions {
  intervalMs?: number;
  onCheckpoint?: (r: CheckpointReport) => void;
}

/** SQLite's own automatic checkpoint, in WAL pages. */
const SQLITE_AUTOCHECKPOINT = 1000;

export class Checkpointer {
  private worker: Worker | null;

  constructor(
    private readonly conn: JournalConnection,
    options: CheckpointOptions | true,
  ) {
    const o = options === true ? {} : options;
    const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), { workerData: { path: conn.path, intervalMs: o.intervalMs ?? 1_000 } });
    worker.unref();
    worker.on('message', (m: CheckpointReport & { type: string; message?: string }) => {
      if (m.type === 'checkpoint') o.onCheckpoint?.(m);
    });
    // A worker that cannot run leaves the journal as SQLite ships it: checkpoints in the commit.
    const fallBack = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      conn.autocheckpointAt(SQLITE_AUTOCHECKPOINT);
    };
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
    // The worker's PASSIVE checkpoints copy the WAL into the file but never start it over: SQLite
    // does that at a commit after a checkpoint of the committing connection's own, which commits
    // every few ms never leave room for. So this connection still checkpoints in its commit, once
    // the WAL holds 4,096 pages (16 MB): by then the worker has copied nearly all of it, so the
    // commit has little left to copy, and the next commit starts the WAL over. Without it the WAL
    // grew by every frame ever written until the disk was full.
    conn.autocheckpointAt(4096);
    this.worker = worker;
  }

  close(): void {
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage('close');
    void worker.terminate();
    this.worker = null;
    // The automatic checkpoint again, so closing the last connection folds the WAL in as usual.
    this.conn.autocheckpointAt(SQLITE_AUTOCHECKPOINT);
  }
}

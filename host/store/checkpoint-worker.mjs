// The journal's WAL checkpoints, off the host's event loop (docs/host.md "What is journaled,
// and when"). SQLite's automatic checkpoint runs inside the COMMIT that crosses
// wal_autocheckpoint, so that commit copies the WAL into the database file and fsyncs it (tens
// of ms on this machine: the host's p99). The host raises the automatic one to 4,096 pages
// (Journal option `checkpointInBackground`) and this worker, with a connection of its own, runs
// a PASSIVE checkpoint every `intervalMs`: it copies what no reader still needs and never waits
// for or blocks the host's writes. A PASSIVE checkpoint never starts the WAL over, so the
// committing connection still checkpoints once the WAL holds 4,096 pages, when little is left
// to copy (checkpointer.ts, its client). Plain JavaScript: a worker thread runs it as is (no
// TypeScript loader).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, intervalMs } = workerData;
const db = new Database(path);
db.pragma('busy_timeout = 0');
db.pragma('synchronous = FULL');

function checkpoint() {
  try {
    const t0 = performance.now();
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ type: 'checkpoint', busy: r.busy, log: r.log, checkpointed: r.checkpointed, ms: performance.now() - t0 });
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: err.message });
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (m) => {
  if (m === 'checkpoint') checkpoint();
  else if (m === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});

// The journal's writer thread (Journal option `writerThread`, its client writer-thread.ts;
// docs/host.md "The journal's writer thread"). The host's event loop prepares each batch of
// clock events — it validates them, finds their games, numbers them (the row ids the feed and
// API show) and drafts their MQTT outbox rows — and this thread, with a connection of its own,
// writes the batch in ONE transaction and commits it with synchronous=FULL (the WAL fsynced),
// so the commit's fsync never holds the host's event loop. It answers `done` only after the
// commit returned: the host acknowledges nothing to a clock before that. A batch that fails is
// rolled back whole and answered `failed` with SQLite's message and code; the host then refuses
// every event in it (the clocks resend them).
//
// It also writes what the host's event loop would otherwise write beside it and wait for its
// lock: the MQTT publisher's delivery marks and retained board states (`aside`). They are not
// the record (a lost mark republishes a deduplicated message; a retained state is drafted again
// at the board's next event), so they commit with synchronous=NORMAL and become durable with the
// next batch's commit, which syncs the whole WAL. Jobs run in the order they were posted.
// Plain JavaScript: a worker thread runs it as is.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, autocheckpoint } = workerData;
let db;
let write;
let aside;
try {
  db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // 0 when the journal's checkpoint worker folds the WAL in (Journal option checkpointInBackground).
  db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  // No ON CONFLICT: the host looked for a duplicate before it numbered the event, so a conflict
  // here means another connection wrote meanwhile; the batch fails and the clocks resend.
  // Each event is an array in the order of EVENT_COLUMNS (host/store/clock-events.ts).
  const insertEvent = db.prepare(`
    INSERT INTO clock_events (id, clock_id, boot_id, seq, game_id, event, round, board, type, side, move,
      white_ms, black_ms, mono_ms, utc_ms, uncertainty_ms, detail)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertOutbox = db.prepare('INSERT INTO outbox (kind, topic, retain, payload, created_utc_ms) VALUES (?, ?, ?, ?, ?)');
  write = db.transaction((events, outbox) => {
    for (const e of events) insertEvent.run(e);
    for (const o of outbox) insertOutbox.run(o);
  }).immediate;
  const markPublished = db.prepare('UPDATE outbox SET published_utc_ms = ? WHERE id = ? AND published_utc_ms IS NULL');
  // Returns the rows it changed: a mark of rows already marked changes none, and commits on a
  // full disk without touching it (storage-health.ts: such a write does not clear a fault).
  const writeAside = db.transaction((marks, rows) => {
    let changed = 0;
    if (marks) for (const id of marks.ids) changed += markPublished.run(marks.utcMs, id).changes;
    if (rows) for (const o of rows) changed += insertOutbox.run(o).changes;
    return changed;
  }).immediate;
  aside = (marks, rows) => {
    db.pragma('synchronous = NORMAL');
    try {
      return writeAside(marks, rows);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };
} catch (err) {
  parentPort.postMessage({ type: 'broken', message: err.message, code: err.code ?? null });
  parentPort.close();
}

parentPort.on('message', (m) => {
  if (m.type === 'batch') {
    try {
      // One JSON string: cloning it across threads costs a copy, where thousands of row objects
      // cost a structured clone each (measured: 0.4 s for a big batch on the host's loop).
      const { events, outbox } = JSON.parse(m.rows);
      write(events, outbox);
      parentPort.postMessage({ type: 'done', n: m.n });
    } catch (err) {
      parentPort.postMessage({ type: 'failed', n: m.n, message: err.message, code: err.code ?? null });
    }
  } else if (m.type === 'aside') {
    try {
      const changed = aside(m.marks ?? null, m.rows ?? null);
      parentPort.postMessage({ type: 'aside-done', k: m.k, stored: changed > 0 });
    } catch (err) {
      parentPort.postMessage({ type: 'aside-failed', k: m.k, message: err.message, code: err.code ?? null });
    }
  } else if (m.type === 'close') {
    db?.close();
    parentPort.close();
  }
});

// The host's journal: one SQLite file (better-sqlite3, WAL) holding every clock event,
// game, result, match, arbiter action and the MQTT outbox.
//
// Durability: `PRAGMA synchronous = FULL`. In WAL mode, NORMAL syncs the log only at
// checkpoints, so a commit that already returned can roll back after a power cut or OS
// crash; the host acknowledges an event to the clock only after its commit returned (`append`
// returned, or `appendInBackground`'s `durable` resolved), and the
// clock then drops it from its outbox, so an acknowledged press must survive a power cut.
// FULL syncs the WAL at every commit. The cost is one fsync per commit, which is why
// `appendMany` exists (one commit for a batch); see bench/host-journal.bench.ts.
//
// better-sqlite3 is synchronous: when a write method returns, its transaction has committed.
// The one exception is `appendInBackground` (the host's clock events, issue 16): with the
// option `writerThread` its commit runs on a thread of its own (writer-worker.mjs), and the
// events are durable when its `durable` promise resolves (docs/host.md "The journal's writer
// thread").

import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  formatTimeControl,
  other,
  type Side,
  type TimeControl,
} from '../../protocol/time-control.ts';
import { Checkpointer, type CheckpointOptions } from './checkpointer.ts';
import { JournalConnection } from './connection.ts';
import { int, JournalError, json, optInt, parseJson, text, type Row } from './fields.ts';
import { ReadCache } from './read-cache.ts';
import type { StorageHealthTracker } from './storage-health.ts';
import {
  CLOCK_EVENT_TYPES,
  RESULTS,
  type AppendResult,
  type ArbiterActionInput,
  type ArbiterActionRow,
  type BoardState,
  type ClockEventInput,
  type ClockEventRow,
  type ClockEventType,
  type ClockResultInput,
  type ClockResultOutcome,
  type ClockRow,
  type GameResult,
  type GameRow,
  type MatchRow,
  type NewGame,
  type OutboxRow,
  type ResultReport,
  type ResultReportRow,
  type ResultReportStatus,
} from './types.ts';

export * from './types.ts';
export { JournalError } from './fields.ts';
export { JournalOpenError } from './connection.ts';
export type { CheckpointReport } from './checkpointer.ts';

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

/** An MQTT message drafted from a journaled fact (the MQTT room's OutboxDraft shape). */
export interface OutboxDraft {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
}

export interface JournalOptions {
  /** Write an outbox row for every new clock event (for the MQTT publisher). Default true. */
  outboxEvents?: boolean;
  /**
   * Maps a fact (kind + payload object) to the MQTT message to publish, or null to publish
   * nothing for it. Without a hook, rows are stored with their kind and no topic.
   */
  outboxTopic?: (kind: string, payload: unknown) => OutboxDraft | null;
  /** UTC now, for when a storage fault began and cleared (default: the system clock). */
  nowUtcMs?: () => number;
  /**
   * Checkpoint the WAL in a worker thread (host/store/checkpoint-worker.mjs) instead of inside
   * the commit that crosses SQLite's wal_autocheckpoint, which then stalls the event loop for
   * the copy and its fsync. The host sets it (host/start-host.ts); a file journal only.
   */
  checkpointInBackground?: CheckpointOptions | boolean;
  /**
   * Commit the batches of `appendInBackground` on a thread of their own (host/store/writer-worker.mjs,
   * its own connection, WAL, synchronous=FULL) instead of on the event loop, which a commit's
   * fsync otherwise holds (issue 16). The host sets it (host/start-host.ts); a file journal only.
   */
  writerThread?: boolean;
  /**
   * The event loop connection's commits: FULL (the default, and what every host runs: an
   * acknowledged press must survive a power cut), or NORMAL, only for the benchmark's comparison
   * of what FULL costs (bench/host-journal.bench.ts).
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/** Which events a page of the API lists (`Journal.eventIdPage`); a filter left out or null lists all. */
export interface EventPageFilter {
  /** Row ids after this one. */
  readonly after: number;
  readonly limit: number;
  readonly event?: string | null;
  readonly round?: number | null;
  readonly board?: number | null;
  readonly clockId?: string | null;
}

/** One clock event of a batch for `appendInBackground`; `group` is its clock (its session). */
export interface BackgroundAppend {
  readonly event: ClockEventInput;
  /** Events of one group keep their order: after one is refused, the group's later ones of the batch are too. */
  readonly group?: unknown;
}

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

/** What a batch being prepared (or written) adds to what the file says (see `prepareEvent`). */
interface BatchOverlay {
  nextId: number;
  /** clockId/bootId/seq → row id of the events of this batch (a resend within the batch is a duplicate). */
  readonly keys: Map<string, number>;
  /** Games with a `started` event in this batch. */
  readonly started: Set<number>;
  /** Games with a `started` or `moved` event in this batch (Journal.gameStarted). */
  readonly played: Set<number>;
  /** clockId/bootId → the highest seq of this batch's new events (Journal.seqHigh once committed). */
  readonly highs: Map<string, number>;
}

type OutboxTuple = [kind: string, topic: string | null, retain: 0 | 1, payload: string, utcMs: number];

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

const EVENT_TYPES = new Set<string>(CLOCK_EVENT_TYPES);
const RESULT_SET = new Set<string>(RESULTS);

function toEvent(r: Row): ClockEventRow {
  return {
    id: r.id as number,
    clockId: r.clock_id as string,
    bootId: r.boot_id as string,
    seq: r.seq as number,
    gameId: (r.game_id as number | null) ?? null,
    event: (r.event as string | null) ?? null,
    round: (r.round as number | null) ?? null,
    board: (r.board as number | null) ?? null,
    type: r.type as ClockEventType,
    side: (r.side as Side | null) ?? null,
    move: (r.move as number | null) ?? null,
    whiteMs: r.white_ms as number,
    blackMs: r.black_ms as number,
    monoMs: r.mono_ms as number,
    utcMs: r.utc_ms as number,
    uncertaintyMs: r.uncertainty_ms as number,
    detail: parseJson(r.detail) as Record<string, unknown> | null,
  };
}

function noop(): void {}

/** A prepared event's values in the order the writer thread inserts them (writer-worker.mjs). */
const EVENT_COLUMNS = ['id', 'clockId', 'bootId', 'seq', 'gameId', 'event', 'round', 'board', 'type', 'side', 'move',
  'whiteMs', 'blackMs', 'monoMs', 'utcMs', 'uncertaintyMs', 'detail'] as const;

/** One clock event made ready to store: `params` null for a duplicate (nothing to store). */
interface PreparedEvent {
  readonly result: AppendResult;
  readonly params: Row | null;
  readonly outbox: OutboxTuple | null;
}

function toGame(r: Row): GameRow {
  return {
    gameId: r.game_id as number,
    event: r.event as string,
    round: r.round as number,
    board: r.board as number,
    gameNo: r.game_no as number,
    matchId: (r.match_id as string | null) ?? null,
    kind: r.kind as GameRow['kind'],
    white: r.white as string,
    black: r.black as string,
    whiteRank: (r.white_rank as number | null) ?? null,
    blackRank: (r.black_rank as number | null) ?? null,
    whiteTeam: (r.white_team as string | null) ?? null,
    blackTeam: (r.black_team as string | null) ?? null,
    timeControl: r.time_control as string,
    timeControlValue: JSON.parse(r.time_control_json as string) as TimeControl,
    clockId: (r.clock_id as string | null) ?? null,
    earliestStartUtcMs: (r.earliest_start_utc_ms as number | null) ?? null,
    endedUtcMs: (r.ended_utc_ms as number | null) ?? null,
    result: (r.result as GameResult | null) ?? null,
    how: (r.how as string | null) ?? null,
    reportedBy: (r.reported_by as string | null) ?? null,
    reportedUtcMs: (r.reported_utc_ms as number | null) ?? null,
    confirmedBy: (r.confirmed_by as string | null) ?? null,
    confirmedUtcMs: (r.confirmed_utc_ms as number | null) ?? null,
    createdUtcMs: r.created_utc_ms as number,
  };
}

function toReport(r: Row): ResultReportRow {
  return {
    id: r.id as number,
    eventId: (r.event_id as number | null) ?? null,
    clockId: (r.clock_id as string | null) ?? null,
    gameId: (r.game_id as number | null) ?? null,
    result: r.result as GameResult,
    how: (r.how as string | null) ?? null,
    reportedBy: r.reported_by as string,
    utcMs: r.utc_ms as number,
    status: r.status as ResultReportStatus,
    resolvedBy: (r.resolved_by as string | null) ?? null,
    resolvedUtcMs: (r.resolved_utc_ms as number | null) ?? null,
  };
}

/** When a game with a result ended: the end recorded with it, else when the result came. */
function endOf(game: GameRow): number | null {
  return game.endedUtcMs ?? game.reportedUtcMs;
}

function toMatch(r: Row): MatchRow {
  return {
    matchId: r.match_id as string,
    event: r.event as string,
    round: r.round as number,
    board: r.board as number,
    playerA: r.player_a as string,
    playerB: r.player_b as string,
    status: r.status as MatchRow['status'],
    winner: (r.winner as string | null) ?? null,
    loser: (r.loser as string | null) ?? null,
    decidedBy: (r.decided_by as MatchRow['decidedBy']) ?? null,
    score: parseJson(r.score_json),
    updatedUtcMs: r.updated_utc_ms as number,
  };
}

/** Events of one game in play order: boots by first appearance in UTC, then seq within a boot. */
const ORDERED_EVENTS = `
  SELECT e.* FROM clock_events e
  JOIN (SELECT clock_id, boot_id, MIN(utc_ms) AS boot_start FROM clock_events
        WHERE game_id = @gameId AND id <= @visible GROUP BY clock_id, boot_id) b
    ON b.clock_id = e.clock_id AND b.boot_id = e.boot_id
  WHERE e.game_id = @gameId AND e.id <= @visible`;

export class Journal {
  private readonly connection: JournalConnection;
  private readonly db: Database.Database;
  private readonly outboxEvents: boolean;
  private readonly outboxTopic: JournalOptions['outboxTopic'];
  private readonly stmt;
  private readonly insertMany: (events: readonly ClockEventInput[]) => AppendResult[];
  /** Whether writes succeed (a full disk, an I/O error): every write reports its outcome here. */
  readonly storage: StorageHealthTracker;
  /**
   * Games and result reports as last read (issue 16: the host's feed reads a board's game for
   * every clock event). Every statement that writes the `games` or `result_reports` table
   * clears it first (`this.reads.clear()` before its `run`), and it is bypassed inside a
   * transaction (a rollback would leave a read of what was never committed) and dropped when
   * another connection wrote those tables (schema.ts version 3, `read_generation`).
   */
  private readonly reads: ReadCache;
  private readonly checkpointer: Checkpointer | null = null;

  /** Opens (or creates) the journal at `path`; `:memory:` for a throw-away one. Reopening resumes. */
  constructor(readonly path: string, options: JournalOptions = {}) {
    this.outboxEvents = options.outboxEvents ?? true;
    this.outboxTopic = options.outboxTopic;
    const conn = (this.connection = new JournalConnection(path, options));
    this.storage = conn.storage;
    this.db = conn.db;
    this.reads = new ReadCache(conn.db);
    this.stmt = {
      // The id is numbered before the insert (prepareEvent) and duplicates are found before it, so
      // a conflict here is another connection's write: the batch fails whole.
      insertEvent: conn.prepare(`
        INSERT INTO clock_events (id, clock_id, boot_id, seq, game_id, event, round, board, type, side, move,
          white_ms, black_ms, mono_ms, utc_ms, uncertainty_ms, detail)
        VALUES (@id, @clockId, @bootId, @seq, @gameId, @event, @round, @board, @type, @side, @move,
          @whiteMs, @blackMs, @monoMs, @utcMs, @uncertaintyMs, @detail)`),
      maxEventId: conn.prepare('SELECT COALESCE(MAX(id), 0) FROM clock_events').pluck(),
      eventIdByKey: conn.prepare('SELECT id FROM clock_events WHERE clock_id = ? AND boot_id = ? AND seq = ?'),
      maxSeqOfBoot: conn.prepare('SELECT MAX(seq) FROM clock_events WHERE clock_id = ? AND boot_id = ?').pluck(),
      insertOutbox: conn.prepare('INSERT INTO outbox (kind, topic, retain, payload, created_utc_ms) VALUES (?, ?, ?, ?, ?)'),
      gameById: conn.prepare('SELECT * FROM games WHERE game_id = ?'),
      currentGameForClock: conn.prepare(
        'SELECT * FROM games WHERE clock_id = ? AND result IS NULL ORDER BY game_id DESC LIMIT 1',
      ),
      // The clock's two newest games, with a result or not (games_by_clock index).
      newestGamesOfClock: conn.prepare('SELECT * FROM games WHERE clock_id = ? ORDER BY game_id DESC LIMIT 2'),
      gameHasStart: conn.prepare(`SELECT 1 FROM clock_events WHERE game_id = ? AND type = 'started' LIMIT 1`),
      playedGameOfClock: conn.prepare(`
        SELECT g.* FROM games g WHERE g.clock_id = ? AND (g.result IS NOT NULL
          OR EXISTS (SELECT 1 FROM clock_events e WHERE e.game_id = g.game_id AND e.type = 'started'))
        ORDER BY g.game_id DESC LIMIT 1`),
      insertReport: conn.prepare(`
        INSERT INTO result_reports (event_id, clock_id, game_id, result, how, reported_by, utc_ms, status)
        VALUES (@eventId, @clockId, @gameId, @result, @how, @reportedBy, @utcMs, @status)
        ON CONFLICT (event_id) DO NOTHING`),
      reportByEvent: conn.prepare('SELECT * FROM result_reports WHERE event_id = ?'),
      reportById: conn.prepare('SELECT * FROM result_reports WHERE id = ?'),
      reportsOfGame: conn.prepare('SELECT * FROM result_reports WHERE game_id = ? ORDER BY id'),
      pendingReports: conn.prepare(`SELECT * FROM result_reports WHERE status = 'pending' ORDER BY id`),
      resolveReport: conn.prepare('UPDATE result_reports SET status = @status, game_id = @gameId, resolved_by = @by, resolved_utc_ms = @utcMs WHERE id = @id'),
      insertGame: conn.prepare(`
        INSERT INTO games (event, round, board, game_no, match_id, kind, white, black, white_rank, black_rank,
          white_team, black_team, time_control, time_control_json, clock_id, earliest_start_utc_ms, created_utc_ms)
        VALUES (@event, @round, @board, @gameNo, @matchId, @kind, @white, @black, @whiteRank, @blackRank,
          @whiteTeam, @blackTeam, @timeControl, @timeControlJson, @clockId, @earliestStartUtcMs, @createdUtcMs)`),
      assignClock: conn.prepare('UPDATE games SET clock_id = ? WHERE game_id = ?'),
      reconfigureGame: conn.prepare(`
        UPDATE games SET time_control = @timeControl, time_control_json = @timeControlJson,
          white = COALESCE(@white, white), black = COALESCE(@black, black) WHERE game_id = @gameId`),
      gameHasPlay: conn.prepare(`SELECT 1 FROM clock_events WHERE game_id = ? AND type IN ('started', 'moved') LIMIT 1`),
      reportResult: conn.prepare(`
        UPDATE games SET result = @result, how = @how, reported_by = @reportedBy, reported_utc_ms = @utcMs,
          ended_utc_ms = @endedUtcMs, confirmed_by = NULL, confirmed_utc_ms = NULL
        WHERE game_id = @gameId`),
      confirmResult: conn.prepare('UPDATE games SET confirmed_by = ?, confirmed_utc_ms = ? WHERE game_id = ?'),
      gamesByRound: conn.prepare('SELECT * FROM games WHERE event = ? AND round = ? ORDER BY board, game_no'),
      gamesByEvent: conn.prepare('SELECT * FROM games WHERE event = ? ORDER BY round, board, game_no'),
      gamesByBoard: conn.prepare('SELECT * FROM games WHERE event = ? AND round = ? AND board = ? ORDER BY game_no'),
      gamesByMatch: conn.prepare('SELECT * FROM games WHERE match_id = ? ORDER BY game_no'),
      eventsByGame: conn.prepare(`${ORDERED_EVENTS} ORDER BY b.boot_start, e.clock_id, e.boot_id, e.seq`),
      lastEventOfGame: conn.prepare(`${ORDERED_EVENTS} ORDER BY b.boot_start DESC, e.clock_id DESC, e.boot_id DESC, e.seq DESC LIMIT 1`),
      eventsAfter: conn.prepare('SELECT * FROM clock_events WHERE id > ? AND id <= ? ORDER BY id LIMIT ?'),
      // Filtered paging by row id over the (event, round, board, id) index.
      eventIdPage: conn.prepare(`
        SELECT id FROM clock_events
        WHERE id > @after
          AND (@event IS NULL OR event = @event) AND (@round IS NULL OR round = @round)
          AND (@board IS NULL OR board = @board) AND (@clockId IS NULL OR clock_id = @clockId)
          AND id <= @visible
        ORDER BY id LIMIT @limit`),
      headEventId: conn.prepare('SELECT COALESCE(MAX(id), 0) AS head FROM clock_events WHERE id <= ?'),
      currentGames: conn.prepare(`
        SELECT g.* FROM games g
        WHERE NOT EXISTS (SELECT 1 FROM games h WHERE h.event = g.event AND h.board = g.board
          AND (h.round > g.round OR (h.round = g.round AND h.game_no > g.game_no)))
          AND (@event IS NULL OR g.event = @event)
        ORDER BY g.event, g.board`),
      currentGameOfBoard: conn.prepare('SELECT * FROM games WHERE event = ? AND board = ? ORDER BY round DESC, game_no DESC LIMIT 1'),
      upsertClock: conn.prepare(`
        INSERT INTO clocks (clock_id, boot_id, firmware, first_seen_utc_ms, last_seen_utc_ms)
        VALUES (@clockId, @bootId, @firmware, @utcMs, @utcMs)
        ON CONFLICT (clock_id) DO UPDATE SET boot_id = excluded.boot_id,
          firmware = COALESCE(excluded.firmware, clocks.firmware), last_seen_utc_ms = excluded.last_seen_utc_ms`),
      clocks: conn.prepare('SELECT * FROM clocks ORDER BY clock_id'),
      insertAction: conn.prepare(`
        INSERT INTO arbiter_actions (utc_ms, arbiter, action, game_id, clock_id, event, round, board, payload, outcome, reason)
        VALUES (@utcMs, @arbiter, @action, @gameId, @clockId, @event, @round, @board, @payload, @outcome, @reason)`),
      actions: conn.prepare('SELECT * FROM arbiter_actions WHERE (@gameId IS NULL OR game_id = @gameId) ORDER BY id'),
      pendingOutbox: conn.prepare('SELECT * FROM outbox WHERE published_utc_ms IS NULL ORDER BY id LIMIT ?'),
      markPublished: conn.prepare('UPDATE outbox SET published_utc_ms = ? WHERE id = ? AND published_utc_ms IS NULL'),
      outboxBacklog: conn.prepare('SELECT COUNT(*) AS n FROM outbox WHERE published_utc_ms IS NULL'),
      upsertMatch: conn.prepare(`
        INSERT INTO matches (match_id, event, round, board, player_a, player_b, status, winner, loser, decided_by, score_json, updated_utc_ms)
        VALUES (@matchId, @event, @round, @board, @playerA, @playerB, @status, @winner, @loser, @decidedBy, @score, @updatedUtcMs)
        ON CONFLICT (match_id) DO UPDATE SET status = excluded.status, winner = excluded.winner, loser = excluded.loser,
          decided_by = excluded.decided_by, score_json = excluded.score_json, updated_utc_ms = excluded.updated_utc_ms`),
      matchById: conn.prepare('SELECT * FROM matches WHERE match_id = ?'),
      matchesByEvent: conn.prepare('SELECT * FROM matches WHERE event = ? ORDER BY round, board'),
    };
    const insertMany = this.db.transaction((events: readonly ClockEventInput[]) => {
      const batch = this.newBatch();
      const prepared = events.map((e) => this.prepareEvent(e, batch));
      for (const p of prepared) this.insertPrepared(p);
      this.committed(batch); // forgotten below if the commit fails
      return prepared.map((p) => p.result);
    }).immediate;
    this.insertMany = (events) => {
      if (this.inFlight) throw new JournalError('a batch of clock events is being written on the writer thread: append after it is durable (Journal.settled())');
      try {
        return this.guarded(() => insertMany(events));
      } catch (err) {
        this.seqHigh.clear();
        throw err;
      }
    };
    const onDisk = conn.onDisk;
    if (options.checkpointInBackground && onDisk) this.checkpointer = new Checkpointer(conn, options.checkpointInBackground);
    // The writer thread checkpoints in its own commits (SQLite's default, every 1,000 WAL pages):
    // they are off the event loop, and only a checkpoint between a connection's own commits lets
    // SQLite start the WAL over. With commits every few ms the checkpoint worker's never did: the
    // WAL grew by every frame ever written (issue 16: 78 MB after 20,000 events in a test, 170 MB
    // in the first 90 s of the benchmark's hall of 2,000 clocks), until the disk was full.
    if (options.writerThread && onDisk) this.startWriter(1000);
  }

  /** Runs a write, reporting its storage outcome (only the outermost of nested writes counts). */
  private guarded<T>(write: () => T): T {
    return this.connection.guarded(write);
  }

  /** One write transaction, reported to `storage`. */
  private tx<T>(fn: () => T): T {
    return this.connection.transaction(fn);
  }

  close(): void {
    if (this.writer) {
      const writer = this.writer;
      this.writer = null;
      writer.postMessage({ type: 'close' });
      void writer.terminate();
      this.settle(null, new JournalError(`the journal ${this.path} was closed before the batch was durable`));
      // What the thread may not have written before it was stopped is written here (marks are
      // idempotent; a retained state written twice is the same state twice).
      if (this.db.open) this.runAsideHere();
    }
    this.checkpointer?.close();
    this.connection.close();
  }

  // ── the writer thread (issue 16) ───────────────────────────────────────────────────

  private writer: Worker | null = null;
  /** The batch on the writer thread, until its answer: one at a time, so journal order is send order. */
  private inFlight: { n: number; firstId: number; overlay: BatchOverlay; resolve: () => void; reject: (err: Error) => void; done: Promise<void> } | null = null;
  private batches = 0;

  /** See JournalOptions.writerThread. */
  private startWriter(autocheckpoint: number): void {
    const worker = new Worker(new URL('./writer-worker.mjs', import.meta.url), { workerData: { path: this.path, autocheckpoint } });
    worker.unref();
    worker.on('message', (m: { type: string; n?: number; k?: number; message?: string; code?: string | null }) => {
      if (m.type === 'broken') return stop(m);
      if (m.type === 'aside-done' || m.type === 'aside-failed') return this.settleAside(m.k!, m.type === 'aside-done' ? null : Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
      if (this.inFlight?.n !== m.n) return;
      if (m.type === 'done') this.settle(null, null);
      else this.settle(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}), null);
    });
    // A writer that cannot run (or stopped) leaves the journal committing on the event loop, as without the option.
    const stop = (why: { message?: string } | number) => {
      if (this.writer !== worker) return;
      this.writer = null;
      void worker.terminate();
      const reason = typeof why === 'number' ? `exited (${why})` : why.message;
      this.settle(null, new JournalError(`the journal's writer thread stopped (${reason}): the batch is not known durable`));
      this.runAsideHere();
    };
    worker.on('error', stop);
    worker.on('exit', stop);
    this.writer = worker;
  }

  /** Outbox writes handed to the writer thread (`outboxAside`) and not yet answered, by number. */
  private readonly asideJobs = new Map<number, { job: AsideJob; resolve: () => void; reject: (err: Error) => void }>();
  private asideN = 0;

  /**
   * Writes the MQTT publisher's delivery marks and retained board states — outbox rows that are
   * not the record — on the writer thread when there is one, after whatever was posted to it
   * before: the event loop never waits for the writer's lock (issue 16: the loop's own mark
   * transactions waited for the writer's commits in SQLite's busy handler, a quarter of the
   * loop's time at 1,000 presses/s). Without a writer thread they are written here at once.
   * Like the marks before, they commit with synchronous=NORMAL: a lost mark republishes a
   * deduplicated message, a lost retained state is drafted again at the board's next event.
   */
  outboxAside(job: AsideJob): Promise<void> {
    if (!this.writer) {
      try {
        this.writeAsideHere(job);
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    const k = ++this.asideN;
    return new Promise<void>((resolve, reject) => {
      this.asideJobs.set(k, { job, resolve, reject });
      this.writer!.postMessage({ type: 'aside', k, marks: job.marks ?? null, rows: job.rows ?? null });
    });
  }

  private settleAside(k: number, err: Error | null): void {
    const j = this.asideJobs.get(k);
    if (!j) return;
    this.asideJobs.delete(k);
    if (err) {
      this.storage.failed(err);
      j.reject(err);
    } else j.resolve();
  }

  /** Writes here the aside jobs the writer thread did not answer (it stopped, or the journal closes). */
  private runAsideHere(): void {
    for (const [k, j] of [...this.asideJobs]) {
      this.asideJobs.delete(k);
      try {
        this.writeAsideHere(j.job);
        j.resolve();
      } catch (err) {
        j.reject(err as Error);
      }
    }
  }

  private writeAsideHere(job: AsideJob): void {
    this.withoutOwnFsync(() =>
      this.tx(() => {
        if (job.marks) for (const id of job.marks.ids) this.stmt.markPublished.run(job.marks.utcMs, id);
        if (job.rows) for (const o of job.rows) this.stmt.insertOutbox.run(...o);
      }),
    );
  }

  /**
   * Runs a write that is not the record (MQTT delivery marks, retained states) with
   * synchronous=NORMAL: no fsync of its own; it becomes durable with the next clock events'
   * commit, which syncs the whole WAL (WAL frames are kept in order).
   */
  private withoutOwnFsync<T>(write: () => T): T {
    return this.connection.withoutOwnFsync(write);
  }

  /** Ends the batch in flight: `storage` failed it, or the journal gave up on it (`abandoned`), or it is durable. */
  private settle(storage: Error | null, abandoned: Error | null): void {
    const b = this.inFlight;
    if (!b) return;
    this.inFlight = null;
    if (storage) {
      this.seqHigh.clear();
      this.storage.failed(storage);
      b.reject(storage);
    } else if (abandoned) {
      this.seqHigh.clear();
      b.reject(abandoned);
    } else {
      this.committed(b.overlay);
      this.storage.succeeded();
      b.resolve();
    }
  }

  /**
   * The newest clock event id this thread may show: below the batch being written. The writer
   * thread commits from its own connection, which this one sees at once, but the host learns
   * of the commit a moment later (its answer): until then its events are read nowhere here (the
   * journal's reads, the API's pages), so they appear everywhere at the instant the host
   * acknowledges them and feeds them on (docs/host.md "The journal's writer thread").
   */
  get visibleEventId(): number {
    return this.inFlight ? this.inFlight.firstId - 1 : Number.MAX_SAFE_INTEGER;
  }

  /** Whether a batch of `appendInBackground` is being written (its events not yet known durable). */
  get writing(): boolean {
    return this.inFlight !== null;
  }

  /** Resolves once no batch is being written (whatever its outcome). */
  settled(): Promise<void> {
    return this.inFlight ? this.inFlight.done.then(noop, noop) : Promise.resolve();
  }

  // ── clock events ────────────────────────────────────────────────────────────────────

  /**
   * Journals one clock event. Durable (committed, WAL fsynced) when it returns.
   * A second append of the same (clockId, bootId, seq) stores nothing and returns isNew: false.
   */
  append(event: ClockEventInput): AppendResult {
    // A single statement outside a transaction would autocommit too; the transaction keeps
    // the event and its outbox row together.
    return this.insertMany([event])[0];
  }

  /** Journals many events in ONE transaction (one fsync): all or none. */
  appendMany(events: readonly ClockEventInput[]): AppendResult[] {
    return this.insertMany(events);
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
    if (this.inFlight) throw new JournalError('a batch of clock events is already being written: wait for it (Journal.settled())');
    if (!this.writer) return this.appendHere(items);
    const overlay = this.newBatch();
    const firstId = overlay.nextId;
    const prepared = this.prepareAll(items, overlay);
    const events: unknown[][] = [];
    const outbox: OutboxTuple[] = [];
    for (const p of prepared) {
      if (p instanceof Error || !p.params) continue;
      events.push(EVENT_COLUMNS.map((c) => p.params![c]));
      if (p.outbox) outbox.push(p.outbox);
    }
    const results = prepared.map((p) => (p instanceof Error ? p : p.result));
    if (events.length === 0) return { results, durable: Promise.resolve() }; // duplicates of committed events only
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    const n = ++this.batches;
    this.inFlight = { n, firstId, overlay, resolve, reject, done };
    this.writer.postMessage({ type: 'batch', n, rows: JSON.stringify({ events, outbox }) });
    return { results, durable: done };
  }

  /** appendInBackground without a writer thread: the same batch, committed on this thread now. */
  private appendHere(items: readonly BackgroundAppend[]): BackgroundBatch {
    let results: (AppendResult | Error)[] = [];
    try {
      this.tx(() => {
        const batch = this.newBatch();
        const prepared = this.prepareAll(items, batch);
        for (const p of prepared) if (!(p instanceof Error)) this.insertPrepared(p);
        this.committed(batch); // forgotten below if the commit fails
        results = prepared.map((p) => (p instanceof Error ? p : p.result));
      });
    } catch (err) {
      this.seqHigh.clear();
      return { results: items.map(() => err as Error), durable: Promise.reject(err as Error) };
    }
    return { results, durable: Promise.resolve() };
  }

  private prepareAll(items: readonly BackgroundAppend[], overlay: BatchOverlay): (PreparedEvent | Error)[] {
    const refused = new Map<unknown, Error>();
    return items.map(({ event, group }) => {
      const earlier = group === undefined ? undefined : refused.get(group);
      if (earlier) return new JournalError(`not journaled: an earlier event of the same clock in the batch was refused (${earlier.message})`);
      try {
        return this.prepareEvent(event, overlay);
      } catch (err) {
        if (group !== undefined) refused.set(group, err as Error);
        return err as Error;
      }
    });
  }

  /** A batch's overlay, numbered from what the file holds now. */
  private newBatch(): BatchOverlay {
    return { nextId: (this.stmt.maxEventId.get() as number) + 1, keys: new Map(), started: new Set(), played: new Set(), highs: new Map() };
  }

  /**
   * The highest seq stored per clock boot (`clockId\0bootId`): read from the file once per boot,
   * raised when a batch is committed. An event beyond it is new without a lookup (issue 16: the
   * duplicate lookup was 3% of the host's event loop at 1,000 presses/s); one at or below it is
   * looked up (a resend, or a seq refused earlier). Forgotten whenever a write fails (another
   * connection may have written those seqs): the lookups run again.
   */
  private readonly seqHigh = new Map<string, number>();

  private committed(overlay: BatchOverlay): void {
    for (const [boot, seq] of overlay.highs) if (seq > (this.seqHigh.get(boot) ?? -1)) this.seqHigh.set(boot, seq);
  }

  private insertPrepared(p: PreparedEvent): void {
    if (!p.params) return;
    this.stmt.insertEvent.run(p.params);
    if (p.outbox) this.stmt.insertOutbox.run(...p.outbox);
  }

  /** The batch being prepared: prepareEvent's reads see its events as if stored. */
  private preparing: BatchOverlay | null = null;

  /**
   * Validates one clock event and makes its row: its game, its id (the next of the batch), a
   * duplicate's earlier id (in the file or in this batch), its outbox row. Writes nothing.
   */
  private prepareEvent(e: ClockEventInput, overlay: BatchOverlay): PreparedEvent {
    this.preparing = overlay;
    try {
      return this.prepareEventIn(e, overlay);
    } finally {
      this.preparing = null;
    }
  }

  private prepareEventIn(e: ClockEventInput, overlay: BatchOverlay): PreparedEvent {
    // Made only for an error message: every event would otherwise pay for three JSON texts.
    const where = () => `clock event ${JSON.stringify(e?.clockId)}/${JSON.stringify(e?.bootId)}/${JSON.stringify(e?.seq)}`;
    if (typeof e !== 'object' || e === null) throw new JournalError('clock event must be an object');
    const clockId = text(e.clockId, 'clockId', where);
    const bootId = text(e.bootId, 'bootId', where);
    const seq = int(e.seq, 'seq', where);
    if (!EVENT_TYPES.has(e.type)) {
      throw new JournalError(`${where()}: unknown "type" ${JSON.stringify(e.type)} (known: ${CLOCK_EVENT_TYPES.join(', ')})`, 'type');
    }
    if (e.side !== undefined && e.side !== null && e.side !== 'white' && e.side !== 'black') {
      throw new JournalError(`${where()}: "side" must be "white" or "black", got ${JSON.stringify(e.side)}`, 'side');
    }
    const boot = `${clockId}\u0000${bootId}`;
    const key = `${boot}\u0000${seq}`;
    const inBatch = overlay.keys.get(key);
    if (inBatch !== undefined) return { result: { isNew: false, id: inBatch }, params: null, outbox: null };
    // A seq beyond the highest stored for this boot is new: no lookup (the usual case).
    let high = this.seqHigh.get(boot);
    if (high === undefined) {
      high = (this.stmt.maxSeqOfBoot.get(clockId, bootId) as number | null) ?? -1;
      this.seqHigh.set(boot, high);
    }
    if (seq <= high) {
      const stored = this.stmt.eventIdByKey.get(clockId, bootId, seq) as { id: number } | undefined;
      if (stored) return { result: { isNew: false, id: stored.id }, params: null, outbox: null };
    }
    let game: GameRow | null = null;
    if (e.gameId === undefined) {
      game = this.gameOfClockEvent(clockId, e.type, int(e.utcMs, 'utcMs', where));
    } else if (e.gameId !== null) {
      game = this.getGame(int(e.gameId, 'gameId', where, 1));
      if (!game) throw new JournalError(`${where()}: no game ${e.gameId}`, 'gameId');
    }
    const row = {
      clockId,
      bootId,
      seq,
      gameId: game?.gameId ?? null,
      event: game?.event ?? null,
      round: game?.round ?? null,
      board: game?.board ?? null,
      type: e.type,
      side: e.side ?? null,
      move: optInt(e.move, 'move', where),
      whiteMs: int(e.whiteMs, 'whiteMs', where),
      blackMs: int(e.blackMs, 'blackMs', where),
      monoMs: int(e.monoMs, 'monoMs', where),
      utcMs: int(e.utcMs, 'utcMs', where),
      uncertaintyMs: int(e.uncertaintyMs, 'uncertaintyMs', where),
      detail: json(e.detail),
    };
    const id = overlay.nextId++;
    overlay.keys.set(key, id);
    if (seq > (overlay.highs.get(boot) ?? -1)) overlay.highs.set(boot, seq);
    if (row.gameId !== null && (row.type === 'started' || row.type === 'moved')) {
      overlay.played.add(row.gameId);
      if (row.type === 'started') overlay.started.add(row.gameId);
    }
    const outbox = this.outboxEvents ? this.outboxRow('clock-event', { id, ...row, detail: e.detail ?? null }, row.utcMs) : null;
    // What toEvent would read back: the stored detail is parsed again, so the row is the journal's.
    return {
      result: { isNew: true, id, row: { id, ...row, type: row.type as ClockEventType, side: row.side as Side | null, detail: parseJson(row.detail) as Record<string, unknown> | null } },
      params: { id, ...row },
      outbox,
    };
  }

  /**
   * The game an event of `clockId` stamped `utcMs` belongs to, when the clock does not say:
   * the clock's newest game, except for what the clock sends late from the game before.
   *
   * A clock that was offline when its game got a result (entered at the host) goes on with that
   * game until it is set up for the next one, and delivers its outbox when it is back. The
   * next game may already be assigned to it (the director creates it on the same clock), so:
   *  - an event stamped before the previous game ended belongs to that game (a press played
   *    before the result, delivered late), while the next game has not started (its `started`
   *    is always its own);
   *  - a `result` cannot be the next game's while that game has not started (the clock refuses
   *    a result before the start: rules/clock.machine.ts `ready`): stamped after the previous
   *    game ended, it belongs to no game here — the host files it against the clock's game
   *    (`playedGameOfClock`) as a report for the arbiter, and the finished game's record, its
   *    exported clock tags included, does not change;
   *  - an event stamped after a game with a result ended, with no next game, belongs to no game.
   */
  private gameOfClockEvent(clockId: string, type: string, utcMs: number): GameRow | null {
    const [newest, previous] = this.reads.read(`newest games of ${clockId}`, () => (this.stmt.newestGamesOfClock.all(clockId) as Row[]).map(toGame));
    if (!newest) return null;
    if (newest.result !== null) {
      const end = endOf(newest);
      return end !== null && utcMs <= end ? newest : this.currentGameForClock(clockId);
    }
    // A start is the next game's (a game starts once, and the previous one already had its own);
    // "before the end" is strict, as the next game may start the instant the previous one ended.
    if (previous && previous.result !== null && type !== 'started') {
      const end = endOf(previous);
      const late = end !== null && utcMs < end;
      if ((late || type === 'result') && !this.preparing?.started.has(newest.gameId) && this.stmt.gameHasStart.get(newest.gameId) === undefined) return late ? previous : null;
    }
    return newest;
  }

  /**
   * The game a clock last played: its newest game that has a result or was started. A result
   * the clock sends comes from that game (it refuses one before the start), even when a next
   * game is already assigned to the clock.
   */
  playedGameOfClock(clockId: string): GameRow | null {
    const r = this.stmt.playedGameOfClock.get(clockId) as Row | undefined;
    return r ? toGame(r) : null;
  }

  /** Events of a game in play order (boot by boot, seq within a boot). */
  eventsByGame(gameId: number): ClockEventRow[] {
    return (this.stmt.eventsByGame.all({ gameId, visible: this.visibleEventId }) as Row[]).map(toEvent);
  }

  /** Events in journal (arrival) order after row id `afterId`: for feeds that resume from a cursor. */
  eventsAfter(afterId: number, limit = 1000): ClockEventRow[] {
    return (this.stmt.eventsAfter.all(afterId, this.visibleEventId, limit) as Row[]).map(toEvent);
  }

  /** The ids of a page of events in journal order, filtered by board and clock (the API's event pages). */
  eventIdPage(f: EventPageFilter): number[] {
    const rows = this.stmt.eventIdPage.all({
      after: f.after,
      event: f.event ?? null,
      round: f.round ?? null,
      board: f.board ?? null,
      clockId: f.clockId ?? null,
      visible: this.visibleEventId,
      limit: f.limit,
    }) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /** The newest event id the journal shows (0 when none): only what the host knows durable, not a batch being committed. */
  headEventId(): number {
    return (this.stmt.headEventId.get(this.visibleEventId) as { head: number }).head;
  }

  // ── games ───────────────────────────────────────────────────────────────────────────

  createGame(g: NewGame): GameRow {
    const where = `game ${g.event} round ${g.round} board ${g.board}`;
    const row = {
      event: text(g.event, 'event', where),
      round: int(g.round, 'round', where, 1),
      board: int(g.board, 'board', where, 1),
      gameNo: int(g.gameNo ?? 1, 'gameNo', where, 1),
      matchId: g.matchId ?? null,
      kind: text(g.kind, 'kind', where),
      white: text(g.white, 'white', where),
      black: text(g.black, 'black', where),
      whiteRank: optInt(g.whiteRank, 'whiteRank', where),
      blackRank: optInt(g.blackRank, 'blackRank', where),
      whiteTeam: g.whiteTeam ?? null,
      blackTeam: g.blackTeam ?? null,
      timeControl: formatTimeControl(g.timeControl),
      timeControlJson: JSON.stringify(g.timeControl),
      clockId: g.clockId ?? null,
      earliestStartUtcMs: optInt(g.earliestStartUtcMs, 'earliestStartUtcMs', where),
      createdUtcMs: int(g.createdUtcMs, 'createdUtcMs', where),
    };
    try {
      this.reads.clear();
      const info = this.stmt.insertGame.run(row);
      return this.getGame(Number(info.lastInsertRowid))!;
    } catch (err) {
      if (err instanceof Error && /UNIQUE/.test(err.message)) {
        throw new JournalError(`${where} game ${row.gameNo} already exists`, 'gameNo');
      }
      throw err;
    }
  }

  getGame(gameId: number): GameRow | null {
    return this.reads.read(`game ${gameId}`, () => {
      const r = this.stmt.gameById.get(gameId) as Row | undefined;
      return r ? toGame(r) : null;
    });
  }

  /** The clock's two newest games, with a result or not (newest first). */
  newestGamesOfClock(clockId: string): GameRow[] {
    return this.reads.read(`newest games of ${clockId}`, () => (this.stmt.newestGamesOfClock.all(clockId) as Row[]).map(toGame));
  }

  /** The clock's game without a result yet (the one its events belong to). */
  currentGameForClock(clockId: string): GameRow | null {
    return this.reads.read(`current game of ${clockId}`, () => {
      const r = this.stmt.currentGameForClock.get(clockId) as Row | undefined;
      return r ? toGame(r) : null;
    });
  }

  /** Whether the game's clock has been started (a started or moved event is journaled). */
  gameStarted(gameId: number): boolean {
    // A start or move still being written counts: what is refused because of it stays refusable.
    if (this.inFlight?.overlay.played.has(gameId)) return true;
    return this.stmt.gameHasPlay.get(gameId) !== undefined;
  }

  /**
   * The arbiter set the game up anew before it began (another time control, a player
   * replaced). Refused once the game has a result or its clock has started: the record of
   * a game in progress never changes under it.
   */
  reconfigureGame(gameId: number, setup: { timeControl: TimeControl; white?: string | null; black?: string | null }): GameRow {
    const game = this.getGame(gameId);
    if (!game) throw new JournalError(`no game ${gameId}`, 'gameId');
    const where = `game ${game.event} round ${game.round} board ${game.board}`;
    if (game.result !== null) throw new JournalError(`${where} already has a result`, 'gameId');
    if (this.gameStarted(gameId)) throw new JournalError(`${where} has started: it cannot be set up anew`, 'gameId');
    this.reads.clear();
    this.stmt.reconfigureGame.run({
      gameId,
      timeControl: formatTimeControl(setup.timeControl),
      timeControlJson: JSON.stringify(setup.timeControl),
      white: setup.white == null ? null : text(setup.white, 'white', where),
      black: setup.black == null ? null : text(setup.black, 'black', where),
    });
    return this.getGame(gameId)!;
  }

  assignClock(gameId: number, clockId: string | null): void {
    this.reads.clear();
    const info = this.stmt.assignClock.run(clockId, gameId);
    if (info.changes === 0) throw new JournalError(`no game ${gameId}`, 'gameId');
  }

  gamesByRound(event: string, round: number): GameRow[] {
    return (this.stmt.gamesByRound.all(event, round) as Row[]).map(toGame);
  }

  gamesByEvent(event: string): GameRow[] {
    return (this.stmt.gamesByEvent.all(event) as Row[]).map(toGame);
  }

  gamesByBoard(event: string, round: number, board: number): GameRow[] {
    return (this.stmt.gamesByBoard.all(event, round, board) as Row[]).map(toGame);
  }

  gamesByMatch(matchId: string): GameRow[] {
    return (this.stmt.gamesByMatch.all(matchId) as Row[]).map(toGame);
  }

  /** Games with a result; `confirmedOnly` keeps those an arbiter confirmed (the ones exports may use). */
  results(event: string, opts: { round?: number; confirmedOnly?: boolean } = {}): GameRow[] {
    const games = opts.round === undefined ? this.gamesByEvent(event) : this.gamesByRound(event, opts.round);
    return games.filter((g) => g.result !== null && (!opts.confirmedOnly || g.confirmedBy !== null));
  }

  /**
   * Records a game's result (from the clock with both players' confirmation, or from an arbiter).
   * A new report clears an earlier confirmation: the arbiter must confirm again.
   * Arbiter reports are journaled as arbiter actions in the same transaction, a correction with
   * what it replaced and why (`reason`, required over a confirmed result: FIDE Laws 8.7).
   */
  reportResult(gameId: number, report: ResultReport): GameRow {
    return this.tx(() => {
      const where = `result for game ${gameId}`;
      const game = this.getGame(gameId);
      if (!game) throw new JournalError(`${where}: no such game`, 'gameId');
      if (!RESULT_SET.has(report.result)) {
        throw new JournalError(`${where}: "result" must be one of ${RESULTS.join(' ')}, got ${JSON.stringify(report.result)}`, 'result');
      }
      const how = text(report.how, 'how', where);
      const utcMs = int(report.utcMs, 'utcMs', where);
      const reason = report.reason === undefined || report.reason === null ? null : text(report.reason.trim(), 'reason', where);
      if (report.source === 'arbiter' && game.confirmedBy !== null && reason === null) {
        // FIDE Laws 8.7: the result stands unless the arbiter decides otherwise; the decision is kept with why.
        throw new JournalError(`${where}: ${game.result} was confirmed by ${game.confirmedBy}: a correction of a confirmed result must say why ("reason")`, 'reason');
      }
      let reportedBy: string;
      if (report.source === 'clock') {
        if (report.bothPlayersConfirmed !== true) {
          throw new JournalError(`${where}: a result from the clock counts only when both players confirmed it`, 'bothPlayersConfirmed');
        }
        if (game.confirmedBy !== null) {
          throw new JournalError(`${where}: already confirmed by ${game.confirmedBy}; only an arbiter can change it`, 'source');
        }
        reportedBy = 'clock';
      } else if (report.source === 'arbiter') {
        reportedBy = `arbiter:${text(report.arbiter, 'arbiter', where)}`;
      } else {
        throw new JournalError(`${where}: "source" must be "clock" or "arbiter", got ${JSON.stringify(report.source)}`, 'source');
      }
      this.reads.clear();
      this.stmt.reportResult.run({
        gameId,
        result: report.result,
        how,
        reportedBy,
        utcMs,
        // A correction does not move the game's end (the break before a tie-break counts from it).
        endedUtcMs: int(report.endedUtcMs ?? (game.result !== null ? endOf(game) : null) ?? utcMs, 'endedUtcMs', where),
      });
      if (report.source === 'arbiter') {
        // A correction keeps what it replaced (and who had entered and confirmed it) for an appeal.
        const previous = game.result === null ? {} : { previous: { result: game.result, how: game.how, reportedBy: game.reportedBy, confirmedBy: game.confirmedBy } };
        // A clock's pending report that says what the arbiter now recorded is settled by it.
        const settled = this.reportsOf(gameId, 'pending').filter((r) => r.result === report.result);
        this.reads.clear();
        for (const r of settled) this.stmt.resolveReport.run({ id: r.id, status: 'adopted', gameId, by: report.arbiter!, utcMs });
        this.insertAction({
          utcMs,
          arbiter: report.arbiter!,
          action: 'result',
          gameId,
          payload: { result: report.result, how, ...previous, ...(reason !== null ? { reason } : {}), ...(settled.length ? { settledReports: settled.map((r) => r.id) } : {}) },
          outcome: 'applied',
        });
      }
      const updated = this.getGame(gameId)!;
      this.outbox('result', updated, utcMs);
      return updated;
    });
  }

  /**
   * An arbiter confirms the reported result; only confirmed results are exported. With
   * `reportId`, the arbiter decides between results (FIDE Laws 8.7): that clock report (a
   * pending one of this game, or one of a clock that had no game) becomes the game's result,
   * as its reporter reported it, and is confirmed. Either way every other pending report of
   * the game is dismissed: the confirmation is the arbiter's decision, journaled with what it
   * adopted and dismissed. Adopting a report over a confirmed result is a correction of it:
   * `reason` is required then, as for `reportResult`.
   */
  confirmResult(gameId: number, arbiter: string, utcMs: number, opts: { reportId?: number; reason?: string } = {}): GameRow {
    return this.tx(() => {
      const where = `confirmation of game ${gameId}`;
      const game = this.getGame(gameId);
      if (!game) throw new JournalError(`${where}: no such game`, 'gameId');
      text(arbiter, 'arbiter', where);
      int(utcMs, 'utcMs', where);
      const reason = opts.reason === undefined || opts.reason === null ? null : text(opts.reason.trim(), 'reason', where);
      let adopted: ResultReportRow | null = null;
      if (opts.reportId !== undefined) {
        const r = this.stmt.reportById.get(opts.reportId) as Row | undefined;
        adopted = r ? toReport(r) : null;
        if (!adopted || adopted.status !== 'pending' || (adopted.gameId !== null && adopted.gameId !== gameId)) {
          throw new JournalError(`${where}: no pending reported result ${opts.reportId} for this game`, 'report');
        }
        if (game.confirmedBy !== null && reason === null) {
          throw new JournalError(`${where}: ${game.result} was confirmed by ${game.confirmedBy}: a correction of a confirmed result must say why ("reason")`, 'reason');
        }
        this.reads.clear();
        this.stmt.reportResult.run({
          gameId,
          result: adopted.result,
          how: adopted.how ?? 'played',
          reportedBy: adopted.reportedBy,
          utcMs: adopted.utcMs,
          endedUtcMs: (game.result !== null ? endOf(game) : null) ?? adopted.utcMs,
        });
        this.reads.clear();
        this.stmt.resolveReport.run({ id: adopted.id, status: 'adopted', gameId, by: arbiter, utcMs });
      } else if (game.result === null) {
        throw new JournalError(`${where}: the game has no result to confirm`, 'result');
      }
      const dismissed = this.reportsOf(gameId, 'pending');
      this.reads.clear();
      for (const r of dismissed) this.stmt.resolveReport.run({ id: r.id, status: 'dismissed', gameId, by: arbiter, utcMs });
      this.reads.clear();
      this.stmt.confirmResult.run(arbiter, utcMs, gameId);
      const confirmed = this.getGame(gameId)!;
      const report = (r: ResultReportRow) => ({ id: r.id, result: r.result, reportedBy: r.reportedBy, utcMs: r.utcMs });
      this.insertAction({
        utcMs,
        arbiter,
        action: 'confirm-result',
        gameId,
        payload: {
          result: confirmed.result,
          ...(adopted ? { adopted: report(adopted), previous: game.result === null ? null : { result: game.result, how: game.how, reportedBy: game.reportedBy, confirmedBy: game.confirmedBy } } : {}),
          ...(dismissed.length ? { dismissed: dismissed.map(report) } : {}),
          ...(reason !== null ? { reason } : {}),
        },
        outcome: 'applied',
      });
      this.outbox('result-confirmed', confirmed, utcMs);
      return confirmed;
    });
  }

  /**
   * Files a result a clock reported (docs: schema.ts version 2), once per clock event:
   *  - the game has no result: it becomes the game's result (`reportResult`), filed `recorded`;
   *  - the game holds the same result: filed `agreed`, nothing changes;
   *  - the game holds another result, confirmed or not, or the clock had no game (`gameId`
   *    null): filed `pending`, for the arbiter to decide. A clock never overwrites a result.
   * A second filing of the same event (a retransmission after a host crash) is `duplicate`.
   */
  fileClockResult(input: ClockResultInput): ClockResultOutcome {
    return this.tx((): ClockResultOutcome => {
      const where = `clock result of event ${input.eventId}`;
      const filed = this.stmt.reportByEvent.get(int(input.eventId, 'eventId', where, 1)) as Row | undefined;
      if (filed) {
        const report = toReport(filed);
        return { outcome: 'duplicate', report, game: report.gameId === null ? null : this.getGame(report.gameId) };
      }
      if (!RESULT_SET.has(input.result)) {
        throw new JournalError(`${where}: "result" must be one of ${RESULTS.join(' ')}, got ${JSON.stringify(input.result)}`, 'result');
      }
      const reportedBy = input.source === 'arbiter' ? `arbiter:${text(input.arbiter, 'arbiter', where)}` : 'clock';
      const game = input.gameId === null ? null : this.getGame(input.gameId);
      if (input.gameId !== null && !game) throw new JournalError(`${where}: no game ${input.gameId}`, 'gameId');
      let status: ResultReportStatus;
      if (game === null) status = 'pending';
      else if (game.result === null) {
        this.reportResult(game.gameId, {
          result: input.result, how: input.how, source: input.source, arbiter: input.arbiter,
          bothPlayersConfirmed: input.bothPlayersConfirmed, utcMs: input.utcMs, endedUtcMs: input.endedUtcMs,
        });
        status = 'recorded';
      } else status = game.result === input.result ? 'agreed' : 'pending';
      this.reads.clear();
      const info = this.stmt.insertReport.run({
        eventId: input.eventId,
        clockId: text(input.clockId, 'clockId', where),
        gameId: game?.gameId ?? null,
        result: input.result,
        how: input.how,
        reportedBy,
        utcMs: int(input.utcMs, 'utcMs', where),
        status,
      });
      const report = toReport(this.stmt.reportById.get(Number(info.lastInsertRowid)) as Row);
      const after = game === null ? null : this.getGame(game.gameId)!;
      if (status === 'pending') this.outbox('result-report', { report, game: after }, input.utcMs);
      return { outcome: status, report, game: after };
    });
  }

  private reportsOf(gameId: number, status?: ResultReportStatus): ResultReportRow[] {
    const all = this.reads.read(`reports ${gameId}`, () => (this.stmt.reportsOfGame.all(gameId) as Row[]).map(toReport));
    return all.filter((r) => status === undefined || r.status === status);
  }

  /**
   * Results clocks reported: of one game (every filing, oldest first), or every pending one
   * (conflicts with a game's result, and reports of clocks that had no game: `gameId` null).
   */
  resultReports(query: { gameId: number } | { pending: true }): ResultReportRow[] {
    if ('gameId' in query) return this.reportsOf(query.gameId);
    return (this.stmt.pendingReports.all() as Row[]).map(toReport);
  }

  // ── boards ──────────────────────────────────────────────────────────────────────────

  /** The latest state of every board (its newest game and last event), optionally for one event. */
  boardStates(event?: string): BoardState[] {
    return (this.stmt.currentGames.all({ event: event ?? null }) as Row[]).map((r) => {
      const game = toGame(r);
      const lastRow = this.stmt.lastEventOfGame.get({ gameId: game.gameId, visible: this.visibleEventId }) as Row | undefined;
      const last = lastRow ? toEvent(lastRow) : null;
      return { event: game.event, round: game.round, board: game.board, game, last };
    });
  }

  /** The newest game of one board of an event (what `boardStates` gives it, without the others). */
  currentGameOfBoard(event: string, board: number): GameRow | null {
    const r = this.stmt.currentGameOfBoard.get(event, board) as Row | undefined;
    return r ? toGame(r) : null;
  }

  // ── clocks ──────────────────────────────────────────────────────────────────────────

  /** Records a clock's handshake (or any sign of life). */
  seenClock(c: { clockId: string; bootId?: string | null; firmware?: string | null; utcMs: number }): void {
    this.stmt.upsertClock.run({ clockId: c.clockId, bootId: c.bootId ?? null, firmware: c.firmware ?? null, utcMs: c.utcMs });
  }

  clocks(): ClockRow[] {
    return (this.stmt.clocks.all() as Row[]).map((r) => ({
      clockId: r.clock_id as string,
      bootId: (r.boot_id as string | null) ?? null,
      firmware: (r.firmware as string | null) ?? null,
      firstSeenUtcMs: r.first_seen_utc_ms as number,
      lastSeenUtcMs: r.last_seen_utc_ms as number,
    }));
  }

  // ── arbiter actions ─────────────────────────────────────────────────────────────────

  /** Journals an arbiter action (applied or refused) with who did it. */
  recordArbiterAction(a: ArbiterActionInput): number {
    return this.tx(() => {
      const id = this.insertAction(a);
      this.outbox('arbiter-action', { id, ...a }, a.utcMs);
      return id;
    });
  }

  private insertAction(a: ArbiterActionInput): number {
    const where = `arbiter action ${JSON.stringify(a.action)}`;
    const info = this.stmt.insertAction.run({
      utcMs: int(a.utcMs, 'utcMs', where),
      arbiter: text(a.arbiter, 'arbiter', where),
      action: text(a.action, 'action', where),
      gameId: a.gameId ?? null,
      clockId: a.clockId ?? null,
      event: a.event ?? null,
      round: a.round ?? null,
      board: a.board ?? null,
      payload: json(a.payload),
      outcome: a.outcome,
      reason: a.reason ?? null,
    });
    return Number(info.lastInsertRowid);
  }

  arbiterActions(gameId?: number): ArbiterActionRow[] {
    return (this.stmt.actions.all({ gameId: gameId ?? null }) as Row[]).map((r) => ({
      id: r.id as number,
      utcMs: r.utc_ms as number,
      arbiter: r.arbiter as string,
      action: r.action as string,
      gameId: (r.game_id as number | null) ?? null,
      clockId: (r.clock_id as string | null) ?? null,
      event: (r.event as string | null) ?? null,
      round: (r.round as number | null) ?? null,
      board: (r.board as number | null) ?? null,
      payload: parseJson(r.payload),
      outcome: r.outcome as 'applied' | 'rejected',
      reason: (r.reason as string | null) ?? null,
    }));
  }

  // ── outbox (MQTT) ───────────────────────────────────────────────────────────────────

  /** Writes a fact's outbox row (inside the caller's transaction), through the topic hook when there is one. */
  private outbox(kind: string, payload: unknown, utcMs: number): number | null {
    const row = this.outboxRow(kind, payload, utcMs);
    return row === null ? null : Number(this.stmt.insertOutbox.run(...row).lastInsertRowid);
  }

  /** A fact's outbox row, through the topic hook when there is one (null: nothing to publish). */
  private outboxRow(kind: string, payload: unknown, utcMs: number): OutboxTuple | null {
    if (this.outboxTopic) {
      const draft = this.outboxTopic(kind, payload);
      if (draft === null) return null;
      return [kind, draft.topic, draft.retain ? 1 : 0, draft.payload, utcMs];
    }
    return [kind, null, 0, JSON.stringify(payload), utcMs];
  }

  /** Adds a row to publish (for facts not journaled here, e.g. live status). */
  enqueue(kind: string, payload: unknown, utcMs: number): number | null {
    return this.outbox(text(kind, 'kind', 'outbox row'), payload, utcMs);
  }

  /**
   * The outbox as the MQTT publisher's store (host/adapters/mqtt/outbox-store.ts `OutboxStore`):
   * only rows with a topic; `markDone` stamps them published at `nowUtcMs()`.
   */
  outboxStore(nowUtcMs: () => number): JournalOutboxStore {
    const reader = outboxReader(this.db);
    return {
      append: (drafts) => {
        const write = () =>
          this.transaction(() => {
            const at = nowUtcMs();
            for (const d of drafts) this.stmt.insertOutbox.run('mqtt', text(d.topic, 'topic', 'outbox draft'), d.retain ? 1 : 0, d.payload, at);
          });
        // Retained board states only (the publisher's batch every 250 ms, up to one row per
        // board): a convenience for late subscribers, drafted again at the board's next event,
        // never the record (a result's state is drafted in the result's own transaction). So, as
        // for the outbox marks, no fsync of their own on the event loop (issue 16: this
        // transaction was one of the 50–80 ms stalls): written with synchronous=NORMAL, they
        // become durable with the next clock events' commit, which syncs the whole WAL.
        if (drafts.length === 0 || !drafts.every((d) => d.retain)) return write();
        this.withoutOwnFsync(write);
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
        return this.outboxAside({ rows });
      },
      markDoneAside: (ids) => this.outboxAside({ marks: { ids: [...ids], utcMs: nowUtcMs() } }),
    };
  }

  /** Unpublished rows, oldest first. */
  pendingOutbox(limit = 100): OutboxRow[] {
    return (this.stmt.pendingOutbox.all(limit) as Row[]).map((r) => ({
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
    // PUBACKs, issue 16): written with synchronous=NORMAL, it becomes durable with the next
    // journaled event's commit, which syncs the whole WAL (WAL frames are kept in order).
    return this.withoutOwnFsync(() => this.tx(() => ids.reduce((n, id) => n + this.stmt.markPublished.run(utcMs, id).changes, 0)));
  }

  outboxBacklog(): number {
    return (this.stmt.outboxBacklog.get() as { n: number }).n;
  }

  // ── matches ─────────────────────────────────────────────────────────────────────────

  saveMatch(m: MatchRow): void {
    this.tx(() => {
      const before = this.getMatch(m.matchId);
      this.stmt.upsertMatch.run({ ...m, score: json(m.score) });
      if (m.status === 'decided' && before?.status !== 'decided') {
        this.outbox('match-decided', m, m.updatedUtcMs);
      }
    });
  }

  getMatch(matchId: string): MatchRow | null {
    const r = this.stmt.matchById.get(matchId) as Row | undefined;
    return r ? toMatch(r) : null;
  }

  matchesByEvent(event: string): MatchRow[] {
    return (this.stmt.matchesByEvent.all(event) as Row[]).map(toMatch);
  }

  /** Runs `fn` in one transaction (for callers that write several facts at once). */
  transaction<T>(fn: () => T): T {
    return this.tx(fn);
  }
}

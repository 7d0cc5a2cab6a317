// The host's journal: one SQLite file (better-sqlite3, WAL, synchronous=FULL) holding every
// clock event, game, result, match, arbiter action and the MQTT outbox. `Journal` is what the
// rest of the host uses: a facade over one module per table, all on one connection
// (connection.ts), with the clock events' way in (event-sequencer.ts, event-appends.ts) and the
// two worker threads' clients (writer-thread.ts, checkpointer.ts). docs/architecture.md
// "The journal" says what each module owns; each section below names the module it reaches.
//
// better-sqlite3 is synchronous: when a write method returns, its transaction has committed.
// The one exception is `appendInBackground` (the host's clock events): with the option
// `writerThread` its commit runs on a thread of its own, and the events are durable when its
// `durable` promise resolves (docs/host.md "The journal's writer thread").
import { ArbiterActions } from './arbiter-actions.ts';
import { BroadcastLog, type BroadcastPushInput, type BroadcastPushRow } from './broadcast-log.ts';
import { Checkpointer, type CheckpointOptions } from './checkpointer.ts';
import { ClockEvents, type EventPageFilter } from './clock-events.ts';
import { ClockRegistry } from './clock-registry.ts';
import { JournalConnection } from './connection.ts';
import { EventAppends, type BackgroundBatch } from './event-appends.ts';
import { EventSequencer, type BackgroundAppend } from './event-sequencer.ts';
import { Games } from './games.ts';
import { Matches } from './matches.ts';
import { Outbox, type AsideJob, type JournalOutboxStore, type OutboxTopicHook } from './outbox.ts';
import { ReadCache } from './read-cache.ts';
import { ResultBook } from './results.ts';
import type { StorageHealthTracker } from './storage-health.ts';
import type { TimeControl } from '../../protocol/time-control.ts';
import type {
  AppendResult,
  ArbiterActionInput,
  ArbiterActionRow,
  BoardState,
  ClockEventInput,
  ClockEventRow,
  ClockResultInput,
  ClockResultOutcome,
  ClockRow,
  GameRow,
  MatchRow,
  NewGame,
  OutboxRow,
  ResultReport,
  ResultReportRow,
} from './types.ts';
import { WriterThread } from './writer-thread.ts';

export * from './types.ts';
export { JournalError } from './fields.ts';
export { JournalOpenError } from './connection.ts';
export { outboxReader, type AsideJob, type JournalOutboxStore, type OutboxDraft } from './outbox.ts';
export type { CheckpointReport } from './checkpointer.ts';
export type { BroadcastPushGame, BroadcastPushInput, BroadcastPushRow } from './broadcast-log.ts';
export type { BackgroundAppend } from './event-sequencer.ts';
export type { BackgroundBatch } from './event-appends.ts';
export type { EventPageFilter } from './clock-events.ts';

export interface JournalOptions {
  /** Write an outbox row for every new clock event (for the MQTT publisher). Default true. */
  outboxEvents?: boolean;
  /**
   * Maps a fact (kind + payload object) to the MQTT message to publish, or null to publish
   * nothing for it. Without a hook, rows are stored with their kind and no topic.
   */
  outboxTopic?: OutboxTopicHook;
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
   * fsync otherwise holds. The host sets it (host/start-host.ts); a file journal only.
   */
  writerThread?: boolean;
  /**
   * The event loop connection's commits: FULL (the default, and what every host runs: an
   * acknowledged press must survive a power cut), or NORMAL, only for the benchmark's comparison
   * of what FULL costs (bench/host-journal.bench.ts).
   */
  synchronous?: 'FULL' | 'NORMAL';
}

export class Journal {
  /** Whether writes succeed (a full disk, an I/O error): every write reports its outcome here. */
  readonly storage: StorageHealthTracker;
  private readonly connection: JournalConnection;
  private readonly events: ClockEvents;
  private readonly outbox: Outbox;
  private readonly games: Games;
  private readonly actions: ArbiterActions;
  private readonly broadcastLog: BroadcastLog;
  private readonly resultBook: ResultBook;
  private readonly matches: Matches;
  private readonly clockRegistry: ClockRegistry;
  private readonly appends: EventAppends;
  private readonly writer: WriterThread | null = null;
  private readonly checkpointer: Checkpointer | null = null;

  /** Opens (or creates) the journal at `path`; `:memory:` for a throw-away one. Reopening resumes. */
  constructor(
    readonly path: string,
    options: JournalOptions = {},
  ) {
    const conn = (this.connection = new JournalConnection(path, options));
    this.storage = conn.storage;
    const reads = new ReadCache(conn.db);
    this.events = new ClockEvents(conn, () => this.visibleEventId);
    this.outbox = new Outbox(conn, options.outboxTopic, (job) => this.outboxAside(job));
    this.games = new Games(conn, reads, this.events, (gameId) => this.writer?.playInFlight(gameId) ?? false);
    this.actions = new ArbiterActions(conn, this.outbox);
    this.broadcastLog = new BroadcastLog(conn);
    this.resultBook = new ResultBook(conn, reads, this.games, this.actions, this.outbox);
    this.matches = new Matches(conn, this.outbox);
    this.clockRegistry = new ClockRegistry(conn);
    const sequencer = new EventSequencer(this.events, this.games, this.outbox, options.outboxEvents ?? true);
    if (options.checkpointInBackground && conn.onDisk) this.checkpointer = new Checkpointer(conn, options.checkpointInBackground);
    if (options.writerThread && conn.onDisk) this.writer = new WriterThread(conn, sequencer, this.outbox);
    this.appends = new EventAppends(conn, sequencer, this.events, this.outbox, this.writer);
  }

  close(): void {
    this.writer?.close();
    this.checkpointer?.close();
    this.connection.close();
  }

  /** Runs `fn` in one transaction (for callers that write several facts at once). */
  transaction<T>(fn: () => T): T {
    return this.connection.transaction(fn);
  }

  // ── the writer thread (docs/host.md "The journal's writer thread") ──────────────────

  /**
   * The newest clock event id this thread may show: below the batch being written. The writer
   * thread commits from its own connection, which this one sees at once, but the host learns
   * of the commit a moment later (its answer): until then its events are read nowhere here (the
   * journal's reads, the API's pages), so they appear everywhere at the instant the host
   * acknowledges them and feeds them on (docs/host.md "The journal's writer thread").
   */
  get visibleEventId(): number {
    return this.writer?.visibleEventId ?? Number.MAX_SAFE_INTEGER;
  }

  /** Whether a batch of `appendInBackground` is being written (its events not yet known durable). */
  get writing(): boolean {
    return this.writer?.writing ?? false;
  }

  /** Resolves once no batch is being written (whatever its outcome). */
  settled(): Promise<void> {
    return this.writer?.settled() ?? Promise.resolve();
  }

  /**
   * Writes the MQTT publisher's delivery marks and retained board states — outbox rows that are
   * not the record — on the writer thread when there is one, after whatever was posted to it
   * before: the event loop never waits for the writer's lock (the loop's own mark transactions
   * waited for the writer's commits in SQLite's busy handler, a quarter of the loop's time at
   * 1,000 presses/s). Without a writer thread they are written here at once. They commit with
   * synchronous=NORMAL: a lost mark republishes a deduplicated message, a lost retained state
   * is drafted again at the board's next event.
   */
  outboxAside(job: AsideJob): Promise<void> {
    if (this.writer?.running) return this.writer.aside(job);
    try {
      this.outbox.writeAside(job);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  // ── clock events (clock-events.ts, event-sequencer.ts, event-appends.ts) ────────────

  /**
   * Journals one clock event. Durable (committed, WAL fsynced) when it returns.
   * A second append of the same (clockId, bootId, seq) stores nothing and returns isNew: false.
   */
  append(event: ClockEventInput): AppendResult {
    // A single statement outside a transaction would autocommit too; the transaction keeps
    // the event and its outbox row together.
    return this.appends.appendMany([event])[0];
  }

  /** Journals many events in ONE transaction (one fsync): all or none. */
  appendMany(events: readonly ClockEventInput[]): AppendResult[] {
    return this.appends.appendMany(events);
  }

  /** A batch in ONE transaction, committed on the writer thread when there is one (EventAppends.appendInBackground). */
  appendInBackground(items: readonly BackgroundAppend[]): BackgroundBatch {
    return this.appends.appendInBackground(items);
  }

  /** The highest seq journaled of a clock's boot (its journal key), or -1 for none. */
  highestSeq(clockId: string, bootId: string): number {
    return this.events.highestSeq(clockId, bootId);
  }

  /** Events of a game in play order (boot by boot, seq within a boot). */
  eventsByGame(gameId: number): ClockEventRow[] {
    return this.events.eventsByGame(gameId);
  }

  /** Events in journal (arrival) order after row id `afterId`: for feeds that resume from a cursor. */
  eventsAfter(afterId: number, limit = 1000): ClockEventRow[] {
    return this.events.eventsAfter(afterId, limit);
  }

  /** The ids of a page of events in journal order, filtered by board and clock (the API's event pages). */
  eventIdPage(filter: EventPageFilter): number[] {
    return this.events.eventIdPage(filter);
  }

  /** The newest event id the journal shows (0 when none): not a batch the writer thread is committing. */
  headEventId(): number {
    return this.events.headEventId();
  }

  // ── games and boards (games.ts) ─────────────────────────────────────────────────────

  createGame(g: NewGame): GameRow {
    return this.games.createGame(g);
  }

  getGame(gameId: number): GameRow | null {
    return this.games.getGame(gameId);
  }

  /** The clock's two newest games, with a result or not (newest first). */
  newestGamesOfClock(clockId: string): GameRow[] {
    return this.games.newestGamesOfClock(clockId);
  }

  /** The clock's game without a result yet (the one its events belong to). */
  currentGameForClock(clockId: string): GameRow | null {
    return this.games.currentGameForClock(clockId);
  }

  /** The game a clock last played: its newest game that has a result or was started (Games.playedGameOfClock). */
  playedGameOfClock(clockId: string): GameRow | null {
    return this.games.playedGameOfClock(clockId);
  }

  /** Whether the game's clock has been started (a started or moved event is journaled, or being written). */
  gameStarted(gameId: number): boolean {
    return this.games.gameStarted(gameId);
  }

  /** The arbiter set the game up anew before it began; refused once it has a result or has started. */
  reconfigureGame(gameId: number, setup: { timeControl: TimeControl; white?: string | null; black?: string | null }): GameRow {
    return this.games.reconfigureGame(gameId, setup);
  }

  assignClock(gameId: number, clockId: string | null): void {
    this.games.assignClock(gameId, clockId);
  }

  gamesByRound(event: string, round: number): GameRow[] {
    return this.games.gamesByRound(event, round);
  }

  gamesByEvent(event: string): GameRow[] {
    return this.games.gamesByEvent(event);
  }

  gamesByBoard(event: string, round: number, board: number): GameRow[] {
    return this.games.gamesByBoard(event, round, board);
  }

  gamesByMatch(matchId: string): GameRow[] {
    return this.games.gamesByMatch(matchId);
  }

  /** Games with a result; `confirmedOnly` keeps those an arbiter confirmed (the ones exports may use). */
  results(event: string, opts: { round?: number; confirmedOnly?: boolean } = {}): GameRow[] {
    return this.games.results(event, opts);
  }

  /** The latest state of every board (its newest game and last event), optionally for one event. */
  boardStates(event?: string): BoardState[] {
    return this.games.boardStates(event);
  }

  /** The newest game of one board of an event (what `boardStates` gives it, without the others). */
  currentGameOfBoard(event: string, board: number): GameRow | null {
    return this.games.currentGameOfBoard(event, board);
  }

  // ── results (results.ts) ────────────────────────────────────────────────────────────

  /** Records a game's result, from the clock (both players confirmed) or an arbiter (ResultBook.reportResult). */
  reportResult(gameId: number, report: ResultReport): GameRow {
    return this.resultBook.reportResult(gameId, report);
  }

  /** An arbiter confirms the reported result, or adopts a clock's report (ResultBook.confirmResult). */
  confirmResult(gameId: number, arbiter: string, utcMs: number, opts: { reportId?: number; reason?: string } = {}): GameRow {
    return this.resultBook.confirmResult(gameId, arbiter, utcMs, opts);
  }

  /** Files a result a clock reported, once per clock event (ResultBook.fileClockResult). */
  fileClockResult(input: ClockResultInput): ClockResultOutcome {
    return this.resultBook.fileClockResult(input);
  }

  /** Results clocks reported: of one game (every filing, oldest first), or every pending one. */
  resultReports(query: { gameId: number } | { pending: true }): ResultReportRow[] {
    return this.resultBook.resultReports(query);
  }

  // ── clocks (clock-registry.ts) ──────────────────────────────────────────────────────

  /** Records a clock's handshake (or any sign of life). */
  seenClock(c: { clockId: string; bootId?: string | null; firmware?: string | null; utcMs: number }): void {
    this.clockRegistry.seenClock(c);
  }

  clocks(): ClockRow[] {
    return this.clockRegistry.clocks();
  }

  // ── arbiter actions (arbiter-actions.ts) ────────────────────────────────────────────

  /** Journals an arbiter action (applied or refused) with who did it. */
  recordArbiterAction(a: ArbiterActionInput): number {
    return this.actions.recordArbiterAction(a);
  }

  arbiterActions(gameId?: number): ArbiterActionRow[] {
    return this.actions.arbiterActions(gameId);
  }

  // ── broadcast log (broadcast-log.ts) ──────────────────────────────────────────────

  /** Journals a push that left for a lichess broadcast round, with lichess's answer. */
  recordBroadcastPush(p: BroadcastPushInput): number {
    return this.broadcastLog.record(p);
  }

  /** The pushes, oldest first; of one event when given. */
  broadcastPushes(event?: string): BroadcastPushRow[] {
    return this.broadcastLog.list(event);
  }

  // ── outbox (outbox.ts) ──────────────────────────────────────────────────────────────

  /** Adds a row to publish (for facts not journaled here, e.g. live status). */
  enqueue(kind: string, payload: unknown, utcMs: number): number | null {
    return this.outbox.enqueue(kind, payload, utcMs);
  }

  /** The outbox as the MQTT publisher's store (host/adapters/mqtt/outbox-store.ts `OutboxStore`). */
  outboxStore(nowUtcMs: () => number): JournalOutboxStore {
    return this.outbox.store(nowUtcMs);
  }

  /** Unpublished rows, oldest first. */
  pendingOutbox(limit = 100): OutboxRow[] {
    return this.outbox.pendingOutbox(limit);
  }

  /** Marks rows published (after the broker acknowledged them); returns how many were newly marked. */
  markPublished(ids: readonly number[], utcMs: number): number {
    return this.outbox.markPublished(ids, utcMs);
  }

  outboxBacklog(): number {
    return this.outbox.outboxBacklog();
  }

  // ── matches (matches.ts) ────────────────────────────────────────────────────────────

  saveMatch(m: MatchRow): void {
    this.matches.saveMatch(m);
  }

  getMatch(matchId: string): MatchRow | null {
    return this.matches.getMatch(matchId);
  }

  matchesByEvent(event: string): MatchRow[] {
    return this.matches.matchesByEvent(event);
  }
}

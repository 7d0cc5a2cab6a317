// The host ports (HostState, CommandSink) over the SQLite journal: what `chessclock host`
// hands to `buildApi`. Clock events enter through `append`, which journals them (durable
// when it returns) and then feeds the live listeners (WebSocket feed, MQTT state) — so the
// feed never shows an event the journal could still lose.
//
// Arbiter writes: results and confirmations are journal facts (the journal records the
// arbiter with them); clock commands (configure, start, pause, resume, adjust, penalty, set-moves,
// arrive, takeback, reinstate, increment) are checked
// against the board's live state, handed to the clock through `commander` (the lead's
// session layer, which answers with the clock's ACK/NACK), and journaled as arbiter actions
// with their outcome. A refused command changes nothing.
import { createHash } from 'node:crypto';
import { JournalError, type Journal } from '../journal/journal.ts';
import type { AppendResult, ClockEventInput, ClockEventRow, GameRow, GameResult } from '../journal/types.ts';
import { recordFromJournalRow } from '../mqtt/journal-topics.ts';
import { foldEvent } from './live-state.ts';
import { clockCommandRefusal } from './clock-command-rules.ts';
import type { Hall } from '../tournament/model.ts';
import type {
  Actor,
  ArbiterCommand,
  BoardView,
  ClockEventRecord,
  CommandOutcome,
  CommandSink,
  EventPage,
  EventQuery,
  HostState,
  LiveClockState,
  MatchScoreView,
  MatchView,
  ResultView,
} from './host-ports.ts';

/** Delivers an accepted clock command to the board's clock and reports the clock's answer. */
export type ClockCommander = (command: ArbiterCommand, game: GameRow) => Promise<CommandOutcome>;

export interface JournalHostOptions {
  readonly journal: Journal;
  readonly nowUtcMs: () => number;
  readonly commander?: ClockCommander;
  /** The tournament file: gives boards their event names (the journal keeps event ids). */
  readonly hall?: Hall;
}

type Listener = (event: ClockEventRecord, board: BoardView | undefined) => void;

/** URL-safe board id from the event name and board number, e.g. `slovenian-final-2025-26-1`. */
export function boardIdOf(event: string, board: number): string {
  let slug = event
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  // Names without Latin letters (Cyrillic, ...) still get a stable id.
  if (slug === '') slug = 'e' + createHash('sha256').update(event).digest('hex').slice(0, 8);
  return `${slug}-${board}`;
}

/** Game points of White and Black per result; forfeits count as won and lost games (TRF16 `+`/`-`). */
const GAME_POINTS: Record<GameResult, readonly [number, number]> = {
  '1-0': [1, 0],
  '0-1': [0, 1],
  '1/2-1/2': [0.5, 0.5],
  '+-': [1, 0],
  '-+': [0, 1],
  '--': [0, 0],
};

const CLOCK_COMMANDS = new Set(['configure', 'start', 'pause', 'resume', 'adjust', 'penalty', 'set-moves', 'arrive', 'takeback', 'reinstate', 'increment']);

export class JournalHost implements HostState, CommandSink {
  readonly journal: Journal;
  private readonly nowUtcMs: () => number;
  private readonly commander: ClockCommander | undefined;
  private readonly eventNames = new Map<string, string>();
  private readonly listeners = new Set<Listener>();
  /** Live state per game, folded from its events (filled lazily, then kept current). */
  private readonly live = new Map<number, LiveClockState | null>();
  private idIndex = new Map<string, { event: string; board: number }>();
  private readonly pageStmt;

  constructor(opts: JournalHostOptions) {
    this.journal = opts.journal;
    this.nowUtcMs = opts.nowUtcMs;
    this.commander = opts.commander;
    for (const e of opts.hall?.events ?? []) this.eventNames.set(e.id, e.name);
    // Filtered paging by row id over the (event, round, board, id) index.
    this.pageStmt = this.journal.db.prepare(`
      SELECT id FROM clock_events
      WHERE id > @after
        AND (@event IS NULL OR event = @event) AND (@round IS NULL OR round = @round)
        AND (@board IS NULL OR board = @board) AND (@clockId IS NULL OR clock_id = @clockId)
      ORDER BY id LIMIT @limit`);
  }

  // ---- events in -------------------------------------------------------------------

  /** Journals one clock event; when new, updates the live state and notifies listeners. */
  append(input: ClockEventInput): AppendResult {
    return this.appendMany([input])[0];
  }

  /** Journals events in one transaction (one fsync), then notifies for the new ones. */
  appendMany(inputs: readonly ClockEventInput[]): AppendResult[] {
    const results = this.journal.appendMany(inputs);
    for (const r of results) {
      if (!r.isNew) continue;
      const row = this.journal.eventsAfter(r.id - 1, 1)[0];
      if (row) this.notify(row);
    }
    return results;
  }

  private notify(row: ClockEventRow): void {
    const record = recordFromJournalRow(row);
    let view: BoardView | undefined;
    if (row.gameId !== null) {
      const game = this.journal.getGame(row.gameId);
      if (this.live.has(row.gameId)) {
        const prev = this.live.get(row.gameId) ?? null;
        if (record) this.live.set(row.gameId, foldEvent(prev, record, game?.timeControlValue ?? null));
      }
      if (game) view = this.viewOf(game);
    }
    if (!record) return; // no game: not on any board
    for (const l of this.listeners) l(record, view);
  }

  // ---- HostState -------------------------------------------------------------------

  private liveOf(game: GameRow): LiveClockState | null {
    const gameId = game.gameId;
    if (!this.live.has(gameId)) {
      let state: LiveClockState | null = null;
      for (const row of this.journal.eventsByGame(gameId)) {
        const r = recordFromJournalRow(row);
        if (r) state = foldEvent(state, r, game.timeControlValue);
      }
      this.live.set(gameId, state);
    }
    return this.live.get(gameId) ?? null;
  }

  private viewOf(game: GameRow): BoardView {
    const id = boardIdOf(game.event, game.board);
    this.idIndex.set(id, { event: game.event, board: game.board });
    return {
      id,
      event: game.event,
      ...(this.eventNames.has(game.event) ? { eventName: this.eventNames.get(game.event) } : {}),
      round: game.round,
      board: game.board,
      clockId: game.clockId,
      white: { name: game.white, ...(game.whiteTeam ? { team: game.whiteTeam } : {}) },
      black: { name: game.black, ...(game.blackTeam ? { team: game.blackTeam } : {}) },
      timeControl: game.timeControl,
      live: this.liveOf(game),
      result: game.result,
      resultConfirmed: game.confirmedBy !== null,
      startsAtUtcMs: game.earliestStartUtcMs,
      game: { no: game.gameNo, kind: game.kind, matchId: game.matchId },
      defaultTimeMs: game.timeControlValue.defaultTimeMs,
      ...(game.matchId !== null ? { match: this.matchScoreOf(game, game.matchId) } : {}),
    };
  }

  /**
   * The knockout mini-match of a board's game, seen from that game's colours: game points
   * of every game of the match with a journaled result (the current one included once it
   * has one), and the match's decision as the director saved it.
   */
  private matchScoreOf(game: GameRow, matchId: string): MatchScoreView {
    const points = new Map<string, number>([[game.white, 0], [game.black, 0]]);
    const add = (name: string, p: number) => points.set(name, (points.get(name) ?? 0) + p);
    for (const g of this.journal.gamesByMatch(matchId)) {
      if (g.result === null) continue;
      const [w, b] = GAME_POINTS[g.result];
      add(g.white, w);
      add(g.black, b);
    }
    const m = this.journal.getMatch(matchId);
    const decided = m?.status === 'decided';
    return {
      id: matchId,
      whiteScore: points.get(game.white)!,
      blackScore: points.get(game.black)!,
      stage: game.kind,
      decided,
      winner: decided ? (m!.winner ?? null) : null,
      decidedBy: decided ? (m!.decidedBy ?? null) : null,
    };
  }

  boards(): readonly BoardView[] {
    return this.journal.boardStates().map((s) => this.viewOf(s.game));
  }

  /** The board's current game: one board's lookup, not the whole event's (commands and views are per board). */
  private currentGame(id: string): GameRow | undefined {
    if (!this.idIndex.has(id)) this.boards(); // refresh the index
    const at = this.idIndex.get(id);
    if (!at) return undefined;
    return this.journal.currentGameOfBoard(at.event, at.board) ?? undefined;
  }

  board(id: string): BoardView | undefined {
    const game = this.currentGame(id);
    return game ? this.viewOf(game) : undefined;
  }

  events(q: EventQuery): EventPage {
    const after = q.after === undefined ? 0 : Number(q.after);
    const ids = this.pageStmt.all({
      after,
      event: q.event ?? null,
      round: q.round ?? null,
      board: q.board ?? null,
      clockId: q.clockId ?? null,
      limit: q.limit,
    }) as Array<{ id: number }>;
    const events: ClockEventRecord[] = [];
    for (const { id } of ids) {
      const row = this.journal.eventsAfter(id - 1, 1)[0];
      const r = row && recordFromJournalRow(row);
      if (r) events.push(r);
    }
    return { events, next: ids.length === q.limit ? String(ids.at(-1)!.id) : null };
  }

  private events_(): string[] {
    return [...new Set(this.journal.boardStates().map((s) => s.event))];
  }

  matches(): readonly MatchView[] {
    return this.events_().flatMap((e) => this.journal.matchesByEvent(e).map((m) => ({ id: m.matchId, ...m })));
  }

  results(round?: number): readonly ResultView[] {
    return this.events_().flatMap((event) =>
      (round === undefined ? this.journal.gamesByEvent(event) : this.journal.gamesByRound(event, round)).map((g) => ({
        event: g.event,
        round: g.round,
        board: g.board,
        white: g.white,
        black: g.black,
        result: g.result,
        confirmed: g.confirmedBy !== null,
        by: g.confirmedBy !== null ? `arbiter:${g.confirmedBy}` : g.reportedBy,
      })),
    );
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- CommandSink -----------------------------------------------------------------

  async execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome> {
    const game = this.currentGame(command.boardId);
    if (!game) return { ok: false, status: 404, reason: `no board "${command.boardId}"` };
    const where = `board ${game.board} of ${game.event} round ${game.round}`;
    const utcMs = this.nowUtcMs();

    if (command.type === 'result' || command.type === 'confirm-result') {
      const refusal = command.type === 'result' && game.result !== null ? this.correctionRefusal(game, where) : null;
      if (refusal !== null) {
        this.record(command, actor, game, utcMs, 'rejected', refusal);
        return { ok: false, status: 409, reason: refusal };
      }
      try {
        // The journal records the arbiter with the result in the same transaction.
        if (command.type === 'result') {
          this.journal.reportResult(game.gameId, { result: command.result as GameResult, how: 'arbiter', source: 'arbiter', arbiter: actor.arbiter, utcMs });
        } else {
          this.journal.confirmResult(game.gameId, actor.arbiter, utcMs);
        }
      } catch (err) {
        if (!(err instanceof JournalError)) throw err;
        const reason = err.message;
        this.record(command, actor, game, utcMs, 'rejected', reason);
        return { ok: false, status: err.field === 'result' ? 409 : 422, reason };
      }
      return { ok: true, board: this.board(command.boardId) };
    }

    if (!CLOCK_COMMANDS.has(command.type)) return { ok: false, status: 422, reason: `unknown command "${command.type}"` };
    const status = game.result !== null ? 'finished' : (this.liveOf(game)?.status ?? 'ready');
    const refusal = clockCommandRefusal(command.type, status, this.liveOf(game) !== null, where);
    if (refusal !== null) {
      this.record(command, actor, game, utcMs, 'rejected', refusal);
      return { ok: false, status: 409, reason: refusal };
    }
    if (!this.commander) {
      const reason = `${where}: no clock connection on this host`;
      this.record(command, actor, game, utcMs, 'rejected', reason);
      return { ok: false, status: 503, reason };
    }
    const outcome = await this.commander!(command, game);
    this.record(command, actor, game, utcMs, outcome.ok ? 'applied' : 'rejected', outcome.ok ? null : outcome.reason);
    return outcome.ok ? { ok: true, board: this.board(command.boardId) } : outcome;
  }

  /**
   * Why a result already entered (on the clock or by an arbiter) can no longer be corrected
   * here, or null when it can. A correction clears the confirmation (the arbiter confirms
   * again), so it is only safe while nothing was built on the old result: once the director
   * decided the match on it, the correction would leave the match standing on a result that
   * no longer exists. (A game the knockout already went on from is not the board's current
   * game any more, so a board's PUT cannot reach it.)
   */
  private correctionRefusal(game: GameRow, where: string): string | null {
    if (game.matchId === null) return null;
    const match = this.journal.getMatch(game.matchId);
    if (match?.status === 'decided') {
      return `${where}: game ${game.gameNo} (${game.result}) cannot be corrected: the match was already decided on it (${match.winner} wins, ${match.decidedBy})`;
    }
    return null;
  }

  private record(command: ArbiterCommand, actor: Actor, game: GameRow, utcMs: number, outcome: 'applied' | 'rejected', reason: string | null): void {
    const { type, boardId: _boardId, ...payload } = command;
    this.journal.recordArbiterAction({
      utcMs,
      arbiter: actor.arbiter,
      action: type,
      gameId: game.gameId,
      clockId: game.clockId,
      event: game.event,
      round: game.round,
      board: game.board,
      payload,
      outcome,
      reason,
    });
  }
}

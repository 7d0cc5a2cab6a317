// The one place a board's view (ports.ts BoardView) is built: every path that shows a board
// shows this one — GET /api/boards, the /ws `hello`, each /ws `event` (the board of the event,
// journal-ports.ts), each /ws `board` (watchBoards), the answer to an arbiter's command, and the
// retained MQTT state. The dashboard keeps whichever came last, so a view built elsewhere with
// less in it would take away what the others said (an offline clock, the line's health).
//
// A view is the board's current game as journaled, with
// - its live state (live-games.ts) and result, the pending clock results, the appeal window;
// - the knockout mini-match's score, and the break before its next game (from the director);
// - whether its clock is connected now and the line's health (from the clock fleet);
// - the last time a clock was brought to the game from the journal (the restore note);
// - what the live broadcast says of it (broadcast-notes.ts: a warning, lichess's error).
//
// Board changes that no clock event carries (a clock connected or lost, a clock's result filed
// after its event went out, a restore done, an arbiter's command answered, a round opened) go
// out through `watch`: the host's one watchBoards.
import { createHash } from 'node:crypto';
import { appealDeadline, type AppealRule } from '../domain/appeal.ts';
import type { Hall } from '../domain/model.ts';
import type { Journal } from '../store/journal.ts';
import type { GameRow, ResultReportRow } from '../store/types.ts';
import type { LinkFigures } from '../clocks/clock-session.ts';
import { lastRestoreNote, type RestoreNote } from '../clocks/restore-clock.ts';
import { RESULT_MEANING } from '../../rules/vocabulary.ts';
import type { Director } from './director.ts';
import type { LiveGames } from './live-games.ts';
import type { BoardView, BreakView, MatchScoreView, MatchView, ReportedResultView } from './views.ts';
import type { IdentityClaim } from './identity-claims.ts';
import type { BroadcastNotes } from './broadcast-notes.ts';

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

/** A clock's report as the API shows it. */
export function reportedView(r: ResultReportRow): ReportedResultView {
  return { id: r.id, result: r.result, by: r.reportedBy, clockId: r.clockId, atUtcMs: r.utcMs };
}

/** Whether a clock is connected now, and its line's health (the clock fleet: clock-fleet.ts). */
export interface ClockPresence {
  /** `link` absent: no line has carried the clock since the host started. */
  presence(clockId: string): { readonly online: boolean; readonly link?: LinkFigures; readonly identityClaim?: IdentityClaim };
}

/** Where a knockout mini-match stands (the director's read). */
export type KnockoutReader = Pick<Director, 'knockoutState'>;

export interface BoardViewsOptions {
  readonly journal: Journal;
  readonly live: LiveGames;
  readonly nowUtcMs: () => number;
  /** The tournament file: the events' names and appeal windows. */
  readonly hall?: Hall;
  /** The knockout breaks; absent: no board shows one. */
  readonly director?: KnockoutReader;
  /** Whether each clock is connected; absent (a host without clock lines): views say nothing of it. */
  readonly clocks?: ClockPresence;
  /** Where a failure to tell the watchers is said. */
  readonly log?: (line: string) => void;
  /** What the live broadcast says of each board (broadcast-notes.ts); absent: no board shows a broadcast. */
  readonly broadcast?: Pick<BroadcastNotes, 'of'>;
}

export type BoardListener = (board: BoardView) => void;

export class BoardViews {
  private readonly journal: Journal;
  private readonly live: LiveGames;
  private readonly nowUtcMs: () => number;
  private readonly director: KnockoutReader | undefined;
  private readonly clocks: ClockPresence | undefined;
  private readonly broadcast: Pick<BroadcastNotes, 'of'> | undefined;
  private readonly log: (line: string) => void;
  private readonly eventNames = new Map<string, string>();
  /** The knockout events (the only ones whose boards have a break). */
  private readonly knockoutEvents = new Set<string>();
  /** The events' appeal windows (tournament file `appeal`). */
  private readonly appeals = new Map<string, AppealRule>();
  /** Where each board id is (filled as views are built). */
  private idIndex = new Map<string, { event: string; board: number }>();
  /** The last restore of each game (loaded from the journal when first asked). */
  private readonly restores = new Map<number, RestoreNote | null>();
  private readonly listeners = new Set<BoardListener>();
  private readonly clocksChanged = new Set<string>();
  private closed = false;

  constructor(opts: BoardViewsOptions) {
    this.journal = opts.journal;
    this.live = opts.live;
    this.nowUtcMs = opts.nowUtcMs;
    this.director = opts.director;
    this.clocks = opts.clocks;
    this.broadcast = opts.broadcast;
    this.log = opts.log ?? (() => undefined);
    for (const e of opts.hall?.events ?? []) {
      this.eventNames.set(e.id, e.name);
      if (e.kind === 'knockout') this.knockoutEvents.add(e.id);
      if (e.appeal) this.appeals.set(e.id, e.appeal);
    }
  }

  // ---- building ---------------------------------------------------------------------

  /** The view of a game's board. `pending`: the game's pending clock results, when already read. */
  viewOf(game: GameRow, pending?: readonly ResultReportRow[]): BoardView {
    const id = boardIdOf(game.event, game.board);
    this.idIndex.set(id, { event: game.event, board: game.board });
    const conflicts = pending ?? this.journal.resultReports({ gameId: game.gameId }).filter((r) => r.status === 'pending');
    const brk = this.breakOf(game);
    const restore = this.restoreOf(game);
    const broadcast = this.broadcast?.of(game.event, game.round, game.board);
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
      live: this.live.ofBoard(game),
      result: game.result,
      resultConfirmed: game.confirmedBy !== null,
      ...this.appealFields(game),
      startsAtUtcMs: game.earliestStartUtcMs,
      game: { no: game.gameNo, kind: game.kind, matchId: game.matchId },
      defaultTimeMs: game.timeControlValue.defaultTimeMs,
      ...(game.matchId !== null ? { match: this.matchScoreOf(game, game.matchId) } : {}),
      ...(conflicts.length > 0 ? { pendingResults: conflicts.map(reportedView) } : {}),
      // The dashboard shows the countdown, whether the clock is connected, and the last restore from the journal.
      ...(brk ? { break: brk } : {}),
      ...(restore ? { restore } : {}),
      ...(broadcast ? { broadcast } : {}),
      ...this.presenceFields(game.clockId),
    };
  }

  private presenceFields(clockId: string | null): { clockOnline?: boolean; link?: LinkFigures; identityClaim?: IdentityClaim } {
    if (!this.clocks) return {};
    const p = clockId !== null ? this.clocks.presence(clockId) : { online: false };
    return { clockOnline: p.online, ...(p.link ? { link: p.link } : {}), ...(p.identityClaim ? { identityClaim: p.identityClaim } : {}) };
  }

  /** Every board's view, its current game's. */
  boards(): BoardView[] {
    // One read of the pending reports for every board, not one per board.
    const pending = this.pendingByGame();
    return this.journal.boardStates().map((s) => this.viewOf(s.game, pending.get(s.game.gameId) ?? []));
  }

  board(id: string): BoardView | undefined {
    const game = this.gameOf(id);
    return game ? this.viewOf(game) : undefined;
  }

  /** The board's current game: one board's lookup, not the whole event's (commands and views are per board). */
  gameOf(id: string): GameRow | undefined {
    if (!this.idIndex.has(id)) this.boards(); // refresh the index
    const at = this.idIndex.get(id);
    if (!at) return undefined;
    return this.journal.currentGameOfBoard(at.event, at.board) ?? undefined;
  }

  /** The pending clock results of every game (null: of clocks with no game), read at once. */
  pendingByGame(): Map<number | null, ResultReportRow[]> {
    const byGame = new Map<number | null, ResultReportRow[]>();
    for (const r of this.journal.resultReports({ pending: true })) byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), r]);
    return byGame;
  }

  // ---- the parts ---------------------------------------------------------------------

  /** The appeal window of the event (tournament file `appeal`), if it states one. */
  appealRule(event: string): AppealRule | undefined {
    return this.appeals.get(event);
  }

  /** The appeal deadline of a game's confirmed result (null: not running yet), or undefined where the event states no window. */
  appealUntil(game: GameRow): number | null | undefined {
    const rule = this.appeals.get(game.event);
    if (!rule) return undefined;
    if (game.confirmedUtcMs === null) return null;
    return appealDeadline(rule, game, rule.from === 'round-end' ? this.journal.gamesByRound(game.event, game.round) : []);
  }

  private appealFields(game: GameRow): { appealUntilUtcMs?: number | null; resultFinal?: boolean } {
    const until = this.appealUntil(game);
    if (until === undefined) return {};
    return { appealUntilUtcMs: until, resultFinal: until !== null && this.nowUtcMs() >= until };
  }

  /**
   * The knockout mini-match of a board's game, seen from that game's colours: game points
   * of every game of the match with a journaled result (the current one included once it
   * has one), and the match's decision as the director saved it.
   */
  private matchScoreOf(game: GameRow, matchId: string): MatchScoreView {
    const points = new Map<string, number>([
      [game.white, 0],
      [game.black, 0],
    ]);
    const add = (name: string, p: number) => points.set(name, (points.get(name) ?? 0) + p);
    for (const g of this.journal.gamesByMatch(matchId)) {
      if (g.result === null) continue;
      // Game points from the vocabulary: forfeits count as won and lost games (TRF16 `+`/`-`).
      const { white: w, black: b } = RESULT_MEANING[g.result].points;
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

  /** Where a knockout mini-match stands now, or null (not a knockout board, or not one the director knows). */
  private knockout(event: string, round: number, board: number): ReturnType<KnockoutReader['knockoutState']> | null {
    if (!this.director || !this.knockoutEvents.has(event)) return null;
    try {
      return this.director.knockoutState(event, round, board, this.nowUtcMs());
    } catch {
      return null;
    }
  }

  /** The break before a knockout board's next game, while it runs. */
  private breakOf(game: GameRow): BreakView | null {
    const state = this.knockout(game.event, game.round, game.board);
    if (!state || state.step.status !== 'play' || state.breakRemainingMs <= 0) return null;
    const next = state.step.next;
    return { nextGameNo: next.gameNo, nextStage: next.stage, startsUtcMs: next.earliestStartUtcMs ?? this.nowUtcMs(), remainingMs: state.breakRemainingMs };
  }

  /** A match as GET /api/matches lists it: while it is not decided, with the break before its next game. */
  matchWithBreak(m: MatchView): MatchView {
    if (m.status === 'decided') return m;
    const state = this.knockout(m.event, m.round as number, m.board as number);
    return state ? { ...m, breakRemainingMs: state.breakRemainingMs } : m;
  }

  private restoreOf(game: GameRow): RestoreNote | null {
    if (!this.restores.has(game.gameId)) this.restores.set(game.gameId, lastRestoreNote(this.journal, game.gameId));
    return this.restores.get(game.gameId) ?? null;
  }

  /** A clock was brought to the game from the journal (note), or the attempt failed (null: read from the journal again). */
  restored(gameId: number, note: RestoreNote | null, clockId: string): void {
    if (note) this.restores.set(gameId, note);
    else this.restores.delete(gameId);
    this.clockChanged(clockId);
  }

  // ---- watching ----------------------------------------------------------------------

  /** HostState.watchBoards: boards whose view changed with no feed event saying so. */
  watch(listener: BoardListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The view of the boards of `clockId` changed with no feed event saying so: its line came up or
   * went down (`clockOnline`), the result it reported was filed after its event went out, or it was
   * restored. Told once per batch (a hall's clocks connect together at the start), after the change settled.
   */
  clockChanged(clockId: string): void {
    if (this.listeners.size === 0 || this.closed) return;
    const first = this.clocksChanged.size === 0;
    this.clocksChanged.add(clockId);
    if (first) setTimeout(() => this.tellChanged(), 0);
  }

  private tellChanged(): void {
    const changed = [...this.clocksChanged];
    this.clocksChanged.clear();
    if (this.closed || this.listeners.size === 0) return;
    let views: BoardView[];
    try {
      views = this.boardsOfClocks(changed);
    } catch (err) {
      // Only a notice to the dashboard: the next event or a reload shows the board all the same.
      return this.log(`could not tell the dashboard that clock(s) ${changed.join(', ')} changed: ${(err as Error).message}`);
    }
    for (const view of views) for (const listener of this.listeners) listener(view);
  }

  /**
   * The boards of the changed clocks only (the boards their two newest games are on), not the
   * whole hall's views: once per clock as a hall connects, that made connecting N clocks O(N²).
   */
  private boardsOfClocks(clockIds: readonly string[]): BoardView[] {
    const views: BoardView[] = [];
    const seen = new Set<string>();
    for (const clockId of clockIds) {
      for (const game of this.journal.newestGamesOfClock(clockId)) {
        const id = boardIdOf(game.event, game.board);
        if (seen.has(id)) continue;
        seen.add(id);
        const view = this.board(id);
        if (view && view.clockId === clockId) views.push(view);
      }
    }
    return views;
  }

  /**
   * The boards `ids` changed by the host's own doing (an arbiter's command, a round opened):
   * their views go to the watchers at once, before the command is answered.
   */
  tell(ids: readonly string[]): void {
    if (this.closed || this.listeners.size === 0) return;
    for (const id of new Set(ids)) {
      const view = this.board(id);
      if (view) for (const listener of this.listeners) listener(view);
    }
  }

  /** No more board messages (the host closes). */
  close(): void {
    this.closed = true;
    this.clocksChanged.clear();
  }
}

// The host ports (HostState, CommandSink) over the SQLite journal: what `chessclock host`
// hands to `buildApi` (through Host.state), and what tests and benchmarks open over a journal in
// memory (`new Journal(':memory:')`). Clock events enter through `append`, which journals them
// (durable when it returns) and then feeds the live listeners (WebSocket feed, MQTT state) — so
// the feed never shows an event the journal could still lose. Every board it shows, on every
// path, is built by board-views.ts.
//
// Arbiter writes: results and confirmations are journal facts (the journal records the
// arbiter with them); clock commands (configure, start, pause, resume, adjust, penalty, set-moves,
// arrive, takeback, reinstate, increment, delay, set-turn, set-control) are checked
// against the board's live state, handed to the clock through `commander` (the clock fleet,
// which answers with the clock's ACK/NACK), and journaled as arbiter actions
// with their outcome. A refused command changes nothing.
//
// A result closes the game everywhere (host/app/result-rules.ts): the board's live state says
// `finished` once its game has a result, however it came (entered here, keyed at the clock,
// corrected), the retained MQTT state with it (drafted in the result's own transaction), no
// clock command reaches the game any more, and a clock's result that differs from the recorded
// one waits for the arbiter beside it (`pendingResults`), never only in a log.
import { JournalError, type BackgroundAppend, type BackgroundBatch, type Journal } from '../store/journal.ts';
import type { AppendResult, ClockEventInput, ClockEventRow, ClockResultOutcome, GameRow, GameResult } from '../store/types.ts';
import { forfeitedSides, recordFromJournalRow, type BoardStateDraft } from './journal-records.ts';
import { CLOCK_COMMAND_TYPES, correctionNeedsReason, finishedGameRefusal, type BoardWithResult } from './result-rules.ts';
import { boardsWithNewAppealDeadline } from './appeal-window.ts';
import { BroadcastNotes, type BroadcastNoteSink, type BroadcastRoundNotes } from './broadcast-notes.ts';
import { BoardViews, boardIdOf, reportedView, type BoardListener, type ClockPresence, type KnockoutReader } from './board-views.ts';
import { LiveGames } from './live-games.ts';
import { journalStandings } from './journal-standings.ts';
import { clockCommandRefusal } from '../../rules/command-rules.ts';
import { forfeitResultFor } from '../../rules/vocabulary.ts';
import type { Hall } from '../domain/model.ts';
import { timeControlSpec } from '../../protocol/time-control.ts';
import {
  ExportRefusedError,
  type Actor,
  type ArbiterCommand,
  type BoardGameJournal,
  type BoardView,
  type ClockEventRecord,
  type CommandOutcome,
  type CommandSink,
  type EventPage,
  type EventQuery,
  type HostHealth,
  type JournalRange,
  type JournalRangeQuery,
  type HostState,
  type LotView,
  type MatchView,
  type ResultView,
  type StandingsView,
} from './ports.ts';

export { boardIdOf } from './board-views.ts';

/** Delivers an accepted clock command to the board's clock and reports the clock's answer. */
export type ClockCommander = (command: ArbiterCommand, game: GameRow) => Promise<CommandOutcome>;

export interface JournalPortsOptions {
  readonly journal: Journal;
  readonly nowUtcMs: () => number;
  readonly commander?: ClockCommander;
  /** The tournament file: gives boards their event names and appeal windows, and the standings. */
  readonly hall?: Hall;
  /** The match director: the break before a knockout board's next game. */
  readonly director?: KnockoutReader;
  /** The clock fleet: whether each board's clock is connected, and its line's health. */
  readonly clocks?: ClockPresence;
  readonly log?: (line: string) => void;
}

type Listener = (event: ClockEventRecord, board: BoardView | undefined) => void;

/** What a clock's result did, for the host's log (null: nothing worth a line). */
export interface ClockResultFiling {
  readonly outcome: ClockResultOutcome['outcome'] | 'refused';
  readonly log: string | null;
}

export class JournalPorts implements HostState, CommandSink, BroadcastNoteSink {
  readonly journal: Journal;
  /** Every board's view (the one place they are built) and the boards' watchers. */
  readonly views: BoardViews;
  /** Each game's live state as its clock reported it. */
  readonly live: LiveGames;
  private readonly hall: Hall | undefined;
  private readonly nowUtcMs: () => number;
  private readonly commander: ClockCommander | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly broadcast: BroadcastNotes;

  constructor(opts: JournalPortsOptions) {
    this.journal = opts.journal;
    this.hall = opts.hall;
    this.nowUtcMs = opts.nowUtcMs;
    this.commander = opts.commander;
    this.live = new LiveGames(opts.journal);
    this.broadcast = new BroadcastNotes(opts.journal, opts.nowUtcMs);
    this.views = new BoardViews({
      journal: opts.journal,
      live: this.live,
      nowUtcMs: opts.nowUtcMs,
      hall: opts.hall,
      director: opts.director,
      clocks: opts.clocks,
      log: opts.log,
      broadcast: this.broadcast,
    });
  }

  /** BroadcastNoteSink: what the live broadcast says of a round's boards; the boards it changed go out at once. */
  broadcastNotes(notes: BroadcastRoundNotes): void {
    this.views.tell(this.broadcast.take(notes).map((b) => boardIdOf(b.event, b.board)));
  }

  // ---- events in -------------------------------------------------------------------

  /** Journals one clock event; when new, updates the live state and notifies listeners. */
  append(input: ClockEventInput): AppendResult {
    return this.appendMany([input])[0];
  }

  /** Journals events in one transaction (one fsync), then notifies for the new ones. */
  appendMany(inputs: readonly ClockEventInput[]): AppendResult[] {
    const results = this.journal.appendMany(inputs);
    for (const r of results) if (r.row) this.notify(r.row);
    return results;
  }

  /**
   * Journals a batch in one transaction, committed on the journal's writer thread when it has
   * one (Journal.appendInBackground). The listeners hear of the new events by `feed()`, which
   * the caller calls once `durable` resolved (the host acknowledges the clocks first, then feeds:
   * a big batch's feed is the longer work), so the feed never shows what the journal could
   * still lose.
   */
  appendInBackground(items: readonly BackgroundAppend[]): BackgroundBatch & { feed(): void } {
    const batch = this.journal.appendInBackground(items);
    return {
      ...batch,
      feed: () => {
        for (const r of batch.results) if (!(r instanceof Error) && r.row) this.notify(r.row);
      },
    };
  }

  /** A new journaled event: into its game's live state, then to the listeners with its board's view. */
  private notify(row: ClockEventRow): void {
    const record = recordFromJournalRow(row);
    let view: BoardView | undefined;
    if (row.gameId !== null) {
      const game = this.journal.getGame(row.gameId);
      if (record) this.live.journaled(row, record, game);
      if (game) view = this.views.viewOf(game);
    }
    if (!record) return; // no game: not on any board
    for (const l of this.listeners) l(record, view);
  }

  // ---- HostState -------------------------------------------------------------------

  boards(): readonly BoardView[] {
    return this.views.boards();
  }

  board(id: string): BoardView | undefined {
    return this.views.board(id);
  }

  /** The board's current game, or game `gameNo` of its current round, and its journaled events (the time chart's source). */
  boardGame(id: string, gameNo?: number): BoardGameJournal | undefined {
    const current = this.views.gameOf(id);
    const game =
      gameNo === undefined || current?.gameNo === gameNo
        ? current
        : current && this.journal.gamesByRound(current.event, current.round).find((g) => g.board === current.board && g.gameNo === gameNo);
    if (!game) return undefined;
    const events = this.journal.eventsByGame(game.gameId);
    return {
      gameId: game.gameId,
      gameNo: game.gameNo,
      event: game.event,
      round: game.round,
      board: game.board,
      white: game.white,
      black: game.black,
      timeControl: game.timeControlValue,
      events,
      lastEventId: events.at(-1)?.id ?? 0,
    };
  }

  events(q: EventQuery): EventPage {
    const after = q.after === undefined ? 0 : Number(q.after);
    const ids = this.journal.eventIdPage({ after, event: q.event, round: q.round, board: q.board, clockId: q.clockId, limit: q.limit });
    const events: ClockEventRecord[] = [];
    for (const id of ids) {
      const row = this.journal.eventsAfter(id - 1, 1)[0];
      const r = row && recordFromJournalRow(row);
      if (r) events.push(r);
    }
    return { events, next: ids.length === q.limit ? String(ids.at(-1)!) : null };
  }

  /**
   * The journal's events after a journal sequence (better-sqlite3 is synchronous: the head and
   * the page are read with no write between them, so `next: null` means nothing up to `head` is left).
   */
  journalEvents(q: JournalRangeQuery): JournalRange {
    // Both read what the host knows durable (Journal.visibleEventId): not a batch the writer thread is committing.
    const head = this.journal.headEventId();
    const ids = this.journal.eventIdPage({ after: q.after, event: q.event, round: q.round, board: q.board, limit: q.limit });
    const events: ClockEventRecord[] = [];
    for (const id of ids) {
      const row = this.journal.eventsAfter(id - 1, 1)[0];
      const r = row && recordFromJournalRow(row);
      if (r) events.push(r);
    }
    return { events, next: ids.length === q.limit ? ids.at(-1)! : null, head };
  }

  private events_(): string[] {
    return [...new Set(this.journal.boardStates().map((s) => s.event))];
  }

  matches(): readonly MatchView[] {
    // The lots drawn for each match's colours (director.ts `draw-lot`): shown with the match.
    const lots = new Map<string, LotView[]>();
    for (const a of this.journal.arbiterActions()) {
      if (a.action !== 'draw-lot' || a.outcome !== 'applied') continue;
      const p = a.payload as { matchId: string; stage: LotView['stage']; white: string; whiteRank: number; source: LotView['source'] };
      lots.set(p.matchId, [
        ...(lots.get(p.matchId) ?? []),
        { stage: p.stage, white: p.white, whiteRank: p.whiteRank, source: p.source, by: a.arbiter, atUtcMs: a.utcMs },
      ]);
    }
    // Colours from the file's seed (a rehearsal) are journaled only with the game they made
    // (`draw-colours`, source `seed`): shown too, so that a rehearsal shows what the hall will see.
    for (const a of this.journal.arbiterActions()) {
      if (a.action !== 'draw-colours' || a.outcome !== 'applied') continue;
      const p = a.payload as { matchId: string; gameNo: number; stage: string; white: string; source?: string };
      if (p.source !== 'seed') continue;
      const game = this.journal.gamesByMatch(p.matchId).find((g) => g.gameNo === p.gameNo);
      if (!game || game.whiteRank === null) continue;
      const stage: LotView['stage'] = p.stage === 'armageddon' ? 'armageddon' : 'classical';
      lots.set(p.matchId, [
        ...(lots.get(p.matchId) ?? []),
        { stage, white: p.white, whiteRank: game.whiteRank, source: 'seed', by: a.arbiter, atUtcMs: a.utcMs },
      ]);
    }
    // While a match is not decided, with the break before its next game.
    return this.events_().flatMap((e) =>
      this.journal.matchesByEvent(e).map((m) => this.views.matchWithBreak({ id: m.matchId, ...m, lots: lots.get(m.matchId) ?? [] })),
    );
  }

  /**
   * Every game's result, with the clocks' reports that differ from it (`conflicts`), and the
   * results of clocks that had no game (`unassigned`, whatever the round: docs/api.md).
   */
  results(round?: number): readonly ResultView[] {
    const pending = this.views.pendingByGame();
    const games: ResultView[] = this.events_().flatMap((event) =>
      (round === undefined ? this.journal.gamesByEvent(event) : this.journal.gamesByRound(event, round)).map((g) => ({
        event: g.event,
        round: g.round,
        board: g.board,
        white: g.white,
        black: g.black,
        result: g.result,
        confirmed: g.confirmedBy !== null,
        by: g.confirmedBy !== null ? `arbiter:${g.confirmedBy}` : g.reportedBy,
        reportedUtcMs: g.reportedUtcMs,
        conflicts: (pending.get(g.gameId) ?? []).map(reportedView),
      })),
    );
    const unassigned: ResultView[] = (pending.get(null) ?? []).map((r) => ({
      event: '',
      round: 0,
      board: 0,
      white: null,
      black: null,
      result: r.result,
      confirmed: false,
      by: r.reportedBy,
      reportedUtcMs: r.utcMs,
      conflicts: [],
      unassigned: reportedView(r),
    }));
    return [...games, ...unassigned];
  }

  /** Standings of an individual or team event after `round` (journal-standings.ts); refusals throw ExportRefusedError. */
  standings(event: string, round?: number): StandingsView {
    if (!this.hall) throw new ExportRefusedError('this host has no tournament file: no standings');
    return journalStandings(this.journal, this.hall, event, round);
  }

  /** Whether the host can do its work: the journal's storage (docs/api.md, GET /api/health). */
  health(): HostHealth {
    const journal = this.journal.storage.current;
    return { ok: journal.ok, journal };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Boards whose view changed with no feed event carrying it (board-views.ts): a clock connected
   * or was lost, a clock's result was filed after its event went out, a clock was restored, an
   * arbiter's command was accepted (with every board whose appeal deadline it moved), a round opened.
   */
  watchBoards(listener: BoardListener): () => void {
    return this.views.watch(listener);
  }

  /** The boards `ids` changed by the host's own doing (a round opened): told to the watchers now. */
  boardsChanged(ids: readonly string[]): void {
    this.views.tell(ids);
  }

  // ---- CommandSink -----------------------------------------------------------------

  async execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome> {
    const game = this.views.gameOf(command.boardId);
    if (!game) return { ok: false, status: 404, reason: `no board "${command.boardId}"` };
    const where = `board ${game.board} of ${game.event} round ${game.round}`;
    const utcMs = this.nowUtcMs();
    const outcome =
      command.type === 'result' || command.type === 'confirm-result'
        ? this.executeResultCommand(command, actor, game, where, utcMs)
        : await this.executeClockCommand(command, actor, game, where, utcMs);
    if (outcome.ok) this.tellCommandBoards(command, outcome.board ?? this.views.board(command.boardId));
    return outcome;
  }

  /** An accepted command's board, and every board of its round whose appeal deadline it moved, to the watchers. */
  private tellCommandBoards(command: ArbiterCommand, board: BoardView | undefined): void {
    if (!board) return;
    this.views.tell([board.id, ...boardsWithNewAppealDeadline(command, board, this.views.boards()).map((b) => b.id)]);
  }

  /** An arbiter enters, confirms or corrects the board's result: checked, then journaled with the board's state. */
  private executeResultCommand(
    command: Extract<ArbiterCommand, { type: 'result' | 'confirm-result' }>,
    actor: Actor,
    game: GameRow,
    where: string,
    utcMs: number,
  ): CommandOutcome {
    const refused = (status: 409 | 422, reason: string): CommandOutcome => {
      this.record(command, actor, game, utcMs, 'rejected', reason);
      return { ok: false, status, reason };
    };
    // Which clock report a confirmation adopts (FIDE Laws 8.7: the arbiter decides between results).
    let reportId: number | undefined;
    if (command.type === 'confirm-result') {
      if (command.report !== undefined) reportId = command.report;
      else if (command.result !== undefined && command.result !== game.result) {
        const named = this.journal.resultReports({ gameId: game.gameId }).find((r) => r.status === 'pending' && r.result === command.result);
        if (!named) {
          const recorded = game.result === null ? 'no result is recorded' : `the result is ${game.result}`;
          return refused(
            409,
            `${where}: no clock reported ${command.result} for this game (${recorded}): to record ${command.result}, correct the result (PUT /api/boards/${command.boardId}/result)`,
          );
        }
        reportId = named.id;
      }
    }
    // Entering a result over one recorded, or adopting a report over it, is a correction.
    const correction = game.result !== null && (command.type === 'result' || reportId !== undefined);
    const refusal = correction ? this.correctionRefusal(game, where) : null;
    if (refusal !== null) return refused(409, refusal);
    const reason = command.reason?.trim() || undefined;
    if (correction && game.confirmedBy !== null && reason === undefined) {
      // FIDE Laws 8.7: the arbiter may change a confirmed result, and says why (kept for an appeal).
      return refused(422, correctionNeedsReason(this.withResult(game, command.boardId)));
    }
    try {
      // The journal records the arbiter with the result in the same transaction, and the
      // board's retained state (now `finished`) with it: no clock event has to follow.
      this.journal.transaction(() => {
        if (command.type === 'result') {
          this.journal.reportResult(game.gameId, {
            result: command.result as GameResult,
            how: 'arbiter',
            source: 'arbiter',
            arbiter: actor.arbiter,
            utcMs,
            reason,
          });
        } else {
          this.journal.confirmResult(game.gameId, actor.arbiter, utcMs, { reportId, reason });
        }
        this.draftBoardState(game.gameId);
      });
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      return refused(err.field === 'result' || err.field === 'report' ? 409 : 422, err.message);
    }
    return { ok: true, board: this.board(command.boardId) };
  }

  /** A command for the board's clock: refused on a finished game or in the wrong state, else sent to the clock and journaled. */
  private async executeClockCommand(command: ArbiterCommand, actor: Actor, game: GameRow, where: string, utcMs: number): Promise<CommandOutcome> {
    if (!CLOCK_COMMAND_TYPES.has(command.type)) return { ok: false, status: 422, reason: `unknown command "${command.type}"` };
    if (game.result !== null) {
      // FIDE Laws 5.1 / 5.2: the result ended the game; a change goes through a correction of the result.
      const reason = finishedGameRefusal(command.type, this.withResult(game, command.boardId));
      this.record(command, actor, game, utcMs, 'rejected', reason);
      return { ok: false, status: 409, reason };
    }
    const live = this.live.of(game);
    const status = live?.status ?? 'ready';
    // The control in force (a correction's, else the configured one): no quickplay finish in blitz (FIDE Guidelines III.2.2).
    const refusal = clockCommandRefusal(command.type, status, live !== null, where, { timeControl: live?.clock?.control ?? game.timeControlValue });
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
    const until = this.views.appealUntil(game);
    if (until !== undefined && until !== null && this.nowUtcMs() >= until) {
      const rule = this.views.appealRule(game.event)!;
      return `${where}: the result ${game.result} is final: the appeal time (${rule.minutes} minutes after the ${rule.from === 'result' ? "arbiter's decision" : 'round'}) ended at ${new Date(until).toISOString()} (docs/regulations.md)`;
    }
    if (game.matchId === null) return null;
    const match = this.journal.getMatch(game.matchId);
    if (match?.status === 'decided') {
      return `${where}: game ${game.gameNo} (${game.result}) cannot be corrected: the match was already decided on it (${match.winner} wins, ${match.decidedBy})`;
    }
    return null;
  }

  private withResult(game: GameRow, boardId: string): BoardWithResult {
    return { id: boardId, event: game.event, round: game.round, board: game.board, result: game.result ?? '', confirmedBy: game.confirmedBy };
  }

  /**
   * Drafts the board's live state into the journal's outbox (inside the caller's transaction):
   * the retained MQTT `state` (host/adapters/mqtt/journal-topics.ts 'board-state') after a result,
   * which no clock event carries. A game whose clock reported nothing has no state to draft.
   */
  private draftBoardState(gameId: number): void {
    const game = this.journal.getGame(gameId);
    const live = game && this.live.ofBoard(game);
    if (!game || !live) return;
    const draft: BoardStateDraft = { event: game.event, round: game.round, board: game.board, live };
    this.journal.enqueue('board-state', draft, this.nowUtcMs());
  }

  /**
   * Files the result a clock's journaled `result` event carries (the players keyed it in and
   * both confirmed it with their levers, or an arbiter keyed it at the clock), against the game
   * the clock played: recorded as the game's result when it has none; when it has one, filed
   * beside it (pending for the arbiter when it differs, agreed when the same); a clock with no
   * game at all gets an unassigned report. Never only a log line.
   */
  fileClockResult(eventRowId: number): ClockResultFiling {
    const row = this.journal.eventsAfter(eventRowId - 1, 1)[0];
    const keyed = row?.detail?.result;
    if (!row || row.type !== 'result' || typeof keyed !== 'string') {
      return { outcome: 'refused', log: `clock event ${eventRowId}: not a result the host can file` };
    }
    // The journal places a clock's late result after its game ended in no game
    // (Journal.gameOfClockEvent): it belongs to the game the clock last played.
    const game = row.gameId !== null ? this.journal.getGame(row.gameId) : this.journal.playedGameOfClock(row.clockId);
    const events = game ? this.journal.eventsByGame(game.gameId).filter((e) => e.type !== 'result') : [];
    const last = events.at(-1);
    let result = keyed as GameResult;
    let how = last?.type === 'flag' ? 'flag' : 'played';
    // FIDE Laws 6.7.1: a player absent at the default time loses by forfeit, and when neither
    // came both lose (`--`); the game was not played (TRF `+`/`-`, not 1/0), whatever was keyed
    // into the clock.
    const absent = forfeitedSides(events);
    if (absent.length > 0) {
      result = forfeitResultFor(absent.length === 2 ? 'both' : absent[0]);
      how = 'forfeit-lateness';
    }
    // An arbiter who keyed the result in at the clock reports it as an arbiter (still to be confirmed).
    const source =
      row.detail?.confirmedBy === 'arbiter'
        ? ({ source: 'arbiter', arbiter: `at the clock ${row.clockId}` } as const)
        : ({ source: 'clock', bothPlayersConfirmed: true } as const);
    let filed: ClockResultOutcome;
    try {
      filed = this.journal.transaction(() => {
        const out = this.journal.fileClockResult({
          eventId: row.id,
          clockId: row.clockId,
          gameId: game?.gameId ?? null,
          result,
          how,
          ...source,
          utcMs: row.utcMs,
          endedUtcMs: last?.utcMs ?? row.utcMs,
        });
        if (out.outcome !== 'duplicate' && out.game) this.draftBoardState(out.game.gameId);
        return out;
      });
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      return { outcome: 'refused', log: `clock ${row.clockId}: result ${result} not recorded: ${err.message}` };
    }
    const g = filed.game;
    if (filed.outcome !== 'pending') return { outcome: filed.outcome, log: null };
    if (g === null) {
      return {
        outcome: 'pending',
        log: `clock ${row.clockId}: result ${result} for no game (the clock is assigned to none): kept as unassigned result ${filed.report.id} for the arbiter (GET /api/results)`,
      };
    }
    const state = g.confirmedBy !== null ? `confirmed by ${g.confirmedBy}` : 'not confirmed yet';
    return {
      outcome: 'pending',
      log: `clock ${row.clockId}: result ${result} for board ${g.board} of ${g.event} round ${g.round} differs from the recorded ${g.result} (${g.reportedBy}, ${state}): pending result ${filed.report.id} waits for the arbiter`,
    };
  }

  private record(command: ArbiterCommand, actor: Actor, game: GameRow, utcMs: number, outcome: 'applied' | 'rejected', reason: string | null): void {
    const { type, boardId: _boardId, ...rest } = command;
    // A corrected control is journaled in the journal's form of a control (the tournament file's, read back whole).
    const payload = command.type === 'set-control' ? { timeControl: timeControlSpec(command.timeControl) } : rest;
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

// The host ports (HostState, CommandSink) over the SQLite journal: what `chessclock host`
// hands to `buildApi`. Clock events enter through `append`, which journals them (durable
// when it returns) and then feeds the live listeners (WebSocket feed, MQTT state) — so the
// feed never shows an event the journal could still lose.
//
// Arbiter writes: results and confirmations are journal facts (the journal records the
// arbiter with them); clock commands (configure, start, pause, resume, adjust, penalty, set-moves,
// arrive, takeback, reinstate, increment, delay, set-turn, set-control) are checked
// against the board's live state, handed to the clock through `commander` (the lead's
// session layer, which answers with the clock's ACK/NACK), and journaled as arbiter actions
// with their outcome. A refused command changes nothing.
//
// A result closes the game everywhere (host/app/result-rules.ts): the board's live state says
// `finished` once its game has a result, however it came (entered here, keyed at the clock,
// corrected), the retained MQTT state with it (drafted in the result's own transaction), no
// clock command reaches the game any more, and a clock's result that differs from the recorded
// one waits for the arbiter beside it (`pendingResults`), never only in a log.
import { appealDeadline, type AppealRule } from '../domain/appeal.ts';
import { createHash } from 'node:crypto';
import { JournalError, type BackgroundAppend, type BackgroundBatch, type Journal } from '../store/journal.ts';
import type { AppendResult, ClockEventInput, ClockEventRow, ClockResultOutcome, GameRow, ResultReportRow } from '../store/types.ts';
import { forfeitedSides, recordFromJournalRow, type BoardStateDraft } from './journal-records.ts';
import { CLOCK_COMMAND_TYPES, correctionNeedsReason, finishedGameRefusal, finishedLive, type BoardWithResult } from './result-rules.ts';
import { LiveGame } from './live-state.ts';
import { clockCommandRefusal } from '../../rules/command-rules.ts';
import { forfeitResultFor, RESULT_MEANING, type GameResult } from '../../rules/vocabulary.ts';
import type { Hall } from '../domain/model.ts';
import { timeControlSpec } from '../../protocol/time-control.ts';
import type {
  Actor,
  ArbiterCommand,
  BoardGameJournal,
  BoardView,
  ClockEventRecord,
  CommandOutcome,
  CommandSink,
  EventPage,
  EventQuery,
  JournalRange,
  JournalRangeQuery,
  HostState,
  LiveClockState,
  MatchScoreView,
  LotView,
  MatchView,
  ReportedResultView,
  ResultView,
} from './ports.ts';

/** Delivers an accepted clock command to the board's clock and reports the clock's answer. */
export type ClockCommander = (command: ArbiterCommand, game: GameRow) => Promise<CommandOutcome>;

export interface JournalPortsOptions {
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


const CLOCK_COMMANDS = CLOCK_COMMAND_TYPES;

/** A clock's report as the API shows it. */
/**
 * What a game's live state was built for: the whole control, default time (FIDE Laws 6.7.1) and
 * increment timing included. Its written form (`game.timeControl`, "40/5400+30:900+30") leaves
 * both out, so a board set up anew with only another default time would keep the old state.
 */
function controlKey(game: GameRow): string {
  return JSON.stringify(game.timeControlValue);
}

function reportedView(r: ResultReportRow): ReportedResultView {
  return { id: r.id, result: r.result, by: r.reportedBy, clockId: r.clockId, atUtcMs: r.utcMs };
}

/** What a clock's result did, for the host's log (null: nothing worth a line). */
export interface ClockResultFiling {
  readonly outcome: ClockResultOutcome['outcome'] | 'refused';
  readonly log: string | null;
}

export class JournalPorts implements HostState, CommandSink {
  readonly journal: Journal;
  private readonly nowUtcMs: () => number;
  private readonly commander: ClockCommander | undefined;
  private readonly eventNames = new Map<string, string>();
  private readonly listeners = new Set<Listener>();
  /** Live state per game: its events run through the statechart (filled lazily, then fed each new event). */
  private readonly live = new Map<number, { game: LiveGame; control: string; boots: Set<string>; boot: string | null; lastId: number }>();
  private idIndex = new Map<string, { event: string; board: number }>();

  /** The events' appeal windows (tournament file `appeal`). */
  private readonly appeals = new Map<string, AppealRule>();

  /** The appeal deadline of a game's confirmed result (null: not running yet), or undefined where the event states no window. */
  private appealUntil(game: GameRow): number | null | undefined {
    const rule = this.appeals.get(game.event);
    if (!rule) return undefined;
    if (game.confirmedUtcMs === null) return null;
    return appealDeadline(rule, game, rule.from === 'round-end' ? this.journal.gamesByRound(game.event, game.round) : []);
  }

  constructor(opts: JournalPortsOptions) {
    this.journal = opts.journal;
    this.nowUtcMs = opts.nowUtcMs;
    this.commander = opts.commander;
    for (const e of opts.hall?.events ?? []) {
      this.eventNames.set(e.id, e.name);
      if (e.appeal) this.appeals.set(e.id, e.appeal);
    }
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

  private notify(row: ClockEventRow): void {
    const record = recordFromJournalRow(row);
    let view: BoardView | undefined;
    if (row.gameId !== null) {
      const game = this.journal.getGame(row.gameId);
      const live = this.live.get(row.gameId);
      if (live && record) {
        const boot = `${record.clockId}/${record.bootId}`;
        // An event of an earlier boot arriving late (its outbox), or a control changed since:
        // the journal's order is not this arrival order, so the game is rebuilt from the journal.
        // Already in it (row.id ≤ lastId): the state was built from the journal after the writer
        // thread committed this event and before the host heard so.
        const control = game ? controlKey(game) : null;
        if (row.id <= live.lastId && control === live.control) {
          // nothing to feed
        } else if ((boot !== live.boot && live.boots.has(boot)) || control !== live.control) this.dropLive(row.gameId);
        else {
          live.lastId = row.id;
          live.boots.add(boot);
          live.boot = boot;
          live.game.feed(record);
        }
      }
      if (game) view = this.viewOf(game);
    }
    if (!record) return; // no game: not on any board
    for (const l of this.listeners) l(record, view);
  }

  // ---- HostState -------------------------------------------------------------------

  private liveOf(game: GameRow): LiveClockState | null {
    const gameId = game.gameId;
    let live = this.live.get(gameId);
    const control = controlKey(game);
    if (!live || live.control !== control) {
      this.dropLive(gameId);
      live = { game: new LiveGame(game.timeControlValue), control, boots: new Set(), boot: null, lastId: 0 };
      for (const row of this.journal.eventsByGame(gameId)) {
        live.lastId = Math.max(live.lastId, row.id);
        const r = recordFromJournalRow(row);
        if (!r) continue;
        live.boot = `${r.clockId}/${r.bootId}`;
        live.boots.add(live.boot);
        live.game.feed(r);
      }
      this.live.set(gameId, live);
    }
    return live.game.state;
  }

  private dropLive(gameId: number): void {
    this.live.get(gameId)?.game.stop();
    this.live.delete(gameId);
  }

  /**
   * The board's live state: the clock's, and `finished` once the game has a result, however it
   * came (FIDE Laws 5.1 / 5.2: the result ends the game). A result entered at the host is not
   * a clock event (the clock does not echo ENTER_RESULT), and a clock that was offline may have
   * run on: the times stay the clock's last reported ones and nobody's clock runs.
   */
  private boardLive(game: GameRow): LiveClockState | null {
    return finishedLive(game.result, this.liveOf(game));
  }

  private viewOf(game: GameRow, pending?: readonly ResultReportRow[]): BoardView {
    const id = boardIdOf(game.event, game.board);
    this.idIndex.set(id, { event: game.event, board: game.board });
    const conflicts = pending ?? this.journal.resultReports({ gameId: game.gameId }).filter((r) => r.status === 'pending');
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
      live: this.boardLive(game),
      result: game.result,
      resultConfirmed: game.confirmedBy !== null,
      ...this.appealFields(game),
      startsAtUtcMs: game.earliestStartUtcMs,
      game: { no: game.gameNo, kind: game.kind, matchId: game.matchId },
      defaultTimeMs: game.timeControlValue.defaultTimeMs,
      ...(game.matchId !== null ? { match: this.matchScoreOf(game, game.matchId) } : {}),
      ...(conflicts.length > 0 ? { pendingResults: conflicts.map(reportedView) } : {}),
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

  boards(): readonly BoardView[] {
    // One read of the pending reports for every board, not one per board.
    const pending = this.pendingByGame();
    return this.journal.boardStates().map((s) => this.viewOf(s.game, pending.get(s.game.gameId) ?? []));
  }

  private pendingByGame(): Map<number | null, ResultReportRow[]> {
    const byGame = new Map<number | null, ResultReportRow[]>();
    for (const r of this.journal.resultReports({ pending: true })) byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), r]);
    return byGame;
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

  /** The board's current game, or game `gameNo` of its current round, and its journaled events (the time chart's source). */
  boardGame(id: string, gameNo?: number): BoardGameJournal | undefined {
    const current = this.currentGame(id);
    const game = gameNo === undefined || current?.gameNo === gameNo ? current : current && this.journal.gamesByRound(current.event, current.round).find((g) => g.board === current.board && g.gameNo === gameNo);
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
      lots.set(p.matchId, [...(lots.get(p.matchId) ?? []), { stage: p.stage, white: p.white, whiteRank: p.whiteRank, source: p.source, by: a.arbiter, atUtcMs: a.utcMs }]);
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
      lots.set(p.matchId, [...(lots.get(p.matchId) ?? []), { stage, white: p.white, whiteRank: game.whiteRank, source: 'seed', by: a.arbiter, atUtcMs: a.utcMs }]);
    }
    return this.events_().flatMap((e) => this.journal.matchesByEvent(e).map((m) => ({ id: m.matchId, ...m, lots: lots.get(m.matchId) ?? [] })));
  }

  /**
   * Every game's result, with the clocks' reports that differ from it (`conflicts`), and the
   * results of clocks that had no game (`unassigned`, whatever the round: docs/api.md).
   */
  results(round?: number): readonly ResultView[] {
    const pending = this.pendingByGame();
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
      event: '', round: 0, board: 0, white: null, black: null, result: r.result, confirmed: false, by: r.reportedBy,
      reportedUtcMs: r.utcMs, conflicts: [], unassigned: reportedView(r),
    }));
    return [...games, ...unassigned];
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
            return refused(409, `${where}: no clock reported ${command.result} for this game (${recorded}): to record ${command.result}, correct the result (PUT /api/boards/${command.boardId}/result)`);
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
            this.journal.reportResult(game.gameId, { result: command.result as GameResult, how: 'arbiter', source: 'arbiter', arbiter: actor.arbiter, utcMs, reason });
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

    if (!CLOCK_COMMANDS.has(command.type)) return { ok: false, status: 422, reason: `unknown command "${command.type}"` };
    if (game.result !== null) {
      // FIDE Laws 5.1 / 5.2: the result ended the game; a change goes through a correction of the result.
      const reason = finishedGameRefusal(command.type, this.withResult(game, command.boardId));
      this.record(command, actor, game, utcMs, 'rejected', reason);
      return { ok: false, status: 409, reason };
    }
    const live = this.liveOf(game);
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
  private appealFields(game: GameRow): { appealUntilUtcMs?: number | null; resultFinal?: boolean } {
    const until = this.appealUntil(game);
    if (until === undefined) return {};
    return { appealUntilUtcMs: until, resultFinal: until !== null && this.nowUtcMs() >= until };
  }

  private correctionRefusal(game: GameRow, where: string): string | null {
    const until = this.appealUntil(game);
    if (until !== undefined && until !== null && this.nowUtcMs() >= until) {
      const rule = this.appeals.get(game.event)!;
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
    const live = game && this.boardLive(game);
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
    const source = row.detail?.confirmedBy === 'arbiter'
      ? ({ source: 'arbiter', arbiter: `at the clock ${row.clockId}` } as const)
      : ({ source: 'clock', bothPlayersConfirmed: true } as const);
    let filed: ClockResultOutcome;
    try {
      filed = this.journal.transaction(() => {
        const out = this.journal.fileClockResult({ eventId: row.id, clockId: row.clockId, gameId: game?.gameId ?? null, result, how, ...source, utcMs: row.utcMs, endedUtcMs: last?.utcMs ?? row.utcMs });
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
      return { outcome: 'pending', log: `clock ${row.clockId}: result ${result} for no game (the clock is assigned to none): kept as unassigned result ${filed.report.id} for the arbiter (GET /api/results)` };
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

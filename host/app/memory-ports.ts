// An in-memory implementation of the host ports (HostState, CommandSink, ExportSource)
// for tests and the API benchmark. The real host backs the same ports
// with the SQLite journal; this one keeps everything in arrays and maps but follows the
// same contract: events are idempotent on (clockId, bootId, seq), every arbiter command is
// recorded with who issued it, and a refused command changes nothing.
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
  HostState,
  MatchScoreView,
  MatchView,
  PlayerView,
  RestoreView,
  ResultView,
} from './ports.ts';
import { LiveGame } from './live-state.ts';
import { CLOCK_COMMAND_TYPES, correctionNeedsReason, finishedGameRefusal, finishedLive, type BoardWithResult } from './result-rules.ts';
import { boardCommandRefusal, commandPlace } from '../../rules/command-rules.ts';
import { isGameResult } from '../../rules/vocabulary.ts';
import { formatTimeControl, readTimeControlSpec, TimeControlError, type TimeControl } from '../../protocol/time-control.ts';

export interface BoardSetup {
  readonly id: string;
  readonly event: string;
  readonly round: number;
  readonly board: number;
  readonly clockId?: string | null;
  readonly white?: PlayerView | null;
  readonly black?: PlayerView | null;
  readonly timeControl?: string | null;
  readonly startsAtUtcMs?: number | null;
  readonly game?: BoardView['game'];
  /**
   * The game's full control (periods, default time). Default: `timeControl` read back with
   * the one spec reader (`readTimeControlSpec`: the `formatTimeControl` form or a preset) and `defaultTimeMs`.
   */
  readonly control?: TimeControl | null;
  /** FIDE Laws 6.7.1 default time of the game (overrides the control's). */
  readonly defaultTimeMs?: number | null;
  /** The knockout mini-match the board's game belongs to. */
  readonly match?: MatchScoreView;
}

export interface RecordedCommand {
  readonly command: ArbiterCommand;
  readonly arbiter: string;
  readonly outcome: 'applied' | 'rejected';
  readonly reason: string | null;
  /** For a result: the result it replaced (a correction), or null when there was none. */
  readonly previous?: string | null;
}

type Listener = (event: ClockEventRecord, board: BoardView | undefined) => void;

/** Forwards an accepted command towards the clock (in tests: a simulated clock). */
export type CommandForwarder = (command: ArbiterCommand, board: BoardView) => void;

export class MemoryPorts implements HostState, CommandSink {
  private readonly boardById = new Map<string, BoardView>();
  private readonly boardByClock = new Map<string, string>();
  private readonly log: ClockEventRecord[] = [];
  private readonly keys = new Set<string>();
  private readonly listeners = new Set<Listener>();
  /** Each board's control as the clock plays it (gives periods and whether presence is tracked). */
  private readonly controls = new Map<string, TimeControl | null>();
  /** Each board's game run through the statechart as its clock reports it (live-state.ts). */
  private readonly games = new Map<string, LiveGame>();
  /** Each board's current game as journaled here: its number in this host, and its events with their place in the log. */
  private readonly gameLogs = new Map<string, { gameId: number; events: { record: ClockEventRecord; at: number }[] }>();
  private gamesMade = 0;
  /** The audit trail: every arbiter command, applied or refused, with who issued it. */
  readonly commands: RecordedCommand[] = [];
  readonly matchList: MatchView[] = [];
  forward: CommandForwarder | null = null;

  addBoard(setup: BoardSetup): BoardView {
    if (this.boardById.has(setup.id)) throw new Error(`board id "${setup.id}" already exists`);
    let control = setup.control ?? null;
    if (control === null && setup.timeControl) {
      try {
        control = readTimeControlSpec(setup.timeControl).timeControl;
      } catch (err) {
        if (!(err instanceof TimeControlError)) throw err;
        throw new Error(`board "${setup.id}": timeControl "${setup.timeControl}": ${err.message}`);
      }
    }
    const defaultTimeMs = setup.defaultTimeMs !== undefined ? setup.defaultTimeMs : (control?.defaultTimeMs ?? null);
    if (control !== null) control = { ...control, defaultTimeMs };
    this.controls.set(setup.id, control);
    this.games.get(setup.id)?.stop();
    this.games.delete(setup.id);
    this.gameLogs.delete(setup.id);
    const view: BoardView = {
      id: setup.id,
      event: setup.event,
      round: setup.round,
      board: setup.board,
      clockId: setup.clockId ?? null,
      white: setup.white ?? null,
      black: setup.black ?? null,
      timeControl: setup.timeControl ?? (control ? formatTimeControl(control) : null),
      live: null,
      result: null,
      resultConfirmed: false,
      startsAtUtcMs: setup.startsAtUtcMs ?? null,
      ...(setup.game ? { game: setup.game } : {}),
      defaultTimeMs,
      ...(setup.match ? { match: setup.match } : {}),
    };
    this.boardById.set(view.id, view);
    if (view.clockId) this.boardByClock.set(view.clockId, view.id);
    return view;
  }

  /** Journals one clock event (a duplicate key is ignored) and feeds the listeners. */
  ingest(e: ClockEventRecord): boolean {
    const key = `${e.clockId}\u0000${e.bootId}\u0000${e.seq}`;
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    this.log.push(e);
    const id = this.boardByClock.get(e.clockId);
    let view: BoardView | undefined;
    if (id !== undefined) {
      const prev = this.boardById.get(id)!;
      let game = this.games.get(id);
      if (!game) this.games.set(id, (game = new LiveGame(this.controls.get(id) ?? null)));
      let gameLog = this.gameLogs.get(id);
      if (!gameLog) this.gameLogs.set(id, (gameLog = { gameId: ++this.gamesMade, events: [] }));
      gameLog.events.push({ record: e, at: this.log.length });
      view = { ...prev, live: finishedLive(prev.result, game.feed(e)) };
      this.boardById.set(id, view);
    }
    for (const l of this.listeners) l(e, view);
    return true;
  }

  /** Sets (or, with null, removes) the mini-match a board shows (the director's part in the real host). */
  setMatch(id: string, match: MatchScoreView | null): BoardView {
    const board = this.boardById.get(id);
    if (!board) throw new Error(`no board "${id}"`);
    const { match: _old, ...rest } = board;
    const next: BoardView = match ? { ...rest, match } : rest;
    this.boardById.set(id, next);
    return next;
  }

  /** Sets (or, with null, removes) the board's last restore from the journal (the real host's restore-clock.ts part). */
  setRestore(id: string, restore: RestoreView | null): BoardView {
    const board = this.boardById.get(id);
    if (!board) throw new Error(`no board "${id}"`);
    const { restore: _old, ...rest } = board;
    const next: BoardView = restore ? { ...rest, restore } : rest;
    this.boardById.set(id, next);
    return next;
  }

  boards(): readonly BoardView[] {
    return [...this.boardById.values()];
  }

  board(id: string): BoardView | undefined {
    return this.boardById.get(id);
  }

  /**
   * The board's current game (since its board was added or last configured) with its events, as
   * the journal-backed host gives it; undefined for an unknown board or one with no known control.
   */
  boardGame(id: string, gameNo?: number): BoardGameJournal | undefined {
    const board = this.boardById.get(id);
    const control = this.controls.get(id);
    // Only the current game is kept here.
    if (!board || !control || (gameNo !== undefined && gameNo !== (board.game?.no ?? 1))) return undefined;
    const gameLog = this.gameLogs.get(id) ?? { gameId: 0, events: [] };
    return {
      gameId: gameLog.gameId,
      gameNo: board.game?.no ?? 1,
      event: board.event,
      round: board.round,
      board: board.board,
      white: board.white?.name ?? '',
      black: board.black?.name ?? '',
      timeControl: control,
      // A record without times (none is journaled so) reads 0, as live-state.ts feeds it.
      events: gameLog.events.map(({ record: e }) => ({ ...e, whiteMs: e.whiteMs ?? 0, blackMs: e.blackMs ?? 0, detail: e.detail ?? null })),
      lastEventId: gameLog.events.at(-1)?.at ?? 0,
    };
  }

  events(q: EventQuery): EventPage {
    // The cursor is the position in the journal (the real journal uses its row id).
    const start = q.after === undefined ? 0 : Number(q.after);
    const out: ClockEventRecord[] = [];
    let i = start;
    for (; i < this.log.length && out.length < q.limit; i++) {
      const e = this.log[i];
      if (q.event !== undefined && e.event !== q.event) continue;
      if (q.round !== undefined && e.round !== q.round) continue;
      if (q.board !== undefined && e.board !== q.board) continue;
      if (q.clockId !== undefined && e.clockId !== q.clockId) continue;
      out.push(e);
    }
    return { events: out, next: out.length === q.limit && i < this.log.length ? String(i) : null };
  }

  matches(): readonly MatchView[] {
    return this.matchList;
  }

  results(round?: number): readonly ResultView[] {
    return this.boards()
      .filter((b) => round === undefined || b.round === round)
      .map((b) => {
        const last = [...this.commands].reverse().find((c) => c.outcome === 'applied' && c.command.boardId === b.id && (c.command.type === 'result' || c.command.type === 'confirm-result'));
        return {
          event: b.event,
          round: b.round,
          board: b.board,
          white: b.white?.name ?? null,
          black: b.black?.name ?? null,
          result: b.result,
          confirmed: b.resultConfirmed,
          by: last ? `arbiter:${last.arbiter}` : null,
          // Results reported by clocks are filed by the journal-backed host only.
          conflicts: [],
        };
      });
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome> {
    const previous = command.type === 'result' ? { previous: this.boardById.get(command.boardId)?.result ?? null } : {};
    const outcome = this.apply(command);
    this.commands.push({ command, arbiter: actor.arbiter, outcome: outcome.ok ? 'applied' : 'rejected', reason: outcome.ok ? null : outcome.reason, ...previous });
    return outcome;
  }

  private apply(command: ArbiterCommand): CommandOutcome {
    const board = this.boardById.get(command.boardId);
    if (!board) return { ok: false, status: 404, reason: `no board "${command.boardId}"` };
    const where = commandPlace(board);
    // FIDE Laws 5.1 / 5.2: a result ends the game; only a correction of the result changes it
    // (host/app/result-rules.ts, as the journal-backed host answers). A configure here sets up
    // the board's next game (this host has no director), so it stays allowed.
    if (board.result !== null && command.type !== 'configure' && CLOCK_COMMAND_TYPES.has(command.type)) {
      return { ok: false, status: 409, reason: finishedGameRefusal(command.type, this.withResult(board)) };
    }
    // The rule book's command rule (rules/command-rules.ts), as the journal-backed host and the dashboard read it.
    // The control in force (a correction's, else the board's own): no quickplay finish in blitz (FIDE Guidelines III.2.2).
    const timeControl = board.live?.clock?.control ?? this.controls.get(board.id) ?? undefined;
    const refusal = boardCommandRefusal(command.type, board, timeControl ? { timeControl } : {});
    if (refusal !== null) return { ok: false, status: 409, reason: refusal };
    switch (command.type) {
      case 'configure': {
        const next: BoardView = {
          ...board,
          timeControl: formatTimeControl(command.timeControl),
          defaultTimeMs: command.timeControl.defaultTimeMs,
          white: command.white ?? board.white,
          black: command.black ?? board.black,
          live: null,
          result: null,
          resultConfirmed: false,
        };
        this.boardById.set(board.id, next);
        this.controls.set(board.id, command.timeControl);
        this.games.get(board.id)?.stop();
        this.games.delete(board.id);
        this.gameLogs.delete(board.id);
        this.forward?.(command, next);
        return { ok: true, board: next };
      }
      case 'result': {
        if (!isGameResult(command.result)) return { ok: false, status: 422, reason: `unknown result "${command.result}"` };
        // FIDE Laws 8.7: a confirmed result is changed by the arbiter, who says why.
        if (board.result !== null && board.resultConfirmed && !command.reason?.trim()) {
          return { ok: false, status: 422, reason: correctionNeedsReason(this.withResult(board)) };
        }
        const next = { ...board, result: command.result, resultConfirmed: false, live: finishedLive(command.result, board.live) };
        this.boardById.set(board.id, next);
        return { ok: true, board: next };
      }
      case 'confirm-result': {
        if (command.report !== undefined || (command.result !== undefined && command.result !== board.result)) {
          const named = command.report !== undefined ? `reported result ${command.report}` : `clock reported ${command.result}`;
          return { ok: false, status: 409, reason: `${where}: no ${named} for this game: to record another result, correct it (PUT /api/boards/${board.id}/result)` };
        }
        if (board.result === null) return { ok: false, status: 409, reason: `${where} has no result to confirm` };
        const next = { ...board, resultConfirmed: true };
        this.boardById.set(board.id, next);
        return { ok: true, board: next };
      }
    }
    this.forward?.(command, board);
    return { ok: true, board: this.boardById.get(board.id) };
  }

  private withResult(board: BoardView): BoardWithResult {
    const confirmation = [...this.commands].reverse().find((c) => c.outcome === 'applied' && c.command.boardId === board.id && c.command.type === 'confirm-result');
    return { ...board, result: board.result ?? '', confirmedBy: board.resultConfirmed ? (confirmation?.arbiter ?? '') : null };
  }
}

// A JournalPorts over a journal in memory (`new Journal(':memory:')`) with a test's few helpers:
// boards set up as games of the journal, clock events reported as the host journals them, a
// clock that takes every command, and the arbiter's journaled actions read back. The ports
// themselves are the host's own (journal-ports.ts): what a test or a benchmark sees through the
// API — GET, the /ws hello, events and board messages — is what the running host serves.
import { Journal } from '../store/journal.ts';
import type { AppendResult, ClockEventInput, ClockEventType, GameKind, GameRow } from '../store/types.ts';
import { RESTORE_ACTION, type RestoreNote } from '../clocks/restore-clock.ts';
import type { Hall } from '../domain/model.ts';
import { readTimeControlSpec, type TimeControl } from '../../protocol/time-control.ts';
import { boardIdOf } from './board-views.ts';
import { JournalPorts, type ClockCommander } from './journal-ports.ts';
import type { ArbiterCommand, BoardView, ClockEventRecord, PlayerView } from './ports.ts';
import type { ClockPresence, KnockoutReader } from './board-views.ts';

export interface BoardSetup {
  /** The id the board gets (boardIdOf(event, board)): given, it is checked, so a test names it once. */
  readonly id?: string;
  readonly event: string;
  readonly round?: number;
  readonly board: number;
  readonly clockId?: string | null;
  /** A name or a player; default `White <board>` / `Black <board>` (a journaled game has both). */
  readonly white?: PlayerView | string;
  readonly black?: PlayerView | string;
  /** The control as the tournament file writes it (a preset or the written form); default `classical`. */
  readonly timeControl?: string;
  /** The control itself (overrides `timeControl`). */
  readonly control?: TimeControl;
  /** FIDE Laws 6.7.1 default time of the game (overrides the control's). */
  readonly defaultTimeMs?: number | null;
  readonly startsAtUtcMs?: number | null;
  /** Game number of the board's pairing, and its kind (knockout mini-match: with its match id). */
  readonly gameNo?: number;
  readonly kind?: GameKind;
  readonly matchId?: string | null;
}

/** A clock event as a test reports it: the record's fields (event, round and board are the clock's game's, not read). */
export type ReportedEvent = Pick<ClockEventRecord, 'clockId' | 'bootId' | 'seq' | 'type' | 'side' | 'move' | 'whiteMs' | 'blackMs' | 'monoMs' | 'utcMs'> &
  Partial<Pick<ClockEventRecord, 'uncertaintyMs' | 'detail' | 'event' | 'round' | 'board'>>;

/** One arbiter action as journaled, with the board it was for. */
export interface RecordedAction {
  readonly action: string;
  readonly boardId: string | null;
  readonly arbiter: string;
  readonly outcome: string;
  readonly reason: string | null;
  readonly payload: unknown;
}

export interface JournalBoardsOptions {
  readonly nowUtcMs?: () => number;
  readonly hall?: Hall;
  readonly director?: KnockoutReader;
  readonly clocks?: ClockPresence;
  /**
   * The board's clock answering a command; default: a clock that takes every command (a
   * Configure sets the game up anew, as the host does once its clock took it).
   */
  readonly clock?: ClockCommander;
}

/** JournalPorts over a journal in memory, with helpers to set boards up and report clock events. */
export class JournalBoards extends JournalPorts {
  /** Every command handed to the clocks, in order. */
  readonly forwarded: ArbiterCommand[];

  constructor(opts: JournalBoardsOptions = {}) {
    const journal = new Journal(':memory:');
    const forwarded: ArbiterCommand[] = [];
    const clock: ClockCommander =
      opts.clock ??
      (async (command, game) => {
        if (command.type === 'configure')
          journal.reconfigureGame(game.gameId, { timeControl: command.timeControl, white: command.white?.name, black: command.black?.name });
        return { ok: true };
      });
    super({
      journal,
      nowUtcMs: opts.nowUtcMs ?? (() => Date.now()),
      commander: async (command, game) => (forwarded.push(command), clock(command, game)),
      ...(opts.hall ? { hall: opts.hall } : {}),
      ...(opts.director ? { director: opts.director } : {}),
      ...(opts.clocks ? { clocks: opts.clocks } : {}),
    });
    this.forwarded = forwarded;
  }

  /** Sets a board up: a game of the journal (the next game of the board when it has one). */
  addBoard(setup: BoardSetup): BoardView {
    const id = boardIdOf(setup.event, setup.board);
    if (setup.id !== undefined && setup.id !== id) throw new Error(`board ${setup.board} of "${setup.event}" has the id "${id}", not "${setup.id}"`);
    let control = setup.control ?? readTimeControlSpec(setup.timeControl ?? 'classical').timeControl;
    if (setup.defaultTimeMs !== undefined) control = { ...control, defaultTimeMs: setup.defaultTimeMs };
    const player = (p: PlayerView | string | undefined, fallback: string) => (typeof p === 'string' ? { name: p } : (p ?? { name: fallback }));
    const white = player(setup.white, `White ${setup.board}`);
    const black = player(setup.black, `Black ${setup.board}`);
    const earlier = this.journal.gamesByBoard(setup.event, setup.round ?? 1, setup.board);
    if (setup.matchId && !this.journal.getMatch(setup.matchId)) {
      this.journal.saveMatch({
        matchId: setup.matchId,
        event: setup.event,
        round: setup.round ?? 1,
        board: setup.board,
        playerA: white.name,
        playerB: black.name,
        status: 'playing',
        winner: null,
        loser: null,
        decidedBy: null,
        score: null,
        updatedUtcMs: 0,
      });
    }
    this.journal.createGame({
      event: setup.event,
      round: setup.round ?? 1,
      board: setup.board,
      gameNo: setup.gameNo ?? (earlier.at(-1)?.gameNo ?? 0) + 1,
      matchId: setup.matchId ?? null,
      kind: setup.kind ?? 'classical',
      white: white.name,
      black: black.name,
      whiteTeam: white.team ?? null,
      blackTeam: black.team ?? null,
      timeControl: control,
      clockId: setup.clockId ?? null,
      earliestStartUtcMs: setup.startsAtUtcMs ?? null,
      createdUtcMs: 0,
    });
    return this.board(id)!;
  }

  /** The board's current game as journaled. */
  gameOf(boardId: string): GameRow {
    const game = this.views.gameOf(boardId);
    if (!game) throw new Error(`no board "${boardId}"`);
    return game;
  }

  /** Journals one clock event as the host does (its clock's current game); false for a repeat. */
  ingest(e: ReportedEvent): boolean {
    return this.report(e).isNew;
  }

  /** Journals one clock event (ingest), answering with the journal's result. */
  report(e: ReportedEvent): AppendResult {
    const input: ClockEventInput = {
      clockId: e.clockId,
      bootId: e.bootId,
      seq: e.seq,
      type: e.type as ClockEventType,
      side: e.side,
      move: e.move,
      whiteMs: e.whiteMs ?? 0,
      blackMs: e.blackMs ?? 0,
      monoMs: e.monoMs,
      utcMs: e.utcMs,
      uncertaintyMs: e.uncertaintyMs ?? 1,
      detail: e.detail ?? null,
    };
    const r = this.append(input);
    // A result keyed at the clock is filed against its game, as the host does after the commit.
    if (r.isNew && input.type === 'result') this.fileClockResult(r.id);
    return r;
  }

  /** The last restore of the board's game from the journal, as the clock fleet records and tells it (clock-fleet.ts). */
  setRestore(boardId: string, note: RestoreNote): BoardView {
    const game = this.gameOf(boardId);
    this.journal.recordArbiterAction({
      utcMs: note.utcMs,
      arbiter: 'host',
      action: RESTORE_ACTION,
      gameId: game.gameId,
      clockId: note.clockId,
      event: game.event,
      round: game.round,
      board: game.board,
      payload: { outcome: note.outcome, differences: note.differences, mismatches: note.mismatches },
      outcome: note.outcome === 'refused' || note.outcome === 'failed' ? 'rejected' : 'applied',
      reason: note.reason ?? null,
    });
    this.views.restored(game.gameId, note, note.clockId);
    return this.board(boardId)!;
  }

  /** The arbiters' actions as journaled (the audit trail), oldest first. */
  actions(): RecordedAction[] {
    return this.journal.arbiterActions().map((a) => {
      const game = a.gameId !== null ? this.journal.getGame(a.gameId) : null;
      const event = a.event ?? game?.event ?? null;
      const board = a.board ?? game?.board ?? null;
      return {
        action: a.action,
        boardId: event !== null && board !== null ? boardIdOf(event, board) : null,
        arbiter: a.arbiter,
        outcome: a.outcome,
        reason: a.reason,
        payload: a.payload,
      };
    });
  }

  close(): void {
    this.views.close();
    this.journal.close();
  }
}

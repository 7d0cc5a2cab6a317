// The shape of a clock's state (rules/clock-core.ts steps it): each side's account of credited
// and charged time, the turn in progress, the take-back records, and what a reading shows.
// The state a game starts from (`initialClock`) and an older firmware's saved state completed
// (`completeClockState`) are built here too. Pure data and construction, no arithmetic of time.

import type { Side, TimeControl } from '../protocol/time-control.ts';
// The clock's words (its run statuses, the results it holds) are the vocabulary's (rules/vocabulary.ts
// CLOCK_RUN_STATUSES, CLOCK_RESULTS: the played results and the double forfeit `--`).
import type { ClockResult, ClockRunStatus } from './vocabulary.ts';

/** Who recorded a result: both players at the clock, the arbiter at the clock, or the arbiter at the host. */
export type ResultSource = 'players' | 'arbiter' | 'host';

export interface SideState {
  /** Everything ever credited: base, increments, bonuses, refunds, adjustments. */
  readonly creditedMs: number;
  /** Everything charged for completed turns (and a flag's final charge). */
  readonly chargedMs: number;
  /** Completed moves (the side's own counter; Black's first move is its move 1). */
  readonly moves: number;
  /** Index of the stage (period) the side's next move is played in, derived from `moves`. */
  readonly period: number;
  /**
   * The latest period whose time has been credited (0: the first period's base). A period's
   * time is credited once, when the side first reaches it by a move or by the arbiter's
   * correction of the move counter; going back never takes it away (FIDE Laws 6.10.2).
   */
  readonly creditedPeriod: number;
  /** FIDE Laws 6.7: presence at the board, tracked only when a default time is set. */
  readonly present: boolean;
  readonly forfeited: boolean;
  /**
   * FIDE Laws 7.5: the illegal moves the arbiter recorded against this side, by a take-back of
   * its move or a penalty for it; a take-back and a penalty for the same illegal move (no move
   * completed between them) count once (FIDE Laws 7.5.5: the second one loses).
   */
  readonly illegalMoves: number;
  /**
   * The arbiter's record of this side's latest illegal move that the other record may still
   * join: a take-back not yet penalised, a penalty not yet taken back (cleared by any press).
   */
  readonly illegalOpen: IllegalRecord | null;
  /** Sum of the arbiter's time changes applied to this side (adjustments and penalties). */
  readonly arbiterMs: number;
}

/** How the arbiter recorded an illegal move (FIDE Laws 7.5.1 take-back, 7.5.5 penalty). */
export type IllegalRecord = 'takeback' | 'penalty';

/**
 * What a take-back restores (FIDE Laws 7.5.1 with 6.10.2): the clock as it stood at the
 * instant of a completed press, before the press credited or charged anything. One record
 * per completed move, linked to the one before, so every move of the game can be annulled
 * in turn; appending costs O(1) per press.
 */
export interface UndoRecord {
  /** The instant of the annulled press. */
  readonly at: number;
  /** The side that pressed (on move again after the take-back). */
  readonly turn: Side;
  /** Running time of that turn up to the press (pauses excluded). */
  readonly turnActiveMs: number;
  /** The period that turn began in, and the quickplay delay it began with: its delay (see ClockState). */
  readonly turnPeriod: number;
  readonly turnExtraDelayMs: number;
  readonly flag: Side | null;
  readonly white: SideState;
  readonly black: SideState;
  readonly prev: UndoRecord | null;
}

export interface ClockState {
  readonly timeControl: TimeControl;
  /**
   * The arbiter installed `timeControl` during the game (FIDE Laws 6.10.2, setControl): it is not
   * the control the game was configured with, so a snapshot of the game carries it.
   */
  readonly controlCorrected: boolean;
  readonly status: ClockRunStatus;
  /** The side on move (whose clock runs, or would run). */
  readonly turn: Side;
  readonly white: SideState;
  readonly black: SideState;
  /**
   * FIDE Laws 6.7.1: the default time counts from the start of the session. The instant
   * the clock was started, or the session's start given with the start (the round's start:
   * a board started late does not give a late player extra time).
   */
  readonly startedAt: number | null;
  /** When the turn side's clock last began running; null while stopped. */
  readonly runningSince: number | null;
  /** Running time already spent in the current turn before `runningSince`. */
  readonly turnActiveMs: number;
  /**
   * A turn gets one delay: that of the period the turn began in (the side's period when its
   * clock first ran for this move), even when the arbiter's counter correction moves the side
   * into another period mid-turn, and a take-back resumes the annulled turn with that same
   * delay. Set whenever a turn begins (start, press, take-back, the arbiter's choice of side).
   */
  readonly turnPeriod: number;
  /** The quickplay delay (Guidelines III.4) the turn in progress began with, ms; 0 = none. */
  readonly turnExtraDelayMs: number;
  /** FIDE equipment standard: whose flag fell first in this game. */
  readonly flag: Side | null;
  /** The instant of the last step; the base from which deadlines are scheduled. */
  readonly lastAt: number;
  /**
   * FIDE Guidelines III.4 (quickplay finish): an increment the arbiter introduced for both
   * players, credited after each later completed move on top of the period's own; 0 = none.
   */
  readonly extraIncrementMs: number;
  /**
   * FIDE Guidelines III.4: a delay (simple) the arbiter introduced for both players instead of
   * the increment, given to every turn that begins after it is set; 0 = none.
   */
  readonly extraDelayMs: number;
  /** The last completed move, for a take-back; null before the first move. */
  readonly undo: UndoRecord | null;
  /** The game's result once recorded: the game is over at the clock (only a new game or a correction changes it). */
  readonly result: ClockResult | null;
}

export interface ClockReading {
  status: ClockRunStatus;
  turn: Side;
  white: number;
  black: number;
  moves: { white: number; black: number };
  period: { white: number; black: number };
  flag: Side | null;
  present: { white: boolean; black: boolean };
  forfeited: { white: boolean; black: boolean };
  /** FIDE Laws 7.5: annulled (illegal) moves per side. */
  illegalMoves: { white: number; black: number };
  /** FIDE Laws 6.7.1: the instant an absent side loses by default, while one is absent and the clock stands started. */
  forfeitAt: number | null;
  /** Guidelines III.4: the quickplay increment for both sides, 0 = none. */
  extraIncrementMs: number;
  /** Guidelines III.4: the quickplay delay for both sides, 0 = none. */
  extraDelayMs: number;
  result: ClockResult | null;
}

export function initialClock(timeControl: TimeControl, at = 0): ClockState {
  const tracked = timeControl.defaultTimeMs !== null;
  const side = (s: Side): SideState => {
    const first = timeControl[s].stages[0];
    // FIDE practice (Arbiter's Manual; a DGT clock shows 1:30:30 at the start of
    // 90+30): with before-move timing the first move's increment is held at the start.
    const opening = timeControl.incrementTiming === 'before-move' ? first.incrementMs : 0;
    return {
      creditedMs: first.baseMs + opening,
      chargedMs: 0,
      moves: 0,
      period: 0,
      creditedPeriod: 0,
      present: !tracked,
      forfeited: false,
      illegalMoves: 0,
      illegalOpen: null,
      arbiterMs: 0,
    };
  };
  return {
    timeControl,
    controlCorrected: false,
    status: 'ready',
    turn: 'white',
    white: side('white'),
    black: side('black'),
    startedAt: null,
    runningSince: null,
    turnActiveMs: 0,
    turnPeriod: 0,
    turnExtraDelayMs: 0,
    flag: null,
    lastAt: at,
    extraIncrementMs: 0,
    extraDelayMs: 0,
    undo: null,
    result: null,
  };
}

/**
 * A clock state saved by an older firmware (before the take-back records kept each turn's delay,
 * the quickplay delay, the open illegal-move record and the corrected control), completed with
 * what that firmware did: a turn's delay was that of the side's current period, nothing else was
 * set. A state that has the fields is returned as it is.
 */
export function completeClockState(saved: ClockState): ClockState {
  if (saved.turnPeriod !== undefined && saved.white.illegalOpen !== undefined) return saved;
  const side = (s: SideState): SideState => ({ ...s, illegalOpen: s.illegalOpen ?? null });
  const records: UndoRecord[] = [];
  for (let r = saved.undo; r !== null && r !== undefined; r = r.prev) records.push(r);
  let undo: UndoRecord | null = null;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    undo = {
      ...r,
      white: side(r.white),
      black: side(r.black),
      turnPeriod: r.turnPeriod ?? r[r.turn].period,
      turnExtraDelayMs: r.turnExtraDelayMs ?? 0,
      prev: undo,
    };
  }
  return {
    ...saved,
    controlCorrected: saved.controlCorrected ?? false,
    white: side(saved.white),
    black: side(saved.black),
    turnPeriod: saved.turnPeriod ?? saved[saved.turn].period,
    turnExtraDelayMs: saved.turnExtraDelayMs ?? 0,
    extraDelayMs: saved.extraDelayMs ?? 0,
    undo,
  };
}

/** `state` with `patch` applied to one side (the other side and the rest unchanged). */
export function withSide(state: ClockState, side: Side, patch: Partial<SideState>): ClockState {
  return side === 'white' ? { ...state, white: { ...state.white, ...patch } } : { ...state, black: { ...state.black, ...patch } };
}

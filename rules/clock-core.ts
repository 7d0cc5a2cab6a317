// Pure clock arithmetic. Plain values in, plain values out; time is always passed in
// as integer milliseconds on the clock's monotonic time base (docs/architecture.md rule 1).
//
// Remaining time is computed, never counted down (docs/architecture.md rule 3):
//   remaining = creditedMs − chargedMs − (charge of the turn in progress)
// where credited = base + increments + period bonuses + delay refunds + sandclock
// credits + arbiter adjustments, and charged = running time minus delay allowances.
//
// These functions do the arithmetic of one step each. Which step applies in which
// situation (who may press, what a pause blocks) is decided by the statechart in
// clock.machine.ts, the one implementation of the rules that every body runs.

import {
  category,
  illegalMovePenaltyMs,
  other,
  type Side,
  type Stage,
  type TimeControl,
} from '../protocol/time-control.ts';
import { CLOCK_RESULTS, type ClockResult } from './vocabulary.ts';

export type ClockStatus = 'ready' | 'running' | 'paused' | 'flagged' | 'forfeited';

/**
 * The results a game at the clock can end with (rules/vocabulary.ts CLOCK_RESULTS, in the order
 * the result menu offers them): the three played results (PGN standard §8.2.6) and the double
 * forfeit `--` (FIDE Laws 6.7.1 with both players absent: both lose), which the arbiter enters.
 * A single forfeit on lateness is the clock's own state (`forfeited`), never an entered result.
 */
export type GameResult = ClockResult;
export const RESULTS: readonly GameResult[] = CLOCK_RESULTS;
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
 * FIDE Laws 7.5.5: the second completed illegal move of the same player loses (unless the
 * opponent cannot checkmate: the arbiter decides, so the clock only says it).
 */
export const ILLEGAL_MOVES_THAT_LOSE = 2;

/** The sides whose illegal moves reached the count at which FIDE Laws 7.5.5 makes the game lost, White first. */
export function illegalMoveLosers(illegal: { readonly white: number; readonly black: number }): Side[] {
  return (['white', 'black'] as const).filter((s) => illegal[s] >= ILLEGAL_MOVES_THAT_LOSE);
}

/**
 * FIDE Laws 7.1 gives the arbiter "the right not to change the clock times": a take-back either
 * rewinds both times to the annulled press (`rewind`) or leaves them as they are (`keep`).
 */
export type TakebackTimes = 'rewind' | 'keep';
export const TAKEBACK_TIMES: readonly TakebackTimes[] = ['rewind', 'keep'];

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
  readonly status: ClockStatus;
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
  readonly result: GameResult | null;
}

export interface ClockReading {
  status: ClockStatus;
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
  result: GameResult | null;
}

function stageOf(tc: TimeControl, side: Side, period: number): Stage {
  const stages = tc[side].stages;
  return stages[Math.min(period, stages.length - 1)];
}

/** Cumulative move count at which `period` ends, or null for the final period. */
export function periodEnd(tc: TimeControl, side: Side, period: number): number | null {
  const stages = tc[side].stages;
  let end = 0;
  for (let i = 0; i <= period && i < stages.length; i++) {
    const moves = stages[i].moves;
    if (moves === null) return null;
    end += moves;
  }
  return period < stages.length ? end : null;
}

/**
 * FIDE Laws 6.1 / 6.10.2: the period (0-based stage index) in which a side plays its next
 * move after `moves` completed moves. A side that completed 40 moves of 40/90:15 plays in
 * the second period; the final period never ends.
 */
export function periodForMoves(tc: TimeControl, side: Side, moves: number): number {
  const stages = tc[side].stages;
  let end = 0;
  for (let i = 0; i < stages.length; i++) {
    const count = stages[i].moves;
    if (count === null || i === stages.length - 1) return i;
    end += count;
    if (moves < end) return i;
  }
  return stages.length - 1;
}

/** The time of the periods after `from` up to and including `to`, credited once each. */
function periodTimeMs(tc: TimeControl, side: Side, from: number, to: number): number {
  let ms = 0;
  for (let p = from + 1; p <= to; p++) ms += stageOf(tc, side, p).baseMs;
  return ms;
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
    undo = { ...r, white: side(r.white), black: side(r.black), turnPeriod: r.turnPeriod ?? r[r.turn].period, turnExtraDelayMs: r.turnExtraDelayMs ?? 0, prev: undo };
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

/** Running time of the current turn at `at` (pauses excluded). */
export function turnElapsedMs(state: ClockState, at: number): number {
  return state.turnActiveMs + (state.runningSince === null ? 0 : Math.max(0, at - state.runningSince));
}

/**
 * Simple (US) delay allowance of the turn in progress, 0 if none: that of the period the turn
 * began in, plus the quickplay delay it began with (one delay per turn).
 */
function simpleDelayMs(state: ClockState): number {
  const stage = stageOf(state.timeControl, state.turn, state.turnPeriod);
  return (stage.delayMode === 'simple' ? stage.delayMs : 0) + state.turnExtraDelayMs;
}

/** What `elapsed` ms of running time costs the side on move: a simple delay is free. */
function turnChargeMs(state: ClockState, elapsedMs: number): number {
  return Math.max(0, elapsedMs - simpleDelayMs(state));
}

function storedMs(side: SideState): number {
  return side.creditedMs - side.chargedMs;
}

/** Remaining time of `side` at `at`, never below zero (display may run past a pending flag). */
export function remainingMs(state: ClockState, side: Side, at: number): number {
  const stored = storedMs(state[side]);
  if (side !== state.turn) {
    // Sandclock: what runs out of the mover's glass runs into the other's as it runs.
    if (state.timeControl[side].kind !== 'sandclock') return stored;
    const mover = storedMs(state[state.turn]);
    return stored + Math.min(mover, turnChargeMs(state, turnElapsedMs(state, at)));
  }
  return Math.max(0, stored - turnChargeMs(state, turnElapsedMs(state, at)));
}

export function readClock(state: ClockState, at: number): ClockReading {
  return {
    status: state.status,
    turn: state.turn,
    white: remainingMs(state, 'white', at),
    black: remainingMs(state, 'black', at),
    moves: { white: state.white.moves, black: state.black.moves },
    period: { white: state.white.period, black: state.black.period },
    flag: state.flag,
    present: { white: state.white.present, black: state.black.present },
    forfeited: { white: state.white.forfeited, black: state.black.forfeited },
    illegalMoves: { white: state.white.illegalMoves, black: state.black.illegalMoves },
    forfeitAt: forfeitDeadline(state),
    extraIncrementMs: state.extraIncrementMs,
    extraDelayMs: state.extraDelayMs,
    result: state.result,
  };
}

/** The exact instant the running side's time reaches zero; null when no clock runs. */
export function flagDeadline(state: ClockState): number | null {
  if (state.status !== 'running' || state.runningSince === null) return null;
  // Elapsed running time at which the charge equals what is stored.
  const elapsedAtZero = storedMs(state[state.turn]) + simpleDelayMs(state);
  return state.runningSince + elapsedAtZero - state.turnActiveMs;
}

/** FIDE Laws 6.7.1: start + default time, while a side is still absent. Pauses do not stop it. */
export function forfeitDeadline(state: ClockState): number | null {
  const { defaultTimeMs } = state.timeControl;
  if (defaultTimeMs === null || state.startedAt === null) return null;
  if (state.status !== 'running' && state.status !== 'paused') return null;
  if (state.white.present && state.black.present) return null;
  return state.startedAt + defaultTimeMs;
}

/** The earliest pending deadline (flag or forfeit), or null. */
export function nextDeadline(state: ClockState): number | null {
  const flag = flagDeadline(state);
  const forfeit = forfeitDeadline(state);
  if (flag === null) return forfeit;
  if (forfeit === null) return flag;
  return Math.min(flag, forfeit);
}

function withSide(state: ClockState, side: Side, patch: Partial<SideState>): ClockState {
  return side === 'white'
    ? { ...state, white: { ...state.white, ...patch } }
    : { ...state, black: { ...state.black, ...patch } };
}

/** Stops the running clock at `at`, keeping the turn's running time (pause, flag, forfeit). */
function stopTurn(state: ClockState, at: number): ClockState {
  return { ...state, turnActiveMs: turnElapsedMs(state, at), runningSince: null };
}

/**
 * FIDE Laws 6.5: the arbiter starts the clock; the clock of the side on move runs: White's,
 * unless the arbiter set Black on move (a replacement clock, Laws 6.10.2). `sessionAt` (≤ at)
 * is the session's start when the board starts late: the default time counts from it (6.7.1).
 */
export function startClock(state: ClockState, at: number, sessionAt?: number): ClockState {
  const startedAt = sessionAt === undefined ? at : Math.min(sessionAt, at);
  return {
    ...state,
    status: 'running',
    startedAt,
    runningSince: at,
    turnActiveMs: 0,
    turnPeriod: state[state.turn].period,
    turnExtraDelayMs: state.extraDelayMs,
    lastAt: at,
  };
}

/** FIDE Laws 6.7: a side arrives at the board (explicitly or by pressing its lever). */
export function markPresent(state: ClockState, side: Side, at: number): ClockState {
  if (state[side].present) return { ...state, lastAt: at };
  return { ...withSide(state, side, { present: true }), lastAt: at };
}

/**
 * FIDE Laws 6.2.1: the side on move completes its move by pressing its clock.
 * Charges the turn, counts the move, applies the period bonus, increment, Bronstein
 * refund or sandclock credit, and starts the opponent's clock.
 */
export function completeMove(state: ClockState, at: number): ClockState {
  const tc = state.timeControl;
  const mover = state.turn;
  const side = state[mover];
  const elapsed = turnElapsedMs(state, at);
  const charge = turnChargeMs(state, elapsed);
  const playedIn = stageOf(tc, mover, side.period);
  const moves = side.moves + 1;

  let credit = 0;
  let period = side.period;
  let creditedPeriod = side.creditedPeriod;
  // The move-40 bonus: completing the last move of a period moves the side into the next
  // one, whose time is credited unless it already was (an arbiter's correction of the move
  // counter may have credited it earlier: FIDE Laws 6.10.2, never twice). Periods never
  // repeat: the final period has no end (periodEnd returns null).
  const end = periodEnd(tc, mover, period);
  if (end !== null && moves >= end) {
    period += 1;
    if (period > creditedPeriod) {
      credit += periodTimeMs(tc, mover, creditedPeriod, period);
      creditedPeriod = period;
    }
  }
  if (tc.incrementTiming === 'before-move') {
    // The increment of the stage in which the next move is played (after any bonus).
    credit += stageOf(tc, mover, period).incrementMs;
  } else {
    // After-move (PGN/online): the increment of the stage in which this move was played.
    credit += playedIn.incrementMs;
  }
  // Guidelines III.4: the quickplay increment, credited after the move whatever the timing.
  credit += state.extraIncrementMs;
  // One delay per turn: that of the period the turn began in (a correction mid-turn does not change it).
  const delayStage = stageOf(tc, mover, state.turnPeriod);
  if (delayStage.delayMode === 'bronstein') {
    // Bronstein delay: the time used on this move is given back, up to the delay.
    credit += Math.min(charge, delayStage.delayMs);
  }

  const opp = other(mover);
  // Every field written out: object spread is the most expensive step of a replayed press,
  // and one literal shape keeps property access monomorphic.
  const moverState: SideState = {
    creditedMs: side.creditedMs + credit,
    chargedMs: side.chargedMs + charge,
    moves,
    period,
    creditedPeriod,
    present: side.present,
    forfeited: side.forfeited,
    illegalMoves: side.illegalMoves,
    // A press closes the arbiter's record of an illegal move (FIDE Laws 7.5): a later take-back
    // or penalty is another illegal move.
    illegalOpen: null,
    arbiterMs: side.arbiterMs,
  };
  // Sandclock: what runs out of one side's glass runs into the other's.
  const o = state[opp];
  const oppState: SideState =
    tc[mover].kind === 'sandclock' || o.illegalOpen !== null
      ? {
          creditedMs: tc[mover].kind === 'sandclock' ? o.creditedMs + charge : o.creditedMs,
          chargedMs: o.chargedMs,
          moves: o.moves,
          period: o.period,
          creditedPeriod: o.creditedPeriod,
          present: o.present,
          forfeited: o.forfeited,
          illegalMoves: o.illegalMoves,
          illegalOpen: null,
          arbiterMs: o.arbiterMs,
        }
      : o;
  // FIDE Laws 7.5.1: the clock as it stood at the press, for a take-back of this move.
  const undo: UndoRecord = {
    at,
    turn: mover,
    turnActiveMs: elapsed,
    turnPeriod: state.turnPeriod,
    turnExtraDelayMs: state.turnExtraDelayMs,
    flag: state.flag,
    white: state.white,
    black: state.black,
    prev: state.undo,
  };
  return {
    timeControl: tc,
    controlCorrected: state.controlCorrected,
    status: state.status,
    turn: opp,
    white: mover === 'white' ? moverState : oppState,
    black: mover === 'white' ? oppState : moverState,
    startedAt: state.startedAt,
    runningSince: at,
    turnActiveMs: 0,
    // The opponent's turn begins: in its period now, with the quickplay delay now in force.
    turnPeriod: o.period,
    turnExtraDelayMs: state.extraDelayMs,
    flag: state.flag,
    lastAt: at,
    extraIncrementMs: state.extraIncrementMs,
    extraDelayMs: state.extraDelayMs,
    undo,
    result: state.result,
  };
}

/** FIDE Laws 6.11: pausing freezes both times. */
export function pauseClock(state: ClockState, at: number): ClockState {
  return { ...stopTurn(state, at), status: 'paused', lastAt: at };
}

/** Laws 6.11 / 6.10.2: the same side's clock continues (also after a flag, once it has time again). */
export function resumeClock(state: ClockState, at: number): ClockState {
  return { ...state, status: 'running', runningSince: at, lastAt: at };
}

/**
 * The arbiter adds (ms > 0) or removes (ms < 0) time; never below zero. Returns the
 * state and the change actually applied. For the running side a flag that this
 * makes due falls at the computed instant (at once, unless a simple delay still runs).
 */
export function adjustTime(state: ClockState, side: Side, ms: number, at: number): { state: ClockState; appliedMs: number } {
  const applied = Math.max(ms, -remainingMs(state, side, at));
  const s = state[side];
  const next = withSide(state, side, { creditedMs: s.creditedMs + applied, arbiterMs: s.arbiterMs + applied });
  return { state: { ...next, lastAt: at }, appliedMs: applied };
}

/**
 * FIDE Laws 7.5.5 / A.3.1: an illegal move by `offender` gives the opponent the category's
 * penalty, and counts one illegal move against the offender (unless the arbiter already took
 * that same move back: then it is the same illegal move, counted once).
 */
export function penaltyTime(state: ClockState, offender: Side, at: number): { state: ClockState; side: Side; appliedMs: number } {
  const side = other(offender);
  const result = adjustTime(state, side, illegalMovePenaltyMs(state.timeControl), at);
  return { ...result, state: withSide(result.state, offender, recordIllegal(result.state[offender], 'penalty')), side };
}

/**
 * One illegal move recorded against a side (FIDE Laws 7.5): a take-back of its move or a
 * penalty for it. The two records of the same illegal move (no move completed between them,
 * in either order) count once; two take-backs or two penalties are two illegal moves.
 */
function recordIllegal(s: SideState, by: IllegalRecord): Pick<SideState, 'illegalMoves' | 'illegalOpen'> {
  if (s.illegalOpen !== null && s.illegalOpen !== by) return { illegalMoves: s.illegalMoves, illegalOpen: null };
  return { illegalMoves: s.illegalMoves + 1, illegalOpen: by };
}

/**
 * FIDE Laws 6.10.2: the arbiter corrects `side`'s completed-move counter. The period
 * follows from the count; a later period the side reaches here for the first time has its
 * time credited now, and no period is ever credited twice: going back keeps what was
 * credited, and reaching the period's end again by a move credits nothing more. Returns
 * the time credited by this correction.
 */
export function setMoves(state: ClockState, side: Side, moves: number, at: number): { state: ClockState; creditedMs: number } {
  const s = state[side];
  const count = Math.max(0, moves);
  const period = periodForMoves(state.timeControl, side, count);
  const credit = period > s.creditedPeriod ? periodTimeMs(state.timeControl, side, s.creditedPeriod, period) : 0;
  const next = withSide(state, side, {
    moves: count,
    period,
    creditedPeriod: Math.max(s.creditedPeriod, period),
    creditedMs: s.creditedMs + credit,
  });
  return { state: { ...next, lastAt: at }, creditedMs: credit };
}

/**
 * FIDE Laws 7.5.1 with 6.10.2: the arbiter annuls the last completed move (an illegal move).
 * The clock stands paused, the side that made the move is on move again, and its move counter
 * and period go back to what they were before the press. The other side's count and period are
 * untouched: annulling one side's move does not change how many moves the other completed.
 *
 * `rewind` (the default): both times go back to the instant of the press, before it credited
 * anything (no increment, delay refund, period bonus or sandclock transfer); the other side gets
 * back the time its clock ran since. Kept on top, as the arbiter gave them: the arbiter's time
 * changes since the press (adjustments, penalties) on both sides, and the time a correction of
 * the other side's counter credited it since. The mover's own counter corrections since the
 * press are undone with the move, with the time they credited. A flag that fell after the press
 * is annulled with it (its time was given back). No side goes below zero.
 *
 * `keep` (FIDE Laws 7.1: "the right not to change the clock times"): both times stay as they
 * are, a fallen flag stays, and the periods credited stay credited: a period already credited
 * is never credited again when the move is played again.
 *
 * Either way the annulled turn resumes: its running time up to the press still counts, with
 * the delay it began with (one delay per turn: a simple delay already used is not granted
 * again). The mover's count of illegal moves goes up by one (see recordIllegal); the penalty is
 * the arbiter's separate decision (Laws 7.5.5).
 */
export function takeBack(state: ClockState, at: number, times: TakebackTimes = 'rewind'): { state: ClockState; side: Side } | null {
  const rec = state.undo;
  if (rec === null) return null;
  const tc = state.timeControl;
  const mover = rec.turn;
  const opp = other(mover);
  const m = state[mover];
  const was = rec[mover];
  const o = state[opp];
  const illegal = recordIllegal(m, 'takeback');
  const resumed: ClockState = {
    ...state,
    status: 'paused',
    turn: mover,
    runningSince: null,
    turnActiveMs: rec.turnActiveMs,
    turnPeriod: rec.turnPeriod,
    turnExtraDelayMs: rec.turnExtraDelayMs,
    lastAt: at,
    undo: rec.prev,
  };
  if (times === 'keep') {
    const moverState: SideState = { ...m, moves: was.moves, period: was.period, creditedPeriod: Math.max(m.creditedPeriod, was.creditedPeriod), ...illegal };
    const kept: ClockState = { ...resumed, [mover]: moverState, [opp]: o } as ClockState;
    return { state: holdDisplays(state, kept, at), side: mover };
  }
  const wasO = rec[opp];
  const moverState: SideState = {
    ...was,
    creditedMs: was.creditedMs + (m.arbiterMs - was.arbiterMs),
    present: m.present,
    forfeited: m.forfeited,
    arbiterMs: m.arbiterMs,
    ...illegal,
  };
  const oppState: SideState = {
    ...o,
    // The press's sandclock transfer and the running time since are undone; the arbiter's
    // changes and the period time a counter correction credited since stay on top.
    creditedMs: wasO.creditedMs + (o.arbiterMs - wasO.arbiterMs) + periodTimeMs(tc, opp, wasO.creditedPeriod, o.creditedPeriod),
    chargedMs: wasO.chargedMs,
  };
  const rewound: ClockState = { ...resumed, [mover]: moverState, [opp]: oppState, flag: rec.flag } as ClockState;
  return { state: notBelowZero(rewound, at), side: mover };
}

/**
 * A removal of time since the press cannot take a side below zero once the press is annulled:
 * each side is raised to zero as it would be shown (the side on move first; in a sandclock the
 * other side's glass includes what has run into it during the turn).
 */
function notBelowZero(state: ClockState, at: number): ClockState {
  let next = state;
  const turn = state.turn;
  const shortTurn = turnChargeMs(next, turnElapsedMs(next, at)) - storedMs(next[turn]);
  if (shortTurn > 0) next = withSide(next, turn, { creditedMs: next[turn].creditedMs + shortTurn });
  const waiting = other(turn);
  const shortWaiting = -remainingMs(next, waiting, at);
  if (shortWaiting > 0) next = withSide(next, waiting, { creditedMs: next[waiting].creditedMs + shortWaiting });
  return next;
}

/**
 * `next` with each side's credited time set so that both clocks show at `at` what they showed
 * in `before`: a change of who is on move, of the control, or a take-back that keeps the times
 * moves no time from one side to the other and changes no display.
 */
function holdDisplays(before: ClockState, next: ClockState, at: number): ClockState {
  const shown = { white: remainingMs(before, 'white', at), black: remainingMs(before, 'black', at) };
  const turn = next.turn;
  const waiting = other(turn);
  const t = next[turn];
  const charge = turnChargeMs(next, turnElapsedMs(next, at));
  let held = withSide(next, turn, { creditedMs: t.chargedMs + charge + shown[turn] });
  // A sandclock's waiting side shows what has run into its glass during the turn as well.
  const inflight = remainingMs(held, waiting, at) - storedMs(held[waiting]);
  held = withSide(held, waiting, { creditedMs: held[waiting].chargedMs + shown[waiting] - inflight });
  return held;
}

/**
 * FIDE Laws 6.10.2 (a replacement clock; a clock set wrongly): the arbiter sets which side is
 * on move, while the clock is ready or paused. No time moves: a turn in progress ends where it
 * stands (its time used stays used) and the chosen side's turn begins when the clock runs, in
 * its period now, with the quickplay delay now in force. No press is made: no increment, no
 * move counted. The moves completed so far can still be taken back.
 */
export function setTurn(state: ClockState, side: Side, at: number): ClockState {
  if (side === state.turn) return { ...state, lastAt: at };
  const next: ClockState = {
    ...state,
    turn: side,
    runningSince: null,
    turnActiveMs: 0,
    turnPeriod: state[side].period,
    turnExtraDelayMs: state.extraDelayMs,
    lastAt: at,
  };
  return holdDisplays(state, next, at);
}

/**
 * FIDE Laws 6.10.2: the arbiter installs a corrected time control, while the clock is ready or
 * paused. Both times, both move counters and the periods already credited are kept: each side's
 * period follows from its count under the new control, and a period it is in (or was credited)
 * is never credited again; later periods of the new control are credited when reached. The
 * arbiter sets the times themselves with adjustments. The turn in progress keeps its running
 * time, with the delay of the new control's period.
 */
export function setControl(state: ClockState, timeControl: TimeControl, at: number): ClockState {
  const side = (s: SideState, name: Side): SideState => {
    const period = periodForMoves(timeControl, name, s.moves);
    return { ...s, period, creditedPeriod: Math.max(s.creditedPeriod, period) };
  };
  // The take-back records are read in the new control's periods too.
  const records: UndoRecord[] = [];
  for (let r = state.undo; r !== null; r = r.prev) records.push(r);
  let undo: UndoRecord | null = null;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    undo = { ...r, white: side(r.white, 'white'), black: side(r.black, 'black'), turnPeriod: periodForMoves(timeControl, r.turn, r[r.turn].moves), prev: undo };
  }
  const next: ClockState = {
    ...state,
    timeControl,
    controlCorrected: true,
    white: side(state.white, 'white'),
    black: side(state.black, 'black'),
    turnPeriod: periodForMoves(timeControl, state.turn, state[state.turn].moves),
    undo,
    lastAt: at,
  };
  return holdDisplays(state, next, at);
}

/**
 * FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the arbiter overrules a forfeit.
 * The game stands paused with the times of the forfeit instant, every side present.
 */
export function reinstate(state: ClockState, at: number): ClockState {
  const side = (s: SideState): SideState => ({ ...s, present: true, forfeited: false });
  return { ...state, status: 'paused', white: side(state.white), black: side(state.black), lastAt: at };
}

/** FIDE Guidelines III.4: the arbiter sets an increment for both sides after every later move (0 removes it). */
export function setExtraIncrement(state: ClockState, ms: number, at: number): ClockState {
  return { ...state, extraIncrementMs: Math.max(0, ms), lastAt: at };
}

/**
 * FIDE Guidelines III.4: the arbiter introduces a (simple) delay for both sides instead of the
 * increment (0 removes it). One delay per turn, fixed when the turn begins: every turn that
 * begins after this gets it; the turn in progress keeps the delay it began with.
 */
export function setExtraDelay(state: ClockState, ms: number, at: number): ClockState {
  return { ...state, extraDelayMs: Math.max(0, ms), lastAt: at };
}

/**
 * Why the quickplay finish (FIDE Guidelines III.4: an increment or a delay for both players) is
 * not offered under `tc`, or null when it is. The Guidelines III apply to standard and rapid
 * games, never to blitz (III.2.2).
 */
export function quickplayRefusal(tc: TimeControl): string | null {
  return category(tc) === 'blitz' ? QUICKPLAY_BLITZ_REFUSAL : null;
}
export const QUICKPLAY_BLITZ_REFUSAL = 'no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only';

/** A result recorded at the clock or by the host: the game is over at the clock. */
export function recordResult(state: ClockState, result: GameResult, at: number): ClockState {
  return { ...state, result, lastAt: at };
}

/** The running side's time reached zero at `deadline`: both clocks freeze there. */
export function fallFlag(state: ClockState, deadline: number): ClockState {
  const stopped = stopTurn(state, deadline);
  return { ...stopped, status: 'flagged', flag: state.flag ?? state.turn, lastAt: deadline };
}

/** FIDE Laws 6.7.1: the sides still absent at the default time lose; the clock stops for good. */
export function forfeitAbsent(state: ClockState, at: number): { state: ClockState; sides: Side[] } {
  const sides = (['white', 'black'] as const).filter((s) => !state[s].present);
  let next = stopTurn(state, at);
  for (const s of sides) next = withSide(next, s, { forfeited: true });
  return { state: { ...next, status: 'forfeited', lastAt: at }, sides };
}

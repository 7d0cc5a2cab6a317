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
  illegalMovePenaltyMs,
  other,
  type Side,
  type Stage,
  type TimeControl,
} from '../protocol/time-control.ts';
import { PLAYED_RESULTS, type PlayedResult } from './vocabulary.ts';

export type ClockStatus = 'ready' | 'running' | 'paused' | 'flagged' | 'forfeited';

/**
 * PGN result tokens (PGN standard §8.2.6) a game at the clock can end with: the vocabulary's
 * played results (rules/vocabulary.ts PLAYED_RESULTS, in the order the result menu offers them).
 * Forfeits are never a result at the clock: a loss by default is its own state.
 */
export type GameResult = PlayedResult;
export const RESULTS: readonly GameResult[] = PLAYED_RESULTS;
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
  /** FIDE Laws 7.5: moves of this side the arbiter annulled as illegal (take-backs). */
  readonly illegalMoves: number;
  /** Sum of the arbiter's time changes applied to this side (adjustments and penalties). */
  readonly arbiterMs: number;
}

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
  readonly flag: Side | null;
  readonly white: SideState;
  readonly black: SideState;
  readonly prev: UndoRecord | null;
}

export interface ClockState {
  readonly timeControl: TimeControl;
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
  /** FIDE equipment standard: whose flag fell first in this game. */
  readonly flag: Side | null;
  /** The instant of the last step; the base from which deadlines are scheduled. */
  readonly lastAt: number;
  /**
   * FIDE Guidelines III.4 (quickplay finish): an increment the arbiter introduced for both
   * players, credited after each later completed move on top of the period's own; 0 = none.
   */
  readonly extraIncrementMs: number;
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
      arbiterMs: 0,
    };
  };
  return {
    timeControl,
    status: 'ready',
    turn: 'white',
    white: side('white'),
    black: side('black'),
    startedAt: null,
    runningSince: null,
    turnActiveMs: 0,
    flag: null,
    lastAt: at,
    extraIncrementMs: 0,
    undo: null,
    result: null,
  };
}

/** Running time of the current turn at `at` (pauses excluded). */
export function turnElapsedMs(state: ClockState, at: number): number {
  return state.turnActiveMs + (state.runningSince === null ? 0 : Math.max(0, at - state.runningSince));
}

/** Simple (US) delay allowance of the turn side's current stage, 0 if none. */
function simpleDelayMs(state: ClockState): number {
  const stage = stageOf(state.timeControl, state.turn, state[state.turn].period);
  return stage.delayMode === 'simple' ? stage.delayMs : 0;
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
 * FIDE Laws 6.6: the arbiter starts the clock; White's clock runs. `sessionAt` (≤ at) is
 * the session's start when the board starts late: the default time counts from it (6.7.1).
 */
export function startClock(state: ClockState, at: number, sessionAt?: number): ClockState {
  const startedAt = sessionAt === undefined ? at : Math.min(sessionAt, at);
  return { ...state, status: 'running', turn: 'white', startedAt, runningSince: at, turnActiveMs: 0, lastAt: at };
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
  if (playedIn.delayMode === 'bronstein') {
    // Bronstein delay: the time used on this move is given back, up to the delay.
    credit += Math.min(charge, playedIn.delayMs);
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
    arbiterMs: side.arbiterMs,
  };
  // Sandclock: what runs out of one side's glass runs into the other's.
  const o = state[opp];
  const oppState: SideState =
    tc[mover].kind === 'sandclock'
      ? {
          creditedMs: o.creditedMs + charge,
          chargedMs: o.chargedMs,
          moves: o.moves,
          period: o.period,
          creditedPeriod: o.creditedPeriod,
          present: o.present,
          forfeited: o.forfeited,
          illegalMoves: o.illegalMoves,
          arbiterMs: o.arbiterMs,
        }
      : o;
  // FIDE Laws 7.5.1: the clock as it stood at the press, for a take-back of this move.
  const undo: UndoRecord = {
    at,
    turn: mover,
    turnActiveMs: elapsed,
    flag: state.flag,
    white: state.white,
    black: state.black,
    prev: state.undo,
  };
  return {
    timeControl: tc,
    status: state.status,
    turn: opp,
    white: mover === 'white' ? moverState : oppState,
    black: mover === 'white' ? oppState : moverState,
    startedAt: state.startedAt,
    runningSince: at,
    turnActiveMs: 0,
    flag: state.flag,
    lastAt: at,
    extraIncrementMs: state.extraIncrementMs,
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

/** FIDE Laws 7.5.5 / A.3.1: an illegal move by `offender` gives the opponent the category's penalty. */
export function penaltyTime(state: ClockState, offender: Side, at: number): { state: ClockState; side: Side; appliedMs: number } {
  const side = other(offender);
  const result = adjustTime(state, side, illegalMovePenaltyMs(state.timeControl), at);
  return { ...result, side };
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
 * FIDE Laws 7.5.1 with 6.10.2: the arbiter annuls the last completed move (an illegal
 * move). The side that made it is on move again, with its move counter and period as
 * before the press; both times return to the instant of the press, before it credited
 * anything (no increment, delay refund, period bonus or sandclock transfer), with the
 * arbiter's own time changes made since kept on top. A move-counter correction made since
 * is undone with the move. The turn's running time up to the press is kept, so a simple
 * delay already used is not granted again. The clock stands paused; the side's count of
 * illegal moves goes up by one (the penalty is the arbiter's separate decision, 7.5.5).
 * A flag that fell after the annulled press is annulled with it (its time was given back).
 */
export function takeBack(state: ClockState, at: number): { state: ClockState; side: Side } | null {
  const rec = state.undo;
  if (rec === null) return null;
  const restore = (side: Side): SideState => {
    const was = rec[side];
    const now = state[side];
    return {
      creditedMs: was.creditedMs + (now.arbiterMs - was.arbiterMs),
      chargedMs: was.chargedMs,
      moves: was.moves,
      period: was.period,
      creditedPeriod: was.creditedPeriod,
      present: now.present,
      forfeited: now.forfeited,
      illegalMoves: now.illegalMoves + (side === rec.turn ? 1 : 0),
      arbiterMs: now.arbiterMs,
    };
  };
  let next: ClockState = {
    ...state,
    status: 'paused',
    turn: rec.turn,
    white: restore('white'),
    black: restore('black'),
    runningSince: null,
    turnActiveMs: rec.turnActiveMs,
    flag: rec.flag,
    lastAt: at,
    undo: rec.prev,
  };
  // An arbiter's removal of time since the press cannot take a side below zero.
  for (const side of ['white', 'black'] as const) {
    const short = -rawRemainingMs(next, side, at);
    if (short > 0) next = withSide(next, side, { creditedMs: next[side].creditedMs + short });
  }
  return { state: next, side: rec.turn };
}

/** Remaining time without the floor at zero (a take-back checks it). */
function rawRemainingMs(state: ClockState, side: Side, at: number): number {
  const stored = storedMs(state[side]);
  if (side !== state.turn) return stored;
  return stored - turnChargeMs(state, turnElapsedMs(state, at));
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

// Pure clock arithmetic. Plain values in, plain values out; time is always passed in
// as integer milliseconds on the clock's monotonic time base (house rule 1).
//
// Remaining time is computed, never counted down (house rule 3):
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

export type ClockStatus = 'ready' | 'running' | 'paused' | 'flagged' | 'forfeited';

export interface SideState {
  /** Everything ever credited: base, increments, bonuses, refunds, adjustments. */
  readonly creditedMs: number;
  /** Everything charged for completed turns (and a flag's final charge). */
  readonly chargedMs: number;
  /** Completed moves (the side's own counter; Black's first move is its move 1). */
  readonly moves: number;
  /** Index of the stage (period) the side's next move is played in; only moves forward. */
  readonly period: number;
  /** FIDE Laws 6.7: presence at the board, tracked only when a default time is set. */
  readonly present: boolean;
  readonly forfeited: boolean;
}

export interface ClockState {
  readonly timeControl: TimeControl;
  readonly status: ClockStatus;
  /** The side on move (whose clock runs, or would run). */
  readonly turn: Side;
  readonly white: SideState;
  readonly black: SideState;
  /** FIDE Laws 6.7.1: the default time counts from the start of the session. */
  readonly startedAt: number | null;
  /** When the turn side's clock last began running; null while stopped. */
  readonly runningSince: number | null;
  /** Running time already spent in the current turn before `runningSince`. */
  readonly turnActiveMs: number;
  /** FIDE equipment standard: whose flag fell first in this game. */
  readonly flag: Side | null;
  /** The instant of the last step; the base from which deadlines are scheduled. */
  readonly lastAt: number;
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
}

function stageOf(tc: TimeControl, side: Side, period: number): Stage {
  const stages = tc[side].stages;
  return stages[Math.min(period, stages.length - 1)];
}

/** Cumulative move count at which `period` ends, or null for the final period. */
function periodEnd(tc: TimeControl, side: Side, period: number): number | null {
  const stages = tc[side].stages;
  let end = 0;
  for (let i = 0; i <= period && i < stages.length; i++) {
    const moves = stages[i].moves;
    if (moves === null) return null;
    end += moves;
  }
  return period < stages.length ? end : null;
}

export function initialClock(timeControl: TimeControl, at = 0): ClockState {
  const tracked = timeControl.defaultTimeMs !== null;
  const side = (s: Side): SideState => {
    const first = timeControl[s].stages[0];
    // FIDE practice (Arbiter's Manual; a DGT clock shows 1:30:30 at the start of
    // 90+30): with before-move timing the first move's increment is held at the start.
    const opening = timeControl.incrementTiming === 'before-move' ? first.incrementMs : 0;
    return { creditedMs: first.baseMs + opening, chargedMs: 0, moves: 0, period: 0, present: !tracked, forfeited: false };
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

/** FIDE Laws 6.6: the arbiter starts the clock; White's clock runs. */
export function startClock(state: ClockState, at: number): ClockState {
  return { ...state, status: 'running', turn: 'white', startedAt: at, runningSince: at, turnActiveMs: 0, lastAt: at };
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
  // The move-40 bonus: completing the last move of a period adds the next period's time.
  // Periods never repeat: the final period has no end (periodEnd returns null).
  if (periodEnd(tc, mover, period) === moves) {
    period += 1;
    credit += stageOf(tc, mover, period).baseMs;
  }
  if (tc.incrementTiming === 'before-move') {
    // The increment of the stage in which the next move is played (after any bonus).
    credit += stageOf(tc, mover, period).incrementMs;
  } else {
    // After-move (PGN/online): the increment of the stage in which this move was played.
    credit += playedIn.incrementMs;
  }
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
    present: side.present,
    forfeited: side.forfeited,
  };
  // Sandclock: what runs out of one side's glass runs into the other's.
  const o = state[opp];
  const oppState: SideState =
    tc[mover].kind === 'sandclock'
      ? { creditedMs: o.creditedMs + charge, chargedMs: o.chargedMs, moves: o.moves, period: o.period, present: o.present, forfeited: o.forfeited }
      : o;
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
  const next = withSide(state, side, { creditedMs: state[side].creditedMs + applied });
  return { state: { ...next, lastAt: at }, appliedMs: applied };
}

/** FIDE Laws 7.5.5 / A.3.1: an illegal move by `offender` gives the opponent the category's penalty. */
export function penaltyTime(state: ClockState, offender: Side, at: number): { state: ClockState; side: Side; appliedMs: number } {
  const side = other(offender);
  const result = adjustTime(state, side, illegalMovePenaltyMs(state.timeControl), at);
  return { ...result, side };
}

/** Arbiter correction of a move counter (and, when given, the period); no time is credited. */
export function setMoves(state: ClockState, side: Side, moves: number, period: number | undefined, at: number): ClockState {
  const stages = state.timeControl[side].stages.length;
  const nextPeriod = period === undefined ? state[side].period : Math.min(Math.max(0, period), stages - 1);
  return { ...withSide(state, side, { moves: Math.max(0, moves), period: nextPeriod }), lastAt: at };
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

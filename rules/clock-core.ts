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
//
// The state's shape is rules/clock-state.ts; the periods, rules/periods.ts; what a clock shows
// at an instant, rules/clock-reading.ts; the take-back, rules/takeback.ts; the arbiter's other
// corrections, rules/arbiter-corrections.ts; illegal moves, rules/illegal-moves.ts. This file
// has the clock's own steps: start, arrival, press, pause, resume, result, flag and forfeit.

import { other, type Side } from '../protocol/time-control.ts';
import { turnChargeMs, turnElapsedMs } from './clock-reading.ts';
import { withSide, type ClockState, type SideState, type UndoRecord } from './clock-state.ts';
import type { ClockResult } from './vocabulary.ts';
import { periodEnd, periodTimeMs, stageOf } from './periods.ts';

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

// The sides after a press: every field written out, since object spread is the most expensive
// step of a replayed press, and one literal shape keeps property access monomorphic.

/**
 * The side on move after its press, having used `chargeMs` of its turn: its move counted and
 * charged; credited the period bonus, the increment, the quickplay increment and the Bronstein
 * refund; its illegal-move record closed.
 */
function moverAfterPress(state: ClockState, chargeMs: number): SideState {
  const tc = state.timeControl;
  const mover = state.turn;
  const side = state[mover];
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
    credit += Math.min(chargeMs, delayStage.delayMs);
  }
  return {
    creditedMs: side.creditedMs + credit,
    chargedMs: side.chargedMs + chargeMs,
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
}

/**
 * The other side after `state`'s mover pressed, having used `chargeMs`: in a sandclock what ran
 * out of the mover's glass runs into its own; any open illegal-move record is closed.
 */
function waitingAfterPress(state: ClockState, chargeMs: number): SideState {
  const sandclock = state.timeControl[state.turn].kind === 'sandclock';
  const o = state[other(state.turn)];
  if (!sandclock && o.illegalOpen === null) return o;
  return {
    creditedMs: sandclock ? o.creditedMs + chargeMs : o.creditedMs,
    chargedMs: o.chargedMs,
    moves: o.moves,
    period: o.period,
    creditedPeriod: o.creditedPeriod,
    present: o.present,
    forfeited: o.forfeited,
    illegalMoves: o.illegalMoves,
    illegalOpen: null,
    arbiterMs: o.arbiterMs,
  };
}

/** FIDE Laws 7.5.1: the clock as it stood at a press at `at`, for a take-back of this move. */
function undoRecordAt(state: ClockState, at: number, turnActiveMs: number): UndoRecord {
  return {
    at,
    turn: state.turn,
    turnActiveMs,
    turnPeriod: state.turnPeriod,
    turnExtraDelayMs: state.turnExtraDelayMs,
    flag: state.flag,
    white: state.white,
    black: state.black,
    prev: state.undo,
  };
}

/**
 * FIDE Laws 6.2.1: the side on move completes its move by pressing its clock.
 * Charges the turn, counts the move, applies the period bonus, increment, Bronstein
 * refund or sandclock credit, and starts the opponent's clock.
 */
export function completeMove(state: ClockState, at: number): ClockState {
  const mover = state.turn;
  const elapsed = turnElapsedMs(state, at);
  const charge = turnChargeMs(state, elapsed);
  const moverState = moverAfterPress(state, charge);
  const oppState = waitingAfterPress(state, charge);
  return {
    timeControl: state.timeControl,
    controlCorrected: state.controlCorrected,
    status: state.status,
    turn: other(mover),
    white: mover === 'white' ? moverState : oppState,
    black: mover === 'white' ? oppState : moverState,
    startedAt: state.startedAt,
    runningSince: at,
    turnActiveMs: 0,
    // The opponent's turn begins: in its period now, with the quickplay delay now in force.
    turnPeriod: state[other(mover)].period,
    turnExtraDelayMs: state.extraDelayMs,
    flag: state.flag,
    lastAt: at,
    extraIncrementMs: state.extraIncrementMs,
    extraDelayMs: state.extraDelayMs,
    undo: undoRecordAt(state, at, elapsed),
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

/** A result recorded at the clock or by the host: the game is over at the clock. */
export function recordResult(state: ClockState, result: ClockResult, at: number): ClockState {
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

// What a clock shows at an instant (docs/architecture.md rule 3: remaining time is computed,
// never counted down): the running time and charge of the turn in progress (a simple delay is
// free), each side's remaining time, the reading, the pending flag and forfeit deadlines, and
// a state re-credited so that both displays stay as they were.

import { other, type Side } from '../protocol/time-control.ts';
import { withSide, type ClockReading, type ClockState, type SideState } from './clock-state.ts';
import { stageOf } from './periods.ts';

/** Running time of the current turn at `at` (pauses excluded). */
export function turnElapsedMs(state: ClockState, at: number): number {
  return state.turnActiveMs + (state.runningSince === null ? 0 : Math.max(0, at - state.runningSince));
}

/**
 * Simple (US) delay allowance of the turn in progress, 0 if none: that of the period the turn
 * began in, plus the quickplay delay it began with (one delay per turn).
 */
export function simpleDelayMs(state: ClockState): number {
  const stage = stageOf(state.timeControl, state.turn, state.turnPeriod);
  return (stage.delayMode === 'simple' ? stage.delayMs : 0) + state.turnExtraDelayMs;
}

/** What `elapsed` ms of running time costs the side on move: a simple delay is free. */
export function turnChargeMs(state: ClockState, elapsedMs: number): number {
  return Math.max(0, elapsedMs - simpleDelayMs(state));
}

export function storedMs(side: SideState): number {
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

/**
 * `next` with each side's credited time set so that both clocks show at `at` what they showed
 * in `before`: a change of who is on move, of the control, or a take-back that keeps the times
 * moves no time from one side to the other and changes no display.
 */
export function holdDisplays(before: ClockState, next: ClockState, at: number): ClockState {
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

// The arbiter's corrections of a clock (FIDE Laws 6.10.2, 6.7.1, 7.5.5; Guidelines III.4): time
// added or removed, the illegal-move penalty, the move counter, the side on move, the time
// control, a forfeit overruled, and the quickplay finish's increment or delay.

import { category, illegalMovePenaltyMs, other, type Side, type TimeControl } from '../protocol/time-control.ts';
import { holdDisplays, remainingMs } from './clock-reading.ts';
import { withSide, type ClockState, type SideState, type UndoRecord } from './clock-state.ts';
import { recordIllegal } from './illegal-moves.ts';
import { periodForMoves, periodTimeMs } from './periods.ts';

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

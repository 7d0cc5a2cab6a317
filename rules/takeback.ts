// The take-back (FIDE Laws 7.5.1 with 6.10.2): the arbiter annuls the last completed move,
// from the press's undo record, rewinding both times to it or keeping them (Laws 7.1).

import { other, type Side } from '../protocol/time-control.ts';
import { holdDisplays, remainingMs, storedMs, turnChargeMs, turnElapsedMs } from './clock-reading.ts';
import { withSide, type ClockState, type SideState } from './clock-state.ts';
import { recordIllegal } from './illegal-moves.ts';
import { periodTimeMs } from './periods.ts';

/**
 * FIDE Laws 7.1 gives the arbiter "the right not to change the clock times": a take-back either
 * rewinds both times to the annulled press (`rewind`) or leaves them as they are (`keep`).
 */
export type TakebackTimes = 'rewind' | 'keep';
export const TAKEBACK_TIMES: readonly TakebackTimes[] = ['rewind', 'keep'];

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

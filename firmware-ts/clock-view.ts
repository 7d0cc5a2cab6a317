// What the menus know of the clock at an instant (docs/firmware.md "Keys and menus"): the
// reading, the control in force, and what a take-back would show, all computed by the rule book
// from the statechart's state. The firmware builds one with every key edge and every repaint;
// the menu keeps no copy and decides nothing about time.
import type { Side, TimeControl } from '../protocol/time-control.ts';
import { readClock } from '../rules/clock-reading.ts';
import type { ClockReading, ClockState } from '../rules/clock-state.ts';
import { takeBack, TAKEBACK_TIMES, type TakebackTimes } from '../rules/takeback.ts';

/**
 * FIDE Laws 7.5.1 with 7.1: the last completed move, and the clock as it would read after its
 * take-back with each choice of the times (`rewind`: as at its press; `keep`: as they are).
 */
export interface TakebackPreview {
  /** The side that made the move (on move again afterwards). */
  side: Side;
  /** Its number: the side's completed-move count before the take-back. */
  move: number;
  after: Record<TakebackTimes, ClockReading>;
}

export interface ClockView {
  clock: ClockReading;
  control: TimeControl;
  /** null while the clock runs (the clock is stopped before a take-back) or before the first move. */
  takeback: TakebackPreview | null;
}

/** The view of `state` at `at`, with the take-back preview from rules/takeback.ts `takeBack`. */
export function clockView(state: ClockState, at: number): ClockView {
  const clock = readClock(state, at);
  // Nothing is previewed while the clock runs: a press is the hot path, and a take-back needs a stopped clock.
  if (state.status === 'running' || state.undo === null) return { clock, control: state.timeControl, takeback: null };
  let preview: TakebackPreview | null = null;
  for (const times of TAKEBACK_TIMES) {
    const done = takeBack(state, at, times);
    if (done === null) return { clock, control: state.timeControl, takeback: null };
    preview ??= { side: done.side, move: state[done.side].moves, after: {} as Record<TakebackTimes, ClockReading> };
    preview.after[times] = readClock(done.state, at);
  }
  return { clock, control: state.timeControl, takeback: preview };
}

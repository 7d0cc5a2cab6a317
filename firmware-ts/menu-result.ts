// The results the menus offer (docs/firmware.md "Result entry", "Arbiter mode"): the players'
// played results, the arbiter's (with the double forfeit), and what is preselected. Pure.
//
// The players enter and confirm with their levers the played results (rules/vocabulary.ts
// PLAYED_RESULTS; the double forfeit is the arbiter's); the arbiter may record at the clock the
// played ones and the double forfeit `--` (CLOCK_RESULTS; FIDE Laws 6.7.1).
import { other, type Side } from '../protocol/time-control.ts';
import type { ClockReading } from '../rules/clock-state.ts';
import { PLAYED_RESULTS, type ClockResult } from '../rules/vocabulary.ts';
import { cycle } from './menu-setup.ts';

/** The win of `side`. */
export const win = (side: Side): ClockResult => (side === 'white' ? '1-0' : '0-1');

/**
 * What the players may enter once the clock has stopped, and what is preselected.
 * FIDE Laws 6.9: after a flag the game is lost by the side whose flag fell, or drawn if the
 * opponent cannot checkmate: only those two, and neither is preselected (the clock never
 * decides the result). Laws 6.7.1: after a forfeit the present side's win is preselected.
 */
export function resultOptions(clock: ClockReading): { choice: ClockResult | null; choices: readonly ClockResult[] } {
  if (clock.status === 'flagged' && clock.flag !== null) {
    const choices = PLAYED_RESULTS.filter((r) => r === '1/2-1/2' || r === win(other(clock.flag!)));
    return { choice: null, choices };
  }
  if (clock.status === 'forfeited') {
    const { white, black } = clock.forfeited;
    return { choice: white && !black ? win('black') : black && !white ? win('white') : null, choices: PLAYED_RESULTS };
  }
  return { choice: null, choices: PLAYED_RESULTS };
}

/** The next choice with plus (+1) or minus (−1); from no choice, the first or the last. */
export function nextChoice(choices: readonly ClockResult[], current: ClockResult | null, delta: number): ClockResult {
  if (current === null || !choices.includes(current)) return delta > 0 ? choices[0] : choices[choices.length - 1];
  return cycle(choices, current, delta);
}

// FIDE Laws 6.7.1 with a default time of 0 (docs/firmware.md "Default time 0"): a player not
// marked present when the clock starts loses at once, so a start at the clock first asks who is
// at the board, and the menu sends their arrivals before the start. Pure.
import { presenceChoices as presenceChoicesFor, presentSides, type Presence } from '../rules/presence.ts';
import type { ClockInput } from '../rules/clock.machine.ts';
import type { ClockReading } from '../rules/clock-state.ts';
import { isLever, type MenuEvent } from './menu-context.ts';

/** The presence choices that keep every side already marked present (an arrival is never taken back). */
export function presenceChoices(clock: ClockReading): Presence[] {
  return presenceChoicesFor(clock.present);
}

/**
 * Whether this key edge starts the clock at a default time of 0 with a side not yet marked
 * present: the start key, or the lever of the side not on move, which starts the clock of the
 * side on move while it is ready (docs/replay.md, `press`). Then the menu asks first.
 */
export function startNeedsPresence(event: MenuEvent): boolean {
  if (event.type !== 'KEY_DOWN') return false;
  const { clock, control, key } = event;
  if (clock.status !== 'ready' || control.defaultTimeMs !== 0 || (clock.present.white && clock.present.black)) return false;
  return key === 'startPause' || (isLever(key) && key !== clock.turn);
}

/** The chosen sides not yet present arrive (FIDE Laws 6.7), then the clock starts: presence is what the inputs say. */
export function startInputs(choice: Presence, clock: ClockReading, at: number): ClockInput[] {
  const arrivals: ClockInput[] = presentSides(choice)
    .filter((side) => !clock.present[side])
    .map((side) => ({ type: 'ARRIVE', side, at }));
  return [...arrivals, { type: 'START', at }];
}

// FIDE Laws 6.7.1 with a default time of 0: a player the clock has not marked present when it
// starts loses at once, so every start (at the clock's menu, in the terminal clock, on the
// dashboard) first asks who is at the board and sends their arrivals before the start
// (docs/firmware.md and docs/dashboard.md, "Default time 0: who is present?"). The answers and
// what each means, once for every body. Pure: the browser bundle imports it too.
import { SIDES, type Side } from '../protocol/time-control.ts';

/** Who is at the board: the four answers, both players first (preselected). */
export type Presence = 'both' | 'white' | 'black' | 'neither';
export const PRESENCE_CHOICES: readonly Presence[] = ['both', 'white', 'black', 'neither'];

export function presentSides(p: Presence): Side[] {
  return p === 'both' ? [...SIDES] : p === 'neither' ? [] : [p];
}

export function isPresence(value: string): value is Presence {
  return (PRESENCE_CHOICES as readonly string[]).includes(value);
}

/** The answers that keep every side already marked present (an arrival is never taken back). */
export function presenceChoices(present: { readonly white: boolean; readonly black: boolean }): Presence[] {
  return PRESENCE_CHOICES.filter((p) => SIDES.every((s) => !present[s] || presentSides(p).includes(s)));
}

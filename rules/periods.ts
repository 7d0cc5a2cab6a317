// Periods (stages) of a time control, the rule book's one computation of them: which period a
// side plays its next move in, where a period ends, and the time a period credits
// (FIDE Laws 6.1, 6.10.2). Pure functions of the time control.

import type { Side, Stage, TimeControl } from '../protocol/time-control.ts';

/** The stage of `period` (the final stage once past the last). */
export function stageOf(tc: TimeControl, side: Side, period: number): Stage {
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
export function periodTimeMs(tc: TimeControl, side: Side, from: number, to: number): number {
  let ms = 0;
  for (let p = from + 1; p <= to; p++) ms += stageOf(tc, side, p).baseMs;
  return ms;
}

// Illegal moves (FIDE Laws 7.5): how many a side made, how the arbiter recorded the latest one
// (a take-back, a penalty, or both for the same move), and the count that loses the game.

import type { Side } from '../protocol/time-control.ts';
import type { IllegalRecord, SideState } from './clock-state.ts';

/**
 * FIDE Laws 7.5.5: the second completed illegal move of the same player loses (unless the
 * opponent cannot checkmate: the arbiter decides, so the clock only says it).
 */
export const ILLEGAL_MOVES_THAT_LOSE = 2;

/** The sides whose illegal moves reached the count at which FIDE Laws 7.5.5 makes the game lost, White first. */
export function illegalMoveLosers(illegal: { readonly white: number; readonly black: number }): Side[] {
  return (['white', 'black'] as const).filter((s) => illegal[s] >= ILLEGAL_MOVES_THAT_LOSE);
}

/**
 * One illegal move recorded against a side (FIDE Laws 7.5): a take-back of its move or a
 * penalty for it. The two records of the same illegal move (no move completed between them,
 * in either order) count once; two take-backs or two penalties are two illegal moves.
 */
export function recordIllegal(s: SideState, by: IllegalRecord): Pick<SideState, 'illegalMoves' | 'illegalOpen'> {
  if (s.illegalOpen !== null && s.illegalOpen !== by) return { illegalMoves: s.illegalMoves, illegalOpen: null };
  return { illegalMoves: s.illegalMoves + 1, illegalOpen: by };
}

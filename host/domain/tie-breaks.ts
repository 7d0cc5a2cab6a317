// The player tie-breaks the Ivanovo regulation names, over the per-round records of
// standings.ts: Buchholz with unplayed rounds (FIDE Handbook C.07, Tie-Break Regulations 2023,
// art. 8.1, 16), its Cut-1/Cut-2 variants (art. 14.1, 14.2), number of wins (art. 7.1) and the
// games between two players that direct encounter (art. 6, ranking.ts) counts.
//
// Pure functions; docs/tournament.md lists the definitions chosen where the regulation leaves
// them open.

import { CODE_POINTS, points, type RoundRecord, type TrfCode } from './standings.ts';

/** Codes of a game played over the board (TRF16; W/D/L: fewer than one move, still a game at the board). */
const PLAYED: ReadonlySet<TrfCode> = new Set<TrfCode>(['1', '=', '0', 'W', 'D', 'L']);
/** Codes worth a win's points (C.07 7.1 WIN: "with or without playing"): forfeit wins and full-point byes count. */
const WIN: ReadonlySet<TrfCode> = new Set<TrfCode>(['1', 'W', '+', 'F', 'U']);

export function isPlayed(rec: RoundRecord): boolean {
  return rec.opponent !== null && PLAYED.has(rec.code);
}

/**
 * Buchholz contributions of one player, one per round (C.07 8.1: the opponents' scores).
 * An unplayed round — bye, forfeit won or lost, not paired — counts as a game against a dummy
 * opponent whose score is the player's own score (C.07 2023, 16.4); the opponents' own
 * unplayed rounds count at the points they were given (16.3.1).
 */
export function buchholzContributions(records: ReadonlyMap<number, readonly RoundRecord[]>, player: number): number[] {
  const own = records.get(player);
  if (!own) throw new Error(`no records for player ${player}`);
  const mine = points(own);
  return own.map((rec) => (isPlayed(rec) ? points(records.get(rec.opponent!)!) : mine));
}

/** Sum of the contributions after dropping the `cut` least significant ones (C.07 14.1 Cut-1, 14.2 Cut-2). */
export function cutSum(contributions: readonly number[], cut: number): number {
  return [...contributions]
    .sort((a, b) => a - b)
    .slice(cut)
    .reduce((s, x) => s + x, 0);
}

/** C.07 7.1 WIN: rounds in which the player obtained a win's points, with or without playing. */
export function wins(records: readonly RoundRecord[]): number {
  return records.filter((r) => WIN.has(r.code)).length;
}

/** a's points in each game against b played over the board (forfeits excluded, C.07 6.1.1). */
export function gamesBetween(records: ReadonlyMap<number, readonly RoundRecord[]>, a: number, b: number): number[] {
  return (records.get(a) ?? []).filter((r) => r.opponent === b && isPlayed(r)).map((r) => CODE_POINTS[r.code]);
}

// The appeal window of a result, as each regulation sets it (docs/regulations.md):
//  - Slovenian final 2007: "appeals within 30 minutes of the dispute" — counted from the
//    arbiter's decision on the result, i.e. its confirmation (a correction is a new decision and
//    starts a new window): `{ "minutes": 30, "from": "result" }`;
//  - Ivanovo 2018: "within 15 minutes after the round ends" — counted from the end of the round's
//    last game, once every game of the round has a confirmed result: `{ "minutes": 15, "from": "round-end" }`.
// After the deadline the result is final: the host refuses to correct it.

export interface AppealRule {
  minutes: number;
  from: 'result' | 'round-end';
}

/** What the deadline needs of a game: its confirmation and when it ended. */
export interface AppealGame {
  confirmedUtcMs: number | null;
  endedUtcMs: number | null;
  reportedUtcMs: number | null;
}

/**
 * The appeal deadline (UTC ms) of `game`'s result, or null while it is not running yet (the
 * result is not confirmed, or a game of the round is still without a confirmed result).
 * `round`: every game of the game's round (for `round-end`).
 */
export function appealDeadline(rule: AppealRule, game: AppealGame, round: readonly AppealGame[]): number | null {
  const ms = rule.minutes * 60_000;
  if (game.confirmedUtcMs === null) return null;
  if (rule.from === 'result') return game.confirmedUtcMs + ms;
  if (round.some((g) => g.confirmedUtcMs === null)) return null;
  // The round ends with its last game: when it ended (or, without an end time, when its result came).
  const ends = round.map((g) => g.endedUtcMs ?? g.reportedUtcMs ?? g.confirmedUtcMs!);
  return Math.max(...ends) + ms;
}

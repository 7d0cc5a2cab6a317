// A game as the journal held it at an earlier instant: what a delayed broadcast may show
// (docs/broadcast.md "The delay"). Nothing of a game leaves the hall before its time plus the
// delay, so the public view of a game at `now` is the game as of `now − delay`:
//  - its clock events up to that instant (the journal's order, cut at the first event after it:
//    an event journaled late with an earlier time is not taken out of its order);
//  - its result only when it was reported by then, and confirmed only when it was confirmed by
//    then. A result corrected later shows again at the correction's own time plus the delay:
//    the games row holds the current result only, and an earlier one is never guessed back.
// The clock at that instant is read from these events by the rule book (liveClock,
// host/app/pgn-game.ts), never recomputed here.

import type { ClockEventRow, GameRow } from '../store/journal.ts';

/** A game and its clock events in journal order. */
export interface GameWithEvents {
  game: GameRow;
  events: readonly ClockEventRow[];
}

/** The game as it stood at `instantUtcMs`; null when it was not yet in the journal then. */
export function gameAsOf(game: GameRow, events: readonly ClockEventRow[], instantUtcMs: number): GameWithEvents | null {
  if (game.createdUtcMs > instantUtcMs) return null;
  const cut = events.findIndex((e) => e.utcMs > instantUtcMs);
  const before = cut === -1 ? events : events.slice(0, cut);
  let row = game;
  if (game.result !== null && (game.reportedUtcMs === null || game.reportedUtcMs > instantUtcMs)) {
    row = { ...game, result: null, how: null, reportedBy: null, reportedUtcMs: null, confirmedBy: null, confirmedUtcMs: null, endedUtcMs: null };
  } else if (game.confirmedBy !== null && (game.confirmedUtcMs === null || game.confirmedUtcMs > instantUtcMs)) {
    row = { ...game, confirmedBy: null, confirmedUtcMs: null };
  }
  return { game: row, events: before };
}

/** The newest journaled fact a game as of an instant holds: its creation, its last event, its result's report and confirmation. */
export function newestFactUtcMs({ game, events }: GameWithEvents): number {
  return Math.max(game.createdUtcMs, events.at(-1)?.utcMs ?? -Infinity, game.reportedUtcMs ?? -Infinity, game.confirmedUtcMs ?? -Infinity);
}

/**
 * The instants after `afterUtcMs` at which something of these games happened (each event, each
 * report and confirmation of a result, each game's creation): a delayed view changes at each
 * of them plus the delay.
 */
export function factTimesAfter(games: readonly GameWithEvents[], afterUtcMs: number): number[] {
  const times: number[] = [];
  for (const { game, events } of games) {
    for (const t of [game.createdUtcMs, game.reportedUtcMs, game.confirmedUtcMs]) if (t !== null && t > afterUtcMs) times.push(t);
    for (const e of events) if (e.utcMs > afterUtcMs) times.push(e.utcMs);
  }
  return times.sort((a, b) => a - b);
}

// `games.pgn` of a round, one game per board: the feed a broadcast relay polls
// (GET /broadcast/round/:r/games.pgn) and `chessclock export --pgn`. What a game's PGN holds —
// its tags, its result, its live clock — is host/app/pgn-game.ts, shared with the live broadcast.

import type { Side } from '../../../protocol/time-control.ts';
import type { Journal } from '../../store/journal.ts';
import { findEvent, type Hall } from '../../domain/model.ts';
import { pressClocks } from '../../../rules/press-clocks.ts';
import { formatPgnGame, journalPgnGame } from '../../app/pgn-game.ts';
import { gameAsOf } from '../../app/journal-as-of.ts';

export interface RoundPgnOptions {
  nowUtcMs: number;
  /** SAN moves per game id, when a board or relay supplies them. */
  moves?: Record<number, string[]>;
  /**
   * The broadcast delay (docs/broadcast.md "The delay"): each game as the journal held it at
   * `nowUtcMs − delayMs` (host/app/journal-as-of.ts), a game not yet journaled then left out.
   */
  delayMs?: number;
}

/**
 * `games.pgn` of a round: every game of every board, the newest game last per board. A result
 * shows only once an arbiter confirmed it; until then the game is `*`. A forfeit win confirmed
 * as not played (`unplayedGame`) is left out; a double forfeit is written `0-0` with its comment.
 */
export function roundPgn(journal: Journal, hall: Hall, eventId: string, round: number, opts: RoundPgnOptions): string {
  const event = findEvent(hall, eventId);
  const delayMs = opts.delayMs ?? 0;
  const instant = opts.nowUtcMs - delayMs;
  const games = journal.gamesByRound(event.id, round).flatMap((g) => {
    const events = journal.eventsByGame(g.gameId);
    return delayMs > 0 ? (gameAsOf(g, events, instant) ?? []) : [{ game: g, events }];
  });
  return games
    .map(({ game, events }) => {
      const pgn = journalPgnGame(event, hall.site ?? event.city ?? '?', game, events, instant);
      if (pgn === null) return null;
      const clocks = pressClocks(events);
      const san = opts.moves?.[game.gameId] ?? [];
      return formatPgnGame({
        ...pgn,
        moves: san.map((m, i) => {
          const side: Side = i % 2 === 0 ? 'white' : 'black';
          return { san: m, clockMs: clocks.get(`${side}:${Math.floor(i / 2) + 1}`) ?? null };
        }),
      });
    })
    .filter((text): text is string => text !== null)
    .join('\n');
}

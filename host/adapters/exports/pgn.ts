// `games.pgn` of a round, one game per board: the feed a broadcast relay polls
// (GET /broadcast/round/:r/games.pgn) and `chessclock export --pgn`. What a game's PGN holds —
// its tags, its result, its live clock — is host/app/pgn-game.ts, shared with the live broadcast.

import type { Side } from '../../../protocol/time-control.ts';
import type { Journal } from '../../store/journal.ts';
import { findEvent, type Hall } from '../../domain/model.ts';
import { rebuildGame } from '../../../rules/rebuild.ts';
import { pressClocks } from '../../../rules/press-clocks.ts';
import { DOUBLE_FORFEIT, doubleForfeitComment, formatPgnGame, liveClock, pgnGameId, pgnTermination, unplayedGame } from '../../app/pgn-game.ts';

export interface RoundPgnOptions {
  nowUtcMs: number;
  /** SAN moves per game id, when a board or relay supplies them. */
  moves?: Record<number, string[]>;
}

/**
 * `games.pgn` of a round: every game of every board, the newest game last per board. A result
 * shows only once an arbiter confirmed it; until then the game is `*`. A forfeit win confirmed
 * as not played (`unplayedGame`) is left out; a double forfeit is written `0-0` with its comment.
 */
export function roundPgn(journal: Journal, hall: Hall, eventId: string, round: number, opts: RoundPgnOptions): string {
  const event = findEvent(hall, eventId);
  const games = journal.gamesByRound(event.id, round);
  return games
    .map((game) => {
      const events = journal.eventsByGame(game.gameId);
      const confirmed = game.confirmedBy !== null ? game.result : null;
      if (unplayedGame(confirmed, events)) return null;
      const white = event.players.find((p) => p.rank === game.whiteRank);
      const black = event.players.find((p) => p.rank === game.blackRank);
      const startedAt = events.find((e) => e.type === 'started')?.utcMs ?? game.earliestStartUtcMs ?? game.createdUtcMs;
      const date = new Date(startedAt).toISOString().slice(0, 10).replace(/-/g, '.'); // formatting a stored time
      const clocks = pressClocks(events);
      const san = opts.moves?.[game.gameId] ?? [];
      // The control the game was played under: a correction the arbiter installed (FIDE Laws 6.10.2) wins.
      const rebuilt = rebuildGame(game.timeControlValue, events);
      return formatPgnGame({
        event: event.name,
        site: hall.site ?? event.city ?? '?',
        date,
        // `r.b`; the games of a knockout mini-match share a board, so they are `r.b.g`.
        round: game.matchId !== null ? `${round}.${game.board}.${game.gameNo}` : `${round}.${game.board}`,
        white: game.white,
        black: game.black,
        result: confirmed,
        gameId: pgnGameId(event.id, round, game.board, game.gameNo),
        timeControl: rebuilt.state.timeControl,
        whiteElo: white?.rating ?? null,
        blackElo: black?.rating ?? null,
        whiteFideId: white?.fideId ?? null,
        blackFideId: black?.fideId ?? null,
        whiteTeam: game.whiteTeam,
        blackTeam: game.blackTeam,
        termination: pgnTermination(game),
        comment: confirmed === DOUBLE_FORFEIT ? doubleForfeitComment(game, events) : null,
        clock: liveClock(game, events, opts.nowUtcMs, confirmed !== null || game.result !== null, rebuilt),
        moves: san.map((m, i) => {
          const side: Side = i % 2 === 0 ? 'white' : 'black';
          return { san: m, clockMs: clocks.get(`${side}:${Math.floor(i / 2) + 1}`) ?? null };
        }),
      });
    })
    .filter((text): text is string => text !== null)
    .join('\n');
}

// The games of an event's rounds as the journal holds them, for whatever reads results
// round by round: the TRF export (adapters/exports/trf-event.ts) and the standings
// (journal-standings.ts). Refuses a round that is not complete, naming the boards.
import type { GameRow, Journal } from '../store/journal.ts';
import type { TournamentEvent } from '../domain/model.ts';
import type { ScoredGame } from '../domain/standings.ts';

/** Rounds asked for that are not all in the journal with confirmed results; the message names the boards. */
export class RoundNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoundNotReadyError';
  }
}

/** Moves Black completed (full moves), or null when the clock recorded nothing for the game. */
export function fullMoves(journal: Journal, game: GameRow): number | null {
  const events = journal.eventsByGame(game.gameId);
  if (!events.some((e) => e.type === 'started')) return null;
  // FIDE Rating Regulations: a game in which a player has not made a move is not rated (W/D/L).
  return events.filter((e) => e.type === 'moved' && e.side === 'black').length;
}

export function confirmedOrThrow(games: GameRow[], what: (g: GameRow) => string): void {
  const open = games.filter((g) => g.result === null || g.confirmedBy === null);
  if (open.length) {
    throw new RoundNotReadyError(`${open.map((g) => `${what(g)} ${g.result === null ? 'has no result' : 'result not confirmed by an arbiter'}`).join('; ')}`);
  }
}

/**
 * The games of rounds 1..upTo of a paired (team or Swiss) event from the journal, scored.
 * Throws RoundNotReadyError naming every board not yet in the journal or without a confirmed result.
 */
export function confirmedRoundGames(journal: Journal, event: TournamentEvent, upTo: number): ScoredGame[] {
  const games = journal.gamesByEvent(event.id).filter((g) => g.round <= upTo);
  const byBoard = new Map(games.map((g) => [`${g.round}.${g.board}`, g]));
  const missing = event.rounds
    .slice(0, upTo)
    .flatMap((r) => r.boards.filter((b) => !byBoard.has(`${r.number}.${b.board}`)).map((b) => `round ${r.number} board ${b.board}`));
  if (missing.length) throw new RoundNotReadyError(`${missing.join('; ')} not in the journal (open the round first)`);
  confirmedOrThrow(games, (g) => `round ${g.round} board ${g.board}${g.gameNo > 1 ? ` game ${g.gameNo}` : ''}`);
  return games.map((g) => ({
    round: g.round,
    board: g.board,
    white: g.whiteRank!,
    black: g.blackRank!,
    result: g.result!,
    movesPlayed: fullMoves(journal, g),
  }));
}

/** The last round r such that every board of rounds 1..r has a confirmed result (0: none yet). */
export function completedRounds(journal: Journal, event: TournamentEvent): number {
  const confirmed = new Set(
    journal
      .gamesByEvent(event.id)
      .filter((g) => g.result !== null && g.confirmedBy !== null)
      .map((g) => `${g.round}.${g.board}`),
  );
  let done = 0;
  for (const r of event.rounds) {
    if (!r.boards.every((b) => confirmed.has(`${r.number}.${b.board}`))) break;
    done = r.number;
  }
  return done;
}

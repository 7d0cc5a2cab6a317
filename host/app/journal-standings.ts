// GET /api/standings from the journal's confirmed results and the tournament file: the team
// places and the board prizes of a team event with every tie-break value (the Ivanovo
// regulation as host/domain/standings.ts and board-standings.ts compute it).
import type { Journal } from '../store/journal.ts';
import { findEvent, playerByRank, teamById, type Hall, type TournamentEvent } from '../domain/model.ts';
import { eventByes, roundRecords, teamStandings, type RoundRecord } from '../domain/standings.ts';
import { boardStandings } from '../domain/board-standings.ts';
import { completedRounds, confirmedRoundGames, RoundNotReadyError } from './round-games.ts';
import { ExportRefusedError, type StandingsView } from './ports.ts';

/**
 * Standings after `round` (default: the last round whose every result is confirmed; 0 before
 * the first). Refuses (ExportRefusedError → 409) a round with a result missing or unconfirmed,
 * and an event that is not a team event (a knockout is decided by its matches).
 */
export function journalStandings(journal: Journal, hall: Hall, eventId: string, round?: number): StandingsView {
  const event = findEvent(hall, eventId);
  if (event.kind !== 'team') throw new ExportRefusedError(`event "${event.id}" is a ${event.kind} event: standings are computed for team events`);
  if (round !== undefined && round > event.rounds.length) throw new ExportRefusedError(`event "${event.id}" has ${event.rounds.length} rounds, not ${round}`);
  const upTo = round ?? completedRounds(journal, event);
  const records = confirmedRecords(journal, event, upTo);
  return {
    event: event.id,
    round: upTo,
    teams: teamStandings(event, records, upTo).map((t) => ({
      rank: t.rank,
      team: t.team,
      name: teamById(event, t.team).name,
      gamePoints: t.gamePoints,
      matchPoints: t.matchPoints,
      directEncounter: t.directEncounter,
      buchholz: t.buchholz,
      boardPoints: t.boardPoints,
    })),
    boards: boardStandings(event, records).map((b) => ({
      board: b.board,
      players: b.players.map(({ rank, player, team, points, buchholz, wins, directEncounter, buchholzCut1, buchholzCut2 }) => ({
        rank, player, name: playerByRank(event, player).name, team, points, buchholz, wins, directEncounter, buchholzCut1, buchholzCut2,
      })),
    })),
  };
}

/**
 * The per-player round records of rounds 1..upTo from the journal's confirmed results and the
 * event's byes: what the standings, the TRF and the print report all rank. Refuses
 * (ExportRefusedError) a round with a result missing or unconfirmed, naming the boards.
 */
export function confirmedRecords(journal: Journal, event: TournamentEvent, upTo: number): Map<number, RoundRecord[]> {
  let games;
  try {
    games = confirmedRoundGames(journal, event, upTo);
  } catch (err) {
    if (err instanceof RoundNotReadyError) throw new ExportRefusedError(`no standings after round ${upTo}: ${err.message}`);
    throw err;
  }
  return roundRecords(event.players.map((p) => p.rank), upTo, games, eventByes(event, upTo));
}

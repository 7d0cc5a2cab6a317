// GET /api/standings from the journal's confirmed results and the tournament file: the team
// places and the board prizes of a team event with every tie-break value (the Ivanovo
// regulation as host/tournament/standings.ts and board-standings.ts compute it).
import type { Journal } from '../journal/journal.ts';
import { findEvent, playerByRank, teamById, type Hall } from '../tournament/model.ts';
import { eventByes, roundRecords, teamStandings } from '../tournament/standings.ts';
import { boardStandings } from '../tournament/board-standings.ts';
import { completedRounds, confirmedRoundGames } from '../export/trf-event.ts';
import { TrfError } from '../export/trf.ts';
import { ExportRefusedError, type StandingsView } from './host-ports.ts';

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
  let games;
  try {
    games = confirmedRoundGames(journal, event, upTo);
  } catch (err) {
    if (err instanceof TrfError) throw new ExportRefusedError(err.message.replace('cannot write the TRF', `no standings after round ${upTo}`));
    throw err;
  }
  const records = roundRecords(event.players.map((p) => p.rank), upTo, games, eventByes(event, upTo));
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
      players: b.players.map((p) => ({ ...p, name: playerByRank(event, p.player).name })),
    })),
  };
}

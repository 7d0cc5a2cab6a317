// GET /api/standings from the journal's confirmed results and the tournament file: the team
// places and the board prizes of a team event, and the whole field's individual ranking of an
// individual or team event (the TRF rank), with every tie-break value and what decided each tie
// (host/domain/standings.ts and board-standings.ts compute them; this only names the rows).
import type { Journal } from '../store/journal.ts';
import { findEvent, playerByRank, teamById, type Hall, type TournamentEvent } from '../domain/model.ts';
import { eventByes, roundRecords, teamStandings, type RoundRecord } from '../domain/standings.ts';
import { boardStandings, fieldStandings, type IndividualStanding } from '../domain/board-standings.ts';
import { completedRounds, confirmedRoundGames, RoundNotReadyError } from './round-games.ts';
import { ExportRefusedError, type PlayerStandingView, type StandingsView } from './ports.ts';

/**
 * Standings after `round` (default: the last round whose every result is confirmed; 0 before
 * the first). Refuses (ExportRefusedError → 409) a round with a result missing or unconfirmed,
 * and a knockout (it is decided by its matches).
 */
export function journalStandings(journal: Journal, hall: Hall, eventId: string, round?: number): StandingsView {
  const event = findEvent(hall, eventId);
  if (event.kind === 'knockout')
    throw new ExportRefusedError(`event "${event.id}" is a knockout event: its matches decide, standings are computed for individual and team events`);
  if (round !== undefined && round > event.rounds.length) throw new ExportRefusedError(`event "${event.id}" has ${event.rounds.length} rounds, not ${round}`);
  const upTo = round ?? completedRounds(journal, event);
  const records = confirmedRecords(journal, event, upTo);
  const playerView = (p: IndividualStanding, team: number | null): PlayerStandingView => ({
    rank: p.rank,
    player: p.player,
    name: playerByRank(event, p.player).name,
    team,
    points: p.points,
    buchholz: p.buchholz,
    wins: p.wins,
    directEncounter: p.directEncounter,
    buchholzCut1: p.buchholzCut1,
    buchholzCut2: p.buchholzCut2,
    separatedBy: p.separatedBy,
  });
  const players = fieldStandings(event, records).map((p) => playerView(p, playerByRank(event, p.player).team));
  if (event.kind === 'individual') return { event: event.id, kind: 'individual', round: upTo, teams: [], boards: [], players };
  return {
    event: event.id,
    kind: 'team',
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
      separatedBy: t.separatedBy,
    })),
    boards: boardStandings(event, records).map((b) => ({ board: b.board, players: b.players.map((p) => playerView(p, p.team)) })),
    players,
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
  return roundRecords(
    event.players.map((p) => p.rank),
    upTo,
    games,
    eventByes(event, upTo),
  );
}

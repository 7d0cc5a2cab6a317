// Individual standings: per board for the Ivanovo board prizes ("в личном зачете по доскам",
// seeds/004_*.txt), and over the whole field (`fieldStandings`) for an individual event's places
// and every player's TRF rank — the one individual ranking the report, GET /api/standings and the
// TRF all take (docs/exports.md "TRF rank").
// Ivanovo order: points; ties а) Buchholz, б) number of wins, в) direct encounter, г) cut
// Buchholz without the one worst result, then without the two worst. Definitions (after FIDE
// C.07) are in tie-breaks.ts (ranked by ranking.ts) and docs/tournament.md.
//
// A player's board is their place in the team list: the regulation's entry form (Приложение 1)
// lists the players by board number ("№ доски"), and a reserve (a place past boardsPerTeam)
// competes on the board of that number.

import type { TournamentEvent } from './model.ts';
import { points, StandingsError, type RoundRecord } from './standings.ts';
import { byValue, directEncounter, directEncounterScores, rankWithTieBreaks, type Separation } from './ranking.ts';
import { buchholzContributions, cutSum, gamesBetween, wins } from './tie-breaks.ts';

export interface PlayerTieBreaks {
  player: number;
  points: number;
  /** а) C.07 8.1 Buchholz, unplayed rounds against a dummy with the player's own score (16.4). */
  buchholz: number;
  /** б) C.07 7.1 WIN: rounds with a win's points, with or without playing (forfeit wins count). */
  wins: number;
  /** в) Points against the others level on points, Buchholz and wins, when all of them met (C.07 6.2); else null. */
  directEncounter: number | null;
  /** г) C.07 14.1 Buchholz Cut-1 and 14.2 Cut-2. */
  buchholzCut1: number;
  buchholzCut2: number;
}

export interface IndividualStanding extends PlayerTieBreaks {
  rank: number;
  /** The criterion that ranked the player below the one just above, with both values (null: first, or sharing its rank). */
  separatedBy: Separation | null;
}

export interface BoardStandings {
  board: number;
  players: (IndividualStanding & { team: number })[];
}

/** Ranks `players` by the Ivanovo individual criteria over their round records. */
export function individualStandings(records: ReadonlyMap<number, readonly RoundRecord[]>, players: readonly number[]): IndividualStanding[] {
  const rows = players.map((player) => {
    const recs = records.get(player);
    if (!recs) throw new StandingsError(`no round records for player ${player}`);
    const bh = buchholzContributions(records, player);
    return { player, points: points(recs), buchholz: cutSum(bh, 0), wins: wins(recs), buchholzCut1: cutSum(bh, 1), buchholzCut2: cutSum(bh, 2) };
  });
  type Row = (typeof rows)[number];
  const encounters = (a: Row, b: Row) => gamesBetween(records, a.player, b.player);
  const ranked = rankWithTieBreaks(rows, [
    byValue<Row>('points', (r) => r.points),
    byValue<Row>('Buchholz', (r) => r.buchholz),
    byValue<Row>('wins', (r) => r.wins),
    directEncounter<Row>('direct encounter', encounters),
    byValue<Row>('Buchholz cut 1', (r) => r.buchholzCut1),
    byValue<Row>('Buchholz cut 2', (r) => r.buchholzCut2),
  ]);
  const level = (a: Row, b: Row) => a.points === b.points && a.buchholz === b.buchholz && a.wins === b.wins;
  return ranked.map(({ item, rank, separatedBy }) => {
    const group = rows.filter((r) => level(r, item));
    const scores = group.length > 1 ? directEncounterScores(group, encounters) : null;
    return { rank, ...item, directEncounter: scores?.get(item) ?? null, separatedBy };
  });
}

/**
 * The official ranking of an event's whole field of players: an individual event's places, and the
 * TRF rank (001 columns 86-89) of every player of an individual or team event. It is the one
 * individual tie-break list the regulations give (docs/regulations.md: the Ivanovo board prizes;
 * the tournament file configures no other), applied by C.07 4.2; players level on every criterion
 * share the better rank. A knockout has no such ranking: its matches decide (docs/regulations.md,
 * Slovenian final), so it is refused here.
 */
export function fieldStandings(event: TournamentEvent, records: ReadonlyMap<number, readonly RoundRecord[]>): IndividualStanding[] {
  if (event.kind === 'knockout') throw new StandingsError(`event "${event.id}" is a knockout: its matches decide, it has no ranking by tie-breaks`);
  return individualStandings(
    records,
    event.players.map((p) => p.rank),
  );
}

/** The board prizes: one ranking per board number, board 1 first. */
export function boardStandings(event: TournamentEvent, records: ReadonlyMap<number, readonly RoundRecord[]>): BoardStandings[] {
  if (event.kind !== 'team') throw new StandingsError(`event "${event.id}" is not a team event`);
  const boards = Math.max(event.boardsPerTeam ?? 4, ...event.teams.map((t) => t.players.length));
  const out: BoardStandings[] = [];
  for (let board = 1; board <= boards; board++) {
    const onBoard = event.teams.filter((t) => t.players.length >= board).map((t) => ({ team: t.id, player: t.players[board - 1] }));
    if (onBoard.length === 0) continue;
    const teamOf = new Map(onBoard.map((x) => [x.player, x.team]));
    out.push({
      board,
      players: individualStandings(
        records,
        onBoard.map((x) => x.player),
      ).map((s) => ({ ...s, team: teamOf.get(s.player)! })),
    });
  }
  return out;
}

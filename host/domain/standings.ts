// Scores and standings from results. One table of per-round records per player (opponent,
// colour, TRF16 result code) is the single source for individual points, team points and
// the TRF export, so the exported points can only disagree with the results through a bug
// that `checkTrf` then reports.
//
// Ivanovo team rules (seeds/004_*.txt, "Награждение"): team places by the total of board
// points of all the team's players; ties broken by а) match points (win 2, draw 1, loss 0),
// б) the result of the match between the tied teams, в) team Buchholz, then the board-1
// player's points, board 2, board 3, board 4 (ranked by ranking.ts, after FIDE C.07). A team
// without an opponent gets 1 match point and ½ point per board (its players on boards 1-4; a
// reserve nothing).
// Teams still level after every criterion share the rank.

import type { GameResult } from '../../rules/vocabulary.ts';
import type { ByeKind, Team, TournamentEvent } from './model.ts';
import { byValue, directEncounter, directEncounterScores, rankWithTieBreaks, type Criterion, type Separation } from './ranking.ts';

/** TRF16 result codes (positions 99, 109, …): played 1 = 0, forfeit + -, under one move W D L, byes H F U Z, blank. */
export type TrfCode = '1' | '=' | '0' | '+' | '-' | 'W' | 'D' | 'L' | 'H' | 'F' | 'U' | 'Z' | ' ';

/** Default points per code (TRF-2026 tag 162 defaults: W 1.0, D 0.5, L/A 0.0, P as W). */
export const CODE_POINTS: Readonly<Record<TrfCode, number>> = {
  '1': 1,
  '=': 0.5,
  '0': 0,
  '+': 1,
  '-': 0,
  W: 1,
  D: 0.5,
  L: 0,
  H: 0.5,
  F: 1,
  U: 1,
  Z: 0,
  ' ': 0,
};

export interface RoundRecord {
  /** Opponent's starting rank; null for a bye or not paired (TRF 0000). */
  opponent: number | null;
  colour: 'w' | 'b' | null;
  code: TrfCode;
}

export interface ScoredGame {
  /** The TRF round column the game goes in. */
  round: number;
  board: number;
  white: number;
  black: number;
  result: GameResult;
  /** Moves completed in the game, when known: fewer than one → W/D/L (TRF16: not rated). */
  movesPlayed?: number | null;
}

export interface ScoredBye {
  round: number;
  player: number;
  kind: ByeKind;
}

export class StandingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StandingsError';
  }
}

/** TRF16 codes for White and Black from a game result. */
export function codesFor(game: ScoredGame): { white: TrfCode; black: TrfCode } {
  const short = game.movesPlayed !== undefined && game.movesPlayed !== null && game.movesPlayed < 1;
  switch (game.result) {
    case '1-0':
      return short ? { white: 'W', black: 'L' } : { white: '1', black: '0' };
    case '0-1':
      return short ? { white: 'L', black: 'W' } : { white: '0', black: '1' };
    case '1/2-1/2':
      return short ? { white: 'D', black: 'D' } : { white: '=', black: '=' };
    // Forfeits (e.g. FIDE Laws 6.7.1, lateness beyond the default time) are not played games.
    case '+-':
      return { white: '+', black: '-' };
    case '-+':
      return { white: '-', black: '+' };
    case '--':
      return { white: '-', black: '-' };
  }
}

/**
 * Per-player round records for rounds 1..rounds. A player neither paired nor given a bye in a
 * round gets a blank record (TRF: equivalent to a zero-point bye). Throws when a player appears
 * twice in one round.
 */
export function roundRecords(ranks: readonly number[], rounds: number, games: readonly ScoredGame[], byes: readonly ScoredBye[]): Map<number, RoundRecord[]> {
  const table = new Map<number, RoundRecord[]>();
  for (const rank of ranks)
    table.set(
      rank,
      Array.from({ length: rounds }, () => ({ opponent: null, colour: null, code: ' ' as TrfCode })),
    );
  const filled = new Set<string>();
  const put = (rank: number, round: number, rec: RoundRecord, what: string) => {
    const row = table.get(rank);
    if (!row) throw new StandingsError(`${what}: no player with starting rank ${rank}`);
    if (round < 1 || round > rounds) throw new StandingsError(`${what}: round ${round} is outside 1-${rounds}`);
    const key = `${rank}/${round}`;
    if (filled.has(key)) throw new StandingsError(`${what}: player ${rank} already has a game or bye in round ${round}`);
    filled.add(key);
    row[round - 1] = rec;
  };
  for (const g of games) {
    const codes = codesFor(g);
    const what = `round ${g.round} board ${g.board}`;
    put(g.white, g.round, { opponent: g.black, colour: 'w', code: codes.white }, what);
    put(g.black, g.round, { opponent: g.white, colour: 'b', code: codes.black }, what);
  }
  for (const b of byes) put(b.player, b.round, { opponent: null, colour: null, code: b.kind }, `round ${b.round} bye`);
  return table;
}

export function points(records: readonly RoundRecord[]): number {
  return records.reduce((sum, r) => sum + CODE_POINTS[r.code], 0);
}

/** Standard competition ranking ("1224"): equal keys share the better rank. */
export function rankBy<T>(items: readonly T[], compare: (a: T, b: T) => number): { item: T; rank: number }[] {
  const sorted = [...items].sort(compare);
  return sorted.map((item, i) => {
    let j = i;
    while (j > 0 && compare(sorted[j - 1], item) === 0) j--;
    return { item, rank: j + 1 };
  });
}

export interface PlayerStanding {
  rank: number;
  player: number;
  points: number;
}

/**
 * Points alone, ties sharing the rank: only for a knockout's category TRF, which has no tie-break
 * ranking (its matches decide). Individual and team events rank players by board-standings.ts
 * `fieldStandings`, the one list the TRF, the report and GET /api/standings share.
 */
export function playerStandings(records: Map<number, RoundRecord[]>): PlayerStanding[] {
  const rows = [...records].map(([player, recs]) => ({ player, points: points(recs) }));
  return rankBy(rows, (a, b) => b.points - a.points).map(({ item, rank }) => ({ rank, ...item }));
}

export interface TeamRound {
  round: number;
  /** Opponent team id; null for a bye. */
  opponent: number | null;
  colour: 'w' | 'b' | null;
  gamePoints: number;
  matchPoints: number;
  /** Every board of the match lost by forfeit (TRF-2026 record 330). */
  forfeited: boolean;
  /** The team's points on each board of the match, board 1 first (a bye: each board's bye points). */
  boardPoints: number[];
}

export interface TeamStanding {
  rank: number;
  team: number;
  /** Total board points: the first criterion in Ivanovo. */
  gamePoints: number;
  /** а) */
  matchPoints: number;
  /**
   * б) Match points scored against the other teams level on board and match points, when
   * every two of them met (C.07 6.2); null when alone or when two of them did not meet.
   */
  directEncounter: number | null;
  /** в) Team Buchholz: the opponents' board points, an unplayed match counting the team's own (C.07 13, 16.4). */
  buchholz: number;
  /** Board points on board 1, 2, … over all rounds: the last criteria, in board order. */
  boardPoints: number[];
  rounds: TeamRound[];
  /** The criterion that ranked the team below the one just above it, with both values (null: first, or sharing its rank). */
  separatedBy: Separation | null;
}

/**
 * Team standings after `rounds` rounds, from the per-player records (which hold the boards'
 * results and the bye points). Every board of every match must have a result.
 */
export function teamStandings(event: TournamentEvent, records: Map<number, RoundRecord[]>, rounds: number): TeamStanding[] {
  if (event.kind !== 'team') throw new StandingsError(`event "${event.id}" is not a team event`);
  const s = event.teamScoring;
  const perTeam = new Map(event.teams.map((t) => [t.id, [] as TeamRound[]]));
  for (const round of event.rounds.slice(0, rounds)) {
    for (const m of round.teamMatches) {
      let white = 0;
      let black = 0;
      let whiteForfeits = 0;
      let blackForfeits = 0;
      const whiteBoards: number[] = [];
      const blackBoards: number[] = [];
      m.boards.forEach((b, k) => {
        const rec = records.get(b.white)?.[round.number - 1];
        if (!rec || rec.code === ' ') throw new StandingsError(`round ${round.number} board ${b.board}: no result yet`);
        const wp = CODE_POINTS[rec.code];
        const bp = CODE_POINTS[records.get(b.black)![round.number - 1].code];
        // Board k: the match's White team has White on boards 1, 3, … (k even).
        const [forWhite, forBlack] = k % 2 === 0 ? [wp, bp] : [bp, wp];
        white += forWhite;
        black += forBlack;
        whiteBoards.push(forWhite);
        blackBoards.push(forBlack);
        const lostByForfeit = (rank: number) => records.get(rank)![round.number - 1].code === '-';
        const [wRank, bRank] = k % 2 === 0 ? [b.white, b.black] : [b.black, b.white];
        if (lostByForfeit(wRank)) whiteForfeits++;
        if (lostByForfeit(bRank)) blackForfeits++;
      });
      const n = m.boards.length;
      // A team that lost every board by forfeit lost the match, even when its opponent did too
      // (every board `--`, FIDE Laws 6.7.1: both lose): 0-0 in board points is no draw.
      const mp = (mine: number, theirs: number, forfeited: boolean) => (forfeited ? s.loss : mine > theirs ? s.win : mine === theirs ? s.draw : s.loss);
      perTeam.get(m.white)!.push({
        round: round.number,
        opponent: m.black,
        colour: 'w',
        gamePoints: white,
        matchPoints: mp(white, black, whiteForfeits === n),
        forfeited: whiteForfeits === n,
        boardPoints: whiteBoards,
      });
      perTeam.get(m.black)!.push({
        round: round.number,
        opponent: m.white,
        colour: 'b',
        gamePoints: black,
        matchPoints: mp(black, white, blackForfeits === n),
        forfeited: blackForfeits === n,
        boardPoints: blackBoards,
      });
    }
    for (const bye of round.byes) {
      if (bye.team === null) continue;
      const team = event.teams.find((t) => t.id === bye.team)!;
      // Ivanovo: the team without an opponent gets 1 match point; the ½ point of each board is in
      // the record of the player the team lists on that board (eventByes, teamByePlayers).
      const byBoard = teamByePlayers(event, team).map((p) => CODE_POINTS[records.get(p)![round.number - 1].code]);
      const gp = byBoard.reduce((sum, x) => sum + x, 0);
      perTeam
        .get(team.id)!
        .push({ round: round.number, opponent: null, colour: null, gamePoints: gp, matchPoints: s.byeMatchPoints, forfeited: false, boardPoints: byBoard });
    }
  }
  return rankTeams(perTeam, event.boardsPerTeam ?? 4);
}

type TeamRow = Omit<TeamStanding, 'rank' | 'directEncounter' | 'separatedBy'>;

/** A match counts as played unless one side lost every board by forfeit (C.07 15.1: then neither team played a match). */
function playedMatch(perTeam: ReadonlyMap<number, readonly TeamRound[]>, r: TeamRound): boolean {
  if (r.opponent === null || r.forfeited) return false;
  const theirs = perTeam.get(r.opponent)!.find((x) => x.round === r.round)!;
  return !theirs.forfeited;
}

function rankTeams(perTeam: ReadonlyMap<number, TeamRound[]>, boards: number): TeamStanding[] {
  const gamePoints = new Map([...perTeam].map(([team, rs]) => [team, rs.reduce((x, r) => x + r.gamePoints, 0)]));
  const rows: TeamRow[] = [...perTeam].map(([team, rs]) => ({
    team,
    rounds: rs,
    gamePoints: gamePoints.get(team)!,
    matchPoints: rs.reduce((x, r) => x + r.matchPoints, 0),
    // C.07 13 (preamble): a team tie-break uses the primary score unless stated otherwise; in
    // Ivanovo that is board points. C.07 2023 16.4: an unplayed round (bye, forfeited match)
    // counts as a match against a dummy whose score is the team's own.
    buchholz: rs.reduce((x, r) => x + (playedMatch(perTeam, r) ? gamePoints.get(r.opponent!)! : gamePoints.get(team)!), 0),
    boardPoints: Array.from({ length: boards }, (_, k) => rs.reduce((x, r) => x + (r.boardPoints[k] ?? 0), 0)),
  }));
  // б) "по результату матча между собой": the match result as scored, in match points, in
  // played matches only (C.07 6.1.1); several matches between two teams: their average (6.1.2).
  const encounters = (a: TeamRow, b: TeamRow) => a.rounds.filter((r) => r.opponent === b.team && playedMatch(perTeam, r)).map((r) => r.matchPoints);
  const criteria: Criterion<TeamRow>[] = [
    byValue('board points', (t) => t.gamePoints),
    byValue('match points', (t) => t.matchPoints),
    directEncounter('direct encounter', encounters),
    byValue('team Buchholz', (t) => t.buchholz),
    ...Array.from({ length: boards }, (_, k) => byValue<TeamRow>(`board ${k + 1}`, (t) => t.boardPoints[k])),
  ];
  const ranked = rankWithTieBreaks(rows, criteria);
  // The mini-table score as the regulation applies it: among the teams level on board and match points.
  const level = (a: TeamRow, b: TeamRow) => a.gamePoints === b.gamePoints && a.matchPoints === b.matchPoints;
  return ranked.map(({ item, rank, separatedBy }) => {
    const group = rows.filter((t) => level(t, item));
    const scores = group.length > 1 ? directEncounterScores(group, encounters) : null;
    return { rank, ...item, directEncounter: scores?.get(item) ?? null, separatedBy };
  });
}

/** The TRF16 bye code whose default points (TRF-2026 tag 162 defaults) are `points` per player: Z 0, H ½, F 1. */
export const BYE_CODE_FOR_POINTS: Readonly<Record<number, ByeKind>> = { 0: 'Z', 0.5: 'H', 1: 'F' };

/**
 * The players a team bye scores for: one per board of a match (`boardsPerTeam`), those the team
 * lists on boards 1, 2, … (its list is in board order). Ivanovo regulation: a bye is ½ point per
 * board, 4 × ½ = 2; a reserve listed after them (a 5th player for 4 boards) gets nothing, as in a
 * round where the team plays without them.
 */
export function teamByePlayers(event: TournamentEvent, team: Team): number[] {
  return team.players.slice(0, event.boardsPerTeam ?? 4);
}

/**
 * The byes of an event's rounds as per-player byes. A team bye scores what the regulation gives
 * each board of the team's match (`teamScoring.byePointsPerPlayer`; Ivanovo: ½) to the player the
 * team lists on that board (`teamByePlayers`), whatever bye code the file or the pairing program
 * wrote for it: those players get the code worth those points (H for ½), so the standings, the
 * board points (Ivanovo's first criterion) and the TRF agree. A U or F code would otherwise give
 * each player 1 point, 4 per team; a reserve gets no bye (a blank record: not paired).
 */
export function eventByes(event: TournamentEvent, rounds: number): ScoredBye[] {
  const out: ScoredBye[] = [];
  const teamByeCode = BYE_CODE_FOR_POINTS[event.teamScoring.byePointsPerPlayer];
  for (const round of event.rounds.slice(0, rounds)) {
    for (const bye of round.byes) {
      if (bye.player !== null) out.push({ round: round.number, player: bye.player, kind: bye.kind });
      else {
        if (teamByeCode === undefined)
          throw new StandingsError(
            `event "${event.id}": a team bye worth ${event.teamScoring.byePointsPerPlayer} per player has no TRF bye code (Z 0, H 0.5, F 1)`,
          );
        const team = event.teams.find((t) => t.id === bye.team)!;
        for (const p of teamByePlayers(event, team)) out.push({ round: round.number, player: p, kind: teamByeCode });
      }
    }
  }
  return out;
}

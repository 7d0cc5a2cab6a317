// Team places under the Ivanovo 2018 regulation ("Награждение"): total board points; ties
// а) match points (win 2, draw 1, loss 0), б) the result of the match between the tied teams,
// в) team Buchholz, then board 1, board 2, … points. Definitions after FIDE C.07 (2023) as
// chosen in tie-breaks.ts / docs/tournament.md. Every tournament is written out with its
// arithmetic; boards are scored from the first-named team's side ('1' = it won that board).

import { describe, expect, it } from 'vitest';
import type { GameResult } from '../../rules/vocabulary.ts';
import { presetTimeControl } from '../../protocol/time-control.ts';
import { DEFAULT_TEAM_SCORING, type Round, type TournamentEvent } from './model.ts';
import { eventByes, roundRecords, teamStandings, type ScoredGame } from './standings.ts';

type Board = '1' | '=' | '0' | '+' | '-';
interface MatchSpec {
  a: number;
  b: number;
  boards: Board[];
}

/**
 * A team event: team t's k-th player has starting rank (t-1)·boards + k; FIDE colours alternate by
 * board. `reserve`: a team that lists one more player than it has boards (after all the others' ranks).
 */
function tournament(
  teams: number,
  boards: number,
  rounds: { matches: MatchSpec[]; bye?: number }[],
  opts: { byeKind?: 'H' | 'F' | 'U' | 'Z'; byePointsPerPlayer?: number; reserve?: number } = {},
) {
  return scored(teams, boards, rounds, opts).standings;
}

function scored(
  teams: number,
  boards: number,
  rounds: { matches: MatchSpec[]; bye?: number }[],
  opts: { byeKind?: 'H' | 'F' | 'U' | 'Z'; byePointsPerPlayer?: number; reserve?: number } = {},
) {
  const rank = (team: number, k: number) => (team - 1) * boards + k + 1;
  const games: ScoredGame[] = [];
  const roundList: Round[] = rounds.map((r, i) => {
    let board = 0;
    const teamMatches = r.matches.map((m) => ({
      white: m.a,
      black: m.b,
      boards: m.boards.map((res, k) => {
        board++;
        // Board k (0-based) even: team a has White.
        const aWhite = k % 2 === 0;
        const white = aWhite ? rank(m.a, k) : rank(m.b, k);
        const black = aWhite ? rank(m.b, k) : rank(m.a, k);
        const forA: Record<Board, [GameResult, GameResult]> = {
          '1': ['1-0', '0-1'],
          '=': ['1/2-1/2', '1/2-1/2'],
          '0': ['0-1', '1-0'],
          '+': ['+-', '-+'],
          '-': ['-+', '+-'],
        };
        games.push({ round: i + 1, board, white, black, result: forA[res][aWhite ? 0 : 1] });
        return { board, white, black };
      }),
    }));
    return {
      number: i + 1,
      date: null,
      startUtcMs: null,
      knockout: [],
      teamMatches,
      boards: teamMatches.flatMap((m) => m.boards),
      byes: r.bye === undefined ? [] : [{ player: null, team: r.bye, kind: opts.byeKind ?? 'H' }],
    };
  });
  const event: TournamentEvent = {
    id: 't',
    name: 'T',
    city: null,
    federation: null,
    startDate: null,
    endDate: null,
    chiefArbiter: null,
    deputyArbiters: [],
    kind: 'team',
    type: 'Team Swiss',
    timeControl: presetTimeControl('sudden-death-60'),
    timeControlPreset: 'sudden-death-60',
    rated: false,
    hallFirstTable: 1,
    boardsPerTeam: boards,
    plannedRounds: rounds.length,
    roundRobinUpTo: null,
    appeal: null,
    knockout: null,
    teamScoring: { ...DEFAULT_TEAM_SCORING, byePointsPerPlayer: opts.byePointsPerPlayer ?? DEFAULT_TEAM_SCORING.byePointsPerPlayer },
    teams: Array.from({ length: teams }, (_, t) => ({
      id: t + 1,
      name: `T${t + 1}`,
      nickname: null,
      players: [...Array.from({ length: boards }, (_, k) => rank(t + 1, k)), ...(opts.reserve === t + 1 ? [teams * boards + 1] : [])],
    })),
    players: Array.from({ length: teams * boards + (opts.reserve ? 1 : 0) }, (_, i) => ({
      rank: i + 1,
      name: `P${i + 1}`,
      sex: null,
      title: null,
      rating: null,
      federation: null,
      fideId: null,
      birthDate: null,
      team: i < teams * boards ? Math.floor(i / boards) + 1 : opts.reserve!,
    })),
    rounds: roundList,
  };
  const records = roundRecords(
    event.players.map((p) => p.rank),
    rounds.length,
    games,
    eventByes(event, rounds.length),
  );
  return { event, records, standings: teamStandings(event, records, rounds.length) };
}

const m = (a: number, b: number, ...boards: Board[]): MatchSpec => ({ a, b, boards });
const table = (s: ReturnType<typeof tournament>) => s.map((x) => [x.team, x.rank]);
const row = (s: ReturnType<typeof tournament>, team: number) => s.find((x) => x.team === team)!;

describe('Ivanovo team places: board points, а) match points, б) match between them, в) team Buchholz, board 1…4', () => {
  it('а) match points separate equal board points', () => {
    // R1: 1-2 1½:½, 3-4 2:0.   R2: 1-4 1½:½, 3-2 1:1.
    // Board points: 1 → 1½+1½ = 3, 3 → 2+1 = 3, 2 → ½+1 = 1½, 4 → 0+½ = ½.
    // Match points: 1 → 2+2 = 4, 3 → 2+1 = 3.
    const s = tournament(4, 2, [{ matches: [m(1, 2, '1', '='), m(3, 4, '1', '1')] }, { matches: [m(1, 4, '1', '='), m(3, 2, '=', '=')] }]);
    expect(s.map((x) => [x.team, x.gamePoints, x.matchPoints])).toEqual([
      [1, 3, 4],
      [3, 3, 3],
      [2, 1.5, 1],
      [4, 0.5, 0],
    ]);
    expect(table(s)).toEqual([
      [1, 1],
      [3, 2],
      [2, 3],
      [4, 4],
    ]);
    // What told each team from the one above (the print report's "ahead on …", C.07 4.2): 3 is below 1 on а) 4 vs 3.
    expect(s.map((x) => x.separatedBy)).toEqual([
      null,
      { criterion: 'match points', above: 4, value: 3 },
      { criterion: 'board points', above: 3, value: 1.5 },
      { criterion: 'board points', above: 1.5, value: 0.5 },
    ]);
  });

  it('б) "по результату матча между собой": the winner of the match between two tied teams goes first, even with the lower Buchholz', () => {
    // R1: 1-2 1½:½, 3-5 2:0, 6-4 2:0.   R2: 5-1 1½:½, 2-6 1½:½, 3-4 1:1.
    // Board points: 1 → 1½+½ = 2, 2 → ½+1½ = 2, 3 → 2+1 = 3, 4 → 0+1 = 1, 5 → 0+1½ = 1½, 6 → 2+½ = 2½.
    // Match points: 1 → 2+0 = 2, 2 → 0+2 = 2.   Team 1 beat team 2 in round 1.
    // Buchholz (opponents' board points): 1 → 2 (team 2) + 1½ (team 5) = 3½; 2 → 2 (team 1) + 2½ (team 6) = 4½.
    const s = tournament(6, 2, [
      { matches: [m(1, 2, '1', '='), m(3, 5, '1', '1'), m(6, 4, '1', '1')] },
      { matches: [m(5, 1, '1', '='), m(2, 6, '1', '='), m(3, 4, '=', '=')] },
    ]);
    expect([row(s, 1).gamePoints, row(s, 1).matchPoints, row(s, 1).directEncounter, row(s, 1).buchholz]).toEqual([2, 2, 2, 3.5]);
    expect([row(s, 2).gamePoints, row(s, 2).matchPoints, row(s, 2).directEncounter, row(s, 2).buchholz]).toEqual([2, 2, 0, 4.5]);
    expect(table(s)).toEqual([
      [3, 1],
      [6, 2],
      [1, 3],
      [2, 4],
      [5, 5],
      [4, 6],
    ]);
  });

  it('б) three tied teams that all met: the mini-table of their matches in match points (C.07 6.2), against the Buchholz order', () => {
    // Teams A..F = 1..6, two boards.
    //   R1: A-B 0:2, C-D 1:1, E-F 2:0.   R2: B-C 1:1, A-E 2:0, D-F ½:1½.   R3: A-C 1:1, B-F 0:2, D-E 0:2.
    // Board points: A 0+2+1 = 3, B 2+1+0 = 3, C 1+1+1 = 3, D 1+½+0 = 1½, E 2+0+2 = 4, F 0+1½+2 = 3½.
    // Match points: A 0+2+1 = 3, B 2+1+0 = 3, C 1+1+1 = 3 → A, B, C level on а).
    // б) A, B, C all met: B 2 (beat A) + 1 (drew C) = 3, C 1 + 1 = 2, A 0 + 1 = 1 → B, C, A.
    // в) would say otherwise: A 3 (B) + 4 (E) + 3 (C) = 10, B 3 + 3 + 3½ (F) = 9½, C 1½ (D) + 3 + 3 = 7½.
    const s = tournament(6, 2, [
      { matches: [m(1, 2, '0', '0'), m(3, 4, '=', '='), m(5, 6, '1', '1')] },
      { matches: [m(2, 3, '=', '='), m(1, 5, '1', '1'), m(4, 6, '=', '0')] },
      { matches: [m(1, 3, '=', '='), m(2, 6, '0', '0'), m(4, 5, '0', '0')] },
    ]);
    expect([1, 2, 3].map((t) => [row(s, t).gamePoints, row(s, t).matchPoints, row(s, t).directEncounter, row(s, t).buchholz])).toEqual([
      [3, 3, 1, 10],
      [3, 3, 3, 9.5],
      [3, 3, 2, 7.5],
    ]);
    expect(table(s)).toEqual([
      [5, 1],
      [6, 2],
      [2, 3],
      [3, 4],
      [1, 5],
      [4, 6],
    ]);
    // б) separated B, C and A: the mini-table scores 3, 2, 1 are what the report names.
    expect([2, 3, 1].map((t) => row(s, t).separatedBy)).toEqual([
      { criterion: 'board points', above: 3.5, value: 3 },
      { criterion: 'direct encounter', above: 3, value: 2 },
      { criterion: 'direct encounter', above: 2, value: 1 },
    ]);
  });

  it("в) team Buchholz when the tied teams did not all meet; a bye and a forfeited match count a dummy with the team's own points (C.07 2023 16.4)", () => {
    // Five teams, two boards; Ivanovo bye: 1 match point, ½ per player (1 board point).
    //   R1: 1-2 forfeited by team 2 (both boards +), 3-4 1:1, team 5 bye.   R2: 5-1 1:1, 2-3 1:1, team 4 bye.
    // Board points: 1 → 2+1 = 3, 2 → 0+1 = 1, 3 → 1+1 = 2, 4 → 1+1 = 2, 5 → 1+1 = 2.
    // Match points: 3 → 1+1 = 2, 4 → 1+1 = 2, 5 → 1+1 = 2 → 3, 4, 5 level; 5 met neither 3 nor 4, so б) does not apply.
    // Buchholz: 5 → dummy 2 (bye) + team 1's 3 = 5;  4 → team 3's 2 + dummy 2 (bye) = 4;  3 → team 4's 2 + team 2's 1 = 3.
    // The forfeited match is unplayed for both (C.07 15.1): 1 → dummy 3 + team 5's 2 = 5;  2 → dummy 1 + team 3's 2 = 3.
    const s = tournament(5, 2, [
      { matches: [m(1, 2, '+', '+'), m(3, 4, '=', '=')], bye: 5 },
      { matches: [m(5, 1, '=', '='), m(2, 3, '=', '=')], bye: 4 },
    ]);
    expect(s.map((x) => [x.team, x.gamePoints, x.matchPoints, x.directEncounter, x.buchholz, x.rank])).toEqual([
      [1, 3, 3, null, 5, 1],
      [5, 2, 2, null, 5, 2],
      [4, 2, 2, null, 4, 3],
      [3, 2, 2, null, 3, 4],
      [2, 1, 1, null, 3, 5],
    ]);
    // в) decided 5 over 4 (Buchholz 5 vs 4) and 4 over 3 (4 vs 3); 5 is below 1 on board points.
    expect(s.map((x) => x.separatedBy?.criterion ?? null)).toEqual([null, 'board points', 'team Buchholz', 'team Buchholz', 'board points']);
    expect(row(s, 4).separatedBy).toEqual({ criterion: 'team Buchholz', above: 5, value: 4 });
    expect(row(s, 1).rounds[0]).toMatchObject({ forfeited: false, boardPoints: [1, 1] });
    expect(row(s, 2).rounds[0]).toMatchObject({ forfeited: true, boardPoints: [0, 0] });
  });

  it("a team bye scores the regulation's points (Ivanovo: 1 match point, ½ per player), whatever its TRF code: U or F no longer gives 1 per player", () => {
    // Five teams, four boards. R1: 1-2 2½:1½, 3-4 3:1, team 5 bye.   R2: 5-1 2:2, 2-3 2:2, team 4 bye.
    // Board points with the regulation's ½ per player: 1 → 2½+2 = 4½, 3 → 3+2 = 5, 5 → 2+2 = 4, 4 → 1+2 = 3, 2 → 1½+2 = 3½.
    // With 1 per player (what a U or F code used to give): 5 → 4+2 = 6 and 4 → 1+4 = 5, ahead of teams 1 and 3.
    const rounds = [
      { matches: [m(1, 2, '1', '=', '1', '0'), m(3, 4, '1', '1', '=', '=')], bye: 5 },
      { matches: [m(5, 1, '=', '=', '=', '='), m(2, 3, '=', '=', '=', '=')], bye: 4 },
    ];
    const expected = [
      [3, 5, 1],
      [1, 4.5, 2],
      [5, 4, 3],
      [2, 3.5, 4],
      [4, 3, 5],
    ];
    for (const byeKind of ['H', 'U', 'F', 'Z'] as const) {
      const s = tournament(5, 4, rounds, { byeKind });
      expect(
        s.map((x) => [x.team, x.gamePoints, x.rank]),
        `bye code ${byeKind}`,
      ).toEqual(expected);
      expect(row(s, 5).rounds[0]).toMatchObject({ opponent: null, matchPoints: 1, gamePoints: 2, boardPoints: [0.5, 0.5, 0.5, 0.5] });
    }
    // A regulation giving 1 per player (tournament file teamScoring.byePointsPerPlayer) gets it whatever the code.
    const full = tournament(5, 4, rounds, { byeKind: 'H', byePointsPerPlayer: 1 });
    expect(row(full, 5).gamePoints).toBe(6);
    expect(row(full, 4).gamePoints).toBe(5);
  });

  it('Ivanovo regulation: bye — ½ point per board of the match (4 × ½ = 2) and 1 match point, whoever the team lists: a reserve (5 players for 4 boards) gets nothing and does not make it 2½', () => {
    // Five teams, four boards; team 5 lists a reserve (its 5th player, rank 21). R1: 1-2 2:2, 3-4 2½:1½, team 5 bye.
    // Board points: 3 → 2½, 5 → 2 (½ on each of boards 1-4), 1 and 2 → 2, 4 → 1½; with ½ for the
    // reserve too, team 5 had 2½, level with the match's winner on the first criterion.
    const { event, records, standings } = scored(5, 4, [{ matches: [m(1, 2, '1', '0', '=', '='), m(3, 4, '1', '=', '0', '1')], bye: 5 }], { reserve: 5 });
    expect(event.teams[4].players).toEqual([17, 18, 19, 20, 21]);
    expect(row(standings, 5)).toMatchObject({ gamePoints: 2, matchPoints: 1, boardPoints: [0.5, 0.5, 0.5, 0.5] });
    expect(row(standings, 5).rounds[0]).toMatchObject({ opponent: null, gamePoints: 2, matchPoints: 1, boardPoints: [0.5, 0.5, 0.5, 0.5] });
    // Level on 2 board points, 1 match point and Buchholz 2, teams 1, 5 and 2 are told apart on board 1 (1, ½, 0).
    expect(standings.map((x) => [x.team, x.gamePoints])).toEqual([
      [3, 2.5],
      [1, 2],
      [5, 2],
      [2, 2],
      [4, 1.5],
    ]);
    // The players of boards 1-4 have the bye's ½ in their records (TRF code H); the reserve none.
    expect([17, 18, 19, 20, 21].map((p) => records.get(p)![0].code)).toEqual(['H', 'H', 'H', 'H', ' ']);
    expect(
      eventByes(event, 1)
        .filter((b) => b.round === 1)
        .map((b) => b.player),
    ).toEqual([17, 18, 19, 20]);
  });

  it('board 1, then board 2, …; teams level on every criterion share the rank', () => {
    // One round, three boards, every match drawn 1½:1½ (board points 1½, match points 1, Buchholz 1½ each):
    //   1-2: 1, 0, ½ → team 1 boards (1, 0, ½), team 2 (0, 1, ½)
    //   3-4: 1, ½, 0 → team 3 (1, ½, 0), team 4 (0, ½, 1)
    //   5-6: ½, ½, ½ → both (½, ½, ½)
    // Board 1: 1 and 3 (1) > 5 and 6 (½) > 2 and 4 (0). Board 2: 3 (½) > 1 (0); 2 (1) > 4 (½). 5 and 6 equal on all → share 3rd.
    const s = tournament(6, 3, [{ matches: [m(1, 2, '1', '0', '='), m(3, 4, '1', '=', '0'), m(5, 6, '=', '=', '=')] }]);
    expect(s.every((x) => x.gamePoints === 1.5 && x.matchPoints === 1 && x.buchholz === 1.5)).toBe(true);
    expect(row(s, 1).boardPoints).toEqual([1, 0, 0.5]);
    expect(row(s, 3).boardPoints).toEqual([1, 0.5, 0]);
    expect(table(s)).toEqual([
      [3, 1],
      [1, 2],
      [5, 3],
      [6, 3],
      [2, 5],
      [4, 6],
    ]);
  });
});

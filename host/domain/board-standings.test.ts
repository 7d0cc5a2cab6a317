// Individual (board prize) standings of the Ivanovo 2018 regulation ("Награждение": в личном
// зачете по доскам при равенстве очков преимущество определяется а) по коэффициенту Бухгольца,
// б) по количеству побед, в) по личной встрече, г) по усеченному коэффициенту Бухгольца (без
// одного худшего результата, без двух)), with the FIDE C.07 (2023) definitions chosen in
// tie-breaks.ts. Each small tournament is written out with the arithmetic in comments.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GameResult } from '../../rules/vocabulary.ts';
import { loadTournamentFile } from './tournament-file.ts';
import { boardStandings, individualStandings } from './board-standings.ts';
import { eventByes, roundRecords, type ScoredGame } from './standings.ts';

const g = (round: number, white: number, black: number, result: GameResult): ScoredGame => ({ round, board: 1, white, black, result });
const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const order = (rows: { player: number; rank: number }[]) => rows.map((r) => [r.player, r.rank]);

describe('Ivanovo individual standings: points, then а) Buchholz, б) wins, в) direct encounter, г) Buchholz cut 1, cut 2', () => {
  it('а) Buchholz (C.07 8.1) separates equal points', () => {
    // R1: 1-2 1-0, 3-4 1-0.  R2: 3-1 1-0, 2-4 1-0.
    // Points: 1 → 1, 2 → 1, 3 → 2, 4 → 0.  BH(1) = 2 (pl. 2: 1) … = pts(2) + pts(3) = 1 + 2 = 3; BH(2) = pts(1) + pts(4) = 1 + 0 = 1.
    const rec = roundRecords(ranks(4), 2, [g(1, 1, 2, '1-0'), g(1, 3, 4, '1-0'), g(2, 3, 1, '1-0'), g(2, 2, 4, '1-0')], []);
    const s = individualStandings(rec, ranks(4));
    expect(order(s)).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
      [4, 4],
    ]);
    expect(s.find((x) => x.player === 1)!.buchholz).toBe(3);
    expect(s.find((x) => x.player === 2)!.buchholz).toBe(1);
  });

  it('б) number of wins (C.07 7.1 WIN, "with or without playing": a forfeit win counts) when points and Buchholz are equal', () => {
    // Six players, four rounds (W = white first):
    //   R1: 1-2 +-   5-3 +-   6-4 ½      R2: 1-4 ½   3-2 0-1   6-5 1-0
    //   R3: 1-6 ½    2-5 0-1  3-4 0-1    R4: 3-1 1-0  2-6 1-0  4-5 1-0
    // Points: 1: 1+½+½+0 = 2   2: 0+1+0+1 = 2   3: 0+0+0+1 = 1   4: ½+½+1+1 = 3   5: 1+0+1+0 = 2   6: ½+1+½+0 = 2
    // BH(5): R1 forfeit win → dummy with 5's own 2 (C.07 2023 16.4) + pts(6) 2 + pts(2) 2 + pts(4) 3 = 9
    // BH(6): pts(4) 3 + pts(5) 2 + pts(1) 2 + pts(2) 2 = 9
    // BH(1): dummy 2 (forfeit win R1) + pts(4) 3 + pts(6) 2 + pts(3) 1 = 8;  BH(2): dummy 2 + 1 + 2 + 2 = 7
    // 5 and 6 level on points (2) and Buchholz (9): wins 5 → 2 (one by forfeit), 6 → 1.
    const games = [
      g(1, 1, 2, '+-'),
      g(1, 5, 3, '+-'),
      g(1, 6, 4, '1/2-1/2'),
      g(2, 1, 4, '1/2-1/2'),
      g(2, 3, 2, '0-1'),
      g(2, 6, 5, '1-0'),
      g(3, 1, 6, '1/2-1/2'),
      g(3, 2, 5, '0-1'),
      g(3, 3, 4, '0-1'),
      g(4, 3, 1, '1-0'),
      g(4, 2, 6, '1-0'),
      g(4, 4, 5, '1-0'),
    ];
    const s = individualStandings(roundRecords(ranks(6), 4, games, []), ranks(6));
    const row = (p: number) => s.find((x) => x.player === p)!;
    expect([row(5).points, row(5).buchholz, row(5).wins]).toEqual([2, 9, 2]);
    expect([row(6).points, row(6).buchholz, row(6).wins]).toEqual([2, 9, 1]);
    expect([row(1).buchholz, row(2).buchholz]).toEqual([8, 7]);
    expect(order(s)).toEqual([
      [4, 1],
      [5, 2],
      [6, 3],
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    // What decided each tie on 2 points (the print report names it): 6 below 5 on wins 2 vs 1, 1 below 6 on Buchholz 9 vs 8.
    expect(s.map((x) => x.separatedBy)).toEqual([
      null,
      { criterion: 'points', above: 3, value: 2 },
      { criterion: 'wins', above: 2, value: 1 },
      { criterion: 'Buchholz', above: 9, value: 8 },
      { criterion: 'Buchholz', above: 8, value: 7 },
      { criterion: 'points', above: 2, value: 1 },
    ]);
  });

  it('в) direct encounter (C.07 6) decides before cut Buchholz, even against it', () => {
    //   R1: 1-4 ½   2-6 ½   3-5 0-1     R2: 2-1 1-0   3-6 1-0   4-5 1-0     R3: 1-6 0-1   2-5 1-0   3-4 ½
    // Points: 1: ½+0+0 = ½  2: ½+1+1 = 2½  3: 0+1+½ = 1½  4: ½+1+½ = 2  5: 1+0+0 = 1  6: ½+0+1 = 1½
    // BH(3) = pts(5) 1 + pts(6) 1½ + pts(4) 2 = 4½, cut 1 = 3½;  BH(6) = pts(2) 2½ + pts(3) 1½ + pts(1) ½ = 4½, cut 1 = 4
    // 3 and 6: 1½ points, BH 4½, one win each; 3 beat 6 in R2 → 3 first although 6 has the better cut Buchholz.
    const games = [
      g(1, 1, 4, '1/2-1/2'),
      g(1, 2, 6, '1/2-1/2'),
      g(1, 3, 5, '0-1'),
      g(2, 2, 1, '1-0'),
      g(2, 3, 6, '1-0'),
      g(2, 4, 5, '1-0'),
      g(3, 1, 6, '0-1'),
      g(3, 2, 5, '1-0'),
      g(3, 3, 4, '1/2-1/2'),
    ];
    const s = individualStandings(roundRecords(ranks(6), 3, games, []), ranks(6));
    const row = (p: number) => s.find((x) => x.player === p)!;
    expect([row(3).points, row(3).buchholz, row(3).wins, row(3).buchholzCut1, row(3).directEncounter]).toEqual([1.5, 4.5, 1, 3.5, 1]);
    expect([row(6).points, row(6).buchholz, row(6).wins, row(6).buchholzCut1, row(6).directEncounter]).toEqual([1.5, 4.5, 1, 4, 0]);
    expect(order(s)).toEqual([
      [2, 1],
      [4, 2],
      [3, 3],
      [6, 4],
      [5, 5],
      [1, 6],
    ]);
    expect(row(6).separatedBy).toEqual({ criterion: 'direct encounter', above: 1, value: 0 });
  });

  it('г) Buchholz cut 1 (C.07 14.1) when the tied players did not meet, then cut 2 (14.2)', () => {
    // Cut 1 — R1: 1-5 ½  2-6 ½  3-4 ½  7-8 0-1   R2: 1-6 1-0  2-7 1-0  3-5 0-1  8-4 ½   R3: 1-8 0-1  2-3 0-1  4-7 0-1  5-6 ½
    // Points: 1 1½, 2 1½, 3 1½, 4 1, 5 2, 6 1, 7 1, 8 2½.
    // 4: opponents 3 (1½), 8 (2½), 7 (1) → BH 5, cut 1 = 5 - 1 = 4.   6: opponents 2 (1½), 1 (1½), 5 (2) → BH 5, cut 1 = 3½.
    // Both 1 point, no win, never met → cut 1 puts 4 ahead of 6.
    const cut1 = [
      g(1, 1, 5, '1/2-1/2'),
      g(1, 2, 6, '1/2-1/2'),
      g(1, 3, 4, '1/2-1/2'),
      g(1, 7, 8, '0-1'),
      g(2, 1, 6, '1-0'),
      g(2, 2, 7, '1-0'),
      g(2, 3, 5, '0-1'),
      g(2, 8, 4, '1/2-1/2'),
      g(3, 1, 8, '0-1'),
      g(3, 2, 3, '0-1'),
      g(3, 4, 7, '0-1'),
      g(3, 5, 6, '1/2-1/2'),
    ];
    const a = individualStandings(roundRecords(ranks(8), 3, cut1, []), ranks(8));
    const ra = (p: number) => a.find((x) => x.player === p)!;
    expect([ra(4).points, ra(4).buchholz, ra(4).wins, ra(4).directEncounter, ra(4).buchholzCut1]).toEqual([1, 5, 0, null, 4]);
    expect([ra(6).points, ra(6).buchholz, ra(6).wins, ra(6).directEncounter, ra(6).buchholzCut1]).toEqual([1, 5, 0, null, 3.5]);
    expect(ra(4).rank).toBeLessThan(ra(6).rank);

    // Cut 2 — R1: 1-7 ½  2-5 0-1  3-4 0-1  6-8 1-0   R2: 1-5 1-0  2-8 0-1  3-7 1-0  4-6 0-1   R3: 1-3 1-0  2-6 1-0  4-7 ½  5-8 0-1
    // Points: 1 2½, 2 1, 3 1, 4 1½, 5 1, 6 2, 7 1, 8 2.
    // 2: opponents 5 (1), 8 (2), 6 (2) → BH 5, cut 1 = 4, cut 2 = 2.   3: opponents 4 (1½), 7 (1), 1 (2½) → BH 5, cut 1 = 4, cut 2 = 2½.
    // Both 1 point, one win, never met, equal cut 1 → cut 2 puts 3 ahead of 2.
    const cut2 = [
      g(1, 1, 7, '1/2-1/2'),
      g(1, 2, 5, '0-1'),
      g(1, 3, 4, '0-1'),
      g(1, 6, 8, '1-0'),
      g(2, 1, 5, '1-0'),
      g(2, 2, 8, '0-1'),
      g(2, 3, 7, '1-0'),
      g(2, 4, 6, '0-1'),
      g(3, 1, 3, '1-0'),
      g(3, 2, 6, '1-0'),
      g(3, 4, 7, '1/2-1/2'),
      g(3, 5, 8, '0-1'),
    ];
    const b = individualStandings(roundRecords(ranks(8), 3, cut2, []), ranks(8));
    const rb = (p: number) => b.find((x) => x.player === p)!;
    expect([rb(2).points, rb(2).buchholz, rb(2).wins, rb(2).buchholzCut1, rb(2).buchholzCut2]).toEqual([1, 5, 1, 4, 2]);
    expect([rb(3).points, rb(3).buchholz, rb(3).wins, rb(3).buchholzCut1, rb(3).buchholzCut2]).toEqual([1, 5, 1, 4, 2.5]);
    expect(rb(3).rank).toBe(rb(2).rank - 1);
  });

  it('players level on every criterion share the rank (the regulation names no lots)', () => {
    // R1: 1-2 ½, 3-4 ½: everyone ½ point, BH ½, no win; 1-2 and 3-4 drew, 1 and 3 never met.
    const s = individualStandings(roundRecords(ranks(4), 1, [g(1, 1, 2, '1/2-1/2'), g(1, 3, 4, '1/2-1/2')], []), ranks(4));
    expect(s.map((x) => x.rank)).toEqual([1, 1, 1, 1]);
  });
});

describe('Ivanovo board prizes over the 2018 fixture', () => {
  it('one table per board from the team lists (board k = k-th player of the entry form); the bye counts ½ and a dummy in Buchholz', () => {
    const hall = loadTournamentFile(fileURLToPath(new URL('./fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    const ev = hall.events[0];
    // Round 1 as in host/app/ivanovo-team-swiss.test.ts: boards 1-4 team 1 – team 2, 5-8 team 3 – team 4, team 5 bye.
    const results: Record<number, GameResult> = { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' };
    const games = ev.rounds[0].boards.map((b) => ({ round: 1, board: b.board, white: b.white, black: b.black, result: results[b.board] }));
    const tables = boardStandings(
      ev,
      roundRecords(
        ev.players.map((p) => p.rank),
        1,
        games,
        eventByes(ev, 1),
      ),
    );
    expect(tables.map((t) => t.board)).toEqual([1, 2, 3, 4]);
    // Board 1: 1 beat 5; 9 beat 13; 17 (team 5) has the bye, ½.
    // BH: 1 → pts(5) 0; 9 → pts(13) 0; 17 → dummy with own ½ (C.07 16.4); 5, 13 → 1 each.
    expect(tables[0].players.map((p) => [p.player, p.team, p.points, p.buchholz, p.rank])).toEqual([
      [1, 1, 1, 0, 1],
      [9, 3, 1, 0, 1],
      [17, 5, 0.5, 0.5, 3],
      [5, 2, 0, 1, 4],
      [13, 4, 0, 1, 4],
    ]);
    // Board 2: 10 (team 3) won by forfeit (FIDE Laws 6.7.1): a win for C.07 7.1, and a dummy (own 1) in Buchholz, not 14's 0.
    const b2 = tables[1].players.find((p) => p.player === 10)!;
    expect([b2.points, b2.wins, b2.buchholz, b2.rank]).toEqual([1, 1, 1, 1]);
  });
});

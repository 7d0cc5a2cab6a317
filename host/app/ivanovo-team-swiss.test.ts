// Round 1 of the Ivanovo "White Rook" 2018 team Swiss (seeds/004_*.txt) through the director and
// the journal: 4 boards per team, 60 min sudden death, 15 min default time. A player who does not
// arrive within the default time loses by forfeit (FIDE Laws 6.7.1), which is recorded as a
// forfeit (TRF16 `+`/`-`), not a played game; the team without an opponent gets 1 match point
// and each of its players ½ point. Standings: board points first, then match points (2/1/0),
// the match between the tied teams, team Buchholz, board 1-4 (host/domain/standings.test.ts
// checks each criterion; here the fixture's round 1 is decided on board 1).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../store/journal.ts';
import type { GameResult } from '../../rules/vocabulary.ts';
import { loadTournamentFile } from '../domain/tournament-file.ts';
import type { Hall } from '../domain/model.ts';
import { eventByes, roundRecords, teamStandings, type ScoredGame } from '../domain/standings.ts';
import { eventTrf } from '../adapters/exports/trf-event.ts';
import { checkTrf, col, parseTrf } from '../adapters/exports/trf-parser.ts';
import { roundPgn } from '../adapters/exports/pgn.ts';
import { readPgnWithBoth } from '../adapters/exports/pgn-readers.fixture.ts';
import { Director } from './director.ts';
import { journalStandings } from './journal-standings.ts';

const START = Date.UTC(2018, 1, 13, 12, 0); // 15:00 Moscow time, round 1
const MIN = 60_000;
let dir: string;
let journal: Journal;
let hall: Hall;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ivanovo-'));
  journal = new Journal(join(dir, 'clocks.db'));
  hall = loadTournamentFile(fileURLToPath(new URL('../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

// Round 1: team 1 – team 2 on boards 1-4, team 3 – team 4 on boards 5-8, team 5 has the bye.
// Board 6: team 4's player (White on board 2 of that match) never arrives: after 15 minutes
// the clock reports the forfeit.
const RESULTS: Record<number, GameResult> = { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' };
// Round 2: team 5 – team 1 3:1, team 2 – team 3 2½:1½, team 4 has the bye.
const RESULTS_2: Record<number, GameResult> = { 1: '1-0', 2: '0-1', 3: '1-0', 4: '1-0', 5: '1-0', 6: '1/2-1/2', 7: '1-0', 8: '1-0' };

function playRound(director: Director): void {
  const clocks = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((b) => [b, `IV-${b}`]));
  const games = director.openRound('ivanovo-2018', 1, START - 10 * MIN, clocks);
  expect(games).toHaveLength(8);
  let seq = 0;
  for (const g of games) {
    const ev = (type: 'started' | 'moved' | 'forfeit' | 'arrived', side: 'white' | 'black' | null, at: number, move: number | null = null) =>
      journal.append({
        clockId: g.clockId!,
        bootId: 'b',
        seq: ++seq,
        type,
        side,
        move,
        whiteMs: 3_600_000,
        blackMs: 3_600_000,
        monoMs: at - START,
        utcMs: at,
        uncertaintyMs: 4,
      });
    ev('started', null, START);
    if (g.board === 6) {
      ev('arrived', 'black', START + 2 * MIN);
      // FIDE Laws 6.7.1: default time 15 min passed with White absent.
      ev('forfeit', 'white', START + 15 * MIN);
      journal.reportResult(g.gameId, { result: '-+', how: 'forfeit-lateness', source: 'clock', bothPlayersConfirmed: true, utcMs: START + 15 * MIN });
    } else {
      ev('moved', 'white', START + MIN, 1);
      ev('moved', 'black', START + 2 * MIN, 1);
      journal.reportResult(g.gameId, { result: RESULTS[g.board], how: 'played', source: 'arbiter', arbiter: 'Главный судья', utcMs: START + 3 * 60 * MIN });
    }
    journal.confirmResult(g.gameId, 'Главный судья', START + 4 * 60 * MIN);
  }
}

describe('Ivanovo team Swiss 2018, round 1', () => {
  it('team colours per board, team names on the games, the event time control with 15 min default time', () => {
    const director = new Director(journal, hall);
    const games = director.openRound('ivanovo-2018', 1, START - 10 * MIN);
    expect(games.map((g) => [g.board, g.whiteTeam, g.blackTeam])).toEqual([
      [1, 'Школа № 1', 'Школа № 2'],
      [2, 'Школа № 2', 'Школа № 1'],
      [3, 'Школа № 1', 'Школа № 2'],
      [4, 'Школа № 2', 'Школа № 1'],
      [5, 'Школа № 3', 'Школа № 4'],
      [6, 'Школа № 4', 'Школа № 3'],
      [7, 'Школа № 3', 'Школа № 4'],
      [8, 'Школа № 4', 'Школа № 3'],
    ]);
    expect(games[0]).toMatchObject({ timeControl: '3600', kind: 'standard', earliestStartUtcMs: START });
    expect(games[0].timeControlValue.defaultTimeMs).toBe(15 * MIN);
  });

  it('standings: board points first, then match points (win 2, draw 1, loss 0), …, board 1; the bye team 1 MP and ½ per player', () => {
    const ev = hall.events[0];
    const scored = (round: number, results: Record<number, GameResult>): ScoredGame[] =>
      ev.rounds[round - 1].boards.map((b) => ({ round, board: b.board, white: b.white, black: b.black, result: results[b.board] }));
    const ranks = ev.players.map((p) => p.rank);
    const after1 = teamStandings(ev, roundRecords(ranks, 1, scored(1, RESULTS), eventByes(ev, 1)), 1);
    // Teams 1, 2 (2 : 2 against each other) and 5 (bye: 4 × ½ and 1 match point) are level on
    // board and match points; 5 met neither, so the match between them does not decide (C.07 6.2);
    // Buchholz 2 each (1 → team 2's 2, 2 → team 1's 2, 5 → a dummy with its own 2, C.07 16.4);
    // board 1: team 1 won it (1), team 5 had ½ from the bye, team 2 lost it (0).
    expect(after1.map((s) => [s.rank, s.team, s.gamePoints, s.matchPoints, s.buchholz, s.boardPoints[0]])).toEqual([
      [1, 3, 3.5, 2, 0.5, 1], // 3½ : ½ (the forfeit win on board 6 counts as a point)
      [2, 1, 2, 1, 2, 1],
      [3, 5, 2, 1, 2, 0.5],
      [4, 2, 2, 1, 2, 0],
      [5, 4, 0.5, 0, 3.5, 0],
    ]);
    const games = [...scored(1, RESULTS), ...scored(2, RESULTS_2)];
    const after2 = teamStandings(ev, roundRecords(ranks, 2, games, eventByes(ev, 2)), 2);
    expect(after2.map((s) => [s.rank, s.team, s.gamePoints, s.matchPoints])).toEqual([
      [1, 5, 5, 3], // equal board points with team 3: more match points first
      [2, 3, 5, 2],
      [3, 2, 4.5, 3],
      [4, 1, 3, 1],
      [5, 4, 2.5, 1],
    ]);
    expect(after2.find((s) => s.team === 4)!.rounds[1]).toEqual({
      round: 2,
      opponent: null,
      colour: null,
      gamePoints: 2,
      matchPoints: 1,
      forfeited: false,
      boardPoints: [0.5, 0.5, 0.5, 0.5],
    });
  });

  it('TRF: forfeit on lateness is `+`/`-` (TRF16 position 99), the bye `H` with opponent 0000, team records 310 and 320', () => {
    const director = new Director(journal, hall);
    playRound(director);
    const trf = eventTrf(journal, hall, 'ivanovo-2018', { upToRound: 1 });
    expect(checkTrf(trf)).toEqual([]);
    const lines = trf.split('\r\n');
    const p = (rank: number) => lines.find((l) => l.startsWith('001') && Number(col(l, 5, 8)) === rank)!;
    // Board 6: White is team 4's 2nd player (rank 14), Black team 3's 2nd player (rank 10).
    expect([col(p(14), 92, 95), col(p(14), 97, 97), col(p(14), 99, 99), col(p(14), 81, 84)]).toEqual(['  10', 'w', '-', ' 0.0']);
    expect([col(p(10), 92, 95), col(p(10), 97, 97), col(p(10), 99, 99), col(p(10), 81, 84)]).toEqual(['  14', 'b', '+', ' 1.0']);
    // A played draw, for contrast: '='.
    expect(col(p(6), 99, 99)).toBe('=');
    // Rank (columns 86-89) by the Ivanovo individual criteria: of the five 1-point players only
    // 10 (forfeit win) has Buchholz 1 — a dummy with its own point (C.07 16.4) — the others
    // 0 (they beat 0-point players); 1, 7, 9 and 12 then stay level on wins and cut Buchholz
    // and never met: they share rank 2.
    expect([10, 1, 7, 9, 12].map((rank) => col(p(rank), 86, 89))).toEqual(['   1', '   2', '   2', '   2', '   2']);
    // The bye team's players: 0000, colour '-', half-point bye.
    for (const rank of [17, 18, 19, 20])
      expect([col(p(rank), 92, 95), col(p(rank), 97, 97), col(p(rank), 99, 99), col(p(rank), 81, 84)]).toEqual(['0000', '-', 'H', ' 0.5']);
    expect(lines).toContain('222 3600');
    expect(lines).toContain('352 WBWB');
    const parsed = parseTrf(trf);
    expect(parsed.teams.map((t) => [t.team, t.matchPoints, t.gamePoints, t.placement, t.players])).toEqual([
      [1, 1, 2, 2, [1, 2, 3, 4]],
      [2, 1, 2, 4, [5, 6, 7, 8]], // level with teams 1 and 5 until board 1 (310 rank, columns 69-71)
      [3, 2, 3.5, 1, [9, 10, 11, 12]],
      [4, 0, 0.5, 5, [13, 14, 15, 16]],
      [5, 1, 2, 3, [17, 18, 19, 20]],
    ]);
    // Record 320: PAB worth 1 match point and 2 game points; team 5 had it in round 1.
    const pab = lines.find((l) => l.startsWith('320'))!;
    expect([col(pab, 5, 8), col(pab, 10, 13), col(pab, 15, 17)]).toEqual([' 1.0', ' 2.0', '005']);
    expect(parsed.forfeitedMatches).toEqual([]); // one board forfeited is not a forfeited match (record 330)
    expect(lines.find((l) => l.startsWith('132'))!.slice(91, 99)).toBe('18/02/13');
  });

  it('Ivanovo regulation: bye — a bye team that lists a reserve (5 players, 4 boards) has 4 × ½ = 2 board points in the standings and in the TRF (310 equal to 320), the reserve no bye and 0 points', () => {
    const event = hall.events[0];
    // Team 5 lists a reserve after its four board players.
    event.players.push({
      rank: 21,
      name: 'Shkola5, Zapasnoy',
      sex: null,
      title: null,
      rating: null,
      federation: 'RUS',
      fideId: null,
      birthDate: null,
      team: 5,
    });
    event.teams.find((t) => t.id === 5)!.players.push(21);
    playRound(new Director(journal, hall));
    const standings = journalStandings(journal, hall, 'ivanovo-2018', 1);
    expect(standings.teams!.find((t) => t.team === 5)).toMatchObject({ gamePoints: 2, matchPoints: 1, rank: 3 });
    const trf = eventTrf(journal, hall, 'ivanovo-2018', { upToRound: 1 });
    expect(checkTrf(trf)).toEqual([]);
    const parsed = parseTrf(trf);
    expect(parsed.teams.find((t) => t.team === 5)).toMatchObject({ gamePoints: 2, matchPoints: 1, placement: 3, players: [17, 18, 19, 20, 21] });
    expect(parsed.pab).toMatchObject({ matchPoints: 1, gamePoints: 2, teams: [5] });
    const reserve = parsed.players.find((p) => p.rank === 21)!;
    expect([reserve.points, reserve.rounds[0]]).toEqual([0, { opponent: null, colour: null, code: ' ' }]);
    expect([17, 18, 19, 20].map((rank) => parsed.players.find((p) => p.rank === rank)!.rounds[0].code)).toEqual(['H', 'H', 'H', 'H']);
  });

  it('TRF-2026 record 330 when a whole team does not come', () => {
    const director = new Director(journal, hall);
    const games = director.openRound('ivanovo-2018', 1, START);
    for (const g of games) {
      // Team 4 never comes: it has White on boards 6 and 8 and Black on 5 and 7.
      const result: GameResult = g.board >= 5 ? (g.whiteTeam === 'Школа № 4' ? '-+' : '+-') : '1/2-1/2';
      journal.reportResult(g.gameId, { result, how: g.board >= 5 ? 'forfeit-lateness' : 'played', source: 'arbiter', arbiter: 'A', utcMs: START + MIN });
      journal.confirmResult(g.gameId, 'A', START + 2 * MIN);
    }
    const parsed = parseTrf(eventTrf(journal, hall, 'ivanovo-2018', { upToRound: 1 }));
    expect(parsed.forfeitedMatches.map((f) => [f.type, f.round, f.white, f.black])).toEqual([['+-', 1, 3, 4]]);
  });

  it('FIDE Laws 6.7.1, neither team comes (every board of the match "--", both lose): 0 board points and 0 match points each, record 330 "--", both players "-" on every board; the TRF reads back consistent', () => {
    const director = new Director(journal, hall);
    const games = director.openRound('ivanovo-2018', 1, START);
    for (const g of games) {
      // Teams 3 and 4 both stay away (boards 5-8); teams 1 and 2 draw every board.
      const result: GameResult = g.board >= 5 ? '--' : '1/2-1/2';
      journal.reportResult(g.gameId, { result, how: g.board >= 5 ? 'forfeit-lateness' : 'played', source: 'arbiter', arbiter: 'A', utcMs: START + MIN });
      journal.confirmResult(g.gameId, 'A', START + 2 * MIN);
    }
    const event = hall.events.find((e) => e.id === 'ivanovo-2018')!;
    const scored: ScoredGame[] = journal
      .gamesByEvent('ivanovo-2018')
      .map((g) => ({ round: 1, board: g.board, white: g.whiteRank!, black: g.blackRank!, result: g.result! }));
    const standings = teamStandings(
      event,
      roundRecords(
        event.players.map((p) => p.rank),
        1,
        scored,
        eventByes(event, 1),
      ),
      1,
    );
    const row = (team: number) => standings.find((t) => t.team === team)!;
    // A match both teams lost by forfeit is no draw: each lost it (team 5's bye: 1 match point).
    expect([3, 4].map((t) => [row(t).gamePoints, row(t).matchPoints, row(t).rounds[0].forfeited])).toEqual([
      [0, 0, true],
      [0, 0, true],
    ]);
    expect([1, 2].map((t) => [row(t).gamePoints, row(t).matchPoints])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    // Unplayed for both (C.07 15.1): their Buchholz counts a dummy with their own 0 board points.
    expect([row(3).buchholz, row(4).buchholz]).toEqual([0, 0]);

    const text = eventTrf(journal, hall, 'ivanovo-2018', { upToRound: 1 });
    expect(checkTrf(text)).toEqual([]);
    const parsed = parseTrf(text);
    expect(parsed.forfeitedMatches.map((f) => [f.type, f.round, f.white, f.black])).toEqual([['--', 1, 3, 4]]);
    expect(parsed.teams.filter((t) => t.team === 3 || t.team === 4).map((t) => [t.team, t.gamePoints, t.matchPoints])).toEqual([
      [3, 0, 0],
      [4, 0, 0],
    ]);
    const codes = games
      .filter((g) => g.board >= 5)
      .flatMap((g) => [g.whiteRank, g.blackRank])
      .map((rank) => parsed.players.find((p) => p.rank === rank)!.rounds[0].code);
    expect(codes).toEqual(Array(8).fill('-'));
  });

  it('PGN: team tags; the game forfeited on lateness (FIDE Laws 6.7.1, no press) is not a game and is left out; chessops and pgn-parser read the rest', () => {
    playRound(new Director(journal, hall));
    const text = roundPgn(journal, hall, 'ivanovo-2018', 1, { nowUtcMs: START + 5 * 60 * MIN });
    const games = readPgnWithBoth(text);
    expect(games[0].tags).toMatchObject({
      Round: '1.1',
      WhiteTeam: 'Школа № 1',
      BlackTeam: 'Школа № 2',
      TimeControl: '3600',
      Result: '1-0',
      GameId: 'ivanovo-2018:1.1.1',
    });
    expect(games.map((g) => g.tags.Round)).toEqual(['1.1', '1.2', '1.3', '1.4', '1.5', '1.7', '1.8']); // no 1.6
  });
});

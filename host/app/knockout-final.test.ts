// Slovenian women's final 2007 (seeds/000_*.txt, art. 3): 2 rounds "po pokalnem sistemu" (knockout),
// semifinals 1 v 4 and 2 v 3, then the final between the two semifinal WINNERS. The tournament
// file says "winnerOf round 1 board b"; the director resolves it from the decided matches when it
// opens round 2. The case that went wrong when the file hard-coded ranks 1 and 2: the lower
// seeds win both semifinals.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from './host.ts';
import { Journal, type GameRow } from '../store/journal.ts';
import { loadTournamentFile } from '../domain/tournament-file.ts';
import type { Hall } from '../domain/model.ts';
import { AnchoredClock } from './utc.ts';
import { Director, DirectorError } from './director.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const ARBITER = 'Ana Srebrnič';
const EVENT = 'slo-w-2007';
const DAY1 = Date.UTC(2007, 7, 16, 14, 0); // 16:00 CEST
const RANK = { rozic: 1, bajt: 2, tretja: 3, cetrta: 4 } as const;

let dir: string;
let dbPath: string;
let journal: Journal;
let hall: Hall;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slo-final-'));
  dbPath = join(dir, 'clocks.db');
  journal = new Journal(dbPath);
  hall = loadTournamentFile(fileURLToPath(new URL('../domain/fixtures/slovenian-final-2007.json', import.meta.url)));
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The arbiter enters and confirms a result: `winner` is a starting rank, or null for a draw. */
function finish(game: GameRow, winner: number | null, endedUtcMs: number): void {
  if (winner !== null && winner !== game.whiteRank && winner !== game.blackRank) {
    throw new Error(`rank ${winner} does not play game ${game.gameId} (${game.whiteRank} v ${game.blackRank})`);
  }
  const result = winner === null ? '1/2-1/2' : winner === game.whiteRank ? '1-0' : '0-1';
  journal.reportResult(game.gameId, { result, how: 'played', source: 'arbiter', arbiter: ARBITER, utcMs: endedUtcMs, endedUtcMs });
  journal.confirmResult(game.gameId, ARBITER, endedUtcMs + MIN);
}

/** Plays a mini-match game by game (`winners` per game, null = draw) until the director decides it. */
function playMatch(director: Director, first: GameRow, winners: (number | null)[]): { winner: string; decidedBy: string } {
  let game = first;
  for (const [i, w] of winners.entries()) {
    const end = Math.max(game.earliestStartUtcMs ?? 0, DAY1) + HOUR;
    finish(game, w, end);
    const upd = director.afterConfirmedResult(game.gameId, end + 2 * MIN);
    if (upd.type === 'decided') {
      if (i !== winners.length - 1) throw new Error(`match ${game.matchId} decided after game ${i + 1} of ${winners.length}`);
      return { winner: upd.match.winner!, decidedBy: upd.match.decidedBy! };
    }
    if (upd.type !== 'next-game') throw new Error(`unexpected ${upd.type}`);
    game = upd.game;
  }
  throw new Error(`match ${first.matchId} not decided after ${winners.length} games`);
}

/** Round 1 with the lower seeds through: Četrta (4) beats Rožič (1) in the rapid tie-break, Tretja (3) beats Bajt (2) in the classical games. */
function semifinalsToLowerSeeds(director: Director): void {
  const [b1, b2] = director.openRound(EVENT, 1, DAY1 - HOUR, { 1: 'CLK-01', 2: 'CLK-02' });
  // Board 2 first, so that board 1 is still playing when the final is asked for below.
  expect(playMatch(director, b2, [RANK.tretja, null])).toEqual({ winner: 'Tretja, Igralka', decidedBy: 'classical' });
  // Board 1: 1-1 in the classical games, then the rapid games (art. 3) 1½-½ to Četrta.
  expect(playMatch(director, b1, [null, null, RANK.cetrta, null])).toEqual({ winner: 'Četrta, Igralka', decidedBy: 'rapid' });
}

function hostOn(j: Journal, utcMs: number): Host {
  const clock = new AnchoredClock({ now: () => 0, setTimer: () => ({}), clearTimer: () => {} }, { hostMs: 0, utcMs });
  return new Host({ journal: j, hall, clock, log: () => undefined });
}

describe("Slovenian women's final 2007 art. 3: knockout ('pokalni sistem'), the final is played by the semifinal winners", () => {
  it('pairs the final from the winners when the lower seeds win both semifinals, one of them after the rapid tie-break', () => {
    const director = new Director(journal, hall);
    semifinalsToLowerSeeds(director);
    const [final] = director.openRound(EVENT, 2, Date.UTC(2007, 7, 18, 12, 0), { 1: 'CLK-01' });
    expect([final.whiteRank, final.blackRank].sort()).toEqual([RANK.tretja, RANK.cetrta]);
    expect([final.white, final.black].sort()).toEqual(['Tretja, Igralka', 'Četrta, Igralka']);
    expect(final).toMatchObject({ round: 2, board: 1, gameNo: 1, kind: 'classical', earliestStartUtcMs: Date.UTC(2007, 7, 18, 14, 0) });
    // The match row lists the entrants in the file's order: winner of board 1, winner of board 2.
    expect(journal.getMatch(`${EVENT}/r2/b1`)).toMatchObject({ playerA: 'Četrta, Igralka', playerB: 'Tretja, Igralka', status: 'playing' });
    // Art. 3: "barva figur se žreba" — colours of game 1 drawn by lot — journaled for an appeal.
    const lots = journal.arbiterActions().filter((a) => a.action === 'draw-colours' && a.round === 2);
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({ arbiter: 'director', payload: { matchId: `${EVENT}/r2/b1`, gameNo: 1, white: final.white, seed: 2007 } });

    // The final goes on between the same two, colours alternating (art. 3).
    finish(final, null, Date.UTC(2007, 7, 18, 19, 0));
    const upd = director.afterConfirmedResult(final.gameId, Date.UTC(2007, 7, 18, 19, 5));
    expect(upd).toMatchObject({ type: 'next-game', game: { gameNo: 2, white: final.black, black: final.white, clockId: 'CLK-01' } });
  });

  it('the top seeds through: the same file pairs Rožič v Bajt, as in 2007', () => {
    const director = new Director(journal, hall);
    const [b1, b2] = director.openRound(EVENT, 1, DAY1 - HOUR);
    playMatch(director, b1, [RANK.rozic, RANK.rozic]);
    playMatch(director, b2, [RANK.bajt, null]);
    const [final] = director.openRound(EVENT, 2, Date.UTC(2007, 7, 18, 12, 0));
    expect([final.whiteRank, final.blackRank].sort()).toEqual([RANK.rozic, RANK.bajt]);
  });

  it('refuses to open the final while a semifinal is undecided, and leaves the journal as it was', () => {
    const director = new Director(journal, hall);
    const [b1, b2] = director.openRound(EVENT, 1, DAY1 - HOUR);
    playMatch(director, b2, [RANK.tretja, null]);
    finish(b1, null, DAY1 + 4 * HOUR); // board 1: one classical game drawn, the match goes on
    director.afterConfirmedResult(b1.gameId, DAY1 + 4 * HOUR + 2 * MIN);
    const before = { games: journal.gamesByEvent(EVENT).length, actions: journal.arbiterActions().length };
    expect(() => director.openRound(EVENT, 2, DAY1 + 5 * HOUR)).toThrow(DirectorError);
    expect(() => director.openRound(EVENT, 2, DAY1 + 5 * HOUR)).toThrow(
      `cannot pair match ${EVENT}/r2/b1: the winner of round 1 board 1 (match ${EVENT}/r1/b1) is not decided yet`,
    );
    expect(journal.gamesByRound(EVENT, 2)).toEqual([]);
    expect(journal.getMatch(`${EVENT}/r2/b1`)).toBeNull();
    expect({ games: journal.gamesByEvent(EVENT).length, actions: journal.arbiterActions().length }).toEqual(before);
  });

  it('refuses to open the final when a semifinal decision no longer matches its confirmed games (a result changed behind the API)', () => {
    const director = new Director(journal, hall);
    semifinalsToLowerSeeds(director);
    // The API refuses this correction once the match is decided (host-arbiter-actions test); the
    // journal itself takes it (a confirmed result, so with a reason: FIDE Laws 8.7), and the
    // director must not pair the final on it.
    const [g1] = journal.gamesByMatch(`${EVENT}/r1/b2`);
    journal.reportResult(g1.gameId, {
      result: '1-0',
      how: 'played',
      source: 'arbiter',
      arbiter: ARBITER,
      utcMs: DAY1 + 30 * HOUR,
      reason: 'a correction behind the API',
    });
    expect(() => director.openRound(EVENT, 2, DAY1 + 40 * HOUR)).toThrow(
      `cannot pair match ${EVENT}/r2/b1: match ${EVENT}/r1/b2 is recorded as won by Tretja, Igralka, but its confirmed games do not decide it`,
    );
    expect(journal.gamesByRound(EVENT, 2)).toEqual([]);
  });

  it('a host opens the final when round 1 is finished, and a host restarted on the journal opens the same final', async () => {
    semifinalsToLowerSeeds(new Director(journal, hall));
    const host = hostOn(journal, Date.UTC(2007, 7, 18, 12, 0));
    expect(host.currentRound(hall.events[0])).toBe(2);
    host.start(); // the host opens the current round of every event
    const opened = journal.gamesByRound(EVENT, 2);
    expect(opened.map((g) => [g.whiteRank, g.blackRank].sort())).toEqual([[RANK.tretja, RANK.cetrta]]);
    await host.close();
    journal.close();

    // Restart: a new journal handle, host and director on the same file.
    journal = new Journal(dbPath);
    const again = hostOn(journal, Date.UTC(2007, 7, 18, 13, 0)).start();
    expect(journal.gamesByRound(EVENT, 2).map((g) => [g.gameId, g.white, g.black])).toEqual(opened.map((g) => [g.gameId, g.white, g.black]));
    expect(journal.arbiterActions().filter((a) => a.action === 'draw-colours' && a.round === 2)).toHaveLength(1);
    // The restarted director goes on with the same players.
    finish(opened[0], opened[0].whiteRank, Date.UTC(2007, 7, 18, 19, 0));
    const upd = new Director(journal, hall).afterConfirmedResult(opened[0].gameId, Date.UTC(2007, 7, 18, 19, 5));
    expect(upd).toMatchObject({ type: 'next-game', game: { gameNo: 2, whiteRank: opened[0].blackRank, blackRank: opened[0].whiteRank } });
    await again.close();
  });
});

// A whole knockout mini-match of the Slovenian women's final 2007 (seeds/000_*.txt, art. 3)
// driven through the director on a real SQLite journal, and checked in the journal, the TRF
// (by column) and the PGN (by tag): 2 classical draws → rapid 1-1 → armageddon draw → Black advances.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, type GameRow } from '../store/journal.ts';
import type { GameResult } from '../../rules/vocabulary.ts';
import { loadTournamentFile } from '../domain/tournament-file.ts';
import type { Hall } from '../domain/model.ts';
import { eventTrf } from '../adapters/exports/trf-event.ts';
import { col, parseTrf } from '../adapters/exports/trf-parser.ts';
import { roundPgn } from '../adapters/exports/pgn.ts';
import { readPgnWithBoth } from '../adapters/exports/pgn-readers.fixture.ts';
import { replayLines } from '../adapters/exports/replay-log.ts';
import { Director, DirectorError } from './director.ts';
import { journalInput } from '../clocks/clock-event.ts';
import { Boot } from '../clocks/journaled-clock.fixture.ts';

const MIN = 60_000;
const ARBITER = 'Ana Srebrnič';
let dir: string;
let journal: Journal;
let hall: Hall;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slo-'));
  journal = new Journal(join(dir, 'clocks.db'));
  hall = loadTournamentFile(fileURLToPath(new URL('../domain/fixtures/slovenian-final-2007.json', import.meta.url)));
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Plays a game on its clock: the arbiter starts it, `moves` full moves (each side thinks
 * `thinkMs` per move), then the players enter the result on the clock and both confirm, and
 * the arbiter confirms it. The clock is the real statechart, its events journaled as the host
 * journals them (journaled-clock.fixture.ts): increments and the move-40 bonus are the clock's.
 */
function play(game: GameRow, startUtcMs: number, moves: number, result: GameResult, thinkMs = MIN): number {
  const origin = startUtcMs - Date.UTC(2007, 7, 16) + 5_000; // the clock's own base
  const clock = new Boot(game.clockId!, ++boots, game.timeControlValue, origin, (b, ev) => {
    journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: startUtcMs + (ev.atMs - origin), uncertaintyMs: 3 }), gameId: game.gameId });
  });
  clock.send({ type: 'START', at: origin });
  let side: 'white' | 'black' = 'white';
  for (let p = 0; p < 2 * moves; p++) {
    clock.send({ type: 'PRESS', side, at: clock.now + thinkMs });
    side = side === 'white' ? 'black' : 'white';
  }
  clock.send({ type: 'PAUSE', at: clock.now });
  const t = startUtcMs + (clock.now - origin);
  clock.actor.stop();
  journal.reportResult(game.gameId, { result, how: 'played', source: 'clock', bothPlayersConfirmed: true, utcMs: t });
  journal.confirmResult(game.gameId, ARBITER, t + MIN);
  return t;
}
let boots = 0;

describe('Slovenian final 2007: a knockout mini-match through the director', () => {
  it('art. 3: 2 classical draws → rapid 1-1 after a 30-minute break → armageddon draw → Black advances', () => {
    const director = new Director(journal, hall);
    const opened = director.openRound('slo-w-2007', 1, Date.UTC(2007, 7, 16, 13, 0), { 1: 'CLK-01', 2: 'CLK-02' });
    expect(opened.map((g) => [g.board, g.white, g.black, g.kind])).toEqual([
      [1, 'Rožič, Vesna', 'Četrta, Igralka', 'classical'], // art. 3: Rožič has White in round 1
      [2, 'Bajt, Indira', 'Tretja, Igralka', 'classical'],
    ]);
    // Opening twice changes nothing (host restart).
    expect(director.openRound('slo-w-2007', 1, Date.UTC(2007, 7, 16, 13, 5)).map((g) => g.gameId)).toEqual(opened.map((g) => g.gameId));

    // Board 2 is decided in the classical games: 1½-½.
    let end = play(opened[1], Date.UTC(2007, 7, 16, 14, 0), 30, '1-0');
    let upd = director.afterConfirmedResult(opened[1].gameId, end + MIN);
    expect(upd.type).toBe('next-game');
    const b2g2 = upd.type === 'next-game' ? upd.game : null!;
    end = play(b2g2, Date.UTC(2007, 7, 17, 14, 0), 25, '1/2-1/2');
    upd = director.afterConfirmedResult(b2g2.gameId, end + MIN);
    expect(upd).toMatchObject({ type: 'decided', match: { winner: 'Bajt, Indira', decidedBy: 'classical' } });

    // Board 1: game 1 drawn; game 2 is scheduled for the next day at 16:00 (art. 4).
    end = play(opened[0], Date.UTC(2007, 7, 16, 14, 0), 40, '1/2-1/2');
    upd = director.afterConfirmedResult(opened[0].gameId, end + MIN);
    if (upd.type !== 'next-game') throw new Error(`expected the next game, got ${upd.type}`);
    expect(upd.game).toMatchObject({ gameNo: 2, kind: 'classical', white: 'Četrta, Igralka', black: 'Rožič, Vesna', clockId: 'CLK-01' });
    expect(upd.game.earliestStartUtcMs).toBe(Date.UTC(2007, 7, 17, 14, 0));
    const g2End = play(upd.game, Date.UTC(2007, 7, 17, 14, 0), 41, '1/2-1/2');

    // Tied 1-1: rapid, half an hour after the game ended; the countdown starts at 30 minutes.
    upd = director.afterConfirmedResult(upd.game.gameId, g2End + MIN);
    if (upd.type !== 'next-game') throw new Error('expected the rapid game');
    expect(upd.game).toMatchObject({ gameNo: 3, kind: 'rapid', white: 'Rožič, Vesna', timeControl: '900+10' });
    expect(upd.game.earliestStartUtcMs).toBe(g2End + 30 * MIN);
    expect(upd.breakRemainingMs).toBe(29 * MIN); // confirmed one minute after the end
    expect(director.knockoutState('slo-w-2007', 1, 1, g2End + 20 * MIN).breakRemainingMs).toBe(10 * MIN);
    let g = upd.game;
    end = play(g, g.earliestStartUtcMs!, 20, '1-0', 30_000);
    upd = director.afterConfirmedResult(g.gameId, end + MIN);
    if (upd.type !== 'next-game') throw new Error('expected rapid game 2');
    g = upd.game;
    expect(g).toMatchObject({ gameNo: 4, kind: 'rapid', white: 'Četrta, Igralka' });
    const rapidEnd = play(g, g.earliestStartUtcMs!, 22, '1-0', 30_000); // 1-1 in the rapid games
    upd = director.afterConfirmedResult(g.gameId, rapidEnd + MIN);

    // Still tied: the golden game immediately, colours by lot, White 6 min / Black 5 min.
    if (upd.type !== 'next-game') throw new Error('expected the armageddon');
    const arm = upd.game;
    expect(arm).toMatchObject({ gameNo: 5, kind: 'armageddon', timeControl: 'W360-B300', earliestStartUtcMs: rapidEnd });
    const lots = journal.arbiterActions().filter((a) => a.action === 'draw-colours');
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({ arbiter: 'director', payload: { gameNo: 5, white: arm.white, seed: 2007 } });
    const armEnd = play(arm, rapidEnd + 2 * MIN, 15, '1/2-1/2', 15_000);
    upd = director.afterConfirmedResult(arm.gameId, armEnd + MIN);

    // A draw in the golden game is enough for Black.
    expect(upd).toMatchObject({ type: 'decided', match: { status: 'decided', winner: arm.black, loser: arm.white, decidedBy: 'armageddon' } });
    const match = journal.getMatch('slo-w-2007/r1/b1')!;
    expect(match).toMatchObject({ winner: arm.black, decidedBy: 'armageddon' });
    expect(journal.gamesByMatch(match.matchId).map((x) => [x.kind, x.result, x.confirmedBy])).toEqual([
      ['classical', '1/2-1/2', ARBITER],
      ['classical', '1/2-1/2', ARBITER],
      ['rapid', '1-0', ARBITER],
      ['rapid', '1-0', ARBITER],
      ['armageddon', '1/2-1/2', ARBITER],
    ]);

    // TRF (standard): the classical games; TRF16 round fields at 92-95 / 97 / 99, 102-105 / 107 / 109.
    const trf = eventTrf(journal, hall, 'slo-w-2007', { upToRound: 1 });
    const lines = trf.split('\r\n');
    expect(lines).toContain('222 40/5400+30:900+30');
    const rozic = lines.find((l) => l.startsWith('001') && col(l, 15, 47).trim() === 'Rožič, Vesna')!;
    expect(col(rozic, 5, 8)).toBe('   1');
    expect(col(rozic, 81, 84)).toBe(' 1.0');
    expect([col(rozic, 92, 95), col(rozic, 97, 97), col(rozic, 99, 99)]).toEqual(['   4', 'w', '=']);
    expect([col(rozic, 102, 105), col(rozic, 107, 107), col(rozic, 109, 109)]).toEqual(['   4', 'b', '=']);
    const bajt = parseTrf(trf).players.find((p) => p.rank === 2)!;
    expect(bajt.rounds.map((r) => r.code)).toEqual(['1', '=']);
    expect(bajt.points).toBe(1.5);

    // TRF (blitz): the armageddon alone, tag 222 `W360-B300`; a drawn game is `=` in the TRF —
    // the draw odds decide the match, not the game's result.
    const blitz = parseTrf(eventTrf(journal, hall, 'slo-w-2007', { upToRound: 1, category: 'blitz' }));
    expect(blitz.tags.get('222')).toEqual(['W360-B300']);
    const armWhite = blitz.players.find((p) => p.name === arm.white)!;
    expect(armWhite.rounds).toEqual([{ opponent: arm.blackRank, colour: 'w', code: '=' }]);
    const rapid = parseTrf(eventTrf(journal, hall, 'slo-w-2007', { upToRound: 1, category: 'rapid' }));
    expect(rapid.tags.get('222')).toEqual(['900+10']);
    expect(rapid.players.find((p) => p.rank === 1)!.rounds.map((r) => `${r.colour}${r.code}`)).toEqual(['w1', 'b0']);

    // PGN of round 1: every game with its tags; the mini-match games are `1.1.g`.
    const pgnText = roundPgn(journal, hall, 'slo-w-2007', 1, { nowUtcMs: armEnd + 2 * MIN });
    const pgn = readPgnWithBoth(pgnText);
    const board1 = pgn.filter((x) => x.tags.Round.startsWith('1.1.'));
    // The armageddon's unequal control: TimeControl `?`, each side's in its own tag (docs/exports.md).
    expect(board1.map((x) => [x.tags.Round, x.tags.Result, x.tags.TimeControl])).toEqual([
      ['1.1.1', '1/2-1/2', '40/5400+30:900+30'],
      ['1.1.2', '1/2-1/2', '40/5400+30:900+30'],
      ['1.1.3', '1-0', '900+10'],
      ['1.1.4', '1-0', '900+10'],
      ['1.1.5', '1/2-1/2', '?'],
    ]);
    // The five games of the mini-match share Event, Site, round, board and players: lichess
    // relays would merge them; each has a GameId of its own, which relays match first.
    expect(board1.map((x) => x.tags.GameId)).toEqual([1, 2, 3, 4, 5].map((g) => `slo-w-2007:1.1.${g}`));
    const last = board1[4].tags;
    // PGN §8.1.1 order, in every game as written (the readers hand tags over as a map).
    for (const game of pgnText.split(/\n\n(?=\[)/))
      expect([...game.matchAll(/^\[(\w+) /gm)].map((m) => m[1]).slice(0, 7)).toEqual(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result']);
    expect(last).toMatchObject({
      Event: '17. državno prvenstvo članic - finale',
      Site: 'Ljubljana SLO',
      Date: '2007.08.17',
      White: arm.white,
      WhiteTimeControl: '360',
      BlackTimeControl: '300',
    });
    // 15 moves of 15 s each from 6:00 and 5:00: the clocks the relay shows (h:mm:ss), no clock running.
    expect([last.WhiteClock, last.BlackClock, last.Clock]).toEqual(['0:02:15', '0:01:15', undefined]);
    // 40 moves of 1 min each on 40/5400+30:900+30 (increment before the move, FIDE Laws 6.10.1 bonus
    // at move 40): 90 min + 30 s at the start + 40 × 30 s + 15 min − 40 min = 85 min 30 s each.
    expect(board1[0].tags).toMatchObject({ WhiteClock: '1:25:30', BlackClock: '1:25:30' });
    expect([board1[0].sans, board1[0].comments, board1[0].result]).toEqual([[], [], '1/2-1/2']); // the movetext is the result alone

    // The armageddon as `chessclock replay` input, for an appeal.
    const replay = replayLines(journal, arm.gameId).map((l) => JSON.parse(l));
    expect(replay[0]).toEqual({ type: 'setup', white: '360', black: '300', incrementTiming: 'before-move' });
    expect(replay[1]).toEqual({ t: 0, type: 'start' });
    expect(replay[2]).toEqual({ t: 15_000, type: 'press', side: 'white' });
    expect(replay[3]).toEqual({ t: 30_000, type: 'press', side: 'black' });
    // The end line carries the result and who confirmed it (docs/replay.md "end"): the appeal committee's view.
    expect(replay.at(-1)).toEqual({ t: 30 * 15_000, type: 'end', result: '1/2-1/2', how: 'played', reportedBy: 'clock', confirmedBy: ARBITER });
    expect(replay.filter((l) => l.type === 'press')).toHaveLength(30);
  });

  it('a result not yet confirmed by the arbiter does not move the match on, and blocks the TRF', () => {
    const director = new Director(journal, hall);
    const [g1] = director.openRound('slo-w-2007', 1, Date.UTC(2007, 7, 16, 13, 0), { 1: 'CLK-01' });
    journal.reportResult(g1.gameId, { result: '1-0', how: 'played', source: 'clock', bothPlayersConfirmed: true, utcMs: Date.UTC(2007, 7, 16, 18, 0) });
    expect(() => director.afterConfirmedResult(g1.gameId, Date.UTC(2007, 7, 16, 18, 1))).toThrow(/result not confirmed by an arbiter yet/);
    expect(() => eventTrf(journal, hall, 'slo-w-2007', { upToRound: 1 })).toThrow(
      /round 1 board 1 result not confirmed by an arbiter; round 1 board 2 has no result/,
    );
  });

  it('a host restarted on the same journal continues the match where it stopped', () => {
    const path = join(dir, 'restart.db');
    let j = new Journal(path);
    let d = new Director(j, hall);
    const [g1] = d.openRound('slo-w-2007', 1, Date.UTC(2007, 7, 16, 13, 0), { 1: 'CLK-01' });
    const save = journal;
    journal = j;
    const end = play(g1, Date.UTC(2007, 7, 16, 14, 0), 10, '0-1');
    j.close();
    j = new Journal(path);
    d = new Director(j, hall);
    const upd = d.afterConfirmedResult(g1.gameId, end + MIN);
    expect(upd).toMatchObject({ type: 'next-game', game: { gameNo: 2, white: 'Četrta, Igralka', clockId: 'CLK-01' } });
    j.close();
    journal = save;
  });
  it('FIDE Laws 6.7.1, an armageddon both players forfeited ("--"): art. 3 decides nothing, so the director says so, naming the match (a DirectorError the host logs, not a fault), and the match waits until the arbiter corrects the result', () => {
    const director = new Director(journal, hall);
    const [first] = director.openRound('slo-w-2007', 1, Date.UTC(2007, 7, 16, 13, 0), { 1: 'CLK-01', 2: 'CLK-02' });
    let t = Date.UTC(2007, 7, 16, 14, 0);
    const confirm = (game: GameRow, result: GameResult, reason?: string) => {
      t += 60 * MIN;
      journal.reportResult(game.gameId, {
        result,
        how: result === '--' ? 'forfeit-lateness' : 'played',
        source: 'arbiter',
        arbiter: ARBITER,
        utcMs: t,
        reason,
      });
      journal.confirmResult(game.gameId, ARBITER, t);
      return director.afterConfirmedResult(game.gameId, t);
    };
    // 1-1 in the classical games, 1-1 in the rapid games: the armageddon.
    let game: GameRow = first;
    for (const result of ['1/2-1/2', '1/2-1/2', '1-0', '1-0'] as const) {
      const next = confirm(game, result);
      expect(next.type).toBe('next-game');
      game = next.type === 'next-game' ? next.game : game;
    }
    expect(game).toMatchObject({ gameNo: 5, kind: 'armageddon' });
    expect(() => confirm(game, '--')).toThrow(DirectorError);
    expect(() => director.afterConfirmedResult(game.gameId, t)).toThrow(
      /match slo-w-2007\/r1\/b1: armageddon double forfeit — no rule decides it; the arbiter must/,
    );
    expect(journal.getMatch('slo-w-2007/r1/b1')).toMatchObject({ status: 'playing', winner: null });
    // The arbiter decides: White came after all (a corrected result), and the match is decided.
    const decided = confirm(game, '+-', 'White was at the board in time: the clock was started late');
    expect(decided).toMatchObject({ type: 'decided', match: { winner: game.white, decidedBy: 'armageddon' } });
  });
});

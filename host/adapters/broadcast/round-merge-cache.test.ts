// docs/broadcast.md "The merged games", "Only what changed": the live broadcast keeps each board's
// merge and builds again only the boards whose journal or moves changed; what it pushes is the
// same, byte for byte, as a merge of the whole round from the journal (the PGN standard's text of
// each game, its warnings, the unmatched games of the moves source).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameAsOf } from '../../app/journal-as-of.ts';
import { BroadcastHall, CLASSICAL, press } from './broadcast-hall.fixture.ts';
import { broadcastRound, type RoundState } from './live-pgn.ts';
import { RoundMergeCache } from './round-merge-cache.ts';

let hall: BroadcastHall;
beforeEach(() => {
  hall = new BroadcastHall();
});
afterEach(() => hall.journal.close());

const game = (round: string, white: string, black: string, movetext: string) =>
  `[Event "?"]\n[Round "${round}"]\n[White "${white}"]\n[Black "${black}"]\n[Result "*"]\n\n${movetext}\n\n`;

/** The round as the journal held it at `instant` (a delayed view, host/app/journal-as-of.ts). */
function roundAsOf(instant: number): RoundState {
  const round = hall.round(CLASSICAL);
  return { ...round, games: round.games.flatMap(({ game: g, events }) => gameAsOf(g, events, instant) ?? []) };
}

describe('the merge of only what changed (docs/broadcast.md "Only what changed")', () => {
  it('after every press, result, penalty and moves text the cached merge is the full merge, byte for byte, live and delayed', () => {
    const [b1, b2] = hall.games[CLASSICAL];
    const live = new RoundMergeCache();
    const delayed = new RoundMergeCache();
    let moves: string | null = null;
    const seen = { compared: 0, warnings: 0, unmatched: 0, moves: 0 };
    const same = (instant: number) => {
      const state = hall.round(CLASSICAL);
      const full = broadcastRound(state, instant, moves);
      expect(broadcastRound(state, instant, moves, { cache: live })).toEqual(full);
      seen.warnings += full.warnings.length;
      seen.unmatched += full.unmatched.length;
      seen.moves += full.games.reduce((n, g) => n + g.plies, 0);
      // A delay of 30 s: the round as it stood then, only the moves pressed by then (docs/broadcast.md "The delay").
      const asOf = instant - 30_000;
      const held = roundAsOf(asOf);
      expect(broadcastRound(held, asOf, moves, { pressedMovesOnly: true, cache: delayed })).toEqual(
        broadcastRound(held, asOf, moves, { pressedMovesOnly: true }),
      );
      seen.compared++;
    };
    same(hall.utc(1_000_000));
    const c1 = hall.clock(b1);
    same(hall.utc(c1.now + 500));
    const c2 = hall.clock(b2);
    const think = [31_400, 12_000, 65_001, 2_000, 7_500, 900, 45_000, 3_300];
    for (const [i, ms] of think.entries()) {
      press(c1, ms);
      same(hall.utc(c1.now + 1_700));
      same(hall.utc(c1.now + 61_000)); // the running clock only: its tags, not its moves
      press(c2, ms + 1_000);
      same(hall.utc(c2.now + 200));
      if (i === 1) moves = game('1.1', b1.white, b1.black, '1. e4 e5 2. Nf3 Nc6 *') + game('1.2', b2.white, b2.black, '1. d4 d5 *');
      if (i === 3) moves = game('1.1', b1.white, b1.black, '1. e4 e5 2. Nf3 Nc6 *') + game('1.2', b2.white, b2.black, '1. d4 d5 2. c4 e6 3. Nc3 *');
      if (i === 4) moves = `${moves}${game('1.9', 'Nobody', 'Else', '1. e4 *')}`; // a game of no board
      if (i === 5) moves = game('1.2', b2.white, b2.black, '1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 *') + game('1.1', b1.white, b1.black, '1. e4 e5 2. Nf3 *');
      same(hall.utc(c2.now + 900));
    }
    // White's illegal move completed (FIDE Laws 7.5.5): two minutes more for Black, shown at once.
    c1.send({ type: 'PENALTY', side: 'white', at: c1.now + 2_000 });
    same(hall.utc(c1.now + 5_000));
    const end = hall.utc(Math.max(c1.now, c2.now) + 10_000);
    hall.journal.reportResult(b1.gameId, { result: '1-0', how: 'played', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: end });
    same(end + 1_000);
    hall.journal.confirmResult(b1.gameId, 'Ana Srebrnič', end + 2_000);
    same(end + 3_000);
    same(end + 60_000);
    // The sequence held what the merge writes: moves, moves and presses that differ, a game of no board.
    expect(seen.compared).toBe(2 + 8 * 4 + 4);
    expect(Math.min(seen.warnings, seen.unmatched, seen.moves)).toBeGreaterThan(0);
  });

  it("a press on one board merges that board alone again; the others' running clocks are written anew without a rebuild", () => {
    const [b1, b2] = hall.games[CLASSICAL];
    const merged: number[] = [];
    const cache = new RoundMergeCache((gameId) => merged.push(gameId));
    const moves = game('1.1', b1.white, b1.black, '1. e4 e5 2. Nf3 *') + game('1.2', b2.white, b2.black, '1. d4 d5 *');
    const c1 = hall.clock(b1);
    const c2 = hall.clock(b2);
    press(c1, 10_000);
    press(c2, 20_000);
    broadcastRound(hall.round(CLASSICAL), hall.utc(c2.now), moves, { cache });
    expect(merged).toEqual([b1.gameId, b2.gameId]);

    merged.length = 0;
    press(c1, 5_000);
    const out = broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now + 3_000), moves, { cache });
    expect(merged).toEqual([b1.gameId]);
    // Board 2's clock (Black's, running since its press) is read at the new instant all the same.
    expect(out.games[1].pgn).toBe(broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now + 3_000), moves).games[1].pgn);

    // A new moves text that changes board 2's game alone merges board 2 alone.
    merged.length = 0;
    const more = game('1.1', b1.white, b1.black, '1. e4 e5 2. Nf3 *') + game('1.2', b2.white, b2.black, '1. d4 d5 2. c4 *');
    broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now + 4_000), more, { cache });
    expect(merged).toEqual([b2.gameId]);

    // Nothing changed: nothing merged, a minute later too.
    merged.length = 0;
    broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now + 64_000), more, { cache });
    expect(merged).toEqual([]);
  });
});

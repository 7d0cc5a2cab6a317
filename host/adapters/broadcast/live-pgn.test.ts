// docs/broadcast.md "The merged games": a round's PGN for a live broadcast, each board's moves
// with the journal's press times, read back as lichess reads a push (chessops: parsed, every move
// played by the rules, the clock comments read).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PgnSyntaxError } from '../../app/pgn-movetext.ts';
import { BLITZ, BroadcastHall, CLASSICAL, press } from './broadcast-hall.fixture.ts';
import { readWithChessops } from './chessops-reader.fixture.ts';
import { broadcastRound, joinGames } from './live-pgn.ts';

let hall: BroadcastHall;
beforeEach(() => {
  hall = new BroadcastHall();
});
afterEach(() => hall.journal.close());

/** A `h:mm:ss(.f)` tag value in seconds. */
function seconds(text: string): number {
  const m = /^(\d+):(\d\d):(\d\d(?:\.\d)?)$/.exec(text);
  if (!m) throw new Error(`"${text}" is not h:mm:ss(.f)`);
  return (Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]);
}
/** What the clock's display shows of `ms` (rounded up, FIDE electronic clocks (b)): whole seconds, tenths under a minute. */
const shown = (ms: number) => (ms < 60_000 ? Math.ceil(ms / 100) / 10 : Math.ceil(ms / 1000));

const MOVES = (round: string, white: string, black: string, movetext: string, extra = '') =>
  `[Event "?"]\n[Round "${round}"]\n[White "${white}"]\n[Black "${black}"]\n${extra}[Result "*"]\n\n${movetext}\n\n`;

describe('the merged games, live (docs/broadcast.md "The merged games")', () => {
  it("each move carries the journal's [%clk] and [%emt]; the host's tags; lichess's chessops reads every game and plays every move", () => {
    const [b1, b2] = hall.games[CLASSICAL];
    const c1 = hall.clock(b1);
    for (const ms of [31_400, 12_000, 65_001, 2_000, 7_500, 900]) press(c1, ms);
    const c2 = hall.clock(b2);
    for (const ms of [5_000, 6_000, 7_000, 8_000]) press(c2, ms);
    // A LiveChess-style file: board 1 by round and names (with a [%clk] of the board's own, replaced),
    // board 2 by GameId with one move more than its presses, and a game of no board of this round.
    const moves =
      MOVES('1.1', b1.white, b1.black, '1. e4 {[%clk 1:29:00]} e5 2. Nf3 Nc6 3. Bb5 a6 *') +
      MOVES('?', 'x', 'y', '1. d4 d5 2. c4 e6 3. Nc3 *', `[GameId "${CLASSICAL}:1.2.1"]\n`) +
      MOVES('1.9', 'Nobody', 'Else', '1. e4 *');
    const out = broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now), moves);

    expect(out.games.map((g) => [g.board, g.gameId])).toEqual([
      [1, `${CLASSICAL}:1.1.1`],
      [2, `${CLASSICAL}:1.2.1`],
    ]);
    expect(out.unmatched).toEqual([{ line: 18, game: '1.9 Nobody – Else', reason: 'Round "1.9": the journal has no round 1 board 9 game 1' }]);
    // PGN supplement: the count that differs is said, on the board and in the game.
    const mismatch =
      "Moves and clock presses differ: White 3 moves / 2 presses, Black 2 moves / 2 presses; no press for 1 move(s), first White's move 3. Times are given by count (move k, press k).";
    expect(out.warnings).toEqual([{ board: 2, gameNo: 1, gameId: `${CLASSICAL}:1.2.1`, message: mismatch }]);

    const read = readWithChessops(joinGames(out.games));
    expect(read.map((g) => g.error)).toEqual([null, null]);
    const [g1, g2] = read;
    // Tags lichess matches games by across pushes, and TimeControl in the PGN standard's notation (§9.6.1).
    expect([g1.tags.White, g1.tags.Black, g1.tags.Round, g1.tags.GameId, g1.tags.TimeControl]).toEqual([
      b1.white,
      b1.black,
      '1.1',
      `${CLASSICAL}:1.1.1`,
      '40/5400+30:900+30',
    ]);
    expect(g1.tags.Result).toBe('*');
    expect(g1.sans).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
    // %clk: the journal's time of each press, as the clock showed it; %emt: the thinking time played.
    const figures = hall.pressFigures(b1);
    const keys = ['white:1', 'black:1', 'white:2', 'black:2', 'white:3', 'black:3'];
    expect(g1.clocks).toEqual(keys.map((k) => shown(figures.get(k)!)));
    expect(g1.emts).toEqual([31.4, 12, 66, 2, 7.5, 0.9]);
    expect(g1.plyComments[0].join(' ')).not.toContain('1:29:00');
    // Board 2: the fifth move has no press, so no time; the comment says why.
    expect(g2.sans).toEqual(['d4', 'd5', 'c4', 'e6', 'Nc3']);
    expect(g2.clocks.at(-1)).toBeNull();
    expect(g2.comments.join(' ')).toContain(mismatch);
  });

  it('WhiteClock/BlackClock are the running clock at the given instant: a penalty shows at once, before any move (FIDE Laws 7.5.5)', () => {
    const [b1] = hall.games[CLASSICAL];
    const c1 = hall.clock(b1);
    for (const ms of [10_000, 20_000]) press(c1, ms);
    const lastPress = hall.journal
      .eventsByGame(b1.gameId)
      .filter((e) => e.type === 'moved')
      .at(-1)!;
    const pressedAt = c1.now;
    const clocksAt = (clockMs: number) => {
      const [game] = readWithChessops(joinGames(broadcastRound(hall.round(CLASSICAL), hall.utc(clockMs)).games));
      return [seconds(game.tags.WhiteClock), seconds(game.tags.BlackClock)];
    };
    // White's clock runs from Black's press; Black's stands.
    expect(clocksAt(pressedAt + 9_000)).toEqual([Math.ceil((lastPress.whiteMs - 9_000) / 1000), Math.ceil(lastPress.blackMs / 1000)]);
    // White's illegal move completed (FIDE Laws 7.5.5): two minutes more for Black, shown at once.
    c1.send({ type: 'PENALTY', side: 'white', at: pressedAt + 10_000 });
    expect(clocksAt(pressedAt + 11_000)).toEqual([Math.ceil((lastPress.whiteMs - 11_000) / 1000), Math.ceil((lastPress.blackMs + 120_000) / 1000)]);
  });

  it('under a minute the times are in tenths of a second (lichess reads [%clk H:MM:SS.f])', () => {
    const [b1] = hall.games[BLITZ];
    const c1 = hall.clock(b1);
    // The increment is credited before each move, the first included (the
    // control's default incrementTiming 'before-move', protocol/time-control.ts): 180 s + 2 s − 130 s + 2 s.
    press(c1, 130_000); // 54 s left
    press(c1, 3_050); // 180 s + 2 s − 3.05 s + 2 s = 180.95 s, shown 3:01
    const out = broadcastRound(hall.round(BLITZ), hall.utc(c1.now), MOVES('1.1', b1.white, b1.black, '1. e4 e5 *'));
    const text = out.games[0].pgn;
    expect(text).toContain('[TimeControl "180+2"]');
    expect(text).toContain('1. e4 {[%clk 0:00:54.0] [%emt 0:02:10]} 1... e5\n{[%clk 0:03:01] [%emt 0:00:03.1]}');
    expect(text).toContain('[WhiteClock "0:00:54.0"]');
  });

  it('with no moves source each game still carries its clocks, its result and its Termination from the host', () => {
    const [b1, b2] = hall.games[BLITZ];
    const c1 = hall.clock(b1);
    press(c1, 130_000);
    press(c1, 3_050);
    const endUtc = hall.utc(c1.now + 1_000);
    hall.journal.reportResult(b1.gameId, { result: '1-0', how: 'played', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: endUtc });
    hall.journal.confirmResult(b1.gameId, 'Ana Srebrnič', endUtc);
    const out = broadcastRound(hall.round(BLITZ), endUtc + 60_000);
    const [g1, g2] = readWithChessops(joinGames(out.games));
    expect([g1.tags.Result, g1.tags.Termination, g1.sans]).toEqual(['1-0', 'normal', []]);
    // With a result no clock runs in the broadcast: both times as the clock last reported them (Black's press), a minute later too.
    expect([g1.tags.WhiteClock, g1.tags.BlackClock, g1.tags.Clock]).toEqual(['0:00:54.0', '0:03:01', undefined]);
    expect(out.games[0].pgn.trimEnd().endsWith('\n\n1-0')).toBe(true);
    // Board 2 was never started: its clocks are absent, its game unknown.
    expect([g2.tags.White, g2.tags.Result, g2.tags.WhiteClock]).toEqual([b2.white, '*', undefined]);
    expect(out.warnings).toEqual([]);
  });

  it('a moves text that is not PGN is refused with its line:column, so the caller keeps the text it had', () => {
    expect(() => broadcastRound(hall.round(BLITZ), hall.utc(0), '[Round "1.1"]\n\n1. e4 {unclosed')).toThrow(PgnSyntaxError);
  });
});

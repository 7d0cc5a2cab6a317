// Clock times merged into a PGN with the moves (docs/exports.md "Clock times merged into the
// moves"): games played on the real clock statechart and journaled as the host journals them
// (journaled-clock.fixture.ts Boot → host-link ClockEvent → journalInput → SQLite), a DGT-style
// PGN of their moves merged, and the result read by chessops and @mliebelt/pgn-parser
// (pgn-readers.fixture.ts). Each [%clk] must be the journal's time of its press and each [%emt]
// the thinking time the test played, pauses left out.
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePgn } from 'chessops/pgn';
import { Journal, type GameRow } from '../../store/journal.ts';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import type { Hall } from '../../domain/model.ts';
import { Director } from '../../app/director.ts';
import { Boot } from '../../clocks/journaled-clock.fixture.ts';
import { journalInput } from '../../clocks/clock-event.ts';
import { readPgnWithBoth } from './pgn-readers.fixture.ts';
import { mergeClockTimes } from './pgn-merge.ts';
import { parseMovetextGames, PgnSyntaxError } from '../../app/pgn-movetext.ts';

const FIXTURE = fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url));
const START = Date.UTC(2018, 1, 13, 12, 0);
const EVENT = 'Белая ладья - первенство г. Иваново';

let journal: Journal;
let hall: Hall;
let games: GameRow[];
beforeEach(() => {
  journal = new Journal(':memory:');
  hall = loadTournamentFile(FIXTURE);
  games = new Director(journal, hall).openRound('ivanovo-2018', 1, START, { 1: 'clk-1', 2: 'clk-2', 3: 'clk-3' });
});
afterEach(() => journal.close());

let boots = 0;
/** The board's clock: the real statechart, every output journaled as the host does (UTC = START + clock time). */
function clockFor(game: GameRow): Boot {
  const origin = 1_000_000;
  const boot = new Boot(game.clockId!, ++boots, game.timeControlValue, origin, (b, ev) => {
    journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: START + (ev.atMs - origin), uncertaintyMs: 2 }), gameId: game.gameId });
  });
  boot.send({ type: 'START', at: origin });
  return boot;
}
const press = (clock: Boot, thinkMs: number) => clock.send({ type: 'PRESS', side: clock.state().turn, at: clock.now + thinkMs });

/** The journal's remaining time of each side's k-th press, the later press of a move replacing an annulled one. */
function journalClocks(game: GameRow): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of journal.eventsByGame(game.gameId)) if (e.type === 'moved') out.set(`${e.side}:${e.move}`, e.side === 'white' ? e.whiteMs : e.blackMs);
  return out;
}

describe("--moves: the journal's presses merged into a PGN with the moves", () => {
  it("each move gets [%clk] (the journal's time of its press, rounded up as the clock shows it) and [%emt] (the turn's running time, pauses left out); tags, comments, NAGs and variations kept (PGN standard §8.2, PGN supplement %clk/%emt)", () => {
    const [b1, b2] = games;
    // Board 1: White thinks 31.4 s, Black 12 s, White 65.001 s with a 60 s pause inside (FIDE Laws 6.11), …
    const c1 = clockFor(b1);
    press(c1, 31_400);
    press(c1, 12_000);
    c1.clock.advanceTo(c1.now + 20_000);
    c1.send({ type: 'PAUSE', at: c1.now });
    c1.send({ type: 'RESUME', at: c1.now + 60_000 });
    press(c1, 45_001);
    press(c1, 2_000);
    // … White's 3rd move is annulled (FIDE Laws 7.5.1: the arbiter stops the clock, takes the move back),
    // and White, back on move with the 7.5 s already used on it, plays again after 3 s more.
    press(c1, 7_500);
    c1.send({ type: 'PAUSE', at: c1.now + 1_000 });
    c1.send({ type: 'TAKEBACK', at: c1.now });
    c1.send({ type: 'RESUME', at: c1.now + 30_000 });
    press(c1, 3_000);
    press(c1, 900);
    const thinks1 = [31_400, 12_000, 65_001, 2_000, 10_500, 900];
    // Board 2: four presses, five moves in the PGN.
    const c2 = clockFor(b2);
    for (const ms of [5_000, 6_000, 7_000, 8_000]) press(c2, ms);

    const input = [
      `[Event "${EVENT}"]`,
      '[Site "Ivanovo RUS"]',
      '[Date "2018.02.13"]',
      '[Round "1.1"]',
      `[White "${b1.white}"]`,
      `[Black "${b1.black}"]`,
      '[Result "*"]',
      '[Annotator "DGT LiveChess"]',
      '',
      '{Opening: Ruy Lopez} 1. e4 {[%clk 0:59:59] best by test} e5 2. Nf3 $1 (2. Nc3 {the Vienna} Nf6) Nc6',
      '3. Bb5 a6 *',
      '',
      `[Event "?"]`,
      '[Site "?"]',
      '[Date "????.??.??"]',
      '[Round "?"]',
      `[White "${b2.white}"]`,
      `[Black "${b2.black}"]`,
      `[GameId "ivanovo-2018:1.2.1"]`,
      '[Result "*"]',
      '',
      '1.d4 d5 2.c4 e6 3.Nc3 *',
      '',
      '[Event "?"]',
      '[Site "?"]',
      '[Date "????.??.??"]',
      '[Round "1.9"]',
      '[White "Nobody"]',
      '[Black "Else"]',
      '[Result "*"]',
      '',
      '1. e4 *',
      '',
    ].join('\n');
    const out = mergeClockTimes(journal, hall, 'ivanovo-2018', input);

    // The Seven Tag Roster in every game (§8.1.1; chessops supplies it, pgn-parser does not).
    // Warnings: board 2's counts differ (5 moves, 4 presses), the third game is not in the journal.
    expect(out.merged).toBe(1);
    expect(out.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        13,
        expect.stringMatching(
          /^the moves and the presses differ: White 3 moves \/ 2 presses, Black 2 moves \/ 2 presses; no press for 1 move\(s\), first White's move 3\. Times written by count/,
        ),
      ],
      [24, expect.stringMatching(/^not found in the journal \(Round "1\.9": the journal has no round 1 board 9 game 1\); written unchanged$/)],
    ]);

    const read = readPgnWithBoth(out.pgn);
    expect(read).toHaveLength(3);
    const [g1, g2, g3] = read;
    expect(g1.sans).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
    const clocks1 = journalClocks(b1);
    const keys = ['white:1', 'black:1', 'white:2', 'black:2', 'white:3', 'black:3'];
    expect(g1.clocks).toEqual(keys.map((k) => Math.ceil(clocks1.get(k)! / 1000)));
    // 60 min sudden death, no increment: White's time after move 3 is 3600 − 31.4 − 65.001 − 10.5 s.
    expect(clocks1.get('white:3')).toBe(3_600_000 - 31_400 - 65_001 - 10_500);
    expect(g1.emts).toEqual(thinks1.map((ms) => Math.ceil(ms / 1000)));
    expect(g1.tags).toMatchObject({ Annotator: 'DGT LiveChess', Round: '1.1', Result: '*' });
    // The input's own stale [%clk] is replaced, its words kept; the variation and the NAG are still there.
    const [game1] = parsePgn(out.pgn);
    const nodes = [...game1.moves.mainline()];
    expect(nodes[0].comments).toEqual([`[%clk 0:59:29] [%emt 0:00:32] best by test`]);
    expect(nodes[2].nags).toEqual([1]);
    expect(game1.comments).toEqual(['Opening: Ruy Lopez']);
    expect(game1.moves.children[0].children[0].children.map((c) => c.data.san)).toEqual(['Nf3', 'Nc3']);

    // Board 2 by its GameId: times by count for the pressed moves, none for the fifth.
    const clocks2 = journalClocks(b2);
    expect(g2.clocks).toEqual([...['white:1', 'black:1', 'white:2', 'black:2'].map((k) => Math.ceil(clocks2.get(k)! / 1000)), null]);
    expect(g2.emts).toEqual([5, 6, 7, 8, null]);
    // The game not found is written as it came.
    expect([g3.sans, g3.clocks, g3.tags.Round]).toEqual([['e4'], [null], '1.9']);
  });

  it("matching: GameId first; else Round r.b[.g] with the players; else the players alone; another event's name, or a Round whose players differ, is not a match", () => {
    const [b1, b2] = games;
    const pgn = (tags: Record<string, string>) =>
      `${Object.entries(tags)
        .map(([k, v]) => `[${k} "${v}"]`)
        .join('\n')}\n\n*\n`;
    const run = (tags: Record<string, string>) => mergeClockTimes(journal, hall, 'ivanovo-2018', pgn(tags)).warnings.map((w) => w.message);
    // Matched games that nothing was played in yet: 0 moves, 0 presses, no warning.
    expect(run({ GameId: 'ivanovo-2018:1.2.1', White: 'x', Black: 'y' })).toEqual([]);
    expect(run({ Round: '1.1', White: b1.white, Black: b1.black })).toEqual([]);
    expect(run({ Round: '1', White: ` ${b2.white.toUpperCase()} `, Black: b2.black })).toEqual([]);
    expect(run({ White: b2.white, Black: b2.black })).toEqual([]);
    expect(run({ Round: '1.1', White: b2.white, Black: b2.black })[0]).toMatch(
      `Round "1.1" is ${b1.white} – ${b1.black} in the journal, not ${b2.white} – ${b2.black}`,
    );
    expect(run({ Event: 'Another open', Round: '1.1', White: b1.white, Black: b1.black })[0]).toMatch('Event "Another open" is not');
    expect(run({ GameId: 'ivanovo-2018:1.1.2', White: b1.white, Black: b1.black })[0]).toMatch('GameId "ivanovo-2018:1.1.2" is no game');
    expect(run({ Round: '1.1' })[0]).toMatch('White or Black is missing');
  });

  it('bad input: a clear error with line:column (PGN standard §8)', () => {
    const error = (text: string) => {
      try {
        parseMovetextGames(text);
      } catch (err) {
        if (err instanceof PgnSyntaxError) return [err.line, err.column, err.reason];
        throw err;
      }
      return null;
    };
    expect(error('[Event "x"]\n\n1. e4 {unclosed\ne5 *\n')).toEqual([3, 7, 'comment "{" not closed by "}" before the end of the file']);
    expect(error('[Event "x"]\n\n1. e4 e5 2. Nf3 Kxz9 *\n')).toEqual([
      3,
      17,
      '"Kxz9" is not a move in SAN, a move number, a NAG or a result (PGN standard §8.2)',
    ]);
    expect(error('[Event "x"]\n\n1. e4 e5 0-0-0-0\n')).toEqual([3, 10, '"0-0-0-0" is not a move in SAN, a move number, a NAG or a result (PGN standard §8.2)']);
    expect(error('[Event "x"]\n\n1. e4 e5\n\n[Event "y"]\n\n1. d4 *\n')).toEqual([
      5,
      1,
      'a tag pair inside the movetext of the game from line 1: that game has no result (1-0, 0-1, 1/2-1/2 or *, PGN standard §8.2.6)',
    ]);
    expect(error('[Event "x"]\n[Site "Ivanovo]\n\n*\n')).toEqual([
      2,
      1,
      'malformed tag pair "[Site \\"Ivanovo]": tag Site: the string is not closed on its line (PGN standard §8.1)',
    ]);
    expect(error('[Event "x"]\n\n1. e4 (1. d4 d5 *\n')).toEqual([3, 17, 'the result * ends the game while the variation opened at line 3:7 is not closed']);
    expect(error('[Event "x"]\n\n1. e4 e5')).toEqual([3, 9, 'the game from line 1 ends without a result (1-0, 0-1, 1/2-1/2 or *, PGN standard §8.2.6)']);
    expect(error('[Event "x"]\n[Event "y"]\n\n*\n')).toEqual([2, 1, 'tag Event repeated in the game from line 1']);
    // What the merge refuses reaches the caller as the same error.
    expect(() => mergeClockTimes(journal, hall, 'ivanovo-2018', '1. e4 @ *\n')).toThrow(PgnSyntaxError);
    expect(() => mergeClockTimes(journal, hall, 'ivanovo-2018', '1. e4 @ *\n')).toThrow('line 1:7: unexpected character "@"');
  });
});

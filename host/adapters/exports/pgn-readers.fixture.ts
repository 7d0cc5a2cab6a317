// Reads a PGN the project wrote with two independent parsers, as a broadcast relay or a
// database would: lichess's chessops (`parsePgn`, `parseComment` for `[%clk]`, and its move
// rules to play every SAN) and @mliebelt/pgn-parser (a PEG grammar of the PGN standard that
// refuses the whole file on one bad token). Both must read the same games with the same tags,
// moves and clock comments; any syntax error, any result outside PGN standard §8.2.6 or a
// TimeControl that is not a §9.6.1 field fails the test that calls it.
import { expect } from 'vitest';
import { parseGames } from '@mliebelt/pgn-parser';
import { parseComment, parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { PGN_RESULT_TOKENS } from '../../../rules/vocabulary.ts';

export interface ReadGame {
  /** Every tag as chessops read it (names as written). */
  tags: Record<string, string>;
  /** SAN of the main line. */
  sans: string[];
  /** The `[%clk]` of each ply in whole seconds (null: no clock comment). */
  clocks: (number | null)[];
  /** The `[%emt]` (elapsed move time) of each ply in whole seconds (null: none). */
  emts: (number | null)[];
}

/** `h:mm:ss` → seconds, as pgn-parser hands a clock comment over (a string). */
function seconds(text: string): number {
  const m = /^(\d+):(\d\d):(\d\d)$/.exec(text);
  if (!m) throw new Error(`pgn-parser: clock comment "${text}" is not h:mm:ss`);
  return (Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]);
}

/** pgn-parser's verdict on one §9.6.1 time control field (the per-side tags hold one each). */
export function timeControlFieldIsValid(value: string): boolean {
  const [game] = parseGames(`[TimeControl "${value}"]\n\n*\n`);
  return !(game.messages ?? []).some((m) => m.key === 'TimeControl');
}

export function readPgnWithBoth(text: string): ReadGame[] {
  // @mliebelt/pgn-parser: throws on a syntax error (a `0-0` result token, a split tag line).
  const byPeg = text.trim() === '' ? [] : parseGames(text);
  // chessops: lenient, so its reading is checked move by move below.
  const byChessops = parsePgn(text);
  expect(byChessops.length, 'chessops and pgn-parser read the same number of games').toBe(byPeg.length);

  return byChessops.map((game, i) => {
    const tags = Object.fromEntries(game.headers);
    const peg = byPeg[i];
    // Only the four PGN results, in the tag and as the movetext's termination marker.
    expect(PGN_RESULT_TOKENS, `game ${i + 1}: Result tag`).toContain(tags.Result);
    expect(peg.tags?.Result, `game ${i + 1}: pgn-parser's Result`).toBe(tags.Result);
    // pgn-parser checks the format of the tags it knows (Date, TimeControl, clocks …); a tag it
    // does not know (GameId, WhiteTimeControl) is only reported as unknown.
    const formatErrors = (peg.messages ?? []).filter((m) => !/ not known: /.test(m.message));
    expect(formatErrors, `game ${i + 1}: pgn-parser's messages`).toEqual([]);
    for (const name of ['Event', 'Site', 'Round', 'White', 'Black', 'GameId', 'WhiteTimeControl', 'BlackTimeControl', 'WhiteTeam', 'BlackTeam']) {
      const value = peg.tags?.[name as keyof typeof peg.tags];
      expect(value === undefined ? undefined : String(value), `game ${i + 1}: tag ${name}`).toBe(tags[name]);
    }
    for (const side of ['WhiteTimeControl', 'BlackTimeControl']) {
      if (tags[side] !== undefined) expect(timeControlFieldIsValid(tags[side]), `game ${i + 1}: ${side} "${tags[side]}" is a §9.6.1 field`).toBe(true);
    }

    // chessops: every SAN is a legal move from the starting position.
    const start = startingPosition(game.headers);
    if (start.isErr) throw start.error;
    const pos = start.value;
    const sans: string[] = [];
    const clocks: (number | null)[] = [];
    const emts: (number | null)[] = [];
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      expect(move, `game ${i + 1}: ply ${sans.length + 1} "${node.san}" is a legal move`).toBeDefined();
      pos.play(move!);
      sans.push(node.san);
      const clock = (node.comments ?? []).map((c) => parseComment(c).clock).find((c) => c !== undefined);
      clocks.push(clock ?? null);
      const emt = (node.comments ?? []).map((c) => parseComment(c).emt).find((c) => c !== undefined);
      emts.push(emt ?? null);
    }
    expect(peg.moves.map((m) => m.notation.notation), `game ${i + 1}: pgn-parser's moves`).toEqual(sans);
    const pegClocks = peg.moves.map((m) => (m.commentDiag?.clk === undefined ? null : seconds(m.commentDiag.clk)));
    expect(pegClocks, `game ${i + 1}: pgn-parser's [%clk]`).toEqual(clocks);
    const pegEmts = peg.moves.map((m) => (m.commentDiag?.emt === undefined ? null : seconds(m.commentDiag.emt)));
    expect(pegEmts, `game ${i + 1}: pgn-parser's [%emt]`).toEqual(emts);
    return { tags, sans, clocks, emts };
  });
}

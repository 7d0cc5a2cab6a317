// Reads a PGN the project wrote with two independent parsers, as a broadcast relay or a
// database would: lichess's chessops (`parsePgn`, `parseComment` for `[%clk]`, and its move
// rules to play every SAN) and @mliebelt/pgn-parser (a PEG grammar of the PGN standard that
// refuses the whole file on one bad token). Both must read the same games with the same tags,
// moves and clock comments; any syntax error, any result outside PGN standard §8.2.6 or a
// TimeControl that is not a §9.6.1 field fails the test that calls it. The one exception is
// the double forfeit's Result tag `0-0` (docs/exports.md "Forfeits in PGN"): allowed only on a
// game without moves whose movetext ends with `*`, and which both readers then read as `*`.
import { expect } from 'vitest';
import { parseGames } from '@mliebelt/pgn-parser';
import { parseComment, parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { PGN_RESULT_TOKENS } from '../../../rules/vocabulary.ts';
import { DOUBLE_FORFEIT_RESULT_TAG as DOUBLE_FORFEIT } from '../../app/pgn-game.ts';

export interface ReadGame {
  /** Every tag as chessops read it (names as written; chessops reads a Result it does not know as `*`). */
  tags: Record<string, string>;
  /** The Result tag as written: one of the four PGN results, or `0-0` for a double forfeit. */
  result: string;
  /** Comments before the first move (chessops), e.g. why a game was not played. */
  comments: string[];
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
    // pgn-parser reports a Result tag outside §8.2.6 with its value (and takes the movetext's marker).
    const messages = peg.messages ?? [];
    const badResult = messages.find((m) => m.key === 'Result' && /^Format of tag/.test(m.message));
    const result = badResult ? String(badResult.value) : tags.Result;
    let formatErrors = messages.filter((m) => !/ not known: /.test(m.message));
    if (result === DOUBLE_FORFEIT) {
      // The double forfeit (docs/exports.md): no moves, the movetext ends with `*`, and both
      // readers read the game as `*` (neither knows `0-0`); pgn-parser says so, and only that.
      expect(game.moves.children, `game ${i + 1}: a double forfeit has no moves`).toEqual([]);
      expect([tags.Result, peg.tags?.Result], `game ${i + 1}: both readers read the ${DOUBLE_FORFEIT} game as *`).toEqual(['*', '*']);
      expect(
        formatErrors.map((m) => m.message),
        `game ${i + 1}: pgn-parser's messages on ${DOUBLE_FORFEIT}`,
      ).toEqual([`Format of tag: "Result" not correct: "${DOUBLE_FORFEIT}"`, 'Result in tags is different to result in SAN']);
      formatErrors = [];
    }
    // Otherwise only the four PGN results, in the tag and as the movetext's termination marker.
    expect(PGN_RESULT_TOKENS, `game ${i + 1}: Result tag`).toContain(tags.Result);
    expect(peg.tags?.Result, `game ${i + 1}: pgn-parser's Result`).toBe(tags.Result);
    // pgn-parser checks the format of the tags it knows (Date, TimeControl, clocks …); a tag it
    // does not know (GameId, WhiteTimeControl) is only reported as unknown.
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
    expect(
      peg.moves.map((m) => m.notation.notation),
      `game ${i + 1}: pgn-parser's moves`,
    ).toEqual(sans);
    const pegClocks = peg.moves.map((m) => (m.commentDiag?.clk === undefined ? null : seconds(m.commentDiag.clk)));
    expect(pegClocks, `game ${i + 1}: pgn-parser's [%clk]`).toEqual(clocks);
    const pegEmts = peg.moves.map((m) => (m.commentDiag?.emt === undefined ? null : seconds(m.commentDiag.emt)));
    expect(pegEmts, `game ${i + 1}: pgn-parser's [%emt]`).toEqual(emts);
    const comments = game.comments ?? [];
    expect(peg.gameComment?.comment ?? null, `game ${i + 1}: pgn-parser's comment before the moves`).toBe(comments.length ? comments.join(' ') : null);
    return { tags, result, comments, sans, clocks, emts };
  });
}

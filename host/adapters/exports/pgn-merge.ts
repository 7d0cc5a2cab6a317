// `chessclock export --pgn --moves GAMES.pgn` (docs/exports.md "Clock times merged into the
// moves"): a PGN with the moves — a DGT board's export, a transcribed score sheet — gets each
// main-line move's `[%clk]` and `[%emt]` from the journal's presses. The clock does not know the
// moves and the board does not know the clock; the two are joined by count: the k-th move of a
// side is the press that completed that side's k-th move (the clock's own move counter as
// journaled, so a move the arbiter annulled, FIDE Laws 7.5.1, is replaced by the press after it).
//
//  - %clk: the mover's remaining time after the press, as the round PGN writes it (pgn.ts
//    pressClocks, formatPgnClock: whole seconds rounded up, as the clock's display shows them).
//  - %emt: the time the move took, the running time of the turn up to the press with pauses
//    left out, as the rule book's statechart counted it (rules/rebuild.ts over the journal: the
//    `turnActiveMs` of the press's undo record, rules/clock-core.ts completeMove), written with
//    the same formatter.
//
// Everything else of the input is kept: tag pairs as written, move numbers, NAGs, comments
// (only an earlier [%clk]/[%emt] command in a main-line comment is replaced), variations, result.

import type { Journal } from '../../store/journal.ts';
import { findEvent, type Hall } from '../../domain/model.ts';
import { RESULT_MEANING } from '../../../rules/vocabulary.ts';
import { formatPgnClock } from '../../../rules/display-format.ts';
import { parseMovetextGames, writeMovetextGame } from '../../app/pgn-movetext.ts';
import { matchJournalGame, movesByPress, pressTimes, stripClockCommands } from '../../app/pgn-match.ts';

export interface MergeWarning {
  /** Line of the input game's first tag. */
  line: number;
  /** How the game is named in the input (its Round, White and Black tags). */
  game: string;
  message: string;
}

export interface MergeOutcome {
  /** Every input game, in input order: the matched ones with the journal's times. */
  pgn: string;
  warnings: MergeWarning[];
  /** Games matched to a journal game with as many moves per side as presses. */
  merged: number;
}

/** Merges the journal's press times into every game of `movesPgn` that matches a game of `eventId`. Throws PgnSyntaxError (line:column) on bad input. */
export function mergeClockTimes(journal: Journal, hall: Hall, eventId: string, movesPgn: string): MergeOutcome {
  const event = findEvent(hall, eventId);
  const inputs = parseMovetextGames(movesPgn);
  const games = journal.gamesByEvent(event.id);
  const warnings: MergeWarning[] = [];
  let merged = 0;
  const used = new Map<number, number>();
  const texts = inputs.map((input) => {
    const name = `${input.tags.get('Round') ?? '?'} ${input.tags.get('White') ?? '?'} – ${input.tags.get('Black') ?? '?'}`;
    const warn = (message: string) => warnings.push({ line: input.line, game: name, message });
    const found = matchJournalGame(event, games, input.tags);
    if (typeof found === 'string') {
      warn(`not found in the journal (${found}); written unchanged`);
      return writeMovetextGame(input, () => null);
    }
    const twice = used.get(found.gameId);
    if (twice !== undefined) warn(`the same journal game as the input game at line ${twice}`);
    used.set(found.gameId, input.line);
    const { presses, mismatches } = pressTimes(found, journal.eventsByGame(found.gameId));
    if (mismatches > 0)
      warn(
        `the journal's events of round ${found.round} board ${found.board} game ${found.gameNo} do not replay through the clock's statechart at ${mismatches} event(s): check the %emt times`,
      );
    const confirmed = found.confirmedBy !== null && found.result !== null ? RESULT_MEANING[found.result].pgn : null;
    if (confirmed && input.result !== '*' && input.result !== confirmed) warn(`result ${input.result} in the input, ${confirmed} confirmed in the journal`);
    const { keys, difference } = movesByPress(input, presses);
    if (difference !== null) warn(`the moves and the presses differ: ${difference}. Times written by count (move k ↔ press k); check the game`);
    else merged++;
    return writeMovetextGame(stripClockCommands(input), (ply) => {
      const p = presses.get(keys[ply]);
      if (!p) return null;
      return p.emtMs === null ? `[%clk ${formatPgnClock(p.clockMs)}]` : `[%clk ${formatPgnClock(p.clockMs)}] [%emt ${formatPgnClock(p.emtMs)}]`;
    });
  });
  return { pgn: texts.join('\n'), warnings, merged };
}

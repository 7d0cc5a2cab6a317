// A round's PGN for a live broadcast (docs/broadcast.md "The merged games"): each board's game is
// the moves a board system or a transcriber gives (the moves source), with `[%clk]` and `[%emt]`
// after each move from the journal's presses, and the host's own tags: the running clock as
// `WhiteClock`/`BlackClock` at a given instant (so a bonus, a penalty or an arbiter's adjustment
// shows at once, not at the next move), the result once an arbiter confirmed it, `Termination`,
// `TimeControl` in the PGN standard's notation (§9.6.1) and the tags a broadcast matches games by
// across pushes (`GameId`, `White`, `Black`, `Round`).
//
// Pure: the round's journal state and the moves text in, the games out. The times are the rule
// book's (rules/press-clocks.ts through host/app/pgn-match.ts pressTimes, rules/clock-snapshot.ts
// through host/app/pgn-game.ts liveClock), never recomputed here. The moves and the presses are
// joined by count as `chessclock export --pgn --moves` joins them (docs/exports.md "Clock times
// merged into the moves"); a count that differs is said in the game's comment and returned as
// the board's warning, never papered over. A moves game that matches no board is returned as
// unmatched, never guessed.

import type { ClockEventRow, GameRow } from '../../store/journal.ts';
import type { TournamentEvent } from '../../domain/model.ts';
import { formatPgnClockTenths } from '../../../rules/display-format.ts';
import { formatTagPairs, journalPgnGameFrom, pgnResult, pgnTagPairs, type PgnGame } from '../../app/pgn-game.ts';
import { matchJournalGame, movesByPress, pressTimes, stripClockCommands, type PressTime } from '../../app/pgn-match.ts';
import { mainLine, parseMovetextGames, writeMovetextGame, type MovetextGame } from '../../app/pgn-movetext.ts';
import { newestFactUtcMs } from '../../app/journal-as-of.ts';

/** One board's game as the journal holds it: the game and its clock events in journal order. */
export interface JournalGame {
  game: GameRow;
  events: readonly ClockEventRow[];
}

/** What the broadcast of a round is made from: the event, the site, and the round's games. */
export interface RoundState {
  event: TournamentEvent;
  site: string;
  games: readonly JournalGame[];
}

export interface BoardWarning {
  board: number;
  gameNo: number;
  /** The game's `GameId` tag. */
  gameId: string;
  message: string;
}

/** A game of the moves source that is no board of the round, with why. */
export interface UnmatchedGame {
  /** Line of the game's first tag in the moves text. */
  line: number;
  /** How the moves source names it: its Round, White and Black tags. */
  game: string;
  reason: string;
}

export interface BroadcastGame {
  board: number;
  gameNo: number;
  gameId: string;
  /** The game as PGN: tag pairs, a blank line, the movetext, a newline. */
  pgn: string;
  /** Main-line moves (plies) in the movetext. */
  plies: number;
  /** The newest journaled fact the game holds (its last event, its result's report or confirmation). */
  newestUtcMs: number;
  /** The instant the game is shown as of (its clock tags'). */
  asOfUtcMs: number;
}

export interface BroadcastRoundOptions {
  /**
   * A delayed view (docs/broadcast.md "The delay"): the round state is the journal's as of
   * `nowUtcMs` (host/app/journal-as-of.ts), and a game without a confirmed result keeps only
   * the moves whose press was journaled by then; a game with one keeps every move, so a result
   * goes out with the moves that led to it.
   */
  pressedMovesOnly?: boolean;
  /**
   * The merges of the round's earlier states (round-merge-cache.ts): a board whose journal and
   * moves did not change since is not merged again, only its running clock's tags written anew.
   * The games are the same, byte for byte, as without it.
   */
  cache?: BoardMergeCache;
}

export interface BroadcastRound {
  /** The round's games, board by board (the newest game last per board), as the journal lists them. */
  games: BroadcastGame[];
  warnings: BoardWarning[];
  unmatched: UnmatchedGame[];
}

/** One board's game merged, all but its running clock: what later states re-use while its journal and moves stay the same. */
export interface MergedBoard {
  gameId: string;
  plies: number;
  newestUtcMs: number;
  warnings: string[];
  /** The game's PGN with its clock tags at the instant. */
  pgnAt(nowUtcMs: number): string;
}

/** What broadcastRound asks of a cache: the moves text parsed, and each board's merge, built only when its inputs changed. */
export interface BoardMergeCache {
  parse(movesPgn: string): MovetextGame[];
  board(
    game: GameRow,
    events: readonly ClockEventRow[],
    input: MovetextGame | null,
    pressedMovesOnly: boolean,
    build: () => MergedBoard | null,
  ): MergedBoard | null;
}

/** Tags of the moves source kept in the broadcast: a game from a set-up position must keep it (PGN standard §9.7). */
const KEPT_SOURCE_TAGS = ['SetUp', 'FEN'];

/**
 * The round's broadcast at `nowUtcMs`, with the moves of `movesPgn` (null: no moves source, each
 * game its tags, clocks and result). Throws PgnSyntaxError (line:column) when `movesPgn` is not PGN.
 */
export function broadcastRound(state: RoundState, nowUtcMs: number, movesPgn: string | null = null, opts: BroadcastRoundOptions = {}): BroadcastRound {
  const { byGame, unmatched } = matchMoves(state, movesPgn === null ? [] : (opts.cache?.parse(movesPgn) ?? parseMovetextGames(movesPgn)));
  const warnings: BoardWarning[] = [];
  const games: BroadcastGame[] = [];
  const pressedOnly = opts.pressedMovesOnly ?? false;
  for (const { game, events } of state.games) {
    const input = byGame.get(game.gameId) ?? null;
    const build = () => mergeBoard(state, game, events, input, pressedOnly);
    const merged = opts.cache ? opts.cache.board(game, events, input, pressedOnly, build) : build();
    if (merged === null) continue;
    const { gameId, plies, newestUtcMs } = merged;
    for (const message of merged.warnings) warnings.push({ board: game.board, gameNo: game.gameNo, gameId, message });
    games.push({ board: game.board, gameNo: game.gameNo, gameId, pgn: merged.pgnAt(nowUtcMs), plies, newestUtcMs, asOfUtcMs: nowUtcMs });
  }
  return { games, warnings, unmatched };
}

/** Each game of the moves source matched to its board of the round, or said unmatched with why. */
function matchMoves(state: RoundState, inputs: readonly MovetextGame[]): { byGame: Map<number, MovetextGame>; unmatched: UnmatchedGame[] } {
  const gameRows = state.games.map((g) => g.game);
  const byGame = new Map<number, MovetextGame>();
  const unmatched: UnmatchedGame[] = [];
  const lineOf = new Map<number, number>();
  for (const input of inputs) {
    const name = `${input.tags.get('Round') ?? '?'} ${input.tags.get('White') ?? '?'} – ${input.tags.get('Black') ?? '?'}`;
    const found = matchJournalGame(state.event, gameRows, input.tags);
    if (typeof found === 'string') unmatched.push({ line: input.line, game: name, reason: found });
    else if (byGame.has(found.gameId)) {
      unmatched.push({ line: input.line, game: name, reason: `the same board as the game at line ${lineOf.get(found.gameId)}, which is the one broadcast` });
    } else {
      byGame.set(found.gameId, input);
      lineOf.set(found.gameId, input.line);
    }
  }
  return { byGame, unmatched };
}

/** The round's games as one PGN text, games separated by a blank line (PGN standard §8). */
export function joinGames(games: readonly BroadcastGame[]): string {
  return games.map((g) => g.pgn).join('\n');
}

/** One board's game merged: the journal's game rebuilt once, its tags written at each instant asked (once if its clock is stopped). */
function mergeBoard(state: RoundState, game: GameRow, events: readonly ClockEventRow[], source: MovetextGame | null, pressedOnly: boolean): MergedBoard | null {
  const found = journalPgnGameFrom(state.event, state.site, game, events);
  if (found === null) return null;
  const { head, clockAt } = found;
  const input = source !== null && pressedOnly && head.result === null ? pressedMoves(source, pressTimes(game, events).presses) : source;
  const warnings: string[] = [];
  // Tag pairs, a blank line, the movetext: as writeMovetextGame writes a game with its tag lines.
  const body = broadcastMovetext(head, game, events, input, (message) => warnings.push(message));
  const pgnAt = (nowUtcMs: number) => `${formatTagPairs(broadcastTags({ ...head, clock: clockAt(nowUtcMs) }, input)).join('\n')}\n\n${body}`;
  const stopped = (clockAt(0)?.running ?? null) === null;
  let still: string | null = null;
  return {
    gameId: head.gameId!,
    plies: input === null ? 0 : mainLine(input).length,
    newestUtcMs: newestFactUtcMs({ game, events }),
    warnings,
    pgnAt: (nowUtcMs) => (stopped ? (still ??= pgnAt(nowUtcMs)) : pgnAt(nowUtcMs)),
  };
}

/** The host's tags, and the source's kept ones. */
function broadcastTags(head: PgnGame, input: MovetextGame | null): [string, string][] {
  const tags = pgnTagPairs(head, formatPgnClockTenths);
  for (const name of input === null ? [] : KEPT_SOURCE_TAGS) {
    const value = input!.tags.get(name);
    if (value !== undefined) tags.push([name, value]);
  }
  return tags;
}

/** One board's movetext: the source's with the journal's times (or the result alone). */
function broadcastMovetext(
  head: PgnGame,
  game: GameRow,
  events: readonly ClockEventRow[],
  input: MovetextGame | null,
  warn: (message: string) => void,
): string {
  const comments: string[] = head.comment ? [head.comment] : [];
  const result = pgnResult(head.result);
  if (input === null) {
    const bare: MovetextGame = { line: 0, tagLines: [], tags: new Map(), tokens: commentTokens(comments), result };
    return writeMovetextGame(bare, () => null);
  }
  const { presses, mismatches } = pressTimes(game, events);
  if (mismatches > 0) {
    const message = `the journal's events do not replay through the clock's statechart at ${mismatches} event(s): the %emt times may be off`;
    warn(message);
    comments.push(message);
  }
  const { keys, difference } = movesByPress(input, presses);
  if (difference !== null) {
    const message = `Moves and clock presses differ: ${difference}. Times are given by count (move k, press k).`;
    warn(message);
    comments.push(message);
  }
  const source = stripClockCommands(input);
  const merged: MovetextGame = { ...source, tagLines: [], tokens: [...commentTokens(comments), ...source.tokens], result };
  return writeMovetextGame(merged, (ply) => clockComment(presses.get(keys[ply])));
}

/** The game's main line up to its first move with no press (side's k-th move, side's k-th press); what follows is left out. */
function pressedMoves(input: MovetextGame, presses: ReadonlyMap<string, PressTime>): MovetextGame {
  const firstUnpressed = movesByPress(input, presses).keys.findIndex((key) => !presses.has(key));
  if (firstUnpressed === -1) return input;
  let ply = 0;
  let end = input.tokens.findIndex((t) => t.kind === 'san' && t.depth === 0 && ply++ === firstUnpressed);
  while (end > 0 && input.tokens[end - 1].kind === 'number') end--;
  return { ...input, tokens: input.tokens.slice(0, end) };
}

function commentTokens(comments: readonly string[]): MovetextGame['tokens'] {
  // A comment cannot hold `}` (PGN standard §5).
  return comments.map((text) => ({ kind: 'comment', text: text.replace(/}/g, ')') }));
}

/** `[%clk]` (the mover's time after the press) and `[%emt]` (the move's time), to the tenth under a minute. */
function clockComment(press: PressTime | undefined): string | null {
  if (!press) return null;
  const clk = `[%clk ${formatPgnClockTenths(press.clockMs)}]`;
  return press.emtMs === null ? clk : `${clk} [%emt ${formatPgnClockTenths(press.emtMs)}]`;
}

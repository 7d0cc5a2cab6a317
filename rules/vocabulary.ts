// The one vocabulary of the rule book: the words the clock, the host (API schemas, journal,
// exports, director) and the dashboard use for sides, game results, clock statuses and the
// arbiter's commands. Each list is written here once; everything else imports it (or, like
// the journal's SQL CHECK, is generated from it), so a new result or status cannot reach one
// room and not another. Pure data, no I/O: the dashboard's browser bundles import it too
// (host/adapters/http/dashboard/src/, bundled by rule-book-bundle.ts).
import { SIDES, other, type Side } from '../protocol/time-control.ts';

// ---- sides ---------------------------------------------------------------------------
// The wire contract owns the two sides (protocol/ imports nothing of ours); the rule book
// re-exports them so that every reader of the vocabulary finds them here.
export { SIDES, other, type Side };

export const SIDE_NAME: Readonly<Record<Side, string>> = { white: 'White', black: 'Black' };

// ---- game results --------------------------------------------------------------------

/**
 * Every result a game can have, in the order the API, the journal and the exports list them.
 * The first three are played results (PGN standard §8.2.6 result tokens); `+-`, `-+` and `--`
 * are forfeits, games not played (FIDE Laws 6.7.1 lateness, or an arbiter's decision): TRF16
 * codes `+`/`-`, TRF-2026 record 330 notation.
 */
export const GAME_RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'] as const;
export type GameResult = (typeof GAME_RESULTS)[number];

/**
 * The results a game played at the clock ends with (the players' result menu, in the order it
 * offers them: White wins, draw, Black wins). A forfeit on lateness is the clock's own state
 * (`forfeited`), which the host files as `+-`, `-+`, or `--` when both sides were absent.
 */
export const PLAYED_RESULTS = ['1-0', '1/2-1/2', '0-1'] as const satisfies readonly GameResult[];
export type PlayedResult = (typeof PLAYED_RESULTS)[number];

/**
 * The results the clock itself can hold: the played results (the players confirm them with their
 * levers) and the double forfeit `--`, which only the arbiter enters (FIDE Laws 6.7.1: both
 * players absent, both lose). A single forfeit on lateness is the clock's own state, never an
 * entered result (the host files it as `+-` or `-+`).
 */
export const CLOCK_RESULTS = [...PLAYED_RESULTS, '--'] as const satisfies readonly GameResult[];
export type ClockResult = (typeof CLOCK_RESULTS)[number];

/** Results of games not played: one side (or both) lost by forfeit. */
export const FORFEIT_RESULTS = ['+-', '-+', '--'] as const satisfies readonly GameResult[];
export type ForfeitResult = (typeof FORFEIT_RESULTS)[number];

/** The four game termination markers of PGN standard §8.2.6; `*` is a game in progress or unknown. */
export const PGN_RESULT_TOKENS = ['1-0', '0-1', '1/2-1/2', '*'] as const;
export type PgnResultToken = (typeof PGN_RESULT_TOKENS)[number];

export interface ResultMeaning {
  /** What an arbiter picks from (the dashboard's result list). */
  readonly label: string;
  /** The result in words. */
  readonly meaning: string;
  /** A game not played: a forfeit (PGN Termination "rules infraction", TRF `+`/`-`). */
  readonly forfeit: boolean;
  /** Game points of each side: a win 1, a draw ½, a forfeit win 1, a forfeit loss 0. */
  readonly points: { readonly white: number; readonly black: number };
  /**
   * The PGN result token (one of the four of PGN standard §8.2.6): a forfeit is written as the
   * win it counts as. `null` for a double forfeit: no PGN token says "both lost"; the export
   * writes its `Result` tag as `0-0` (as lichess broadcasts read it) and ends the movetext with
   * `*` (docs/exports.md, "Forfeits in PGN").
   */
  readonly pgn: PgnResultToken | null;
}

export const RESULT_MEANING: Readonly<Record<GameResult, ResultMeaning>> = {
  '1-0': { label: '1-0', meaning: 'White wins', forfeit: false, points: { white: 1, black: 0 }, pgn: '1-0' },
  '0-1': { label: '0-1', meaning: 'Black wins', forfeit: false, points: { white: 0, black: 1 }, pgn: '0-1' },
  '1/2-1/2': { label: '½-½', meaning: 'draw', forfeit: false, points: { white: 0.5, black: 0.5 }, pgn: '1/2-1/2' },
  '+-': { label: '+− (Black forfeits)', meaning: 'White wins by forfeit (Black did not play)', forfeit: true, points: { white: 1, black: 0 }, pgn: '1-0' },
  '-+': { label: '−+ (White forfeits)', meaning: 'Black wins by forfeit (White did not play)', forfeit: true, points: { white: 0, black: 1 }, pgn: '0-1' },
  '--': { label: '−− (both forfeit)', meaning: 'both sides lose by forfeit (neither played)', forfeit: true, points: { white: 0, black: 0 }, pgn: null },
};

export function isGameResult(value: unknown): value is GameResult {
  return typeof value === 'string' && (GAME_RESULTS as readonly string[]).includes(value);
}

export function isForfeitResult(value: unknown): value is ForfeitResult {
  return typeof value === 'string' && (FORFEIT_RESULTS as readonly string[]).includes(value);
}

/** FIDE Laws 6.7.1: the result when `absent` (one side, or both) lost by forfeit. */
export function forfeitResultFor(absent: Side | 'both'): ForfeitResult {
  if (absent === 'both') return '--';
  return absent === 'white' ? '-+' : '+-';
}

// ---- clock and board statuses ---------------------------------------------------------

/**
 * A clock's own states (rules/clock-state.ts `ClockState.status`, the statechart's; the wire's
 * `ClockStatus`): set up, running, stopped by the arbiter, a flag fallen, a loss by default.
 */
export const CLOCK_RUN_STATUSES = ['ready', 'running', 'paused', 'flagged', 'forfeited'] as const;
export type ClockRunStatus = (typeof CLOCK_RUN_STATUSES)[number];

/**
 * A board as the host shows it (API `live.status`, the dashboard, MQTT state): its clock's run
 * status, or `finished`, a game with a result.
 */
export const BOARD_STATUSES = [...CLOCK_RUN_STATUSES, 'finished'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

export const BOARD_STATUS_MEANING: Readonly<Record<BoardStatus, string>> = {
  ready: 'set up, not started',
  running: 'the clock of the side on move runs',
  paused: 'stopped by the arbiter (FIDE Laws 6.11; a player may stop it to call the arbiter, 6.12.2)',
  flagged: "a side's time ran out (FIDE Laws 6.9)",
  forfeited: 'a side lost by default, absent at the default time (FIDE Laws 6.7.1)',
  finished: 'the game has a result',
};

// ---- arbiter commands ----------------------------------------------------------------

/**
 * The arbiter's commands that reach the board's clock, by the names the API and the journal
 * use (host/app/ports.ts `ArbiterCommand`; the HTTP routes of docs/api.md).
 */
export const CLOCK_COMMANDS = [
  'configure',
  'start',
  'pause',
  'resume',
  'adjust',
  'penalty',
  'set-moves',
  'arrive',
  'takeback',
  'reinstate',
  'increment',
  'delay',
  'set-turn',
  'set-control',
] as const;
export type ClockCommandName = (typeof CLOCK_COMMANDS)[number];

/** The arbiter's commands that are journal facts at the host and never reach the clock. */
export const RESULT_COMMANDS = ['result', 'confirm-result'] as const;
export type ResultCommandName = (typeof RESULT_COMMANDS)[number];

export const ARBITER_COMMANDS = [...CLOCK_COMMANDS, ...RESULT_COMMANDS] as const;
export type ArbiterCommandName = (typeof ARBITER_COMMANDS)[number];

export const ARBITER_COMMAND_MEANING: Readonly<Record<ArbiterCommandName, string>> = {
  configure: "set the board's next game: time control and players",
  start: "start the game: White's clock runs (FIDE Laws 6.5)",
  pause: 'stop the clocks (FIDE Laws 6.11)',
  resume: 'restart the clocks (FIDE Laws 6.11; after a flag once the side on move has time again, 6.10.2)',
  adjust: "add or take away time on one side's clock (FIDE Laws 6.10.2)",
  penalty: "an illegal move: extra time for the offender's opponent (FIDE Laws 7.5.5)",
  'set-moves': "correct one side's move counter (FIDE Laws 6.10.2)",
  arrive: 'a late player is at the board: no loss by default (FIDE Laws 6.7.1)',
  takeback: 'annul the last completed move (FIDE Laws 7.5.1 with 6.10.2), rewinding both times to it or keeping them (Laws 7.1)',
  reinstate: 'overrule a loss by default (FIDE Laws 6.7.1, "unless the arbiter decides otherwise")',
  increment: 'a quickplay increment for both sides after every later move (FIDE Guidelines III.4; not in blitz)',
  delay: 'a quickplay delay for both sides on every later turn, instead of the increment (FIDE Guidelines III.4; not in blitz)',
  'set-turn': 'set which side is on move, with no time moved (FIDE Laws 6.10.2: a replacement clock, a clock set wrongly)',
  'set-control': 'install a corrected time control, keeping both times, both move counters and the periods credited (FIDE Laws 6.10.2)',
  result: "enter or correct the game's result",
  'confirm-result': "confirm the game's result (the arbiter's check)",
};

export function isClockCommand(name: string): name is ClockCommandName {
  return (CLOCK_COMMANDS as readonly string[]).includes(name);
}

/** `a, b or c`: a list of the vocabulary in an error message. */
export function listInWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

// The values the journal stores and hands out. All times are integer milliseconds:
// `monoMs` on the clock's own monotonic base, `utcMs` the host's mapping of it to UTC
// (done by the caller from the time-sync estimate), `uncertaintyMs` that mapping's error bound.

import type { Side } from '../../protocol/time-control.ts';
import type { GameResult } from '../../rules/vocabulary.ts';

/** What a clock reports (protocol `ClockEvent` kinds; docs/host.md "What is journaled, and when"). */
export const CLOCK_EVENT_TYPES = [
  'started', // arbiter or Black's press started the game (White's clock runs)
  'moved', // `side` pressed: `move` is the number of the move `side` just completed
  'flag', // `side`'s time ran out (first flag)
  'forfeit', // FIDE Laws 6.7.1: `side` absent when the default time passed
  'paused',
  'resumed',
  'adjusted', // `side`'s time changed by detail.ms; detail.reason 'arbiter', or 'penalty' (FIDE Laws 7.5.5:
  //            then `side` is the CREDITED side, the offender is the other one — as clock.machine emits it —
  //            and detail.illegalMoves the offender's count after it, from a clock of protocol 1.4 or later)
  'arrived', // `side` arrived at the board (default-time bookkeeping)
  'result', // players entered a result on the clock: detail.result, detail.confirmedBy
  'moves-set', // arbiter corrected `side`'s move counter to `move` (detail.period 0-based, detail.creditedMs: a later period's time, credited once)
  'taken-back', // FIDE Laws 7.5.1 with 6.10.2: the arbiter annulled `side`'s last move; `move` = its completed moves
  //              afterwards, detail.period (0-based) and detail.illegalMoves (`side`'s count) after it; detail.times
  //              'rewind' (both times back to the press) or 'keep' (FIDE Laws 7.1: the clock times kept)
  'reinstated', // FIDE Laws 6.7.1: the arbiter overruled a forfeit; the clock stands paused, both players present
  'increment-set', // FIDE Guidelines III.4: a quickplay increment of detail.ms for both sides after every later move
  'restored', // the clock loaded the journal's game from the host (docs/protocol.md "Restore"): it stands stopped with
  //            detail.status ('ready' | 'paused' | 'flagged' | 'forfeited'), `side` on move; times the restored ones
  'turn-set', // FIDE Laws 6.10.2: the arbiter set `side` on move (a replacement clock); no time moved, no move counted
  'control-set', // FIDE Laws 6.10.2: the arbiter installed a corrected control, detail.timeControl (the control spec form,
  //               docs/tournament.md), keeping both times, counters and the periods credited
  'delay-set', // FIDE Guidelines III.4: a quickplay delay of detail.ms for both sides on every turn that begins later
] as const;
export type ClockEventType = (typeof CLOCK_EVENT_TYPES)[number];

/**
 * Game results: the rule book's vocabulary (rules/vocabulary.ts GAME_RESULTS, with what each
 * means). `+-`, `-+`, `--` are forfeits (not played games: TRF16 `+`/`-`, TRF-2026 record 330 notation).
 */
export type { GameResult };

export interface ClockEventInput {
  clockId: string;
  bootId: string;
  seq: number;
  /** The game this event belongs to; omitted = the clock's current game (see `assignClock`); null = none. */
  gameId?: number | null;
  type: ClockEventType;
  side?: Side | null;
  move?: number | null;
  whiteMs: number;
  blackMs: number;
  monoMs: number;
  utcMs: number;
  uncertaintyMs: number;
  /**
   * Extra fields of the event: `{ ms, reason }` for `adjusted`, `{ result, confirmedBy }` for `result`,
   * `{ moves, period, creditedMs }` for `moves-set`, `{ period, illegalMoves, times }` for `taken-back`,
   * `{ ms }` for `increment-set` and `delay-set`, `{ timeControl }` for `control-set`,
   * `{ sessionElapsedMs }` for a `started` after its session began.
   */
  detail?: Record<string, unknown> | null;
}

export interface AppendResult {
  /** false when (clockId, bootId, seq) was already journaled: a retransmission or replay. */
  isNew: boolean;
  /** Row id of the stored event (the earlier row for a duplicate). */
  id: number;
  /**
   * The row as stored, for a new event (what `eventsAfter` would read back): the host's feed
   * goes out from it without reading the journal again. Absent for a duplicate.
   */
  row?: ClockEventRow;
}

export interface ClockEventRow {
  id: number;
  clockId: string;
  bootId: string;
  seq: number;
  gameId: number | null;
  event: string | null;
  round: number | null;
  board: number | null;
  type: ClockEventType;
  side: Side | null;
  move: number | null;
  whiteMs: number;
  blackMs: number;
  monoMs: number;
  utcMs: number;
  uncertaintyMs: number;
  detail: Record<string, unknown> | null;
}

export type GameKind = 'classical' | 'rapid' | 'armageddon' | 'standard' | 'blitz';

export interface NewGame {
  event: string;
  round: number;
  board: number;
  /** Game number within a multi-game pairing (knockout mini-match); 1 otherwise. */
  gameNo?: number;
  matchId?: string | null;
  kind: GameKind;
  white: string;
  black: string;
  /** Starting ranks in the event's player list (TRF 001 positions 5-8). */
  whiteRank?: number | null;
  blackRank?: number | null;
  whiteTeam?: string | null;
  blackTeam?: string | null;
  timeControl: import('../../protocol/time-control.ts').TimeControl;
  clockId?: string | null;
  earliestStartUtcMs?: number | null;
  createdUtcMs: number;
}

export interface GameRow {
  gameId: number;
  event: string;
  round: number;
  board: number;
  gameNo: number;
  matchId: string | null;
  kind: GameKind;
  white: string;
  black: string;
  whiteRank: number | null;
  blackRank: number | null;
  whiteTeam: string | null;
  blackTeam: string | null;
  /** `formatTimeControl` form, e.g. `40/5400+30:900+30` or `W360-B300`. */
  timeControl: string;
  timeControlValue: import('../../protocol/time-control.ts').TimeControl;
  clockId: string | null;
  earliestStartUtcMs: number | null;
  endedUtcMs: number | null;
  result: GameResult | null;
  /** How it was decided: 'played', 'flag', 'forfeit-lateness', 'arbiter', ... (free text, short). */
  how: string | null;
  /** 'clock' (both players confirmed on the clock) or 'arbiter:<name>'. */
  reportedBy: string | null;
  reportedUtcMs: number | null;
  confirmedBy: string | null;
  confirmedUtcMs: number | null;
  createdUtcMs: number;
}

export interface ResultReport {
  result: GameResult;
  how: string;
  /** 'clock': the players entered it and both confirmed on the clock; 'arbiter': entered by an arbiter. */
  source: 'clock' | 'arbiter';
  /** Arbiter name (required for source 'arbiter'). */
  arbiter?: string;
  /** Required true for source 'clock': a result only counts when both players confirmed it. */
  bothPlayersConfirmed?: boolean;
  utcMs: number;
  /**
   * When the game ended (for the break before a tie-break); defaults to utcMs for a first
   * result, and to the end already recorded for a correction (a correction does not move the end).
   */
  endedUtcMs?: number;
  /**
   * Why an arbiter changes a result already recorded (journaled with the correction).
   * Required to change a confirmed result (FIDE Laws 8.7: the result stands unless the
   * arbiter decides otherwise; the decision is kept for an appeal).
   */
  reason?: string;
}

/** Where a result a clock reported stands (schema.ts, version 2, `result_reports`). */
export type ResultReportStatus = 'recorded' | 'agreed' | 'pending' | 'adopted' | 'dismissed';

/** A result a clock reported (the players keyed it in, or an arbiter at the clock), as filed. */
export interface ResultReportRow {
  id: number;
  /** The clock's `result` event (clock_events row id). */
  eventId: number | null;
  clockId: string | null;
  /** The game it was filed for; null when the clock had no game (unassigned). */
  gameId: number | null;
  result: GameResult;
  how: string | null;
  /** 'clock' (both players confirmed on the clock) or 'arbiter:at the clock <id>'. */
  reportedBy: string;
  utcMs: number;
  status: ResultReportStatus;
  resolvedBy: string | null;
  resolvedUtcMs: number | null;
}

/** A clock's result, to be filed against the game it was keyed in for (or none). */
export interface ClockResultInput {
  eventId: number;
  clockId: string;
  /** null: the clock had no game (the report is kept as unassigned). */
  gameId: number | null;
  result: GameResult;
  how: string;
  /** 'clock' needs both players' confirmation (`bothPlayersConfirmed`); 'arbiter' names who. */
  source: 'clock' | 'arbiter';
  arbiter?: string;
  bothPlayersConfirmed?: boolean;
  utcMs: number;
  endedUtcMs?: number;
}

/** What filing a clock's result did. */
export interface ClockResultOutcome {
  /** recorded / agreed / pending (a conflict, or unassigned when `game` is null) / duplicate (filed before). */
  outcome: 'recorded' | 'agreed' | 'pending' | 'duplicate';
  report: ResultReportRow;
  /** The game as it stands after filing (null: unassigned). */
  game: GameRow | null;
}

export interface ArbiterActionInput {
  utcMs: number;
  arbiter: string;
  action: string;
  gameId?: number | null;
  clockId?: string | null;
  event?: string | null;
  round?: number | null;
  board?: number | null;
  payload?: unknown;
  outcome: 'applied' | 'rejected';
  reason?: string | null;
}

export interface ArbiterActionRow extends Required<Omit<ArbiterActionInput, 'payload'>> {
  id: number;
  payload: unknown;
}

export interface OutboxRow {
  id: number;
  kind: string;
  /** Set when a topic hook drafted the row (payload is then the hook's string); null otherwise (payload parsed JSON). */
  topic: string | null;
  retain: boolean;
  payload: unknown;
  createdUtcMs: number;
}

export interface MatchRow {
  matchId: string;
  event: string;
  round: number;
  board: number;
  playerA: string;
  playerB: string;
  status: 'playing' | 'decided';
  winner: string | null;
  loser: string | null;
  decidedBy: 'classical' | 'rapid' | 'armageddon' | null;
  score: unknown;
  updatedUtcMs: number;
}

/** The latest known state of one board: its newest game and that game's last clock event. */
export interface BoardState {
  event: string;
  round: number;
  board: number;
  game: GameRow;
  last: ClockEventRow | null;
}

export interface ClockRow {
  clockId: string;
  bootId: string | null;
  firmware: string | null;
  firstSeenUtcMs: number;
  lastSeenUtcMs: number;
}

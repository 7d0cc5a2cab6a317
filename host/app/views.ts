// What the host shows its network side (the API, the dashboard, MQTT): the shapes HostState
// (ports.ts) hands out — a clock event as journaled, a board with its live clock, results,
// matches, standings, a game's journal for its time chart, the host's health. Data only: every
// BoardView is built in one place (board-views.ts). ports.ts re-exports all of them, so the
// adapters import the seams and their shapes from one module.
import type { Side, TimeControl } from '../../protocol/time-control.ts';
import type { BoardStatus } from '../../rules/vocabulary.ts';
import type { ClockBasis } from '../../rules/clock-snapshot.ts';
import type { JournaledClockEvent } from '../../rules/rebuild.ts';
import type { RestoreNote } from '../clocks/restore-clock.ts';
import type { LinkFigures } from '../clocks/clock-session.ts';
import type { IdentityClaim } from './identity-claims.ts';
import type { StorageHealth } from '../store/storage-health.ts';

/** The host's clock statuses are the rule book's vocabulary (rules/vocabulary.ts CLOCK_STATUSES). */

/**
 * One clock event as journaled: keyed by (clockId, bootId, seq), which makes every
 * replay and retransmission idempotent downstream (MQTT subscribers dedupe on it too).
 */
export interface ClockEventRecord {
  readonly clockId: string;
  /** Changes at every power-up of the clock; `seq` restarts per boot. */
  readonly bootId: string;
  readonly seq: number;
  /** Tournament event name (free text: may hold spaces and slashes). */
  readonly event: string;
  readonly round: number;
  readonly board: number;
  /** A journal event type (host/store/types.ts CLOCK_EVENT_TYPES): 'started' | 'moved' | … | 'turn-set' | 'control-set' | 'delay-set' | 'result' */
  readonly type: string;
  readonly side: Side | null;
  /** Move number completed by `side` (for 'move'), else null. */
  readonly move: number | null;
  /** Remaining time of each side right after the event, or null when the event carries none. */
  readonly whiteMs: number | null;
  readonly blackMs: number | null;
  /** The clock's own monotonic time of the event. */
  readonly monoMs: number;
  /** The same instant mapped to UTC by the host's time sync. */
  readonly utcMs: number;
  /** Error bound of that mapping (journal), when known. */
  readonly uncertaintyMs?: number;
  /** Extra fields: `{ ms, reason }` for 'adjusted', `{ result, confirmedBy }` for 'result'. */
  readonly detail?: Record<string, unknown> | null;
  /**
   * The event's place in the host's journal: one sequence for the whole host, increasing in
   * the order events were journaled, never reused (unlike `seq`, which is the clock's own and
   * restarts per boot). Subscribers detect a gap with it and catch up over
   * `GET /api/journal/events` (docs/mqtt.md "Nothing lost"). Absent on hosts without a journal.
   */
  readonly journalSeq?: number;
}

/** `GET /api/journal/events`: the journaled events after a journal sequence, in journal order. */
export interface JournalRangeQuery {
  readonly after: number;
  readonly limit: number;
  readonly event?: string;
  readonly round?: number;
  readonly board?: number;
}

export interface JournalRange {
  /** In journal order; each with its `journalSeq`. Events of clocks with no game are not listed. */
  readonly events: readonly ClockEventRecord[];
  /** The journal sequence to ask after for the next page, or null when this page reached `head`. */
  readonly next: number | null;
  /** The highest journal sequence when the page was read: with `next` null, nothing up to it is missing. */
  readonly head: number;
}

/** A board's clock as of its last event; times between events are computed by readers. */
export interface LiveClockState {
  readonly clockId: string;
  readonly bootId: string;
  /** Sequence number of the last event folded in. */
  readonly seq: number;
  readonly status: BoardStatus;
  /** Side on move (whose clock runs while `running`); null before the start. */
  readonly turn: Side | null;
  readonly whiteMs: number;
  readonly blackMs: number;
  /** UTC instant at which `whiteMs`/`blackMs` were exact. */
  readonly atUtcMs: number;
  readonly moves: { readonly white: number; readonly black: number };
  /** First side whose flag fell, if any (= flags[0] ?? null: who first). */
  readonly flag: Side | null;
  /**
   * Stage each side plays in, 1-based: 1 until the side completes the first stage's moves
   * (classical: 40), then 2 … (FIDE "period"); an arbiter's move-counter correction sets it.
   */
  readonly period: { readonly white: number; readonly black: number };
  /**
   * Whether each side has shown up (pressed / arrived) — only meaningful when the board's game
   * tracks default time; both true otherwise. FIDE Laws 6.7.1
   */
  readonly present: { readonly white: boolean; readonly black: boolean };
  /** Sides whose flag fell, in the order they fell. FIDE Laws 6.9, III.3.1 */
  readonly flags: readonly Side[];
  /** UTC of the game's 'started' event, null before the start. */
  readonly startedAtUtcMs: number | null;
  /**
   * UTC of the session (round) start the default time counts from (FIDE Laws 6.7.1): the
   * start itself, or earlier for a board started after its round began; null before the start.
   * (Optional for states built elsewhere; foldEvent always sets it, like the two below.)
   */
  readonly sessionAtUtcMs?: number | null;
  /** Illegal moves per side, as the clock counts them: one per take-back (FIDE Laws 7.5.1, 7.5.5). */
  readonly illegalMoves?: { readonly white: number; readonly black: number };
  /** The quickplay increment both sides get after each move (FIDE Guidelines III.4), ms; 0 = none. */
  readonly incrementMs?: number;
  /** The quickplay delay both sides get on every turn that begins from now on (FIDE Guidelines III.4), ms; 0 = none. */
  readonly delayMs?: number;
  /**
   * What a take-back would do now (FIDE Laws 7.5.1 with 6.10.2, the rule book's takeBack on this
   * state): null when there is no completed move to annul. For the arbiter's confirmation.
   */
  readonly takebackPreview?: TakebackPreview | null;
  /**
   * The clock as of `atUtcMs`, for showing it between events with the rule book's
   * `basisRemainingMs(clock, side, nowUtcMs − atUtcMs)` (delays and sandclock included);
   * absent when the game's control is unknown.
   */
  readonly clock?: ClockBasis;
}

/** The times each choice of a take-back would show (FIDE Laws 7.1: the arbiter may keep the clock times). */
export interface TakebackPreview {
  /** Who made the move that would be annulled, and its number (that side's completed moves now). */
  readonly side: Side;
  readonly move: number;
  /** Both remaining times after the take-back, rewound to the press (the default) or kept as they are. */
  readonly rewind: { readonly white: number; readonly black: number };
  readonly keep: { readonly white: number; readonly black: number };
  /**
   * The mover's count of illegal moves after the take-back (FIDE Laws 7.5.5: at 2 the game is
   * lost); the same as now when a penalty already recorded this move.
   */
  readonly illegalMoves: number;
}

export interface PlayerView {
  readonly name: string;
  readonly team?: string;
}

/** One board of one round of one event, as the API and dashboard show it. */
export interface BoardView {
  /** Host-assigned, URL-safe, stable for the board's place in the hall. */
  readonly id: string;
  /** The event's key (the tournament file's event id, as journaled). */
  readonly event: string;
  /** The event's display name, when it differs from the key. */
  readonly eventName?: string;
  readonly round: number;
  readonly board: number;
  readonly clockId: string | null;
  readonly white: PlayerView | null;
  readonly black: PlayerView | null;
  /** PGN form, e.g. `40/5400+30:900+30`, or null when not configured. */
  readonly timeControl: string | null;
  readonly live: LiveClockState | null;
  /** The result once known: one of the vocabulary's GAME_RESULTS (rules/vocabulary.ts), forfeits included. */
  readonly result: string | null;
  readonly resultConfirmed: boolean;
  /**
   * The regulation's appeal deadline of the confirmed result (UTC; tournament file `appeal`):
   * absent where the event states none, null while it is not running yet (Ivanovo: until the
   * round's last result is confirmed).
   */
  readonly appealUntilUtcMs?: number | null;
  /** The appeal deadline has passed: the result is final and the host refuses to correct it. */
  readonly resultFinal?: boolean;
  /** Earliest start of this game (e.g. after a knockout break): the dashboard counts down to it. */
  readonly startsAtUtcMs?: number | null;
  /** Which game of a multi-game pairing this is (knockout mini-match), and its kind. */
  readonly game?: { readonly no: number; readonly kind: string; readonly matchId: string | null };
  /** A knockout break before the board's next game, while it runs. */
  readonly break?: BreakView;
  /** Whether the board's clock is connected to the host now (absent where the host cannot know). */
  readonly clockOnline?: boolean;
  /** The line's health as the host sees it, over every connection of the clock since the host started (absent where unknown). */
  readonly link?: LinkFigures;
  /**
   * Another line greeted with this board's clock id while the clock is online, and was refused:
   * the arbiter keeps the online clock or takes the newcomer (docs/api.md "Clock identity").
   */
  readonly identityClaim?: IdentityClaim;
  /** Allowed lateness of the board's current game (FIDE Laws 6.7.1); null/absent = not tracked. */
  readonly defaultTimeMs?: number | null;
  /** Knockout mini-match of this board's game: score so far and the (tie-break) stage. Absent for non-match games. */
  readonly match?: MatchScoreView;
  /**
   * Results a clock reported for this game that differ from `result` (FIDE Laws 8.7: the
   * arbiter decides): shown beside it until an arbiter confirms one. Absent when there are none.
   */
  readonly pendingResults?: readonly ReportedResultView[];
  /**
   * The last time a clock was brought to this game from the journal (docs/protocol.md
   * "Restore"): the journal won, and what the clock had differently is listed for the arbiter.
   */
  readonly restore?: RestoreNote;
  /**
   * The live broadcast of the board's round (docs/broadcast.md "On the dashboard"): its lichess
   * round, and what the arbiter should see. Absent when the round is not broadcast.
   */
  readonly broadcast?: BoardBroadcastView;
}

/** What the broadcast says of a board (host/app/broadcast-notes.ts). */
export interface BoardBroadcastView {
  /** The lichess round the board's game is pushed to (8 characters). */
  readonly lichessRound: string;
  /** The board's moves and its clock's presses differ (the game's comment says the same). */
  readonly warning?: string;
  /** Since when (UTC) the moves and the presses differ: a difference of an instant is a move not yet pressed. */
  readonly warningSinceUtcMs?: number;
  /** lichess refused the game at its last push: its error (an illegal move, a tag it cannot read). */
  readonly lichessError?: string;
  /** The moves source's games of the round that match no board (the first few: place and reason), and how many there are. */
  readonly unmatched?: readonly string[];
  readonly unmatchedCount?: number;
  /** This board is the round's first broadcast board: the attention strip lists the unmatched games here, once per round. */
  readonly unmatchedOnBoard?: boolean;
}

/** A clock brought to the journal's game: when, which clock, and what it held differently (clocks/restore-clock.ts). */
export type { RestoreNote };

/** A knockout mini-match as one of its boards shows it. */
export interface MatchScoreView {
  readonly id: string;
  /**
   * Match points so far (the match's games with a journaled result, confirmed or not — the
   * current game counts once its result is in) of the player who has White / Black in THIS
   * board's current game. Game points: a win 1, a draw ½ (also in the armageddon, where the
   * draw still decides the match for Black: see `winner`), a forfeit win 1.
   */
  readonly whiteScore: number;
  readonly blackScore: number;
  /** Stage of the board's current game: 'classical' | 'rapid' | 'armageddon' (the tie-break stage). */
  readonly stage: string;
  readonly decided: boolean;
  /** Winner's name once decided, else null; and how ('classical' | 'rapid' | 'armageddon'). */
  readonly winner: string | null;
  readonly decidedBy: string | null;
}

/** The break before a knockout board's next game (regulation: 30 min before the rapid games). */
export interface BreakView {
  readonly nextGameNo: number;
  readonly nextStage: string;
  readonly startsUtcMs: number;
  readonly remainingMs: number;
}

export interface MatchView {
  readonly id: string;
  readonly event: string;
  readonly [key: string]: unknown;
}

/** A result a clock reported (the players keyed it in, or an arbiter at the clock) that waits for the arbiter. */
export interface ReportedResultView {
  /** Confirm this one with `confirm-result` `{ report: id }`. */
  readonly id: number;
  readonly result: string;
  /** 'clock' (both players confirmed on the clock) or 'arbiter:at the clock <id>'. */
  readonly by: string;
  readonly clockId: string | null;
  /** When the clock recorded it (UTC). */
  readonly atUtcMs: number;
}

export interface ResultView {
  readonly event: string;
  readonly round: number;
  readonly board: number;
  readonly white: string | null;
  readonly black: string | null;
  readonly result: string | null;
  readonly confirmed: boolean;
  /** Who entered or confirmed it ('clock' when both players confirmed on the clock). */
  readonly by: string | null;
  /** When the result was recorded (UTC), once there is one (absent where the host does not keep it). */
  readonly reportedUtcMs?: number | null;
  /** Results clocks reported for the game that differ from `result`, each with who and when: the arbiter confirms one. */
  readonly conflicts: readonly ReportedResultView[];
  /**
   * Set on a result a clock reported while it had no game (not assigned to any): event '',
   * round 0, board 0, the report here. The API lists these apart, as `unassigned` (docs/api.md).
   */
  readonly unassigned?: ReportedResultView;
}

export interface EventQuery {
  readonly event?: string;
  readonly round?: number;
  readonly board?: number;
  readonly clockId?: string;
  /** Cursor: only events after this position (from a previous page's `next`). */
  readonly after?: string;
  readonly limit: number;
}

export interface EventPage {
  readonly events: readonly ClockEventRecord[];
  /** Cursor for the next page, or null when this page is the last one so far. */
  readonly next: string | null;
}

/** A team's place and the values of every tie-break that could decide it (docs/tournament.md). */
export interface TeamStandingView {
  readonly rank: number;
  readonly team: number;
  readonly name: string;
  readonly gamePoints: number;
  readonly matchPoints: number;
  readonly directEncounter: number | null;
  readonly buchholz: number;
  /** Board 1, 2, … points over all rounds. */
  readonly boardPoints: readonly number[];
  /** What ranked it below the team just above (the ranking's own record, tie-breaks.ts); null: first or sharing its rank. */
  readonly separatedBy: SeparationView | null;
}

/** The criterion that first told a participant from the one ranked just above it, with both values (C.07 4.2). */
export interface SeparationView {
  readonly criterion: string;
  readonly above: number;
  readonly value: number;
}

/** A player's place in the board prize of their board, or in the whole field (`players`). */
export interface PlayerStandingView {
  readonly rank: number;
  readonly player: number;
  readonly name: string;
  /** The player's team; null in an individual event. */
  readonly team: number | null;
  readonly points: number;
  readonly buchholz: number;
  readonly wins: number;
  readonly directEncounter: number | null;
  readonly buchholzCut1: number;
  readonly buchholzCut2: number;
  /** What ranked the player below the one just above (the ranking's own record); null: first or sharing its rank. */
  readonly separatedBy: SeparationView | null;
}

/** GET /api/standings: an individual or team event after a round. */
export interface StandingsView {
  readonly event: string;
  readonly kind: 'individual' | 'team';
  readonly round: number;
  /** Team places (team events; empty for an individual event). */
  readonly teams: readonly TeamStandingView[];
  /** Board prizes (team events; empty for an individual event). */
  readonly boards: readonly { readonly board: number; readonly players: readonly PlayerStandingView[] }[];
  /** The whole field by the individual ranking: an individual event's places, every player's TRF rank. */
  readonly players: readonly PlayerStandingView[];
}

export type { LinkFigures } from '../clocks/clock-session.ts';

/** A board's current game as the journal holds it: what its time chart (rules/time-chart.ts) is drawn from. */
export interface BoardGameJournal {
  readonly gameId: number;
  /** Which game of the board's pairing (1 but in a knockout mini-match). */
  readonly gameNo: number;
  readonly event: string;
  readonly round: number;
  readonly board: number;
  readonly white: string;
  readonly black: string;
  readonly timeControl: TimeControl;
  /** The game's clock events in journal order, with the times each carries after it. */
  readonly events: readonly JournaledClockEvent[];
  /** The journal id of the game's last event (0: none yet): the version of anything drawn from it. */
  readonly lastEventId: number;
}

/** The host's health (docs/api.md, GET /api/health; docs/reliability.md). */
export interface HostHealth {
  readonly ok: boolean;
  /** Whether the journal can write: a full disk or an I/O error makes it not ok until a write succeeds again. */
  readonly journal: StorageHealth;
}

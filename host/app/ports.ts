// The seams between the host core (bridge, journal, match director, exports) and its
// network side (HTTP/WebSocket API, dashboard, MQTT). The network side only reads a
// `HostState`, listens to a live event feed and hands arbiter writes to a `CommandSink`;
// it never reaches into the journal's tables. The host core implements these ports
// (the lead's orchestration wires them); `memory-ports.ts` is a small in-memory
// implementation used by tests and the API benchmark.
import type { Side, TimeControl } from '../../protocol/time-control.ts';
import type { ArbiterCommandName, BoardStatus, GameResult } from '../../rules/vocabulary.ts';
import type { ClockBasis } from '../../rules/clock-snapshot.ts';
import type { TakebackTimes } from '../../rules/takeback.ts';
import type { JournaledClockEvent } from '../../rules/rebuild.ts';
import type { RestoreNote } from '../clocks/restore-clock.ts';
import type { LinkFigures } from '../clocks/clock-session.ts';
import type { StorageHealth } from '../store/storage-health.ts';

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
}

/** A clock brought to the journal's game: when, which clock, and what it held differently (clocks/restore-clock.ts). */
export type { RestoreNote as RestoreView } from '../clocks/restore-clock.ts';

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

/** What the network side reads. */
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

export interface HostState {
  boards(): readonly BoardView[];
  board(id: string): BoardView | undefined;
  events(query: EventQuery): EventPage;
  /** The journal's events by journal sequence (for subscribers catching up after a gap). */
  journalEvents?(query: JournalRangeQuery): JournalRange;
  matches(): readonly MatchView[];
  results(round?: number): readonly ResultView[];
  /** Standings of an individual or team event after `round` (default: the last complete round); refusals throw ExportRefusedError. */
  standings?(event: string, round?: number): StandingsView;
  /** Whether the host can do its work (GET /api/health); absent = always ok. */
  health?(): HostHealth;
  /**
   * A board's current game as journaled (its time chart is drawn from it), or with `gameNo` that
   * game of the board's current round (a knockout mini-match's earlier game); absent: the chart route answers 501.
   */
  boardGame?(id: string, gameNo?: number): BoardGameJournal | undefined;
  /** Live feed: every journaled event, in journal order, after it is durable. */
  subscribe(listener: (event: ClockEventRecord, board: BoardView | undefined) => void): () => void;
  /**
   * Boards whose view changed with no feed event carrying it: a clock connected or was lost
   * (`clockOnline`), or a result a clock reported was filed after its event went out. The API
   * passes them on over /ws as `board` messages, so the dashboard shows an offline clock or a
   * result to confirm when it happens (docs/dashboard.md "Attention"). Absent: the host cannot tell.
   */
  watchBoards?(listener: (board: BoardView) => void): () => void;
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

/** An export the host refuses to produce as things stand (e.g. a result not yet confirmed): 409. */
export class ExportRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportRefusedError';
  }
}

/** Exports produced by the host core (TRF, PGN); the API only serves them. Refusals throw ExportRefusedError. */
export interface ExportSource {
  trf(event: string, round?: number): string;
  /** PGN of one round (with live clock tags while games run). */
  pgn(event: string | undefined, round: number): string;
  /** JSON Lines, one event per line. */
  jsonl?(query: Omit<EventQuery, 'limit' | 'after'>): string;
  /** The print report of an event after a round, one HTML page (`chessclock export --report`; GET /events/:event/report.html). */
  report?(event: string, round?: number): string;
  /** The screen page of an event's standings and crosstable (GET /events/:event/standings). */
  standingsPage?(event: string, round?: number): StyledPage;
}

/** A server-rendered HTML page whose one inline style sheet the API's CSP allows by its hash. */
export interface StyledPage {
  readonly html: string;
  /** Base64 SHA-256 of the text of the page's one `<style>` element (CSP Level 3 hash source). */
  readonly styleSha256: string;
}

/** Who issues a write: an arbiter identified by a configured token. */
export interface Actor {
  readonly arbiter: string;
}

export type ArbiterCommand =
  /** Next game's control (already parsed and checked by the API) and, optionally, players. */
  | { readonly type: 'configure'; readonly boardId: string; readonly timeControl: TimeControl; readonly white?: PlayerView; readonly black?: PlayerView }
  | { readonly type: 'pause'; readonly boardId: string }
  | { readonly type: 'resume'; readonly boardId: string }
  | { readonly type: 'adjust'; readonly boardId: string; readonly side: Side; readonly ms: number }
  | { readonly type: 'penalty'; readonly boardId: string; readonly side: Side }
  /**
   * FIDE Laws 6.10.2: the arbiter corrects a side's move counter (moves completed); the period
   * follows from the count, and a later period reached for the first time has its time credited once.
   */
  | { readonly type: 'set-moves'; readonly boardId: string; readonly side: Side; readonly moves: number }
  /** FIDE Laws 6.7.1: `side` is at the board (the arbiter saw the player arrive). */
  | { readonly type: 'arrive'; readonly boardId: string; readonly side: Side }
  /**
   * FIDE Laws 7.5.1 with 6.10.2: annul the last completed move (clock paused or flagged);
   * `times` (Laws 7.1): rewind both times to the press (the default) or keep them.
   */
  | { readonly type: 'takeback'; readonly boardId: string; readonly times?: TakebackTimes }
  /** FIDE Laws 6.10.2: set the side on move (clock ready or paused): a replacement clock. */
  | { readonly type: 'set-turn'; readonly boardId: string; readonly side: Side }
  /** FIDE Laws 6.10.2: install a corrected control mid-game, keeping times, counters and credited periods. */
  | { readonly type: 'set-control'; readonly boardId: string; readonly timeControl: TimeControl }
  /** FIDE Guidelines III.4: a quickplay delay of `ms` for both sides on every later turn (0 removes it). */
  | { readonly type: 'delay'; readonly boardId: string; readonly ms: number }
  /** FIDE Laws 6.7.1 "unless the arbiter decides otherwise": overrule a forfeit. */
  | { readonly type: 'reinstate'; readonly boardId: string }
  /** FIDE Guidelines III.4: `ms` for both sides after every later move (0 removes it). */
  | { readonly type: 'increment'; readonly boardId: string; readonly ms: number }
  /** One of the vocabulary's GAME_RESULTS (rules/vocabulary.ts); the API's schema allows no other. */
  /**
   * Enters the board's result, or corrects the one recorded (FIDE Laws 8.7: the result stands
   * unless the arbiter decides otherwise). `reason`: why, journaled with the correction;
   * required to change a confirmed result.
   */
  | { readonly type: 'result'; readonly boardId: string; readonly result: GameResult; readonly reason?: string }
  /**
   * Confirms the board's result. `report`: the id of a result a clock reported (a pending
   * conflict of this game, or one of a clock that had no game) to adopt as the result and
   * confirm; `result`: the same, named by its result. `reason` as for a correction.
   */
  | { readonly type: 'confirm-result'; readonly boardId: string; readonly report?: number; readonly result?: GameResult; readonly reason?: string }
  /**
   * Starts the board's clock (Command KIND_START), as Black's first press would: FIDE Laws 6.2.1 / 6.5.
   * `sessionUtcMs`: the session (round) start the default time counts from (FIDE Laws 6.7.1),
   * when it began before now; the host fills it in from the round's start when absent.
   */
  | { readonly type: 'start'; readonly boardId: string; readonly sessionUtcMs?: number };

/**
 * The commands' names are the vocabulary's (rules/vocabulary.ts ARBITER_COMMANDS): a command
 * added here and not there, or there and not here, fails to type-check.
 */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type MustBeTrue<T extends true> = T;
export type ArbiterCommandNamesAreTheVocabulary = MustBeTrue<Same<ArbiterCommand['type'], ArbiterCommandName>>;

export type CommandOutcome =
  | { readonly ok: true; readonly board?: BoardView }
  /** Refused as a whole (nothing applied); `reason` is shown to the arbiter. 503: the clock is not reachable. */
  | { readonly ok: false; readonly status: 404 | 409 | 422 | 503; readonly reason: string };

/** Starting a round: which boards' clocks started and why the others did not. */
export type RoundStartOutcome =
  | { readonly ok: true; readonly started: readonly string[]; readonly skipped: readonly { readonly boardId: string; readonly reason: string }[] }
  /** 404: no such event or round; 409: not the event's current round (nothing was sent to any clock). */
  | { readonly ok: false; readonly status: 404 | 409; readonly reason: string };

/**
 * Arbiter writes. The sink journals each command with `actor` before acting on it and
 * either applies it whole or refuses it whole.
 */
export interface CommandSink {
  execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome>;
  /**
   * Starts every board of a round whose clock is ready (one journaled 'start' per board).
   * Optional: without it the API starts the boards `HostState.boards()` shows for that round
   * (host/app/round-start.ts); a host that knows the tournament adds the round checks.
   */
  startRound?(event: string, round: number, actor: Actor): Promise<RoundStartOutcome>;
  /**
   * The arbiter enters the colours drawn by lot in the hall for a knockout mini-match (game 1,
   * `classical`, or the `armageddon`), before the host needs them; journaled as `draw-lot`.
   * Optional: a host without a match director answers 501.
   */
  enterLot?(event: string, round: number, board: number, stage: LotStage, whiteRank: number, actor: Actor): Promise<LotOutcome>;
}

/** Which colours of a mini-match are drawn by lot (Slovenian final 2007 art. 3). */
export type LotStage = 'classical' | 'armageddon';

/** A lot drawn for a mini-match's colours, as `GET /api/matches` lists it. */
export interface LotView {
  readonly stage: LotStage;
  /** The player given White, and her starting rank. */
  readonly white: string;
  readonly whiteRank: number;
  /**
   * `random`: drawn by the host (crypto.randomInt); `arbiter`: the draw made in the hall, entered;
   * `seed`: from the tournament file's `knockout.seed` (rehearsals and tests: known in advance).
   */
  readonly source: 'random' | 'arbiter' | 'seed';
  /** `director` or the arbiter who entered it. */
  readonly by: string;
  readonly atUtcMs: number;
}

export type LotOutcome = { ok: true; lot: LotView } | { ok: false; status: number; reason: string };

// ─── the next round of a Swiss event (docs/tournament.md "Pairing the next round") ───────

/** A player or team as a proposed round shows it. */
export interface ProposedEntrantView {
  readonly rank: number;
  readonly name: string;
}

/**
 * The next round's pairings waiting for an arbiter (`GET /api/rounds/proposed`): proposed by the
 * pairing engine or loaded from a TRF (`proposed`), an engine run that gave none (`failed`, with
 * why), pairings an arbiter set aside (`rejected`), or the engine at work (`running`).
 */
export interface RoundProposalView {
  /** The journal's `propose-round` action; null while the engine runs. */
  readonly id: number | null;
  readonly event: string;
  readonly round: number;
  readonly status: 'proposed' | 'failed' | 'rejected' | 'running';
  /** Who set the pairings aside, and why (status `rejected`). */
  readonly rejected?: { readonly by: string; readonly atUtcMs: number; readonly reason: string | null };
  readonly source: 'engine' | 'trf';
  /** Who proposed it: `host` (the engine run after the round's last confirmation) or the arbiter. */
  readonly by: string | null;
  readonly atUtcMs: number;
  /** Why a run gave no pairings. */
  readonly reason?: string;
  /** Round 1 by the engine: the colour drawn by lot for the top-ranked player (TRF `XXC white1|black1`). */
  readonly initialColour?: 'white' | 'black';
  /** Who drew it: `host` (a cryptographic draw) or `arbiter` (entered in the tournament file). */
  readonly initialColourDrawnBy?: 'host' | 'arbiter';
  /** The engine's run: its command as run, exit code or signal, the end of its stderr, how long it took. */
  readonly engine?: { readonly command: readonly string[]; readonly exitCode: number | null; readonly signal: string | null; readonly stderr: string; readonly durationMs: number };
  /** In board order (board 1 first, as the engine or the TRF gave it). */
  readonly boards: readonly { readonly board: number; readonly white: ProposedEntrantView; readonly black: ProposedEntrantView }[];
  readonly byes: readonly { readonly kind: string; readonly player?: ProposedEntrantView; readonly team?: { readonly id: number; readonly name: string } }[];
  /** The event names a pairing engine (Re-run is offered). */
  readonly canRunEngine: boolean;
}

export type RoundProposalOutcome =
  | { readonly ok: true; readonly proposal: RoundProposalView }
  | { readonly ok: false; readonly status: 404 | 409 | 422 | 501; readonly reason: string };

export type RoundDecisionOutcome =
  | { readonly ok: true; readonly event: string; readonly round: number; readonly boards: readonly string[] }
  | { readonly ok: false; readonly status: 404 | 409 | 422 | 501; readonly reason: string };

/**
 * The next round's pairings (a host with a match director; the API answers 501 without):
 * proposals are filed, never opened, until an arbiter approves them. Each write is journaled with the arbiter.
 */
export interface NextRoundSink {
  proposedRounds(): readonly RoundProposalView[];
  /** A pairing program's TRF with the next round paired (checked against the journal: 422 naming line and field). */
  proposeRoundFromTrf(event: string, trf: string, actor: Actor): Promise<RoundProposalOutcome>;
  /** Runs the event's pairing engine again (a pending proposal of the round is rejected first); resolves when its run is journaled. */
  runPairingEngine(event: string, actor: Actor): Promise<RoundProposalOutcome>;
  /** Opens the round with the proposed pairings. */
  approveRound(event: string, round: number, actor: Actor): Promise<RoundDecisionOutcome>;
  rejectRound(event: string, round: number, reason: string | null, actor: Actor): Promise<RoundDecisionOutcome>;
}

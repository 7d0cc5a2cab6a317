// The seams between the host core (bridge, journal, match director, exports) and its
// network side (HTTP/WebSocket API, dashboard, MQTT). The network side only reads a
// `HostState`, listens to a live event feed and hands arbiter writes to a `CommandSink`;
// it never reaches into the journal's tables. The host core implements these ports:
// `JournalPorts` (journal-ports.ts) is the HostState over the journal — the running host's
// (`Host.state`, with its clocks) and the one tests and benchmarks open over a journal in
// memory; every BoardView it gives is built in one place (board-views.ts). `Host` (host.ts)
// is the CommandSink and NextRoundSink. The shapes the ports carry are in views.ts, re-exported here.
import type { IdentityChoice, IdentityClaim } from './identity-claims.ts';
import type { Side, TimeControl } from '../../protocol/time-control.ts';
import type { ArbiterCommandName, GameResult } from '../../rules/vocabulary.ts';
import type { TakebackTimes } from '../../rules/takeback.ts';
import type { ByeKind, Player } from '../domain/model.ts';
import type {
  BoardGameJournal,
  BoardView,
  ClockEventRecord,
  EventPage,
  EventQuery,
  HostHealth,
  JournalRange,
  JournalRangeQuery,
  MatchView,
  PlayerView,
  ResultView,
  StandingsView,
} from './views.ts';

export type * from './views.ts';

/**
 * What the network side reads. Every board it gives — boards(), board(), the feed's, the
 * watchers' — is the same view (host/app/board-views.ts), so a reader may keep whichever came last.
 */
export interface HostState {
  boards(): readonly BoardView[];
  board(id: string): BoardView | undefined;
  events(query: EventQuery): EventPage;
  /** The journal's events by journal sequence (for subscribers catching up after a gap). */
  journalEvents(query: JournalRangeQuery): JournalRange;
  matches(): readonly MatchView[];
  results(round?: number): readonly ResultView[];
  /** Standings of an individual or team event after `round` (default: the last complete round); refusals throw ExportRefusedError. */
  standings(event: string, round?: number): StandingsView;
  /** Whether the host can do its work (GET /api/health). */
  health(): HostHealth;
  /**
   * A board's current game as journaled (its time chart is drawn from it), or with `gameNo` that
   * game of the board's current round (a knockout mini-match's earlier game).
   */
  boardGame(id: string, gameNo?: number): BoardGameJournal | undefined;
  /** Live feed: every journaled event, in journal order, after it is durable, with its board's view. */
  subscribe(listener: (event: ClockEventRecord, board: BoardView | undefined) => void): () => void;
  /**
   * Boards whose view changed with no feed event carrying it: a clock connected or was lost
   * (`clockOnline`), a result a clock reported was filed after its event went out, or a clock was
   * restored from the journal. The API passes them on over /ws as `board` messages, so the
   * dashboard shows an offline clock or a result to confirm when it happens (docs/dashboard.md
   * "Attention"). A host without clock lines has no such change to tell.
   */
  watchBoards(listener: (board: BoardView) => void): () => void;
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
  /**
   * The TRF after `round` (default: the last in the journal): TRF-2026, or (`format: 'trf16'`) the
   * TRF16 form written before it (docs/exports.md "FIDE TRF"); round 0 is the registration TRF a
   * pairing program pairs round 1 from, with `initialColour` the lot when none is recorded yet.
   */
  trf(event: string, round?: number, options?: { format?: 'trf26' | 'trf16'; initialColour?: 'white' | 'black' }): string;
  /** The events of the tournament, those with no board yet too (an event whose round 1 is still to be paired). */
  events?(): readonly string[];
  /** PGN of one round (with live clock tags while games run). */
  pgn(event: string | undefined, round: number): string;
  /** The same as the public broadcast feed shows it: each event's games as of its broadcast delay ago (docs/broadcast.md "The delay"). */
  broadcastPgn?(event: string | undefined, round: number): string;
  /** JSON Lines, one event per line. */
  jsonl?(query: Omit<EventQuery, 'limit' | 'after'>): string;
  /** The print report of an event after a round, one HTML page (`chessclock export --report`; GET /events/:event/report.html). */
  report?(event: string, round?: number): string;
  /** The screen page of an event's standings and crosstable (GET /events/:event/standings). */
  standingsPage?(event: string, round?: number): StyledPage;
  /** A round's pairings list for print, by board and alphabetical (`chessclock export --pairings`; GET /events/:event/pairings.html). */
  pairings?(event: string, round: number): string;
  /** A round's table cards for print, `perPage` to an A4 sheet (`chessclock export --cards`; GET /events/:event/cards.html). */
  cards?(event: string, round: number, perPage?: 2 | 4): string;
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
  readonly source: 'engine' | 'trf' | 'pairs';
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
  readonly engine?: {
    readonly command: readonly string[];
    readonly exitCode: number | null;
    readonly signal: string | null;
    readonly stderr: string;
    readonly durationMs: number;
  };
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
 * The arbiter's choice between two lines that claim one clock id (docs/api.md "Clock identity";
 * host/app/identity-claims.ts), journaled with the arbiter.
 */
export interface ClockIdentitySink {
  decideClockIdentity(clockId: string, line: string, keep: IdentityChoice, actor: Actor): ClockIdentityOutcome;
}

export type ClockIdentityOutcome = { readonly ok: true; readonly claim: IdentityClaim } | { readonly ok: false; readonly status: 409; readonly reason: string };

/**
 * A Swiss event's next round with no pairings in play (`GET /api/rounds/proposed` `waiting`): every
 * result of the last round is confirmed (or no round is paired yet), the event has rounds to come,
 * and nothing is proposed or being paired (a failed or rejected proposal leaves the round waiting).
 */
export interface RoundWaitingView {
  readonly event: string;
  readonly eventName: string;
  readonly round: number;
}

/**
 * The next round's pairings (a host with a match director; the API answers 501 without):
 * proposals are filed, never opened, until an arbiter approves them. Each write is journaled with the arbiter.
 */
export interface NextRoundSink {
  proposedRounds(): readonly RoundProposalView[];
  /** The rounds that wait for pairings (the dashboard's attention strip). */
  waitingRounds?(): readonly RoundWaitingView[];
  /**
   * A pairing program's TRF with the next round paired, or (`pairs`) its pairs list and the TRF it
   * was paired from (checked against the journal: 422 naming line and field).
   */
  proposeRoundFromTrf(event: string, trf: string, actor: Actor, pairs?: string): Promise<RoundProposalOutcome>;
  /** Runs the event's pairing engine again (a pending proposal of the round is rejected first); resolves when its run is journaled. */
  runPairingEngine(event: string, actor: Actor): Promise<RoundProposalOutcome>;
  /** Opens the round with the proposed pairings. */
  approveRound(event: string, round: number, actor: Actor): Promise<RoundDecisionOutcome>;
  rejectRound(event: string, round: number, reason: string | null, actor: Actor): Promise<RoundDecisionOutcome>;
}

/** An arbiter's entry in a running host (docs/tournament.md "Entries"; host/app/entries.ts). */
export type EntryCommand =
  /** A late entrant: a tournament file player's fields (`rank` left out: the next free one), playing from `fromRound` (default: the next round). */
  | { readonly type: 'late-entry'; readonly player: Record<string, unknown>; readonly fromRound?: number }
  /** Absent from `fromRound` (default: the next round) on. */
  | { readonly type: 'withdraw'; readonly player: number; readonly fromRound?: number }
  /** A requested bye in `round`: `points` 0, ½ (the default) or 1. */
  | { readonly type: 'bye'; readonly player: number; readonly round: number; readonly points?: number }
  | { readonly type: 'round-start'; readonly round: number; readonly startUtcMs: number };

/** Who made an entry, and when (the journal action's id). */
interface EntryMade {
  readonly id: number;
  readonly by: string;
  readonly atUtcMs: number;
}

/** An event's entries (GET /api/events/:event/entries), in journal order. */
export interface EntriesView {
  readonly event: string;
  /** The next round to pair: the first an entry may change. */
  readonly nextRound: number;
  readonly lateEntries: (EntryMade & { readonly player: Player; readonly fromRound: number })[];
  readonly withdrawals: (EntryMade & { readonly player: ProposedEntrantView; readonly fromRound: number })[];
  readonly byes: (EntryMade & { readonly player: ProposedEntrantView; readonly round: number; readonly points: number; readonly kind: ByeKind })[];
  readonly roundStarts: (EntryMade & { readonly round: number; readonly startUtcMs: number })[];
}

export type EntryOutcome =
  | { readonly ok: true; readonly entries: EntriesView }
  | { readonly ok: false; readonly status: 404 | 409 | 422; readonly reason: string };

/** The arbiter's entries (late entry, withdrawal, requested bye, a round's start), each journaled with the arbiter. */
export interface EntrySink {
  entries(event: string): EntryOutcome;
  enterEntry(event: string, command: EntryCommand, actor: Actor): Promise<EntryOutcome>;
}

// The rounds of the hall's events: which round each event plays now, opening it (the director
// pairs it and creates its games), when its session began (FIDE Laws 6.7.1: the default time
// counts from it), starting a round's clocks, the lots of a knockout mini-match, what the
// director decides after an arbiter's confirmation, and the next round of a Swiss event
// (next-round.ts: proposed by the pairing engine or a TRF, opened when an arbiter approves it).
import type { Journal } from '../store/journal.ts';
import type { GameRow } from '../store/types.ts';
import type { Hall, TournamentEvent } from '../domain/model.ts';
import type { Busy } from './busy.ts';
import { type Director, DirectorError } from './director.ts';
import { AUTO_PAIRING_ACTOR, NextRoundError, NextRounds, type NextRoundPairing } from './next-round.ts';
import { startRoundOnBoards } from './round-start.ts';
import type {
  Actor,
  CommandSink,
  HostState,
  LotOutcome,
  LotStage,
  NextRoundSink,
  RoundDecisionOutcome,
  RoundProposalOutcome,
  RoundProposalView,
  RoundWaitingView,
  RoundStartOutcome,
} from './ports.ts';
import type { HostClock } from './utc.ts';

export interface HallRoundsOptions {
  readonly journal: Journal;
  readonly hall: Hall;
  readonly clock: HostClock;
  readonly director: Director;
  readonly busy: Busy;
  /** The boards (a round's boards to start, to report as opened). */
  readonly state: HostState;
  /** Where a round's starts go, one board at a time (the host: it fills in the session and reaches the clocks). */
  readonly commands: CommandSink;
  /** The pairing engine and TRF reader of a Swiss event's next round; null: not paired in this host (501). */
  readonly pairing: NextRoundPairing | null;
  /** Brings the connected clocks to their boards' current games (after rounds were opened). */
  readonly syncClocks: () => void;
  /** Brings one clock to its board's current game (the director set up its next game). */
  readonly syncClock: (clockId: string) => void;
  /** The boards of a round just opened: their views to the watchers (HostState.watchBoards). */
  readonly boardsOpened: (ids: readonly string[]) => void;
  readonly log: (line: string) => void;
}

export class HallRounds implements NextRoundSink {
  private readonly opts: HallRoundsOptions;
  private readonly journal: Journal;
  private readonly hall: Hall;
  private readonly director: Director;
  /** The next round of a Swiss event: proposed (engine or TRF), opened when an arbiter approves it. */
  readonly nextRounds: NextRounds;
  private stopped = false;

  constructor(opts: HallRoundsOptions) {
    this.opts = opts;
    this.journal = opts.journal;
    this.hall = opts.hall;
    this.director = opts.director;
    this.nextRounds = new NextRounds({
      journal: opts.journal,
      hall: opts.hall,
      pairing: opts.pairing,
      openRound: (eventId, round, now) => void this.director.openRound(eventId, round, now),
      nowUtcMs: () => opts.clock.nowUtcMs(),
      log: (line) => opts.log(line),
    });
  }

  /** No more pairing engine runs; one under way is killed (its round stays due for the next start). */
  stop(): void {
    this.stopped = true;
    this.nextRounds.stop();
  }

  // ─── the current rounds ──────────────────────────────────────────────────────────────

  /** The round each event plays now: the first one not finished. */
  currentRound(event: TournamentEvent): number | null {
    for (const r of event.rounds) if (!this.roundFinished(event, r.number)) return r.number;
    return null;
  }

  private roundFinished(event: TournamentEvent, round: number): boolean {
    const r = event.rounds.find((x) => x.number === round)!;
    if (event.kind === 'knockout') {
      const decided = this.journal.matchesByEvent(event.id).filter((m) => m.round === round && m.status === 'decided');
      return decided.length === r.knockout.length;
    }
    const games = this.journal.gamesByRound(event.id, round);
    return games.length === r.boards.length && games.every((g) => g.result !== null && g.confirmedBy !== null);
  }

  /** Opens the current round of every event (idempotent: a restarted host finds its games), and brings the clocks to them. */
  openCurrentRounds(): void {
    const now = this.opts.clock.nowUtcMs();
    for (const event of this.hall.events) {
      const round = this.currentRound(event);
      if (round === null) continue;
      if (this.journal.gamesByRound(event.id, round).length === 0) this.opts.log(`opening ${event.id} round ${round}`);
      try {
        this.director.openRound(event.id, round, now);
      } catch (err) {
        // A round the director cannot pair yet (e.g. a knockout final whose semifinal is not
        // decided) stays closed and says why; the other events and the clocks carry on.
        if (!(err instanceof DirectorError)) throw err;
        this.opts.log(`${event.id} round ${round} not opened: ${err.message}`);
      }
    }
    this.opts.syncClocks();
    this.pairDueRounds();
  }

  /**
   * The arbiter confirmed the result of `game` (as it was before): the director decides what the
   * board plays next (the mini-match's next game, or the match decided), and the next rounds open.
   */
  afterConfirmation(game: GameRow): void {
    let update;
    try {
      update = this.director.afterConfirmedResult(game.gameId, this.opts.clock.nowUtcMs());
    } catch (err) {
      if (!(err instanceof DirectorError)) throw err;
      return this.opts.log(err.message);
    }
    const where = `${game.event} round ${game.round} board ${game.board}`;
    if (update.type === 'next-game') {
      this.opts.log(`${where}: next game ${update.game.gameNo} (${update.game.kind}) in ${Math.round(update.breakRemainingMs / 60_000)} min`);
      if (update.game.clockId !== null) this.opts.syncClock(update.game.clockId);
    } else if (update.type === 'decided') {
      this.opts.log(`${where}: ${update.match.winner} wins the match (${update.match.decidedBy})`);
    }
    this.openCurrentRounds();
  }

  // ─── starting a round ────────────────────────────────────────────────────────────────

  /**
   * Starts a round: checks it against the tournament (the event and round exist, and it is
   * the round the event plays now), then starts each board's clock through the commands, which
   * journal every board's start (or refusal) with the arbiter.
   */
  async startRound(eventId: string, round: number, actor: Actor): Promise<RoundStartOutcome> {
    const event = this.hall.events.find((e) => e.id === eventId);
    if (!event) return { ok: false, status: 404, reason: `no event "${eventId}" in the tournament (events: ${this.hall.events.map((e) => e.id).join(', ')})` };
    if (!event.rounds.some((r) => r.number === round)) {
      return { ok: false, status: 404, reason: `event "${eventId}" has no round ${round} (rounds 1-${event.rounds.length})` };
    }
    // FIDE Laws 6.7.1: the session starts now (or started when the arbiter first started this
    // round, should some clocks have been offline then): every board's default time counts from it.
    const first = this.journal.gamesByRound(eventId, round).find((g) => g.gameNo === 1);
    const sessionUtcMs = (first && this.roundSessionUtcMs(first)) ?? this.opts.clock.nowUtcMs();
    return startRoundOnBoards(this.opts.state, this.opts.commands, eventId, round, actor, { currentRound: this.currentRound(event), sessionUtcMs });
  }

  /**
   * When the session of a game's round started (UTC), as journaled with the arbiter's first
   * applied start of that round, or null (not started yet, or a later game of a mini-match,
   * whose default time counts from its own start).
   */
  roundSessionUtcMs(game: GameRow): number | null {
    if (game.gameNo !== 1) return null;
    let earliest: number | null = null;
    for (const g of this.journal.gamesByRound(game.event, game.round)) {
      if (g.gameNo !== 1) continue;
      for (const a of this.journal.arbiterActions(g.gameId)) {
        if (a.action !== 'start' || a.outcome !== 'applied') continue;
        const at = (a.payload as { sessionUtcMs?: unknown } | null)?.sessionUtcMs;
        const utc = typeof at === 'number' && Number.isFinite(at) ? at : a.utcMs;
        if (earliest === null || utc < earliest) earliest = utc;
      }
    }
    return earliest;
  }

  /** The arbiter enters the colours drawn in the hall (Director.enterLot); 404 for no such match, 409 once drawn. */
  async enterLot(eventId: string, round: number, board: number, stage: LotStage, whiteRank: number, actor: Actor): Promise<LotOutcome> {
    const event = this.hall.events.find((e) => e.id === eventId);
    if (!event) return { ok: false, status: 404, reason: `no event "${eventId}" in the tournament (events: ${this.hall.events.map((e) => e.id).join(', ')})` };
    if (event.kind !== 'knockout' || !event.rounds.some((r) => r.number === round && r.knockout.some((k) => k.board === board))) {
      return { ok: false, status: 404, reason: `event "${eventId}" has no knockout mini-match in round ${round} on board ${board}` };
    }
    const now = this.opts.clock.nowUtcMs();
    try {
      const draw = this.director.enterLot(eventId, round, board, stage, whiteRank, actor.arbiter, now);
      return { ok: true, lot: { stage: draw.stage, white: draw.white, whiteRank: draw.whiteRank, source: draw.source, by: actor.arbiter, atUtcMs: now } };
    } catch (err) {
      if (err instanceof DirectorError) return { ok: false, status: 409, reason: err.message };
      throw err;
    }
  }

  // ─── the next round of a Swiss event (next-round.ts) ─────────────────────────────────

  /** Starts the pairing engine of every event whose round was just finished (once per round; Re-run runs it again). */
  private pairDueRounds(): void {
    if (!this.opts.pairing || this.stopped) return;
    for (const eventId of this.nextRounds.dueEngineRuns()) {
      this.opts.log(`${eventId}: the last round is confirmed; running the pairing engine`);
      this.opts.busy
        .track(this.nextRounds.runEngine(eventId, AUTO_PAIRING_ACTOR))
        .catch((err) => this.opts.log(`${eventId}: pairing engine: ${(err as Error).message}`));
    }
  }

  proposedRounds(): readonly RoundProposalView[] {
    return this.nextRounds.views();
  }

  waitingRounds(): readonly RoundWaitingView[] {
    return this.nextRounds.waiting();
  }

  async proposeRoundFromTrf(eventId: string, trf: string, actor: Actor, pairs?: string): Promise<RoundProposalOutcome> {
    return nextRoundOutcome(() => ({ ok: true as const, proposal: this.nextRounds.proposeFromTrf(eventId, trf, actor.arbiter, pairs) }));
  }

  async runPairingEngine(eventId: string, actor: Actor): Promise<RoundProposalOutcome> {
    let run: Promise<RoundProposalView>;
    try {
      run = this.opts.busy.track(this.nextRounds.runEngine(eventId, actor.arbiter, { rerun: true }));
    } catch (err) {
      return nextRoundOutcome(() => {
        throw err;
      });
    }
    return { ok: true, proposal: await run };
  }

  async approveRound(eventId: string, round: number, actor: Actor): Promise<RoundDecisionOutcome> {
    const outcome: RoundDecisionOutcome = nextRoundOutcome(() => {
      this.nextRounds.approve(eventId, round, actor.arbiter);
      const boards = this.opts.state
        .boards()
        .filter((b) => b.event === eventId && b.round === round)
        .map((b) => b.id);
      return { ok: true as const, event: eventId, round, boards };
    });
    // The new round's games go to the clocks at their tables, and its boards to the watchers.
    if (outcome.ok) {
      this.openCurrentRounds();
      this.opts.boardsOpened(outcome.boards);
    }
    return outcome;
  }

  async rejectRound(eventId: string, round: number, reason: string | null, actor: Actor): Promise<RoundDecisionOutcome> {
    return nextRoundOutcome(() => {
      this.nextRounds.reject(eventId, round, actor.arbiter, reason);
      return { ok: true as const, event: eventId, round, boards: [] };
    });
  }
}

/** A next-round refusal (NextRoundError) as the outcome the API answers; anything else is a fault. */
function nextRoundOutcome<T extends { ok: true }>(body: () => T): T | { ok: false; status: 404 | 409 | 422 | 501; reason: string } {
  try {
    return body();
  } catch (err) {
    if (err instanceof NextRoundError) return { ok: false, status: err.status, reason: err.message };
    if (err instanceof DirectorError) return { ok: false, status: 409, reason: err.message };
    throw err;
  }
}

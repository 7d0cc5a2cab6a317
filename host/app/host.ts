// The host: the clocks of a hall, tied to the journal, the tournament and the network side.
//
//   clock ─line─► ClockFleet (one session per clock) ─► GroupCommit ─► journal (durable) ─► ack to the clock
//                                                                    └► JournalPorts feed (WebSocket, MQTT outbox)
//   arbiter ─API─► Host.execute ─► JournalPorts (journaled with who) ─► ClockFleet: Command/Configure (ack or Nack)
//                              └─ confirm-result ─► HallRounds: the director ─► next game configured on the clock
//
// A facade over the parts, each a module of its own:
// - `state` (journal-ports.ts): the network side's HostState over the journal; every board view
//   it shows is built by board-views.ts, with whether the clock is connected (the fleet);
// - the clock fleet (clock-fleet.ts): lines, sessions, online/offline, clocks brought to their games;
// - the group commit (group-commit.ts): a turn's clock events in one journal batch;
// - the rounds (hall-rounds.ts): opening rounds, the director, the next round of a Swiss event.
// `Host` itself is the CommandSink and NextRoundSink the API writes through. host/start-host.ts
// composes it with the adapters: `buildApi({ state: host.state, commands: host, nextRounds: host,
// exports: journalExports(journal, hall, now), tokens })` serves the real hall.
//
// Everything the host knows lives in the journal; the in-memory parts (sessions, which game
// a clock was last configured for) are rebuilt when a host restarts on the same file.
import type { BodyInit } from '../../protocol/session-api.ts';
import { JournalPorts } from './journal-ports.ts';
import { Busy } from './busy.ts';
import { ClockFleet } from './clock-fleet.ts';
import { IdentityChoiceError, type IdentityChoice } from './identity-claims.ts';
import { GroupCommit } from './group-commit.ts';
import { HallRounds } from './hall-rounds.ts';
import { Director } from './director.ts';
import type { NextRoundPairing } from './next-round.ts';
import { Entries, EntryError } from './entries.ts';
import type {
  Actor,
  ArbiterCommand,
  ClockIdentityOutcome,
  ClockIdentitySink,
  CommandOutcome,
  CommandSink,
  EntriesView,
  EntryCommand,
  EntryOutcome,
  EntrySink,
  LinkFigures,
  LotOutcome,
  LotStage,
  NextRoundSink,
  RoundDecisionOutcome,
  RoundProposalOutcome,
  RoundProposalView,
  RoundWaitingView,
  RoundStartOutcome,
} from './ports.ts';
import type { Journal } from '../store/journal.ts';
import type { GameRow } from '../store/types.ts';
import type { Hall, TournamentEvent } from '../domain/model.ts';
import type { BackoffOptions } from '../clocks/session.machine.ts';
import type { ClockSession, Line, LinkTuning } from '../clocks/clock-session.ts';
import type { HostClock } from './utc.ts';

export interface HostOptions {
  readonly journal: Journal;
  readonly hall: Hall;
  readonly clock: HostClock;
  /** Hall tables by clock serial id (ports file `serial` entries). */
  readonly tablesBySerial?: ReadonlyMap<string, number>;
  readonly link?: LinkTuning;
  readonly backoff?: BackoffOptions;
  readonly configureTimeoutMs?: number;
  /** One line per notable happening (clock online/offline, configure refused, ...). */
  readonly log?: (line: string) => void;
  /**
   * How clock events are journaled (docs/host.md "What is journaled, and when"): 'turn' (default) gathers the events that arrive
   * in one event-loop turn, from every clock, into one transaction — one fsync for all, each
   * acknowledged after that commit; 'event' commits each alone (the benchmark's baseline).
   */
  readonly groupCommit?: 'turn' | 'event';
  /**
   * Runs a Swiss event's pairing engine and reads a pairing program's TRF (host/adapters/exports/next-round.ts,
   * wired by host/start-host.ts); absent: the next round cannot be paired in the running host (501).
   */
  readonly pairing?: NextRoundPairing;
}

export class Host implements CommandSink, NextRoundSink, ClockIdentitySink, EntrySink {
  readonly journal: Journal;
  readonly hall: Hall;
  readonly director: Director;
  /** What the network side reads (HostState) over the journal, with every board's one view. */
  readonly state: JournalPorts;
  /** The clock lines and the clocks on them. */
  readonly fleet: ClockFleet;
  private readonly rounds: HallRounds;
  /** The arbiter's entries: late entries, withdrawals, requested byes, rounds' start times (entries.ts). */
  private readonly entryBook: Entries;
  private readonly commit: GroupCommit;
  private readonly busy = new Busy();
  private readonly opts: HostOptions;
  private readonly stopStorageReports: () => void;

  constructor(opts: HostOptions) {
    this.opts = opts;
    this.journal = opts.journal;
    this.hall = opts.hall;
    const { journal, hall, clock } = opts;
    const log = (line: string) => this.log(line);
    this.director = new Director(journal, hall);
    this.state = new JournalPorts({
      journal,
      hall,
      nowUtcMs: () => clock.nowUtcMs(),
      commander: (command, game) => this.fleet.command(command, game),
      director: this.director,
      clocks: { presence: (clockId) => this.fleet.presence(clockId) },
      log,
    });
    const views = this.state.views;
    this.commit = new GroupCommit({
      journal,
      ports: this.state,
      clock,
      busy: this.busy,
      mode: opts.groupCommit,
      boardsChanged: (id) => views.clockChanged(id),
      log,
    });
    this.fleet = new ClockFleet({
      journal,
      hall,
      clock,
      busy: this.busy,
      tablesBySerial: opts.tablesBySerial,
      link: opts.link,
      backoff: opts.backoff,
      configureTimeoutMs: opts.configureTimeoutMs,
      message: (s, m) => this.commit.message(s, m),
      journalAll: () => this.commit.journalAll(),
      boardsChanged: (id) => views.clockChanged(id),
      restored: (gameId, note, clockId) => views.restored(gameId, note, clockId),
      log,
    });
    this.rounds = new HallRounds({
      journal,
      hall,
      clock,
      director: this.director,
      busy: this.busy,
      state: this.state,
      commands: this,
      pairing: opts.pairing ?? null,
      syncClocks: () => this.fleet.syncAll(),
      syncClock: (clockId) => this.fleet.syncClockOf(clockId),
      boardsOpened: (ids) => this.state.boardsChanged(ids),
      log,
    });
    this.entryBook = new Entries({
      journal,
      hall,
      pendingProposal: (eventId, round) => this.rounds.nextRounds.pendingProposal(eventId, round),
      nowUtcMs: () => clock.nowUtcMs(),
      log,
    });
    // A storage fault is reported, not fatal (docs/reliability.md): said once when it begins
    // and once when it clears; /api/health and the dashboard show it meanwhile.
    this.stopStorageReports = journal.storage.onChange((h) =>
      this.log(
        h.ok
          ? `journal writes again: the storage fault cleared (${h.cleared?.failedWrites ?? 0} writes refused meanwhile)`
          : `journal storage fault: ${h.reason}`,
      ),
    );
  }

  /** The next round of a Swiss event: proposed (engine or TRF), opened when an arbiter approves it. */
  get nextRounds(): HallRounds['nextRounds'] {
    return this.rounds.nextRounds;
  }

  // ─── the host's life ────────────────────────────────────────────────────────────────

  /** Opens the current round of every event (idempotent: a restarted host finds its games). */
  start(): this {
    this.rounds.openCurrentRounds();
    return this;
  }

  /** Resolves when every configure, journal batch and pairing run the host started on its own has finished. */
  async idle(): Promise<void> {
    await this.busy.idle();
  }

  async close(): Promise<void> {
    this.rounds.stop(); // a pairing engine under way is killed; its round stays due for the next start
    this.state.views.close();
    // What arrived is journaled (and acknowledged) before the lines close; what is refused the
    // clocks resend to the next host.
    await this.commit.journalAll();
    this.stopStorageReports();
    await this.fleet.close();
    await this.idle();
  }

  // ─── lines (the clock fleet) ────────────────────────────────────────────────────────

  /** Adds a line to a clock (ClockFleet.addLine): `table` places whatever clock greets on it. */
  addLine(key: string, open: () => Promise<Line>, placement: { table?: number } = {}): ClockSession {
    return this.fleet.addLine(key, open, placement);
  }

  /** Stops a line's session (its port vanished for good). */
  removeLine(key: string): Promise<void> {
    return this.fleet.removeLine(key);
  }

  lines(): ClockSession[] {
    return this.fleet.lines();
  }

  /** Each line's health for GET /metrics (docs/reliability.md "Link health"). */
  lineFigures(): { key: string; clockId: string | null; online: boolean; link: LinkFigures }[] {
    return this.fleet.lineFigures();
  }

  /** The session of a clock (by serial id), if any line carries it. */
  sessionOf(clockId: string): ClockSession | undefined {
    return this.fleet.sessionOf(clockId);
  }

  /** Places a clock by its serial id (ports file `serial` entry). */
  placeClock(serialId: string, table: number): void {
    this.fleet.placeClock(serialId, table);
  }

  /** The Configure for a game: its labels, players, control and default time. */
  configureBody(game: GameRow): BodyInit {
    return this.fleet.configureBody(game);
  }

  // ─── CommandSink ────────────────────────────────────────────────────────────────────

  async execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome> {
    const views = this.state.views;
    if (command.type === 'start' && command.sessionUtcMs === undefined) {
      // FIDE Laws 6.7.1: a board started after its round began counts the default time from the round's start.
      const game = views.gameOf(command.boardId);
      const session = game ? this.rounds.roundSessionUtcMs(game) : null;
      if (session !== null) command = { ...command, sessionUtcMs: session };
    }
    const before = command.type === 'confirm-result' ? (views.gameOf(command.boardId) ?? null) : null;
    const outcome = await this.state.execute(command, actor);
    // FIDE Laws 5.1 / 5.2: the result ends the game at the board too; a correction, or a
    // confirmation that adopted a clock's other result, changes what the clock shows.
    if (outcome.ok && command.type === 'result') {
      const game = views.gameOf(command.boardId);
      if (game) await this.fleet.showResult(game, command.result);
    }
    if (outcome.ok && before !== null) {
      const confirmed = this.journal.getGame(before.gameId);
      if (confirmed?.result && confirmed.result !== before.result) await this.fleet.showResult(confirmed, confirmed.result);
    }
    if (!outcome.ok || before === null) return outcome;
    // The arbiter confirmed: the director decides what the board plays next.
    this.rounds.afterConfirmation(before);
    return { ok: true, board: this.state.board(command.boardId) };
  }

  // ─── clock identity (identity-claims.ts) ────────────────────────────────────────────

  /** ClockIdentitySink: the arbiter keeps the online clock or takes the newcomer; journaled either way. */
  decideClockIdentity(clockId: string, line: string, keep: IdentityChoice, actor: Actor): ClockIdentityOutcome {
    const action = { utcMs: this.opts.clock.nowUtcMs(), arbiter: actor.arbiter, action: 'clock-identity', clockId };
    try {
      const claim = this.fleet.decideIdentity(clockId, line, keep);
      this.journal.recordArbiterAction({ ...action, payload: { keep, line, onlineLine: claim.onlineLine }, outcome: 'applied' });
      return { ok: true, claim };
    } catch (err) {
      if (!(err instanceof IdentityChoiceError)) throw err;
      this.journal.recordArbiterAction({ ...action, payload: { keep, line }, outcome: 'rejected', reason: err.message });
      return { ok: false, status: 409, reason: err.message };
    }
  }

  // ─── rounds (hall-rounds.ts) ────────────────────────────────────────────────────────

  /** The round each event plays now: the first one not finished. */
  currentRound(event: TournamentEvent): number | null {
    return this.rounds.currentRound(event);
  }

  /** When the session of a game's round started (UTC), or null (HallRounds.roundSessionUtcMs). */
  roundSessionUtcMs(game: GameRow): number | null {
    return this.rounds.roundSessionUtcMs(game);
  }

  startRound(eventId: string, round: number, actor: Actor): Promise<RoundStartOutcome> {
    return this.rounds.startRound(eventId, round, actor);
  }

  enterLot(eventId: string, round: number, board: number, stage: LotStage, whiteRank: number, actor: Actor): Promise<LotOutcome> {
    return this.rounds.enterLot(eventId, round, board, stage, whiteRank, actor);
  }

  proposedRounds(): readonly RoundProposalView[] {
    return this.rounds.proposedRounds();
  }

  waitingRounds(): readonly RoundWaitingView[] {
    return this.rounds.waitingRounds();
  }

  proposeRoundFromTrf(eventId: string, trf: string, actor: Actor, pairs?: string): Promise<RoundProposalOutcome> {
    return this.rounds.proposeRoundFromTrf(eventId, trf, actor, pairs);
  }

  runPairingEngine(eventId: string, actor: Actor): Promise<RoundProposalOutcome> {
    return this.rounds.runPairingEngine(eventId, actor);
  }

  approveRound(eventId: string, round: number, actor: Actor): Promise<RoundDecisionOutcome> {
    return this.rounds.approveRound(eventId, round, actor);
  }

  rejectRound(eventId: string, round: number, reason: string | null, actor: Actor): Promise<RoundDecisionOutcome> {
    return this.rounds.rejectRound(eventId, round, reason, actor);
  }

  // ─── entries (entries.ts) ───────────────────────────────────────────────────────────

  entries(eventId: string): EntryOutcome {
    return entryOutcome(() => this.entryBook.view(eventId));
  }

  async enterEntry(eventId: string, command: EntryCommand, actor: Actor): Promise<EntryOutcome> {
    return entryOutcome(() => this.entryBook.enter(eventId, command, actor.arbiter));
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }
}

/** An entry's refusal (EntryError) as the outcome the API answers; anything else is a fault. */
function entryOutcome(body: () => EntriesView): EntryOutcome {
  try {
    return { ok: true, entries: body() };
  } catch (err) {
    if (err instanceof EntryError) return { ok: false, status: err.status, reason: err.message };
    throw err;
  }
}

// The host: the clocks of a hall, tied to the journal, the tournament and the network side.
//
//   clock ─line─► ClockSession (one actor per clock) ─► journal (durable) ─► ack to the clock
//                                                     └► live feed (WebSocket, MQTT outbox)
//   arbiter ─API─► Host.execute ─► Command/Configure to the clock (ack or Nack) ─► journal
//                              └─ confirm-result ─► Director ─► next game configured on the clock
//
// `Host` implements the network side's ports (host/app/ports.ts): HostState and
// CommandSink (through JournalPorts, which journals every arbiter write with who did it).
// host/start-host.ts composes it with the adapters: `buildApi({ state: host, commands: host,
// exports: journalExports(journal, hall, now), tokens })` serves the real hall.
//
// Everything the host knows lives in the journal; the in-memory parts (sessions, which game
// a clock was last configured for) are rebuilt when a host restarts on the same file.
import { forfeitResultFor, isGameResult, RESULT_MEANING } from '../../rules/vocabulary.ts';
import { RESULT_TO_WIRE, SIDE_TO_WIRE } from '../../rules/clock-snapshot-wire.ts';
import { Command_Kind, GameResult as WireResult } from '../../protocol/gen/chessclock_pb.ts';
import type { BodyInit, Link, ReceivedMessage } from '../../protocol/session-api.ts';
import { timeControlToProto, timeControlToWire } from '../../protocol/time-control-codec.ts';
import type { Side } from '../../protocol/time-control.ts';
import { boardIdOf, JournalPorts } from './journal-ports.ts';
import { journalStandings } from './journal-standings.ts';
import type {
  BreakView,
  Actor,
  ArbiterCommand,
  BoardGameJournal,
  BoardView,
  ClockEventRecord,
  CommandOutcome,
  CommandSink,
  EventPage,
  EventQuery,
  JournalRange,
  JournalRangeQuery,
  HostState,
  LotOutcome,
  LotStage,
  MatchView,
  ResultView,
  RoundStartOutcome,
  StandingsView,
  HostHealth,
  LinkFigures,
} from './ports.ts';
import { startRoundOnBoards } from './round-start.ts';
import { AUTO_PAIRING_ACTOR, NextRoundError, NextRounds, type NextRoundPairing } from './next-round.ts';
import type { NextRoundSink, RoundDecisionOutcome, RoundProposalOutcome, RoundProposalView } from './ports.ts';
import { Director, DirectorError } from './director.ts';
import type { AppendResult, ClockEventInput, GameRow, Journal } from '../store/journal.ts';
import { findEvent, type Hall, type TournamentEvent } from '../domain/model.ts';
import type { BackoffOptions } from '../clocks/session.machine.ts';
import { ClockOfflineError, ClockRefusedError, ClockSession, type Line, type LinkTuning } from '../clocks/clock-session.ts';
import { clockInstantToUtc, journalInput } from '../clocks/clock-event.ts';
import { bringClockToJournal, lastRestoreNote, RESTORE_MINOR, type RestoreNote } from '../clocks/restore-clock.ts';
import { eventBoardAt, tableOf } from '../domain/tables.ts';
import type { HostClock } from './utc.ts';
import { storageFaultReason } from './storage-fault.ts';

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
   * How clock events are journaled (issue 16): 'turn' (default) gathers the events that arrive
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

/** Who the host signs its own journaled actions with (configuring a clock for the next game). */
export const HOST_ACTOR = 'host';

const WIRE_SIDE = SIDE_TO_WIRE;

/** A clock event received and not yet journaled. */
interface Unjournaled {
  readonly session: ClockSession;
  readonly link: Link | null;
  readonly message: ReceivedMessage;
  readonly input: ClockEventInput;
  /** Journaled (and acknowledged) or refused: nothing more is done with it. */
  settled?: boolean;
}

/**
 * The protocol minor a clock must speak for each arbiter command that came with a later minor:
 * the host refuses such a command itself, saying why, rather than sending what the clock's
 * firmware cannot read (it would refuse it with Nack INVALID anyway: docs/protocol.md, "Versions").
 */
const COMMAND_MINOR: Partial<Record<ArbiterCommand['type'], { minor: number; what: string }>> = {
  arrive: { minor: 1, what: 'marking an arrival' },
  takeback: { minor: 1, what: 'take-back' },
  reinstate: { minor: 1, what: 'reinstating a forfeit' },
  increment: { minor: 1, what: 'the quickplay increment' },
  'set-turn': { minor: 4, what: 'setting the side on move' },
  'set-control': { minor: 4, what: 'correcting the time control' },
  delay: { minor: 4, what: 'the quickplay delay' },
};

/** The protocol minor `command` needs, with what to call it: a take-back keeping the times (FIDE Laws 7.1) came with 1.4. */
function minorNeeded(command: ArbiterCommand): { minor: number; what: string } | undefined {
  if (command.type === 'takeback' && command.times === 'keep') return { minor: 4, what: 'a take-back keeping the clock times' };
  return COMMAND_MINOR[command.type];
}

/** Since protocol 1.4 a clock holds the double forfeit as its result (GameResult DOUBLE_FORFEIT). */
const DOUBLE_FORFEIT_MINOR = 4;

/** Session start elapsed on the wire: a uint32 of ms. */
const MAX_SESSION_ELAPSED_MS = 0xffffffff;

/** Results a clock can show (a forfeit has no clock form). */
const WIRE_RESULT: Readonly<Record<string, WireResult>> = RESULT_TO_WIRE;

/** A knockout board between two games: the countdown the dashboard shows. */
export class Host implements HostState, CommandSink, NextRoundSink {
  readonly journal: Journal;
  readonly hall: Hall;
  readonly director: Director;
  /** The next round of a Swiss event: proposed (engine or TRF), opened when an arbiter approves it. */
  readonly nextRounds: NextRounds;
  /** The journal-backed HostState/CommandSink; the host adds the clocks behind it. */
  readonly state: JournalPorts;
  private readonly clock: HostClock;
  private readonly opts: HostOptions;
  private readonly sessions = new Map<string, ClockSession>();
  private readonly tablesByLine = new Map<string, number>();
  private readonly tablesBySerial: Map<string, number>;
  /** Game last configured on each clock, per link (a new link configures again if still due). */
  private readonly configured = new WeakMap<object, number>();
  /** The boot of each clock this host brought to its game (configured or restored): a line that comes back needs nothing. */
  private readonly inStep = new Map<string, { bootId: number; gameId: number }>();
  /** The last restore of each game, for the board's card (loaded from the journal when first asked). */
  private readonly restoreNotes = new Map<number, RestoreNote | null>();
  private readonly busy = new Set<Promise<unknown>>();
  private closed = false;

  constructor(opts: HostOptions) {
    this.opts = opts;
    this.journal = opts.journal;
    this.hall = opts.hall;
    this.clock = opts.clock;
    this.tablesBySerial = new Map(opts.tablesBySerial ?? []);
    this.director = new Director(opts.journal, opts.hall);
    this.nextRounds = new NextRounds({
      journal: opts.journal,
      hall: opts.hall,
      pairing: opts.pairing ?? null,
      openRound: (eventId, round, now) => void this.director.openRound(eventId, round, now),
      nowUtcMs: () => this.clock.nowUtcMs(),
      log: (line) => this.log(line),
    });
    this.state = new JournalPorts({
      journal: opts.journal,
      hall: opts.hall,
      nowUtcMs: () => this.clock.nowUtcMs(),
      commander: (command, game) => this.commandClock(command, game),
    });
    // A storage fault is reported, not fatal (docs/reliability.md): said once when it begins
    // and once when it clears; /api/health and the dashboard show it meanwhile.
    this.stopStorageReports = opts.journal.storage.onChange((h) =>
      this.log(h.ok ? `journal writes again: the storage fault cleared (${h.cleared?.failedWrites ?? 0} writes refused meanwhile)` : `journal storage fault: ${h.reason}`),
    );
  }

  private readonly stopStorageReports: () => void;

  /** Whether the host can do its work: the journal's storage (docs/api.md, GET /api/health). */
  health(): HostHealth {
    const journal = this.journal.storage.current;
    return { ok: journal.ok, journal };
  }

  // ─── lines and rounds ───────────────────────────────────────────────────────────────

  /** Opens the current round of every event (idempotent: a restarted host finds its games). */
  start(): this {
    this.openCurrentRounds();
    return this;
  }

  /**
   * Adds a line to a clock (serial port path, pty, in-memory end): one session actor for it.
   * `table` places whatever clock greets on this line.
   */
  addLine(key: string, open: () => Promise<Line>, placement: { table?: number } = {}): ClockSession {
    if (this.closed) throw new Error('host is closed');
    if (this.sessions.has(key)) throw new Error(`line ${key} is already open`);
    if (placement.table !== undefined) this.tablesByLine.set(key, placement.table);
    const session = new ClockSession({
      key,
      open,
      time: this.clock,
      link: this.opts.link,
      backoff: this.opts.backoff,
      configureTimeoutMs: this.opts.configureTimeoutMs,
      handler: {
        online: (s) => this.online(s),
        offline: (s, reason) => {
          this.log(`clock ${s.clockId ?? '?'} on ${s.key} offline: ${reason}`);
          if (s.clockId !== null) this.clockBoardsChanged(s.clockId);
        },
        message: (s, m) => this.message(s, m),
        flush: () => this.journalAll(),
      },
    });
    this.sessions.set(key, session);
    session.start();
    return session;
  }

  /** Stops a line's session (its port vanished for good). */
  async removeLine(key: string): Promise<void> {
    const s = this.sessions.get(key);
    this.sessions.delete(key);
    await s?.stop();
  }

  lines(): ClockSession[] {
    return [...this.sessions.values()];
  }

  /** Each line's health for GET /metrics (docs/reliability.md "Link health"). */
  lineFigures(): { key: string; clockId: string | null; online: boolean; link: LinkFigures }[] {
    return this.lines().map((s) => ({ key: s.key, clockId: s.clockId, online: s.online, link: s.linkFigures() }));
  }

  /** The session of a clock (by serial id), if any line carries it. */
  sessionOf(clockId: string): ClockSession | undefined {
    let found: ClockSession | undefined;
    for (const s of this.sessions.values()) if (s.clockId === clockId && (!found || s.online)) found = s;
    return found;
  }

  /** Places a clock by its serial id (ports file `serial` entry). */
  placeClock(serialId: string, table: number): void {
    this.tablesBySerial.set(serialId, table);
    const s = this.sessionOf(serialId);
    if (s?.online) this.syncClock(s);
  }

  /** Resolves when every configure the host started on its own has finished. */
  async idle(): Promise<void> {
    while (this.busy.size) await Promise.allSettled([...this.busy]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.nextRounds.stop(); // a pairing engine under way is killed; its round stays due for the next start
    // What arrived is journaled (and acknowledged) before the lines close; what is refused the
    // clocks resend to the next host.
    await this.journalAll();
    this.stopStorageReports();
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
    this.sessions.clear();
    await this.idle();
  }

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

  private openCurrentRounds(): void {
    const now = this.clock.nowUtcMs();
    for (const event of this.hall.events) {
      const round = this.currentRound(event);
      if (round === null) continue;
      if (this.journal.gamesByRound(event.id, round).length === 0) this.log(`opening ${event.id} round ${round}`);
      try {
        this.director.openRound(event.id, round, now);
      } catch (err) {
        // A round the director cannot pair yet (e.g. a knockout final whose semifinal is not
        // decided) stays closed and says why; the other events and the clocks carry on.
        if (!(err instanceof DirectorError)) throw err;
        this.log(`${event.id} round ${round} not opened: ${err.message}`);
      }
    }
    for (const s of this.sessions.values()) if (s.online) this.syncClock(s);
    this.pairDueRounds();
  }

  // ─── clocks ─────────────────────────────────────────────────────────────────────────

  private readonly boardWatchers = new Set<(board: BoardView) => void>();
  private readonly clocksChanged = new Set<string>();

  /** HostState.watchBoards: boards whose view changed with no feed event saying so. */
  watchBoards(listener: (board: BoardView) => void): () => void {
    this.boardWatchers.add(listener);
    return () => this.boardWatchers.delete(listener);
  }

  /**
   * The view of the boards of `clockId` changed with no feed event saying so: its line came up or
   * went down (`clockOnline`), or the result it reported was filed after its event went out.
   * Told once per batch (a hall's clocks connect together at the start), after the change settled.
   */
  private clockBoardsChanged(clockId: string): void {
    if (this.boardWatchers.size === 0) return;
    const first = this.clocksChanged.size === 0;
    this.clocksChanged.add(clockId);
    if (!first) return;
    setTimeout(() => {
      const changed = new Set(this.clocksChanged);
      this.clocksChanged.clear();
      if (this.closed || this.boardWatchers.size === 0) return;
      // The boards of the changed clocks only (the boards their two newest games are on), not the
      // whole hall's views: once per clock as a hall connects, that made connecting N clocks O(N²).
      const views: BoardView[] = [];
      try {
        const seen = new Set<string>();
        for (const clockId of changed) {
          for (const game of this.journal.newestGamesOfClock(clockId)) {
            const id = boardIdOf(game.event, game.board);
            if (seen.has(id)) continue;
            seen.add(id);
            const view = this.board(id);
            if (view && view.clockId === clockId) views.push(view);
          }
        }
      } catch (err) {
        // Only a notice to the dashboard: the next event or a reload shows the board all the same.
        return this.log(`could not tell the dashboard that clock(s) ${[...changed].join(', ')} changed: ${(err as Error).message}`);
      }
      for (const view of views) for (const listener of this.boardWatchers) listener(view);
    }, 0);
  }

  private online(s: ClockSession): void {
    const hello = s.hello!;
    this.clockBoardsChanged(hello.serialId);
    this.log(`clock ${hello.serialId} online on ${s.key} (firmware ${hello.firmwareVersion}, connection ${s.connections})`);
    try {
      this.journal.seenClock({ clockId: hello.serialId, bootId: hello.bootId.toString(16).padStart(8, '0'), firmware: hello.firmwareVersion, utcMs: this.clock.nowUtcMs() });
    } catch (err) {
      // Only a note of who was seen when: the clock is served all the same. A storage fault is
      // told once by the journal's own line, not at every greeting (docs/reliability.md, "Disk full").
      if (storageFaultReason(err) === null) this.log(`clock ${hello.serialId}: could not note it as seen: ${(err as Error).message}`);
    }
    try {
      this.syncClock(s);
    } catch (err) {
      // The clock could not be brought to its game (the journal refused a write): the line is
      // dropped, so the clock greets again after the backoff and the host tries again then.
      this.log(`clock ${hello.serialId} on ${s.key}: could not bring it to its game: ${(err as Error).message}; trying again after the reconnect`);
      s.link?.close(`the host could not bring the clock to its game: ${(err as Error).message}`);
    }
  }

  /** The game the clock at this session should show: its table's current game, or the one it is assigned to. */
  private gameFor(s: ClockSession): GameRow | null {
    const clockId = s.clockId!;
    const table = tableOf({ byLine: this.tablesByLine, bySerial: this.tablesBySerial }, s.key, clockId);
    if (table === null) return this.journal.currentGameForClock(clockId);
    // One board's lookup per clock: a whole-event query here made connecting N clocks O(N²).
    for (const { event, board } of eventBoardAt(this.hall, table)) {
      const game = this.journal.currentGameOfBoard(event.id, board);
      if (game) return game;
    }
    return null;
  }

  /**
   * Assigns the clock to its board's current game, and brings it to that game: configures it
   * for a game that has not begun, or restores a game under way from the journal
   * (host/clocks/restore-clock.ts) unless this host already brought this very boot of the
   * clock to it (a line that came back: the clock kept the game and its outbox delivers
   * what the host missed).
   */
  private syncClock(s: ClockSession): void {
    if (!s.online || s.clockId === null) return;
    const game = this.gameFor(s);
    if (!game) return;
    const link = s.link!;
    if (game.result !== null) {
      // A result recorded while the clock was away: the clock is told once it is back, so it
      // stops and shows it (a game with a result is over everywhere: docs/api.md).
      if (game.clockId === s.clockId && this.configured.get(link) !== game.gameId && this.journal.gameStarted(game.gameId)) {
        this.configured.set(link, game.gameId);
        this.track(this.showResultOnClock(game, game.result));
      }
      return;
    }
    if (game.clockId !== s.clockId) this.journal.assignClock(game.gameId, s.clockId);
    if (this.configured.get(link) === game.gameId) return;
    const boot = s.hello!.bootId;
    if (this.journal.eventsByGame(game.gameId).length > 0) {
      const step = this.inStep.get(s.clockId);
      if (step && step.bootId === boot && step.gameId === game.gameId) return;
      return this.restoreClock(s, game, link);
    }
    // A game not begun is set up again on every new link: harmless, and the clock may have
    // been set up by hand meanwhile (the journal's game is the one it must show).
    this.configured.set(link, game.gameId);
    this.track(
      this.configureClock(s, this.journal.getGame(game.gameId)!, HOST_ACTOR)
        .then(() => this.inStep.set(s.clockId!, { bootId: boot, gameId: game.gameId }))
        .catch((err) => {
          if (this.configured.get(link) === game.gameId) this.configured.delete(link);
          this.log(`configure of game ${game.gameId} on clock ${s.clockId}: ${(err as Error).message}`);
        }),
    );
  }

  /** A game under way on a clock this host has not brought to it: the journal's state goes to the clock. */
  private restoreClock(s: ClockSession, game: GameRow, link: object): void {
    const clockId = s.clockId!;
    const speaks = s.hello?.protocolMinor ?? 0;
    if (speaks < RESTORE_MINOR) {
      // An older firmware cannot be restored: the arbiter sets it by hand (Laws 6.10.1).
      this.configured.set(link, game.gameId);
      return this.log(`clock ${clockId} speaks protocol 1.${speaks}: game ${game.gameId} is under way, but restoring it from the journal needs 1.${RESTORE_MINOR} (update the firmware, or set the clock by hand)`);
    }
    this.configured.set(link, game.gameId);
    const boot = s.hello!.bootId;
    this.track(
      bringClockToJournal(s, game, {
        journal: this.journal,
        nowUtcMs: () => this.clock.nowUtcMs(),
        configure: (session, g) => this.configureClock(session, this.journal.getGame(g.gameId)!, HOST_ACTOR),
        actor: HOST_ACTOR,
        log: (line) => this.log(line),
      })
        .then(async (note) => {
          // The events the restore made the clock send (paused, …) are journaled before the board shows the restore.
          await this.journalAll();
          // A clock left as it was (too old for the game's corrections) is not the journal's game: no time command goes to it.
          if (note.outcome === 'restored' || note.outcome === 'in-step') this.inStep.set(clockId, { bootId: boot, gameId: game.gameId });
          this.restoreNotes.set(game.gameId, note);
        })
        .catch((err) => {
          if (this.configured.get(link) === game.gameId) this.configured.delete(link);
          this.restoreNotes.delete(game.gameId);
          this.log(`restore of game ${game.gameId} on clock ${clockId}: ${(err as Error).message}`);
        }),
    );
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.busy.add(p);
    void p.finally(() => this.busy.delete(p)).catch(() => undefined);
    return p;
  }

  /** The Configure for a game: its labels, players, control and default time. */
  configureBody(game: GameRow, override: { timeControl?: GameRow['timeControlValue']; white?: string; black?: string } = {}): BodyInit {
    const event = this.hall.events.find((e) => e.id === game.event);
    const cut = (s: string) => s.slice(0, 128); // wire text fields: at most 128 characters
    return {
      case: 'configure',
      value: {
        gameId: String(game.gameId),
        event: cut(event?.name ?? game.event),
        round: game.matchId !== null ? `${game.round}.${game.gameNo}` : String(game.round),
        board: String(game.board),
        whitePlayer: cut(override.white ?? game.white),
        blackPlayer: cut(override.black ?? game.black),
        ...timeControlToProto(override.timeControl ?? game.timeControlValue),
      },
    } as BodyInit;
  }

  private async configureClock(s: ClockSession, game: GameRow, by: string): Promise<void> {
    const where = { gameId: game.gameId, clockId: s.clockId, event: game.event, round: game.round, board: game.board };
    try {
      await s.request(this.configureBody(game));
    } catch (err) {
      this.journal.recordArbiterAction({ utcMs: this.clock.nowUtcMs(), arbiter: by, action: 'configure-clock', ...where, payload: { timeControl: game.timeControl }, outcome: 'rejected', reason: (err as Error).message });
      throw err;
    }
    this.journal.recordArbiterAction({ utcMs: this.clock.nowUtcMs(), arbiter: by, action: 'configure-clock', ...where, payload: { timeControl: game.timeControl, white: game.white, black: game.black }, outcome: 'applied' });
    this.log(`clock ${s.clockId} configured for ${game.event} round ${game.round} board ${game.board} game ${game.gameNo} (${game.timeControl})`);
  }

  /**
   * A message from a clock, synchronously (see clock-session.ts on "ack after durable"):
   * journal it first, act on it after. A throw here leaves it unacknowledged.
   */
  private message(s: ClockSession, m: ReceivedMessage): void {
    if (m.body.case !== 'clockEvent') {
      m.handled(); // status heartbeats and the like: not journaled
      return;
    }
    const clockId = s.clockId;
    if (clockId === null) throw new Error('a clock event before the clock greeted');
    const at = clockInstantToUtc(s.estimatorFor(m.bootId), m.body.value.atMs, this.clock.utcReference(), m.arrivedAtMs);
    const input = journalInput(clockId, m.bootId, m.seq, m.body.value, at);
    this.unjournaled.push({ session: s, link: s.link, message: m, input });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushJournal());
    }
  }

  /** Clock events received and not yet sent to the journal (group commit: issue 16), in arrival order. */
  private unjournaled: Unjournaled[] = [];
  private flushScheduled = false;

  /**
   * Hands every gathered clock event to the journal as one batch — one transaction, one fsync,
   * committed on the journal's writer thread (docs/host.md "The journal's writer thread") — and
   * acknowledges each (`handled()`: its ack may leave now) only once the batch is durable. One
   * batch at a time: what arrives meanwhile waits for the next, which leaves when this one is
   * settled, so the journal keeps arrival order and a clock's events their order.
   *
   * An event the journal refuses for its content is not acknowledged and its clock's line is
   * closed, with that clock's later events of the batch (they must not overtake it); if the
   * commit fails (a full disk), no event of the batch is acknowledged and each clock's line is
   * closed: the clocks resend them. With `groupCommit: 'event'` each batch is one event.
   */
  private flushJournal(): void {
    this.flushScheduled = false;
    if (this.journal.writing || this.unjournaled.length === 0) return;
    // After a refusal, what a closed link delivered before it closed is not journaled either.
    const queued = this.unjournaled.filter((b) => {
      const live = b.link !== null && b.link.state !== 'closed' && b.session.link === b.link;
      if (!live) b.settled = true;
      return live;
    });
    const take = this.opts.groupCommit === 'event' ? 1 : queued.length;
    const batch = queued.slice(0, take);
    this.unjournaled = queued.slice(take);
    if (batch.length === 0) return;
    let written;
    try {
      written = this.state.appendInBackground(batch.map((b) => ({ event: b.input, group: b.session })));
    } catch (err) {
      for (const b of batch) this.refuse(b, err);
      return this.flushJournal();
    }
    this.writingNow = batch;
    const { results, durable, feed } = written;
    const accepted: Array<[Unjournaled, AppendResult]> = [];
    for (const [i, b] of batch.entries()) {
      const r = results[i];
      if (r instanceof Error) this.refuse(b, r);
      else accepted.push([b, r]);
    }
    const pending = durable
      .then(
        () => {
          // Durable: every ack may leave now; the next batch goes to the writer (it commits
          // while this thread feeds this one on: /ws, live state, MQTT — in order, as this
          // batch's feed runs before the next one can be answered).
          for (const [b] of accepted) b.message.handled();
          for (const b of batch) b.settled = true;
          this.flushJournal();
          feed();
          for (const [b, r] of accepted) this.journaled(b, r);
        },
        (err: unknown) => {
          for (const [b] of accepted) this.refuse(b, err);
        },
      )
      .finally(() => {
        for (const b of batch) b.settled = true;
        if (this.writingNow === batch) this.writingNow = [];
        this.flushJournal();
      });
    this.track(pending);
  }

  /** The batch the journal is writing now. */
  private writingNow: Unjournaled[] = [];

  /**
   * Journals now what has arrived (flushJournal), and resolves once all of it is settled:
   * durable, or refused and its lines closed.
   */
  private async journalAll(): Promise<void> {
    // What has arrived until now; what arrives meanwhile is not waited for (under load it never ends).
    const owed = [...this.writingNow, ...this.unjournaled];
    this.flushJournal();
    while (owed.some((b) => !b.settled)) {
      await this.journal.settled();
      await new Promise<void>((r) => setImmediate(r)); // the settled batch's handlers run, the next batch leaves
      this.flushJournal();
    }
  }

  /** After the commit (acknowledged, fed): a clock's result is filed against its game. */
  private journaled(b: { message: ReceivedMessage; input: ClockEventInput }, r: AppendResult): void {
    if (b.input.type !== 'result') return;
    try {
      this.resultFromClock(r.id, b.input);
    } catch (err) {
      // The event is journaled all the same; the arbiter enters the result (docs/host.md).
      this.log(`clock ${b.input.clockId}: result ${String(b.input.detail?.result)} not filed: ${(err as Error).message}`);
    }
  }

  /** Not journaled → not acknowledged: closing the link stops its Session before the ack leaves. */
  private refuse(b: { session: ClockSession; link: Link | null; message: ReceivedMessage }, err: unknown): void {
    if (b.link && b.session.link === b.link && b.link.state !== 'closed') {
      b.link.close(`the host could not journal seq ${b.message.seq} of boot ${b.message.bootId}: ${(err as Error).message}`);
    }
  }

  /**
   * A result keyed at the clock (the players, both confirming with their levers, or an
   * arbiter at the clock), journaled as the clock's event: the journal files it against the
   * game the clock played (JournalPorts.fileClockResult). A game without a result takes it
   * (the arbiter confirms later); one with a result keeps it, and a different result waits
   * beside it for the arbiter (`pendingResults`, GET /api/results); a clock with no game gets
   * an unassigned report. A conflict and an unassigned result are a journal record the arbiter
   * sees and a log line, never only a line.
   */
  private resultFromClock(eventRowId: number, input: ClockEventInput): void {
    const filed = this.state.fileClockResult(eventRowId);
    if (filed.log !== null) this.log(filed.log);
    else if (filed.outcome === 'refused') this.log(`clock ${input.clockId}: result ${String(input.detail?.result)} not filed`);
    // FIDE Laws 8.7: the result waits for the arbiter; the feed's event went out before it was filed.
    if (filed.outcome !== 'refused') this.clockBoardsChanged(input.clockId);
  }

  // ─── CommandSink ────────────────────────────────────────────────────────────────────

  async execute(command: ArbiterCommand, actor: Actor): Promise<CommandOutcome> {
    if (command.type === 'start' && command.sessionUtcMs === undefined) {
      // FIDE Laws 6.7.1: a board started after its round began counts the default time from the round's start.
      const game = this.currentGameOf(command.boardId);
      const session = game ? this.roundSessionUtcMs(game) : null;
      if (session !== null) command = { ...command, sessionUtcMs: session };
    }
    const before = command.type === 'confirm-result' ? this.currentGameOf(command.boardId) : null;
    const outcome = await this.state.execute(command, actor);
    // FIDE Laws 5.1 / 5.2: the result ends the game at the board too; a correction, or a
    // confirmation that adopted a clock's other result, changes what the clock shows.
    if (outcome.ok && command.type === 'result') {
      const game = this.currentGameOf(command.boardId);
      if (game) await this.showResultOnClock(game, command.result);
    }
    if (outcome.ok && before !== null) {
      const confirmed = this.journal.getGame(before.gameId);
      if (confirmed?.result && confirmed.result !== before.result) await this.showResultOnClock(confirmed, confirmed.result);
    }
    if (!outcome.ok || before === null) return this.withBreak(outcome);
    // The arbiter confirmed: the director decides what the board plays next.
    let update;
    try {
      update = this.director.afterConfirmedResult(before.gameId, this.clock.nowUtcMs());
    } catch (err) {
      if (!(err instanceof DirectorError)) throw err;
      this.log(err.message);
      return this.withBreak(outcome);
    }
    if (update.type === 'next-game') {
      this.log(`${before.event} round ${before.round} board ${before.board}: next game ${update.game.gameNo} (${update.game.kind}) in ${Math.round(update.breakRemainingMs / 60_000)} min`);
      const s = update.game.clockId !== null ? this.sessionOf(update.game.clockId) : undefined;
      if (s) this.syncClock(s);
    } else if (update.type === 'decided') {
      this.log(`${before.event} round ${before.round} board ${before.board}: ${update.match.winner} wins the match (${update.match.decidedBy})`);
    }
    this.openCurrentRounds();
    return this.withBreak({ ok: true, board: this.state.board(command.boardId) });
  }

  /**
   * Starts a round: checks it against the tournament (the event and round exist, and it is
   * the round the event plays now), then starts each board's clock through `execute`, which
   * journals every board's start (or refusal) with the arbiter.
   */
  /** The arbiter enters the colours drawn in the hall (Director.enterLot); 404 for no such match, 409 once drawn. */
  async enterLot(eventId: string, round: number, board: number, stage: LotStage, whiteRank: number, actor: Actor): Promise<LotOutcome> {
    const event = this.hall.events.find((e) => e.id === eventId);
    if (!event) return { ok: false, status: 404, reason: `no event "${eventId}" in the tournament (events: ${this.hall.events.map((e) => e.id).join(', ')})` };
    if (event.kind !== 'knockout' || !event.rounds.some((r) => r.number === round && r.knockout.some((k) => k.board === board))) {
      return { ok: false, status: 404, reason: `event "${eventId}" has no knockout mini-match in round ${round} on board ${board}` };
    }
    const now = this.clock.nowUtcMs();
    try {
      const draw = this.director.enterLot(eventId, round, board, stage, whiteRank, actor.arbiter, now);
      return { ok: true, lot: { stage: draw.stage, white: draw.white, whiteRank: draw.whiteRank, source: draw.source, by: actor.arbiter, atUtcMs: now } };
    } catch (err) {
      if (err instanceof DirectorError) return { ok: false, status: 409, reason: err.message };
      throw err;
    }
  }

  async startRound(eventId: string, round: number, actor: Actor): Promise<RoundStartOutcome> {
    const event = this.hall.events.find((e) => e.id === eventId);
    if (!event) return { ok: false, status: 404, reason: `no event "${eventId}" in the tournament (events: ${this.hall.events.map((e) => e.id).join(', ')})` };
    if (!event.rounds.some((r) => r.number === round)) {
      return { ok: false, status: 404, reason: `event "${eventId}" has no round ${round} (rounds 1-${event.rounds.length})` };
    }
    // FIDE Laws 6.7.1: the session starts now (or started when the arbiter first started this
    // round, should some clocks have been offline then): every board's default time counts from it.
    const first = this.journal.gamesByRound(eventId, round).find((g) => g.gameNo === 1);
    const sessionUtcMs = (first && this.roundSessionUtcMs(first)) ?? this.clock.nowUtcMs();
    return startRoundOnBoards(this, this, eventId, round, actor, { currentRound: this.currentRound(event), sessionUtcMs });
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

  /**
   * The players and the floor see at the board what the arbiter entered or corrected at the
   * host, and the game is over there too: Command ENTER_RESULT is the clock's RESULT input (a
   * running clock stops at once, shows `Result 0-1` on its second row, and nothing resumes it;
   * the clock does not echo it back as an event, so the host's own view says `finished` from
   * the journal's result). The clock has no forfeit form: a forfeit win is shown as the win it
   * counts as (as the PGN Result tag writes it); a double forfeit is the clock's result `--` on a
   * clock of protocol 1.4 or later, and only stops a running older clock.
   * The journal already holds the result, so a clock that is offline or refuses only costs the
   * display: logged, the command stays applied.
   */
  private async showResultOnClock(game: GameRow, result: string): Promise<void> {
    if (game.clockId === null) return;
    const s = this.sessionOf(game.clockId);
    if (!s || !s.online) return this.log(`clock ${game.clockId}: result ${result} not shown (the clock is offline): it runs on until it is stopped at the board`);
    const wire = WIRE_RESULT[this.clockFormOf(result, s.hello?.protocolMinor ?? 0)];
    const body = wire === undefined
      ? ({ case: 'command', value: { kind: Command_Kind.PAUSE } } as BodyInit)
      : ({ case: 'command', value: { kind: Command_Kind.ENTER_RESULT, result: wire } } as BodyInit);
    try {
      await s.request(body);
    } catch (err) {
      if (!(err instanceof ClockRefusedError) && !(err instanceof ClockOfflineError)) throw err;
      // A double forfeit on a clock that is not running: nothing to stop.
      if (wire === undefined && err instanceof ClockRefusedError) return;
      this.log(`clock ${game.clockId}: result ${result} not shown (${err.message})`);
    }
  }

  /**
   * The result as a clock speaking protocol minor `minor` can show it (a key of WIRE_RESULT): a
   * played result as itself, a forfeit win as the win it counts as (rules/vocabulary.ts
   * RESULT_MEANING pgn). A double forfeit (FIDE Laws 6.7.1: both lose) is the clock's own result
   * `--` since 1.4 (GameResult DOUBLE_FORFEIT); an older clock has no form for it: ''
   * (showResultOnClock then only stops a running clock). This is the one place that decides it.
   */
  private clockFormOf(result: string, minor: number): string {
    if (result === forfeitResultFor('both')) return minor >= DOUBLE_FORFEIT_MINOR ? result : '';
    return isGameResult(result) ? (RESULT_MEANING[result].pgn ?? '') : result;
  }

  private currentGameOf(boardId: string): GameRow | null {
    const view = this.state.board(boardId);
    if (!view) return null;
    return this.journal.currentGameOfBoard(view.event, view.board);
  }

  /** Sends an accepted arbiter command to the board's clock; the clock's answer decides. */
  private async commandClock(command: ArbiterCommand, game: GameRow): Promise<CommandOutcome> {
    const where = `board ${game.board} of ${game.event} round ${game.round}`;
    if (game.clockId === null) return { ok: false, status: 503, reason: `${where} has no clock assigned` };
    const s = this.sessionOf(game.clockId);
    if (!s || !s.online) {
      return { ok: false, status: 503, reason: `clock ${game.clockId} of ${where} is offline${s?.lastError ? ` (${s.lastError})` : ''}: nothing was changed` };
    }
    // A game under way goes only to a clock brought to it (configured by this host, or held and
    // restored from the journal): a blank or another game's clock would apply the command to
    // its own times, and the journal would record them against this game.
    if (command.type !== 'configure' && this.journal.gameStarted(game.gameId)) {
      const step = this.inStep.get(game.clockId);
      if (!step || step.bootId !== s.hello?.bootId || step.gameId !== game.gameId) {
        return { ok: false, status: 409, reason: `clock ${game.clockId} of ${where} has not been brought to the journal's game yet (docs/protocol.md "Restore"); nothing was changed: wait for the restore, or set the clock by hand` };
      }
    }
    // A command of a later protocol minor than the clock speaks: refused here, with what to do.
    const needs = minorNeeded(command);
    const speaks = s.hello?.protocolMinor ?? 0;
    if (needs && speaks < needs.minor) {
      const major = s.hello?.protocolMajor ?? 1;
      return { ok: false, status: 409, reason: `clock ${game.clockId} of ${where}: its firmware speaks protocol ${major}.${speaks}: ${needs.what} needs ${major}.${needs.minor} (update the clock firmware); nothing was changed` };
    }
    let body: BodyInit;
    switch (command.type) {
      case 'start': {
        // FIDE Laws 6.5: the arbiter starts White's clock (as Black's first press would, without showing Black present).
        // FIDE Laws 6.7.1: the default time counts from the session's start, sent as the time
        // elapsed since it — a duration needs no common time base (docs/protocol.md, "Session start").
        const elapsed = command.sessionUtcMs === undefined ? 0 : Math.min(MAX_SESSION_ELAPSED_MS, Math.max(0, Math.round(this.clock.nowUtcMs() - command.sessionUtcMs)));
        if (elapsed > 0 && speaks < 1) this.log(`clock ${game.clockId} speaks protocol 1.${speaks}: it counts the default time from its start, not from the session ${elapsed} ms earlier`);
        body = { case: 'command', value: { kind: Command_Kind.START, sessionElapsedMs: elapsed } } as BodyInit;
        break;
      }
      case 'arrive':
        // FIDE Laws 6.7.1: the player is at the board; the clock reports ARRIVED.
        body = { case: 'command', value: { kind: Command_Kind.ARRIVE, side: WIRE_SIDE[command.side] } } as BodyInit;
        break;
      case 'takeback':
        // FIDE Laws 7.5.1 with 6.10.2: the clock annuls the last completed move and reports TAKEN_BACK;
        // Laws 7.1: the arbiter may keep both clock times (keep_times, since 1.4).
        body = { case: 'command', value: { kind: Command_Kind.TAKEBACK, keepTimes: command.times === 'keep' } } as BodyInit;
        break;
      case 'set-turn':
        // FIDE Laws 6.10.2: the side on move (a replacement clock); the clock reports TURN_SET.
        body = { case: 'command', value: { kind: Command_Kind.SET_TURN, side: WIRE_SIDE[command.side] } } as BodyInit;
        break;
      case 'set-control':
        // FIDE Laws 6.10.2: the corrected control, both times kept; the clock reports CONTROL_SET.
        body = { case: 'command', value: { kind: Command_Kind.SET_CONTROL, control: timeControlToWire(command.timeControl) } } as BodyInit;
        break;
      case 'delay':
        // FIDE Guidelines III.4: a delay for both sides on every later turn; the clock reports DELAY_SET.
        body = { case: 'command', value: { kind: Command_Kind.DELAY, ms: command.ms } } as BodyInit;
        break;
      case 'reinstate':
        // FIDE Laws 6.7.1: the forfeit is overruled; the clock reports REINSTATED.
        body = { case: 'command', value: { kind: Command_Kind.REINSTATE } } as BodyInit;
        break;
      case 'increment':
        // FIDE Guidelines III.4: both sides get `ms` after every later move; the clock reports INCREMENT_SET.
        body = { case: 'command', value: { kind: Command_Kind.INCREMENT, ms: command.ms } } as BodyInit;
        break;
      case 'pause':
        body = { case: 'command', value: { kind: Command_Kind.PAUSE } } as BodyInit;
        break;
      case 'resume':
        body = { case: 'command', value: { kind: Command_Kind.RESUME } } as BodyInit;
        break;
      case 'adjust':
        body = { case: 'command', value: { kind: Command_Kind.ADJUST, side: WIRE_SIDE[command.side], ms: command.ms } } as BodyInit;
        break;
      case 'penalty':
        // FIDE Laws 7.5.5: `side` made the illegal move; the clock credits the opponent.
        body = { case: 'command', value: { kind: Command_Kind.PENALTY, side: WIRE_SIDE[command.side] } } as BodyInit;
        break;
      case 'set-moves':
        // FIDE Laws 6.10.2: the clock takes the corrected counter, credits a later period once (and reports MOVES_SET).
        body = { case: 'command', value: { kind: Command_Kind.SET_MOVES, side: WIRE_SIDE[command.side], moves: command.moves } } as BodyInit;
        break;
      case 'configure':
        // The journal's game must keep matching what the clock plays: a game whose clock has
        // started is not set up anew (enter its result first).
        if (this.journal.gameStarted(game.gameId)) {
          return { ok: false, status: 409, reason: `${where}: the game has started; enter its result before configuring another` };
        }
        body = this.configureBody(game, { timeControl: command.timeControl, white: command.white?.name, black: command.black?.name });
        break;
      default:
        return { ok: false, status: 422, reason: `"${command.type}" is not a clock command` };
    }
    try {
      await s.request(body);
      // What the clock sent with its answer (the event of the command: paused, adjusted, …) is
      // journaled before the arbiter hears that it took it, so the board view the answer shows
      // is the clock's (the writer thread commits a moment later: docs/host.md).
      await this.journalAll();
      // The clock took the new setup: exports and replays now describe what it plays.
      if (command.type === 'configure') {
        this.journal.reconfigureGame(game.gameId, { timeControl: command.timeControl, white: command.white?.name, black: command.black?.name });
      }
      return { ok: true };
    } catch (err) {
      if (err instanceof ClockRefusedError) return { ok: false, status: 409, reason: `clock ${game.clockId} refused: ${err.message}` };
      if (err instanceof ClockOfflineError) return { ok: false, status: 503, reason: err.message };
      throw err;
    }
  }

  // ─── the next round of a Swiss event (next-round.ts) ─────────────────────────────────

  /** Starts the pairing engine of every event whose round was just finished (once per round; Re-run runs it again). */
  private pairDueRounds(): void {
    if (!this.opts.pairing || this.closed) return;
    for (const eventId of this.nextRounds.dueEngineRuns()) {
      this.log(`${eventId}: the last round is confirmed; running the pairing engine`);
      this.track(this.nextRounds.runEngine(eventId, AUTO_PAIRING_ACTOR)).catch((err) => this.log(`${eventId}: pairing engine: ${(err as Error).message}`));
    }
  }

  proposedRounds(): readonly RoundProposalView[] {
    return this.nextRounds.views();
  }

  async proposeRoundFromTrf(eventId: string, trf: string, actor: Actor): Promise<RoundProposalOutcome> {
    return nextRoundOutcome(() => ({ ok: true as const, proposal: this.nextRounds.proposeFromTrf(eventId, trf, actor.arbiter) }));
  }

  async runPairingEngine(eventId: string, actor: Actor): Promise<RoundProposalOutcome> {
    let run: Promise<RoundProposalView>;
    try {
      run = this.track(this.nextRounds.runEngine(eventId, actor.arbiter, { rerun: true }));
    } catch (err) {
      return nextRoundOutcome(() => { throw err; });
    }
    return { ok: true, proposal: await run };
  }

  async approveRound(eventId: string, round: number, actor: Actor): Promise<RoundDecisionOutcome> {
    const outcome: RoundDecisionOutcome = nextRoundOutcome(() => {
      this.nextRounds.approve(eventId, round, actor.arbiter);
      const boards = this.state.boards().filter((b) => b.event === eventId && b.round === round).map((b) => b.id);
      return { ok: true as const, event: eventId, round, boards };
    });
    // The new round's games go to the clocks at their tables.
    if (outcome.ok) this.openCurrentRounds();
    return outcome;
  }

  async rejectRound(eventId: string, round: number, reason: string | null, actor: Actor): Promise<RoundDecisionOutcome> {
    return nextRoundOutcome(() => {
      this.nextRounds.reject(eventId, round, actor.arbiter, reason);
      return { ok: true as const, event: eventId, round, boards: [] };
    });
  }

  // ─── HostState ──────────────────────────────────────────────────────────────────────

  /** The break before a knockout board's next game, while it runs. */
  breakOf(view: BoardView): BreakView | null {
    const event = this.hall.events.find((e) => e.id === view.event);
    if (!event || event.kind !== 'knockout') return null;
    const now = this.clock.nowUtcMs();
    let state;
    try {
      state = this.director.knockoutState(event.id, view.round, view.board, now);
    } catch {
      return null;
    }
    if (state.step.status !== 'play' || state.breakRemainingMs <= 0) return null;
    const next = state.step.next;
    return { nextGameNo: next.gameNo, nextStage: next.stage, startsUtcMs: next.earliestStartUtcMs ?? now, remainingMs: state.breakRemainingMs };
  }

  private viewWithBreak(view: BoardView): BoardView {
    const brk = this.breakOf(view);
    const s = view.clockId !== null ? this.sessionOf(view.clockId) : undefined;
    const restore = this.restoreNoteOf(view);
    // The dashboard shows the countdown, whether the clock is connected, and the last restore from the journal.
    return { ...view, ...(brk ? { break: brk } : {}), ...(restore ? { restore } : {}), clockOnline: s?.online ?? false, ...(s ? { link: s.linkFigures() } : {}) };
  }

  private restoreNoteOf(view: BoardView): RestoreNote | null {
    const game = this.journal.currentGameOfBoard(view.event, view.board);
    if (!game) return null;
    if (!this.restoreNotes.has(game.gameId)) this.restoreNotes.set(game.gameId, lastRestoreNote(this.journal, game.gameId));
    return this.restoreNotes.get(game.gameId) ?? null;
  }

  private withBreak(outcome: CommandOutcome): CommandOutcome {
    return outcome.ok && outcome.board ? { ok: true, board: this.viewWithBreak(outcome.board) } : outcome;
  }

  boards(): readonly BoardView[] {
    return this.state.boards().map((v) => this.viewWithBreak(v));
  }

  board(id: string): BoardView | undefined {
    const v = this.state.board(id);
    return v && this.viewWithBreak(v);
  }

  events(query: EventQuery): EventPage {
    return this.state.events(query);
  }

  journalEvents(query: JournalRangeQuery): JournalRange {
    return this.state.journalEvents(query);
  }

  boardGame(id: string, gameNo?: number): BoardGameJournal | undefined {
    return this.state.boardGame(id, gameNo);
  }

  matches(): readonly MatchView[] {
    return this.state.matches().map((m) => {
      const event = this.hall.events.find((e) => e.id === m.event);
      const round = m.round as number;
      const board = m.board as number;
      if (!event || m.status === 'decided') return m;
      try {
        const st = this.director.knockoutState(event.id, round, board, this.clock.nowUtcMs());
        return { ...m, breakRemainingMs: st.breakRemainingMs };
      } catch {
        return m;
      }
    });
  }

  results(round?: number): readonly ResultView[] {
    return this.state.results(round);
  }

  standings(event: string, round?: number): StandingsView {
    return journalStandings(this.journal, this.hall, event, round);
  }

  subscribe(listener: (event: ClockEventRecord, board: BoardView | undefined) => void): () => void {
    return this.state.subscribe(listener);
  }

  private log(line: string): void {
    this.opts.log?.(line);
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

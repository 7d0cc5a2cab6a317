// The clocks of a hall: one session (host/clocks/clock-session.ts) per clock line, which clock is
// on which line and at which table, whether each is connected, and each clock brought to its
// board's game — configured for a game not begun, restored from the journal for one under way
// (host/clocks/restore-clock.ts), told the result the arbiter entered. It sends the arbiter's
// commands to the clocks (the wire form from clock-commands.ts) and answers with the clock's
// ACK or Nack; what the clocks send goes to the group commit (group-commit.ts).
//
//   clock ─line─► ClockSession ─► GroupCommit ─► journal (durable) ─► ack to the clock
//   arbiter ─► JournalPorts.execute ─► ClockFleet.command ─► Command to the clock (ack or Nack)
import { SESSION_DEFAULTS, type BodyInit, type ReceivedMessage } from '../../protocol/session-api.ts';
import type { Journal } from '../store/journal.ts';
import type { GameRow } from '../store/types.ts';
import type { Hall } from '../domain/model.ts';
import { eventBoardAt, tableOf } from '../domain/tables.ts';
import type { BackoffOptions } from '../clocks/session.machine.ts';
import { ClockOfflineError, ClockRefusedError, ClockSession, type Line, type LinkFigures, type LinkTuning } from '../clocks/clock-session.ts';
import { bringClockToJournal, RESTORE_MINOR, type RestoreNote } from '../clocks/restore-clock.ts';
import type { ClockPresence } from './board-views.ts';
import type { Busy } from './busy.ts';
import { commandBody, configureBody, minorNeeded, resultBody, sessionElapsedMs } from './clock-commands.ts';
import type { ArbiterCommand, CommandOutcome } from './ports.ts';
import type { HostClock } from './utc.ts';
import { storageFaultReason } from './storage-fault.ts';
import { IdentityClaims, type IdentityChoice, type IdentityClaim } from './identity-claims.ts';

/** Who the host signs its own journaled actions with (configuring a clock for the next game). */
export const HOST_ACTOR = 'host';

export interface ClockFleetOptions {
  readonly journal: Journal;
  readonly hall: Hall;
  readonly clock: HostClock;
  readonly busy: Busy;
  /** Hall tables by clock serial id (ports file `serial` entries). */
  readonly tablesBySerial?: ReadonlyMap<string, number>;
  readonly link?: LinkTuning;
  readonly backoff?: BackoffOptions;
  readonly configureTimeoutMs?: number;
  /** What the clocks send: gathered for the group commit (GroupCommit.message). */
  readonly message: (session: ClockSession, m: ReceivedMessage) => void;
  /** Journals what has arrived, resolving once it is settled (GroupCommit.journalAll). */
  readonly journalAll: () => Promise<void>;
  /** The boards of a clock changed with no feed event saying so (BoardViews.clockChanged). */
  readonly boardsChanged: (clockId: string) => void;
  /** A clock was brought to a game from the journal, or the attempt failed (BoardViews.restored). */
  readonly restored: (gameId: number, note: RestoreNote | null, clockId: string) => void;
  readonly log: (line: string) => void;
}

export class ClockFleet implements ClockPresence {
  private readonly opts: ClockFleetOptions;
  private readonly journal: Journal;
  private readonly sessions = new Map<string, ClockSession>();
  /** The session of each clock id last looked up or greeted (sessionOf without a scan of every line). */
  private readonly byClock = new Map<string, ClockSession>();
  private readonly tablesByLine = new Map<string, number>();
  private readonly tablesBySerial: Map<string, number>;
  /** Game last configured on each clock, per link (a new link configures again if still due). */
  private readonly configured = new WeakMap<object, number>();
  /** The boot of each clock this host brought to its game (configured or restored): a line that comes back needs nothing. */
  private readonly inStep = new Map<string, { bootId: number; gameId: number }>();
  /** The clock id each line is refusing now (one log line per refusal burst, not per retried Hello). */
  private readonly refusing = new Map<string, string>();
  /** Lines that claim an id another line carries online, and the arbiter's choices (identity-claims.ts). */
  private readonly claims = new IdentityClaims();
  /** The journal key of each boot (`clockId/bootId`) whose seqs went back (docs/protocol.md "Sequence numbers and identity"). */
  private readonly bootKeys = new Map<string, string>();
  private closed = false;
  /**
   * During a storage fault every refused batch drops its clock's line and the clock greets
   * again: each clock's first drop and return are logged, the rest counted and told once the
   * fault clears (docs/reliability.md "Disk full").
   */
  private readonly duringFault = { told: new Map<string, number>(), untold: 0 };
  private readonly stopFaultWatch: () => void;

  constructor(opts: ClockFleetOptions) {
    this.opts = opts;
    this.journal = opts.journal;
    this.tablesBySerial = new Map(opts.tablesBySerial ?? []);
    this.stopFaultWatch = this.journal.storage.onChange((h) => {
      if (!h.cleared) return;
      const { told, untold } = this.duringFault;
      if (untold > 0) this.log(`while the storage fault lasted, ${untold} more drops and returns of ${told.size} clock line(s) were counted, not logged`);
      told.clear();
      this.duringFault.untold = 0;
    });
  }

  /** A clock's line went down or came up: logged, but only twice per clock during a storage fault. */
  private lineLog(clockId: string | null, line: string): void {
    if (!this.journal.storage.faulty) return this.log(line);
    const key = clockId ?? '?';
    const told = this.duringFault.told.get(key) ?? 0;
    this.duringFault.told.set(key, told + 1);
    if (told < 2) this.log(told === 1 ? `${line} (while the storage fault lasts, this clock's further drops and returns are counted, not logged)` : line);
    else this.duringFault.untold++;
  }

  // ─── lines ───────────────────────────────────────────────────────────────────────────

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
      time: this.opts.clock,
      link: this.opts.link,
      backoff: this.opts.backoff,
      configureTimeoutMs: this.opts.configureTimeoutMs,
      handler: {
        online: (s) => this.online(s),
        offline: (s, reason) => this.offline(s, reason),
        message: (s, m) => this.opts.message(s, m),
        flush: () => this.opts.journalAll(),
        admit: (s, hello) => this.admit(s, hello),
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
    this.refusing.delete(key);
    for (const id of this.claims.forgetLine(key)) this.opts.boardsChanged(id);
    if (s?.clockId && this.byClock.get(s.clockId) === s) this.byClock.delete(s.clockId);
    await s?.stop();
  }

  lines(): ClockSession[] {
    return [...this.sessions.values()];
  }

  /** Each line's health for GET /metrics (docs/reliability.md "Link health"). */
  lineFigures(): { key: string; clockId: string | null; online: boolean; link: LinkFigures }[] {
    return this.lines().map((s) => ({ key: s.key, clockId: s.clockId, online: s.online, link: s.linkFigures() }));
  }

  /** The session of a clock (by serial id), if any line carries it: a connected one first. */
  sessionOf(clockId: string): ClockSession | undefined {
    const known = this.byClock.get(clockId);
    if (known && known.clockId === clockId && this.sessions.get(known.key) === known) return known;
    let found: ClockSession | undefined;
    for (const s of this.sessions.values()) if (s.clockId === clockId && (!found || s.online)) found = s;
    if (found) this.byClock.set(clockId, found);
    else this.byClock.delete(clockId);
    return found;
  }

  /** ClockPresence: whether the clock is connected now, and its line's health (board-views.ts). */
  presence(clockId: string): { online: boolean; link?: LinkFigures; identityClaim?: IdentityClaim } {
    const s = this.sessionOf(clockId);
    const claim = this.claims.claimOn(clockId);
    return { ...(s ? { online: s.online, link: s.linkFigures() } : { online: false }), ...(claim ? { identityClaim: claim } : {}) };
  }

  /**
   * The arbiter's choice on a line that claims an online clock's id (identity-claims.ts): keep
   * the online clock (the claimant stays refused), or take the newcomer as the replacement (the
   * online clock's line is dropped and refused; the newcomer is admitted at its next greeting,
   * and held and restored from the journal). Throws IdentityChoiceError when no such claim is open.
   */
  decideIdentity(clockId: string, line: string, choice: IdentityChoice): IdentityClaim {
    const claim = this.claims.decide(clockId, line, choice);
    this.refusing.delete(claim.line);
    if (choice === 'newcomer') {
      // Brought to the game afresh: the newcomer is held, compared and restored from the journal.
      this.inStep.delete(clockId);
      this.sessions.get(claim.onlineLine)?.link?.close(`the arbiter took the clock on ${line} as ${clockId}'s replacement`);
    }
    this.log(
      choice === 'online'
        ? `clock ${clockId}: the arbiter kept the clock on ${claim.onlineLine}; ${line} stays refused`
        : `clock ${clockId}: the arbiter took the clock on ${line} as the replacement; ${claim.onlineLine} dropped and refused`,
    );
    this.opts.boardsChanged(clockId);
    return claim;
  }

  /** Places a clock by its serial id (ports file `serial` entry). */
  placeClock(serialId: string, table: number): void {
    this.tablesBySerial.set(serialId, table);
    const s = this.sessionOf(serialId);
    if (s?.online) this.syncClock(s);
  }

  /** Brings every connected clock to its board's current game (after rounds were opened). */
  syncAll(): void {
    for (const s of this.sessions.values()) if (s.online) this.syncClock(s);
  }

  /** Brings the clock to its board's current game, if it is connected (the director set up its next game). */
  syncClockOf(clockId: string): void {
    const s = this.sessionOf(clockId);
    if (s) this.syncClock(s);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopFaultWatch();
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
    this.sessions.clear();
    this.byClock.clear();
  }

  /**
   * A clock id already online on another line is refused on the newcomer's line
   * (docs/reliability.md "A second clock claims an online clock's id"): the clock gets
   * `Nack{CODE_INVALID}` with the reason and its link closes; the board, its journal and its
   * commands stay with the line that carried the id first.
   */
  private admit(s: ClockSession, hello: NonNullable<ClockSession['hello']>): string | null {
    const id = hello.serialId;
    const barred = this.claims.barredReason(s.key, id);
    if (barred !== null) {
      if (this.refusing.get(s.key) !== id) this.log(`clock ${id} greeted on ${s.key}: refused, ${barred}`);
      this.refusing.set(s.key, id);
      return `serial id ${id} refused on this line: ${barred}`;
    }
    const holder = [...this.sessions.values()].find((t) => t !== s && t.online && t.clockId === id);
    if (holder && holder.silentForMs > DEAD_LINE_MS) {
      // The line that carried the id has brought nothing for a while: it is dead (a cable moved
      // to another port, a line that did not signal its end). The board follows the clock to
      // its current line, and no command goes to the dead one.
      this.log(
        `clock ${id} greets on ${s.key}; ${holder.key} has brought nothing for ${Math.round(holder.silentForMs / 1000)} s: that line is taken as dead and dropped`,
      );
      holder.link?.close(`nothing heard for ${Math.round(holder.silentForMs / 1000)} s while ${id} greeted on ${s.key}`);
    } else if (holder) {
      return this.refuse(s, hello, holder);
    }
    this.refusing.delete(s.key);
    this.claims.admitted(s.key);
    this.fileBoot(s, hello);
    return null;
  }

  /** Refuses `hello` on line `s`: `holder` carries its id (logged once per refusal burst). */
  private refuse(s: ClockSession, hello: NonNullable<ClockSession['hello']>, holder: ClockSession): string {
    const id = hello.serialId;
    const claim = { clockId: id, onlineLine: holder.key, onlineBoot: bootHex(holder.hello?.bootId ?? 0), line: s.key, boot: bootHex(hello.bootId) };
    if (this.claims.claimed({ ...claim, sinceUtcMs: this.opts.clock.nowUtcMs() })) this.opts.boardsChanged(id);
    if (this.refusing.get(s.key) !== id) {
      this.refusing.set(s.key, id);
      this.log(
        `clock ${id} greeted on ${s.key} (boot ${claim.boot}) while ${id} is online on ${holder.key} (boot ${claim.onlineBoot}): ${s.key} refused; board, journal and commands stay with ${holder.key} until the arbiter decides`,
      );
    }
    return `serial id ${id} is already online on another line of this host: refused (two clocks with one id?)`;
  }

  /**
   * Which journal key the greeting boot's events go under (docs/protocol.md "Sequence numbers
   * and identity"). A clock sends seq h only once every seq up to h − window was acknowledged,
   * so a Hello whose first seq is that far below what the host has of the boot means its seqs
   * went back (an old boot id with an empty outbox): it is taken as a new boot — journaled under
   * a key of its own, held, compared and restored from the journal (host/clocks/restore-clock.ts).
   */
  private fileBoot(s: ClockSession, hello: NonNullable<ClockSession['hello']>): void {
    const id = hello.serialId;
    const known = `${id}/${hello.bootId}`;
    const key = this.bootKeys.get(known) ?? this.latestKey(id, hello.bootId);
    const carriers = [...this.sessions.values()].filter((t) => t === s || t.clockId === id);
    const highest = Math.max(this.journal.highestSeq(id, key), ...carriers.map((t) => t.highestSeq(key)));
    if (hello.firstSeq + SESSION_DEFAULTS.window > highest) {
      this.bootKeys.set(known, key);
      if (key !== bootHex(hello.bootId)) s.bootKeys.set(hello.bootId, key);
      return;
    }
    const next = this.nextKey(id, hello.bootId);
    this.bootKeys.set(known, next);
    s.renameBoot(hello.bootId, next);
    this.inStep.delete(id);
    if (s.link) this.configured.delete(s.link);
    this.log(
      `clock ${id} on ${s.key}: boot ${bootHex(hello.bootId)} starts again at seq ${hello.firstSeq} after the host had seq ${highest}: taken as a new boot (journaled as ${next}), to be held and restored from the journal`,
    );
  }

  /** The journal key of a clock's boot now: the boot id's text, or the latest `.n` key the host gave it. */
  private latestKey(clockId: string, bootId: number): string {
    const next = this.nextKey(clockId, bootId);
    const n = Number(next.split('.')[1]);
    return n === 2 ? bootHex(bootId) : `${bootHex(bootId)}.${n - 1}`;
  }

  /** The first `.n` key (n ≥ 2) of a clock's boot that the journal does not hold. */
  private nextKey(clockId: string, bootId: number): string {
    let n = 2;
    while (this.journal.highestSeq(clockId, `${bootHex(bootId)}.${n}`) >= 0) n++;
    return `${bootHex(bootId)}.${n}`;
  }

  private online(s: ClockSession): void {
    const hello = s.hello!;
    this.byClock.set(hello.serialId, s);
    this.opts.boardsChanged(hello.serialId);
    this.lineLog(hello.serialId, `clock ${hello.serialId} online on ${s.key} (firmware ${hello.firmwareVersion}, connection ${s.connections})`);
    try {
      this.journal.seenClock({
        clockId: hello.serialId,
        bootId: hello.bootId.toString(16).padStart(8, '0'),
        firmware: hello.firmwareVersion,
        utcMs: this.opts.clock.nowUtcMs(),
      });
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

  private offline(s: ClockSession, reason: string): void {
    this.lineLog(s.clockId, `clock ${s.clockId ?? '?'} on ${s.key} offline: ${reason}`);
    for (const id of this.claims.holderGone(s.key)) this.opts.boardsChanged(id);
    if (s.clockId === null) return;
    // Another line may carry the clock now: the next lookup finds it.
    if (this.byClock.get(s.clockId) === s) this.byClock.delete(s.clockId);
    this.opts.boardsChanged(s.clockId);
  }

  // ─── a clock brought to its game ───────────────────────────────────────────────────

  /** The game the clock at this session should show: its table's current game, or the one it is assigned to. */
  private gameFor(s: ClockSession): GameRow | null {
    const clockId = s.clockId!;
    const table = tableOf({ byLine: this.tablesByLine, bySerial: this.tablesBySerial }, s.key, clockId);
    if (table === null) return this.journal.currentGameForClock(clockId);
    // One board's lookup per clock: a whole-event query here made connecting N clocks O(N²).
    for (const { event, board } of eventBoardAt(this.opts.hall, table)) {
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
        this.opts.busy.track(this.showResult(game, game.result));
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
    this.opts.busy.track(
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
    this.configured.set(link, game.gameId);
    if (speaks < RESTORE_MINOR) {
      // An older firmware cannot be restored: the arbiter sets it by hand (Laws 6.10.1).
      return this.log(
        `clock ${clockId} speaks protocol 1.${speaks}: game ${game.gameId} is under way, but restoring it from the journal needs 1.${RESTORE_MINOR} (update the firmware, or set the clock by hand)`,
      );
    }
    const boot = s.hello!.bootId;
    this.opts.busy.track(
      bringClockToJournal(s, game, {
        journal: this.journal,
        nowUtcMs: () => this.opts.clock.nowUtcMs(),
        configure: (session, g) => this.configureClock(session, this.journal.getGame(g.gameId)!, HOST_ACTOR),
        actor: HOST_ACTOR,
        log: (line) => this.log(line),
      })
        .then(async (note) => {
          // The events the restore made the clock send (paused, …) are journaled before the board shows the restore.
          await this.opts.journalAll();
          // A clock left as it was (too old for the game's corrections) is not the journal's game: no time command goes to it.
          if (note.outcome === 'restored' || note.outcome === 'in-step') this.inStep.set(clockId, { bootId: boot, gameId: game.gameId });
          this.opts.restored(game.gameId, note, clockId);
        })
        .catch((err) => {
          if (this.configured.get(link) === game.gameId) this.configured.delete(link);
          this.opts.restored(game.gameId, null, clockId);
          this.log(`restore of game ${game.gameId} on clock ${clockId}: ${(err as Error).message}`);
        }),
    );
  }

  /** The Configure for a game: its labels, players, control and default time (clock-commands.ts configureBody). */
  configureBody(game: GameRow, override: { timeControl?: GameRow['timeControlValue']; white?: string; black?: string } = {}): BodyInit {
    const event = this.opts.hall.events.find((e) => e.id === game.event);
    return configureBody(game, event?.name ?? game.event, override);
  }

  private async configureClock(s: ClockSession, game: GameRow, by: string): Promise<void> {
    const where = { gameId: game.gameId, clockId: s.clockId, event: game.event, round: game.round, board: game.board };
    const utcMs = () => this.opts.clock.nowUtcMs();
    try {
      await s.request(this.configureBody(game));
    } catch (err) {
      this.journal.recordArbiterAction({
        utcMs: utcMs(),
        arbiter: by,
        action: 'configure-clock',
        ...where,
        payload: { timeControl: game.timeControl },
        outcome: 'rejected',
        reason: (err as Error).message,
      });
      throw err;
    }
    this.journal.recordArbiterAction({
      utcMs: utcMs(),
      arbiter: by,
      action: 'configure-clock',
      ...where,
      payload: { timeControl: game.timeControl, white: game.white, black: game.black },
      outcome: 'applied',
    });
    this.log(`clock ${s.clockId} configured for ${game.event} round ${game.round} board ${game.board} game ${game.gameNo} (${game.timeControl})`);
  }

  // ─── the arbiter's commands ────────────────────────────────────────────────────────

  /** Sends an accepted arbiter command to the board's clock (JournalPorts' commander); the clock's answer decides. */
  async command(command: ArbiterCommand, game: GameRow): Promise<CommandOutcome> {
    const where = `board ${game.board} of ${game.event} round ${game.round}`;
    const ready = this.readyFor(command, game, where);
    if (!ready.ok) return ready;
    const s = ready.session;
    let body: BodyInit | null;
    if (command.type === 'configure') {
      // The journal's game must keep matching what the clock plays: a game whose clock has
      // started is not set up anew (enter its result first).
      if (this.journal.gameStarted(game.gameId))
        return { ok: false, status: 409, reason: `${where}: the game has started; enter its result before configuring another` };
      body = this.configureBody(game, { timeControl: command.timeControl, white: command.white?.name, black: command.black?.name });
    } else {
      const now = this.opts.clock.nowUtcMs();
      body = commandBody(command, now);
      if (body === null) return { ok: false, status: 422, reason: `"${command.type}" is not a clock command` };
      const elapsed = command.type === 'start' ? sessionElapsedMs(command.sessionUtcMs, now) : 0;
      const speaks = s.hello?.protocolMinor ?? 0;
      if (elapsed > 0 && speaks < 1)
        this.log(`clock ${game.clockId} speaks protocol 1.${speaks}: it counts the default time from its start, not from the session ${elapsed} ms earlier`);
    }
    try {
      await s.request(body);
      // What the clock sent with its answer (the event of the command: paused, adjusted, …) is
      // journaled before the arbiter hears that it took it, so the board view the answer shows
      // is the clock's (the writer thread commits a moment later: docs/host.md).
      await this.opts.journalAll();
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

  /** The session a command for `game` goes to, or why it cannot go: no clock, offline, not brought to the game, too old a firmware. */
  private readyFor(command: ArbiterCommand, game: GameRow, where: string): { ok: true; session: ClockSession } | (CommandOutcome & { ok: false }) {
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
        return {
          ok: false,
          status: 409,
          reason: `clock ${game.clockId} of ${where} has not been brought to the journal's game yet (docs/protocol.md "Restore"); nothing was changed: wait for the restore, or set the clock by hand`,
        };
      }
    }
    // A command of a later protocol minor than the clock speaks: refused here, with what to do.
    const needs = minorNeeded(command);
    const speaks = s.hello?.protocolMinor ?? 0;
    if (needs && speaks < needs.minor) {
      const major = s.hello?.protocolMajor ?? 1;
      return {
        ok: false,
        status: 409,
        reason: `clock ${game.clockId} of ${where}: its firmware speaks protocol ${major}.${speaks}: ${needs.what} needs ${major}.${needs.minor} (update the clock firmware); nothing was changed`,
      };
    }
    return { ok: true, session: s };
  }

  /**
   * The players and the floor see at the board what the arbiter entered or corrected at the
   * host, and the game is over there too: Command ENTER_RESULT is the clock's RESULT input (a
   * running clock stops at once, shows `Result 0-1` on its second row, and nothing resumes it;
   * the clock does not echo it back as an event, so the host's own view says `finished` from
   * the journal's result). The clock has no forfeit form: a forfeit win is shown as the win it
   * counts as (as the PGN Result tag writes it); a double forfeit is the clock's result `--` on a
   * clock of protocol 1.4 or later, and only stops a running older clock (clock-commands.ts resultBody).
   * The journal already holds the result, so a clock that is offline or refuses only costs the
   * display: logged, the command stays applied.
   */
  async showResult(game: GameRow, result: string): Promise<void> {
    if (game.clockId === null) return;
    const s = this.sessionOf(game.clockId);
    if (!s || !s.online)
      return this.log(`clock ${game.clockId}: result ${result} not shown (the clock is offline): it runs on until it is stopped at the board`);
    const { body, entered } = resultBody(result, s.hello?.protocolMinor ?? 0);
    try {
      await s.request(body);
    } catch (err) {
      if (!(err instanceof ClockRefusedError) && !(err instanceof ClockOfflineError)) throw err;
      // A double forfeit on a clock that is not running: nothing to stop.
      if (!entered && err instanceof ClockRefusedError) return;
      this.log(`clock ${game.clockId}: result ${result} not shown (${err.message})`);
    }
  }

  private log(line: string): void {
    this.opts.log(line);
  }
}

/** A line that brought nothing from its clock for this long is dead when the clock greets on another (a Status comes every second, a time sync answer every 2 s). */
const DEAD_LINE_MS = 10_000;

const bootHex = (bootId: number) => bootId.toString(16).padStart(8, '0');

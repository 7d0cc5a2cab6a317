// One clock's session on the host: the session actor (session.machine.ts) with its
// effects — opening the line, the host-role Link on it, handing each delivered message to
// the host synchronously, and requests to the clock (Configure, Command) answered by the
// clock's ack, ConfigureAck or Nack.
//
// "Acknowledge only after the write is durable" (docs/host.md "What is journaled, and when"; docs/protocol.md): the host's link
// runs with `deferAck` (protocol/link.ts): a sequenced message is acknowledged only once the
// handler called its `handled()`, and the ack covers only messages handled in order. The
// host gathers the clock events that arrive in one event-loop turn, from every clock, and
// journals them in ONE transaction (group commit: one fsync for the batch); only
// after that commit does it call `handled()` for each, so an ack still leaves only after the
// event is durable. A failed write closes the link instead: closing stops the Session, so the
// ack it owes is never sent and the clock keeps the event in its outbox for the next session.
// test/host-bridge.test.ts checks both.
import type { Duplex } from 'node:stream';
import { createActor, fromPromise, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import type { Nack } from '../../protocol/gen/chessclock_pb.ts';
import { Nack_Code } from '../../protocol/gen/chessclock_pb.ts';
import {
  createLink,
  NackError,
  type BodyInit,
  type Link,
  type LinkOptions,
  type ReceivedMessage,
  type TimeSource,
  type TimeSyncEstimator,
} from '../../protocol/session-api.ts';
import { Command_Kind, type Held, type Hello } from '../../protocol/gen/chessclock_pb.ts';
import { bootIdText } from './clock-event.ts';
import { sessionMachine, type BackoffOptions, type SessionStateName } from './session.machine.ts';

/** An open line to one clock: a serial port, a pty, an in-memory end. */
export interface Line {
  readonly duplex: Duplex;
  /** Closes the line (idempotent). */
  close(): Promise<void> | void;
}

/** What the host does with a session's life and its messages. */
export interface SessionHandler {
  /** The clock greeted (first time, after a reconnect, or after it rebooted). */
  online(session: ClockSession): void;
  offline(session: ClockSession, reason: string): void;
  /**
   * A message from the clock, in order, exactly once per session. The handler calls
   * `m.handled()` once the message is durable (at once, or after a group commit): only then
   * is it acknowledged. Throwing refuses the message: the line is closed unacknowledged and
   * the clock resends it later.
   */
  message(session: ClockSession, m: ReceivedMessage): void;
  /**
   * Makes durable what `message` gathered and has not yet committed, resolving once it is
   * (or refused: then the clock's line is closed). Awaited before a Held is answered: the clock
   * sends it after its whole outbox, and whoever waits for it reads the journal next
   * (host/clocks/restore-clock.ts), which must hold those events.
   */
  flush?(): Promise<void> | void;
  /**
   * Whether this line may carry the clock that greets (its Hello), before the host accepts
   * it: null admits it, a reason refuses it (the clock gets `Nack{CODE_INVALID, reason}` and
   * its link closes: docs/protocol.md "Handshake and versioning").
   */
  admit?(session: ClockSession, hello: Hello): string | null;
}

export type LinkTuning = Pick<LinkOptions, 'autoSync' | 'session' | 'timeSync' | 'admit' | 'random'>;

export interface ClockSessionOptions {
  /** The line's name (port path, or a test's label). */
  readonly key: string;
  readonly open: () => Promise<Line>;
  readonly time: TimeSource;
  readonly handler: SessionHandler;
  readonly link?: LinkTuning;
  readonly backoff?: BackoffOptions;
  /** How long a Configure may wait for ConfigureAck after its ack (default 5 s). */
  readonly configureTimeoutMs?: number;
}

/**
 * A clock line's health as the host sees it (docs/reliability.md "Link health"), summed over
 * every connection since the host started: frames from the clock that were dropped (bad CRC
 * among them), messages the host had to send again, repeats of the clock's own resends, and the
 * round-trip time of the current connection.
 */
export interface LinkFigures {
  readonly framesDropped: number;
  readonly crcFailures: number;
  readonly retransmits: number;
  readonly duplicatesReceived: number;
  /**
   * Round-trip time of the current connection (ms): the smoothed RTT of the host's acknowledged
   * messages (RFC 6298), else the time sync's best round trip; null before either / while offline.
   */
  readonly rttMs: number | null;
  /** Connections made to the clock (1 = never reconnected). */
  readonly connections: number;
}

/** The clock cannot be reached now: nothing was sent, or the line died before its answer. */
export class ClockOfflineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClockOfflineError';
  }
}

/** The clock refused the request (its Nack); the clock changed nothing. */
export class ClockRefusedError extends Error {
  constructor(readonly nack: Pick<Nack, 'code' | 'reason' | 'refusedSeq'>) {
    super(nack.reason || `refused (${Nack_Code[nack.code] ?? nack.code})`);
    this.name = 'ClockRefusedError';
  }
}

export class ClockSession {
  readonly key: string;
  private readonly opts: ClockSessionOptions;
  private readonly actor: Actor<typeof sessionMachine>;
  private line: Line | null = null;
  private linkNow: Link | null = null;
  /** Sync estimates per clock boot kept across links: a reconnect of the same boot maps at once. */
  private readonly estimators = new Map<number, TimeSyncEstimator>();
  private readonly nackWaiters = new Map<number, (nack: Nack) => void>();
  private readonly configureWaiters = new Map<string, () => void>();
  private heldWaiters: Array<(held: Held) => void> = [];
  /**
   * The journal's name of each boot of this clock when it is not the boot id's text: a boot
   * whose seqs went back is journaled as a new one (`0000beef.2`: docs/protocol.md
   * "Sequence numbers and identity"). Set by the host before the greeting goes up.
   */
  readonly bootKeys = new Map<number, string>();
  /** The highest seq the clock sent under each journal boot key, over every link of this line. */
  private readonly seqSeen = new Map<string, number>();
  /** When (the session's time) the current line last brought a byte from the clock. */
  private heardAtMs = 0;
  /** The last Hello this host accepted from the clock (survives a line loss). */
  hello: Hello | null = null;
  /** Counters of the links this session closed, so the figures cover every connection. */
  private pastLinks: LinkCounts = { framesDropped: 0, crcFailures: 0, retransmits: 0, duplicatesReceived: 0 };

  constructor(opts: ClockSessionOptions) {
    this.key = opts.key;
    this.opts = opts;
    const clock: XstateClock = {
      setTimeout: (fn, ms) => opts.time.setTimer(fn, ms),
      clearTimeout: (h) => opts.time.clearTimer(h as never),
    };
    const machine = sessionMachine.provide({
      actors: {
        openLine: fromPromise(async () => {
          this.line = await opts.open();
        }),
        handshake: fromPromise(() => this.handshake()),
      },
      actions: {
        releaseLine: () => this.release(),
        // After the transition settles, so the handler sees the session online.
        wentOnline: () =>
          queueMicrotask(() => {
            if (this.online) this.opts.handler.online(this);
          }),
        wentOffline: ({ context }) => this.opts.handler.offline(this, context.lastError ?? 'line lost'),
      },
    });
    this.actor = createActor(machine, { input: { backoff: opts.backoff }, clock });
  }

  start(): this {
    this.actor.start();
    return this;
  }

  /** Stops the actor and closes the line; resolves when the line is closed. */
  async stop(): Promise<void> {
    this.actor.send({ type: 'STOP' });
    await this.releasing;
  }

  get state(): SessionStateName {
    return this.actor.getSnapshot().value as SessionStateName;
  }

  /** A session is up on the current link (the actor is online or just entering it). */
  get online(): boolean {
    return this.linkNow?.state === 'up';
  }

  /** The clock's serial id once it greeted (stays known while it is away). */
  get clockId(): string | null {
    return this.hello?.serialId ?? null;
  }

  get lastError(): string | null {
    return this.actor.getSnapshot().context.lastError;
  }

  get connections(): number {
    return this.actor.getSnapshot().context.connections;
  }

  get link(): Link | null {
    return this.linkNow;
  }

  /** The line's health since the host started (docs/reliability.md "Link health"). */
  linkFigures(): LinkFigures {
    const counts = this.linkNow ? addCounts(this.pastLinks, countsOf(this.linkNow)) : this.pastLinks;
    return { ...counts, rttMs: this.online ? this.currentRttMs() : null, connections: this.connections };
  }

  /**
   * The round trip to the clock now: the session's smoothed RTT of the host's acknowledged
   * messages (RFC 6298), or — the host sends few — the time sync's best round trip on the wire.
   */
  private currentRttMs(): number | null {
    const srtt = this.linkNow?.rttMs ?? null;
    if (srtt !== null) return srtt;
    const boot = this.hello?.bootId;
    return boot === undefined ? null : (this.estimatorFor(boot)?.estimate()?.minDelayMs ?? null);
  }

  /** How long the current line has brought nothing from the clock (a clock sends a Status every second and answers the host's time sync). */
  get silentForMs(): number {
    return this.opts.time.now() - this.heardAtMs;
  }

  /** The journal's name of a boot of this clock (its id's text, or the key the host gave a boot whose seqs went back). */
  bootKey(bootId: number): string {
    return this.bootKeys.get(bootId) ?? bootIdText(bootId);
  }

  /** The highest seq this line delivered of the clock's boot named `key` in the journal (0: none). */
  highestSeq(key: string): number {
    return this.seqSeen.get(key) ?? 0;
  }

  /**
   * The clock's boot `bootId` is filed under `key` from now on: its seqs went back, so what
   * this line delivered of it and its time sync (a new time base) are forgotten.
   */
  renameBoot(bootId: number, key: string): void {
    this.bootKeys.set(bootId, key);
    this.estimators.delete(bootId);
    this.linkNow?.forgetPeerBoot(bootId);
  }

  /** Subscribe to state changes (tests, logs). */
  onState(fn: (state: SessionStateName) => void): () => void {
    const sub = this.actor.subscribe((s) => fn(s.value as SessionStateName));
    return () => sub.unsubscribe();
  }

  /** The time-sync estimator for a boot of this clock (this link's, or one kept from an earlier link). */
  estimatorFor(bootId: number): TimeSyncEstimator | null {
    const live = this.linkNow?.timeSyncByBoot.get(bootId);
    if (live?.estimate()) return live;
    return this.estimators.get(bootId) ?? live ?? null;
  }

  /**
   * Sends a Configure or Command and resolves once the clock accepted it: acked without a
   * Nack (Command) or answered with ConfigureAck (Configure). Rejects with ClockOfflineError
   * when the clock is not online or the line dies first, ClockRefusedError on a Nack.
   */
  async request(body: BodyInit): Promise<void> {
    const link = this.linkNow;
    if (!this.online || !link) {
      throw new ClockOfflineError(`clock ${this.clockId ?? this.key} is offline (${this.state}${this.lastError ? `: ${this.lastError}` : ''})`);
    }
    // The seq this send takes: the outbox numbers entries in order and send() accepts synchronously.
    const seq = link.outbox.nextSeq;
    let refused: Nack | null = null;
    this.nackWaiters.set(seq, (n) => (refused = n));
    const gameId = body.case === 'configure' ? String((body.value as { gameId?: string }).gameId ?? '') : null;
    let configured = false;
    let wakeConfigure: (() => void) | null = null;
    if (gameId !== null) {
      this.configureWaiters.set(gameId, () => {
        configured = true;
        wakeConfigure?.();
      });
    }
    try {
      try {
        await link.send(body);
      } catch (err) {
        if (err instanceof NackError) throw new ClockRefusedError(err.nack);
        throw new ClockOfflineError(`clock ${this.clockId ?? this.key}: ${(err as Error).message}; the request may not have arrived`);
      }
      // The clock answers inside its handler, so a Nack rides on the frame that carries our
      // ack and was delivered just before it; give a separately sent one a turn too.
      await new Promise<void>((r) => setImmediate(r));
      if (refused) throw new ClockRefusedError(refused);
      if (gameId !== null && !configured) {
        await new Promise<void>((resolve, reject) => {
          const timer = this.opts.time.setTimer(() => {
            cleanup();
            reject(
              new ClockOfflineError(
                `clock ${this.clockId ?? this.key} acknowledged Configure ${gameId} but did not confirm it within ${this.configureTimeoutMs} ms`,
              ),
            );
          }, this.configureTimeoutMs);
          const onClose = () => {
            cleanup();
            reject(new ClockOfflineError(`clock ${this.clockId ?? this.key}: the line closed before it confirmed Configure ${gameId}`));
          };
          const poll = () => {
            if (refused) {
              cleanup();
              reject(new ClockRefusedError(refused));
            } else if (configured) {
              cleanup();
              resolve();
            }
          };
          const cleanup = () => {
            this.opts.time.clearTimer(timer);
            link.off('close', onClose);
            wakeConfigure = null;
            this.nackWaiters.set(seq, (n) => (refused = n));
          };
          wakeConfigure = poll;
          this.nackWaiters.set(seq, (n) => {
            refused = n;
            poll();
          });
          link.once('close', onClose);
        });
      }
    } finally {
      this.nackWaiters.delete(seq);
      if (gameId !== null) this.configureWaiters.delete(gameId);
    }
  }

  /**
   * Stops the clock for a restore and resolves with what it holds (docs/protocol.md
   * "Restore"): Command HOLD, answered by a sequenced Held. The clock's link delivers in
   * order, so every event still in its outbox was journaled before the Held arrives.
   * Rejects as `request` does, or with ClockOfflineError when no Held comes in time.
   */
  async hold(): Promise<Held> {
    let resolveHeld!: (h: Held) => void;
    const held = new Promise<Held>((resolve) => (resolveHeld = resolve));
    this.heldWaiters.push(resolveHeld);
    try {
      await this.request({ case: 'command', value: { kind: Command_Kind.HOLD } } as BodyInit);
      const link = this.linkNow!;
      return await new Promise<Held>((resolve, reject) => {
        const timer = this.opts.time.setTimer(() => {
          cleanup();
          reject(new ClockOfflineError(`clock ${this.clockId ?? this.key} acknowledged HOLD but sent no Held within ${this.configureTimeoutMs} ms`));
        }, this.configureTimeoutMs);
        const onClose = () => {
          cleanup();
          reject(new ClockOfflineError(`clock ${this.clockId ?? this.key}: the line closed before it answered HOLD`));
        };
        const cleanup = () => {
          this.opts.time.clearTimer(timer);
          link.off('close', onClose);
        };
        link.once('close', onClose);
        void held.then((h) => {
          cleanup();
          resolve(h);
        });
      });
    } finally {
      this.heldWaiters = this.heldWaiters.filter((w) => w !== resolveHeld);
    }
  }

  private get configureTimeoutMs(): number {
    return this.opts.configureTimeoutMs ?? 5_000;
  }

  // ─── effects ───────────────────────────────────────────────────────────────────────

  private async handshake(): Promise<void> {
    const line = this.line;
    if (!line) throw new Error('no open line');
    const tuned = this.opts.link?.admit;
    const admit = (hello: Hello) => this.opts.handler.admit?.(this, hello) ?? tuned?.(hello) ?? null;
    const link = createLink(line.duplex, { role: 'host', time: this.opts.time, ...this.opts.link, admit, deferAck: true });
    this.linkNow = link;
    this.heardAtMs = this.opts.time.now();
    line.duplex.on('data', () => {
      if (this.linkNow === link) this.heardAtMs = this.opts.time.now();
    });
    link.on('message', (m: ReceivedMessage) => this.onMessage(link, m));
    link.on('up', () => {
      if (link.peerHello) this.hello = link.peerHello;
      // A re-greeting on a live line (the clock rebooted): the host re-reads it.
      if (this.state === 'online' && this.linkNow === link) this.opts.handler.online(this);
    });
    link.on('close', (err: Error) => {
      this.keepEstimates(link);
      this.retire(link);
      if (this.linkNow === link) this.actor.send({ type: 'LINE_LOST', reason: err.message });
    });
    await link.ready;
    this.hello = link.peerHello;
  }

  private onMessage(link: Link, m: ReceivedMessage): void {
    // A link closed inside this delivery loop (a failed journal write) delivers no more.
    if (link !== this.linkNow || link.state === 'closed') return;
    const key = this.bootKey(m.bootId);
    if (m.seq > this.highestSeq(key)) this.seqSeen.set(key, m.seq);
    const body = m.body;
    if (body.case === 'nack') {
      m.handled();
      this.nackWaiters.get(body.value.refusedSeq)?.(body.value);
      return;
    }
    if (body.case === 'configureAck') {
      m.handled();
      this.configureWaiters.get(body.value.gameId)?.();
      return;
    }
    if (body.case === 'held') {
      // Every event before the Held is journaled before anyone reads the journal for it.
      const answer = () => {
        if (link !== this.linkNow || link.state === 'closed') return; // an event before it was refused
        m.handled();
        for (const w of this.heldWaiters.splice(0)) w(body.value);
      };
      let flushed: Promise<void> | void;
      try {
        flushed = this.opts.handler.flush?.();
      } catch (err) {
        link.close(`the host could not journal the events before Held: ${(err as Error).message}`);
        return;
      }
      if (flushed) flushed.then(answer, (err: Error) => link.close(`the host could not journal the events before Held: ${err.message}`));
      else answer();
      return;
    }
    try {
      this.opts.handler.message(this, m);
    } catch (err) {
      // Not journaled → not acknowledged: closing stops the Session before its ack leaves.
      link.close(`the host could not journal seq ${m.seq} of boot ${m.bootId}: ${(err as Error).message}`);
    }
  }

  /** A link ends: its counters join the session's past (once per link). */
  private retire(link: Link): void {
    if (this.retired.has(link)) return;
    this.retired.add(link);
    this.pastLinks = addCounts(this.pastLinks, countsOf(link));
  }

  private readonly retired = new WeakSet<Link>();

  private keepEstimates(link: Link): void {
    for (const [boot, est] of link.timeSyncByBoot) if (est.estimate()) this.estimators.set(boot, est);
  }

  private releasing: Promise<void> = Promise.resolve();

  private release(): void {
    const link = this.linkNow;
    const line = this.line;
    this.linkNow = null;
    this.line = null;
    if (link) {
      this.keepEstimates(link);
      link.close('session released');
      this.retire(link);
    }
    if (line) this.releasing = Promise.resolve(line.close()).catch(() => undefined);
  }
}

/** XState's clock interface (delays of `after`), as the actor options type it. */
type XstateClock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** The counting part of a line's figures. */
type LinkCounts = Omit<LinkFigures, 'rttMs' | 'connections'>;

/** One link's share of the figures: what its frame parser dropped and its sessions counted. */
function countsOf(link: Link): LinkCounts {
  const c = link.counters;
  return {
    framesDropped: c.runt + c.badCrc + c.badEscape + c.oversized + c.badVersion + c.undecodable,
    crcFailures: c.badCrc,
    retransmits: c.retransmits,
    duplicatesReceived: c.duplicatesDropped,
  };
}

function addCounts(a: LinkCounts, b: LinkCounts): LinkCounts {
  return {
    framesDropped: a.framesDropped + b.framesDropped,
    crcFailures: a.crcFailures + b.crcFailures,
    retransmits: a.retransmits + b.retransmits,
    duplicatesReceived: a.duplicatesReceived + b.duplicatesReceived,
  };
}

// A `Link`: the session layer over any Duplex byte stream — a serialport SerialPort, a
// pty, a TCP socket, an in-memory pair (docs/protocol.md, "Session", "Handshake and
// versioning", "Time sync").
//
//   bytes ─► FrameParser ─► Envelope ─► handshake / time sync / Session ─► 'message'
//   send(body) ─► Outbox (persisted) ─► Session (seq, window, retransmit) ─► encodeFrame ─► bytes
//
// The clock opens: Hello (unsequenced, repeated with backoff until answered). The host
// answers HelloAck, or a Nack when the major version differs. Then both directions run a
// Session. Sequence numbers belong to the sender's boot and continue across reconnects;
// each Hello/HelloAck states the seq its sender's stream resumes at (`first_seq`).
// Entries restored from a previous boot are sent first, in a session opened under that
// old boot id; then the clock greets again with its current boot id.
//
// Time is injected (`time`), defaulting to protocol/monotonic.ts. What users see (options,
// messages, counters, errors) is protocol/link-types.ts; what was delivered, delivery-ledger.ts;
// the time-sync exchanges and estimates, link-time-sync.ts.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { randomInt } from 'node:crypto';
import { envelope, type Envelope } from './codec.ts';
import { DeliveryLedger } from './delivery-ledger.ts';
import { encodeFrame, frameContent, slipEncode } from './frame-encoder.ts';
import { FrameParser, type DroppedFrame } from './frame-decoder.ts';
import { Nack_Code, type Hello, type HelloAck, type Nack } from './gen/chessclock_pb.ts';
import {
  OUR_VERSION,
  SACK_MINOR,
  frameVersionReason,
  helloError,
  negotiate,
  HandshakeRefusedError,
  VersionMismatchError,
  type ProtocolVersion,
  type Role,
} from './handshake.ts';
import { receivedMessages } from './link-messages.ts';
import {
  AUTO_SYNC_DEFAULTS,
  BODY_CODEC,
  CONTROL,
  LinkClosedError,
  NackError,
  type Body,
  type BodyInit,
  type LinkCounters,
  type LinkOptions,
  type LinkState,
  type ReceivedMessage,
} from './link-types.ts';
import { LinkTimeSync, u32 } from './link-time-sync.ts';
import { systemTime, type TimeSource, type TimerHandle } from './monotonic.ts';
import { Outbox, type OutboxEntry } from './outbox.ts';
import { Session, zeroCounters, type SessionCounters } from './session.ts';
import type { SyncSample, TimeSyncEstimator } from './time-sync.ts';

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
}

interface SessionInfo {
  readonly id: number;
  /** Our boot id in this session (whose seqs we send). */
  readonly ourBoot: number;
  /** The peer's boot id (whose seqs we receive). */
  readonly peerBoot: number;
  readonly session: Session<Body>;
}

export class Link extends EventEmitter implements AsyncIterable<ReceivedMessage> {
  readonly role: Role;
  readonly outbox: Outbox<Body>;
  readonly version: ProtocolVersion;
  /** Host role: the estimate of the clock's time base, per clock boot id. */
  readonly timeSyncByBoot: Map<number, TimeSyncEstimator>;
  /** The peer's Hello (host role) once a session is up. */
  peerHello: Hello | null = null;
  /** The peer's HelloAck (clock role) once a session is up. */
  peerHelloAck: HelloAck | null = null;
  /** The minor version both sides speak in the current session. */
  agreedVersion: ProtocolVersion | null = null;

  private readonly duplex: Duplex;
  private readonly time: TimeSource;
  private readonly opts: LinkOptions;
  private readonly parser: FrameParser;
  private readonly random: () => number;
  private st: LinkState = 'connecting';
  private current: SessionInfo | null = null;
  private readonly totals: SessionCounters = zeroCounters();
  private readonly own = { framesOut: 0, bytesIn: 0, bytesOut: 0, handshakes: 0, nacksSent: 0, unknownSkipped: 0, syncRequests: 0, syncTimeouts: 0 };
  private readonly pending = new Map<string, Pending>();
  private readonly refused = new Map<string, Nack>();
  /** What was delivered of each peer boot and, with deferAck, handled. */
  private readonly ledger = new DeliveryLedger();
  /** Arrival time of the frame being handled (stamped on delivered messages). */
  private lastArrival = 0;
  private helloTimer: TimerHandle | null = null;
  private helloIntervalMs = 0;
  private sessionId = 0;
  private lastHelloAck: HelloAck | null = null;
  private lastNotReadyNackAt = -Infinity;
  private readonly sync: LinkTimeSync;
  private readyResolve!: () => void;
  private readyReject!: (err: Error) => void;
  private closeError: Error | null = null;
  private refusal: { error: Error; waitMs: number } | null = null;
  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onEnd = () => this.fail(new LinkClosedError('the line reached end of stream'));
  private readonly onClose = () => this.fail(new LinkClosedError('the line was closed'));
  private readonly onError = (err: Error) => this.fail(new LinkClosedError(`line error: ${err.message}`));

  /** Resolves when the first session is up; rejects if the handshake is refused or the link closes first. */
  readonly ready: Promise<void>;

  constructor(duplex: Duplex, opts: LinkOptions) {
    super();
    this.duplex = duplex;
    this.opts = opts;
    this.role = opts.role;
    this.time = opts.time ?? systemTime;
    this.version = opts.version ?? OUR_VERSION;
    this.random = opts.random ?? (() => randomInt(0, 2 ** 32 - 1));
    if (opts.role === 'clock' && !opts.identity) throw new TypeError('createLink: role "clock" needs `identity` (serialId, firmwareVersion, bootId)');
    const bootId = opts.role === 'clock' ? opts.identity!.bootId : (opts.bootId ?? this.random());
    this.outbox = new Outbox<Body>({ bootId, codec: BODY_CODEC, capacity: opts.outboxCapacity, store: opts.outboxStore });
    this.parser = new FrameParser({ onDropped: (d) => this.dropped(d) });
    this.sync = new LinkTimeSync({
      time: this.time,
      opts,
      counters: this.own,
      isUp: () => this.st === 'up',
      peerBoot: () => (this.role === 'host' ? this.peerHello?.bootId : undefined),
      write: (body) => this.write(body, 0),
      sampled: (sample) => this.emit('sync', sample),
    });
    this.timeSyncByBoot = this.sync.byBoot;
    this.ready = new Promise<void>((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    // An unobserved refusal must not crash the process; `ready` users still see it.
    this.ready.catch(() => {});
    duplex.on('data', this.onData);
    duplex.on('end', this.onEnd);
    duplex.on('close', this.onClose);
    duplex.on('error', this.onError);
    if (this.role === 'clock') this.startHandshake();
  }

  get state(): LinkState {
    return this.st;
  }

  /** The current session's smoothed round-trip time (ms), or null before a sample. */
  get rttMs(): number | null {
    return this.current?.session.smoothedRttMs ?? null;
  }

  /** Clock role with `greetAgainAfterRefusal`: why the host refused our last Hello (null once a session is up). */
  get refusedBecause(): Error | null {
    return this.refusal?.error ?? null;
  }

  /** Why the link closed (null while open). */
  get closedBecause(): Error | null {
    return this.closeError;
  }

  get counters(): LinkCounters {
    const s = this.current?.session.counters;
    const sum = { ...this.totals };
    if (s) for (const k of Object.keys(sum) as (keyof SessionCounters)[]) sum[k] += s[k];
    return { ...this.parser.counters, ...sum, ...this.own };
  }

  /** Host role: the estimate for the clock's current boot (null before a session). */
  get timeSync(): TimeSyncEstimator | null {
    const boot = this.peerHello?.bootId;
    return boot === undefined ? null : this.sync.estimatorFor(boot);
  }

  /**
   * Queues a message for reliable, in-order, exactly-once delivery. Resolves when the peer
   * acknowledges it; rejects with NackError if the peer refuses it, with LinkClosedError /
   * SessionTimeoutError if the link dies first (the message then stays in the outbox, so a
   * persisted outbox still delivers it on the next link; ignoring the promise is fine).
   * Rejects at once for an invalid or oversized body, a control body, or a full outbox.
   */
  send(body: Body | BodyInit): Promise<void> {
    if (this.st === 'closed') return Promise.reject(this.closeError ?? new LinkClosedError('closed'));
    let entry: OutboxEntry<Body>;
    try {
      const env = envelope({ body: body as BodyInit });
      if (env.body.case === undefined || CONTROL.has(env.body.case)) throw new TypeError(`send: "${String(env.body.case)}" is not an application message`);
      encodeFrame(env); // validates and checks the size now, not at the first transmission
      entry = this.outbox.accept(env.body as Body);
    } catch (err) {
      return Promise.reject(err);
    }
    const promise = new Promise<void>((resolve, reject) => this.pending.set(key(entry.bootId, entry.seq), { resolve, reject }));
    // The firmware fires and forgets: the outbox, not this promise, guarantees delivery. A
    // link that closes must not turn every such send into an unhandled rejection.
    promise.catch(() => {});
    this.current?.session.pump();
    return promise;
  }

  /** Sends an unsequenced message (a Status heartbeat): no ack, no retransmission. */
  post(body: Body | BodyInit): void {
    if (this.st !== 'up') return;
    const env = envelope({ body: body as BodyInit });
    this.write(env.body as Body, 0);
  }

  /**
   * One time-sync exchange (either role may ask; the peer answers). Resolves with the four
   * timestamps, or null when unanswered within `timeoutMs`. The host feeds `timeSync`.
   */
  syncOnce(timeoutMs = AUTO_SYNC_DEFAULTS.timeoutMs): Promise<SyncSample | null> {
    return this.sync.syncOnce(timeoutMs);
  }

  /**
   * Host: forgets what was delivered of a peer boot and its time sync, before the greeting
   * that is being admitted goes up: that boot's seqs went back (docs/protocol.md "Sequence
   * numbers and identity"), so its next seqs are new messages on a new time base.
   */
  forgetPeerBoot(boot: number): void {
    this.ledger.forget(boot);
    this.timeSyncByBoot.delete(boot);
  }

  /** Stops everything. Pending sends reject; the outbox keeps what was not acked. */
  close(reason = 'closed by the application'): void {
    this.fail(new LinkClosedError(reason));
  }

  /** Received application messages, in order; ends when the link closes. */
  [Symbol.asyncIterator](): AsyncIterator<ReceivedMessage> {
    return receivedMessages(this, this.st === 'closed');
  }

  // ─── handshake ──────────────────────────────────────────────────────────────

  /** Clock: greets under the oldest boot that still has entries (restored ones first). */
  private startHandshake(): void {
    this.endSession();
    this.st = 'connecting';
    this.sessionId = this.random() >>> 0;
    this.helloIntervalMs = this.opts.helloIntervalMs ?? 200;
    this.sendHello();
  }

  private helloBoot(): number {
    return this.outbox.pendingBoots()[0] ?? this.outbox.bootId;
  }

  private firstSeqOf(boot: number): number {
    for (const e of this.outbox.iterate()) if (e.bootId === boot) return e.seq;
    return boot === this.outbox.bootId ? this.outbox.nextSeq : 1;
  }

  private sendHello(): void {
    if (this.st !== 'connecting') return;
    const id = this.opts.identity!;
    const boot = this.helloBoot();
    this.write(
      {
        case: 'hello',
        value: {
          serialId: id.serialId,
          firmwareVersion: id.firmwareVersion,
          protocolMajor: this.version.major,
          protocolMinor: this.version.minor,
          bootId: boot,
          capabilities: [...(id.capabilities ?? [])],
          firstSeq: this.firstSeqOf(boot),
          sessionId: this.sessionId,
        },
      } as Body,
      0,
    );
    this.helloTimer = this.time.setTimer(() => {
      this.helloTimer = null;
      this.sendHello();
    }, this.helloIntervalMs);
    this.helloIntervalMs = Math.min(this.opts.maxHelloIntervalMs ?? 2_000, this.helloIntervalMs * 2);
  }

  /** Clock side: the host's answer. */
  private onHelloAck(ack: HelloAck): void {
    if (this.role !== 'clock' || ack.sessionId !== this.sessionId || this.st !== 'connecting') return; // stale or repeated
    if (!ack.accepted) return this.refuse(new HandshakeRefusedError(ack.reason || 'no reason given'));
    const v = negotiate('clock', this.version, { major: ack.protocolMajor, minor: ack.protocolMinor });
    if (!v.ok) return this.refuse(new VersionMismatchError(v.reason));
    if (this.helloTimer) this.time.clearTimer(this.helloTimer);
    this.helloTimer = null;
    this.agreedVersion = v.version;
    this.peerHelloAck = ack;
    this.up(this.helloBoot(), ack.bootId, ack.firstSeq);
  }

  /** Host side: a clock greets (first time, again after a reconnect, or a repeat). */
  private onHello(hello: Hello): void {
    if (this.role !== 'host') return;
    if (this.st === 'up' && this.peerHello && hello.sessionId === this.peerHello.sessionId && hello.bootId === this.peerHello.bootId) {
      // Our HelloAck was lost: answer again, change nothing.
      if (this.lastHelloAck) this.write({ case: 'helloAck', value: this.lastHelloAck } as Body, 0);
      return;
    }
    const v = negotiate('host', this.version, { major: hello.protocolMajor, minor: hello.protocolMinor });
    if (!v.ok) {
      this.sendNack(Nack_Code.UNSUPPORTED_VERSION, 0, v.reason);
      return this.refuse(new VersionMismatchError(v.reason));
    }
    const bad = helloError(hello) ?? this.opts.admit?.(hello) ?? null;
    if (bad) {
      this.sendNack(Nack_Code.INVALID, 0, bad);
      return this.refuse(new HandshakeRefusedError(bad));
    }
    this.endSession();
    this.agreedVersion = v.version;
    this.peerHello = hello;
    const ourBoot = this.outbox.bootId;
    const ack = {
      protocolMajor: this.version.major,
      protocolMinor: this.version.minor,
      accepted: true,
      reason: '',
      firstSeq: this.firstSeqOf(ourBoot),
      sessionId: hello.sessionId,
      bootId: ourBoot,
    };
    this.lastHelloAck = envelope({ body: { case: 'helloAck', value: ack } }).body.value as HelloAck;
    this.write({ case: 'helloAck', value: this.lastHelloAck } as Body, 0);
    this.up(ourBoot, hello.bootId, hello.firstSeq);
  }

  private up(ourBoot: number, peerBoot: number, peerFirstSeq: number): void {
    const already = this.ledger.deliveredUpTo(peerBoot);
    const ceiling = this.opts.deferAck ? this.ledger.handledThrough(peerBoot) : Infinity;
    const info: SessionInfo = {
      id: this.sessionId,
      ourBoot,
      peerBoot,
      session: new Session<Body>(
        this.time,
        this.outbox,
        ourBoot,
        Math.max(peerFirstSeq, already + 1),
        {
          transmit: (seq, ack, body, sackBits) => this.write(body ?? ({ case: 'ackOnly', value: { sackBits: sackBits ?? 0 } } as Body), seq, ack),
          deliver: (body, seq) => this.deliver(body, seq, peerBoot),
          acked: (entries) => this.acked(entries),
          failed: (err) => this.fail(err),
        },
        { ...this.opts.session, sack: (this.agreedVersion?.minor ?? 0) >= SACK_MINOR && (this.opts.session?.sack ?? true) },
      ),
    };
    if (this.opts.deferAck) info.session.setAckCeiling(ceiling);
    this.current = info;
    this.st = 'up';
    this.refusal = null;
    this.own.handshakes++;
    this.emit('up', { ourBoot, peerBoot, hello: this.peerHello, helloAck: this.peerHelloAck });
    this.readyResolve();
    info.session.pump();
    if (this.role === 'host' && this.opts.autoSync !== false) this.sync.startAutoSync();
    // Clock: a session under an old boot only drains it; the current boot greets next.
    if (this.role === 'clock') this.maybeRegreet();
  }

  private maybeRegreet(): void {
    const cur = this.current;
    if (this.role !== 'clock' || !cur || cur.ourBoot === this.outbox.bootId) return;
    if (this.outbox.pendingBoots()[0] !== cur.ourBoot) this.startHandshake();
  }

  private endSession(): void {
    const cur = this.current;
    if (!cur) return;
    cur.session.stop();
    for (const k of Object.keys(this.totals) as (keyof SessionCounters)[]) this.totals[k] += cur.session.counters[k];
    this.current = null;
    this.sync.stopAutoSync();
  }

  // ─── receiving ──────────────────────────────────────────────────────────────

  private receive(chunk: Buffer): void {
    if (this.st === 'closed') return;
    const arrivedAtMs = this.time.now();
    this.own.bytesIn += chunk.length;
    for (const env of this.parser.push(chunk)) {
      if ((this.st as LinkState) === 'closed') return;
      this.handle(env, arrivedAtMs);
    }
  }

  private handle(env: Envelope, arrivedAtMs: number): void {
    this.lastArrival = arrivedAtMs;
    const body = env.body;
    switch (body.case) {
      case 'hello':
        this.onHello(body.value);
        break;
      case 'helloAck':
        this.onHelloAck(body.value);
        break;
      case 'syncRequest':
        this.answerSync(body.value.t1Ms, arrivedAtMs);
        break;
      case 'syncResponse':
        this.sync.onSyncResponse(body.value.t1Ms, body.value.t2Ms, body.value.t3Ms, arrivedAtMs);
        break;
      case 'nack':
        if (env.seq === 0) this.onControlNack(body.value);
        break;
      default:
        break;
    }
    const session = this.current?.session;
    if (!session) {
      // Anything but a greeting while we have no session: the peer thinks a session is up
      // that we do not know (we restarted). Status heartbeats trigger this too, so a clock
      // with nothing to send still learns it must greet again.
      if (body.case !== 'hello' && body.case !== 'helloAck' && body.case !== 'nack') this.notReady(env.seq);
      return;
    }
    if (body.case === undefined) this.own.unknownSkipped++;
    if (env.seq > 0) {
      // Control bodies never carry a seq; one that does is acked and skipped, not delivered.
      const app = body.case !== undefined && !CONTROL.has(body.case) ? (body as Body) : null;
      session.onMessage(env.seq, app);
    } else if (body.case === 'status') {
      this.emitMessage({ body: body as Body, seq: 0, bootId: this.current!.peerBoot, arrivedAtMs, handled: () => {} });
    }
    // The ack last: a Nack riding with the ack that covers its seq must be seen first.
    this.current?.session.onAck(env.ack, body.case === 'ackOnly' ? body.value.sackBits : 0);
  }

  private deliver(body: Body, seq: number, peerBoot: number): void {
    this.ledger.delivered(peerBoot, seq, this.opts.deferAck === true);
    const handled = this.opts.deferAck ? () => this.markHandled(peerBoot, seq) : () => {};
    this.emitMessage({ body, seq, bootId: peerBoot, arrivedAtMs: this.lastArrival, handled });
  }

  private emitMessage(m: ReceivedMessage): void {
    this.emit('message', m);
    const hook = this.opts.onMessage;
    if (!hook) return;
    let result: void | Promise<void>;
    try {
      result = hook(m);
    } catch (err) {
      result = Promise.reject(err);
    }
    Promise.resolve(result).then(
      () => m.handled(),
      (err: unknown) =>
        this.fail(
          new LinkClosedError(`the application failed to handle seq ${m.seq} of boot ${m.bootId}: ${err instanceof Error ? err.message : String(err)}`),
        ),
    );
  }

  private markHandled(peerBoot: number, seq: number): void {
    if (this.st === 'closed' || !this.ledger.markHandled(peerBoot, seq)) return;
    if (this.current && this.current.peerBoot === peerBoot) this.current.session.setAckCeiling(this.ledger.handledThrough(peerBoot));
  }

  private acked(entries: readonly OutboxEntry<Body>[]): void {
    for (const e of entries) {
      const k = key(e.bootId, e.seq);
      const p = this.pending.get(k);
      this.pending.delete(k);
      const nack = this.refused.get(k);
      this.refused.delete(k);
      if (p) {
        if (nack) p.reject(new NackError(nack));
        else p.resolve();
      }
    }
    this.maybeRegreet();
  }

  /** A Nack with seq 0 is about the session itself (or refuses one sequenced message). */
  private onControlNack(nack: Nack): void {
    if (nack.code === Nack_Code.UNSUPPORTED_VERSION) return this.refuse(new VersionMismatchError(nack.reason));
    if (nack.code === Nack_Code.NOT_READY && this.role === 'clock' && this.st === 'up') {
      // The host lost our session (it restarted): greet again; unacked entries resume.
      this.startHandshake();
      return;
    }
    if (nack.code === Nack_Code.INVALID && this.st === 'connecting' && this.role === 'clock') {
      const err = new HandshakeRefusedError(nack.reason);
      return this.opts.greetAgainAfterRefusal ? this.greetAgainLater(err, this.opts.greetAgainAfterRefusal) : this.refuse(err);
    }
    if (nack.refusedSeq !== 0 && this.current) this.refused.set(key(this.current.ourBoot, nack.refusedSeq), nack);
  }

  /** Refused for now: says why ('refused'), stays connecting, and greets again after a growing wait. */
  private greetAgainLater(error: Error, wait: { readonly initialMs: number; readonly maxMs: number }): void {
    const waitMs = Math.min(wait.maxMs, this.refusal ? this.refusal.waitMs * 2 : wait.initialMs);
    this.refusal = { error, waitMs };
    this.emit('refused', error);
    if (this.helloTimer) this.time.clearTimer(this.helloTimer);
    this.helloTimer = this.time.setTimer(() => {
      this.helloTimer = null;
      if (this.st === 'connecting') this.startHandshake();
    }, waitMs);
  }

  private notReady(seq: number): void {
    // Host without a session (it restarted): tell the clock to greet again, at most twice a second.
    if (this.role !== 'host' || this.st === 'closed') return;
    const now = this.time.now();
    if (now - this.lastNotReadyNackAt < 500) return;
    this.lastNotReadyNackAt = now;
    this.sendNack(Nack_Code.NOT_READY, seq, 'no session: send Hello first');
  }

  private dropped(d: DroppedFrame): void {
    this.emit('dropped', d);
    if (d.reason === 'badVersion' && d.version !== undefined) {
      const reason = frameVersionReason(this.role, this.version, d.version);
      this.sendNack(Nack_Code.UNSUPPORTED_VERSION, 0, reason);
      this.refuse(new VersionMismatchError(reason));
    } else if (d.reason === 'invalid' && d.seq !== undefined && d.seq > 0) {
      // A sequenced message that decodes but breaks the rules: refuse it so the sender
      // stops retransmitting, and let it take its place in the sequence undelivered.
      this.sendNack(Nack_Code.INVALID, d.seq, d.detail);
      this.current?.session.onMessage(d.seq, null);
    }
  }

  private sendNack(code: Nack_Code, refusedSeq: number, reason: string): void {
    this.own.nacksSent++;
    this.write({ case: 'nack', value: { code, refusedSeq, reason: reason.slice(0, 128) } } as Body, 0);
  }

  // ─── time sync ──────────────────────────────────────────────────────────────

  private answerSync(t1Ms: number, arrivedAtMs: number): void {
    // Only the clock's current boot has the time base the host wants to learn.
    if (this.st !== 'up' || (this.role === 'clock' && this.current?.ourBoot !== this.outbox.bootId)) return;
    this.write({ case: 'syncResponse', value: { t1Ms, t2Ms: u32(arrivedAtMs), t3Ms: u32(this.time.now()) } } as Body, 0);
  }

  // ─── sending ────────────────────────────────────────────────────────────────

  private write(body: Body, seq: number, ack?: number): void {
    if (this.st === 'closed' || this.duplex.destroyed || this.duplex.writableEnded) return;
    const env = envelope({ seq, ack: ack ?? this.current?.session.ackForFrame() ?? 0, body });
    const bytes = this.version.major === OUR_VERSION.major ? encodeFrame(env) : slipEncode(frameContent(env, this.version.major));
    this.own.framesOut++;
    this.own.bytesOut += bytes.length;
    this.duplex.write(bytes);
  }

  // ─── ending ─────────────────────────────────────────────────────────────────

  private refuse(err: Error): void {
    this.emit('refused', err);
    this.fail(err);
  }

  private fail(err: Error): void {
    if (this.st === 'closed') return;
    this.st = 'closed';
    this.closeError = err;
    this.endSession();
    if (this.helloTimer) this.time.clearTimer(this.helloTimer);
    this.helloTimer = null;
    this.sync.cancel();
    this.duplex.off('data', this.onData);
    this.duplex.off('end', this.onEnd);
    this.duplex.off('close', this.onClose);
    this.duplex.off('error', this.onError);
    // A late error from the line must not become an unhandled 'error' event.
    this.duplex.on('error', () => {});
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.readyReject(err);
    this.emit('close', err);
  }
}

const key = (boot: number, seq: number) => `${boot}:${seq}`;

/** A Link over `duplex` (a SerialPort, a pty, a socket, an in-memory pair). */
export function createLink(duplex: Duplex, opts: LinkOptions): Link {
  return new Link(duplex, opts);
}

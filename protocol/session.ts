// The reliable half of the session: per direction, sequence numbers, cumulative acks,
// retransmission with exponential backoff, duplicate suppression and in-order delivery
// (docs/protocol.md, "Session"). Pure logic over an injected `TimeSource`: it never
// touches a stream or reads a clock, so tests run it under fake time; `link.ts` wires it
// to frames and adds the handshake.
//
// Sender: messages wait in the `Outbox` (persisted, numbered per boot). At most `window`
// of them are in flight. Each in-flight message has its own retransmission deadline,
// RTO·2^retries, where RTO follows RFC 6298 (SRTT + 4·RTTVAR, Karn's rule: no RTT sample
// from a retransmitted message). A message retransmitted `maxRetransmits` times without
// an ack makes the session give up with `SessionTimeoutError`; it stays in the outbox for
// the next session.
// Receiver: delivers seq == expected, then whatever it held after it; holds up to
// `receiveWindow` messages that arrived early; drops (and counts) duplicates and anything
// too far ahead. Acks are cumulative: "everything up to N arrived". They ride on the next
// outgoing frame, or go out alone (a pure Ack) `ackDelayMs` after a message arrived, or at
// once after `ackEvery` unacknowledged arrivals or a duplicate (the peer missed our ack).
//
// Selective acks (since protocol 1.3, `sack`): a pure Ack also says which messages after the
// gap arrived (`sack_bits`, docs/protocol.md "Selective acknowledgement"). The sender then
// never resends those, and resends at once every hole that was sent before one of them: a
// serial line keeps order, so a message sent earlier that did not arrive is lost. With only
// cumulative acks one loss costs a round trip per hole and resends what already arrived.
import type { TimeSource, TimerHandle } from './monotonic.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';

export interface SessionOptions {
  /** Most messages in flight (sent, not yet acked). */
  readonly window?: number;
  /** Most messages held that arrived ahead of a gap. */
  readonly receiveWindow?: number;
  /** RTO before the first RTT sample (RFC 6298 §2.1 says 1 s; a serial line is faster). */
  readonly initialRtoMs?: number;
  readonly minRtoMs?: number;
  readonly maxRtoMs?: number;
  /** Transmissions of one message beyond the first before the session gives up. */
  readonly maxRetransmits?: number;
  /** How long an ack may wait for a frame to ride on. */
  readonly ackDelayMs?: number;
  /** Arrivals after which an ack goes out at once. */
  readonly ackEvery?: number;
  /** Outgoing frames that repeat a new ack value before it is left out again (size rule). */
  readonly ackRepeats?: number;
  /** Send selective acks (the peer speaks protocol 1.3 or later). Received ones are always used. */
  readonly sack?: boolean;
}

/** Seqs a `sack_bits` word covers after `ack + 1` (uint32). */
export const SACK_SPAN = 32;

export const SESSION_DEFAULTS: Required<SessionOptions> = {
  window: 32,
  receiveWindow: 64,
  initialRtoMs: 250,
  minRtoMs: 200,
  maxRtoMs: 4_000,
  maxRetransmits: 12,
  ackDelayMs: 5,
  ackEvery: 8,
  ackRepeats: 1,
  sack: false,
};

/** What the session asks of the frame layer. */
export interface SessionIo<B> {
  /**
   * Put one frame on the line: a sequenced message (seq ≥ 1) or a pure ack (body null, seq 0)
   * with its selective-ack bits (0 = none; only when `sack` is on).
   */
  transmit(seq: number, ack: number, body: B | null, sackBits?: number): void;
  /** A message arrived in order, for the first time. */
  deliver(body: B, seq: number): void;
  /** The peer acknowledged these entries. */
  acked(entries: readonly OutboxEntry<B>[]): void;
  /** The session gave up (the peer stopped acknowledging). */
  failed(err: Error): void;
}

export interface SessionCounters {
  sent: number;
  retransmits: number;
  acksSent: number;
  delivered: number;
  duplicatesDropped: number;
  outOfOrderHeld: number;
  outOfOrderDropped: number;
  /** Acks for seqs never sent (a confused or stale peer). */
  bogusAcks: number;
  /** In-flight messages the peer reported received by a selective ack (never resent after). */
  sacked: number;
}

/** Every counter at zero: a new session's, and a link's totals before its first session. */
export function zeroCounters(): SessionCounters {
  return { sent: 0, retransmits: 0, acksSent: 0, delivered: 0, duplicatesDropped: 0, outOfOrderHeld: 0, outOfOrderDropped: 0, bogusAcks: 0, sacked: 0 };
}

export class SessionTimeoutError extends Error {
  constructor(
    readonly bootId: number,
    readonly seq: number,
    readonly transmissions: number,
    readonly waitedMs: number,
  ) {
    super(
      `peer did not acknowledge boot ${bootId} seq ${seq} after ${transmissions} transmissions over ${Math.round(waitedMs)} ms; giving up (the message stays in the outbox)`,
    );
    this.name = 'SessionTimeoutError';
  }
}

interface InFlight {
  readonly seq: number;
  firstSentAt: number;
  lastSentAt: number;
  deadline: number;
  retries: number;
  /** The peer reported it received (selective ack): it waits only for the cumulative ack. */
  sacked: boolean;
  /** Order of its last transmission among all of this session's (a line keeps this order). */
  txOrder: number;
}

export class Session<B> {
  readonly options: Required<SessionOptions>;
  readonly counters: SessionCounters = zeroCounters();
  private readonly inFlight = new Map<number, InFlight>();
  /** Transmissions so far (each message's txOrder). */
  private transmissions = 0;
  private highestSent = 0;
  private srttMs: number | null = null;

  /** The smoothed round-trip time of acknowledged messages (RFC 6298 SRTT), or null before the first sample. */
  get smoothedRttMs(): number | null {
    return this.srttMs;
  }
  private rttvarMs = 0;
  private rtoMs: number;
  private retransmitTimer: TimerHandle | null = null;
  /** The last cumulative ack that advanced, and how often it came again since. */
  private lastAck = 0;
  private dupAcks = 0;
  private retransmitTimerAt = Infinity;

  private expected: number;
  private ackCeiling = Infinity;
  private readonly held = new Map<number, B | null>();
  private ackPending = 0;
  private ackTimer: TimerHandle | null = null;
  private lastAckSent = -1;
  private ackRepeatsLeft = 0;
  private stopped = false;

  /**
   * @param bootId   the boot whose seqs this session carries (the Hello's boot_id)
   * @param firstPeerSeq  the seq the peer's first sequenced message will carry
   */
  constructor(
    private readonly time: TimeSource,
    private readonly outbox: Outbox<B>,
    readonly bootId: number,
    firstPeerSeq: number,
    private readonly io: SessionIo<B>,
    options: SessionOptions = {},
  ) {
    this.options = { ...SESSION_DEFAULTS, ...options };
    this.rtoMs = this.options.initialRtoMs;
    this.expected = firstPeerSeq;
  }

  /** The cumulative ack value: the highest seq received in order. */
  get ackValue(): number {
    return Math.min(this.expected - 1, this.ackCeiling);
  }

  /**
   * Deferred acks: never acknowledge beyond `seq`, however far delivery got. The link moves
   * the ceiling as the application finishes with messages (e.g. after a durable journal
   * write), so a crash before that leaves them unacknowledged and the peer resends them.
   */
  setAckCeiling(seq: number): void {
    const before = this.ackValue;
    this.ackCeiling = seq;
    if (this.ackValue > before) this.ackSoon(false);
  }

  get currentRtoMs(): number {
    return this.rtoMs;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Sends what the window allows. Call after the outbox gained entries. */
  pump(): void {
    if (this.stopped) return;
    const now = this.time.now();
    const toSend: OutboxEntry<B>[] = [];
    let slots = this.options.window - this.inFlight.size;
    for (const e of this.outbox.iterate()) {
      if (slots <= 0) break;
      if (e.bootId !== this.bootId || this.inFlight.has(e.seq)) continue;
      toSend.push(e);
      slots--;
    }
    for (const e of toSend) {
      this.inFlight.set(e.seq, {
        seq: e.seq,
        firstSentAt: now,
        lastSentAt: now,
        deadline: now + this.rtoMs,
        retries: 0,
        sacked: false,
        txOrder: ++this.transmissions,
      });
      if (e.seq > this.highestSent) this.highestSent = e.seq;
      this.counters.sent++;
      this.io.transmit(e.seq, this.ackForFrame(), e.body);
    }
    this.armRetransmit();
  }

  /** The ack field for an outgoing frame: the value while it is new, else 0 (size rule). */
  ackForFrame(): number {
    const ack = this.ackValue;
    if (ack !== this.lastAckSent) {
      this.lastAckSent = ack;
      this.ackRepeatsLeft = this.options.ackRepeats;
    }
    this.clearAckTimer();
    this.ackPending = 0;
    if (ack === 0 || this.ackRepeatsLeft <= 0) return 0;
    this.ackRepeatsLeft--;
    return ack;
  }

  /**
   * Handles the ack field of any incoming frame (0 = no news), and a pure Ack's selective-ack
   * bits (0 = none).
   */
  onAck(ack: number, sackBits = 0): void {
    if (this.stopped) return;
    if (ack !== 0) this.onCumulativeAck(ack);
    // The bits count from this frame's own ack (docs/protocol.md: bit i is seq ack + 2 + i), 0
    // included: a pure Ack from before anything arrived in order, overtaken on a reordering
    // line, must not be read against a later ack (it marked a lost message received: a stall).
    if (sackBits !== 0 && !this.stopped) this.onSelectiveAck(ack, sackBits);
  }

  /**
   * Selective ack: the messages after the hole that arrived are marked (never resent), and
   * every hole sent before the newest of them is resent now, once per new evidence: on a line
   * that keeps order a message sent before one that arrived, and missing, is lost.
   */
  private onSelectiveAck(ack: number, bits: number): void {
    const now = this.time.now();
    let newestArrival = 0;
    for (let i = 0; i < SACK_SPAN; i++) {
      if (((bits >>> i) & 1) === 0) continue;
      const f = this.inFlight.get(ack + 2 + i);
      if (!f) continue;
      if (!f.sacked) {
        f.sacked = true;
        this.counters.sacked++;
      }
      if (f.txOrder > newestArrival) newestArrival = f.txOrder;
    }
    if (newestArrival === 0) return;
    const holes = [...this.inFlight.values()].filter((f) => !f.sacked && f.seq > ack && f.txOrder < newestArrival).sort((a, b) => a.seq - b.seq);
    for (const f of holes) {
      this.retransmit(f, now);
      if (this.stopped) return;
    }
    this.armRetransmit();
  }

  private onCumulativeAck(ack: number): void {
    if (ack > this.highestSent) {
      // An ack beyond anything sent: a peer from another session, or a bug. Never let it
      // drop messages that were not received.
      this.counters.bogusAcks++;
      return;
    }
    const now = this.time.now();
    let newest: InFlight | undefined;
    // When the newest retransmission among the acked messages went out.
    let resentAt = -Infinity;
    for (const f of this.inFlight.values()) {
      if (f.seq <= ack) {
        if (!newest || f.seq > newest.seq) newest = f;
        if (f.retries > 0 && f.lastSentAt > resentAt) resentAt = f.lastSentAt;
        this.inFlight.delete(f.seq);
      }
    }
    if (!newest) {
      this.onDuplicateAck(ack, now);
      return;
    }
    this.lastAck = ack;
    this.dupAcks = 0;
    // Karn's rule: no sample from a retransmitted message (whose ack is it?). Nor from one
    // sent before a retransmission this ack covers: it sat behind the hole, and its
    // "round trip" includes the wait for the hole to be filled.
    if (newest.retries === 0 && newest.firstSentAt > resentAt) this.sampleRtt(now - newest.firstSentAt);
    const gone = this.outbox.ackThrough(this.bootId, ack);
    if (gone.length > 0) this.io.acked(gone);
    // A partial ack after a retransmission (RFC 6582 NewReno's idea): the retransmitted
    // message filled a hole and the ack stopped just before the next one. If that next
    // message went out before the retransmission did, a FIFO line (serial, TCP) would have
    // delivered it first: it is lost too, so resend it now rather than an RTO later.
    const next = this.inFlight.get(ack + 1);
    if (next && next.lastSentAt < resentAt) this.retransmit(next, now);
    if (this.stopped) return;
    this.pump();
  }

  /**
   * The same cumulative ack again: the receiver got something after a hole (it acks every
   * out-of-order arrival at once). The third repeat resends the message after the ack
   * without waiting for its timer — fast retransmit (RFC 5681 §3.2).
   */
  private onDuplicateAck(ack: number, now: number): void {
    if (ack !== this.lastAck) return;
    const next = this.inFlight.get(ack + 1);
    if (!next) return;
    this.dupAcks++;
    if (this.dupAcks === 3) this.retransmit(next, now);
  }

  /** Handles a sequenced message (seq ≥ 1) from the peer. */
  onMessage(seq: number, body: B | null): void {
    if (this.stopped) return;
    if (seq < this.expected) {
      this.counters.duplicatesDropped++;
      this.ackSoon(true); // our ack was lost: repeat it now
      return;
    }
    if (seq > this.expected) {
      if (seq - this.expected >= this.options.receiveWindow) {
        this.counters.outOfOrderDropped++;
        return;
      }
      if (this.held.has(seq)) {
        this.counters.duplicatesDropped++;
      } else {
        this.held.set(seq, body);
        this.counters.outOfOrderHeld++;
      }
      this.ackSoon(true);
      return;
    }
    this.accept(seq, body);
    while (this.held.has(this.expected)) {
      const next = this.held.get(this.expected) ?? null;
      this.held.delete(this.expected);
      this.accept(this.expected, next);
    }
    this.ackSoon(false);
  }

  /** Stops all timers; nothing is sent or delivered afterwards. */
  stop(): void {
    this.stopped = true;
    this.clearAckTimer();
    if (this.retransmitTimer) this.time.clearTimer(this.retransmitTimer);
    this.retransmitTimer = null;
  }

  private accept(seq: number, body: B | null): void {
    this.expected = seq + 1;
    // A body the link could not understand (a newer minor version's message) still takes
    // its place in the sequence and is acked, but is not delivered.
    if (body !== null) {
      this.counters.delivered++;
      this.io.deliver(body, seq);
    }
  }

  private ackSoon(now: boolean): void {
    if (this.stopped) return;
    this.ackPending++;
    if (now || this.ackPending >= this.options.ackEvery) {
      this.sendPureAck();
      return;
    }
    if (!this.ackTimer) this.ackTimer = this.time.setTimer(() => this.sendPureAck(), this.options.ackDelayMs);
  }

  private sendPureAck(): void {
    this.clearAckTimer();
    if (this.stopped) return;
    this.ackPending = 0;
    const ack = this.ackValue;
    // A pure ack always states the value, even a repeated one: that is its whole content.
    this.lastAckSent = ack;
    this.ackRepeatsLeft = 0;
    this.counters.acksSent++;
    this.io.transmit(0, ack, null, this.options.sack ? this.sackBits(ack) : 0);
  }

  /**
   * Which seqs after `ack + 1` arrived: held after a gap, or delivered and not yet
   * acknowledged (a deferred ack: received all the same, the peer need not resend them).
   */
  private sackBits(ack: number): number {
    let bits = 0;
    for (let i = 0; i < SACK_SPAN; i++) {
      const seq = ack + 2 + i;
      if (seq < this.expected || this.held.has(seq)) bits |= 1 << i;
    }
    return bits >>> 0;
  }

  private clearAckTimer(): void {
    if (this.ackTimer) this.time.clearTimer(this.ackTimer);
    this.ackTimer = null;
  }

  private sampleRtt(rttMs: number): void {
    // RFC 6298 §2.2–2.3 with α = 1/8, β = 1/4, K = 4, G = 1 ms.
    if (this.srttMs === null) {
      this.srttMs = rttMs;
      this.rttvarMs = rttMs / 2;
    } else {
      this.rttvarMs = 0.75 * this.rttvarMs + 0.25 * Math.abs(this.srttMs - rttMs);
      this.srttMs = 0.875 * this.srttMs + 0.125 * rttMs;
    }
    const rto = this.srttMs + Math.max(1, 4 * this.rttvarMs);
    this.rtoMs = Math.min(this.options.maxRtoMs, Math.max(this.options.minRtoMs, rto));
  }

  private armRetransmit(): void {
    if (this.stopped) return;
    let earliest = Infinity;
    for (const f of this.inFlight.values()) if (!f.sacked && f.deadline < earliest) earliest = f.deadline;
    if (earliest === this.retransmitTimerAt && this.retransmitTimer) return;
    if (this.retransmitTimer) this.time.clearTimer(this.retransmitTimer);
    this.retransmitTimer = null;
    this.retransmitTimerAt = earliest;
    if (earliest === Infinity) return;
    this.retransmitTimer = this.time.setTimer(() => this.onRetransmitTimer(), earliest - this.time.now());
  }

  private onRetransmitTimer(): void {
    this.retransmitTimer = null;
    this.retransmitTimerAt = Infinity;
    if (this.stopped) return;
    const now = this.time.now();
    // A message the peer reported received waits only for the cumulative ack: never resent.
    const due = [...this.inFlight.values()].filter((f) => f.deadline <= now && !f.sacked).sort((a, b) => a.seq - b.seq);
    // Only the oldest overdue message is resent. With cumulative acks the later ones may
    // well have arrived and be held behind the gap; its retransmission tells (the ack
    // jumps), and a partial ack resends the next hole (see onAck). The others wait one
    // more RTO without counting as retransmitted.
    const [oldest, ...rest] = due;
    // RFC 6298 §5.5: back the RTO itself off, and keep it backed off until an ack for a
    // message sent only once gives a fresh sample (Karn). Otherwise a queue that grew
    // after the last sample (a busy 115200-baud line) keeps timing out spuriously, and the
    // resulting retransmissions (never sampled) keep the stale RTO forever.
    if (oldest) this.rtoMs = Math.min(this.options.maxRtoMs, this.rtoMs * 2);
    if (oldest) this.retransmit(oldest, now);
    if (this.stopped) return;
    for (const f of rest) f.deadline = now + this.rtoMs;
    this.armRetransmit();
  }

  private retransmit(f: InFlight, now: number): void {
    const entry = this.outbox.get(this.bootId, f.seq);
    if (!entry) {
      this.inFlight.delete(f.seq);
      return;
    }
    if (f.retries >= this.options.maxRetransmits) {
      this.io.failed(new SessionTimeoutError(this.bootId, f.seq, f.retries + 1, now - f.firstSentAt));
      this.stop();
      return;
    }
    f.retries++;
    f.lastSentAt = now;
    f.txOrder = ++this.transmissions;
    // The RTO was doubled by the timeout that got us here (if it was one), so a message
    // that keeps getting lost waits RTO, 2·RTO, 4·RTO … (RFC 6298 §5.5–5.6).
    f.deadline = now + this.rtoMs;
    this.counters.retransmits++;
    this.io.transmit(f.seq, this.ackForFrame(), entry.body);
    this.armRetransmit();
  }
}

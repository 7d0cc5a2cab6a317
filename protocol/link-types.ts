// What a Link's users see (protocol/link.ts): the message bodies and a received message, the
// link's options (a clock's identity, automatic time sync, acknowledgement after handling), its
// states and counters, the errors it fails with, and how a body is kept in the outbox.
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { Nack_Code, type Hello, type Nack } from './gen/chessclock_pb.ts';
import { envelope, EnvelopeSchema, type Envelope, type EnvelopeInit } from './codec.ts';
import type { FrameCounters } from './frame-decoder.ts';
import type { ProtocolVersion, Role } from './handshake.ts';
import type { TimeSource } from './monotonic.ts';
import type { OutboxCodec, OutboxStore } from './outbox.ts';
import type { SessionCounters, SessionOptions } from './session.ts';
import type { TimeSyncOptions } from './time-sync.ts';

/** A message body (what `send` takes and 'message' gives). */
export type Body = Exclude<Envelope['body'], { case: undefined }>;
/** A body as a plain init object: `{ case: 'clockEvent', value: { kind, side, atMs, … } }`. */
export type BodyInit = NonNullable<EnvelopeInit['body']>;

/** Bodies the link handles itself; everything else is the application's. */
export const CONTROL = new Set(['hello', 'helloAck', 'ackOnly', 'syncRequest', 'syncResponse']);

/** A body in the outbox (persisted by the firmware): its envelope's bytes. */
export const BODY_CODEC: OutboxCodec<Body> = {
  encode: (body) => toBinary(EnvelopeSchema, envelope({ body })),
  decode: (bytes) => {
    const env = fromBinary(EnvelopeSchema, bytes);
    if (env.body.case === undefined) throw new Error('outbox entry has no known body');
    return env.body as Body;
  },
};

export interface ReceivedMessage {
  readonly body: Body;
  /** The sender's seq (0 = unsequenced, e.g. a Status heartbeat: best effort, may be lost). */
  readonly seq: number;
  /** The boot the seq belongs to: (peer, bootId, seq) names a sequenced message uniquely. */
  readonly bootId: number;
  /**
   * With `deferAck`: call when the application is done with the message (e.g. its journal
   * write is durable); only then is it acknowledged. Idempotent; a no-op otherwise.
   */
  readonly handled: () => void;
  /**
   * Our monotonic ms when the frame that made it deliverable arrived (its own frame, or —
   * for a message held behind a gap — the one that filled the gap).
   */
  readonly arrivedAtMs: number;
}

export interface ClockIdentity {
  readonly serialId: string;
  readonly firmwareVersion: string;
  /** Random per boot (uint32): names this boot's seq space. */
  readonly bootId: number;
  readonly capabilities?: readonly string[];
}

export interface AutoSyncOptions {
  /** Exchanges of the initial sync phase, and their spacing. */
  readonly phaseExchanges?: number;
  readonly phaseIntervalMs?: number;
  /** Spacing afterwards. */
  readonly intervalMs?: number;
  /** An unanswered request is given up after this long. */
  readonly timeoutMs?: number;
}

export const AUTO_SYNC_DEFAULTS: Required<AutoSyncOptions> = {
  phaseExchanges: 128,
  phaseIntervalMs: 250,
  intervalMs: 2_000,
  timeoutMs: 1_000,
};

export interface LinkOptions {
  readonly role: Role;
  readonly time?: TimeSource;
  readonly session?: SessionOptions;
  /** Clock role: who we are (sent in Hello). */
  readonly identity?: ClockIdentity;
  /** Host role: the id of our own seq space (random if absent). */
  readonly bootId?: number;
  /** Persist the outbox here (the firmware does; restored entries are resent). */
  readonly outboxStore?: OutboxStore;
  readonly outboxCapacity?: number;
  /** Host role: extra admission policy; return a reason to refuse the clock. */
  readonly admit?: (hello: Hello) => string | null;
  /** Host role: exchange time sync requests automatically (default on). */
  readonly autoSync?: false | AutoSyncOptions;
  readonly timeSync?: TimeSyncOptions;
  /** Clock role: first Hello repeat interval; it doubles up to `maxHelloIntervalMs`. */
  readonly helloIntervalMs?: number;
  readonly maxHelloIntervalMs?: number;
  /**
   * Clock role: when the host refuses our Hello with Nack INVALID (our id is online on another
   * line, docs/protocol.md "Handshake and versioning"), greet again after `initialMs`, doubling
   * up to `maxMs`, instead of closing: the arbiter may take this clock as the replacement.
   * Absent: the refusal closes the link.
   */
  readonly greetAgainAfterRefusal?: { readonly initialMs: number; readonly maxMs: number };
  /**
   * Acknowledge a sequenced message only once the application has handled it (called
   * `message.handled()`, or `onMessage`'s promise resolved), not when it arrives: "ack only
   * after the write is durable". Delivery stays in order and exactly once.
   */
  readonly deferAck?: boolean;
  /**
   * Called for every received message, in order. With `deferAck` the message is handled
   * when the returned promise resolves; if it rejects the link closes (the peer resends the
   * unacknowledged messages on the next link).
   */
  readonly onMessage?: (m: ReceivedMessage) => void | Promise<void>;
  /** The version we claim (tests of negotiation; the frame byte follows `major`). */
  readonly version?: ProtocolVersion;
  /** Random uint32 source (session ids, host boot id); injectable for reproducible tests. */
  readonly random?: () => number;
}

export type LinkState = 'connecting' | 'up' | 'closed';

export interface LinkCounters extends FrameCounters, SessionCounters {
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  handshakes: number;
  nacksSent: number;
  unknownSkipped: number;
  syncRequests: number;
  syncTimeouts: number;
}

export class LinkClosedError extends Error {
  constructor(readonly reason: string) {
    super(`link closed: ${reason}`);
    this.name = 'LinkClosedError';
  }
}

/** The peer refused a sequenced message (Nack), e.g. a Configure the clock cannot run. */
export class NackError extends Error {
  constructor(readonly nack: Nack) {
    super(`peer refused seq ${nack.refusedSeq} (${Nack_Code[nack.code] ?? nack.code}): ${nack.reason}`);
    this.name = 'NackError';
  }
}

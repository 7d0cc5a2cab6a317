// What the embedded broker takes from a client before and after sign-in (docs/mqtt.md "Limits").
//
// Aedes reads every packet whole before it looks at it: a CONNECT that claims 200 MB is buffered
// until 200 MB have arrived, and the broker lives in the host's process. So the host puts a gate
// in front of Aedes:
// - every packet's fixed header (MQTT 3.1.1 §2.2: a type byte, then the remaining length in
//   one to four bytes, §2.2.3) is read as the bytes arrive, and a packet longer than
//   `maxPacketBytes` closes the connection before its body is read (§4.8: the server closes
//   the network connection on a protocol violation; MQTT 3.1.1 has no packet-size CONNACK);
// - open connections are capped, in all and per address, before any byte is read;
// - a client that has not finished its CONNECT within `connectTimeoutMs` is dropped (Aedes's
//   own timer);
// - sign-in failures are limited per address (SignInLimiter) and logged once per burst.
import { Duplex, Transform, type TransformCallback } from 'node:stream';
import type { Socket } from 'node:net';

export interface BrokerLimits {
  /** The longest packet a client may send, fixed header included. MQTT allows 256 MB. */
  readonly maxPacketBytes: number;
  /** Open connections at once, all addresses together. */
  readonly maxConnections: number;
  /** Open connections at once from one address. */
  readonly maxConnectionsPerAddress: number;
  /** From the TCP (or TLS) connection to a complete CONNECT. */
  readonly connectTimeoutMs: number;
  /** Failed sign-ins an address may make within `signInWindowMs` before it is refused unchecked. */
  readonly signInFailures: number;
  readonly signInWindowMs: number;
}

/**
 * A hall's displays and relays are a few dozen clients, and the host's own messages are a
 * board's state or one clock event, a few hundred bytes: these leave a wide margin for both.
 */
export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  maxPacketBytes: 64 * 1024,
  maxConnections: 500,
  maxConnectionsPerAddress: 50,
  connectTimeoutMs: 10_000,
  signInFailures: 5,
  signInWindowMs: 60_000,
};

/** The limits with `given` applied, each checked: a whole number ≥ 1 (the packet size ≥ 2, the smallest packet). */
export function brokerLimits(given: Partial<BrokerLimits> = {}): BrokerLimits {
  const limits = { ...DEFAULT_BROKER_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    const least = name === 'maxPacketBytes' ? 2 : 1;
    if (!Number.isSafeInteger(value) || value < least) throw new Error(`broker limit ${name}: expected a whole number ≥ ${least}, got ${value}`);
  }
  return limits;
}

/** Why the gate closed a connection: a packet too long, or a malformed length. */
export class PacketRefusedError extends Error {
  override name = 'PacketRefusedError';
}

const tooLarge = (claimed: number, limit: number) =>
  new PacketRefusedError(`packet refused: its header claims at least ${claimed} bytes, and the broker takes at most ${limit}`);

/** The remaining length's bytes (§2.2.3): at most four, seven bits each. */
const MAX_LENGTH_BYTES = 4;

/**
 * Passes a client's bytes through unchanged while following its packets' fixed headers, and
 * fails (closing the connection) as soon as a header claims more than `limit` bytes in all, or
 * its remaining length runs past four bytes (malformed, §2.2.3). A body is counted, never copied.
 */
export class PacketSizeGate extends Transform {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const take = Math.min(this.remaining, chunk.length - i);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.state = 'type';
      } else if (this.state === 'type') {
        this.state = 'length';
        this.length = 0;
        this.lengthBytes = 0;
        i += 1;
      } else {
        const error = this.lengthByte(chunk[i]);
        if (error) return callback(error);
        i += 1;
      }
    }
    callback(null, chunk);
  }

  /** One byte of the remaining length; an error when the packet is too long or malformed. */
  private lengthByte(byte: number): Error | null {
    this.length += (byte & 0x7f) * 128 ** this.lengthBytes;
    this.lengthBytes += 1;
    const total = 1 + this.lengthBytes + this.length;
    if (total > this.limit) return tooLarge(total, this.limit);
    if (byte & 0x80)
      return this.lengthBytes < MAX_LENGTH_BYTES ? null : new PacketRefusedError('packet refused: malformed remaining length (more than four bytes)');
    this.remaining = this.length;
    this.state = this.length === 0 ? 'type' : 'body';
    return null;
  }
}

/** The address a connection came from, for the sign-in limiter (Aedes sees the gated stream, not the socket). */
const ADDRESS = new WeakMap<object, string>();

/** The remote address of a connection the gate handed to Aedes, or undefined for one it did not. */
export function addressOf(conn: object | undefined): string | undefined {
  return conn ? ADDRESS.get(conn) : undefined;
}

export interface ConnectionGuardOptions {
  readonly limits: BrokerLimits;
  /** Told of a refused connection or packet, at most once per burst per address and cause. */
  readonly onRefused?: (what: string) => void;
}

/**
 * The listener for the broker's server: counts and caps connections, and hands Aedes each
 * accepted socket behind a PacketSizeGate.
 */
export function guardConnections(handle: (conn: Duplex) => void, opts: ConnectionGuardOptions): (socket: Socket) => void {
  const { limits } = opts;
  const open = new Map<string, number>();
  let total = 0;
  const bursts = new BurstLog(opts.onRefused ?? (() => {}), limits.signInWindowMs);
  return (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = open.get(address) ?? 0;
    if (total >= limits.maxConnections || mine >= limits.maxConnectionsPerAddress) {
      const which =
        total >= limits.maxConnections
          ? `the broker's ${limits.maxConnections} connections`
          : `${limits.maxConnectionsPerAddress} connections from one address`;
      bursts.refused(`connection:${address}`, `connection refused from ${address}: ${which} are open`);
      socket.destroy();
      return;
    }
    total += 1;
    open.set(address, mine + 1);
    socket.once('close', () => {
      total -= 1;
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    const gate = new PacketSizeGate(limits.maxPacketBytes);
    const conn = Duplex.from({ readable: gate, writable: socket });
    ADDRESS.set(conn, address);
    gate.on('error', (err) => {
      // The gate is also destroyed (with an AbortError) whenever the connection closes: only its own refusals are told.
      if (err instanceof PacketRefusedError) bursts.refused(`packet:${address}`, `connection closed from ${address}: ${err.message}`);
      socket.destroy();
      conn.destroy();
    });
    socket.once('close', () => conn.destroy());
    socket.on('error', () => undefined); // a reset by the client closes it: 'close' follows
    socket.pipe(gate);
    handle(conn);
  };
}

/**
 * Refusals as log lines, once per burst: the first of a burst is told at once; the rest are
 * counted and told in one line when the burst has been quiet for `quietMs`.
 */
export class BurstLog {
  private readonly bursts = new Map<string, { count: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly tell: (what: string) => void,
    private readonly quietMs: number,
  ) {}

  refused(key: string, what: string): void {
    const burst = this.bursts.get(key);
    if (burst) {
      burst.count += 1;
      burst.timer.refresh();
      return;
    }
    this.tell(what);
    const timer = setTimeout(() => {
      const ended = this.bursts.get(key);
      this.bursts.delete(key);
      if (ended && ended.count > 0) this.tell(`${ended.count} more refused (${key}) in the burst that began with: ${what}`);
    }, this.quietMs);
    timer.unref();
    this.bursts.set(key, { count: 0, timer });
  }
}

/**
 * Failed sign-ins per address. An address with `signInFailures` failures within `signInWindowMs`
 * is refused without a password check, and each refusal counts as a failure, so an address that
 * keeps trying stays refused until it has been quiet for the window. The host's own reserved
 * client ids are exempt (broker-access.ts): their password is random and made at start-up, so
 * checking it tells a guesser nothing, and a neighbour on the same address (loopback) can never
 * lock the host out of its own broker.
 */
export class SignInLimiter {
  /** Per address, the times of its last `signInFailures` failures, oldest first. */
  private readonly failed = new Map<string, number[]>();

  constructor(
    private readonly limits: Pick<BrokerLimits, 'signInFailures' | 'signInWindowMs'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True when `address` has had `signInFailures` failures within the window. */
  blocked(address: string): boolean {
    const times = this.failed.get(address);
    if (!times) return false;
    if (this.now() - times[times.length - 1] >= this.limits.signInWindowMs) {
      this.failed.delete(address); // quiet for a whole window: forgotten
      return false;
    }
    return times.length >= this.limits.signInFailures && this.now() - times[0] < this.limits.signInWindowMs;
  }

  failure(address: string): void {
    const times = this.failed.get(address) ?? [];
    times.push(this.now());
    if (times.length > this.limits.signInFailures) times.shift();
    this.failed.set(address, times);
  }
}

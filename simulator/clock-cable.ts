// The clock's end of its cable to the host, for halls of simulated clocks: the clock's
// link writes here for its whole life (as the firmware writes to its UART), and whatever
// line is plugged in at the moment carries the bytes — an in-memory pair the host opens,
// or a serial port on a socat pty. Pulled out, the bytes fall on the floor and the
// clock's outbox keeps every unacknowledged event until a line is back.
//
// A seeded fraction of bytes can be corrupted in both directions (one bit flipped per
// corrupted byte), like a noisy USB-serial line: the framing's CRC must catch them and
// the session must resend (docs/protocol.md).
import { Duplex } from 'node:stream';
import { createLossyPair } from '../protocol/lossy-line.ts';
import { mulberry32, type Rng } from '../protocol/prng.ts';
import { systemTime } from '../protocol/monotonic.ts';

/** What a host needs to use one line (structurally host/clocks/clock-session.ts `Line`). */
export interface HostLine {
  readonly duplex: Duplex;
  close(): void;
}

export class ClockCable extends Duplex {
  /** The line plugged in now (subclasses with another fault model write to it). */
  protected peer: Duplex | null = null;
  private readonly onData = (c: Buffer) => this.push(this.maybeCorrupt(c));
  private rng: Rng;
  /** Probability that a byte is corrupted (both directions); 0 = clean. */
  corruptByteProbability = 0;
  /** False while the cable is out: the host cannot open the line. */
  plugged = true;
  bytes = 0;
  corruptedBytes = 0;
  private memoryEnds: Duplex[] = [];

  constructor(
    readonly name: string,
    seed = 1,
  ) {
    super();
    this.rng = mulberry32(seed >>> 0);
  }

  /** Puts a stream on the cable (the far end of an in-memory pair, or a serial port). */
  attach(d: Duplex): void {
    this.detach();
    this.peer = d;
    d.on('data', this.onData);
    const gone = () => {
      if (this.peer === d) this.detach();
    };
    d.once('close', gone);
    d.on('error', gone);
  }

  detach(): void {
    this.peer?.off('data', this.onData);
    this.peer = null;
  }

  get attached(): boolean {
    return this.peer !== null && !this.peer.destroyed;
  }

  /**
   * For a host's `addLine(key, open)`: each call plugs a fresh in-memory line into the
   * cable and returns the host's end; refused while unplugged (as opening a vanished
   * /dev/ttyUSB fails).
   */
  memoryLine(): () => Promise<HostLine> {
    return async () => {
      if (!this.plugged) throw new Error(`${this.name}: no such device (unplugged)`);
      const { a, b } = createLossyPair({ seed: 1, time: systemTime, immediate: true });
      this.attach(b);
      this.memoryEnds = [a, b];
      return {
        duplex: a,
        close: () => {
          a.destroy();
          b.destroy();
        },
      };
    };
  }

  /** Pulls the cable: the in-memory line ends (the host sees its line close). */
  unplug(): void {
    this.plugged = false;
    for (const d of this.memoryEnds) d.destroy();
    this.memoryEnds = [];
    this.detach();
  }

  plug(): void {
    this.plugged = true;
  }

  private maybeCorrupt(chunk: Buffer): Buffer {
    this.bytes += chunk.length;
    const p = this.corruptByteProbability;
    if (p <= 0) return chunk;
    let out: Buffer | null = null;
    for (let i = 0; i < chunk.length; i++) {
      if (this.rng() < p) {
        out ??= Buffer.from(chunk);
        out[i] ^= 1 << Math.floor(this.rng() * 8);
        this.corruptedBytes++;
      }
    }
    return out ?? chunk;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const peer = this.peer;
    if (peer && !peer.destroyed) peer.write(this.maybeCorrupt(chunk));
    cb();
  }

  override _read(): void {}
}

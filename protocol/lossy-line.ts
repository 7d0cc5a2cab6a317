// Two connected in-memory Duplex ends with a seeded, impaired line between them: each
// written chunk may be dropped, corrupted (one bit flipped), duplicated, split in two,
// or delayed. Deterministic for a seed and a driving `TimeSource` (FakeTime in tests),
// so a failure replays exactly. With no impairment it is a plain in-memory pair.
//
// Product code, not a test helper: the simulator's cables and fleets (simulator/clock-cable.ts, fleet.ts)
// model a lossy serial line with it, and the link tests drive it with FakeTime.
//
// Delivery always goes through the time source, never synchronously inside write():
// a real serial port or socket never re-enters the writer either. Unless `reorder` is
// set, a delayed chunk also holds back the chunks behind it, as on a serial line.
import { Duplex } from 'node:stream';
import type { TimeSource } from './monotonic.ts';
import { mulberry32, type Rng } from './prng.ts';

export interface Impairment {
  /** Probability that a chunk is lost. */
  readonly drop?: number;
  /** Probability that one bit of a chunk is flipped. */
  readonly corrupt?: number;
  /** Probability that a chunk arrives twice. */
  readonly duplicate?: number;
  /** Probability that a chunk arrives in two pieces (framing must reassemble). */
  readonly split?: number;
  /** Probability that a chunk is delayed by up to `maxDelayMs` more. */
  readonly delay?: number;
  readonly maxDelayMs?: number;
  /** Let delayed chunks be overtaken (a packet network); default false (a serial line). */
  readonly reorder?: boolean;
}

export interface LineStats {
  chunks: number;
  bytes: number;
  dropped: number;
  corrupted: number;
  duplicated: number;
  split: number;
  delayed: number;
}

export interface LossyPairOptions {
  readonly seed: number;
  readonly time: TimeSource;
  /** Impairment from a to b and from b to a (the same for both unless `bToA` is given). */
  readonly impairment?: Impairment;
  readonly bToA?: Impairment;
  /** Fixed one-way latency. */
  readonly latencyMs?: number;
  /** Line rate: a chunk occupies the line for bytes / bytesPerMs (115200 baud 8N1 = 11.52). */
  readonly bytesPerMs?: number;
  /**
   * Deliver chunks that have no delay on the next event-loop turn (setImmediate) instead
   * of through the time source: with real timers a 0 ms setTimeout costs ~1 ms, which
   * would make the "perfect in-memory line" of a benchmark a 1 ms line.
   */
  readonly immediate?: boolean;
}

export interface LossyPair {
  readonly a: Duplex;
  readonly b: Duplex;
  readonly stats: { readonly aToB: LineStats; readonly bToA: LineStats };
}

const newStats = (): LineStats => ({ chunks: 0, bytes: 0, dropped: 0, corrupted: 0, duplicated: 0, split: 0, delayed: 0 });

class Line {
  readonly stats = newStats();
  /** When the last scheduled chunk reaches the far end (FIFO unless reorder). */
  private lastArrival = -Infinity;
  /** When the line is free to start sending the next byte. */
  private lineFreeAt = -Infinity;

  constructor(
    private readonly rng: Rng,
    private readonly time: TimeSource,
    private readonly imp: Impairment,
    private readonly latencyMs: number,
    private readonly bytesPerMs: number | undefined,
    private readonly deliver: (chunk: Buffer) => void,
    private readonly immediate = false,
  ) {}

  /** EOF reaches the far end after the last chunk still on the line. */
  end(eof: () => void): void {
    this.time.setTimer(eof, Math.max(0, this.lastArrival - this.time.now()));
  }

  carry(chunk: Buffer): void {
    const { rng, imp } = this;
    this.stats.chunks++;
    this.stats.bytes += chunk.length;
    // Draw every random number for every chunk, in a fixed order, so that changing one
    // probability does not reshuffle the fate of all later chunks.
    const rDrop = rng();
    const rCorrupt = rng();
    const rBit = rng();
    const rDup = rng();
    const rSplit = rng();
    const rSplitAt = rng();
    const rDelay = rng();
    const rDelayMs = rng();
    const now = this.time.now();
    let start = now;
    if (this.bytesPerMs !== undefined) {
      // The bytes occupy the line whether or not they arrive intact.
      start = Math.max(now, this.lineFreeAt);
      this.lineFreeAt = start + chunk.length / this.bytesPerMs;
    }
    if (rDrop < (imp.drop ?? 0)) {
      this.stats.dropped++;
      return;
    }
    const data = Buffer.from(chunk);
    if (rCorrupt < (imp.corrupt ?? 0) && data.length > 0) {
      const bit = Math.floor(rBit * data.length * 8);
      data[bit >> 3] ^= 1 << (bit & 7);
      this.stats.corrupted++;
    }
    let arrival = start + this.latencyMs + (this.bytesPerMs !== undefined ? chunk.length / this.bytesPerMs : 0);
    if (rDelay < (imp.delay ?? 0)) {
      arrival += rDelayMs * (imp.maxDelayMs ?? 0);
      this.stats.delayed++;
    }
    if (!imp.reorder) arrival = Math.max(arrival, this.lastArrival);
    this.lastArrival = Math.max(this.lastArrival, arrival);
    const pieces: Buffer[] = [];
    if (rSplit < (imp.split ?? 0) && data.length > 1) {
      const at = 1 + Math.floor(rSplitAt * (data.length - 1));
      pieces.push(data.subarray(0, at), data.subarray(at));
      this.stats.split++;
    } else {
      pieces.push(data);
    }
    if (rDup < (imp.duplicate ?? 0)) {
      pieces.push(...pieces.map((p) => Buffer.from(p)));
      this.stats.duplicated++;
    }
    const delayMs = arrival - now;
    const go = () => {
      for (const p of pieces) this.deliver(p);
    };
    if (this.immediate && delayMs <= 0) setImmediate(go);
    else this.time.setTimer(go, delayMs);
  }
}

class End extends Duplex {
  peer!: End;
  line!: Line;

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.line.carry(chunk);
    cb();
  }

  override _final(cb: (err?: Error | null) => void): void {
    // Our writable side ended: the far end reads EOF after what is still on the line.
    this.line.end(() => this.peer.receive(null));
    cb();
  }

  override _read(): void {
    // Data is pushed by the line when it arrives.
  }

  receive(chunk: Buffer | null): void {
    if (!this.destroyed && !this.readableEnded) this.push(chunk);
  }
}

/** A connected pair with a seeded, impaired line in each direction. */
export function createLossyPair(opts: LossyPairOptions): LossyPair {
  const rng = mulberry32(opts.seed);
  const a = new End();
  const b = new End();
  a.peer = b;
  b.peer = a;
  const impAB = opts.impairment ?? {};
  const impBA = opts.bToA ?? impAB;
  // One generator per direction, both from the seed: the two directions stay independent.
  const seedB = Math.floor(rng() * 2 ** 32);
  a.line = new Line(mulberry32(Math.floor(rng() * 2 ** 32)), opts.time, impAB, opts.latencyMs ?? 0, opts.bytesPerMs, (c) => b.receive(c), opts.immediate);
  b.line = new Line(mulberry32(seedB), opts.time, impBA, opts.latencyMs ?? 0, opts.bytesPerMs, (c) => a.receive(c), opts.immediate);
  return { a, b, stats: { aToB: a.line.stats, bToA: b.line.stats } };
}

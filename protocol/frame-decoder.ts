// SLIP frame bytes -> checked Envelopes. Bad frames are dropped and counted, never thrown
// and never emitted as 'error' (docs/architecture.md rule 6): a serial line carries noise, partial
// frames after a reconnect, and peers of other versions. SLIP unescaping (`Unslip` below)
// keeps the exact behaviour of serialport's SlipDecoder (@serialport/parser-slip-encoder),
// which this file drove before: that one copied its whole buffer for every byte it
// appended (~8 µs per 30-byte frame, 6% of a busy host's CPU); this one appends in place.
// What this file adds for a hostile line:
//  - a bound: bytes are unescaped in small slices and a frame growing past MAX_FRAME_BYTES
//    is cut off and counted as oversized when its END finally comes;
//  - END always ends a frame: RFC 1055's reference receiver stores an END that follows ESC
//    as data, which lets garbage ending in ESC swallow the next frame's boundary. ESC END
//    never occurs in a valid frame, so we drop the frame in progress and resynchronise.
import { Transform, type TransformCallback } from 'node:stream';
import { decodeEnvelope, type Envelope } from './codec.ts';
import { CRC_BYTES, crc16 } from './crc.ts';
import { FRAME_OVERHEAD_BYTES, MAX_FRAME_BYTES, PROTOCOL_MAJOR, SLIP_END, SLIP_ESC, SLIP_ESC_END, SLIP_ESC_ESC } from './frame-format.ts';

export type DropReason = 'runt' | 'badCrc' | 'badEscape' | 'oversized' | 'badVersion' | 'undecodable' | 'invalid';

/** A frame that was dropped, for logs and for the session (which Nacks `badVersion`/`invalid`). */
export interface DroppedFrame {
  readonly reason: DropReason;
  readonly detail: string;
  /** Frame length before SLIP escaping (for oversized: at least this long). */
  readonly bytes: number;
  /** badVersion: the version byte seen. */
  readonly version?: number;
  /** invalid: the seq of the envelope that failed validation. */
  readonly seq?: number;
}

export interface FrameCounters {
  /** Good frames delivered. */
  frames: number;
  /** END END: the normal gap between frames that each start with END; not an error. */
  empty: number;
  /** 1–2 bytes: too short to hold a version and a CRC. */
  runt: number;
  badCrc: number;
  badEscape: number;
  oversized: number;
  badVersion: number;
  /** CRC good, but the payload is not a protobuf Envelope. */
  undecodable: number;
  /** A protobuf Envelope that fails validation (envelope-validation.ts). */
  invalid: number;
}

export function newFrameCounters(): FrameCounters {
  return { frames: 0, empty: 0, runt: 0, badCrc: 0, badEscape: 0, oversized: 0, badVersion: 0, undecodable: 0, invalid: 0 };
}

export type FrameResult = { ok: true; envelope: Envelope } | { ok: false; dropped: DroppedFrame };

/** Checks one unescaped frame (version + envelope + CRC). Never throws. */
export function parseFrame(content: Uint8Array, maxFrameBytes: number = MAX_FRAME_BYTES): FrameResult {
  const bytes = content.length;
  if (bytes > maxFrameBytes) {
    return { ok: false, dropped: { reason: 'oversized', bytes, detail: `${bytes} bytes, at most ${maxFrameBytes}` } };
  }
  if (bytes < FRAME_OVERHEAD_BYTES) {
    return { ok: false, dropped: { reason: 'runt', bytes, detail: `${bytes} bytes cannot hold a version and a CRC` } };
  }
  const body = content.subarray(0, bytes - CRC_BYTES);
  const expected = crc16(body);
  const got = (content[bytes - 2] << 8) | content[bytes - 1];
  if (got !== expected) {
    const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
    return { ok: false, dropped: { reason: 'badCrc', bytes, detail: `CRC ${hex(got)}, computed ${hex(expected)}` } };
  }
  const version = content[0];
  if (version !== PROTOCOL_MAJOR) {
    return {
      ok: false,
      dropped: { reason: 'badVersion', bytes, version, detail: `protocol major ${version}, this side speaks ${PROTOCOL_MAJOR}` },
    };
  }
  const decoded = decodeEnvelope(body.subarray(1));
  if (decoded.ok) return decoded;
  if (decoded.seq === undefined) return { ok: false, dropped: { reason: 'undecodable', bytes, detail: decoded.error } };
  return { ok: false, dropped: { reason: 'invalid', bytes, seq: decoded.seq, detail: decoded.error } };
}

/** Bytes unescaped between size checks: memory stays within MAX_FRAME_BYTES + SLICE. */
const SLICE_BYTES = 64;

/**
 * RFC 1055 unescaping, byte for byte what serialport's SlipDecoder does (with no START byte):
 * END ends the frame (an empty one too); ESC ESC_END and ESC ESC_ESC are END and ESC; ESC
 * followed by any other byte ends the frame held so far and that byte begins the next. Each
 * frame is handed over as a view of the buffer, valid only during the call: the frame parser
 * checks it and decodes it at once (decodeEnvelope decodes from a copy of its own), and a copy
 * here as well was 2% of what a hall's host allocated (docs/benchmarks.md).
 */
export class Unslip {
  buffer: Uint8Array;
  length = 0;
  escape = false;

  /** `capacity`: the buffer's first size; it doubles when a frame outgrows it. */
  constructor(
    private readonly frameEnded: (frame: Uint8Array) => void,
    capacity = 256,
  ) {
    this.buffer = new Uint8Array(capacity);
  }

  transform(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      let byte = bytes[i];
      if (this.escape) {
        if (byte === SLIP_ESC_ESC) byte = SLIP_ESC;
        else if (byte === SLIP_ESC_END) byte = SLIP_END;
        else {
          this.escape = false;
          this.end();
        }
      } else if (byte === SLIP_ESC) {
        this.escape = true;
        continue;
      } else if (byte === SLIP_END) {
        this.end();
        continue;
      }
      this.escape = false;
      if (this.length === this.buffer.length) {
        const grown = new Uint8Array(this.buffer.length * 2);
        grown.set(this.buffer);
        this.buffer = grown;
      }
      this.buffer[this.length++] = byte;
    }
  }

  /** Forgets the frame in progress (and an ESC pending). */
  reset(): void {
    this.length = 0;
    this.escape = false;
  }

  private end(): void {
    const frame = this.buffer.subarray(0, this.length);
    this.reset();
    this.frameEnded(frame);
  }
}

export interface FrameParserOptions {
  maxFrameBytes?: number;
  /** Told about every dropped frame (not about empty ones). */
  onDropped?: (dropped: DroppedFrame) => void;
}

/** Push-style decoder: bytes in (any chunking), checked envelopes out. Never throws. */
export class FrameParser {
  readonly counters: FrameCounters = newFrameCounters();
  private readonly slip: Unslip;
  private readonly maxFrameBytes: number;
  private readonly onDropped?: (dropped: DroppedFrame) => void;
  private out: Envelope[] = [];
  /** The frame in progress outgrew the maximum; drop what Unslip emits at its END. */
  private discarding = false;
  private discardedBytes = 0;

  constructor(options: FrameParserOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.onDropped = options.onDropped;
    // Sized for the largest frame plus one slice, so it never grows: bound() cuts it there.
    this.slip = new Unslip((frame) => this.frameEnded(frame), this.maxFrameBytes + SLICE_BYTES);
  }

  /** Feeds bytes; returns the envelopes completed by them, in order. */
  push(chunk: Uint8Array): Envelope[] {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buf.length) {
      const end = buf.indexOf(SLIP_END, start);
      const stop = end === -1 ? buf.length : end;
      for (let i = start; i < stop; i += SLICE_BYTES) {
        this.feed(buf.subarray(i, Math.min(stop, i + SLICE_BYTES)));
        this.bound();
      }
      if (end === -1) break;
      if (this.slip.escape) {
        // ESC END: not a valid SLIP sequence; end the frame here (see the file header).
        const held = this.slip.length;
        this.slip.reset();
        if (this.discarding) this.frameEnded(new Uint8Array(held));
        else this.drop({ reason: 'badEscape', bytes: held, detail: 'ESC followed by END' });
      } else {
        this.feed(buf.subarray(end, end + 1));
      }
      start = end + 1;
    }
    const out = this.out;
    this.out = [];
    return out;
  }

  private feed(bytes: Uint8Array): void {
    this.slip.transform(bytes);
  }

  private bound(): void {
    const held = this.slip.length;
    if (held > this.maxFrameBytes) {
      this.discarding = true;
      this.discardedBytes += held;
      this.slip.length = 0;
    }
  }

  private frameEnded(frame: Uint8Array): void {
    if (this.discarding) {
      const bytes = this.discardedBytes + frame.length;
      this.discarding = false;
      this.discardedBytes = 0;
      this.drop({ reason: 'oversized', bytes, detail: `${bytes} bytes, at most ${this.maxFrameBytes}` });
      return;
    }
    if (frame.length === 0) {
      this.counters.empty++;
      return;
    }
    const result = parseFrame(frame, this.maxFrameBytes);
    if (result.ok) {
      this.counters.frames++;
      this.out.push(result.envelope);
    } else {
      this.drop(result.dropped);
    }
  }

  private drop(dropped: DroppedFrame): void {
    this.counters[dropped.reason]++;
    this.onDropped?.(dropped);
  }
}

/**
 * Bytes in, object-mode Envelopes out. Dropped frames are counted in `counters` and
 * reported as 'dropped' events (DroppedFrame); the stream never errors on bad bytes.
 */
export class FrameDecoder extends Transform {
  private readonly parser: FrameParser;

  constructor(options: Omit<FrameParserOptions, 'onDropped'> = {}) {
    super({ readableObjectMode: true });
    this.parser = new FrameParser({ ...options, onDropped: (d) => this.emit('dropped', d) });
  }

  get counters(): Readonly<FrameCounters> {
    return this.parser.counters;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, cb: TransformCallback): void {
    for (const env of this.parser.push(chunk)) this.push(env);
    cb();
  }
}

// Envelope -> SLIP frame bytes. SLIP escaping is serialport's own SlipEncoder
// (@serialport/parser-slip-encoder) with `bluetoothQuirk`, which is its name for the
// leading END that RFC 1055 recommends.
import { Transform, type TransformCallback } from 'node:stream';
import { SlipEncoder } from '@serialport/parser-slip-encoder';
import { encodeEnvelope, envelope, type Envelope, type EnvelopeInit } from './codec.ts';
import { CRC_BYTES, crc16 } from './crc.ts';
import { MAX_FRAME_BYTES, PROTOCOL_MAJOR } from './frame-format.ts';

export class FrameTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`frame of ${bytes} bytes exceeds the ${MAX_FRAME_BYTES}-byte maximum (shorten the text fields)`);
    this.name = 'FrameTooLargeError';
  }
}

/** version + envelope + CRC-16/CCITT-FALSE (big-endian), before SLIP escaping. */
export function frameContent(env: Envelope, version: number = PROTOCOL_MAJOR): Uint8Array {
  const payload = encodeEnvelope(env);
  const size = 1 + payload.length + CRC_BYTES;
  if (size > MAX_FRAME_BYTES) throw new FrameTooLargeError(size);
  const out = new Uint8Array(size);
  out[0] = version;
  out.set(payload, 1);
  // The CRC covers the version byte too: a corrupted version is a corrupted frame.
  const crc = crc16(out.subarray(0, size - CRC_BYTES));
  out[size - 2] = crc >> 8;
  out[size - 1] = crc & 0xff;
  return out;
}

/** Whether `env` fits one frame (MAX_FRAME_BYTES before escaping): what frameContent would take. */
export function fitsOneFrame(env: Envelope): boolean {
  return 1 + encodeEnvelope(env).length + CRC_BYTES <= MAX_FRAME_BYTES;
}

/**
 * A message carrying a ClockSnapshot (Held, Restore) that fits one frame, sequenced and
 * acknowledged at the worst (seq and ack at their uint32 maximum): `body(presses)` makes it with
 * the snapshot's newest `presses` undo records. When the whole snapshot does not fit (a corrected
 * control of many stages: docs/protocol.md "Restore"), the oldest presses are left out one by
 * one; null when it does not fit even without any.
 */
export function fittingSnapshotBody<B extends EnvelopeInit['body']>(presses: number, body: (presses: number) => B): B | null {
  for (let n = presses; n >= 0; n--) {
    const b = body(n);
    if (fitsOneFrame(envelope({ seq: 0xffffffff, ack: 0xffffffff, body: b } as EnvelopeInit))) return b;
  }
  return null;
}

const SLIP_OPTIONS = { bluetoothQuirk: true } as const;
const slip = new SlipEncoder(SLIP_OPTIONS);

/** RFC 1055 SLIP: END + content with END/ESC escaped + END. */
export function slipEncode(content: Uint8Array): Uint8Array {
  let out: Uint8Array | undefined;
  // SlipEncoder#_transform is synchronous and calls back with the whole escaped frame;
  // calling it directly reuses serialport's implementation without a stream round trip.
  slip._transform(Buffer.from(content.buffer, content.byteOffset, content.byteLength), 'buffer' as BufferEncoding, (err, data) => {
    if (err) throw err;
    out = data as Buffer;
  });
  if (out === undefined) throw new Error('SlipEncoder did not produce a frame');
  return out;
}

/** The bytes to put on the line for one envelope. Throws on an invalid or oversized envelope. */
export function encodeFrame(env: Envelope): Uint8Array {
  return slipEncode(frameContent(env));
}

/**
 * Object-mode Envelopes in, SLIP frame bytes out (one chunk per frame). An invalid envelope
 * is a programming error: it fails the stream with InvalidEnvelopeError/FrameTooLargeError.
 * Callers that must not fail the stream validate first with encodeFrame().
 */
export class FrameEncoder extends Transform {
  constructor() {
    super({ writableObjectMode: true });
  }

  override _transform(env: Envelope, _encoding: BufferEncoding, cb: TransformCallback): void {
    let bytes: Uint8Array;
    try {
      bytes = encodeFrame(env);
    } catch (e) {
      cb(e as Error);
      return;
    }
    cb(null, bytes);
  }
}

// Unslip (protocol/frame-decoder.ts) replaced serialport's SlipDecoder for speed; it
// must cut and unescape every byte stream exactly as SlipDecoder does (RFC 1055 with its
// handling of a bad escape), or the frame counters and the fuzz tests' promises change.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SlipDecoder } from '@serialport/parser-slip-encoder';
import { Unslip } from './frame-decoder.ts';
import { SLIP_END, SLIP_ESC, SLIP_ESC_END, SLIP_ESC_ESC } from './frame-format.ts';

function withSlipDecoder(chunks: Uint8Array[]): number[][] {
  const frames: number[][] = [];
  const d = new SlipDecoder();
  d.push = (frame: unknown): boolean => {
    frames.push([...(frame as Buffer)]);
    return true;
  };
  for (const c of chunks) d._transform(Buffer.from(c), 'binary', () => {});
  return frames;
}

function withUnslip(chunks: Uint8Array[]): number[][] {
  const frames: number[][] = [];
  const u = new Unslip((f) => frames.push([...f]));
  for (const c of chunks) u.transform(c);
  return frames;
}

/** Bytes rich in SLIP's special values, so that escapes, bad escapes and empty frames are common. */
const byte = fc.oneof(fc.constantFrom(SLIP_END, SLIP_ESC, SLIP_ESC_END, SLIP_ESC_ESC), fc.integer({ min: 0, max: 255 }));

describe("Unslip: RFC 1055 unescaping, the same frames as serialport's SlipDecoder", () => {
  it('on random byte streams in random chunks (property, 2,000 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(byte, { maxLength: 40 }).map((a) => Uint8Array.from(a)),
          { maxLength: 20 },
        ),
        (chunks) => {
          expect(withUnslip(chunks)).toEqual(withSlipDecoder(chunks));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('grows past its first buffer: a 1,000-byte frame with escapes comes out whole', () => {
    const payload = Array.from({ length: 1_000 }, (_, i) => (i % 7 === 0 ? SLIP_END : i % 256));
    const wire = payload.flatMap((b) => (b === SLIP_END ? [SLIP_ESC, SLIP_ESC_END] : b === SLIP_ESC ? [SLIP_ESC, SLIP_ESC_ESC] : [b]));
    expect(withUnslip([Uint8Array.from([SLIP_END, ...wire, SLIP_END])])).toEqual([[], payload]);
  });
});

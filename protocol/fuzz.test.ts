// Hostile bytes (docs/architecture.md rule 8, mqtt-packet's testRandom): random input never makes the
// decoder throw and never yields an envelope that fails validation; random valid envelopes
// survive the wire unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope, type Envelope } from './codec.ts';
import { ClockEvent_Kind, ClockStatus, Command_Kind, GameResult, Side } from './gen/chessclock_pb.ts';
import { timeControlFromProto } from './time-control-codec.ts';
import { crc16 } from './crc.ts';
import { envelopeError } from './envelope-validation.ts';
import { FrameParser } from './frame-decoder.ts';
import { encodeFrame, FrameTooLargeError, slipEncode } from './frame-encoder.ts';
import { PROTOCOL_MAJOR } from './frame-format.ts';
import { arbitraryEnvelope } from './fixtures/arbitrary.ts';
import { FIXTURES } from './fixtures/frames.ts';

/**
 * Checks made independently of envelope-validation.ts (which the parser itself uses), so
 * that a parser that skipped validation, or a validator that missed a field, fails here.
 */
function expectSane(env: Envelope): void {
  expect(envelopeError(env)).toBeNull();
  const body = env.body;
  if (body.case === undefined) expect(env.$unknown?.length ?? 0).toBeGreaterThan(0);
  if (body.case === 'clockEvent') {
    const e = body.value;
    expect(ClockEvent_Kind[e.kind]).toBeDefined();
    expect(Side[e.side]).toBeDefined();
    expect(ClockStatus[e.status]).toBeDefined();
    expect(GameResult[e.result]).toBeDefined();
    if (e.kind === ClockEvent_Kind.MOVED) expect(e.side).not.toBe(Side.UNSPECIFIED);
  }
  if (body.case === 'command') {
    expect(Command_Kind[body.value.kind]).toBeDefined();
    expect(body.value.kind).not.toBe(Command_Kind.UNSPECIFIED);
  }
  if (body.case === 'configure') expect(() => timeControlFromProto(body.value)).not.toThrow();
  // What passed must survive its own re-encoding.
  const again = decodeEnvelope(encodeEnvelope(env));
  expect(again).toEqual({ ok: true, envelope: env });
}

const bytes = (max: number) => fc.uint8Array({ maxLength: max });

/** A frame with a correct version and CRC around arbitrary payload bytes: reaches the protobuf layer. */
function wellFramed(payload: Uint8Array): Uint8Array {
  const content = new Uint8Array(payload.length + 3);
  content[0] = PROTOCOL_MAJOR;
  content.set(payload, 1);
  const crc = crc16(content.subarray(0, content.length - 2));
  content[content.length - 2] = crc >> 8;
  content[content.length - 1] = crc & 0xff;
  return slipEncode(content);
}

describe('fuzz: the decoder never throws and lets nothing invalid through (RFC 1055 framing + validation)', () => {
  it('random byte streams, randomly chunked', () => {
    fc.assert(
      fc.property(fc.array(bytes(200), { maxLength: 10 }), (chunks) => {
        const parser = new FrameParser();
        for (const c of chunks) for (const env of parser.push(c)) expectSane(env);
      }),
      { numRuns: 2000 },
    );
  });

  it('random payloads inside correct frames (CRC good): errors are values, survivors are valid', () => {
    fc.assert(
      fc.property(bytes(120), (payload) => {
        const parser = new FrameParser();
        const out = parser.push(wellFramed(payload));
        for (const env of out) expectSane(env);
        const c = parser.counters;
        expect(c.frames + c.undecodable + c.invalid).toBe(1);
      }),
      { numRuns: 5000 },
    );
  });

  it('mutated golden payloads (bytes flipped, cut, inserted) inside correct frames', () => {
    const payloads = FIXTURES.map((f) => {
      // Unescape: drop the ENDs, undo ESC sequences, drop version and CRC.
      const raw: number[] = [];
      for (let i = 1; i < f.bytes.length - 1; i++) {
        const b = f.bytes[i];
        if (b === 0xdb) raw.push(f.bytes[++i] === 0xdc ? 0xc0 : 0xdb);
        else raw.push(b);
      }
      return Uint8Array.from(raw.slice(1, -2));
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...payloads),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'cut', 'insert')), { minLength: 1, maxLength: 4 }),
        (payload, edits) => {
          const p = Array.from(payload);
          for (const [pos, value, op] of edits) {
            const i = p.length === 0 ? 0 : pos % p.length;
            if (op === 'set') p[i] = value;
            else if (op === 'cut') p.splice(i, 1);
            else p.splice(i, 0, value);
          }
          const r = decodeEnvelope(Uint8Array.from(p));
          if (r.ok) expectSane(r.envelope);
          else expect(typeof r.error).toBe('string');
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('decodeEnvelope on arbitrary bytes returns a value, never throws', () => {
    fc.assert(
      fc.property(bytes(300), (b) => {
        const r = decodeEnvelope(b);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 5000 },
    );
  });
});

describe('property: every valid envelope round-trips through encodeFrame and FrameParser', () => {
  it('one at a time and concatenated', () => {
    fc.assert(
      fc.property(fc.array(arbitraryEnvelope, { minLength: 1, maxLength: 5 }), fc.nat({ max: 40 }), (envs, cut) => {
        const frames: Uint8Array[] = [];
        for (const env of envs) {
          try {
            frames.push(encodeFrame(env));
          } catch (e) {
            // Long generated labels can exceed the frame maximum: that refusal is tested elsewhere.
            fc.pre(!(e instanceof FrameTooLargeError));
            throw e;
          }
        }
        const stream = Buffer.concat(frames);
        const at = Math.min(cut, stream.length);
        const parser = new FrameParser();
        const got = [...parser.push(stream.subarray(0, at)), ...parser.push(stream.subarray(at))];
        expect(got).toEqual(envs);
      }),
      { numRuns: 1000 },
    );
  });
});

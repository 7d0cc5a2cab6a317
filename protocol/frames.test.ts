// Golden frames (protocol/fixtures/frames.ts) and hostile bytes around them (ARCHITECTURE
// rule 8): every fixture decoded and re-encoded, split at every position, fed byte by byte,
// surrounded by garbage, corrupted bit by bit.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope, envelope, type Envelope } from './codec.ts';
import { crc16 } from './crc.ts';
import { FrameDecoder, FrameParser, parseFrame, type DroppedFrame } from './frame-decoder.ts';
import { encodeFrame, FrameEncoder, FrameTooLargeError, frameContent, slipEncode } from './frame-encoder.ts';
import { MAX_FRAME_BYTES, SLIP_END, SLIP_ESC } from './frame-format.ts';
import { FIXTURES } from './fixtures/frames.ts';
import { mulberry32 } from './prng.ts';
import { ClockEvent_Kind, Side, type Configure } from './gen/chessclock_pb.ts';

const configureFixture = FIXTURES.find((f) => f.envelope.body.case === 'configure')!.envelope.body.value as Configure;
const FIXTURE_CONTROL = { white: configureFixture.white, black: configureFixture.black };

const bytesOf = (f: { bytes: readonly number[] }) => Uint8Array.from(f.bytes);

/** mqtt-packet's testParseGenerate: bytes -> object and object -> bytes, both exact. */
function testParseGenerate(name: string, env: Envelope, bytes: Uint8Array): void {
  describe(name, () => {
    it('parses to the envelope', () => {
      const parser = new FrameParser();
      expect(parser.push(bytes)).toEqual([env]);
      expect(parser.counters.frames).toBe(1);
    });
    it('generates the bytes', () => {
      expect(Array.from(encodeFrame(env))).toEqual(Array.from(bytes));
    });
  });
}

/** A Configure whose frame content is exactly `size` bytes (padding the text labels). */
function configureOfSize(size: number): Envelope {
  const labels = ['event', 'round', 'board', 'whitePlayer', 'blackPlayer'] as const;
  const make = (extra: number) => {
    const text: Record<string, string> = {};
    for (const l of labels) {
      const n = Math.min(extra, 120);
      extra -= n;
      text[l] = 'x'.repeat(1 + n);
    }
    return envelope({ seq: 1, body: { case: 'configure', value: { gameId: 'g', ...FIXTURE_CONTROL, ...text } } });
  };
  const contentSize = (env: Envelope) => encodeEnvelope(env).length + 3; // + version + CRC
  // Length prefixes grow with the padding (1 byte up to 127, then 2): approach from below.
  let extra = size - contentSize(make(0));
  while (contentSize(make(extra)) > size) extra--;
  return make(extra);
}

function parseAll(chunks: Iterable<Uint8Array>, parser = new FrameParser()): Envelope[] {
  const out: Envelope[] = [];
  for (const c of chunks) out.push(...parser.push(c));
  return out;
}

describe('golden frames, round trip both ways', () => {
  for (const f of FIXTURES) testParseGenerate(f.name, f.envelope, bytesOf(f));

  it('the fixtures cover every body case of the schema', () => {
    const cases = new Set(FIXTURES.map((f) => f.envelope.body.case ?? 'unknown (newer minor)'));
    expect([...cases].sort()).toEqual(
      [
        'ackOnly',
        'clockEvent',
        'command',
        'configure',
        'configureAck',
        'hello',
        'helloAck',
        'nack',
        'status',
        'syncRequest',
        'syncResponse',
        'unknown (newer minor)',
      ].sort(),
    );
  });
});

describe('RFC 1055 SLIP: any chunking gives the same frames', () => {
  for (const f of FIXTURES) {
    it(`${f.name}: split at every byte position`, () => {
      const bytes = bytesOf(f);
      for (let i = 0; i <= bytes.length; i++) {
        expect(parseAll([bytes.subarray(0, i), bytes.subarray(i)]), `split at ${i}`).toEqual([f.envelope]);
      }
    });
    it(`${f.name}: fed byte by byte`, () => {
      const bytes = bytesOf(f);
      expect(parseAll(Array.from(bytes, (b) => Uint8Array.of(b)))).toEqual([f.envelope]);
    });
  }

  it('all fixtures back to back, split at every position of the stream', () => {
    const stream = Uint8Array.from(FIXTURES.flatMap((f) => f.bytes));
    const want = FIXTURES.map((f) => f.envelope);
    for (let i = 0; i <= stream.length; i += 7) {
      expect(parseAll([stream.subarray(0, i), stream.subarray(i)])).toEqual(want);
    }
  });
});

describe('RFC 1055 SLIP: resynchronisation after garbage', () => {
  it('garbage between frames is dropped and counted; every frame still arrives', () => {
    const rand = mulberry32(1055);
    const parts: number[] = [];
    for (let round = 0; round < 20; round++) {
      for (const f of FIXTURES) {
        const junk = Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(rand() * 256));
        parts.push(...junk, ...f.bytes);
      }
    }
    const parser = new FrameParser();
    const got = parseAll([Uint8Array.from(parts)], parser);
    expect(got).toEqual(Array.from({ length: 20 }, () => FIXTURES.map((f) => f.envelope)).flat());
    const c = parser.counters;
    expect(c.frames).toBe(20 * FIXTURES.length);
    // Junk that happens to contain END splits into several dropped frames: at least one each.
    expect(c.runt + c.badCrc + c.badEscape + c.badVersion + c.oversized).toBeGreaterThan(0);
  });

  it('garbage ending in ESC does not swallow the next frame (ESC END ends the frame)', () => {
    const frame = bytesOf(FIXTURES[0]);
    const dropped: DroppedFrame[] = [];
    const parser = new FrameParser({ onDropped: (d) => dropped.push(d) });
    expect(parser.push(Uint8Array.from([0x01, 0x02, SLIP_ESC, ...frame]))).toEqual([FIXTURES[0].envelope]);
    expect(dropped.map((d) => d.reason)).toEqual(['badEscape']);
  });

  it('an invalid escape (ESC then a byte other than ESC_END/ESC_ESC) drops that frame only', () => {
    const parser = new FrameParser();
    const bad = Uint8Array.from([SLIP_END, 0x01, SLIP_ESC, 0x41, 0x08, 0x01, SLIP_END]);
    expect(parseAll([bad, bytesOf(FIXTURES[1])], parser)).toEqual([FIXTURES[1].envelope]);
    expect(parser.counters.frames).toBe(1);
  });

  it(`a frame longer than ${MAX_FRAME_BYTES} bytes is dropped as oversized, memory stays bounded`, () => {
    const parser = new FrameParser();
    const huge = new Uint8Array(100_000).fill(0x55); // no END for 100 kB (a line held at a wrong baud rate)
    const got = parseAll([huge, huge, Uint8Array.of(SLIP_END), bytesOf(FIXTURES[2])], parser);
    expect(got).toEqual([FIXTURES[2].envelope]);
    expect(parser.counters.oversized).toBe(1);
    const slip = (parser as unknown as { slip: { buffer: Uint8Array; length: number } }).slip;
    expect(slip.length).toBeLessThan(MAX_FRAME_BYTES + 64);
    expect(slip.buffer.length).toBeLessThanOrEqual(MAX_FRAME_BYTES + 64);
  });

  it('a frame of exactly MAX_FRAME_BYTES is accepted, one more byte is not', () => {
    const content = frameContent(configureOfSize(MAX_FRAME_BYTES));
    expect(content.length).toBe(MAX_FRAME_BYTES);
    const parser = new FrameParser();
    expect(parser.push(slipEncode(content))).toHaveLength(1);
    const tooBig = new Uint8Array(MAX_FRAME_BYTES + 1);
    expect(parseFrame(tooBig)).toMatchObject({ ok: false, dropped: { reason: 'oversized' } });
    expect(() => encodeFrame(configureOfSize(MAX_FRAME_BYTES + 1))).toThrow(FrameTooLargeError);
  });

  it('runts (1–2 bytes) are dropped and counted; END END (empty) is not an error', () => {
    const parser = new FrameParser();
    parseAll([Uint8Array.of(SLIP_END, SLIP_END, 0x01, SLIP_END, 0x01, 0x02, SLIP_END)], parser);
    expect(parser.counters).toMatchObject({ empty: 2, runt: 2, frames: 0 });
  });
});

describe('CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) guards every frame', () => {
  it('matches the catalogue check value 0x29B1 for "123456789"', () => {
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0x29b1);
  });

  it('every single-bit error in every fixture is detected, and the next frame still arrives', () => {
    for (const f of FIXTURES) {
      const good = bytesOf(f);
      for (let i = 0; i < good.length; i++) {
        for (let bit = 0; bit < 8; bit++) {
          const bad = good.slice();
          bad[i] ^= 1 << bit;
          const parser = new FrameParser();
          const got = parseAll([bad, bytesOf(FIXTURES[0])], parser);
          expect(got, `${f.name}: byte ${i} bit ${bit}`).toEqual([FIXTURES[0].envelope]);
        }
      }
    }
  });

  it('a frame whose CRC is wrong is counted as badCrc with both values in the detail', () => {
    const content = frameContent(FIXTURES[0].envelope);
    content[content.length - 1] ^= 0xff;
    const r = parseFrame(content);
    expect(r).toMatchObject({ ok: false, dropped: { reason: 'badCrc' } });
    if (!r.ok) expect(r.dropped.detail).toMatch(/^CRC 0x[0-9a-f]{4}, computed 0x[0-9a-f]{4}$/);
  });
});

describe('versions and validation', () => {
  it('a frame of another major version is dropped unparsed and reported with its version', () => {
    const dropped: DroppedFrame[] = [];
    const parser = new FrameParser({ onDropped: (d) => dropped.push(d) });
    const v2 = slipEncode(frameContent(FIXTURES[0].envelope, 2));
    expect(parser.push(v2)).toEqual([]);
    expect(parser.counters.badVersion).toBe(1);
    expect(dropped).toEqual([expect.objectContaining({ reason: 'badVersion', version: 2 })]);
  });

  it('a well-framed envelope that fails validation is reported with its seq (for a Nack)', () => {
    // Envelope{seq 9, clock_event{side 1, kind 42}} with a correct CRC.
    const payload = [0x01, 0x08, 0x09, 0x1a, 0x04, 0x10, 0x01, 0x08, 0x2a];
    const crc = crc16(Uint8Array.from(payload));
    const dropped: DroppedFrame[] = [];
    const parser = new FrameParser({ onDropped: (d) => dropped.push(d) });
    expect(parser.push(slipEncode(Uint8Array.from([...payload, crc >> 8, crc & 0xff])))).toEqual([]);
    expect(parser.counters.invalid).toBe(1);
    expect(dropped[0]).toMatchObject({ reason: 'invalid', seq: 9, detail: 'invalid envelope: clock_event.kind: 42 is not a known Kind' });
  });

  it('a good CRC over bytes that are not protobuf is counted as undecodable', () => {
    const payload = [0x01, 0x0a, 0xff]; // field 1 as length-delimited with a length running off the end
    const crc = crc16(Uint8Array.from(payload));
    const parser = new FrameParser();
    parser.push(slipEncode(Uint8Array.from([...payload, crc >> 8, crc & 0xff])));
    expect(parser.counters.undecodable).toBe(1);
  });

  it('encodeFrame refuses a frame over the maximum instead of sending what the clock would drop', () => {
    expect(() => encodeFrame(configureOfSize(MAX_FRAME_BYTES + 40))).toThrow(
      `frame of ${MAX_FRAME_BYTES + 40} bytes exceeds the ${MAX_FRAME_BYTES}-byte maximum`,
    );
  });
});

describe('FrameEncoder / FrameDecoder streams', () => {
  it('carry every fixture through a pipe in order, in arbitrary chunks', async () => {
    const encoder = new FrameEncoder();
    const decoder = new FrameDecoder();
    const got: Envelope[] = [];
    const wire: Buffer[] = [];
    encoder.on('data', (b: Buffer) => wire.push(b));
    await pipeline(Readable.from(FIXTURES.map((f) => f.envelope)), encoder);
    // Re-chunk the encoded bytes in 5-byte pieces, as a serial port might deliver them.
    const all = Buffer.concat(wire);
    const chunks = Array.from({ length: Math.ceil(all.length / 5) }, (_, i) => all.subarray(i * 5, i * 5 + 5));
    decoder.on('data', (e: Envelope) => got.push(e));
    await pipeline(Readable.from(chunks), decoder);
    expect(got).toEqual(FIXTURES.map((f) => f.envelope));
    expect(decoder.counters.frames).toBe(FIXTURES.length);
  });

  it('the decoder never emits error on garbage; it emits dropped', async () => {
    const decoder = new FrameDecoder();
    const dropped: DroppedFrame[] = [];
    decoder.on('dropped', (d: DroppedFrame) => dropped.push(d));
    decoder.on('data', () => {});
    const rand = mulberry32(7);
    const junk = Buffer.from(Array.from({ length: 5000 }, () => Math.floor(rand() * 256)));
    await pipeline(Readable.from([junk]), decoder);
    expect(decoder.counters.frames).toBe(0);
    expect(dropped.length).toBeGreaterThan(0);
  });

  it('the encoder fails the stream on an invalid envelope (a programming error)', async () => {
    const bad = envelope({ seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.MOVED, side: Side.UNSPECIFIED } } });
    await expect(
      pipeline(Readable.from([bad]), new FrameEncoder(), async (src: AsyncIterable<unknown>) => {
        for await (const _ of src);
      }),
    ).rejects.toThrow('clock_event.side: required for a moved event');
  });
});

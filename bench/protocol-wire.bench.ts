// Protocol wire figures (docs/benchmarks.md "Protocol — wire"):
//  - encode, decode and encode+decode throughput of moved events through encodeFrame and
//    FrameParser (SLIP + CRC-16 + protobuf + validation), messages/s;
//  - bytes per moved event on the wire: the worst realistic case and the distribution over
//    random realistic events (seq ≤ 16383, 7 h clock, move ≤ 200, 2 h each), and what that
//    means at 115200 baud (11,520 bytes/s with 8N1).
import { performance } from 'node:perf_hooks';
import { envelope, type Envelope } from '../protocol/codec.ts';
import { FrameParser } from '../protocol/frame-decoder.ts';
import { encodeFrame, frameContent } from '../protocol/frame-encoder.ts';
import { ClockEvent_Kind, Side } from '../protocol/gen/chessclock_pb.ts';

const EVENTS = 200_000;
const LINE_BYTES_PER_S = 115_200 / 10; // 8N1: 10 bits per byte

/** Deterministic realistic moved events (LCG), the same ranges as the size-budget test. */
function movedEvents(n: number): Envelope[] {
  let seed = 20240611;
  const rand = (max: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return Math.floor((seed / 2 ** 32) * (max + 1));
  };
  return Array.from({ length: n }, () =>
    envelope({
      seq: 1 + rand(16382),
      body: {
        case: 'clockEvent',
        value: {
          kind: ClockEvent_Kind.MOVED,
          side: rand(1) ? Side.BLACK : Side.WHITE,
          atMs: rand(25_200_000),
          moveNumber: 1 + rand(199),
          whiteMs: rand(7_200_000),
          blackMs: rand(7_200_000),
        },
      },
    }),
  );
}

function rate(count: number, ms: number): string {
  return `${Math.round(count / (ms / 1000)).toLocaleString('en-US')} msg/s`;
}

export async function run(): Promise<void> {
  const events = movedEvents(EVENTS);
  // Warm-up, so the JIT has compiled both paths before timing.
  const warm = new FrameParser();
  for (const e of events.slice(0, 20_000)) warm.push(encodeFrame(e));

  let t0 = performance.now();
  const frames = events.map((e) => encodeFrame(e));
  const encodeMs = performance.now() - t0;

  const stream = Buffer.concat(frames);
  const chunks: Buffer[] = [];
  for (let i = 0; i < stream.length; i += 64) chunks.push(stream.subarray(i, i + 64)); // serial-port-sized reads
  const parser = new FrameParser();
  let decoded = 0;
  t0 = performance.now();
  for (const c of chunks) decoded += parser.push(c).length;
  const decodeMs = performance.now() - t0;
  if (decoded !== EVENTS) throw new Error(`decoded ${decoded} of ${EVENTS}`);

  const sizes = frames.map((f) => f.length).sort((a, b) => a - b);
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  const over = sizes.filter((n) => n > 32).length;
  const worst = envelope({
    seq: 16383,
    body: {
      case: 'clockEvent',
      value: { kind: ClockEvent_Kind.MOVED, side: Side.BLACK, atMs: 25_200_000, moveNumber: 200, whiteMs: 7_200_000, blackMs: 7_200_000 },
    },
  });

  console.log(`moved events: ${EVENTS.toLocaleString('en-US')} realistic, random values`);
  console.log(`encode (encodeFrame: validate + protobuf + CRC + SLIP)   ${rate(EVENTS, encodeMs)}`);
  console.log(`decode (FrameParser: SLIP + CRC + protobuf + validate)   ${rate(EVENTS, decodeMs)}`);
  console.log(`encode+decode                                            ${rate(EVENTS, encodeMs + decodeMs)}`);
  console.log(
    `bytes per moved event, worst realistic values            ${encodeFrame(worst).length} on the wire (${frameContent(worst).length + 2} before escaping)`,
  );
  console.log(
    `bytes per moved event, random realistic                  mean ${mean.toFixed(2)}, median ${sizes[sizes.length >> 1]}, max ${sizes[sizes.length - 1]}, over 32: ${((100 * over) / sizes.length).toFixed(3)} %`,
  );
  console.log(
    `physical limit at 115200 baud 8N1 (11,520 B/s)           ${Math.floor(LINE_BYTES_PER_S / mean)} moved events/s at the mean size, ${Math.floor(LINE_BYTES_PER_S / 32)} at 32 bytes`,
  );
}

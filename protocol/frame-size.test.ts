// The size requirement: a `moved` event is at most 32 bytes on the wire, framing
// and CRC included (docs/protocol.md, "Size budget"). Before SLIP escaping the worst
// realistic case is 30 bytes; each 0xC0/0xDB byte inside the frame costs one more (RFC 1055),
// which the remaining 2 bytes absorb. bench/protocol-wire.bench.ts prints the distribution.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelope } from './codec.ts';
import { encodeFrame, fittingSnapshotBody, frameContent, FrameTooLargeError } from './frame-encoder.ts';
import { MAX_FRAME_BYTES, SLIP_END, SLIP_ESC } from './frame-format.ts';
import { MAX_SNAPSHOT_UNDO } from './envelope-validation.ts';
import { realisticMoved } from './fixtures/arbitrary.ts';
import { ClockEvent_Kind, ClockStatus, GameResult, IllegalRecord, Side } from './gen/chessclock_pb.ts';
import { MAX_STAGES, timeControlToWire } from './time-control-codec.ts';
import { readTimeControlSpec } from './time-control.ts';

const WIRE_BUDGET = 32;
const UNESCAPED_BUDGET = 30;

const moved = (seq: number, ack: number) =>
  envelope({
    seq,
    ack,
    body: {
      case: 'clockEvent',
      value: { kind: ClockEvent_Kind.MOVED, side: Side.BLACK, atMs: 25_200_000, moveNumber: 200, whiteMs: 7_200_000, blackMs: 7_200_000 },
    },
  });

describe('size budget of a moved event (docs/protocol.md "Size budget": ≤ 32 bytes on the wire incl. SLIP END, version, CRC)', () => {
  it('worst realistic values (seq 16383, 7 h clock, move 200, 2 h each): 30 bytes on the wire', () => {
    const wire = encodeFrame(moved(16383, 0));
    // END + version + seq 3 + body header 2 + side 2 + at 5 + move 3 + white 5 + black 5 + CRC 2 + END
    expect(wire.length).toBe(1 + 1 + 3 + 2 + 2 + 5 + 3 + 5 + 5 + 2 + 1);
    expect(wire.length).toBeLessThanOrEqual(WIRE_BUDGET);
  });

  it('a piggybacked ack ≤ 127 takes the 2 spare bytes (32); the session sends ack only when it advanced', () => {
    expect(frameContent(moved(16383, 127)).length + 2).toBe(WIRE_BUDGET);
  });

  it('property: every realistic moved event is ≤ 30 bytes before escaping, + 1 per escaped byte on the wire', () => {
    fc.assert(
      fc.property(realisticMoved, (env) => {
        const content = frameContent(env);
        expect(content.length + 2).toBeLessThanOrEqual(UNESCAPED_BUDGET);
        const escapes = content.filter((b) => b === SLIP_END || b === SLIP_ESC).length;
        expect(encodeFrame(env).length).toBe(content.length + 2 + escapes);
      }),
      { numRuns: 5000 },
    );
  });

  it('seeded sample of 20,000 realistic moved events: ≥ 99.9 % within 32 bytes, none over 34', () => {
    // Measured, not assumed: SLIP cannot bound escapes, so the budget holds statistically.
    const sizes = fc.sample(realisticMoved, { numRuns: 20_000, seed: 1055 }).map((env) => encodeFrame(env).length);
    const over = sizes.filter((n) => n > WIRE_BUDGET).length;
    expect(over / sizes.length).toBeLessThan(0.001);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WIRE_BUDGET + 2);
  });
});

describe('a Restore fits one frame (docs/protocol.md "Restore": at most 4 annulable presses, 2 with a corrected control)', () => {
  // Every field at its worst for a game under 74 hours: durations up to 2^28 − 1 ms (a 4-byte
  // varint), counts up to 16,383 (2 bytes), the arbiter's changes down to −2^27 ms, periods up to
  // MAX_STAGES − 1 (a period is a stage of the control), seq and ack at their uint32 maximum.
  const big = 2 ** 28 - 1;
  const count = 16_383;
  const period = MAX_STAGES - 1;
  const side = {
    creditedMs: big,
    chargedMs: big,
    moves: count,
    period,
    creditedPeriod: period,
    present: true,
    forfeited: true,
    illegalMoves: count,
    arbiterMs: -(2 ** 27),
    illegalOpen: IllegalRecord.PENALTY,
  };
  const undo = () => ({
    turn: Side.BLACK,
    turnActiveMs: big,
    turnPeriod: period,
    turnExtraDelayMs: big,
    flag: Side.BLACK,
    white: side,
    black: side,
    agoMs: big,
  });
  const snapshot = (presses: number, control?: ReturnType<typeof timeControlToWire>) => ({
    status: ClockStatus.FORFEITED,
    turn: Side.BLACK,
    white: side,
    black: side,
    turnActiveMs: big,
    turnPeriod: period,
    turnExtraDelayMs: big,
    extraDelayMs: big,
    flag: Side.BLACK,
    started: true,
    sinceStartMs: big,
    extraIncrementMs: big,
    result: GameResult.DOUBLE_FORFEIT,
    undo: Array.from({ length: presses }, undo),
    ...(control ? { control } : {}),
  });
  /** The frame content of a Restore and of a Held carrying `snap` (the limit is before SLIP escaping: frame-encoder.ts frameContent). */
  const sizes = (snap: ReturnType<typeof snapshot>) =>
    (
      [
        { case: 'restore', value: { gameId: '9'.repeat(20), snapshot: snap } },
        { case: 'held', value: { gameId: '9'.repeat(20), atMs: big, snapshot: snap } },
      ] as const
    ).map((body) => frameContent(envelope({ seq: 0xffffffff, ack: 0xffffffff, body } as Parameters<typeof envelope>[0])).length);

  it('with every field at its worst and 4 undo records (protocol 1.4 fields included), a Restore and a Held are within MAX_FRAME_BYTES', () => {
    for (const n of sizes(snapshot(MAX_SNAPSHOT_UNDO))) expect(n).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  });

  it('FIDE Laws 6.10.2: with a corrected control of up to 3 stages a side, every field at its worst, the 2 undo records a snapshot then carries fit; a third would not', () => {
    // 3 stages a side (FIDE controls have 1–3), each with moves, 100 h base, increment and
    // Bronstein delay, the sides unequal, a default time and the after-move timing.
    const stage = (moves: number | null, s: number) => ({
      ...(moves === null ? {} : { moves }),
      seconds: 359_999 - s,
      increment: 359_999,
      delay: 359_999,
      delayMode: 'bronstein',
    });
    const control = timeControlToWire(
      readTimeControlSpec({
        white: [stage(40, 0), stage(20, 0), stage(null, 0)],
        black: [stage(40, 1), stage(20, 1), stage(null, 1)],
        defaultTime: 359_999,
        incrementTiming: 'after-move',
      }).timeControl,
    );
    // rules/clock-snapshot.ts SNAPSHOT_UNDO_DEPTH_WITH_CONTROL (rules/ may not be imported here): 2.
    for (const n of sizes(snapshot(MAX_SNAPSHOT_UNDO - 2, control))) expect(n).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(() => sizes(snapshot(MAX_SNAPSHOT_UNDO - 1, control))).toThrow(FrameTooLargeError);
  });

  it('a snapshot that does not fit leaves out its oldest presses until it does (fittingSnapshotBody), and is refused when it cannot fit even without any', () => {
    // 8 stages a side (MAX_STAGES), every field at its worst: no room for a single press.
    const stage = (moves: number | null, s: number) => ({
      ...(moves === null ? {} : { moves }),
      seconds: 359_999 - s,
      increment: 359_999,
      delay: 359_999,
      delayMode: 'bronstein',
    });
    const stages = (s: number) => [...Array.from({ length: MAX_STAGES - 1 }, (_, i) => stage(40 + i, s)), stage(null, s)];
    const huge = timeControlToWire(
      readTimeControlSpec({ white: stages(0), black: stages(1), defaultTime: 359_999, incrementTiming: 'after-move' }).timeControl,
    );
    const restore = (snap: ReturnType<typeof snapshot>) => (n: number) => ({
      case: 'restore' as const,
      value: { gameId: '9'.repeat(20), snapshot: { ...snap, undo: snap.undo.slice(0, n) } },
    });
    expect(fittingSnapshotBody(MAX_SNAPSHOT_UNDO, restore(snapshot(MAX_SNAPSHOT_UNDO, huge)))).toBeNull();
    // 5 stages a side: 2 presses do not fit, 1 does; the newest press is the one kept.
    const five = timeControlToWire(
      readTimeControlSpec({
        white: [...stages(0).slice(0, 4), stage(null, 0)],
        black: [...stages(1).slice(0, 4), stage(null, 1)],
        defaultTime: 359_999,
        incrementTiming: 'after-move',
      }).timeControl,
    );
    const snap = {
      ...snapshot(2, five),
      undo: [
        { ...undo(), agoMs: 1 },
        { ...undo(), agoMs: 2 },
      ],
    };
    expect(() => frameContent(envelope({ seq: 0xffffffff, ack: 0xffffffff, body: restore(snap)(2) }))).toThrow(FrameTooLargeError);
    const fitted = fittingSnapshotBody(2, restore(snap))!;
    expect(fitted.value.snapshot.undo.map((u) => u.agoMs)).toEqual([1]);
    expect(frameContent(envelope({ seq: 0xffffffff, ack: 0xffffffff, body: fitted })).length).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    // What fits whole is sent whole.
    expect(fittingSnapshotBody(MAX_SNAPSHOT_UNDO, restore(snapshot(MAX_SNAPSHOT_UNDO)))!.value.snapshot.undo).toHaveLength(MAX_SNAPSHOT_UNDO);
  });
});

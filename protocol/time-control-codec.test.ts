// The time control on the wire must mean exactly what protocol/time-control.ts means, and a
// bad one is refused naming the field (docs/architecture.md rule 10).
import { create } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigureSchema, DelayMode, IncrementTiming } from './gen/chessclock_pb.ts';
import { timeControlFromProto, timeControlToProto, type TimeControlFields } from './time-control-codec.ts';
import { PRESETS, parseJsonTimeControl, parsePgnTimeControl, presetTimeControl, timeControl, TimeControlError } from './time-control.ts';

function fields(init: Partial<Record<keyof TimeControlFields, unknown>>): TimeControlFields {
  return create(ConfigureSchema, init as never);
}

const stage = (moves: number, baseMs: number, extra: Record<string, number> = {}) => ({
  moves,
  baseMs,
  incrementMs: 0,
  delayMs: 0,
  delayMode: DelayMode.SIMPLE,
  ...extra,
});

describe('timeControlToProto / timeControlFromProto', () => {
  for (const name of Object.keys(PRESETS)) {
    it(`preset ${name} round-trips`, () => {
      const tc = presetTimeControl(name, { defaultTime: 1800, incrementTiming: 'after-move' });
      expect(timeControlFromProto(timeControlToProto(tc))).toEqual(tc);
    });
  }

  it('armageddon keeps unequal sides (White 6 min, Black 5 min)', () => {
    const wire = timeControlToProto(presetTimeControl('armageddon'));
    expect(wire.white?.stages[0].baseMs).toBe(360_000);
    expect(wire.black?.stages[0].baseMs).toBe(300_000);
  });

  it('sandclock, Bronstein delay and no default time round-trip', () => {
    const sand = parsePgnTimeControl('*180');
    const delay = parseJsonTimeControl([{ seconds: 300, delay: 5, delayMode: 'bronstein' }]);
    for (const tc of [timeControl(sand, sand), timeControl(delay, delay)]) {
      expect(tc.defaultTimeMs).toBeNull();
      expect(timeControlFromProto(timeControlToProto(tc))).toEqual(tc);
    }
  });

  it('default time 0 (FIDE Laws 6.7.1: must be present at the start) survives as 0, not as "none"', () => {
    const tc = presetTimeControl('rapid', { defaultTime: 0 });
    expect(timeControlToProto(tc).defaultTimeMs).toBe(0);
    expect(timeControlFromProto(timeControlToProto(tc)).defaultTimeMs).toBe(0);
  });

  it('property: any PGN control of 1–3 periods round-trips', () => {
    const period = fc.tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 10_000 }), fc.nat({ max: 60 }));
    fc.assert(
      fc.property(fc.array(period, { minLength: 1, maxLength: 3 }), (periods) => {
        const pgn = periods.map(([m, s, inc], i) => `${i < periods.length - 1 ? `${m}/` : ''}${s}${inc ? `+${inc}` : ''}`).join(':');
        const side = parsePgnTimeControl(pgn);
        const tc = timeControl(side, side);
        expect(timeControlFromProto(timeControlToProto(tc))).toEqual(tc);
      }),
    );
  });
});

describe('timeControlFromProto refuses what time-control.ts would never produce, naming the field', () => {
  const ok = { stages: [stage(0, 60_000)] };
  const cases: Array<[string, Partial<Record<keyof TimeControlFields, unknown>>, string]> = [
    ['missing side', { white: ok }, 'black: missing'],
    ['no stages', { white: { stages: [] }, black: ok }, 'white.stages: at least one stage is needed'],
    ['moves on the last stage', { white: ok, black: { stages: [stage(40, 60_000)] } }, 'black.stages[0].moves: the last stage lasts the rest of the game'],
    [
      'sudden death before the last stage',
      { white: { stages: [stage(0, 60_000), stage(0, 60_000)] }, black: ok },
      'white.stages[0].moves: only the last stage may be sudden death',
    ],
    ['first stage without time', { white: { stages: [stage(0, 0)] }, black: ok }, 'white.stages[0].base_ms: the first stage has no time'],
    ['stage over 100 h', { white: { stages: [stage(0, 360_000_001)] }, black: ok }, 'white.stages[0].base_ms: must be a whole number from 0 to 360000000'],
    ['unknown delay mode', { white: { stages: [stage(0, 60_000, { delayMode: 7 })] }, black: ok }, 'white.stages[0].delay_mode: unknown DelayMode 7'],
    ['sandclock on one side only', { white: { stages: [stage(0, 60_000)], sandclock: true }, black: ok }, 'a sandclock must be used by both sides'],
    [
      'sandclock with increment',
      { white: { stages: [stage(0, 60_000, { incrementMs: 1000 })], sandclock: true }, black: { stages: [stage(0, 60_000)], sandclock: true } },
      'white: a sandclock has exactly one stage',
    ],
    ['unknown increment timing', { white: ok, black: ok, incrementTiming: 5 }, 'increment_timing: unknown IncrementTiming 5'],
    [
      'nine stages',
      { white: { stages: [...Array.from({ length: 8 }, () => stage(10, 60_000)), stage(0, 60_000)] }, black: ok },
      'white.stages: 9 stages, at most 8',
    ],
  ];
  for (const [what, init, message] of cases) {
    it(what, () => {
      expect(() => timeControlFromProto(fields(init))).toThrow(TimeControlError);
      expect(() => timeControlFromProto(fields(init))).toThrow(message);
    });
  }

  it('timeControlToProto refuses a fractional millisecond, naming the field', () => {
    const side = parsePgnTimeControl('300');
    const bad = { ...timeControl(side, side), white: { kind: 'stages' as const, stages: [{ ...side.stages[0], baseMs: 1.5 }] } };
    expect(() => timeControlToProto(bad)).toThrow('white.stages[0].base_ms: must be a whole number');
  });

  it('increment timing maps both ways', () => {
    const side = parsePgnTimeControl('300+2');
    expect(timeControlToProto(timeControl(side, side, { incrementTiming: 'after-move' })).incrementTiming).toBe(IncrementTiming.AFTER_MOVE);
  });
});

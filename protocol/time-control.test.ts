// Tests of the time-control vocabulary against docs/replay.md "setup" (and the PGN standard §9.6.1,
// FIDE Laws A.1/B.1, 7.5.5, A.3). Expected values are written out by hand in milliseconds.

import { describe, expect, it } from 'vitest';
import {
  category,
  formatSideControl,
  formatTimeControl,
  illegalMovePenaltyMs,
  parseFormattedTimeControl,
  parseJsonTimeControl,
  parsePgnTimeControl,
  parseSideControl,
  presetTimeControl,
  timeControl,
  TimeControlError,
  type SideControl,
  type TimeControl,
} from './time-control.ts';

/** A stage written out in ms (the normalised form). */
const st = (moves: number | null, baseMs: number, incrementMs = 0, delayMs = 0, delayMode: 'simple' | 'bronstein' = 'simple') => ({
  moves,
  baseMs,
  incrementMs,
  delayMs,
  delayMode,
});

function expectTcError(fn: () => unknown, ...mentions: string[]) {
  let error: unknown = null;
  try {
    fn();
  } catch (err) {
    error = err;
  }
  expect(error, 'expected a TimeControlError').toBeInstanceOf(TimeControlError);
  for (const m of mentions) expect((error as Error).message).toContain(m);
}

const both = (pgn: string): TimeControl => timeControl(parsePgnTimeControl(pgn), parsePgnTimeControl(pgn));

describe('PGN TimeControl parser (PGN standard §9.6.1; docs/replay.md "setup")', () => {
  it('3600 is sudden death, 3 600 000 ms', () => {
    expect(parsePgnTimeControl('3600')).toEqual({ kind: 'stages', stages: [st(null, 3600000)] });
  });

  it('900+10 is 900 000 ms + 10 000 ms per move', () => {
    expect(parsePgnTimeControl('900+10')).toEqual({ kind: 'stages', stages: [st(null, 900000, 10000)] });
  });

  it('40/5400+30:900+30 is two periods, the last for the rest of the game', () => {
    expect(parsePgnTimeControl('40/5400+30:900+30')).toEqual({
      kind: 'stages',
      stages: [st(40, 5400000, 30000), st(null, 900000, 30000)],
    });
  });

  it('40/7200:20/3600:1800 is three periods (40, then 20 more, then the rest)', () => {
    expect(parsePgnTimeControl('40/7200:20/3600:1800').stages).toEqual([st(40, 7200000), st(20, 3600000), st(null, 1800000)]);
  });

  it('the last period is final — a move count given for it adds nothing', () => {
    const stages = parsePgnTimeControl('40/7200:20/3600:20/1800').stages;
    expect(stages).toHaveLength(3);
    expect(stages[2].baseMs).toBe(1800000);
    // Either normalised away (null) or, if kept, never used to repeat: the parser must not invent a 4th stage.
    expect(stages[2].moves).toBeNull();
  });

  it('*60 is a sandclock of 60 000 ms', () => {
    const sc = parsePgnTimeControl('*60');
    expect(sc.kind).toBe('sandclock');
    expect(sc.stages[0].baseMs).toBe(60000);
  });

  it.each([
    ['?', '?'],
    ['-', '-'],
    ['90m', '90m'],
    ['40/5400+x', 'x'],
    ['40/5400+30:abc', 'abc'],
    ['x/5400', 'x'],
    ['1.5', '1.5'],
    ['-60', '-60'],
    ['*x', 'x'],
    ['900+', '900+'],
  ])('%s is rejected naming the bad token %s', (text, token) => {
    expectTcError(() => parsePgnTimeControl(text), token);
  });

  it('an empty control is rejected', () => {
    expectTcError(() => parsePgnTimeControl(''));
  });

  it('a sudden-death period before the last is malformed and named', () => {
    expectTcError(() => parsePgnTimeControl('3600:40/900'), '3600');
  });

  it('a zero move count is malformed and named', () => {
    expectTcError(() => parsePgnTimeControl('0/5400:900'), '0/5400');
  });
});

describe('JSON stage form (docs/replay.md "setup")', () => {
  it('seconds, increment, delay and delayMode become ms', () => {
    expect(
      parseJsonTimeControl([
        { moves: 40, seconds: 5400, increment: 30 },
        { seconds: 900, increment: 30, delay: 5, delayMode: 'bronstein' },
      ]),
    ).toEqual({ kind: 'stages', stages: [st(40, 5400000, 30000), st(null, 900000, 30000, 5000, 'bronstein')] });
  });

  it('a delay without a mode is a simple delay', () => {
    expect(parseJsonTimeControl([{ seconds: 300, delay: 5 }]).stages[0]).toEqual(st(null, 300000, 0, 5000, 'simple'));
  });

  it.each([
    [[{ seconds: -1 }], 'seconds'],
    [[{ seconds: 1.5 }], 'seconds'],
    [[{}], 'seconds'],
    [[{ seconds: 300, increment: '5' }], 'increment'],
    [[{ seconds: 300, delay: -2 }], 'delay'],
    [[{ seconds: 300, delayMode: 'fischer' }], 'delayMode'],
    [[{ seconds: 300, incremnt: 5 }], 'incremnt'],
    [[{ moves: 0, seconds: 300 }, { seconds: 60 }], 'moves'],
    [[{ seconds: 300 }, { seconds: 60 }], 'moves'],
  ])('%j is rejected naming the field %s', (value, field) => {
    expectTcError(() => parseJsonTimeControl(value), field);
  });

  it('not an array, or an empty one, is rejected', () => {
    expectTcError(() => parseJsonTimeControl({ seconds: 300 }));
    expectTcError(() => parseJsonTimeControl([]));
  });

  it('parseSideControl accepts either written form', () => {
    expect(parseSideControl('900+10')).toEqual(parseSideControl([{ seconds: 900, increment: 10 }]));
  });
});

describe('presets named after the regulations (docs/replay.md "setup", docs/regulations.md)', () => {
  it('classical = 40/5400+30:900+30 for both', () => {
    const tc = presetTimeControl('classical');
    const expected: SideControl = { kind: 'stages', stages: [st(40, 5400000, 30000), st(null, 900000, 30000)] };
    expect(tc.white).toEqual(expected);
    expect(tc.black).toEqual(expected);
  });

  it('rapid = 900+10', () => {
    const tc = presetTimeControl('rapid');
    expect(tc.white.stages).toEqual([st(null, 900000, 10000)]);
    expect(tc.black.stages).toEqual([st(null, 900000, 10000)]);
  });

  it('armageddon = White 360 s, Black 300 s, no increment', () => {
    const tc = presetTimeControl('armageddon');
    expect(tc.white.stages).toEqual([st(null, 360000)]);
    expect(tc.black.stages).toEqual([st(null, 300000)]);
  });

  it('sudden-death-60 = 3600', () => {
    expect(presetTimeControl('sudden-death-60').white.stages).toEqual([st(null, 3600000)]);
  });

  it('defaults — no default time (FIDE default 0 = not set), increment before the move', () => {
    const tc = presetTimeControl('rapid');
    expect(tc.defaultTimeMs).toBeNull();
    expect(tc.incrementTiming).toBe('before-move');
  });

  it('FIDE Laws 6.7.1 / Ivanovo regulation: default time 15 min = 900 000 ms; after-move timing kept', () => {
    const tc = presetTimeControl('sudden-death-60', { defaultTime: 900, incrementTiming: 'after-move' });
    expect(tc.defaultTimeMs).toBe(900000);
    expect(tc.incrementTiming).toBe('after-move');
  });

  it('an unknown preset is rejected by name', () => {
    expectTcError(() => presetTimeControl('bullet'), 'bullet');
  });

  it('a bad default time or increment timing names the field', () => {
    expectTcError(() => presetTimeControl('rapid', { defaultTime: -1 }), 'defaultTime');
    expectTcError(() => presetTimeControl('rapid', { incrementTiming: 'never' as 'after-move' }), 'incrementTiming');
  });
});

describe('category and illegal-move penalty (FIDE Laws A.1, B.1, 7.5.5, A.3.1, B.3)', () => {
  it.each([
    // control, x = base + 60 × increment (s), category
    ['600', 'x = 600 ≤ 600', 'blitz'],
    ['180+2', 'x = 180 + 120 = 300', 'blitz'],
    ['540+1', 'x = 540 + 60 = 600 ≤ 600', 'blitz'],
    ['541+1', 'x = 601', 'rapid'],
    ['601', 'x = 601 > 600', 'rapid'],
    ['900+10', 'x = 900 + 600 = 1 500', 'rapid'],
    ['3599', 'x = 3 599 < 3 600', 'rapid'],
    ['2999+10', 'x = 2 999 + 600 = 3 599', 'rapid'],
    ['3600', 'x = 3 600 ≥ 3 600', 'standard'],
    ['3000+10', 'x = 3 000 + 600 = 3 600', 'standard'],
    ['40/5400+30:900+30', 'x = 5 400 + 1 800 = 7 200 (first stage)', 'standard'],
    ['40/600:3600', 'x = 600 (first stage only)', 'blitz'],
  ])('FIDE Laws A.1/B.1: %s (%s) is %s', (pgn, _why, expected) => {
    expect(category(both(pgn))).toBe(expected);
  });

  it('FIDE Laws A.1: the smaller side decides (White 3600, Black 3599 → rapid; armageddon → blitz)', () => {
    expect(category(timeControl(parsePgnTimeControl('3600'), parsePgnTimeControl('3599')))).toBe('rapid');
    expect(category(presetTimeControl('armageddon'))).toBe('blitz');
  });

  it('FIDE Laws 7.5.5: standard → +2 min = 120 000 ms; A.3.1/B.3: rapid and blitz → +1 min = 60 000 ms', () => {
    expect(illegalMovePenaltyMs(presetTimeControl('classical'))).toBe(120000);
    expect(illegalMovePenaltyMs(presetTimeControl('sudden-death-60'))).toBe(120000);
    expect(illegalMovePenaltyMs(presetTimeControl('rapid'))).toBe(60000);
    expect(illegalMovePenaltyMs(presetTimeControl('armageddon'))).toBe(60000);
    expect(illegalMovePenaltyMs(both('3599'))).toBe(60000);
    expect(illegalMovePenaltyMs(both('3600'))).toBe(120000);
  });
});

describe('formatting (docs/replay.md "setup"; FIDE TRF tag 222 notation for unequal controls)', () => {
  it.each(['3600', '900+10', '40/5400+30:900+30', '40/7200:20/3600:1800', '*60'])('PGN round trip: %s', (pgn) => {
    expect(formatSideControl(parsePgnTimeControl(pgn))).toBe(pgn);
    expect(formatTimeControl(both(pgn))).toBe(pgn);
  });

  it('unequal controls are written W360-B300', () => {
    expect(formatTimeControl(presetTimeControl('armageddon'))).toBe('W360-B300');
    expect(formatTimeControl(timeControl(parsePgnTimeControl('900+10'), parsePgnTimeControl('600+5')))).toBe('W900+10-B600+5');
  });
});

// Periods are the rule book's: rules/periods.test.ts.

describe('the written form of a time control', () => {
  it('reads back formatTimeControl, equal and unequal (W360-B300), with the given default time', () => {
    const arm = presetTimeControl('armageddon');
    expect(parseFormattedTimeControl(formatTimeControl(arm))).toEqual(arm);
    const cl = parseFormattedTimeControl('40/5400+30:900+30', { defaultTime: 1800 });
    expect(cl.white).toEqual(parsePgnTimeControl('40/5400+30:900+30'));
    expect(cl.defaultTimeMs).toBe(1_800_000);
    expect(() => parseFormattedTimeControl('W360-B')).toThrow(TimeControlError);
  });
});

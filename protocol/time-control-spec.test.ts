// The one time-control reader (readTimeControlSpec): every written form a room takes in (a
// tournament file, the API's configure body, a replay setup line, a TRF tag 222, the host's
// `formatTimeControl` form) means the same control, and no form drops the default time or the
// increment timing. Errors name the bad
// token or field (docs/architecture.md rule 10).
import { describe, expect, it } from 'vitest';
import {
  formatTimeControl,
  parsePgnTimeControl,
  presetTimeControl,
  readTimeControlSpec,
  timeControl,
  TimeControlError,
  type TimeControl,
} from './time-control.ts';

const read = (spec: unknown, opts = {}): TimeControl => readTimeControlSpec(spec, opts).timeControl;

function errorOf(fn: () => unknown): TimeControlError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TimeControlError) return err;
    throw err;
  }
  throw new Error('expected a TimeControlError');
}

describe('readTimeControlSpec: every form of the same control reads the same', () => {
  const rapid = presetTimeControl('rapid');
  const armageddon = presetTimeControl('armageddon');
  const side = parsePgnTimeControl('900+10');

  it.each<[string, unknown]>([
    ['a preset name', 'rapid'],
    ['one PGN field', '900+10'],
    ['{ preset }', { preset: 'rapid' }],
    ['{ timeControl: preset }', { timeControl: 'rapid' }],
    ['{ timeControl: PGN }', { timeControl: '900+10' }],
    ['{ timeControl: JSON stages }', { timeControl: [{ seconds: 900, increment: 10 }] }],
    ['{ timeControl: { white, black } }', { timeControl: { white: '900+10', black: [{ seconds: 900, increment: 10 }] } }],
    ['{ white, black }', { white: '900+10', black: '900+10' }],
  ])('15 min + 10 s as %s', (_what, spec) => {
    expect(read(spec)).toEqual(rapid);
  });

  it('unequal controls: W<pgn>-B<pgn> (TRF tag 222, formatTimeControl), { white, black } and the preset agree', () => {
    expect(read('W360-B300')).toEqual(armageddon);
    expect(read({ white: 360, black: '300' })).toEqual(armageddon);
    expect(read(formatTimeControl(armageddon))).toEqual(armageddon);
    expect(read(3600)).toEqual(timeControl(parsePgnTimeControl('3600'), parsePgnTimeControl('3600')));
  });

  it('names the preset when the spec named one (the tournament file keeps it)', () => {
    expect(readTimeControlSpec('classical').preset).toBe('classical');
    expect(readTimeControlSpec({ timeControl: 'armageddon' }).preset).toBe('armageddon');
    expect(readTimeControlSpec('900+10').preset).toBeNull();
  });

  it('keeps incrementTiming and defaultTime in every form (FIDE Laws 6.7.1; the API dropped incrementTiming)', () => {
    const opts = { defaultTime: 900, incrementTiming: 'after-move' };
    const expected = timeControl(side, side, { defaultTime: 900, incrementTiming: 'after-move' });
    for (const control of [
      { preset: 'rapid' },
      { timeControl: '900+10' },
      { timeControl: 'rapid' },
      { white: '900+10', black: '900+10' },
      { timeControl: { white: '900+10', black: '900+10' } },
    ]) {
      expect(read({ ...control, ...opts })).toEqual(expected);
    }
    // A bare string carries neither: the caller's options fill them in.
    expect(read('900+10', { defaultTime: 900, incrementTiming: 'after-move' })).toEqual(expected);
    // Left out: no default time, the increment before the move (FIDE practice).
    expect(read({ timeControl: '900+10' })).toMatchObject({ defaultTimeMs: null, incrementTiming: 'before-move' });
    expect(read({ timeControl: '900+10', defaultTime: null })).toMatchObject({ defaultTimeMs: null });
  });

  it('ignores the fields of its caller (a replay setup line has a "type")', () => {
    expect(read({ type: 'setup', preset: 'rapid' })).toEqual(rapid);
  });
});

describe('readTimeControlSpec: errors name the field or the token (docs/architecture.md rule 10)', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['no form', { defaultTime: 900 }, 'timeControl', /needs "preset", "timeControl", or "white" and "black"/],
    ['two forms', { preset: 'rapid', timeControl: '900+10' }, 'timeControl', /both "preset" and "timeControl"/],
    ['a side and a control', { timeControl: '900+10', black: '300' }, 'black', /both "timeControl" and "black"/],
    ['white without black', { white: '360' }, 'black', /"white" but no "black"/],
    ['black without white', { black: '300' }, 'white', /"black" but no "white"/],
    ['an unknown preset', { preset: 'blitz' }, 'blitz', /unknown preset "blitz"/],
    ['a preset that is not a name', { preset: 5 }, '5', /unknown preset "5"/],
    ['a bad token', { timeControl: '40/5400+x' }, 'x', /bad increment "x"/],
    ['a bad side of an unequal control', 'W360-B3x0', '3x0', /bad seconds "3x0"/],
    ['an unknown field of { white, black }', { timeControl: { white: '60', black: '60', both: '60' } }, 'both', /unknown field "both"/],
    ['a bad increment timing', { preset: 'rapid', incrementTiming: 'sometimes' }, 'incrementTiming', /"incrementTiming" must be "before-move" or "after-move"/],
    ['a default time as text', { preset: 'rapid', defaultTime: '900' }, 'defaultTime', /"defaultTime" must be a whole number of seconds/],
    ['a sandclock for one side', { white: '*300', black: '300' }, 'sandclock', /sandclock must be used by both sides/],
  ])('%s', (_what, spec, token, message) => {
    const err = errorOf(() => readTimeControlSpec(spec));
    expect(err.token).toBe(token);
    expect(err.message).toMatch(message);
  });
});

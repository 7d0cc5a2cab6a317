import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultTimeText, formatClockTime, formatPgnClockTenths, msUntilDisplayChange, renderDigits, renderLcd, type ClockReading } from './display-format.ts';

describe('formatClockTime — rounds up to the shown unit (FIDE equipment standard (b): time available)', () => {
  it.each([
    // h:mm:ss at one hour or more
    [5_430_000, '1:30:30'],
    [3_600_001, '1:00:01'],
    [3_600_000, '1:00:00'],
    [3_599_999, '1:00:00'], // 3599.999 s rounds up to a full hour
    [3_599_001, '1:00:00'],
    [3_599_000, '59:59'],
    // m:ss below one hour
    [60_000, '1:00'],
    [59_001, '1:00'],
    [59_000, '0:59'],
    [20_001, '0:21'],
    [20_000, '0:20'],
    [19_901, '0:20'], // 199.01 tenths rounds up to 20.0 s: still whole seconds
    // tenths below 20 s
    [19_900, '19.9'],
    [19_899, '19.9'],
    [10_000, '10.0'],
    [9_999, '10.0'],
    [1_001, '1.1'],
    [101, '0.2'],
    [100, '0.1'],
    [1, '0.1'], // never 0.0 while time remains
    [0, '0.0'],
    [-5, '0.0'],
    // the 7-character LCD field cannot hold 10:00:00
    [36_000_000, '10h00'],
    [35_999_001, '10h00'],
    [35_999_000, '9:59:59'],
    [36_000_001, '10h01'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatClockTime(ms)).toBe(text);
  });
});

describe('msUntilDisplayChange — the repaint schedule', () => {
  it.each([
    [5_430_000, 1000],
    [5_429_999, 999],
    [3_600_000, 1000],
    [3_599_001, 1], // 1:00:00 → 59:59
    [20_000, 100], // 0:20 → 19.9
    [20_500, 500], // 0:21 → 0:20
    [19_950, 50], // 0:20 → 19.9 at 19 900
    [19_900, 100],
    [1, 1],
    [0, Infinity],
    [36_000_000, 1000], // 10h00 → 9:59:59 at 35 999 000
    [36_060_000, 60_000],
  ])('%i ms → next change in %i ms', (ms, delay) => {
    expect(msUntilDisplayChange(ms)).toBe(delay);
  });

  it('is exactly the first instant the text changes (property, 0 to 11 h)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 11 * 3600_000 }), (ms) => {
        const d = msUntilDisplayChange(ms);
        expect(d).toBeGreaterThan(0);
        expect(formatClockTime(ms - d)).not.toBe(formatClockTime(ms));
        // unchanged one millisecond earlier
        expect(formatClockTime(ms - d + 1)).toBe(formatClockTime(ms));
      }),
      { numRuns: 2000 },
    );
  });
});

const base: ClockReading = {
  status: 'running',
  turn: 'white',
  white: 5_430_000,
  black: 5_430_000,
  moves: { white: 0, black: 0 },
  period: { white: 0, black: 0 },
  flag: null,
  forfeited: { white: false, black: false },
  present: { white: true, black: true },
  illegalMoves: { white: 0, black: 0 },
  forfeitAt: null,
  extraDelayMs: 0,
  extraIncrementMs: 0,
  result: null,
};

describe('renderLcd — 16×2 layout (docs/firmware.md)', () => {
  it('shows both times, the running mark, moves and periods', () => {
    const rows = renderLcd({ ...base, white: 5_399_500, moves: { white: 40, black: 39 }, period: { white: 1, black: 0 } });
    expect(rows).toEqual(['1:30:00* 1:30:30', '#40P2      #39P1']);
    expect(rows.every((r) => r.length === 16)).toBe(true);
  });

  it('keeps the flag mark on the side whose flag fell first (FIDE equipment standard (e))', () => {
    const flagged = renderLcd({ ...base, status: 'flagged', turn: 'black', white: 4000, black: 0, flag: 'black' });
    expect(flagged).toEqual(['    4.0 F0.0    ', '#0 P1 FLAG #0 P1']);
    // after the arbiter adjusted and resumed, the flag mark stays
    const resumed = renderLcd({ ...base, status: 'running', turn: 'black', white: 4000, black: 60_000, flag: 'black' });
    expect(resumed[0]).toBe('    4.0 F1:00   ');
  });

  it('shows pause, forfeit and absence marks (Laws 6.7.1 default time)', () => {
    expect(renderLcd({ ...base, status: 'paused' })[1]).toBe('#0 P1 PAUS #0 P1');
    const lost = renderLcd({
      ...base,
      status: 'forfeited',
      black: 5_430_000,
      forfeited: { white: false, black: true },
      present: { white: true, black: false },
    });
    expect(lost).toEqual(['1:30:30 X1:30:30', '#0 P1 DEFT #0 P1']);
    expect(renderLcd({ ...base, present: { white: true, black: false } })[0]).toBe('1:30:30*?1:30:30');
  });

  it('FIDE Laws 6.7.1: an absent side shows ? and row 1 counts the default time down (DT, rounded up) while the clock stands started', () => {
    const absent = { ...base, moves: { white: 1, black: 0 }, turn: 'black' as const, present: { white: true, black: false }, forfeitAt: 900_000 };
    // Black's clock runs (the * wins over ?); the countdown shows who is missing: `?` on Black's side.
    expect(renderLcd(absent, 28_000)).toEqual(['1:30:30 *1:30:30', '#1  DT 14:32   ?']);
    expect(renderLcd({ ...absent, status: 'paused' }, 899_950)).toEqual(['1:30:30 ?1:30:30', '#1   DT 0.1    ?']);
    // One hour of default time fits the ten middle columns.
    expect(renderLcd({ ...base, present: { white: false, black: true }, forfeitAt: 3_600_000 }, 0)[1]).toBe('?  DT 1:00:00 #0');
    // Without the instant of the reading there is no countdown: the usual row.
    expect(renderLcd(absent)[1]).toBe('#1 P1      #0 P1');
    expect(defaultTimeText(absent, 28_000)).toBe('DT 14:32');
  });

  it('FIDE Laws 7.5.1: the illegal-move count per side (!n) takes the place of the period (which follows from the move count)', () => {
    const rows = renderLcd({ ...base, status: 'paused', moves: { white: 12, black: 11 }, illegalMoves: { white: 1, black: 0 } });
    expect(rows).toEqual(['1:30:30  1:30:30', '#12!1 PAUS #11P1']);
    expect(renderLcd({ ...base, status: 'paused', moves: { white: 2, black: 2 }, illegalMoves: { white: 0, black: 2 } })[1]).toBe('#2 P1 PAUS #2 !2');
    expect(rows.every((r) => r.length === 16)).toBe(true);
  });

  it('FIDE Laws 6.10.2: a gap separates the status from both move fields, also from 100 moves on', () => {
    expect(renderLcd({ ...base, status: 'paused', moves: { white: 2, black: 1 } })[1]).toBe('#2 P1 PAUS #1 P1');
    expect(renderLcd({ ...base, status: 'paused', moves: { white: 120, black: 119 }, period: { white: 2, black: 2 } })[1]).toBe('120P3 PAUS 119P3');
  });
});

describe('renderDigits — 4-digit HT16K33 text (five-slot print form)', () => {
  it.each([
    [5_430_000, ' 1:31'], // 1 h 30 min 30 s rounds up to 1:31 in h:mm
    [3_600_000, ' 1:00'],
    [3_599_000, '59:59'],
    [252_000, ' 4:12'],
    [19_900, ' 1 9.9'],
    [5_300, '   5.3'],
  ])('%i ms → %j', (ms, text) => {
    expect(renderDigits({ ...base, white: ms }, 'white')).toBe(text);
  });

  it('shows FLAG / LATE on the side concerned', () => {
    expect(renderDigits({ ...base, flag: 'white', white: 0 }, 'white')).toBe('FL AG');
    expect(renderDigits({ ...base, forfeited: { white: false, black: true } }, 'black')).toBe('LA TE');
  });
});

describe('formatPgnClockTenths — a broadcast time: h:mm:ss, tenths under a minute, rounded up (docs/broadcast.md "The merged games")', () => {
  it.each([
    [0, '0:00:00.0'],
    [1, '0:00:00.1'],
    [400, '0:00:00.4'],
    [9_450, '0:00:09.5'],
    [52_000, '0:00:52.0'],
    [59_900, '0:00:59.9'],
    // 59 901 ms shows 1:00 on the display; so here.
    [59_901, '0:01:00'],
    [60_000, '0:01:00'],
    [60_001, '0:01:01'],
    [3_599_001, '1:00:00'],
    [-5, '0:00:00.0'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatPgnClockTenths(ms)).toBe(text);
  });
});

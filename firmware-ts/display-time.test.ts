import { describe, expect, it } from 'vitest';
import { formatClockTime } from './display-time.ts';

describe('formatClockTime (FIDE equipment standard: h:mm:ss ≥ 1 h, m:ss below, tenths below 20 s)', () => {
  it.each([
    [5_430_000, '1:30:30'], // 90 min + 30 s: what a DGT clock shows at the start of 90+30
    [3_600_000, '1:00:00'],
    [3_599_999, '59:59'], // truncated, never rounded up
    [60_000, '1:00'],
    [20_000, '0:20'],
    [19_999, '19.9'], // below 20 s: tenths
    [10_050, '10.0'],
    [99, '0.0'],
    [0, '0.0'],
    [-5, '0.0'], // a display never shows negative time
  ])('%i ms shows %s', (ms, shown) => {
    expect(formatClockTime(ms)).toBe(shown);
  });
});

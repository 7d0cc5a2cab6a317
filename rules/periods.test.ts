// Periods, the rule book's one computation of them (rules/clock-core.ts periodEnd,
// periodForMoves; 0-based): FIDE Laws 6.10.1, the move-40 bonus of the Slovenian final's
// classical control. The clock, the host's live state and the exports all read them here.
import { describe, expect, it } from 'vitest';
import { parsePgnTimeControl, timeControl } from '../protocol/time-control.ts';
import { periodEnd, periodForMoves } from './periods.ts';

const both = (pgn: string) => {
  const side = parsePgnTimeControl(pgn);
  return timeControl(side, side);
};

describe('periods (FIDE Laws 6.10.1: the move-40 bonus; classical control of the Slovenian final)', () => {
  const classical = both('40/5400+30:900+30');
  const threeStages = both('40/7200:20/3600:1800');

  it('a side plays the first period until it completes move 40, then the second for the rest of the game', () => {
    expect(periodForMoves(classical, 'white', 0)).toBe(0);
    expect(periodForMoves(classical, 'white', 39)).toBe(0);
    expect(periodForMoves(classical, 'white', 40)).toBe(1);
    expect(periodForMoves(classical, 'black', 140)).toBe(1); // stages never repeat
    expect(periodEnd(classical, 'white', 0)).toBe(40);
    expect(periodEnd(classical, 'white', 1)).toBeNull();
  });

  it('counts cumulative move numbers across stages (40 + 20 = move 60 ends the second period)', () => {
    expect(periodForMoves(threeStages, 'white', 59)).toBe(1);
    expect(periodForMoves(threeStages, 'white', 60)).toBe(2);
    expect(periodEnd(threeStages, 'white', 1)).toBe(60);
    expect(periodEnd(threeStages, 'white', 2)).toBeNull();
  });

  it('sudden death and sandclock have one period', () => {
    expect(periodForMoves(both('900+10'), 'white', 200)).toBe(0);
    expect(periodForMoves(both('*60'), 'black', 30)).toBe(0);
    expect(periodEnd(both('900+10'), 'white', 0)).toBeNull();
  });
});

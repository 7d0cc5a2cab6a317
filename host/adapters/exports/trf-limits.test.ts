// Reading a TRF that grows badly or is cut short (docs/exports.md "Reading a TRF"): long lines
// read in time linear in their length, a line over the cap refused, a 001 line cut before its
// fields (FIDE TRF16, C.04 Annex 2: the 001 record's columns) refused, and an XXR (JaVaFo: the
// total number of rounds) fewer than the rounds the player lines carry refused — each by line
// and columns, never imported with its fields cut.

import { describe, expect, it } from 'vitest';
import { importTrf } from './trf-import.ts';
import { MAX_TRF_LINE, parseTrf, TrfParseError } from './trf-parser.ts';
import { bigTrf, trfPlayerLine as playerLine } from '../../../test/big-inputs.ts';

function parseError(text: string): TrfParseError {
  try {
    parseTrf(text);
  } catch (err) {
    if (err instanceof TrfParseError) return err;
    throw err;
  }
  throw new Error('expected the TRF to be refused');
}

describe('reading a TRF (docs/exports.md "Reading a TRF")', () => {
  it('imports 3,000 round columns of 100 players: each field cut from its line on its own, the scores before a round summed once', () => {
    // Before: every field padded the whole line and every board-order comparison summed the
    // rounds so far; 2,000 rounds of 100 players took over 30 s.
    const event = importTrf(bigTrf(3_000, 100), { id: 'big' });
    expect(event.rounds).toHaveLength(3_000);
    expect(event.rounds[2_999].boards[0]).toEqual({ board: 1, white: 2, black: 1 });
    expect(event.rounds[2_999].boards).toHaveLength(50);
  });

  it(`refuses a line longer than ${MAX_TRF_LINE} characters at its first column too many`, () => {
    const long = `012 ${'x'.repeat(MAX_TRF_LINE)}`;
    const err = parseError(`012 Open\n${long}\n`);
    expect(err.message).toBe(
      `TRF line 2, columns ${MAX_TRF_LINE + 1}-${long.length}: line is ${long.length} characters long; at most ${MAX_TRF_LINE} are read (6,500 rounds of a 001 line)`,
    );
  });

  it('refuses a 001 line cut before the points (TRF16 001: name 15-47 … points 81-84), naming where it ends', () => {
    const cut = playerLine(1, []).slice(0, 30); // inside the name
    expect(parseError(`012 Open\n${cut}\n`).message).toBe(
      'TRF line 2, columns 31-84: player line cut short: it ends at column 30, before the points at columns 81-84 (TRF16 001 record: name 15-47, rating 49-52, … points 81-84)',
    );
    // A line that ends at the points or the rank (no round yet) is whole.
    expect(parseTrf(playerLine(1, []).slice(0, 84)).players[0]).toMatchObject({ rank: 1, name: 'Player, N1', points: 0, rounds: [] });
  });

  it('refuses a round field cut off mid-field (TRF16: 8 columns a round, opponent 92-95, colour 97, result 99)', () => {
    const whole = playerLine(1, ['   2 w 1', '   2 b 1']);
    expect(parseTrf(whole).players[0].rounds).toHaveLength(2);
    const cut = whole.slice(0, 105); // round 2 (102-109) ends after its opponent
    expect(parseError(cut).message).toBe(
      "TRF line 1, columns 106-109: round 2 is cut off: the line ends at column 105, inside the round's field 102-109 (opponent 102-105, colour 107, result 109; a blank result is written as a blank)",
    );
  });

  it('refuses an XXR fewer than the rounds the player lines carry (XXR: the total number of rounds)', () => {
    const err = parseError(bigTrf(7, 2, 5));
    expect(err.message).toBe(
      'TRF line 3, columns 5-: XXR 5 plans 5 rounds, but line 4 carries 7 round fields (round 6 at columns 142-149); XXR is the total number of rounds',
    );
    expect(parseTrf(bigTrf(5, 2, 7)).xxr).toBe(7); // rounds still to come are fine
  });
});

// The one vocabulary (rules/vocabulary.ts): each list is whole and its meanings agree with
// each other, and the clock's own words (rules/clock-core.ts) are a part of it, not a copy.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ClockReading, ClockState } from './clock-state.ts';
import {
  ARBITER_COMMANDS,
  ARBITER_COMMAND_MEANING,
  CLOCK_COMMANDS,
  BOARD_STATUSES,
  BOARD_STATUS_MEANING,
  CLOCK_RESULTS,
  CLOCK_RUN_STATUSES,
  FORFEIT_RESULTS,
  forfeitResultFor,
  GAME_RESULTS,
  isForfeitResult,
  isGameResult,
  listInWords,
  PLAYED_RESULTS,
  RESULT_COMMANDS,
  RESULT_MEANING,
  PGN_RESULT_TOKENS,
  SIDES,
  type BoardStatus,
  type ClockResult,
  type ClockRunStatus,
  type PlayedResult,
} from './vocabulary.ts';

describe('game results: played ones and the forfeit codes, one list', () => {
  it('every result is either played or a forfeit, never both, and has a meaning', () => {
    expect([...PLAYED_RESULTS, ...FORFEIT_RESULTS].sort()).toEqual([...GAME_RESULTS].sort());
    expect(new Set(GAME_RESULTS).size).toBe(GAME_RESULTS.length);
    expect(Object.keys(RESULT_MEANING).sort()).toEqual([...GAME_RESULTS].sort());
    for (const r of GAME_RESULTS) expect(RESULT_MEANING[r].forfeit).toBe((FORFEIT_RESULTS as readonly string[]).includes(r));
  });

  it('PGN standard §8.2.6: a played result is its own PGN token; a forfeit is written as the win it counts as; a double forfeit has no token (docs/exports.md)', () => {
    expect(PGN_RESULT_TOKENS).toEqual(['1-0', '0-1', '1/2-1/2', '*']);
    for (const r of PLAYED_RESULTS) expect(RESULT_MEANING[r].pgn).toBe(r);
    expect(RESULT_MEANING['+-'].pgn).toBe('1-0');
    expect(RESULT_MEANING['-+'].pgn).toBe('0-1');
    // `0-0` is no PGN result: pgn-parser rejects the file, chessops reads it as castling.
    expect(RESULT_MEANING['--'].pgn).toBeNull();
    for (const r of GAME_RESULTS) if (RESULT_MEANING[r].pgn !== null) expect(PGN_RESULT_TOKENS).toContain(RESULT_MEANING[r].pgn);
  });

  it('game points: a played game gives one point in all, a forfeit one to the side that came, a double forfeit none', () => {
    for (const r of PLAYED_RESULTS) expect(RESULT_MEANING[r].points.white + RESULT_MEANING[r].points.black).toBe(1);
    // FIDE Laws 6.7.1: the side that did not come scores 0 and the result names it.
    for (const side of SIDES) {
      const r = forfeitResultFor(side);
      expect(isForfeitResult(r)).toBe(true);
      expect(RESULT_MEANING[r].points[side]).toBe(0);
      expect(RESULT_MEANING[r].points[side === 'white' ? 'black' : 'white']).toBe(1);
    }
    expect(RESULT_MEANING[forfeitResultFor('both')].points).toEqual({ white: 0, black: 0 });
  });

  it('tells a result from anything else', () => {
    for (const r of GAME_RESULTS) expect(isGameResult(r)).toBe(true);
    for (const x of ['1:0', '½-½', '0-0', '*', '', null, 1]) expect(isGameResult(x)).toBe(false);
    expect(isForfeitResult('1-0')).toBe(false);
  });

  it("the clock's results (rules/clock-state.ts) are the played results, in its menu's order, and the double forfeit (FIDE Laws 6.7.1: both absent, both lose)", () => {
    expect(CLOCK_RESULTS).toEqual(['1-0', '1/2-1/2', '0-1', '--']);
    expect(CLOCK_RESULTS.slice(0, 3)).toEqual(PLAYED_RESULTS);
    expect(RESULT_MEANING['--'].points).toEqual({ white: 0, black: 0 });
    expectTypeOf<ClockResult>().toEqualTypeOf<PlayedResult | '--'>();
    expectTypeOf<NonNullable<ClockState['result']>>().toEqualTypeOf<ClockResult>();
    expectTypeOf<NonNullable<ClockReading['result']>>().toEqualTypeOf<ClockResult>();
  });
});

describe('clock statuses and arbiter commands', () => {
  it("a board's statuses (what the host shows) are its clock's run statuses and `finished` (a game with a result)", () => {
    expect(CLOCK_RUN_STATUSES).toEqual(['ready', 'running', 'paused', 'flagged', 'forfeited']);
    expect(BOARD_STATUSES).toEqual([...CLOCK_RUN_STATUSES, 'finished']);
    expect(Object.keys(BOARD_STATUS_MEANING)).toEqual([...BOARD_STATUSES]);
    expectTypeOf<ClockState['status']>().toEqualTypeOf<ClockRunStatus>();
    expectTypeOf<ClockRunStatus>().toEqualTypeOf<Exclude<BoardStatus, 'finished'>>();
  });

  it('every arbiter command either reaches the clock or is a journal fact, and says what it does', () => {
    expect(ARBITER_COMMANDS).toEqual([...CLOCK_COMMANDS, ...RESULT_COMMANDS]);
    expect(new Set(ARBITER_COMMANDS).size).toBe(ARBITER_COMMANDS.length);
    expect(Object.keys(ARBITER_COMMAND_MEANING).sort()).toEqual([...ARBITER_COMMANDS].sort());
  });

  it('lists words for an error message', () => {
    expect(listInWords(FORFEIT_RESULTS)).toBe('+-, -+ or --');
    expect(listInWords(['a'])).toBe('a');
  });
});

// The page's words that are not rules (words.ts, pure): a time of day, points with halves, and a
// result in the rule book's own words (rules/vocabulary.ts RESULT_MEANING, never a copy).
import { describe, expect, it } from 'vitest';
import { GAME_RESULTS, RESULT_MEANING } from '../../../../../rules/vocabulary.ts';
import { hhmm, points, resultText, resultWords } from './words.ts';

describe('words.ts', () => {
  it('a time of day is UTC hours and minutes (the journal stamps UTC)', () => {
    expect(hhmm(Date.UTC(2018, 1, 13, 15, 5, 59, 999))).toBe('15:05 UTC');
    expect(hhmm(Date.UTC(2018, 1, 13, 0, 0))).toBe('00:00 UTC');
  });

  it('points show a half as ½ (FIDE Laws 10.1: a draw scores a half point)', () => {
    expect([0, 0.5, 1, 1.5, 2.5, 4].map(points)).toEqual(['0', '½', '1', '1½', '2½', '4']);
  });

  it("a result is the vocabulary's label, every result of the vocabulary, forfeits included; — for none", () => {
    expect(GAME_RESULTS.map(resultWords)).toEqual(GAME_RESULTS.map((r) => RESULT_MEANING[r].label));
    expect(resultWords(null)).toBe('—');
    // A token the vocabulary does not know is shown as it came, not hidden.
    expect(resultWords('0.5-0.5')).toBe('0.5-0.5');
    // resultText keeps a played result's token, and writes a forfeit in words.
    expect(GAME_RESULTS.filter((r) => resultText(r) !== r)).toEqual(GAME_RESULTS.filter((r) => RESULT_MEANING[r].forfeit));
  });
});

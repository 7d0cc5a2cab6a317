// Words the page writes that are not rules: a time of day, points with halves. Pure.
import { RESULT_MEANING, type GameResult } from '../../../../../rules/vocabulary.ts';

/** "14:05 UTC". */
export const hhmm = (utcMs: number): string => `${new Date(utcMs).toISOString().slice(11, 16)} UTC`;

/** Match or board points: 1.5 → "1½", 0.5 → "½". */
export function points(x: number): string {
  const whole = Math.floor(x);
  return x - whole >= 0.5 ? `${whole || ''}½` : String(whole);
}

/** A result as the dashboard writes it: a played one as its token, a forfeit in the vocabulary's words (`−− (both forfeit)`). */
export function resultText(result: string): string {
  const meaning = RESULT_MEANING[result as GameResult];
  return meaning && meaning.forfeit ? meaning.label : result;
}

/** A result in the rule book's words (`1-0`, `+- (forfeit: White wins)` …); `—` for none. */
export function resultWords(result: string | null): string {
  if (result === null) return '—';
  return RESULT_MEANING[result as GameResult]?.label ?? result;
}

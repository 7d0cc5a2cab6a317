// Small helpers shared by the dashboard's pages (app.js, match-panels.js, captain.js), so each
// is written once. Plain browser JavaScript, served as /page-kit.js; the words come from the rule book.
import { RESULT_MEANING } from './rule-book.js';

/** An element with a class and a text (never HTML: names are shown as typed). */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** "14:05 UTC". */
export const hhmm = (utcMs) => `${new Date(utcMs).toISOString().slice(11, 16)} UTC`;

/** A result in the rule book's words; "—" for none. */
export const resultWords = (r) => (r === null ? '—' : RESULT_MEANING[r] ? RESULT_MEANING[r].label : r);

/** Match or board points: 1.5 → "1½", 0.5 → "½". */
export function points(x) {
  const whole = Math.floor(x);
  return x - whole >= 0.5 ? `${whole || ''}½` : String(whole);
}

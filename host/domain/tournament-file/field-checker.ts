// The tournament file's field reading: a typed read of one field that, when the field is wrong,
// records the problem with its field path (`events[0].players[1].name: missing`) and goes on,
// so that every problem of the file is reported at once (docs/tournament.md "The file").

import { controlCharacterIn } from '../model.ts';

export type Obj = Record<string, unknown>;

/** Collects problems with their paths; readers return undefined after recording a problem. */
export class FieldChecker {
  readonly issues: string[] = [];

  problem(path: string, message: string): undefined {
    this.issues.push(`${path}: ${message}`);
    return undefined;
  }

  object(value: unknown, path: string): Obj | undefined {
    if (value === undefined) return this.problem(path, 'missing');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.problem(path, `must be an object, got ${show(value)}`);
    return value as Obj;
  }

  array(value: unknown, path: string, optional = false): unknown[] | undefined {
    if (value === undefined) return optional ? [] : this.problem(path, 'missing');
    if (!Array.isArray(value)) return this.problem(path, `must be an array, got ${show(value)}`);
    return value;
  }

  string(o: Obj, key: string, path: string, optional = false): string | undefined {
    const v = o[key];
    if (v === undefined || v === null) return optional ? undefined : this.problem(`${path}.${key}`, 'missing');
    if (typeof v !== 'string' || v.trim() === '') return this.problem(`${path}.${key}`, `must be a non-empty string, got ${show(v)}`);
    return this.printable(v, `${path}.${key}`);
  }

  /** Names and texts end up in PGN tags and TRF lines: a control character (a newline) would break them. */
  printable(v: string, path: string): string | undefined {
    const bad = controlCharacterIn(v);
    // Reported, and the value kept: the file is refused, without knock-on problems of a missing player.
    if (bad) this.problem(path, `${show(v)} holds ${bad}; names and texts must be printable (PGN standard §7, TRF16 one record per line)`);
    return v;
  }

  int(o: Obj, key: string, path: string, opts: { optional?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = o[key];
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = opts;
    if (v === undefined || v === null) return opts.optional ? undefined : this.problem(`${path}.${key}`, 'missing');
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      return this.problem(`${path}.${key}`, `must be a whole number from ${min} to ${max}, got ${show(v)}`);
    }
    return v;
  }

  date(o: Obj, key: string, path: string): string | null {
    const v = this.string(o, key, path, true);
    if (v === undefined) return null;
    const m = /^(\d{4})[/-](\d{2})[/-](\d{2})$/.exec(v);
    if (!m) {
      this.problem(`${path}.${key}`, `must be a date YYYY/MM/DD or YYYY-MM-DD, got ${show(v)}`);
      return null;
    }
    if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      this.problem(`${path}.${key}`, `${show(v)} is not a day of the calendar (month 1-12, and a day the month has)`);
      return null;
    }
    return `${m[1]}/${m[2]}/${m[3]}`;
  }

  unknownKeys(o: Obj, known: readonly string[], path: string): void {
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) this.problem(`${path}.${key}`, `unknown field${didYouMean(key, known)} (known: ${known.join(', ')})`);
    }
  }
}

/** A year, month and day that the calendar has (no 31 April, 29 February in leap years only). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * An ISO date-time with an explicit offset or Z: a hall's local time is not the host's to guess.
 * Its date must be a day of the calendar (Date.parse takes 31 February as 3 March).
 */
export function isoUtcMs(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  return m && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) ? Date.parse(text) : NaN;
}

/** ` (did you mean "rapid"?)` when one valid value is a typo away from what was written; else ''. */
export function didYouMean(written: string, valid: Iterable<string>): string {
  const best = closest(written, valid);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

/** The valid value a typo away from what was written (one or two edits, fewer than a third of the word), if one is. */
export function closest(written: string, valid: Iterable<string>): string | undefined {
  const w = written.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const v of valid) {
    if (v === written) return undefined; // valid as written
    // Only the case differs ("h" for the bye code "H"): nearer than any typo of a letter.
    const d = editDistance(w, v.toLowerCase()) || 0.5;
    if (d < bestDistance) [best, bestDistance] = [v, d];
  }
  const allowed = Math.max(1, Math.min(2, Math.floor((best?.length ?? 0) / 3)));
  return best !== undefined && bestDistance > 0 && bestDistance <= allowed ? best : undefined;
}

/** Edit distance: insertions, deletions, substitutions and swaps of two neighbours ("nmae"). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return Number.POSITIVE_INFINITY; // not a typo
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Whole numbers as runs, `1-12, 15, 20-22`; at most 12 runs shown, then `…`. */
export function describeNumbers(values: Iterable<number>): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  if (!sorted.length) return 'none';
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.length > 12 ? `${runs.slice(0, 12).join(', ')}, …` : runs.join(', ');
}

/** A value as the file wrote it, for a problem's message. */
export function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

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
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[3]) < 1 || Number(m[3]) > 31) {
      this.problem(`${path}.${key}`, `must be a date YYYY/MM/DD or YYYY-MM-DD, got ${show(v)}`);
      return null;
    }
    return `${m[1]}/${m[2]}/${m[3]}`;
  }

  unknownKeys(o: Obj, known: readonly string[], path: string): void {
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) this.problem(`${path}.${key}`, `unknown field (known: ${known.join(', ')})`);
    }
  }
}

/** An ISO date-time with an explicit offset or Z: a hall's local time is not the host's to guess. */
export function isoUtcMs(text: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
}

/** A value as the file wrote it, for a problem's message. */
export function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

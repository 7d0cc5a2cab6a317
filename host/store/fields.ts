// How the journal checks what it is given and reads back its JSON columns. Every table module
// validates with these, so a refused value is said the same way everywhere: what, where, and
// what came instead (docs/architecture.md rule 10).

export class JournalError extends Error {
  constructor(
    message: string,
    /** The offending field, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

/** A row as better-sqlite3 reads it: column name → value. */
export type Row = Record<string, unknown>;

/** Where a value comes from, for an error message: a text, or made only when there is an error (a clock event's, per event). */
export type Where = string | (() => string);
const whereText = (where: Where): string => (typeof where === 'string' ? where : where());

export function int(value: unknown, field: string, where: Where, min = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new JournalError(`${whereText(where)}: "${field}" must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`, field);
  }
  return value;
}

export function text(value: unknown, field: string, where: Where): string {
  if (typeof value !== 'string' || value === '') {
    throw new JournalError(`${whereText(where)}: "${field}" must be a non-empty string, got ${JSON.stringify(value)}`, field);
  }
  return value;
}

export function optInt(value: unknown, field: string, where: Where): number | null {
  return value === undefined || value === null ? null : int(value, field, where);
}

/** A JSON column's text (null stays NULL). */
export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** A JSON column read back (NULL is null). */
export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : null;
}

// The journal's cache of reads of `games` and `result_reports`, shared by the modules that read
// and write those tables (games.ts, results.ts) over the one connection: the host's feed reads a
// board's game for every clock event, so a read is kept until a write could have changed it.
import type Database from 'better-sqlite3';

/**
 * Reads kept until the journal's `games` or `result_reports` change. What it
 * hands out is frozen, so a caller cannot change the next caller's copy.
 *
 * - A write to those tables calls `clear()` before it runs. Inside a transaction that wrote
 *   them, nothing is cached or served from the cache until the transaction is over (it may
 *   roll back); reads in a transaction that has not written them are the committed state.
 * - Another connection's write to them (a second process on the file) is seen through the
 *   count the schema's triggers keep (schema.ts version 3, `read_generation`), read once per
 *   event-loop turn: a read sees what other processes committed before the turn began. Not
 *   SQLite's `data_version`: that moves at every commit of any other connection, the journal's
 *   writer thread's commits of clock events included (docs/host.md "The journal's writer thread"),
 *   which never touch these tables.
 */
export class ReadCache {
  private readonly values = new Map<string, unknown>();
  private generation = -1;
  private generationChecked = false;
  private writtenInTransaction = false;
  private readonly readGeneration;

  constructor(private readonly db: Database.Database) {
    this.readGeneration = db.prepare('SELECT n FROM read_generation WHERE id = 1').pluck();
  }

  read<T>(key: string, load: () => T): T {
    if (!this.db.inTransaction) this.writtenInTransaction = false;
    else if (this.writtenInTransaction) return load();
    if (!this.generationChecked) {
      this.generationChecked = true;
      process.nextTick(() => (this.generationChecked = false));
      const generation = this.readGeneration.get() as number;
      if (generation !== this.generation) {
        this.values.clear();
        this.generation = generation;
      }
    }
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = deepFreeze(load());
    this.values.set(key, value);
    return value;
  }

  clear(): void {
    this.values.clear();
    if (this.db.inTransaction) this.writtenInTransaction = true;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

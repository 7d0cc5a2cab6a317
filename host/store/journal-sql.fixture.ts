// Test fixture (not a test): the journal's own SQLite connection, for tests that need SQL the
// journal has no method for, because what they check is SQLite's or the file's, not the host's:
// a pragma as the connection set it, `query_only` or a trigger that makes SQLite itself refuse a
// write (a read-only or full disk without root), a rollback around the journal's own writes, a
// query plan, a copy of the file. Product code never holds the connection: it goes through the
// Journal's methods (docs/architecture.md "The journal"), and may not import this file
// (test/architecture.test.ts).
import type Database from 'better-sqlite3';
import type { Journal } from './journal.ts';

export function journalSql(journal: Journal): Database.Database {
  // The private member by name: TypeScript checks the access, so a rename breaks this at compile time.
  // biome-ignore lint/complexity/useLiteralKeys: the bracket is what lets a test read a private member
  return journal['connection'].db;
}

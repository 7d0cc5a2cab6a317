// The journal's SQL CHECKs are generated from the rule book's vocabulary (rules/vocabulary.ts):
// SQLite itself accepts every game result and side of the vocabulary and refuses any other
// word, so the journal and the API cannot disagree on what a result is (docs/architecture.md "The rule book": one vocabulary).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GAME_RESULTS, SIDES } from '../../rules/vocabulary.ts';
import { SCHEMA_V1 } from './schema.ts';

function journalDb() {
  const db = new Database(':memory:');
  db.exec(SCHEMA_V1);
  return db;
}

describe('the journal schema follows the vocabulary', () => {
  it('stores every game result of the vocabulary, forfeits included, and refuses any other', () => {
    const db = journalDb();
    const insert = db.prepare(
      `INSERT INTO games (event, round, board, kind, white, black, time_control, time_control_json, result, created_utc_ms)
       VALUES ('E', 1, ?, 'standard', 'W', 'B', '3600', '{}', ?, 0)`,
    );
    GAME_RESULTS.forEach((result, i) => insert.run(i + 1, result));
    expect(db.prepare('SELECT result FROM games ORDER BY board').pluck().all()).toEqual([...GAME_RESULTS]);
    for (const bad of ['1:0', '½-½', '0-0', '*', '']) expect(() => insert.run(99, bad)).toThrow(/CHECK constraint failed/);
  });

  it("stores a clock event's side only as a side of the vocabulary", () => {
    const db = journalDb();
    const insert = db.prepare(
      `INSERT INTO clock_events (clock_id, boot_id, seq, type, side, white_ms, black_ms, mono_ms, utc_ms, uncertainty_ms)
       VALUES ('c', 'b', ?, 'moved', ?, 0, 0, 0, 0, 0)`,
    );
    SIDES.forEach((side, i) => insert.run(i + 1, side));
    expect(() => insert.run(9, 'White')).toThrow(/CHECK constraint failed/);
  });
});

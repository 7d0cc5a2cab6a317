import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteOutboxStore } from './sqlite-outbox-store.ts';

const dirs: string[] = [];
function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
  dirs.push(dir);
  return join(dir, 'outbox.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('SqliteOutboxStore (real SQLite file)', () => {
  it('returns messages in insertion order after a cursor and forgets delivered ones', () => {
    const store = new SqliteOutboxStore(dbPath());
    store.append([
      { topic: 't/1', payload: 'a', retain: false },
      { topic: 't/2', payload: 'b', retain: true },
      { topic: 't/3', payload: 'c', retain: false },
    ]);
    const all = store.pending(10);
    expect(all.map((m) => [m.topic, m.payload, m.retain])).toEqual([
      ['t/1', 'a', false],
      ['t/2', 'b', true],
      ['t/3', 'c', false],
    ]);
    expect(store.pending(10, all[0].id).map((m) => m.payload)).toEqual(['b', 'c']);
    expect(store.pending(1).map((m) => m.payload)).toEqual(['a']);
    store.markDone([all[0].id, all[2].id]);
    store.markDone([all[0].id]); // idempotent
    expect(store.pending(10).map((m) => m.payload)).toEqual(['b']);
    expect(store.pendingCount()).toBe(1);
    store.close();
  });

  it('keeps undelivered messages across a reopen (a host restart)', () => {
    const path = dbPath();
    const a = new SqliteOutboxStore(path);
    a.append([{ topic: 't', payload: 'kept', retain: false }]);
    a.close();
    const b = new SqliteOutboxStore(path);
    expect(b.pending(10).map((m) => m.payload)).toEqual(['kept']);
    b.close();
  });

  it('appends all or nothing: a bad draft rolls back the good ones', () => {
    const store = new SqliteOutboxStore(dbPath());
    expect(() =>
      store.append([
        { topic: 't', payload: 'ok', retain: false },
        { topic: null as unknown as string, payload: 'bad', retain: false },
      ]),
    ).toThrow(/NOT NULL/);
    expect(store.pendingCount()).toBe(0);
    store.close();
  });
});

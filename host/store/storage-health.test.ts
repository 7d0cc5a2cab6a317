// The journal reports whether it can write (docs/reliability.md): a storage fault from the
// real SQLite engine marks it not ok, a constraint error does not, the first write that
// succeeds clears it, and each change is told once.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from './journal.ts';
import { journalSql } from './journal-sql.fixture.ts';
import { StorageHealthTracker, storageFaultCode, type StorageHealth } from './storage-health.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function journal(): Journal {
  const dir = mkdtempSync(join(tmpdir(), 'storage-health-'));
  dirs.push(dir);
  let now = 1_000;
  return new Journal(join(dir, 'clocks.db'), { nowUtcMs: () => (now += 1_000) });
}

describe('journal storage health', () => {
  it('a refused write (SQLITE_READONLY) makes it not ok with the code and the path; a later write clears it', () => {
    const j = journal();
    const changes: StorageHealth[] = [];
    j.storage.onChange((h) => changes.push(h));
    expect(j.storage.current.ok).toBe(true);
    journalSql(j).pragma('query_only = ON');
    expect(() => j.seenClock({ clockId: 'CLK-01', utcMs: 1 })).toThrow(/readonly/);
    expect(() => j.recordArbiterAction({ utcMs: 2, arbiter: 'Ana', action: 'pause', outcome: 'applied' })).toThrow(/readonly/);
    const h = j.storage.current;
    expect(h).toMatchObject({ ok: false, code: 'SQLITE_READONLY', failedWrites: 2, sinceUtcMs: 2_000 });
    expect(h.reason).toContain(j.path);
    expect(h.reason).toMatch(/cannot be written/);
    journalSql(j).pragma('query_only = OFF');
    j.seenClock({ clockId: 'CLK-01', utcMs: 3 });
    expect(j.storage.current).toEqual({ ok: true, recoveredUtcMs: 3_000 });
    // Told once when it began and once when it cleared, not per write.
    expect(changes.map((c) => c.ok)).toEqual([false, true]);
    j.close();
  });

  it('docs/reliability.md "Disk full": a write that changed no row does not clear the fault (it commits on a full disk without touching it); one that stored a row does, told with the count of refused writes', () => {
    const j = journal();
    const changes: StorageHealth[] = [];
    j.storage.onChange((h) => changes.push(h));
    // The fault as a full disk reports it (a real one: test/host-disk-full-mqtt.test.ts).
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    j.storage.failed(full);
    j.storage.failed(full);
    expect(j.markPublished([12_345], 1)).toBe(0); // no such row: succeeds, stores nothing
    expect(j.storage.current).toMatchObject({ ok: false, code: 'SQLITE_FULL', failedWrites: 2 });
    j.seenClock({ clockId: 'CLK-01', utcMs: 3 });
    expect(j.storage.current.ok).toBe(true);
    expect(changes.map((c) => [c.ok, c.cleared?.failedWrites])).toEqual([
      [false, undefined],
      [true, 2],
    ]);
    j.close();
  });

  it('docs/reliability.md "Disk full": a fault in which a retried write failed (the clocks\' events, the MQTT outbox) clears only once a write of that kind stored something', () => {
    const t = new StorageHealthTracker('/srv/hall/clocks.db', () => 1_000);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    t.failed(full, 'MQTT outbox');
    t.failed(full, 'clock events');
    t.succeeded(); // another write, on the event loop's connection
    t.succeeded('clock events');
    t.succeeded('MQTT outbox', false); // a mark of rows already marked: stored nothing
    expect(t.current.ok).toBe(false);
    t.succeeded('MQTT outbox');
    expect(t.current).toEqual({ ok: true, recoveredUtcMs: 1_000 });
  });

  it("a bad value is the caller's error, not the storage's: health stays ok", () => {
    const j = journal();
    expect(() => j.append({ clockId: 'CLK-01', bootId: 'b', seq: -1, type: 'moved' } as never)).toThrow(/seq/);
    expect(j.storage.current.ok).toBe(true);
    j.close();
  });

  it("classifies SQLite's storage result codes, extended ones included, and nothing else", () => {
    expect(storageFaultCode({ code: 'SQLITE_FULL' })).toBe('SQLITE_FULL');
    expect(storageFaultCode({ code: 'SQLITE_IOERR_WRITE' })).toBe('SQLITE_IOERR_WRITE');
    expect(storageFaultCode({ code: 'SQLITE_READONLY_DBMOVED' })).toBe('SQLITE_READONLY_DBMOVED');
    expect(storageFaultCode({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBeNull();
    expect(storageFaultCode({ code: 'SQLITE_FULLISH' })).toBeNull();
    expect(storageFaultCode(new Error('plain'))).toBeNull();
    expect(storageFaultCode(null)).toBeNull();
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileOutboxStore, MemoryOutboxStore, Outbox, OutboxFullError, OutboxSnapshotError, type OutboxCodec } from './outbox.ts';

// Bodies are strings here; the link stores protobuf Envelope bodies the same way.
const text: OutboxCodec<string> = {
  encode: (s) => new TextEncoder().encode(s),
  decode: (b) => new TextDecoder('utf-8', { fatal: true }).decode(b),
};

const dir = mkdtempSync(join(tmpdir(), 'outbox-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Outbox (docs/protocol.md "Session": accepted messages are never lost)', () => {
  it('numbers entries 1, 2, 3 … within a boot and forgets them when acked cumulatively', () => {
    const o = new Outbox({ bootId: 7, codec: text });
    expect(o.accept('a')).toEqual({ bootId: 7, seq: 1, body: 'a' });
    o.accept('b');
    o.accept('c');
    expect(o.ackThrough(7, 2).map((e) => e.body)).toEqual(['a', 'b']);
    expect(o.entries()).toEqual([{ bootId: 7, seq: 3, body: 'c' }]);
    expect(o.ackThrough(7, 2)).toEqual([]); // a repeated ack changes nothing
    expect(o.accept('d').seq).toBe(4);
  });

  it('is bounded: refuses beyond capacity with an error that says why, and keeps what it has', () => {
    const o = new Outbox({ bootId: 1, codec: text, capacity: 2 });
    o.accept('a');
    o.accept('b');
    expect(() => o.accept('c')).toThrow(OutboxFullError);
    expect(() => o.accept('c')).toThrow(/2 messages wait for an acknowledgement/);
    expect(o.entries().map((e) => e.body)).toEqual(['a', 'b']);
    expect(o.nextSeq).toBe(3);
  });

  it('snapshot is plain JSON and restores the same entries and counter (same boot)', () => {
    const o = new Outbox({ bootId: 9, codec: text });
    o.accept('x');
    o.accept('ÿ€'); // not ASCII: bytes go through base64
    o.ackThrough(9, 1);
    const json = JSON.parse(JSON.stringify(o.snapshot()));
    const r = new Outbox({ bootId: 9, codec: text });
    r.restore(json);
    expect(r.entries()).toEqual(o.entries());
    expect(r.accept('z').seq).toBe(3);
  });

  it('after a reboot, restored entries keep their old (bootId, seq); the new boot numbers from 1', () => {
    const store = new MemoryOutboxStore();
    const before = new Outbox({ bootId: 0xaaaa, codec: text, store });
    before.accept('e1');
    before.accept('e2');
    before.accept('e3');
    before.ackThrough(0xaaaa, 1);
    // power cut; the firmware boots with a fresh random boot id and the same store
    const after = new Outbox({ bootId: 0xbbbb, codec: text, store });
    expect(after.entries()).toEqual([
      { bootId: 0xaaaa, seq: 2, body: 'e2' },
      { bootId: 0xaaaa, seq: 3, body: 'e3' },
    ]);
    expect(after.pendingBoots()).toEqual([0xaaaa]);
    expect(after.accept('n1')).toEqual({ bootId: 0xbbbb, seq: 1, body: 'n1' });
    expect(after.pendingBoots()).toEqual([0xaaaa, 0xbbbb]);
    expect(after.ackThrough(0xaaaa, 3).length).toBe(2);
    expect(after.entries()).toEqual([{ bootId: 0xbbbb, seq: 1, body: 'n1' }]);
  });

  it('persists before accept returns: a power cut right after accept still finds the entry', () => {
    const store = new MemoryOutboxStore();
    const o = new Outbox({ bootId: 3, codec: text, store });
    o.accept('flag');
    expect(store.saves).toBe(1);
    expect(new Outbox({ bootId: 3, codec: text, store }).entries()).toEqual([{ bootId: 3, seq: 1, body: 'flag' }]);
  });

  it('rejects a damaged snapshot naming the field, and keeps its entries', () => {
    const o = new Outbox({ bootId: 1, codec: text });
    o.accept('keep');
    const good = o.snapshot();
    expect(() => o.restore({ ...good, format: 2 as 1 })).toThrow(/format must be 1, got 2/);
    expect(() => o.restore({ ...good, entries: [{ bootId: 1, seq: 0, bytes: '' }] })).toThrow(/entries\[0\]\.seq must be a uint32 ≥ 1, got 0/);
    expect(() => o.restore({ ...good, entries: [{ bootId: 1, seq: 1, bytes: 'not base64!' }] })).toThrow(/entries\[0\]\.bytes must be base64/);
    expect(() => o.restore({ ...good, entries: [{ bootId: 1, seq: 1, bytes: '/w==' }] })).toThrow(/entries\[0\] \(boot 1 seq 1\): body does not decode/);
    expect(() => o.restore({ ...good, entries: [good.entries[0], good.entries[0]] })).toThrow(OutboxSnapshotError);
    expect(o.entries().map((e) => e.body)).toEqual(['keep']);
  });
});

describe('FileOutboxStore (write temp + fsync + rename: atomic replace)', () => {
  it('round-trips through the file and survives a new process reading it', () => {
    const path = join(dir, 'a.json');
    const o = new Outbox({ bootId: 5, codec: text, store: new FileOutboxStore(path) });
    o.accept('m1');
    o.accept('m2');
    o.ackThrough(5, 1);
    const reread = new Outbox({ bootId: 5, codec: text, store: new FileOutboxStore(path) });
    expect(reread.entries()).toEqual([{ bootId: 5, seq: 2, body: 'm2' }]);
    expect(reread.nextSeq).toBe(3);
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('a crash in the middle of a save (torn temp file) leaves the previous snapshot intact', () => {
    const path = join(dir, 'b.json');
    const o = new Outbox({ bootId: 6, codec: text, store: new FileOutboxStore(path) });
    o.accept('accepted');
    const committed = readFileSync(path, 'utf8');
    writeFileSync(`${path}.tmp`, committed.slice(0, 17)); // the write that never finished
    const reread = new Outbox({ bootId: 6, codec: text, store: new FileOutboxStore(path) });
    expect(reread.entries()).toEqual([{ bootId: 6, seq: 1, body: 'accepted' }]);
  });

  it('a missing file is an empty outbox; a corrupt file is an error naming the file', () => {
    expect(new Outbox({ bootId: 1, codec: text, store: new FileOutboxStore(join(dir, 'none.json')) }).size).toBe(0);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":1,');
    expect(() => new Outbox({ bootId: 1, codec: text, store: new FileOutboxStore(bad) })).toThrow(/bad\.json: not JSON/);
  });
});

// The sender's bounded queue of accepted, not yet acknowledged messages.
//
// An entry is named by (bootId, seq) from the moment it is accepted until the peer acks
// it: seqs count up per boot and keep counting across reconnects, so a message resent
// after the cable was unplugged is recognisably the same one and the host dedupes it
// (host journal key: clock, boot, seq). The firmware persists the outbox through an
// `OutboxStore` on every change, so a power cut never loses an accepted event; after the
// reboot the restored entries keep their old (bootId, seq) and the link resends them in a
// session opened under that old boot id before it greets the host with the new one
// (docs/protocol.md, "Session": their `at_ms` is on the old boot's time base too).
//
// Bodies are kept as their encoded bytes (whatever `OutboxCodec` the owner gives), so a
// snapshot is plain JSON and survives a firmware update that adds fields.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface OutboxEntry<B> {
  readonly bootId: number;
  readonly seq: number;
  readonly body: B;
}

export interface OutboxCodec<B> {
  encode(body: B): Uint8Array;
  decode(bytes: Uint8Array): B;
}

/** JSON form of an outbox (what `OutboxStore.save` receives). */
export interface OutboxSnapshot {
  readonly format: 1;
  /** The boot that numbers new entries. */
  readonly bootId: number;
  /** The seq the next accepted entry gets in `bootId`. */
  readonly nextSeq: number;
  /** Oldest first; entries of earlier boots (restored after a reboot) come first. */
  readonly entries: readonly { readonly bootId: number; readonly seq: number; readonly bytes: string }[];
}

/** Where a snapshot is kept across reboots. `save` must be durable when it returns. */
export interface OutboxStore {
  save(snapshot: OutboxSnapshot): void;
  load(): OutboxSnapshot | null;
}

export class OutboxFullError extends Error {
  constructor(readonly capacity: number) {
    super(`outbox full: ${capacity} messages wait for an acknowledgement; the peer is not acknowledging (link down?)`);
    this.name = 'OutboxFullError';
  }
}

export class OutboxSnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboxSnapshotError';
  }
}

export interface OutboxOptions<B> {
  /** This boot's id (random per boot, Hello.boot_id). */
  readonly bootId: number;
  /** Most entries held; `accept` refuses beyond it. */
  readonly capacity?: number;
  readonly codec: OutboxCodec<B>;
  /** Persist every change here; on construction, entries found in it are restored. */
  readonly store?: OutboxStore;
}

const MAX_SEQ = 0xffffffff;

export class Outbox<B> {
  readonly bootId: number;
  readonly capacity: number;
  private readonly codec: OutboxCodec<B>;
  private readonly store: OutboxStore | undefined;
  private list: { entry: OutboxEntry<B>; bytes: Uint8Array }[] = [];
  private next = 1;

  constructor(opts: OutboxOptions<B>) {
    if (!Number.isInteger(opts.bootId) || opts.bootId < 0 || opts.bootId > MAX_SEQ) {
      throw new RangeError(`outbox bootId must be a uint32, got ${opts.bootId}`);
    }
    this.bootId = opts.bootId;
    this.capacity = opts.capacity ?? 1024;
    this.codec = opts.codec;
    this.store = opts.store;
    const saved = this.store?.load() ?? null;
    if (saved) this.restore(saved);
  }

  /** Entries waiting for an ack, oldest first (a copy). */
  entries(): readonly OutboxEntry<B>[] {
    return this.list.map((x) => x.entry);
  }

  /** The same, without copying (do not accept or ack while iterating). */
  *iterate(): IterableIterator<OutboxEntry<B>> {
    for (const x of this.list) yield x.entry;
  }

  /** The entry (bootId, seq), if it still waits. */
  get(bootId: number, seq: number): OutboxEntry<B> | undefined {
    // Entries of one boot are contiguous and numbered without gaps only until acks punch
    // holes at the front, so look near the expected index first.
    const first = this.list.findIndex((x) => x.entry.bootId === bootId);
    if (first === -1) return undefined;
    const guess = first + (seq - this.list[first].entry.seq);
    const at = this.list[guess];
    if (at && at.entry.bootId === bootId && at.entry.seq === seq) return at.entry;
    return this.list.find((x) => x.entry.bootId === bootId && x.entry.seq === seq)?.entry;
  }

  get size(): number {
    return this.list.length;
  }

  /** The seq the next accepted entry will get. */
  get nextSeq(): number {
    return this.next;
  }

  /** Boot ids that still have entries, oldest first. */
  pendingBoots(): number[] {
    const boots: number[] = [];
    for (const { entry } of this.list) if (boots[boots.length - 1] !== entry.bootId) boots.push(entry.bootId);
    return boots;
  }

  /**
   * Takes a message: gives it the next (bootId, seq) and persists it before returning,
   * so once this returns the message survives a power cut. Throws OutboxFullError.
   */
  accept(body: B): OutboxEntry<B> {
    if (this.list.length >= this.capacity) throw new OutboxFullError(this.capacity);
    if (this.next > MAX_SEQ) throw new RangeError(`outbox: seq space of boot ${this.bootId} exhausted (reboot to get a new boot id)`);
    const entry: OutboxEntry<B> = { bootId: this.bootId, seq: this.next, body };
    this.list.push({ entry, bytes: this.codec.encode(body) });
    this.next++;
    this.persist();
    return entry;
  }

  /** The peer acknowledged every seq ≤ `seq` of `bootId`: forget those. Returns them. */
  ackThrough(bootId: number, seq: number): OutboxEntry<B>[] {
    // One boot's entries are contiguous and ascending: the acked ones are a run at its front.
    const first = this.list.findIndex((x) => x.entry.bootId === bootId);
    if (first === -1) return [];
    let end = first;
    while (end < this.list.length && this.list[end].entry.bootId === bootId && this.list[end].entry.seq <= seq) end++;
    if (end === first) return [];
    const gone = this.list.splice(first, end - first).map((x) => x.entry);
    this.persist();
    return gone;
  }

  snapshot(): OutboxSnapshot {
    return {
      format: 1,
      bootId: this.bootId,
      nextSeq: this.next,
      entries: this.list.map((x) => ({ bootId: x.entry.bootId, seq: x.entry.seq, bytes: Buffer.from(x.bytes).toString('base64') })),
    };
  }

  /**
   * Loads a snapshot (checked field by field). Entries keep their (bootId, seq). A snapshot
   * of this same boot also restores the seq counter; one from an earlier boot does not —
   * this boot numbers from 1 — but its entries stay, to be sent under their old boot id.
   */
  restore(snapshot: OutboxSnapshot): void {
    const s = checkSnapshot(snapshot);
    const list: { entry: OutboxEntry<B>; bytes: Uint8Array }[] = [];
    s.entries.forEach((e, i) => {
      const bytes = new Uint8Array(Buffer.from(e.bytes, 'base64'));
      let body: B;
      try {
        body = this.codec.decode(bytes);
      } catch (err) {
        throw new OutboxSnapshotError(
          `outbox snapshot entries[${i}] (boot ${e.bootId} seq ${e.seq}): body does not decode: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      list.push({ entry: { bootId: e.bootId, seq: e.seq, body }, bytes });
    });
    const next = s.bootId === this.bootId ? s.nextSeq : 1;
    if (list.some((x) => x.entry.bootId === this.bootId && x.entry.seq >= next)) {
      throw new OutboxSnapshotError(`outbox snapshot: an entry of boot ${this.bootId} has seq ≥ nextSeq ${next}`);
    }
    this.list = list;
    this.next = next;
  }

  private persist(): void {
    this.store?.save(this.snapshot());
  }
}

function checkSnapshot(x: unknown): OutboxSnapshot {
  const fail = (what: string): never => {
    throw new OutboxSnapshotError(`outbox snapshot: ${what}`);
  };
  const isU32 = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_SEQ;
  if (typeof x !== 'object' || x === null) fail('not an object');
  const o = x as Record<string, unknown>;
  if (o.format !== 1) fail(`format must be 1, got ${JSON.stringify(o.format)}`);
  if (!isU32(o.bootId)) fail(`bootId must be a uint32, got ${JSON.stringify(o.bootId)}`);
  if (!isU32(o.nextSeq) || (o.nextSeq as number) < 1) fail(`nextSeq must be a uint32 ≥ 1, got ${JSON.stringify(o.nextSeq)}`);
  if (!Array.isArray(o.entries)) fail('entries must be an array');
  const seen = new Set<string>();
  (o.entries as unknown[]).forEach((e, i) => {
    if (typeof e !== 'object' || e === null) fail(`entries[${i}] is not an object`);
    const r = e as Record<string, unknown>;
    if (!isU32(r.bootId)) fail(`entries[${i}].bootId must be a uint32, got ${JSON.stringify(r.bootId)}`);
    if (!isU32(r.seq) || (r.seq as number) < 1) fail(`entries[${i}].seq must be a uint32 ≥ 1, got ${JSON.stringify(r.seq)}`);
    if (typeof r.bytes !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(r.bytes)) fail(`entries[${i}].bytes must be base64 text`);
    const key = `${r.bootId}/${r.seq}`;
    if (seen.has(key)) fail(`entries[${i}] repeats boot ${r.bootId} seq ${r.seq}`);
    seen.add(key);
  });
  return o as unknown as OutboxSnapshot;
}

/**
 * Keeps the snapshot in one JSON file. `save` writes a temporary file, fsyncs it and
 * renames it over the old one: rename is atomic on POSIX, so after a crash the file holds
 * either the previous or the new snapshot, never a torn mixture.
 */
export class FileOutboxStore implements OutboxStore {
  constructor(readonly path: string) {}

  save(snapshot: OutboxSnapshot): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(snapshot));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    // The rename itself lives in the directory: sync it so it survives a power cut too.
    const dir = openSync(dirname(this.path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  load(): OutboxSnapshot | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    try {
      return JSON.parse(text) as OutboxSnapshot;
    } catch (e) {
      throw new OutboxSnapshotError(`outbox file ${this.path}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Keeps the snapshot in memory (tests; a host that does not persist its commands). */
export class MemoryOutboxStore implements OutboxStore {
  saved: OutboxSnapshot | null = null;
  saves = 0;
  save(snapshot: OutboxSnapshot): void {
    this.saved = JSON.parse(JSON.stringify(snapshot)) as OutboxSnapshot;
    this.saves++;
  }
  load(): OutboxSnapshot | null {
    return this.saved;
  }
}

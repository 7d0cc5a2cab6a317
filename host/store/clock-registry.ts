// The `clocks` table: each clock the host has met, with its current boot and firmware and when
// it was first and last seen (its handshake, or any sign of life).
import type { JournalConnection } from './connection.ts';
import type { Row } from './fields.ts';
import type { ClockRow } from './types.ts';

export class ClockRegistry {
  private readonly upsertClock;
  private readonly allClocks;

  constructor(conn: JournalConnection) {
    this.upsertClock = conn.prepare(`
      INSERT INTO clocks (clock_id, boot_id, firmware, first_seen_utc_ms, last_seen_utc_ms)
      VALUES (@clockId, @bootId, @firmware, @utcMs, @utcMs)
      ON CONFLICT (clock_id) DO UPDATE SET boot_id = excluded.boot_id,
        firmware = COALESCE(excluded.firmware, clocks.firmware), last_seen_utc_ms = excluded.last_seen_utc_ms`);
    this.allClocks = conn.prepare('SELECT * FROM clocks ORDER BY clock_id');
  }

  /** Records a clock's handshake (or any sign of life). */
  seenClock(c: { clockId: string; bootId?: string | null; firmware?: string | null; utcMs: number }): void {
    this.upsertClock.run({ clockId: c.clockId, bootId: c.bootId ?? null, firmware: c.firmware ?? null, utcMs: c.utcMs });
  }

  clocks(): ClockRow[] {
    return (this.allClocks.all() as Row[]).map((r) => ({
      clockId: r.clock_id as string,
      bootId: (r.boot_id as string | null) ?? null,
      firmware: (r.firmware as string | null) ?? null,
      firstSeenUtcMs: r.first_seen_utc_ms as number,
      lastSeenUtcMs: r.last_seen_utc_ms as number,
    }));
  }
}

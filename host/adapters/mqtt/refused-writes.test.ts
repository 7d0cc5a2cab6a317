// docs/reliability.md "Disk full" and "The MQTT outbox cannot be written": a kind of outbox
// write the journal refuses is told once as the refusals begin and once as it is stored again,
// with the count, and tried again after a delay doubling from 100 ms to at most 4 s.
import { describe, expect, it } from 'vitest';
import { RETRY_FIRST_MS, RETRY_MAX_MS, RefusedWrites } from './refused-writes.ts';

describe('RefusedWrites', () => {
  it('tells the first refusal and the recovery with its count; the delays double up to the cap and start again after a success', () => {
    const told: string[] = [];
    const w = new RefusedWrites("store the boards' retained states", (e) => told.push(e.message));
    const full = new Error('database or disk is full');
    const delays = Array.from({ length: 8 }, () => w.failed(full));
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 4000, 4000]);
    expect([RETRY_FIRST_MS, RETRY_MAX_MS]).toEqual([100, 4000]);
    expect(w.retryMs).toBe(4000);
    w.succeeded();
    w.succeeded(); // stored again: nothing more to tell
    expect(told).toEqual([
      "MQTT outbox: could not store the boards' retained states: database or disk is full; trying again after 100 ms, doubling to at most 4 s; told again once it is stored",
      "MQTT outbox: store the boards' retained states: done again after 8 refused tries",
    ]);
    expect(w.retryMs).toBe(0);
    expect(w.failed(full, 'mark 3 acknowledged messages published')).toBe(100);
    expect(told[2]).toMatch(/^MQTT outbox: could not mark 3 acknowledged messages published: database or disk is full;/);
  });
});

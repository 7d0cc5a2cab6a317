// The real time source (protocol/monotonic.ts systemTime) and the tests' FakeTime: a repeating
// timer calls again at its period until cleared.
import { describe, expect, it } from 'vitest';
import { systemTime } from './monotonic.ts';
import { FakeTime } from './testing/fake-time.ts';

describe('repeating timers (TimeSource.setRepeating)', () => {
  it('systemTime calls every period, on the monotonic clock, until cleared', async () => {
    const at: number[] = [];
    const start = systemTime.now();
    await new Promise<void>((resolve) => {
      const handle = systemTime.setRepeating!(() => {
        at.push(systemTime.now());
        if (at.length === 3) {
          systemTime.clearTimer(handle);
          resolve();
        }
      }, 5);
    });
    expect(at).toHaveLength(3);
    // Node's timers may fire late, never early (its 1 ms granularity: allow 1 ms).
    expect(at[0] - start).toBeGreaterThanOrEqual(4);
    expect(at[2] - at[0]).toBeGreaterThanOrEqual(9);
  });

  it('FakeTime: every period, the same timer; clearTimer inside the call stops it', () => {
    const time = new FakeTime(0);
    const at: number[] = [];
    const handle = time.setRepeating(() => {
      at.push(time.now());
      if (at.length === 4) time.clearTimer(handle);
    }, 250);
    time.advance(2_000);
    expect(at).toEqual([250, 500, 750, 1_000]);
    expect(time.timersCreated).toBe(1);
    expect(time.pendingTimers).toBe(0);
  });
});

// The host's clock (host/app/utc.ts AnchoredClock) passes its base's repeating timers on: the
// host's links use them for the time sync with each clock (protocol/link.ts).
import { describe, expect, it } from 'vitest';
import { FakeTime } from '../../protocol/testing/fake-time.ts';
import { AnchoredClock } from './utc.ts';

describe('AnchoredClock', () => {
  it('offers repeating timers where its base has them, and not otherwise', () => {
    const time = new FakeTime(0);
    const ref = { hostMs: 0, utcMs: Date.UTC(2026, 0, 10) };
    const clock = new AnchoredClock(time, ref);
    const at: number[] = [];
    const handle = clock.setRepeating!(() => at.push(clock.now()), 100);
    time.advance(350);
    clock.clearTimer(handle);
    time.advance(1_000);
    expect(at).toEqual([100, 200, 300]);
    const plain = new AnchoredClock({ now: () => time.now(), setTimer: (fn, ms) => time.setTimer(fn, ms), clearTimer: (h) => time.clearTimer(h) }, ref);
    expect(plain.setRepeating).toBeUndefined();
  });
});

// docs/broadcast.md "The delay", "When it goes out": each fact is due at its time plus the delay;
// due times close together are one release at the later of them, never earlier; the timer runs on
// the host's time (here a simulated one, stepped by the test).
import { describe, expect, it } from 'vitest';
import { DelayReleases, type HostTimers } from './delay-releases.ts';

/** Simulated host time: timers fire when the test steps time past them. */
class SteppedTime implements HostTimers {
  now = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  setTimer(fn: () => void, delayMs: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.now + delayMs, fn });
    return id;
  }
  clearTimer(handle: never): void {
    this.timers.delete(handle as number);
  }
  get pending(): number {
    return this.timers.size;
  }
  to(t: number): void {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= t).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.now = due[1].at;
      this.timers.delete(due[0]);
      due[1].fn();
    }
    this.now = t;
  }
}

describe('the delay’s releases (docs/broadcast.md "The delay")', () => {
  it('releases each round at its due time, due times within the merge window once at the later, an earlier one in its place, one timer', () => {
    const time = new SteppedTime();
    const released: Array<[number, string]> = [];
    const releases = new DelayReleases<string>(
      time,
      () => time.now,
      (key) => released.push([time.now, key]),
      200,
    );
    releases.at(900_000, 'open/1');
    releases.at(900_150, 'open/1'); // merged: released at 900 150, not at 900 000
    releases.at(905_000, 'open/1');
    releases.at(902_000, 'blitz/1');
    releases.at(901_000, 'open/1'); // out of order (a restart's fact): in its place
    expect(releases.waiting).toBe(4);
    expect(time.pending).toBe(1);
    time.to(900_149);
    expect(released).toEqual([]);
    time.to(910_000);
    expect(released).toEqual([
      [900_150, 'open/1'],
      [901_000, 'open/1'],
      [902_000, 'blitz/1'],
      [905_000, 'open/1'],
    ]);
    expect([releases.waiting, time.pending]).toEqual([0, 0]);
    releases.at(920_000, 'open/1');
    releases.close();
    expect([releases.waiting, time.pending]).toEqual([0, 0]);
  });
});

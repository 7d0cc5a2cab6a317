// Simulated time for the simulator and the tests: a Timebase whose clock only moves
// when it is told to. Timers fire in deadline order, each seeing `now()` equal to its
// own deadline, so a flag scheduled at 1 h 30 min fires at exactly that millisecond
// however long the process takes to get there.
import type { Timebase, TimerHandle } from '../firmware-ts/timebase.ts';

interface Timer {
  readonly id: number;
  readonly dueMs: number;
  readonly fn: () => void;
}

export class SimulatedTime implements Timebase {
  private nowMs: number;
  private nextId = 1;
  /** Pending timers, sorted by due time then creation order. */
  private timers: Timer[] = [];

  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    const timer: Timer = { id: this.nextId++, dueMs: this.nowMs + Math.max(0, Math.ceil(delayMs)), fn };
    // Insert after every timer due at the same time or earlier (stable order).
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].dueMs > timer.dueMs) i--;
    this.timers.splice(i, 0, timer);
    return { id: timer.id };
  }

  clearTimer(handle: TimerHandle): void {
    const id = (handle as { id?: number }).id;
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** When the next timer is due, or null if none is pending. */
  nextDueMs(): number | null {
    return this.timers.length ? this.timers[0].dueMs : null;
  }

  /** Moves time forward to `targetMs`, firing every timer due on the way, in order. */
  advanceTo(targetMs: number): void {
    if (targetMs < this.nowMs) throw new Error(`simulated time cannot go back (${targetMs} < ${this.nowMs})`);
    for (;;) {
      const next = this.timers[0];
      if (!next || next.dueMs > targetMs) break;
      this.timers.shift();
      this.nowMs = next.dueMs;
      next.fn();
    }
    this.nowMs = targetMs;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.nowMs + ms);
  }
}

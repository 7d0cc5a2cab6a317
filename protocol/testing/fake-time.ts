// A `TimeSource` that only moves when a test says so. Stream callbacks still run on
// Node's event loop, so `runUntil` alternates "let pending I/O settle" (one
// setImmediate turn drains every nextTick/microtask an in-memory stream schedules)
// with "jump to the next timer". Runs as fast as the CPU allows and is deterministic.
import type { TimeSource, TimerHandle } from '../monotonic.ts';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
  /** A repeating timer's period (setRepeating); absent for a one-shot. */
  periodMs?: number;
}

export class FakeTime implements TimeSource {
  private nowMs: number;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();

  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.nowMs + Math.max(0, delayMs), fn });
    return { id };
  }

  setRepeating(fn: () => void, periodMs: number): TimerHandle {
    const id = this.nextId++;
    const period = Math.max(1, periodMs);
    this.timers.set(id, { id, at: this.nowMs + period, fn, periodMs: period });
    return { id };
  }

  /** Timers created so far with setTimer or setRepeating (a repeating one counts once). */
  get timersCreated(): number {
    return this.nextId - 1;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete((handle as { id: number }).id);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.nowMs + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
    }
    this.nowMs = target;
  }

  /** Jumps to the earliest timer and fires it (and any due at the same instant). False if none. */
  advanceToNextTimer(): boolean {
    const next = this.earliest();
    if (!next) return false;
    const at = next.at;
    for (;;) {
      const t = this.earliest();
      if (!t || t.at > at) break;
      this.fire(t);
    }
    return true;
  }

  /**
   * Runs timers and I/O until `done()` holds. Throws when `maxMs` of fake time pass
   * first, or when nothing is left to run (a deadlock in the code under test).
   */
  async runUntil(done: () => boolean, maxMs = 3_600_000): Promise<void> {
    const deadline = this.nowMs + maxMs;
    for (;;) {
      await settle();
      if (done()) return;
      if (this.nowMs > deadline) throw new Error(`FakeTime.runUntil: condition still false after ${maxMs} ms of fake time`);
      if (!this.advanceToNextTimer()) {
        await settle();
        if (done()) return;
        throw new Error(`FakeTime.runUntil: no timers left and condition false at t=${this.nowMs} ms`);
      }
    }
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) {
      if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    }
    return best;
  }

  private fire(t: Timer): void {
    this.timers.delete(t.id);
    if (t.at > this.nowMs) this.nowMs = t.at;
    // A repeating timer is due again one period later, under the same id (clearTimer in `fn` stops it).
    if (t.periodMs !== undefined) this.timers.set(t.id, { ...t, at: t.at + t.periodMs });
    t.fn();
  }
}

/** One turn of the event loop: every queued nextTick, microtask and in-memory stream hop runs. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// A clock for XState actors that moves only when told: `advanceTo(t)` fires every timer
// due by `t`, earliest first. Replay uses it the way the board uses real time: the
// statechart's `after` deadlines are timers on it, and each input line advances it to
// the line's `t` first, so deadlines come before inputs at the same millisecond.
// (XState's SimulatedClock does the same but sorts a copy of all its timers on every
// move; a clock holds at most a couple of timers, and replay moves it twice per line.)

interface Timer {
  end: number;
  fn: () => void;
}

export class StepClock {
  private nowMs = 0;
  private nextId = 0;
  private readonly timers = new Map<number, Timer>();

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: (...args: unknown[]) => void, timeoutMs: number): number {
    const id = ++this.nextId;
    this.timers.set(id, { end: this.nowMs + timeoutMs, fn: () => fn() });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.timers.delete(id as number);
  }

  /** Moves to `t` (never back), firing the timers due by then in deadline order. */
  advanceTo(t: number): void {
    if (t < this.nowMs) throw new Error(`StepClock cannot go back from ${this.nowMs} to ${t}`);
    this.nowMs = t;
    for (;;) {
      let dueId = -1;
      let due: Timer | undefined;
      for (const [id, timer] of this.timers) {
        if (timer.end <= t && (due === undefined || timer.end < due.end)) {
          dueId = id;
          due = timer;
        }
      }
      if (due === undefined) return;
      this.timers.delete(dueId);
      due.fn();
    }
  }
}

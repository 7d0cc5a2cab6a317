// A clock for XState actors that moves only when told: `advanceTo(t)` fires every timer
// due by `t`, earliest first. Replay uses it the way the board uses real time: the
// statechart's `after` deadlines are timers on it, and each input line advances it to
// the line's `t` first, so deadlines come before inputs at the same millisecond.
// (XState's SimulatedClock does the same but sorts a copy of all its timers on every
// move; a clock holds at most a couple of timers, and replay moves it twice per line.)

interface Timer {
  id: number;
  end: number;
  fn: (...args: unknown[]) => void;
}

export class StepClock {
  private nowMs = 0;
  private nextId = 0;
  /** A clock holds one or two timers: a plain array beats a Map here. */
  private timers: Timer[] = [];

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: (...args: unknown[]) => void, timeoutMs: number): number {
    const id = ++this.nextId;
    this.timers.push({ id, end: this.nowMs + timeoutMs, fn });
    return id;
  }

  clearTimeout(id: unknown): void {
    const i = this.timers.findIndex((t) => t.id === id);
    if (i !== -1) this.timers.splice(i, 1);
  }

  /** Moves to `t` (never back), firing the timers due by then in deadline order. */
  advanceTo(t: number): void {
    if (t < this.nowMs) throw new Error(`StepClock cannot go back from ${this.nowMs} to ${t}`);
    this.nowMs = t;
    for (;;) {
      let due = -1;
      for (let i = 0; i < this.timers.length; i++) {
        const timer = this.timers[i];
        if (timer.end <= t && (due === -1 || timer.end < this.timers[due].end)) due = i;
      }
      if (due === -1) return;
      const [timer] = this.timers.splice(due, 1);
      timer.fn();
    }
  }
}

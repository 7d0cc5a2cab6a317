// When a delayed broadcast has something new to show (docs/broadcast.md "The delay"): a fact of
// the round journaled at T is shown at T + delay, so each one is due then. The due times of a
// round are kept in order, one timer on the host's time (accelerated or simulated in tests) for
// the earliest; due times closer than `mergeMs` are one release, at the later of them (never
// earlier: a release shows the round as of its own time minus the delay).

/** Timers on the host's time base (HostClock). */
export interface HostTimers {
  setTimer(fn: () => void, delayMs: number): unknown;
  clearTimer(handle: never): void;
}

export class DelayReleases<K> {
  private readonly due: Array<{ utcMs: number; key: K }> = [];
  private timer: unknown = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly timers: HostTimers,
    private readonly nowUtcMs: () => number,
    private readonly release: (key: K) => void,
    private readonly mergeMs = 200,
  ) {}

  /** `key` has something to show at `utcMs`. */
  at(utcMs: number, key: K): void {
    if (this.closed) return;
    const last = this.due.findLast((d) => d.key === key);
    if (last && utcMs >= last.utcMs - this.mergeMs && utcMs <= last.utcMs + this.mergeMs) last.utcMs = Math.max(last.utcMs, utcMs);
    else this.due.push({ utcMs, key });
    this.due.sort((a, b) => a.utcMs - b.utcMs);
    this.arm();
  }

  /** Due releases still to come. */
  get waiting(): number {
    return this.due.length;
  }

  close(): void {
    this.closed = true;
    this.disarm();
    this.due.length = 0;
  }

  private arm(): void {
    const first = this.due[0];
    if (!first || first.utcMs >= this.timerAt) return;
    this.disarm();
    this.timerAt = first.utcMs;
    this.timer = this.timers.setTimer(() => this.fire(), Math.max(0, first.utcMs - this.nowUtcMs()));
  }

  private disarm(): void {
    if (this.timer !== null) this.timers.clearTimer(this.timer as never);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.nowUtcMs();
    // A timer of the host's time fires at its time; one that fired a little early (a rounded
    // accelerated time) waits for the rest.
    while (this.due.length > 0 && this.due[0].utcMs <= now) this.release(this.due.shift()!.key);
    this.arm();
  }
}

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
  /** Each key's due times, in order (a key's facts come in time order: appended, merged with the last). */
  private readonly due = new Map<K, number[]>();
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
    const list = this.due.get(key) ?? [];
    this.due.set(key, list);
    const last = list.at(-1);
    if (last === undefined || utcMs > last + this.mergeMs) list.push(utcMs);
    else if (utcMs >= last)
      list[list.length - 1] = utcMs; // one release, at the later time
    else list.splice(sortedIndex(list, utcMs), 0, utcMs); // an earlier fact (a restart's): in its place
    this.arm();
  }

  /** Due releases still to come. */
  get waiting(): number {
    let n = 0;
    for (const list of this.due.values()) n += list.length;
    return n;
  }

  close(): void {
    this.closed = true;
    this.disarm();
    this.due.clear();
  }

  private arm(): void {
    let first = Number.POSITIVE_INFINITY;
    for (const list of this.due.values()) if (list.length > 0 && list[0] < first) first = list[0];
    if (first >= this.timerAt) return;
    this.disarm();
    if (first === Number.POSITIVE_INFINITY) return;
    this.timerAt = first;
    this.timer = this.timers.setTimer(() => this.fire(), Math.max(0, first - this.nowUtcMs()));
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
    // A timer that fired a little early (a rounded accelerated time) waits for the rest.
    for (const [key, list] of this.due) {
      let n = 0;
      while (n < list.length && list[n] <= now) n++;
      if (n === 0) continue;
      list.splice(0, n);
      this.release(key);
    }
    this.arm();
  }
}

/** Where `t` goes in the ascending `list`. */
function sortedIndex(list: readonly number[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

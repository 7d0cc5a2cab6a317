// The one module in protocol/ that reads the monotonic clock (docs/architecture.md rule 1).
// Everything else in the protocol receives time through a `TimeSource`, so tests
// can drive it with `FakeTime` (protocol/testing/fake-time.ts) instead of waiting.

/** Opaque handle of a scheduled timer. */
export type TimerHandle = { readonly __timer: true } | object;

/** A clock plus a timer scheduler: what the session needs from the outside world. */
export interface TimeSource {
  /** Milliseconds on a monotonic time base (never jumps back; unrelated to UTC). */
  now(): number;
  /** Calls `fn` once, `delayMs` from now. */
  setTimer(fn: () => void, delayMs: number): TimerHandle;
  /**
   * Calls `fn` every `periodMs` until the handle is cleared (`clearTimer`). Optional: without
   * it a caller re-arms `setTimer` after each call. With it, a timer that runs for hours (the
   * host's time sync with each clock) is one object, not one per call: at 2,000 clocks those
   * were a thousand timers a second, each living two seconds (docs/benchmarks.md).
   */
  setRepeating?(fn: () => void, periodMs: number): TimerHandle;
  /** Cancels a timer of `setTimer` or `setRepeating`. */
  clearTimer(handle: TimerHandle): void;
}

/** `performance.now()`: monotonic, sub-millisecond, immune to wall-clock steps (NTP, DST). */
export function monotonicNowMs(): number {
  return performance.now();
}

/** The real time source: `performance.now()` and Node's timers. */
export const systemTime: TimeSource = {
  now: monotonicNowMs,
  setTimer(fn, delayMs) {
    const t = setTimeout(fn, Math.max(0, delayMs));
    // A pending retransmission must not keep a finished program alive.
    t.unref?.();
    return t;
  },
  setRepeating(fn, periodMs) {
    const t = setInterval(fn, Math.max(1, periodMs));
    t.unref?.();
    return t;
  },
  clearTimer(handle) {
    // Node's clearTimeout clears an interval as well.
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

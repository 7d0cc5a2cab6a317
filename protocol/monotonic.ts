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
  clearTimer(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

// The one module of the firmware runtime that reads the monotonic clock (house rule 1).
// `performance.now()` never jumps with wall-clock steps (NTP, DST). Every other module
// receives time through a Timebase (timebase.ts).
import type { Timebase } from './timebase.ts';

/** Integer milliseconds since this process started, on the monotonic clock. */
export function monotonicNowMs(): number {
  return Math.floor(performance.now());
}

/** Real time: the monotonic clock and Node's timers. */
export const realTimebase: Timebase = {
  now: monotonicNowMs,
  setTimer: (fn, delayMs) => setTimeout(fn, Math.max(0, delayMs)),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

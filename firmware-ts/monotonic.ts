// Real time for the firmware. The runtime reads the monotonic clock in one place only,
// protocol/monotonic.ts (docs/architecture.md rule 1), which the host link uses too; this module turns
// it into the firmware's Timebase (integer milliseconds, Node's timers).
import { monotonicNowMs as protocolNowMs } from '../protocol/monotonic.ts';
import type { Timebase } from './timebase.ts';

/** Integer milliseconds on the monotonic clock. */
export function monotonicNowMs(): number {
  return Math.floor(protocolNowMs());
}

/** Real time: the monotonic clock and Node's timers (kept referenced: a pending flag keeps the clock alive). */
export const realTimebase: Timebase = {
  now: monotonicNowMs,
  setTimer: (fn, delayMs) => setTimeout(fn, Math.max(0, delayMs)),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

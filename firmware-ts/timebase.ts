// Where the firmware gets time from. One object gives the monotonic "now" (integer
// milliseconds) and schedules timers on the same time base; the XState actors get it
// as their clock, so the statechart's `after` deadlines, the display repaints and the
// key stamps all live on one time line. The real board passes `realTimebase`
// (monotonic.ts); the simulator and the tests pass a simulated one they advance.
// The shape matches protocol/'s TimeSource, so one object can serve the link too.

export type TimerHandle = object | number;

export interface Timebase {
  /** Integer milliseconds on a monotonic base (never goes back; unrelated to UTC). */
  now(): number;
  setTimer(fn: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** XState's clock interface (`createActor(machine, { clock })`). */
export interface ActorClock {
  setTimeout(fn: (...args: unknown[]) => void, timeout: number): unknown;
  clearTimeout(id: unknown): void;
}

/** The Timebase seen as an XState clock. */
export function xstateClock(time: Timebase): ActorClock {
  return {
    setTimeout: (fn, timeout) => time.setTimer(() => fn(), timeout),
    clearTimeout: (id) => time.clearTimer(id as TimerHandle),
  };
}

// Accelerated time for a simulated hall that people watch: hall time flows `speed` times
// faster than real time, continuously (no jumps), so clocks visibly tick and players press
// every few seconds while a 90-minute game takes minutes.
//
// Unlike SimulatedTime (which only moves when told to, for exact tests), this time base
// is driven by the real monotonic clock (protocol/monotonic.ts, the runtime's one reader):
// now() = floor((real − real at start) × speed), and a timer of d hall-ms fires after
// d / speed real ms. Clocks, players and the host all read one instance, so the host's
// time sync sees the clocks' time with offset 0 and no drift.
import { systemTime, type TimeSource } from '../protocol/monotonic.ts';
import type { Timebase, TimerHandle } from '../firmware-ts/timebase.ts';

export class AcceleratedTime implements Timebase {
  private readonly realStartMs: number;

  constructor(
    readonly speed: number,
    private readonly real: TimeSource = systemTime,
    /** Hall time at the start (ms). */
    private readonly startMs = 0,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`speed must be a positive number, got ${speed}`);
    this.realStartMs = real.now();
  }

  /** Integer hall milliseconds. */
  now(): number {
    return this.startMs + Math.floor((this.real.now() - this.realStartMs) * this.speed);
  }

  /** Real milliseconds for `hallMs` of hall time. */
  realMs(hallMs: number): number {
    return Math.max(0, hallMs) / this.speed;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    // Kept referenced (as the firmware's real time base does): a pending flag keeps the hall alive.
    return setTimeout(fn, this.realMs(delayMs));
  }

  clearTimer(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }

  /** Resolves when hall time reaches `t` (at once if it has). */
  until(t: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = () => {
        const left = t - this.now();
        if (left <= 0) resolve();
        else setTimeout(wait, Math.max(1, this.realMs(left)));
      };
      wait();
    });
  }
}

// The host's one time reference: a monotonic time base (for links, retransmission, sync)
// and UTC derived from it. The wall clock is read ONCE, when the host starts; afterwards
// UTC = utcAtStart + (monotonic now − monotonic at start).
//
// Why not `Date.now()` at every event: the wall clock steps (NTP corrections, an operator
// fixing the date, DST-confused BIOS clocks) and a step in the middle of a round would
// make journaled presses jump back or forth against each other, while the time-sync
// estimates of every clock are kept on the monotonic base. With one reference, all UTC
// times in the journal lie on one straight line, consistent with every clock's mapping.
// The price is the host oscillator's drift against true UTC (tens of ppm: a few hundred
// ms over a long day); `reanchor()` exists for a host that runs for days, and logs the
// step it makes so the journal's reader knows.
//
// The monotonic clock itself is read by protocol/monotonic.ts (docs/architecture.md rule 1: one reader
// per runtime); this module reads only the wall clock, once per anchor.
import { systemTime, type TimeSource } from '../../protocol/monotonic.ts';
import { hostToUtcMs, type UtcReference } from '../../protocol/time-sync.ts';

/** What the host needs of time: the monotonic base and timers, plus UTC on that base. */
export interface HostClock extends TimeSource {
  /** The pairing of one monotonic instant with its UTC. */
  utcReference(): UtcReference;
  /** UTC ms (integer) now. */
  nowUtcMs(): number;
}

export class AnchoredClock implements HostClock {
  private ref: UtcReference;

  /** The base's repeating timers, where it has them (protocol/monotonic.ts TimeSource). */
  readonly setRepeating?: TimeSource['setRepeating'];

  constructor(
    private readonly base: TimeSource,
    ref: UtcReference,
  ) {
    this.ref = ref;
    if (base.setRepeating) this.setRepeating = (fn, periodMs) => base.setRepeating!(fn, periodMs);
  }

  now(): number {
    return this.base.now();
  }

  setTimer(fn: () => void, delayMs: number) {
    return this.base.setTimer(fn, delayMs);
  }

  clearTimer(handle: Parameters<TimeSource['clearTimer']>[0]): void {
    this.base.clearTimer(handle);
  }

  utcReference(): UtcReference {
    return this.ref;
  }

  nowUtcMs(): number {
    return Math.round(hostToUtcMs(this.base.now(), this.ref));
  }

  /** Replaces the reference (a new wall-clock reading); returns the step in ms it makes. */
  reanchor(ref: UtcReference): number {
    const step = Math.round(hostToUtcMs(ref.hostMs, ref) - hostToUtcMs(ref.hostMs, this.ref));
    this.ref = ref;
    return step;
  }
}

/** The real clock: performance.now() (through protocol/monotonic.ts) anchored to Date.now() once. */
export function systemHostClock(): AnchoredClock {
  const hostMs = systemTime.now();
  const utcMs = Date.now();
  return new AnchoredClock(systemTime, { hostMs, utcMs });
}

/** Takes a fresh wall-clock reading for `reanchor` (a long-running host, e.g. daily). */
export function wallClockReference(): UtcReference {
  return { hostMs: systemTime.now(), utcMs: Date.now() };
}

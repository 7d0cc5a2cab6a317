// A process's own stalls and garbage-collection pauses on CLOCK_MONOTONIC (the time base both
// the bench and the host process stamp presses and commits on), so that the host's stalls, the
// bench's stalls and the late presses of one run can be laid side by side
// (HOST_CEILING_TRACE=FILE in bench/host-ceiling.bench.ts).
import { PerformanceObserver } from 'node:perf_hooks';
import { systemMonotonicMs } from './wire-clock.ts';

export interface Stall {
  /** When the stall began, CLOCK_MONOTONIC ms. */
  readonly at: number;
  readonly ms: number;
  readonly kind: 'loop' | 'gc';
  readonly detail?: string;
}

/**
 * The host process's answer to `stalls-stop` (bench/support/host-process.ts): its stalls, and
 * each WAL checkpoint as [when it was reported (CLOCK_MONOTONIC ms), how long it took (ms), WAL frames].
 */
export interface StallsReport {
  readonly stalls: Stall[];
  readonly checkpoints: Array<[at: number, ms: number, frames: number]>;
}

/** One line of a timeline: who stalled, what kind, how long. */
export const stallText = (who: string, s: Stall): string => `${who} ${s.kind}${s.detail ? ` ${s.detail}` : ''} ${s.ms.toFixed(1)} ms`;

const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };

/** A GC performance entry's kind: minor (a scavenge of the young generation), major (mark-compact), incremental, weakcb. */
export const gcKind = (e: PerformanceEntry): string => GC_KINDS[(e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';

/**
 * Records, from now until `stop`, every turn of the event loop that came `minMs` or more late
 * (a timer due every 2 ms) and every GC pause of `minMs` or more.
 */
export function recordStalls(minMs: number): { stop(): Stall[] } {
  const out: Stall[] = [];
  // performance.now() and CLOCK_MONOTONIC differ by a constant: GC entries carry performance.now() times.
  const offset = systemMonotonicMs() - performance.now();
  let last = systemMonotonicMs();
  const timer = setInterval(() => {
    const now = systemMonotonicMs();
    if (now - last - 2 >= minMs) out.push({ at: last + 2, ms: now - last - 2, kind: 'loop' });
    last = now;
  }, 2);
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration < minMs) continue;
      out.push({ at: e.startTime + offset, ms: e.duration, kind: 'gc', detail: gcKind(e) });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      clearInterval(timer);
      obs.disconnect();
      return out.sort((a, b) => a.at - b.at);
    },
  };
}

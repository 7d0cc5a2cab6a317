// A Link's time sync (docs/protocol.md, "Time sync"): the exchange it starts (SyncRequest
// out, SyncResponse back, four timestamps), the estimates of the clock's time base kept per
// clock boot (host role), and the automatic exchanges the host runs while a session is up.
// Answering the peer's SyncRequest stays in protocol/link.ts: it depends on the session.
import { AUTO_SYNC_DEFAULTS, type Body, type LinkOptions } from './link-types.ts';
import type { TimeSource, TimerHandle } from './monotonic.ts';
import { type SyncSample, TimeSyncEstimator } from './time-sync.ts';

const U32 = 0x1_0000_0000;
/** A millisecond time as the wire's uint32 (wrapping). */
export const u32 = (ms: number): number => ((Math.floor(ms) % U32) + U32) % U32;

/** What the time sync needs of its Link. */
export interface SyncLine {
  readonly time: TimeSource;
  readonly opts: Pick<LinkOptions, 'autoSync' | 'timeSync'>;
  /** The Link's counters this part keeps. */
  readonly counters: { syncRequests: number; syncTimeouts: number };
  /** Whether a session is up (exchanges run only then). */
  isUp(): boolean;
  /** Host role: the clock boot the answers measure (undefined for the clock role or before a session). */
  peerBoot(): number | undefined;
  /** Sends an unsequenced control body. */
  write(body: Body): void;
  /** Reports a completed exchange. */
  sampled(sample: SyncSample): void;
}

export class LinkTimeSync {
  /** Host role: the estimate of the clock's time base, per clock boot id. */
  readonly byBoot = new Map<number, TimeSyncEstimator>();
  private readonly line: SyncLine;
  private syncTimer: TimerHandle | null = null;
  private outstanding: { t1: number; resolve: (s: SyncSample | null) => void; timer: TimerHandle } | null = null;

  constructor(line: SyncLine) {
    this.line = line;
  }

  /** One exchange: the four timestamps, or null when unanswered within `timeoutMs` (or one is already out). */
  syncOnce(timeoutMs: number): Promise<SyncSample | null> {
    const { time, counters } = this.line;
    if (!this.line.isUp() || this.outstanding) return Promise.resolve(null);
    const t1 = Math.floor(time.now());
    counters.syncRequests++;
    return new Promise((resolve) => {
      const timer = time.setTimer(() => {
        this.outstanding = null;
        counters.syncTimeouts++;
        resolve(null);
      }, timeoutMs);
      this.outstanding = { t1, resolve, timer };
      this.line.write({ case: 'syncRequest', value: { t1Ms: u32(t1) } } as Body);
    });
  }

  /** The peer's answer to our exchange: completes it (a late or foreign answer is ignored). */
  onSyncResponse(t1Ms: number, t2Ms: number, t3Ms: number, arrivedAtMs: number): void {
    const out = this.outstanding;
    if (!out || u32(out.t1) !== t1Ms) return; // late or foreign
    this.line.time.clearTimer(out.timer);
    this.outstanding = null;
    const sample: SyncSample = { t1: out.t1, t2: t2Ms, t3: t3Ms, t4: Math.floor(arrivedAtMs) };
    const boot = this.line.peerBoot();
    if (boot !== undefined) this.estimatorFor(boot).addSample(sample);
    this.line.sampled(sample);
    out.resolve(sample);
  }

  /** The estimate for clock boot `boot`, made on first use. */
  estimatorFor(boot: number): TimeSyncEstimator {
    let e = this.byBoot.get(boot);
    if (!e) {
      e = new TimeSyncEstimator(this.line.opts.timeSync);
      this.byBoot.set(boot, e);
    }
    return e;
  }

  /** Host role: exchanges at once, then at the sync phase's pace, then at the steady interval. */
  startAutoSync(): void {
    this.stopAutoSync();
    const o = { ...AUTO_SYNC_DEFAULTS, ...(this.line.opts.autoSync || {}) };
    const time = this.line.time;
    /** The period the timer repeats at now (0: a one-shot, re-armed by each tick). */
    let period = 0;
    const tick = () => {
      if (!this.line.isUp()) return this.stopAutoSync();
      void this.syncOnce(o.timeoutMs);
      // The sync phase runs once per clock boot (a new boot is a new time base).
      // The count alone: fitting the line here, after every exchange, cost the host 1% at 2,000 clocks.
      const boot = this.line.peerBoot();
      const samples = boot === undefined ? 0 : this.estimatorFor(boot).acceptedSamples;
      const next = samples < o.phaseExchanges ? o.phaseIntervalMs : o.intervalMs;
      if (period !== 0 && next === period) return; // the repeating timer calls again
      // A repeating timer at another period stops; a one-shot has fired and needs nothing.
      if (period !== 0 && this.syncTimer) time.clearTimer(this.syncTimer);
      // One repeating timer per period where the time source has them (systemTime), rather
      // than a new timer for every exchange.
      period = time.setRepeating ? next : 0;
      this.syncTimer = time.setRepeating ? time.setRepeating(tick, next) : time.setTimer(tick, next);
    };
    this.syncTimer = time.setTimer(tick, 0);
  }

  /** Stops the automatic exchanges. */
  stopAutoSync(): void {
    if (this.syncTimer) this.line.time.clearTimer(this.syncTimer);
    this.syncTimer = null;
  }

  /** The link closed: an exchange still out resolves null. */
  cancel(): void {
    if (!this.outstanding) return;
    this.line.time.clearTimer(this.outstanding.timer);
    this.outstanding.resolve(null);
    this.outstanding = null;
  }
}

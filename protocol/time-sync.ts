// Host-side estimate of a clock's time base, from NTP-style exchanges (RFC 5905 §8).
//
// One exchange gives four timestamps:
//   t1 host sends SyncRequest        (host monotonic ms)
//   t2 clock receives it             (clock monotonic ms)
//   t3 clock sends SyncResponse      (clock monotonic ms)
//   t4 host receives the response    (host monotonic ms)
// offset = ((t2 − t1) + (t3 − t4)) / 2   — clock minus host, exact when both legs take as long
// delay  = (t4 − t1) − (t3 − t2)         — the round trip spent on the wire
// The true offset lies within offset ± delay/2 whatever the asymmetry, so the sample
// with the smallest round trip is the most trustworthy (NTP's clock filter). We keep the
// minimum-delay sample of each window of `windowSize` exchanges and fit a straight line
// offset(h) = a + b·(h − h̄) through the last `maxWindows` of them by least squares:
// b is the drift (crystal error, ~±100 ppm on a cheap clock) and a the offset at h̄.
//
// Pure: no clock reads, no timers. The caller stamps t1/t4; the clock stamps t2/t3.

export interface SyncSample {
  /** Host monotonic ms when the request left. */
  readonly t1: number;
  /** Clock monotonic ms when the request arrived. */
  readonly t2: number;
  /** Clock monotonic ms when the response left. */
  readonly t3: number;
  /** Host monotonic ms when the response arrived. */
  readonly t4: number;
}

export interface SyncEstimate {
  /** Clock time minus host time at `referenceHostMs`. */
  readonly offsetMs: number;
  /** Clock rate error: the clock gains `driftPpm` µs per second of host time. */
  readonly driftPpm: number;
  /**
   * Hard bound on |mapped − true| for clock times inside the fitted span (see `spanBound`),
   * assuming the clock rate held steady over it. Extrapolation beyond the last exchange
   * adds |drift error| × elapsed time, which is why the host keeps exchanging.
   */
  readonly uncertaintyMs: number;
  /** Host ms at which `offsetMs` holds (the centre of the fitted samples). */
  readonly referenceHostMs: number;
  /** Exchanges accepted so far. */
  readonly samples: number;
  /** Points in the current fit (minimum-delay samples of windows, the open window included). */
  readonly fitPoints: number;
  /** Smallest round trip among the fitted points. */
  readonly minDelayMs: number;
  /** Host ms of the first and last fitted point: where `uncertaintyMs` is promised. */
  readonly spanStartHostMs: number;
  readonly spanEndHostMs: number;
}

export interface TimeSyncOptions {
  /** Exchanges per window; the one with the smallest round trip represents the window. */
  readonly windowSize?: number;
  /** Windows kept for the drift fit (older ones fall out, so a changing drift is followed). */
  readonly maxWindows?: number;
  /** Resolution of the timestamps (integer-ms counters → 1). Added to the uncertainty. */
  readonly quantumMs?: number;
  /**
   * Shortest span of fitted points over which drift is fitted. Two exchanges 200 ms apart
   * with 1 ms of jitter would "measure" thousands of ppm; until the span is long enough
   * the drift is taken as 0 and the offset is a weighted mean.
   */
  readonly minDriftSpanMs?: number;
}

export type SampleVerdict = { readonly ok: true; readonly offsetMs: number; readonly delayMs: number } | { readonly ok: false; readonly reason: string };

export const sampleOffsetMs = (s: SyncSample): number => (s.t2 - s.t1 + (s.t3 - s.t4)) / 2;
export const sampleDelayMs = (s: SyncSample): number => s.t4 - s.t1 - (s.t3 - s.t2);

interface Point {
  /** Host time of the exchange (its midpoint). */
  readonly hostMs: number;
  readonly offsetMs: number;
  readonly delayMs: number;
}

export class TimeSyncEstimator {
  readonly windowSize: number;
  readonly maxWindows: number;
  readonly quantumMs: number;
  readonly minDriftSpanMs: number;
  private closed: Point[] = [];
  private open: Point | null = null;
  private openCount = 0;
  private accepted = 0;
  private rejected = 0;
  private cached: SyncEstimate | null = null;
  /**
   * The fitted line, kept until the fitted points change: most exchanges change no point (a
   * window's best exchange is kept), so the host, which asks for the estimate at every clock
   * event, fits again only when a point came or went, not after every exchange.
   */
  private fitted: Omit<SyncEstimate, 'samples'> | null = null;

  constructor(opts: TimeSyncOptions = {}) {
    this.windowSize = opts.windowSize ?? 8;
    this.maxWindows = opts.maxWindows ?? 32;
    this.quantumMs = opts.quantumMs ?? 1;
    this.minDriftSpanMs = opts.minDriftSpanMs ?? 10_000;
    if (!(Number.isInteger(this.windowSize) && this.windowSize >= 1)) throw new RangeError(`windowSize must be a positive integer, got ${this.windowSize}`);
    if (!(Number.isInteger(this.maxWindows) && this.maxWindows >= 1)) throw new RangeError(`maxWindows must be a positive integer, got ${this.maxWindows}`);
  }

  get rejectedSamples(): number {
    return this.rejected;
  }

  /** Exchanges accepted so far (`estimate().samples`, without fitting the line). */
  get acceptedSamples(): number {
    return this.accepted;
  }

  /** Feeds one exchange. Impossible ones (time running backwards) are refused, not fitted. */
  addSample(s: SyncSample): SampleVerdict {
    for (const k of ['t1', 't2', 't3', 't4'] as const) {
      if (!Number.isFinite(s[k])) {
        this.rejected++;
        return { ok: false, reason: `sync sample field ${k} is not a finite number (${s[k]})` };
      }
    }
    if (s.t4 < s.t1 || s.t3 < s.t2) {
      this.rejected++;
      return { ok: false, reason: `sync sample runs backwards: t1=${s.t1} t4=${s.t4}, t2=${s.t2} t3=${s.t3}` };
    }
    const delayMs = sampleDelayMs(s);
    // A response that took less time than the clock spent on it: impossible beyond the
    // timestamp resolution, so one of the stamps is wrong.
    if (delayMs < -2 * this.quantumMs) {
      this.rejected++;
      return { ok: false, reason: `sync sample has negative round trip ${delayMs} ms` };
    }
    const point: Point = { hostMs: (s.t1 + s.t4) / 2, offsetMs: sampleOffsetMs(s), delayMs: Math.max(0, delayMs) };
    this.accepted++;
    if (!this.open || point.delayMs < this.open.delayMs) {
      this.open = point;
      this.fitted = null;
    }
    this.openCount++;
    if (this.openCount >= this.windowSize) {
      // The open window's point becomes the newest closed one: the same points, in the same
      // order, unless the oldest falls out.
      this.closed.push(this.open);
      if (this.closed.length > this.maxWindows) {
        this.closed.shift();
        this.fitted = null;
      }
      this.open = null;
      this.openCount = 0;
    }
    this.cached = null;
    return { ok: true, offsetMs: point.offsetMs, delayMs: point.delayMs };
  }

  /** The current estimate, or null before the first exchange. */
  estimate(): SyncEstimate | null {
    if (this.cached) return this.cached;
    const fitted = this.fitted ?? (this.fitted = this.fit());
    if (!fitted) return null;
    this.cached = { ...fitted, samples: this.accepted };
    return this.cached;
  }

  /** The weighted least-squares line through the fitted points, or null without any. */
  private fit(): Omit<SyncEstimate, 'samples'> | null {
    // The points in order (the closed windows', then the open one's), in arrays every fit
    // reuses: the host fits at most of its clock events, so a fit allocates only its answer.
    const n = this.closed.length + (this.open ? 1 : 0);
    if (n === 0) return null;
    const s = scratchFor(n, this.maxWindows + 1);
    const pts = s.points;
    for (let i = 0; i < this.closed.length; i++) pts[i] = this.closed[i];
    if (this.open) pts[n - 1] = this.open;
    pts.length = n;
    const q = this.quantumMs;
    // Weighted least squares: a point is only known to ±(delay/2 + quantum), so a window
    // whose best exchange still took long (a half-filled open window, a busy line) pulls
    // the line less than a tight one.
    const w = s.weights;
    let sw = 0;
    for (let i = 0; i < n; i++) {
      w[i] = 1 / (pts[i].delayMs / 2 + q) ** 2;
      sw += w[i];
    }
    let meanH = 0;
    let meanO = 0;
    for (let i = 0; i < n; i++) {
      meanH += (w[i] * pts[i].hostMs) / sw;
      meanO += (w[i] * pts[i].offsetMs) / sw;
    }
    let sxx = 0;
    let sxy = 0;
    let first = Infinity;
    let last = -Infinity;
    let minDelayMs = Infinity;
    for (let i = 0; i < n; i++) {
      const p = pts[i];
      const dx = p.hostMs - meanH;
      sxx += w[i] * dx * dx;
      sxy += w[i] * dx * (p.offsetMs - meanO);
      first = Math.min(first, p.hostMs);
      last = Math.max(last, p.hostMs);
      minDelayMs = Math.min(minDelayMs, p.delayMs);
    }
    const slope = last - first >= this.minDriftSpanMs && sxx > 1e-9 ? sxy / sxx : 0;
    return {
      offsetMs: meanO,
      driftPpm: slope * 1e6,
      uncertaintyMs: spanBound(s, n, meanO, slope, meanH, q),
      referenceHostMs: meanH,
      fitPoints: n,
      minDelayMs,
      spanStartHostMs: first,
      spanEndHostMs: last,
    };
  }

  /** Maps a clock timestamp to host monotonic ms. Throws before the first exchange. */
  clockToHostMs(clockMs: number): number {
    const e = this.require();
    // clock = host + offset + b·(host − ref)  ⇒  host = (clock − offset + b·ref) / (1 + b)
    const b = e.driftPpm / 1e6;
    return (clockMs - e.offsetMs + b * e.referenceHostMs) / (1 + b);
  }

  /** Maps host monotonic ms to the clock's time base. Throws before the first exchange. */
  hostToClockMs(hostMs: number): number {
    const e = this.require();
    return hostMs + e.offsetMs + (e.driftPpm / 1e6) * (hostMs - e.referenceHostMs);
  }

  /** Forgets everything (the clock rebooted: its monotonic base restarted). */
  reset(): void {
    this.closed = [];
    this.open = null;
    this.openCount = 0;
    this.accepted = 0;
    this.cached = null;
    this.fitted = null;
  }

  private require(): SyncEstimate {
    const e = this.estimate();
    if (!e) throw new Error('time sync: no exchange yet, cannot map clock time (call addSample first)');
    return e;
  }
}

/**
 * The host's UTC at a monotonic instant: the host room reads both once (its UTC source
 * may be NTP-disciplined) and passes the pair in; protocol/ never reads the wall clock.
 */
export interface UtcReference {
  readonly hostMs: number;
  readonly utcMs: number;
}

export const hostToUtcMs = (hostMs: number, ref: UtcReference): number => ref.utcMs + (hostMs - ref.hostMs);

/** A clock timestamp as UTC milliseconds since the epoch. */
export const clockToUtcMs = (est: TimeSyncEstimator, clockMs: number, ref: UtcReference): number => hostToUtcMs(est.clockToHostMs(clockMs), ref);

/**
 * Each fitted point i pins the true offset to offsetᵢ ± (delayᵢ/2 + 2q): NTP's bound
 * ±delay/2, widened because four integer-ms stamps move the offset by < 1 q and can make
 * the measured round trip look up to 2 q shorter than it was. So the fitted line is off
 * by at most Bᵢ = |residualᵢ| + delayᵢ/2 + 2q at hᵢ. The error of a line against a line is
 * itself linear in h, so between two points it is at most the larger of their bounds; at
 * any h inside the span the best left and best right points bound it. The worst such h
 * gives one number for the whole span.
 */
function spanBound(s: FitScratch, n: number, meanO: number, slope: number, meanH: number, q: number): number {
  const sorted = s.sorted;
  for (let i = 0; i < n; i++) sorted[i] = s.points[i];
  sorted.length = n;
  sorted.sort((a, b) => a.hostMs - b.hostMs);
  const b = s.bounds;
  for (let i = 0; i < n; i++) {
    const p = sorted[i];
    b[i] = Math.abs(p.offsetMs - (meanO + slope * (p.hostMs - meanH))) + p.delayMs / 2 + 2 * q;
  }
  const leftMin = s.leftMin;
  const rightMin = s.rightMin;
  for (let i = 0; i < n; i++) leftMin[i] = Math.min(b[i], i > 0 ? leftMin[i - 1] : Infinity);
  for (let i = n - 1; i >= 0; i--) rightMin[i] = Math.min(b[i], i < n - 1 ? rightMin[i + 1] : Infinity);
  let worst = 0;
  // Just left of point i (between i−1 and i) the bracketing sets are [0..i−1] and [i..n−1].
  for (let i = 0; i < n; i++) {
    worst = Math.max(worst, Math.max(leftMin[i], rightMin[i]));
    if (i > 0) worst = Math.max(worst, Math.max(leftMin[i - 1], rightMin[i]));
  }
  return worst;
}

/** The arrays a fit works in (TimeSyncEstimator.fit). */
interface FitScratch {
  readonly points: Point[];
  readonly sorted: Point[];
  readonly weights: Float64Array;
  readonly bounds: Float64Array;
  readonly leftMin: Float64Array;
  readonly rightMin: Float64Array;
}

/**
 * One set for every estimator: a fit runs to its end without yielding, so no two fits ever
 * share it at once, and a hall of clocks costs no memory per clock for it.
 */
let scratch: FitScratch | null = null;

/** The shared arrays, grown to hold `n` points (at least `size`). */
function scratchFor(n: number, size: number): FitScratch {
  if (!scratch || scratch.weights.length < n) {
    const len = Math.max(n, size);
    scratch = {
      points: [],
      sorted: [],
      weights: new Float64Array(len),
      bounds: new Float64Array(len),
      leftMin: new Float64Array(len),
      rightMin: new Float64Array(len),
    };
  }
  return scratch;
}

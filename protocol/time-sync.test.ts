import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TimeSyncEstimator, clockToUtcMs, sampleDelayMs, sampleOffsetMs, type SyncSample } from './time-sync.ts';
import { exponential, mulberry32, type Rng } from './prng.ts';

/**
 * A simulated clock on a serial line. True relation: clock(h) = offset0 + h·(1 + drift).
 * Both sides stamp integer milliseconds (floor), like the firmware's ms counter.
 * Each leg takes a fixed line time plus exponential queueing jitter with a different mean
 * per direction (asymmetric), and the clock spends a random time before answering.
 */
interface SimClock {
  offset0Ms: number;
  driftPpm: number;
  lineMs: number;
  forwardJitterMeanMs: number;
  backJitterMeanMs: number;
  turnaroundMaxMs: number;
}

const trueClockAt = (c: SimClock, hostMs: number) => c.offset0Ms + hostMs * (1 + c.driftPpm / 1e6);
const trueHostAt = (c: SimClock, clockMs: number) => (clockMs - c.offset0Ms) / (1 + c.driftPpm / 1e6);

function exchange(c: SimClock, rng: Rng, sendHostMs: number): SyncSample {
  const forward = c.lineMs + exponential(rng, c.forwardJitterMeanMs);
  const turnaround = rng() * c.turnaroundMaxMs;
  const back = c.lineMs + exponential(rng, c.backJitterMeanMs);
  const arriveHost = sendHostMs + forward;
  const t2True = trueClockAt(c, arriveHost);
  const t3True = t2True + turnaround;
  const leaveHost = trueHostAt(c, t3True);
  return { t1: Math.floor(sendHostMs), t2: Math.floor(t2True), t3: Math.floor(t3True), t4: Math.floor(leaveHost + back) };
}

/** Runs `n` exchanges, one every `periodMs`, starting at `startMs`; returns the host time reached. */
function syncPhase(est: TimeSyncEstimator, c: SimClock, rng: Rng, n: number, periodMs: number, startMs: number): number {
  let h = startMs;
  for (let i = 0; i < n; i++, h += periodMs) expect(est.addSample(exchange(c, rng, h)).ok).toBe(true);
  return h;
}

describe('time sync arithmetic (RFC 5905 §8 on-wire protocol)', () => {
  it('offset and delay of one exchange follow the four-timestamp formulas', () => {
    // Clock is 1000 ms ahead; 3 ms out, 5 ms back, 2 ms turnaround.
    const s = { t1: 100, t2: 1103, t3: 1105, t4: 110 };
    expect(sampleOffsetMs(s)).toBe(999); // ((1103-100)+(1105-110))/2 = (1003+995)/2: asymmetry hides 1 ms
    expect(sampleDelayMs(s)).toBe(8); // (110-100)-(1105-1103)
  });

  it('refuses impossible samples with a reason naming the fields and keeps its estimate', () => {
    const est = new TimeSyncEstimator();
    est.addSample({ t1: 0, t2: 500, t3: 501, t4: 4 });
    const before = est.estimate();
    const bad = est.addSample({ t1: 10, t2: 600, t3: 601, t4: 5 });
    expect(bad).toEqual({ ok: false, reason: expect.stringContaining('t1=10 t4=5') });
    expect(est.addSample({ t1: 10, t2: Number.NaN, t3: 601, t4: 15 })).toEqual({ ok: false, reason: expect.stringContaining('t2') });
    expect(est.estimate()).toEqual(before);
    expect(est.rejectedSamples).toBe(2);
  });

  it('keeps the smallest-round-trip sample of a window (NTP clock filter)', () => {
    const est = new TimeSyncEstimator({ windowSize: 3 });
    est.addSample({ t1: 0, t2: 1010, t3: 1010, t4: 30 }); // delay 30, offset 995
    est.addSample({ t1: 100, t2: 1101, t3: 1101, t4: 102 }); // delay 2, offset 1000
    est.addSample({ t1: 200, t2: 1215, t3: 1215, t4: 220 }); // delay 20, offset 1005
    const e = est.estimate()!;
    expect(e.fitPoints).toBe(1);
    expect(e.offsetMs).toBe(1000);
    expect(e.minDelayMs).toBe(2);
    expect(e.uncertaintyMs).toBe(1 + 0 + 2); // delay/2 + residual + 2 quanta of stamp rounding
  });

  it('mapping before any exchange is an error, not a guess', () => {
    expect(() => new TimeSyncEstimator().clockToHostMs(5)).toThrow(/no exchange yet/);
  });

  // The sync phase: 128 exchanges, one every 250 ms (32 s), windows of 8 → 16 fitted points.
  const SYNC_EXCHANGES = 128;
  const SYNC_PERIOD_MS = 250;

  it('after a 32 s sync phase, maps clock timestamps to host time within 1 ms (known offset, 100 ppm drift, asymmetric jitter)', () => {
    const clock: SimClock = { offset0Ms: 123_456_789, driftPpm: 100, lineMs: 1, forwardJitterMeanMs: 2, backJitterMeanMs: 6, turnaroundMaxMs: 3 };
    const rng = mulberry32(20261129);
    const est = new TimeSyncEstimator({ windowSize: 8, maxWindows: 32 });
    const start = 5_000_000; // the host has been up for a while
    const end = syncPhase(est, clock, rng, SYNC_EXCHANGES, SYNC_PERIOD_MS, start);
    const e = est.estimate()!;
    expect(Math.abs(e.driftPpm - 100)).toBeLessThan(20);
    let worst = 0;
    // The estimator's error, for exact clock instants (a stamped event adds its own < 1 ms
    // of counter rounding on top, which no estimator can remove).
    for (let h = start; h <= end + 5_000; h += 97) worst = Math.max(worst, Math.abs(est.clockToHostMs(trueClockAt(clock, h)) - h));
    expect(worst).toBeLessThan(1);
    expect(e.uncertaintyMs).toBeLessThan(4);
  });

  it('follows a clock through a long game: 100 ppm accumulates 360 ms in an hour, estimate stays within 1 ms', () => {
    const clock: SimClock = { offset0Ms: -42_000, driftPpm: -100, lineMs: 1, forwardJitterMeanMs: 5, backJitterMeanMs: 1, turnaroundMaxMs: 2 };
    const rng = mulberry32(7);
    const est = new TimeSyncEstimator();
    let h = syncPhase(est, clock, rng, SYNC_EXCHANGES, SYNC_PERIOD_MS, 0);
    // Then one exchange every 2 s (the link's default) for an hour, checking "now" each time.
    let worst = 0;
    for (let i = 0; i < 1800; i++) {
      h = syncPhase(est, clock, rng, 1, 2_000, h);
      worst = Math.max(worst, Math.abs(est.clockToHostMs(trueClockAt(clock, h)) - h));
    }
    expect(worst).toBeLessThan(1);
    expect(Math.abs(est.estimate()!.driftPpm + 100)).toBeLessThan(10);
  });

  it('property: the true error never exceeds the reported uncertainty (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (offset0Ms, driftPpm, fj, bj, lineMs, n, seed) => {
          const clock: SimClock = { offset0Ms, driftPpm, lineMs, forwardJitterMeanMs: fj, backJitterMeanMs: bj, turnaroundMaxMs: 5 };
          const rng = mulberry32(seed);
          const est = new TimeSyncEstimator({ windowSize: 4 });
          const end = syncPhase(est, clock, rng, n, 200, 1_000_000);
          const e = est.estimate()!;
          // Inside the fitted span the bound must hold (extrapolation is not promised).
          for (let h = e.spanStartHostMs; h <= e.spanEndHostMs; h += 50) {
            const err = Math.abs(est.clockToHostMs(trueClockAt(clock, h)) - h);
            if (err > e.uncertaintyMs) return false;
          }
          // And the round trip host → clock → host is the identity.
          return Math.abs(est.clockToHostMs(est.hostToClockMs(end)) - end) < 1e-6;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives the same estimate whether it is asked after every exchange or only at the end (the fit is kept only while its points stand)', () => {
    // RFC 5905 §10 (the clock filter keeps a window's best exchange): an exchange that keeps
    // every fitted point leaves the line as it was, and one that replaces the open window's
    // point, or pushes the oldest window out, changes it. The host asks at every clock event.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (windowSize, maxWindows, n, seed) => {
          const clock: SimClock = { offset0Ms: 5_000, driftPpm: 80, lineMs: 1, forwardJitterMeanMs: 3, backJitterMeanMs: 6, turnaroundMaxMs: 5 };
          const rng = mulberry32(seed);
          const asked = new TimeSyncEstimator({ windowSize, maxWindows, minDriftSpanMs: 2_000 });
          const samples = Array.from({ length: n }, (_, i) => exchange(clock, rng, 1_000_000 + i * 250));
          for (const s of samples) {
            asked.addSample(s);
            const once = new TimeSyncEstimator({ windowSize, maxWindows, minDriftSpanMs: 2_000 });
            for (const t of samples.slice(0, samples.indexOf(s) + 1)) once.addSample(t);
            expect(asked.estimate()).toEqual(once.estimate());
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('maps a clock timestamp to UTC through the host reference the host room supplies', () => {
    const est = new TimeSyncEstimator();
    est.addSample({ t1: 1000, t2: 51000, t3: 51000, t4: 1000 }); // clock = host + 50 s
    const utcAtRef = 1795978800000; // 2026-11-29T19:00:00Z
    const utc = clockToUtcMs(est, 61_000, { hostMs: 1000, utcMs: utcAtRef });
    expect(utc).toBe(utcAtRef + 10_000); // clock 61 000 = host 11 000 = reference + 10 s
  });
});

// A small seeded PRNG (mulberry32) so impaired links and simulated clocks replay exactly
// from a seed: a failing test prints its seed and fails the same way again.
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An exponentially distributed value with the given mean (queueing jitter). */
export const exponential = (rng: Rng, meanMs: number): number => -meanMs * Math.log(1 - rng());

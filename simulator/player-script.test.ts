import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../protocol/prng.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { logNormalMs, moveBudgetMs } from './player-script.ts';

describe('scripted players', () => {
  it('log-normal think times have the requested median and a long right tail', () => {
    const rng = mulberry32(9);
    const draws = Array.from({ length: 20_000 }, () => logNormalMs(rng, 60_000, 0.9)).sort((a, b) => a - b);
    const median = draws[10_000];
    expect(median).toBeGreaterThan(57_000);
    expect(median).toBeLessThan(63_000);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    // E[X] = median · exp(σ²/2) ≈ 1.50 × median for σ = 0.9
    expect(mean / 60_000).toBeGreaterThan(1.4);
    expect(mean / 60_000).toBeLessThan(1.6);
  });

  it('the per-move budget comes from the first period (classical: (5400 s + 40 × 30 s) / 40)', () => {
    expect(moveBudgetMs(presetTimeControl('classical'), 'white')).toBe(165_000);
    expect(moveBudgetMs(presetTimeControl('sudden-death-60'), 'black')).toBe(60_000);
  });
});

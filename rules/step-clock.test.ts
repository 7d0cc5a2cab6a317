import { describe, expect, it } from 'vitest';
import { StepClock } from './step-clock.ts';

describe('StepClock (the replay time base)', () => {
  it('fires timers due by the instant, earliest first, including those due exactly then', () => {
    const clock = new StepClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@30'), 30);
    clock.setTimeout(() => fired.push('a@10'), 10);
    clock.setTimeout(() => fired.push('c@31'), 31);
    clock.advanceTo(30);
    expect(fired).toEqual(['a@10', 'b@30']);
  });

  it('a timer armed while firing counts from the new instant and fires if already due', () => {
    const clock = new StepClock();
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(-clock.now()), 0);
    }, 5);
    clock.advanceTo(100);
    expect(fired).toEqual([100, -100]);
  });

  it('cleared timers never fire, and time never goes back', () => {
    const clock = new StepClock();
    let fired = false;
    const id = clock.setTimeout(() => (fired = true), 1);
    clock.clearTimeout(id);
    clock.advanceTo(10);
    expect(fired).toBe(false);
    expect(() => clock.advanceTo(9)).toThrow(/cannot go back/);
  });
});

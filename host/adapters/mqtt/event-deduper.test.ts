import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventDeduper } from './event-deduper.ts';

describe('EventDeduper: (clockId, bootId, seq) names one event', () => {
  it('passes each key once and drops repeats (QoS 1 is at-least-once, MQTT 3.1.1 §4.3.2)', () => {
    const d = new EventDeduper();
    expect(d.firstTime('c1', 'b1', 1)).toBe(true);
    expect(d.firstTime('c1', 'b1', 1)).toBe(false);
    expect(d.firstTime('c1', 'b2', 1)).toBe(true); // new boot: seq restarts
    expect(d.firstTime('c2', 'b1', 1)).toBe(true);
    expect(d.firstTime('c1', 'b1', 3)).toBe(true); // out of order
    expect(d.firstTime('c1', 'b1', 2)).toBe(true);
    expect(d.firstTime('c1', 'b1', 3)).toBe(false);
    expect(d.duplicatesDropped).toBe(2);
  });

  it('keeps exactly the distinct keys of any shuffled stream with repeats', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('c1', 'c2'), fc.constantFrom('b1', 'b2'), fc.integer({ min: 1, max: 40 })), { maxLength: 300 }),
        (stream) => {
          const d = new EventDeduper();
          const passed = stream.filter(([c, b, s]) => d.firstTime(c, b, s)).map((k) => k.join('|'));
          expect(new Set(passed).size).toBe(passed.length);
          expect(new Set(passed)).toEqual(new Set(stream.map((k) => k.join('|'))));
        },
      ),
    );
  });
});

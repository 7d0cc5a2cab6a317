// Drops repeated clock events. QoS 1 delivers at least once and the host's outbox resends
// after a crash, so a subscriber can see an event twice; (clockId, bootId, seq) is the
// journal key and names an event uniquely. Memory stays small: per (clock, boot) we keep
// the highest seq below which everything has been seen, plus the few seen above it.

interface Seen {
  /** Every seq ≤ floor has been seen. Clock seqs start at 1 (0 = none yet). */
  floor: number;
  above: Set<number>;
}

export class EventDeduper {
  private readonly seen = new Map<string, Seen>();
  private duplicates = 0;

  /** True the first time a key is offered, false for every repeat. */
  firstTime(clockId: string, bootId: string, seq: number): boolean {
    const key = `${clockId}\u0000${bootId}`;
    let s = this.seen.get(key);
    if (!s) {
      s = { floor: 0, above: new Set() };
      this.seen.set(key, s);
    }
    if (seq <= s.floor || s.above.has(seq)) {
      this.duplicates++;
      return false;
    }
    s.above.add(seq);
    while (s.above.delete(s.floor + 1)) s.floor++;
    return true;
  }

  get duplicatesDropped(): number {
    return this.duplicates;
  }
}

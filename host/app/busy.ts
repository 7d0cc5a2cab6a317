// The host's work under way that nobody awaits where it began (a clock configured on its own, a
// journal batch, a pairing engine run): Host.idle() waits for all of it.
export class Busy {
  private readonly work = new Set<Promise<unknown>>();

  /** Counts `p` as work under way until it settles; returns it. */
  track<T>(p: Promise<T>): Promise<T> {
    this.work.add(p);
    void p.finally(() => this.work.delete(p)).catch(() => undefined);
    return p;
  }

  /** Resolves when every tracked piece of work has settled, that tracked meanwhile included. */
  async idle(): Promise<void> {
    while (this.work.size) await Promise.allSettled([...this.work]);
  }
}

// The publisher's outbox writes while the journal cannot write (docs/reliability.md, "Disk
// full"): a kind of write (the delivery marks, the boards' retained states) that the journal
// refuses is told once when the refusals begin and once when one is stored again, with how many
// tries were refused meanwhile, not at every try; and it is tried again after a delay that
// doubles with every refusal up to a few seconds, not at once. Retried at once, the retained
// states were tried (and logged) every 2 ms on a full disk: thousands of lines in a few
// seconds and a host's CPU three times its idle.

/** The first retry's delay (ms) after a refusal. */
export const RETRY_FIRST_MS = 100;
/** The longest delay (ms) between retries while the refusals last. */
export const RETRY_MAX_MS = 4_000;

/** One kind of outbox write: its refusals counted, told at their start and end, its retries spaced. */
export class RefusedWrites {
  private refused = 0;
  private delay = 0;

  constructor(
    /** What the write does, in words ("store the boards' retained states"). */
    private readonly what: string,
    private readonly report: (err: Error) => void,
  ) {}

  /** A try was refused: told if it is the first (`what`: its own words, if more exact); returns how long (ms) to wait before the next. */
  failed(err: Error, what = this.what): number {
    if (this.refused === 0)
      this.report(
        new Error(
          `MQTT outbox: could not ${what}: ${err.message}; trying again after ${RETRY_FIRST_MS} ms, doubling to at most ${RETRY_MAX_MS / 1000} s; told again once it is stored`,
        ),
      );
    this.refused++;
    this.delay = Math.min(RETRY_MAX_MS, this.delay === 0 ? RETRY_FIRST_MS : this.delay * 2);
    return this.delay;
  }

  /** A try was stored: told if tries were refused before it. */
  succeeded(): void {
    if (this.refused === 0) return;
    this.report(new Error(`MQTT outbox: ${this.what}: done again after ${this.refused} refused tries`));
    this.refused = 0;
    this.delay = 0;
  }

  /** The delay (ms) before the next try: 0 while nothing is refused. */
  get retryMs(): number {
    return this.delay;
  }
}

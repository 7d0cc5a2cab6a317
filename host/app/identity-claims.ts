// Two lines that claim one clock id, and the arbiter's choice between them (docs/reliability.md
// "A second clock claims an online clock's id"; docs/api.md "Clock identity"). The clock fleet
// refuses a clock id already online on another line; the refused line's claim is shown on the
// board the id serves until the arbiter decides:
//
// - keep the online clock: the claiming line is refused, quietly, for as long as it exists
//   (it is not this clock, whoever it says it is);
// - take the newcomer as the replacement: the online clock's line is dropped and refused, and
//   the newcomer is admitted at its next greeting, held and restored from the journal like any
//   clock brought to a game under way (host/clocks/restore-clock.ts).
//
// Pure state: the fleet (clock-fleet.ts) asks and tells; the host journals the choice.

/** A line that greeted with a clock id another line carries online. */
export interface IdentityClaim {
  readonly clockId: string;
  /** The line that carries the id online (the board's commands go there). */
  readonly onlineLine: string;
  readonly onlineBoot: string;
  /** The line refused because it greeted with the same id. */
  readonly line: string;
  readonly boot: string;
  /** When the claim was first refused (host UTC ms). */
  readonly sinceUtcMs: number;
}

/** The arbiter's choice: keep the clock online, or take the newcomer as its replacement. */
export const IDENTITY_CHOICES = ['online', 'newcomer'] as const;
export type IdentityChoice = (typeof IDENTITY_CHOICES)[number];

export class IdentityChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityChoiceError';
  }
}

export class IdentityClaims {
  /** Open claims by the refused line. */
  private readonly open = new Map<string, IdentityClaim>();
  /** Lines refused by the arbiter's choice: the clock id they may not carry, and why. */
  private readonly barred = new Map<string, { readonly clockId: string; readonly why: string }>();

  /** Notes a refused claim; true when it is new (the board's view changes). */
  claimed(claim: IdentityClaim): boolean {
    const known = this.open.get(claim.line);
    if (known && known.clockId === claim.clockId && known.onlineLine === claim.onlineLine) return false;
    this.open.set(claim.line, claim);
    return true;
  }

  /** The open claim on a clock id, if any (the board it serves shows it). */
  claimOn(clockId: string): IdentityClaim | undefined {
    for (const c of this.open.values()) if (c.clockId === clockId) return c;
    return undefined;
  }

  /** Why `line` may not carry `clockId` by the arbiter's choice, or null. */
  barredReason(line: string, clockId: string): string | null {
    const b = this.barred.get(line);
    return b && b.clockId === clockId ? b.why : null;
  }

  /**
   * The arbiter's choice on the claim of `line` to `clockId`; answers the claim decided, whose
   * `onlineLine` the fleet drops when the newcomer is taken. Refused (IdentityChoiceError) when
   * no such claim is open: the lines changed since the arbiter looked.
   */
  decide(clockId: string, line: string, choice: IdentityChoice): IdentityClaim {
    const claim = this.open.get(line);
    if (!claim || claim.clockId !== clockId) {
      const open = [...this.open.values()].filter((c) => c.clockId === clockId).map((c) => c.line);
      throw new IdentityChoiceError(
        `no line ${line} claims clock ${clockId} now${open.length > 0 ? ` (the claims on it: ${open.join(', ')})` : ' (no claim on it is open)'}`,
      );
    }
    this.open.delete(line);
    if (choice === 'online') {
      this.barred.set(line, { clockId, why: `the arbiter kept ${clockId} on ${claim.onlineLine}: this line may not carry it` });
    } else {
      this.barred.set(claim.onlineLine, { clockId, why: `the arbiter took the clock on ${line} as ${clockId}'s replacement: this line may not carry it` });
    }
    return claim;
  }

  /** A line admitted with `clockId`: its own claim is over. */
  admitted(line: string): void {
    this.open.delete(line);
  }

  /** A line that carried an id went offline: the claims against it end (the claimant is admitted at its next greeting). */
  holderGone(line: string): string[] {
    const ended: string[] = [];
    for (const [key, c] of this.open) {
      if (c.onlineLine === line) {
        this.open.delete(key);
        ended.push(c.clockId);
      }
    }
    return ended;
  }

  /** A line removed for good: its claims and bars go. */
  forgetLine(line: string): string[] {
    const ended = [...this.holderGone(line)];
    const own = this.open.get(line);
    if (own) ended.push(own.clockId);
    this.open.delete(line);
    this.barred.delete(line);
    return ended;
  }
}

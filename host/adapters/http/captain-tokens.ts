// Captain tokens: a second role in the same tokens file as the arbiters' (`--tokens FILE`,
// CHESSCLOCK_TOKENS; docs/api.md "Captains"). A captain token is scoped to one team of one team
// event and can do nothing but that team's match protocol: it is never an arbiter token (an
// arbiter route answers a captain token with 403, and the same secret in both roles is refused
// at start). Compared in constant time like the arbiter tokens (arbiter-tokens.ts).
import { type ArbiterTokens, digest, identifyToken, jsonErrorWithoutText, MIN_TOKEN_LENGTH, type ArbiterToken } from './arbiter-tokens.ts';
import type { CaptainIdentity } from '../../app/captains.ts';

export interface CaptainToken extends CaptainIdentity {
  readonly token: string;
}

export class CaptainTokens {
  private readonly entries: ReadonlyArray<{ who: CaptainIdentity; hash: Buffer }>;

  constructor(tokens: readonly CaptainToken[], arbiters?: ArbiterTokens) {
    tokens.forEach((t, i) => {
      const label = `captain token ${i + 1}${t.captain ? ` (${t.captain})` : ''}`;
      if (!t.captain) throw new Error(`${label}: missing captain name`);
      if (!t.event) throw new Error(`${label}: missing event`);
      if (!Number.isSafeInteger(t.team) || t.team < 1) throw new Error(`${label}: "team" must be the team's id (a whole number ≥ 1)`);
      if (typeof t.token !== 'string' || t.token.length < MIN_TOKEN_LENGTH) throw new Error(`${label}: token must be at least ${MIN_TOKEN_LENGTH} characters`);
      // One secret, one person and one role: a token that is also an arbiter's would make the
      // captain an arbiter (or the arbiter a captain) depending on which is looked up first.
      const arbiter = arbiters?.identify(t.token);
      if (arbiter) throw new Error(`${label}: the same token as arbiter ${arbiter}: every person needs a token of their own`);
      const twin = tokens.findIndex((o, j) => j < i && o.token === t.token);
      if (twin >= 0)
        throw new Error(`${label}: the same token as captain token ${twin + 1} (${tokens[twin].captain}): every captain needs a token of their own`);
    });
    this.entries = tokens.map((t) => ({ who: { captain: t.captain, event: t.event, team: t.team }, hash: digest(t.token) }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The captain a presented token belongs to, or null (every entry is compared: no early exit). */
  identify(presented: string): CaptainIdentity | null {
    return identifyToken(this.entries, presented);
  }
}

/** Both roles of a tokens file. */
export interface TokenEntries {
  readonly arbiters: ArbiterToken[];
  readonly captains: CaptainToken[];
}

const ENTRY_SHAPES = '{ "arbiter": string, "token": string } or { "captain": string, "event": string, "team": number, "token": string }';

/**
 * Reads a tokens file's JSON: an array of arbiter entries `{ "arbiter", "token" }` and captain
 * entries `{ "captain", "event", "team", "token" }`; an error names the entry and the field.
 */
export function parseTokenEntries(text: string, source = 'tokens'): TokenEntries {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON: ${jsonErrorWithoutText(err)}`);
  }
  if (!Array.isArray(value)) throw new Error(`${source}: expected an array of ${ENTRY_SHAPES}`);
  const arbiters: ArbiterToken[] = [];
  const captains: CaptainToken[] = [];
  value.forEach((v: unknown, i) => {
    const o = v as Record<string, unknown>;
    const entry = `${source}: entry ${i + 1}`;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error(`${entry} must be ${ENTRY_SHAPES}`);
    if ('arbiter' in o && 'captain' in o) throw new Error(`${entry}: "arbiter" and "captain" together: a token has one role`);
    if ('captain' in o) {
      for (const k of Object.keys(o))
        if (!['captain', 'event', 'team', 'token'].includes(k))
          throw new Error(`${entry}: unknown field "${k}" (a captain entry is { "captain", "event", "team", "token" })`);
      if (typeof o.captain !== 'string' || o.captain.trim() === '') throw new Error(`${entry}: "captain" must be the captain's name`);
      if (typeof o.event !== 'string' || o.event === '') throw new Error(`${entry} (${o.captain}): "event" must be the team event's id in the tournament file`);
      if (typeof o.team !== 'number' || !Number.isSafeInteger(o.team) || o.team < 1)
        throw new Error(`${entry} (${o.captain}): "team" must be the team's id in the tournament file (a whole number ≥ 1)`);
      if (typeof o.token !== 'string') throw new Error(`${entry} (${o.captain}): "token" must be a string`);
      captains.push({ captain: o.captain.trim(), event: o.event, team: o.team, token: o.token });
      return;
    }
    if (typeof o.arbiter !== 'string' || typeof o.token !== 'string') throw new Error(`${entry} must be ${ENTRY_SHAPES}`);
    arbiters.push({ arbiter: o.arbiter, token: o.token });
  });
  return { arbiters, captains };
}

// Arbiter tokens for the API's writes. Tokens are configured (e.g. a file the chief
// arbiter hands out), never stored in the journal; the journal records the arbiter's name.
// Comparison is constant-time: both sides are hashed to 32 bytes (so lengths never differ)
// and compared with `timingSafeEqual`, and every configured token is checked, so the time
// taken says nothing about how much of a guess was right or which token it was near.
import { createHash, timingSafeEqual } from 'node:crypto';

export interface ArbiterToken {
  readonly arbiter: string;
  readonly token: string;
}

/** Tokens shorter than this are refused at start-up: they could be guessed. */
export const MIN_TOKEN_LENGTH = 16;

/** The 32-byte hash tokens are compared by (captain-tokens.ts uses it too). */
export const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whose token `presented` is among hashed entries, or null: every entry is compared, with no
 * early exit, so the time taken says nothing about which one it was near (both roles use it).
 */
export function identifyToken<T>(entries: ReadonlyArray<{ readonly who: T; readonly hash: Buffer }>, presented: string): T | null {
  const h = digest(presented);
  let found: T | null = null;
  for (const e of entries) {
    if (timingSafeEqual(h, e.hash) && found === null) found = e.who;
  }
  return found;
}

export class ArbiterTokens {
  private readonly entries: ReadonlyArray<{ who: string; hash: Buffer }>;

  constructor(tokens: readonly ArbiterToken[]) {
    tokens.forEach((t, i) => {
      if (!t.arbiter) throw new Error(`arbiter token ${i + 1}: missing arbiter name`);
      if (typeof t.token !== 'string' || t.token.length < MIN_TOKEN_LENGTH) {
        throw new Error(`arbiter token ${i + 1} (${t.arbiter}): token must be at least ${MIN_TOKEN_LENGTH} characters`);
      }
    });
    this.entries = tokens.map((t) => ({ who: t.arbiter, hash: digest(t.token) }));
  }

  /** The arbiter a presented token belongs to, or null. */
  identify(presented: string): string | null {
    return identifyToken(this.entries, presented);
  }

  /** Parses `Authorization: Bearer <token>`; null when absent or malformed. */
  static bearer(header: string | undefined): string | null {
    if (header === undefined) return null;
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    return m ? m[1] : null;
  }
}

/** Parses a `--token NAME:SECRET` option; the secret must be long enough not to be guessed. */
export function parseTokenOption(text: string, option = '--token'): ArbiterToken {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new Error(`${option}: expected NAME:SECRET`);
  const token = { arbiter: text.slice(0, colon), token: text.slice(colon + 1) };
  if (token.token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`${option} (${token.arbiter}): the secret must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return token;
}

/**
 * A JSON.parse error fit for a log line: V8 quotes the start of the text it could not read
 * (`Unexpected token 'A', "A:secret-t"... is not valid JSON`), which in a tokens file is a secret.
 */
export function jsonErrorWithoutText(err: unknown): string {
  return (err as Error).message.replace(/,? ?"[\s\S]*"(\.\.\.)? is not valid JSON$/, ' (not valid JSON)');
}

// Arbiter tokens for the API's writes. Tokens are configured (e.g. a file the chief
// arbiter hands out), never stored in the journal; the journal records the arbiter's name.
// Comparison is constant-time: both sides are hashed to 32 bytes (so lengths never differ)
// and compared with `timingSafeEqual`, and every configured token is checked, so the time
// taken says nothing about how much of a guess was right or which token it was near.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface ArbiterToken {
  readonly arbiter: string;
  readonly token: string;
}

/** Tokens shorter than this are refused at start-up: they could be guessed. */
export const MIN_TOKEN_LENGTH = 16;

/** The 32-byte hash tokens are compared by (captain-tokens.ts uses it too). */
export const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export class ArbiterTokens {
  private readonly entries: ReadonlyArray<{ arbiter: string; hash: Buffer }>;

  constructor(tokens: readonly ArbiterToken[]) {
    tokens.forEach((t, i) => {
      if (!t.arbiter) throw new Error(`arbiter token ${i + 1}: missing arbiter name`);
      if (typeof t.token !== 'string' || t.token.length < MIN_TOKEN_LENGTH) {
        throw new Error(`arbiter token ${i + 1} (${t.arbiter}): token must be at least ${MIN_TOKEN_LENGTH} characters`);
      }
    });
    this.entries = tokens.map((t) => ({ arbiter: t.arbiter, hash: digest(t.token) }));
  }

  /** The arbiter a presented token belongs to, or null. */
  identify(presented: string): string | null {
    const h = digest(presented);
    let found: string | null = null;
    for (const e of this.entries) {
      if (timingSafeEqual(h, e.hash) && found === null) found = e.arbiter;
    }
    return found;
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

/** Reads tokens from JSON text `[{ "arbiter": "...", "token": "..." }]`, naming the bad entry. */
export function parseArbiterTokens(text: string, source = 'tokens'): ArbiterToken[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON: ${jsonErrorWithoutText(err)}`);
  }
  if (!Array.isArray(value)) throw new Error(`${source}: expected an array of { "arbiter", "token" }`);
  return value.map((v: unknown, i) => {
    const o = v as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || typeof o.arbiter !== 'string' || typeof o.token !== 'string') {
      throw new Error(`${source}: entry ${i + 1} must be { "arbiter": string, "token": string }`);
    }
    return { arbiter: o.arbiter, token: o.token };
  });
}

/** Reads a tokens file (`--tokens FILE`); errors name the file and the entry. */
export function loadArbiterTokens(path: string): ArbiterTokens {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read the arbiter tokens file: ${(err as Error).message}`);
  }
  const tokens = parseArbiterTokens(text, path);
  try {
    return new ArbiterTokens(tokens);
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

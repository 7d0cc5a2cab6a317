// Who may do what (docs/api.md "Conventions", "Captains", "Security"): reads are public; a
// write needs an arbiter's token, a captain's route a captain's. The two guards are decorators
// of the server (`app.requireArbiter`, `app.requireCaptain`, used as a route's `onRequest`);
// each sets who signed in on the request (`req.arbiter`, `req.captain`) or answers 401, 403 or,
// for an address over its failed sign-ins (@fastify/rate-limit, server.ts), 429.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CaptainIdentity } from '../../app/captains.ts';
import { apiError } from './api-error.ts';
import { ArbiterTokens } from './arbiter-tokens.ts';
import type { CaptainTokens } from './captain-tokens.ts';

/** A route's `onRequest`: the request goes on, or the answer is sent and the reply returned (Fastify's async hooks). */
type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

declare module 'fastify' {
  interface FastifyInstance {
    /** An arbiter's route: sets `req.arbiter`, or answers 401/403/429. */
    requireArbiter: Guard;
    /** A captain's route (captain.ts): sets `req.captain`, or answers 401/403/429 (an arbiter's token is refused: it is not a team's). */
    requireCaptain: Guard;
  }
  interface FastifyRequest {
    /** The arbiter whose token opened the route ('' on a route without `requireArbiter`). */
    arbiter: string;
    /** The captain whose token opened the route (null on a route without `requireCaptain`). */
    captain: CaptainIdentity | null;
  }
}

export interface AuthOptions {
  readonly arbiters: ArbiterTokens;
  readonly captains: CaptainTokens;
  readonly signIn: { readonly max: number; readonly windowMs: number };
  /** Security log lines: never a token. */
  readonly log: (line: string) => void;
}

type Role = 'arbiter' | 'captain';

/** The request's method and path (without its query), as a log line names it. */
const where = (req: FastifyRequest) => `${req.method} ${req.url.split('?')[0]}`;

/**
 * A known token of the other role is no guess (no failed sign-in), but it does not open this door:
 * a captain never does an arbiter's action, and an arbiter signs a match as the arbiter (403).
 */
function otherRole(opts: AuthOptions, req: FastifyRequest, reply: FastifyReply, token: string, role: Role): boolean {
  const { arbiters, captains, log } = opts;
  const other = role === 'arbiter' ? captains.identify(token) : arbiters.identify(token);
  if (other === null) return false;
  const who = typeof other === 'string' ? `arbiter ${other}` : `captain ${other.captain}`;
  log(`http: ${who}'s token refused for ${role} route ${where(req)} from ${req.ip}`);
  reply
    .code(403)
    .send(
      apiError(
        403,
        role === 'arbiter'
          ? `${who}'s token is a captain's: it cannot do arbiter actions`
          : `${who}'s token is not a captain's: the arbiter confirms a team match with POST /api/events/:event/rounds/:round/matches/:match/confirm`,
      ),
    );
  return true;
}

/** Decorates `app` with the two guards (before the routes that use them are registered). */
export function decorateAuth(app: FastifyInstance, opts: AuthOptions): void {
  const { arbiters, captains, signIn, log } = opts;
  const signInFailures = app.createRateLimit({ max: signIn.max, timeWindow: signIn.windowMs });
  const blockedLogged = new Set<string>();

  /** An address over its failed sign-ins is refused before its token is even looked at (429, logged once per block). */
  async function blocked(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const status = await signInFailures(req, { increment: false });
    if (status.isAllowed || !(status.isExceeded || status.remaining === 0)) return false;
    if (!blockedLogged.has(status.key)) {
      blockedLogged.add(status.key);
      log(
        `http: sign-ins from ${req.ip} refused for ${Math.ceil(status.ttl / 1000)} s: ${signIn.max} failed within ${signIn.windowMs / 1000} s (${where(req)})`,
      );
    }
    const seconds = Math.max(1, Math.ceil(status.ttl / 1000));
    reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(apiError(429, `too many failed sign-ins from this address: try again in ${seconds} s`));
    return true;
  }

  /** No token, or one nobody has: 401. A wrong token counts as a failed sign-in; a request without one (a reader's click) does not. */
  async function unknown(req: FastifyRequest, reply: FastifyReply, token: string | null, role: Role): Promise<void> {
    if (token !== null) {
      const after = await signInFailures(req);
      blockedLogged.delete(after.key);
      log(
        `http: sign-in refused from ${req.ip}: unknown ${role} token (${where(req)}${after.isAllowed ? '' : `; ${after.remaining} tries left in this window`})`,
      );
    }
    reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="chessclock"')
      .send(apiError(401, token === null ? `missing ${role} token: send "Authorization: Bearer <token>"` : `unknown ${role} token`));
  }

  const guard =
    (role: Role): Guard =>
    async (req, reply) => {
      if (await blocked(req, reply)) return reply;
      const token = ArbiterTokens.bearer(req.headers.authorization);
      const arbiter = token === null || role !== 'arbiter' ? null : arbiters.identify(token);
      const captain = token === null || role !== 'captain' ? null : captains.identify(token);
      if (arbiter !== null) req.arbiter = arbiter;
      else if (captain !== null) req.captain = captain;
      else {
        if (token === null || !otherRole(opts, req, reply, token, role)) await unknown(req, reply, token, role);
        return reply;
      }
      return undefined;
    };

  app.decorateRequest('arbiter', '');
  app.decorateRequest('captain', null);
  app.decorate('requireArbiter', guard('arbiter'));
  app.decorate('requireCaptain', guard('captain'));
}

// The team match protocol over HTTP (docs/api.md "Captains"): the captain view's routes (a
// captain token, scoped to one team), the arbiter's final confirmation of a team match (an
// arbiter token), the protocol of every match for the dashboard (a public read, like every
// read), and the captain page itself. The rules are host/app/captains.ts's; this only checks
// requests and answers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAME_RESULTS } from '../../../rules/vocabulary.ts';
import type { CaptainIdentity, ProtocolOutcome, TeamMatchProtocols, TeamMatchView } from '../../app/captains.ts';

type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export interface CaptainRouteDeps {
  /** Absent: the routes answer 501 (a host without a tournament). */
  readonly protocols?: TeamMatchProtocols;
  /** Sets `req.captain` or answers 401/403/429. */
  readonly requireCaptain: Guard;
  /** Sets `req.arbiter` or answers 401/403/429. */
  readonly requireArbiter: Guard;
  /** The API's check of a body's raw JSON types (no coercion), before its schema. */
  readonly strictTypes: (schema: object) => (req: FastifyRequest) => Promise<void>;
  readonly apiError: (statusCode: number, message: string, field?: string) => object;
  /** Serve the captain page (`/captain`, `/captain.css`) and its script, bundled at start (src/captain.ts); null: no page. */
  readonly page: { readonly path: string; readonly script: string } | null;
  /** A match whose protocol changed, for the live feed (`team-match` messages). */
  readonly published?: (match: TeamMatchView) => void;
}

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'dashboard');
const PAGE_FILES: Record<string, [string, string]> = {
  '/captain': ['captain.html', 'text/html; charset=utf-8'],
  '/captain.css': ['captain.css', 'text/css; charset=utf-8'],
};

/** A short reason, printable (it is shown on the dashboard and kept for an appeal). */
const REASON = { type: 'string', minLength: 1, maxLength: 300, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' } as const;
const MATCH_REF = { round: { type: 'integer', minimum: 1, maximum: 999 }, match: { type: 'integer', minimum: 1, maximum: 999 } } as const;
const CONFIRM_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['round', 'match', 'results'],
  // The results the captain was shown, in board order: a captain signs what they read.
  properties: { ...MATCH_REF, results: { type: 'array', maxItems: 64, items: { type: 'string', enum: GAME_RESULTS } } },
} as const;
const DISPUTE_BODY = { type: 'object', additionalProperties: false, required: ['round', 'match', 'reason'], properties: { ...MATCH_REF, reason: REASON } } as const;

/** The arbiter's optional body, checked by hand: the dashboard's Confirm sends none (a schema would ask for one). */
function arbiterReason(body: unknown): { reason?: string } | { error: string; field?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) return { error: 'body: must be empty or { "reason" }' };
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (k !== 'reason') return { error: `body: unknown field "${k}"`, field: k };
  if (b.reason === undefined) return {};
  if (typeof b.reason !== 'string' || b.reason.length > 500) return { error: 'body: "reason" must be text of at most 500 characters', field: 'reason' };
  return b.reason.trim() ? { reason: b.reason.trim() } : {};
}

export function registerCaptainRoutes(app: FastifyInstance, deps: CaptainRouteDeps): void {
  const captainOf = (req: FastifyRequest) => (req as FastifyRequest & { captain: CaptainIdentity }).captain;
  const protocolsOr501 = (reply: FastifyReply): TeamMatchProtocols | null => {
    if (deps.protocols) return deps.protocols;
    reply.code(501).send(deps.apiError(501, 'this host runs no tournament: no team match protocol'));
    return null;
  };
  const answer = (reply: FastifyReply, outcome: ProtocolOutcome, by: object) => {
    if (!outcome.ok) return reply.code(outcome.status).send(deps.apiError(outcome.status, outcome.reason));
    if (!outcome.unchanged) deps.published?.(outcome.match);
    return reply.send({ ok: true, ...by, match: outcome.match, ...(outcome.unchanged ? { unchanged: true } : {}) });
  };

  // ---- the captain's own team (captain token) ----------------------------------------
  app.get<{ Querystring: { round?: number } }>(
    '/api/captain/match',
    { onRequest: deps.requireCaptain, schema: { querystring: { type: 'object', additionalProperties: false, properties: { round: MATCH_REF.round } } } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const found = p.captainMatch(captainOf(req), req.query.round);
      return found.ok ? reply.send(found.view) : reply.code(found.status).send(deps.apiError(found.status, found.reason));
    },
  );

  app.post<{ Body: { round: number; match: number; results: string[] } }>(
    '/api/captain/match/confirm',
    { onRequest: deps.requireCaptain, preValidation: deps.strictTypes(CONFIRM_BODY), schema: { body: CONFIRM_BODY } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const who = captainOf(req);
      return answer(reply, p.confirmByCaptain(who, req.body.round, req.body.match, req.body.results), { captain: who.captain });
    },
  );

  app.post<{ Body: { round: number; match: number; reason: string } }>(
    '/api/captain/match/dispute',
    { onRequest: deps.requireCaptain, preValidation: deps.strictTypes(DISPUTE_BODY), schema: { body: DISPUTE_BODY } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const who = captainOf(req);
      return answer(reply, p.disputeByCaptain(who, req.body.round, req.body.match, req.body.reason), { captain: who.captain });
    },
  );

  // ---- every match's protocol (public read) and the arbiter's confirmation ----------
  app.get<{ Querystring: { event?: string; round?: number } }>(
    '/api/team-matches',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 }, round: MATCH_REF.round } } } },
    // A host without a tournament keeps no protocol: an empty list (the dashboard asks on every
    // host, and a page that reads nothing should not log an error), where the writes say 501.
    async (req, reply) => reply.send({ matches: deps.protocols ? deps.protocols.matches(req.query) : [] }),
  );

  app.post<{ Params: { event: string; round: number; match: number } }>(
    '/api/events/:event/rounds/:round/matches/:match/confirm',
    {
      onRequest: deps.requireArbiter,
      schema: { params: { type: 'object', required: ['event', 'round', 'match'], properties: { event: { type: 'string', minLength: 1, maxLength: 200 }, ...MATCH_REF } } },
    },
    async (req, reply) => {
      const body = arbiterReason(req.body);
      if ('error' in body) return reply.code(400).send(deps.apiError(400, body.error, body.field));
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const arbiter = (req as FastifyRequest & { arbiter: string }).arbiter;
      const { event, round, match } = req.params;
      return answer(reply, p.confirmByArbiter(event, round, match, arbiter, body.reason), { arbiter });
    },
  );

  // ---- the captain page --------------------------------------------------------------
  if (deps.page) {
    for (const [url, [file, type]] of Object.entries(PAGE_FILES)) {
      app.get(url, async (_req, reply) => reply.type(type).header('cache-control', 'no-cache').send(await readFile(join(PAGE_DIR, file), 'utf8')));
    }
    const { path, script } = deps.page;
    app.get(path, async (_req, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script));
  }
}

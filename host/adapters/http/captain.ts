// The team match protocol over HTTP (docs/api.md "Captains"): the captain view's routes (a
// captain token, scoped to one team), the arbiter's final confirmation of a team match (an
// arbiter token), the protocol of every match for the dashboard (a public read, like every
// read). The rules are host/app/captains.ts's; this only checks requests and answers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GAME_RESULTS } from '../../../rules/vocabulary.ts';
import type { CaptainIdentity, ProtocolOutcome, TeamMatchProtocols } from '../../app/captains.ts';
import { apiError } from './api-error.ts';
import type { LiveFeed } from './feed.ts';
import { EVENT_NAME, OPTIONAL_REASON, noBodyIsEmpty } from './schemas.ts';

export interface CaptainOptions {
  /** Absent: the routes answer 501 (a host without a tournament). */
  readonly protocols?: TeamMatchProtocols;
  /** The dashboard learns of a captain's mark at once, like of a board change (`team-match` messages). */
  readonly feed: LiveFeed;
}

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
const DISPUTE_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['round', 'match', 'reason'],
  properties: { ...MATCH_REF, reason: REASON },
} as const;
const MATCH_PARAMS = { type: 'object', required: ['event', 'round', 'match'], properties: { event: EVENT_NAME, ...MATCH_REF } } as const;
/** The arbiter's body, which may be left out (the dashboard's Confirm sends none): `{}` or `{ "reason" }`. */
const ARBITER_BODY = { type: 'object', additionalProperties: false, properties: { reason: OPTIONAL_REASON } } as const;

/** The captain who signed in (auth.ts `requireCaptain` set it before the handler runs). */
function captainOf(req: FastifyRequest): CaptainIdentity {
  if (req.captain === null) throw new Error(`${req.url}: a captain's route without requireCaptain`);
  return req.captain;
}

/** What every protocol route shares: the protocols or a 501, and the answer to a mark. */
function protocolAnswers(opts: CaptainOptions) {
  return {
    protocolsOr501(reply: FastifyReply): TeamMatchProtocols | null {
      if (opts.protocols) return opts.protocols;
      reply.code(501).send(apiError(501, 'this host runs no tournament: no team match protocol'));
      return null;
    },
    answer(reply: FastifyReply, outcome: ProtocolOutcome, by: object) {
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      if (!outcome.unchanged) opts.feed.teamMatch(outcome.match);
      return reply.send({ ok: true, ...by, match: outcome.match, ...(outcome.unchanged ? { unchanged: true } : {}) });
    },
  };
}

/** The captain's own team (captain token): the match, its confirmation, a dispute. */
function captainRoutes(app: FastifyInstance, opts: CaptainOptions): void {
  const { protocolsOr501, answer } = protocolAnswers(opts);
  app.get<{ Querystring: { round?: number } }>(
    '/api/captain/match',
    { onRequest: app.requireCaptain, schema: { querystring: { type: 'object', additionalProperties: false, properties: { round: MATCH_REF.round } } } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const found = p.captainMatch(captainOf(req), req.query.round);
      return found.ok ? reply.send(found.view) : reply.code(found.status).send(apiError(found.status, found.reason));
    },
  );

  app.post<{ Body: { round: number; match: number; results: string[] } }>(
    '/api/captain/match/confirm',
    { onRequest: app.requireCaptain, schema: { body: CONFIRM_BODY } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const who = captainOf(req);
      return answer(reply, p.confirmByCaptain(who, req.body.round, req.body.match, req.body.results), { captain: who.captain });
    },
  );

  app.post<{ Body: { round: number; match: number; reason: string } }>(
    '/api/captain/match/dispute',
    { onRequest: app.requireCaptain, schema: { body: DISPUTE_BODY } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const who = captainOf(req);
      return answer(reply, p.disputeByCaptain(who, req.body.round, req.body.match, req.body.reason), { captain: who.captain });
    },
  );
}

/** Every match's protocol (a public read) and the arbiter's confirmation (arbiter token). */
function arbiterRoutes(app: FastifyInstance, opts: CaptainOptions): void {
  const { protocolsOr501, answer } = protocolAnswers(opts);
  app.get<{ Querystring: { event?: string; round?: number } }>(
    '/api/team-matches',
    {
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 }, round: MATCH_REF.round } } },
    },
    // A host without a tournament keeps no protocol: an empty list (the dashboard asks on every
    // host, and a page that reads nothing should not log an error), where the writes say 501.
    async (req, reply) => reply.send({ matches: opts.protocols ? opts.protocols.matches(req.query) : [] }),
  );

  app.post<{ Params: { event: string; round: number; match: number }; Body: { reason?: string } }>(
    '/api/events/:event/rounds/:round/matches/:match/confirm',
    { onRequest: app.requireArbiter, preValidation: noBodyIsEmpty, schema: { params: MATCH_PARAMS, body: ARBITER_BODY } },
    async (req, reply) => {
      const p = protocolsOr501(reply);
      if (!p) return reply;
      const { event, round, match } = req.params;
      const reason = req.body.reason?.trim();
      return answer(reply, p.confirmByArbiter(event, round, match, req.arbiter, reason || undefined), { arbiter: req.arbiter });
    },
  );
}

/** The team match protocol's routes, as a Fastify plugin (the captain page itself: pages.ts). */
export async function teamMatchRoutes(app: FastifyInstance, opts: CaptainOptions): Promise<void> {
  captainRoutes(app, opts);
  arbiterRoutes(app, opts);
}

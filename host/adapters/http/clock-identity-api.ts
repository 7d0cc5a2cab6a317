// The arbiter's choice between two lines that claim one clock id (docs/api.md "Clock identity"):
// keep the clock online, or take the newcomer as its replacement. The claims themselves are on
// the board the id serves (`identityClaim` in the board's view), so the dashboard shows them.
import type { FastifyInstance } from 'fastify';
import { IDENTITY_CHOICES, type IdentityChoice } from '../../app/identity-claims.ts';
import type { ClockIdentitySink } from '../../app/ports.ts';
import { apiError } from './api-error.ts';

export interface ClockIdentityOptions {
  /** Absent: a host with no clock lines (the API answers 501). */
  readonly sink?: ClockIdentitySink;
}

const PARAMS = {
  type: 'object',
  additionalProperties: false,
  required: ['clockId'],
  properties: { clockId: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;
const BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['line', 'keep'],
  properties: { line: { type: 'string', minLength: 1, maxLength: 4096 }, keep: { type: 'string', enum: IDENTITY_CHOICES } },
} as const;

export async function clockIdentityRoutes(app: FastifyInstance, opts: ClockIdentityOptions): Promise<void> {
  app.post<{ Params: { clockId: string }; Body: { line: string; keep: IdentityChoice } }>(
    '/api/clocks/:clockId/identity',
    { onRequest: app.requireArbiter, schema: { params: PARAMS, body: BODY } },
    async (req, reply) => {
      if (!opts.sink) return reply.code(501).send(apiError(501, 'this host has no clock lines'));
      const outcome = opts.sink.decideClockIdentity(req.params.clockId, req.body.line, req.body.keep, { arbiter: req.arbiter });
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      return reply.send({ ok: true, arbiter: req.arbiter, keep: req.body.keep, claim: outcome.claim });
    },
  );
}

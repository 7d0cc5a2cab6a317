// The API of a Swiss event's next round (docs/api.md "The next round"): the proposed pairings
// (pairing engine or a loaded TRF), shown to arbiters only, and the arbiter's approval that opens
// the round, or rejection. Every route needs the arbiter token; each write is journaled with the
// arbiter by the NextRoundSink (host/app/next-round.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NextRoundSink } from '../../app/ports.ts';

export interface NextRoundRoutesDeps {
  /** The host's next-round side; absent: every route answers 501. */
  readonly sink: NextRoundSink | undefined;
  readonly requireArbiter: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Tells the live feed about the boards of a round just opened. */
  readonly boardsOpened: (boardIds: readonly string[]) => void;
  /** The API's error body (api.ts), so these routes answer like every other. */
  readonly apiError: (statusCode: number, message: string, field?: string) => object;
}

/** A pairing program's TRF is a line per player: a megabyte holds thousands. */
export const MAX_TRF_CHARS = 1_000_000;

const EVENT = { type: 'string', minLength: 1, maxLength: 200 } as const;
const EVENT_PARAMS = { type: 'object', required: ['event'], properties: { event: EVENT } } as const;
const ROUND_PARAMS = { type: 'object', required: ['event', 'round'], properties: { event: EVENT, round: { type: 'integer', minimum: 1, maximum: 999 } } } as const;

const arbiterOf = (req: FastifyRequest) => (req as FastifyRequest & { arbiter: string }).arbiter;

export function registerNextRoundRoutes(app: FastifyInstance, deps: NextRoundRoutesDeps): void {
  const refuse = (reply: FastifyReply, status: number, message: string, extra: Record<string, unknown> = {}): FastifyReply =>
    reply.code(status).send({ ...deps.apiError(status, message), ...extra });
  const sinkOr501 = (reply: FastifyReply): NextRoundSink | null => {
    if (deps.sink) return deps.sink;
    refuse(reply, 501, 'this host has no match director to pair a next round');
    return null;
  };

  // Proposed pairings are the arbiter's to check before anyone sees them: not a public read. A host
  // without a next-round side has none to show (its dashboard asks all the same): an empty list.
  app.get('/api/rounds/proposed', { onRequest: deps.requireArbiter }, async (_req, reply) => {
    return reply.send({ proposals: deps.sink?.proposedRounds() ?? [] });
  });

  // A pairing program's TRF with the next round paired: filed as a proposal (201), not opened.
  app.post<{ Params: { event: string }; Body: { trf: string } }>(
    '/api/events/:event/rounds',
    {
      onRequest: deps.requireArbiter,
      schema: {
        params: EVENT_PARAMS,
        body: { type: 'object', additionalProperties: false, required: ['trf'], properties: { trf: { type: 'string', minLength: 1, maxLength: MAX_TRF_CHARS } } },
      },
    },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      if (typeof req.body.trf !== 'string') return refuse(reply, 400, 'body: "trf" must be the TRF text');
      const outcome = await sink.proposeRoundFromTrf(req.params.event, req.body.trf, { arbiter: arbiterOf(req) });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      return reply.code(201).send({ ok: true, arbiter: arbiterOf(req), proposal: outcome.proposal });
    },
  );

  // Runs the event's pairing engine again (a pending proposal is rejected first, journaled).
  app.post<{ Params: { event: string } }>('/api/events/:event/rounds/pair', { onRequest: deps.requireArbiter, schema: { params: EVENT_PARAMS } }, async (req, reply) => {
    const sink = sinkOr501(reply);
    if (!sink) return reply;
    const outcome = await sink.runPairingEngine(req.params.event, { arbiter: arbiterOf(req) });
    if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
    // The engine ran but gave no pairings: its error (exit code, stderr) is the answer, the run journaled.
    if (outcome.proposal.status === 'failed') return refuse(reply, 422, outcome.proposal.reason ?? 'the pairing engine gave no pairings', { proposal: outcome.proposal });
    return reply.send({ ok: true, arbiter: arbiterOf(req), proposal: outcome.proposal });
  });

  app.post<{ Params: { event: string; round: number } }>(
    '/api/events/:event/rounds/:round/approve',
    { onRequest: deps.requireArbiter, schema: { params: ROUND_PARAMS } },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const outcome = await sink.approveRound(req.params.event, req.params.round, { arbiter: arbiterOf(req) });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      deps.boardsOpened(outcome.boards);
      return reply.send({ ok: true, arbiter: arbiterOf(req), event: outcome.event, round: outcome.round, boards: outcome.boards });
    },
  );

  // No body, `{}` or `{ "reason": "…" }` (checked by hand: a schema would require a body).
  app.post<{ Params: { event: string; round: number }; Body: unknown }>(
    '/api/events/:event/rounds/:round/reject',
    { onRequest: deps.requireArbiter, schema: { params: ROUND_PARAMS } },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) return refuse(reply, 400, 'body: must be empty or { "reason": "…" }');
      const unknown = Object.keys(body).find((k) => k !== 'reason');
      if (unknown !== undefined) return refuse(reply, 400, `body: unknown field "${unknown}"`, { field: unknown });
      if (body.reason !== undefined && (typeof body.reason !== 'string' || body.reason.length > 500)) return refuse(reply, 400, 'body: "reason" must be text of at most 500 characters', { field: 'reason' });
      const reason = (body.reason as string | undefined)?.trim() || null;
      const outcome = await sink.rejectRound(req.params.event, req.params.round, reason, { arbiter: arbiterOf(req) });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      return reply.send({ ok: true, arbiter: arbiterOf(req), event: outcome.event, round: outcome.round });
    },
  );
}

// The API of a Swiss event's next round (docs/api.md "The next round"): the proposed pairings
// (pairing engine or a loaded TRF), shown to arbiters only, and the arbiter's approval that opens
// the round, or rejection. Every route needs the arbiter token; each write is journaled with the
// arbiter by the NextRoundSink (host/app/next-round.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { NextRoundSink } from '../../app/ports.ts';
import { apiError } from './api-error.ts';
import { EVENT_PARAMS, OPTIONAL_REASON, noBodyIsEmpty } from './schemas.ts';

export interface NextRoundOptions {
  /** The host's next-round side; absent: every route answers 501. */
  readonly sink: NextRoundSink | undefined;
}

/** A pairing program's TRF is a line per player: a megabyte holds thousands. */
export const MAX_TRF_CHARS = 1_000_000;

const ROUND_PARAMS = {
  type: 'object',
  required: ['event', 'round'],
  properties: { ...EVENT_PARAMS.properties, round: { type: 'integer', minimum: 1, maximum: 999 } },
} as const;
/** The rejection's body, which may be left out: `{}` or `{ "reason": "…" }`. */
const REJECT_BODY = { type: 'object', additionalProperties: false, properties: { reason: OPTIONAL_REASON } } as const;

/**
 * The filing of a pairing program's TRF, `{ "trf": "…" }`, or of its pairs list (`-p`) with the TRF
 * it was paired from, `{ "pairs": "…", "trf": "…" }`. A pairs list is a line per pair: far shorter.
 */
const TRF_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['trf'],
  properties: { trf: { type: 'string', minLength: 1, maxLength: MAX_TRF_CHARS }, pairs: { type: 'string', minLength: 1, maxLength: MAX_TRF_CHARS } },
} as const;

/** Answers `status` with the API's error body (and `extra` fields beside it). */
const refuse = (reply: FastifyReply, status: number, message: string, extra: Record<string, unknown> = {}): FastifyReply =>
  reply.code(status).send({ ...apiError(status, message), ...extra });

/** The next round's proposals, approval and rejection, as a Fastify plugin. */
export async function nextRoundRoutes(app: FastifyInstance, opts: NextRoundOptions): Promise<void> {
  const sinkOr501 = (reply: FastifyReply): NextRoundSink | null => {
    if (opts.sink) return opts.sink;
    refuse(reply, 501, 'this host has no match director to pair a next round');
    return null;
  };

  // Proposed pairings are the arbiter's to check before anyone sees them: not a public read. A host
  // without a next-round side has none to show (its dashboard asks all the same): an empty list.
  app.get('/api/rounds/proposed', { onRequest: app.requireArbiter }, async (_req, reply) => {
    return reply.send({ proposals: opts.sink?.proposedRounds() ?? [], waiting: opts.sink?.waitingRounds?.() ?? [] });
  });

  // A pairing program's TRF with the next round paired, or its pairs list and the TRF it was paired from: filed as a proposal (201), not opened.
  app.post<{ Params: { event: string }; Body: { trf: string; pairs?: string } }>(
    '/api/events/:event/rounds',
    {
      onRequest: app.requireArbiter,
      schema: { params: EVENT_PARAMS, body: TRF_BODY },
    },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const outcome = await sink.proposeRoundFromTrf(req.params.event, req.body.trf, { arbiter: req.arbiter }, req.body.pairs);
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      return reply.code(201).send({ ok: true, arbiter: req.arbiter, proposal: outcome.proposal });
    },
  );

  // Runs the event's pairing engine again (a pending proposal is rejected first, journaled).
  app.post<{ Params: { event: string } }>(
    '/api/events/:event/rounds/pair',
    { onRequest: app.requireArbiter, schema: { params: EVENT_PARAMS } },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const outcome = await sink.runPairingEngine(req.params.event, { arbiter: req.arbiter });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      // The engine ran but gave no pairings: its error (exit code, stderr) is the answer, the run journaled.
      if (outcome.proposal.status === 'failed')
        return refuse(reply, 422, outcome.proposal.reason ?? 'the pairing engine gave no pairings', { proposal: outcome.proposal });
      return reply.send({ ok: true, arbiter: req.arbiter, proposal: outcome.proposal });
    },
  );

  app.post<{ Params: { event: string; round: number } }>(
    '/api/events/:event/rounds/:round/approve',
    { onRequest: app.requireArbiter, schema: { params: ROUND_PARAMS } },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const outcome = await sink.approveRound(req.params.event, req.params.round, { arbiter: req.arbiter });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      return reply.send({ ok: true, arbiter: req.arbiter, event: outcome.event, round: outcome.round, boards: outcome.boards });
    },
  );

  // No body, `{}` or `{ "reason": "…" }`.
  app.post<{ Params: { event: string; round: number }; Body: { reason?: string } }>(
    '/api/events/:event/rounds/:round/reject',
    { onRequest: app.requireArbiter, preValidation: noBodyIsEmpty, schema: { params: ROUND_PARAMS, body: REJECT_BODY } },
    async (req, reply) => {
      const sink = sinkOr501(reply);
      if (!sink) return reply;
      const reason = req.body.reason?.trim() || null;
      const outcome = await sink.rejectRound(req.params.event, req.params.round, reason, { arbiter: req.arbiter });
      if (!outcome.ok) return refuse(reply, outcome.status, outcome.reason);
      return reply.send({ ok: true, arbiter: req.arbiter, event: outcome.event, round: outcome.round });
    },
  );
}

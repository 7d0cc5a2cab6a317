// A round's writes by the arbiter (docs/api.md "Rounds"): the lot drawn in the hall for a
// knockout final's colours, and the start of every board of a round at once (FIDE Laws 6.5).
// The next round of a Swiss event is next-round-api.ts's.
import type { FastifyInstance } from 'fastify';
import { startRoundOnBoards } from '../../app/round-start.ts';
import type { CommandSink, HostState, LotStage } from '../../app/ports.ts';
import { apiError } from './api-error.ts';
import { EVENT_NAME, ROUND_PARAMS } from './schemas.ts';

export interface RoundOptions {
  readonly state: HostState;
  readonly commands: CommandSink;
  readonly nowUtcMs: () => number;
}

const LOT_PARAMS = {
  type: 'object',
  required: ['event', 'round', 'board'],
  properties: { event: EVENT_NAME, round: { type: 'integer', minimum: 1 }, board: { type: 'integer', minimum: 1 } },
} as const;
const LOT_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['stage', 'white'],
  properties: { stage: { type: 'string', enum: ['classical', 'armageddon'] }, white: { type: 'integer', minimum: 1, maximum: 9999 } },
} as const;

/** A round's lots and its start, as a Fastify plugin. */
export async function roundRoutes(app: FastifyInstance, opts: RoundOptions): Promise<void> {
  const { state, commands, nowUtcMs } = opts;

  // Slovenian final 2007 art. 3: game 1's colours and the armageddon's are drawn by lot. The
  // arbiter enters the draw made in the hall before the host needs it (else the host draws).
  app.post<{ Params: { event: string; round: number; board: number }; Body: { stage: LotStage; white: number } }>(
    '/api/events/:event/rounds/:round/boards/:board/lot',
    { onRequest: app.requireArbiter, schema: { params: LOT_PARAMS, body: LOT_BODY } },
    async (req, reply) => {
      if (!commands.enterLot) return reply.code(501).send(apiError(501, 'this host has no match director to draw lots'));
      const { arbiter } = req;
      const { event, round, board } = req.params;
      const outcome = await commands.enterLot(event, round, board, req.body.stage, req.body.white, { arbiter });
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      return reply.send({ ok: true, arbiter, lot: outcome.lot });
    },
  );

  // FIDE Laws 6.5: the arbiter starts the clocks of every board of a round.
  app.post<{ Params: { event: string; round: number } }>(
    '/api/events/:event/rounds/:round/start',
    { onRequest: app.requireArbiter, schema: { params: ROUND_PARAMS } },
    async (req, reply) => {
      const { arbiter } = req;
      const { event, round } = req.params;
      const outcome = commands.startRound
        ? await commands.startRound(event, round, { arbiter })
        : await startRoundOnBoards(state, commands, event, round, { arbiter }, { sessionUtcMs: nowUtcMs() });
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      return reply.send({ ok: true, arbiter, started: outcome.started, skipped: outcome.skipped });
    },
  );
}

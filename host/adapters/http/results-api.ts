// A game's result by the arbiter (docs/api.md "Results"): entered or corrected (FIDE Laws 8.7:
// the result stands unless the arbiter decides otherwise), and confirmed, or decided between the
// results the clocks reported. Each goes to the CommandSink like a clock command (command-run.ts).
import type { FastifyInstance } from 'fastify';
import type { GameResult } from '../../../rules/vocabulary.ts';
import { optionalBodyOpts, writeOpts } from './board-commands-api.ts';
import type { RunCommand } from './command-run.ts';
import { HttpError } from './http-error.ts';
import { OPTIONAL_REASON, REASON, RESULT, reasonOf } from './schemas.ts';

const RESULT_BODY = { type: 'object', additionalProperties: false, required: ['result'], properties: { result: RESULT, reason: REASON } } as const;
/**
 * The confirmation's body, which may be left out (the dashboard's Confirm sends none): `{}`,
 * `{ "report": 17 }` (a reported result's id) or `{ "result": "0-1" }`, with `reason`.
 */
const CONFIRM_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: { report: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, result: RESULT, reason: OPTIONAL_REASON },
} as const;

type WithId = { Params: { id: string } };

/** Results entered and confirmed, as a Fastify plugin. */
export async function resultRoutes(app: FastifyInstance, opts: { readonly run: RunCommand }): Promise<void> {
  const { run } = opts;
  // Entering a result over one recorded is the arbiter's decision, a correction: `reason` says
  // why (required over a confirmed result).
  app.put<WithId & { Body: { result: GameResult; reason?: string } }>('/api/boards/:id/result', writeOpts(app, RESULT_BODY), async (req, reply) =>
    run(req, reply, { type: 'result', boardId: req.params.id, result: req.body.result, ...reasonOf(req.body.reason) }),
  );

  // No body confirms the recorded result; `report` (or `result`) adopts a result a clock reported
  // instead (docs/api.md): the arbiter decides between the results shown.
  app.post<WithId & { Body: { report?: number; result?: GameResult; reason?: string } }>(
    '/api/boards/:id/result/confirm',
    optionalBodyOpts(app, CONFIRM_BODY),
    async (req, reply) => {
      const { report, result, reason } = req.body;
      if (report !== undefined && result !== undefined) throw new HttpError(400, 'body: send "report" or "result", not both', 'result');
      return run(req, reply, {
        type: 'confirm-result',
        boardId: req.params.id,
        ...(report !== undefined ? { report } : {}),
        ...(result !== undefined ? { result } : {}),
        ...reasonOf(reason),
      });
    },
  );
}

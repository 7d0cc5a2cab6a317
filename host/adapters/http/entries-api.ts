// The API of an event's entries (docs/api.md "Entries"; docs/tournament.md "Entries"): a late
// entry, a withdrawal, a requested bye and a round's start time, made by an arbiter in a running
// host, and the event's entries as they stand. Every route needs the arbiter token; each write is
// journaled with the arbiter by the EntrySink (host/app/entries.ts), which refuses an entry for a
// round already proposed or opened (409) and a bad field (422), leaving everything as it was.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EntryCommand, EntryOutcome, EntrySink } from '../../app/ports.ts';
import { apiError } from './api-error.ts';
import { EVENT_PARAMS, ROUND_PARAMS } from './schemas.ts';

export interface EntriesOptions {
  /** The host's entries; absent: every route answers 501. */
  readonly sink: EntrySink | undefined;
}

const ROUND = { type: 'integer', minimum: 1, maximum: 999 } as const;
const RANK = { type: 'integer', minimum: 1, maximum: 9999 } as const;

/** A late entrant: a tournament file player's fields (host/domain/tournament-file/players.ts checks them, 422 naming the field). */
const LATE_ENTRY_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['player'],
  properties: { player: { type: 'object' }, fromRound: ROUND },
} as const;
const WITHDRAWAL_BODY = { type: 'object', additionalProperties: false, required: ['player'], properties: { player: RANK, fromRound: ROUND } } as const;
const BYE_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['player', 'round'],
  properties: { player: RANK, round: ROUND, points: { type: 'number' } },
} as const;
/** An instant with its offset: `2026-04-05T17:00:00+02:00` or `2026-04-05T15:00:00Z` (a time without one is ambiguous in a hall abroad). */
const START_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['start'],
  properties: { start: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$' } },
} as const;

/** The entries routes, as a Fastify plugin. */
export async function entryRoutes(app: FastifyInstance, opts: EntriesOptions): Promise<void> {
  const answer = (reply: FastifyReply, outcome: EntryOutcome, arbiter?: string): FastifyReply => {
    if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
    return reply.send({ ok: true, ...(arbiter ? { arbiter } : {}), entries: outcome.entries });
  };
  const enter = async (reply: FastifyReply, event: string, command: EntryCommand, arbiter: string): Promise<FastifyReply> => {
    if (!opts.sink) return reply.code(501).send(apiError(501, 'this host keeps no entries'));
    return answer(reply, await opts.sink.enterEntry(event, command, { arbiter }), arbiter);
  };

  app.get<{ Params: { event: string } }>(
    '/api/events/:event/entries',
    { onRequest: app.requireArbiter, schema: { params: EVENT_PARAMS } },
    async (req, reply) => {
      if (!opts.sink) return reply.code(501).send(apiError(501, 'this host keeps no entries'));
      return answer(reply, opts.sink.entries(req.params.event));
    },
  );

  app.post<{ Params: { event: string }; Body: { player: Record<string, unknown>; fromRound?: number } }>(
    '/api/events/:event/entries/late-entry',
    { onRequest: app.requireArbiter, schema: { params: EVENT_PARAMS, body: LATE_ENTRY_BODY } },
    async (req, reply) => enter(reply, req.params.event, { type: 'late-entry', player: req.body.player, fromRound: req.body.fromRound }, req.arbiter),
  );

  app.post<{ Params: { event: string }; Body: { player: number; fromRound?: number } }>(
    '/api/events/:event/entries/withdrawal',
    { onRequest: app.requireArbiter, schema: { params: EVENT_PARAMS, body: WITHDRAWAL_BODY } },
    async (req, reply) => enter(reply, req.params.event, { type: 'withdraw', player: req.body.player, fromRound: req.body.fromRound }, req.arbiter),
  );

  app.post<{ Params: { event: string }; Body: { player: number; round: number; points?: number } }>(
    '/api/events/:event/entries/bye',
    { onRequest: app.requireArbiter, schema: { params: EVENT_PARAMS, body: BYE_BODY } },
    async (req, reply) => enter(reply, req.params.event, { type: 'bye', player: req.body.player, round: req.body.round, points: req.body.points }, req.arbiter),
  );

  app.post<{ Params: { event: string; round: number }; Body: { start: string } }>(
    '/api/events/:event/rounds/:round/start-time',
    { onRequest: app.requireArbiter, schema: { params: ROUND_PARAMS, body: START_BODY } },
    async (req, reply) => {
      const startUtcMs = Date.parse(req.body.start);
      if (!Number.isFinite(startUtcMs)) return reply.code(400).send(apiError(400, `start: "${req.body.start}" is not a date and time`));
      return enter(reply, req.params.event, { type: 'round-start', round: req.params.round, startUtcMs }, req.arbiter);
    },
  );
}

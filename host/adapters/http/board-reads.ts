// The public reads of the hall (docs/api.md "Reads"): the host's health, the boards, the
// journaled events (paged, or by journal sequence for a subscriber catching up), the matches
// and the results. No token: every read is public.
import type { FastifyInstance } from 'fastify';
import type { BoardView, HostState } from '../../app/ports.ts';
import { HttpError } from './http-error.ts';
import { BOARD_PARAMS } from './schemas.ts';

export interface BoardReadOptions {
  readonly state: HostState;
  readonly nowUtcMs: () => number;
}

/** The board by its id, or a 404 naming it. */
export function boardOr404(state: HostState, id: string): BoardView {
  const b = state.board(id);
  if (!b) throw new HttpError(404, `no board "${id}"`, 'id');
  return b;
}

const PAGE = {
  after: { type: 'string', pattern: '^[0-9]{1,15}$' },
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
} as const;
/** Which events: the same filter for the paged API and the JSON Lines export (exports-api.ts). */
export const EVENT_FILTER = {
  event: { type: 'string', minLength: 1 },
  round: { type: 'integer', minimum: 0 },
  board: { type: 'integer', minimum: 0 },
  clockId: { type: 'string', minLength: 1 },
} as const;
const JOURNAL_RANGE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: { type: 'integer', minimum: 0, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 500 },
    event: { type: 'string', minLength: 1 },
    round: { type: 'integer', minimum: 0 },
    board: { type: 'integer', minimum: 0 },
  },
} as const;

/** The boards, one board, and the host's health. */
function boardRoutes(app: FastifyInstance, { state, nowUtcMs }: BoardReadOptions): void {
  // 503 while the host cannot do its work (a full disk: docs/reliability.md), so a monitor sees it.
  app.get('/api/health', async (_req, reply) => {
    const health = state.health();
    return reply.code(health.ok ? 200 : 503).send({ ...health, serverUtcMs: nowUtcMs() });
  });

  app.get<{ Querystring: { event?: string; round?: number } }>(
    '/api/boards',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { event: { type: 'string', minLength: 1 }, round: { type: 'integer', minimum: 0 } },
        },
      },
    },
    async (req) => ({
      serverUtcMs: nowUtcMs(),
      boards: state
        .boards()
        .filter((b) => (req.query.event === undefined || b.event === req.query.event) && (req.query.round === undefined || b.round === req.query.round)),
    }),
  );

  app.get<{ Params: { id: string } }>('/api/boards/:id', { schema: { params: BOARD_PARAMS } }, async (req) => ({
    serverUtcMs: nowUtcMs(),
    board: boardOr404(state, req.params.id),
  }));
}

/** The journaled events: filtered and paged, of one board, or by journal sequence. */
function eventRoutes(app: FastifyInstance, { state }: BoardReadOptions): void {
  app.get<{ Querystring: { event?: string; round?: number; board?: number; clockId?: string; after?: string; limit: number } }>(
    '/api/events',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { ...EVENT_FILTER, ...PAGE } } } },
    async (req) => state.events(req.query),
  );

  app.get<{ Params: { id: string }; Querystring: { after?: string; limit: number } }>(
    '/api/boards/:id/events',
    { schema: { params: BOARD_PARAMS, querystring: { type: 'object', additionalProperties: false, properties: PAGE } } },
    async (req) => {
      const b = boardOr404(state, req.params.id);
      return state.events({ event: b.event, round: b.round, board: b.board, after: req.query.after, limit: req.query.limit });
    },
  );

  // The journal by journal sequence (every MQTT events message carries its `journalSeq`): what a
  // subscriber reads to fill a gap a broker crash left (docs/mqtt.md "Nothing lost"). A public
  // read like every other (the same events are on /api/events and MQTT).
  app.get<{ Querystring: { after: number; limit: number; event?: string; round?: number; board?: number } }>(
    '/api/journal/events',
    { schema: { querystring: JOURNAL_RANGE } },
    async (req) => {
      return state.journalEvents(req.query);
    },
  );
}

/** The matches and the results. */
function resultRoutes(app: FastifyInstance, { state }: BoardReadOptions): void {
  app.get('/api/matches', async () => ({ matches: state.matches() }));

  app.get<{ Querystring: { round?: number } }>(
    '/api/results',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      // A clock's result for no game is the host's as a ResultView marked `unassigned`: listed
      // apart, whatever the round (docs/api.md "GET /api/results").
      const all = state.results(req.query.round);
      return {
        results: all.filter((r) => !r.unassigned).map((r) => ({ ...r, conflicts: r.conflicts ?? [] })),
        unassigned: all.flatMap((r) => (r.unassigned ? [r.unassigned] : [])),
      };
    },
  );
}

/** The hall's public reads, as a Fastify plugin. */
export async function boardReadRoutes(app: FastifyInstance, opts: BoardReadOptions): Promise<void> {
  boardRoutes(app, opts);
  eventRoutes(app, opts);
  resultRoutes(app, opts);
}

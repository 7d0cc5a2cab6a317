// The exports over HTTP (docs/api.md "Exports"): the TRF of an event, its standings, the PGN of
// a round (also at the URL a broadcast relay polls) and the journal as JSON Lines. The host core
// writes them (ExportSource); this only checks the request and serves the text.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ExportSource, HostState } from '../../app/ports.ts';
import { EVENT_FILTER } from './board-reads.ts';
import { HttpError } from './http-error.ts';

export interface ExportOptions {
  readonly state: HostState;
  /** Absent: the exports answer 501. */
  readonly exports?: ExportSource;
}

/** The host's exports, or a 501. */
export function exportsOr501(exports: ExportSource | undefined): ExportSource {
  if (!exports) throw new HttpError(501, 'exports are not configured on this host');
  return exports;
}

/** An event named in a request must be one the host has a board of (404 naming `event`). */
export function knownEvent(state: HostState, event: string | undefined): void {
  if (event !== undefined && !state.boards().some((b) => b.event === event)) throw new HttpError(404, `no event "${event}"`, 'event');
}

const EVENT = { type: 'string', minLength: 1 } as const;

/** An event's TRF and standings. */
function eventRoutes(app: FastifyInstance, { state, exports }: ExportOptions): void {
  app.get<{ Querystring: { event: string; round?: number; format?: 'trf26' | 'trf16'; initialColour?: 'white' | 'black' } }>(
    '/api/export/trf',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['event'],
          // format: TRF-2026 (default) or the TRF16 form (docs/exports.md "FIDE TRF"); round 0: the
          // registration TRF, before round 1 (initialColour: the lot, when none is recorded).
          properties: {
            event: EVENT,
            round: { type: 'integer', minimum: 0 },
            format: { type: 'string', enum: ['trf26', 'trf16'] },
            initialColour: { type: 'string', enum: ['white', 'black'] },
          },
        },
      },
    },
    async (req, reply) => {
      const { event, round, format, initialColour } = req.query;
      if (initialColour && round !== 0)
        throw new HttpError(400, 'initialColour goes with round=0: the lot is written only in the TRF before round 1', 'initialColour');
      // An event whose round 1 is still to be paired has no board yet: the tournament's events count.
      if (!exports?.events?.().includes(event)) knownEvent(state, event);
      const text = exportsOr501(exports).trf(event, round, { ...(format ? { format } : {}), ...(initialColour ? { initialColour } : {}) });
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );

  app.get<{ Querystring: { event: string; round?: number } }>(
    '/api/standings',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, required: ['event'], properties: { event: EVENT, round: { type: 'integer', minimum: 0 } } },
      },
    },
    async (req) => {
      knownEvent(state, req.query.event);
      return state.standings(req.query.event, req.query.round);
    },
  );
}

/** A round's PGN, at the API's URL and at the one a broadcast relay polls. */
function pgnRoutes(app: FastifyInstance, { state, exports }: ExportOptions): void {
  const pgn = async (event: string | undefined, round: number, reply: FastifyReply, feed = false): Promise<FastifyReply> => {
    knownEvent(state, event);
    const source = exportsOr501(exports);
    // The public feed keeps each event's broadcast delay (docs/broadcast.md "The delay").
    const text = feed && source.broadcastPgn ? source.broadcastPgn(event, round) : source.pgn(event, round);
    // Relays poll this URL: never cache a live game.
    return reply.type('application/x-chess-pgn; charset=utf-8').header('cache-control', 'no-cache').send(text);
  };

  app.get<{ Querystring: { event?: string; round: number } }>(
    '/api/export/pgn',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, required: ['round'], properties: { event: EVENT, round: { type: 'integer', minimum: 1 } } },
      },
    },
    async (req, reply) => pgn(req.query.event, req.query.round, reply),
  );

  // The URL a broadcast relay (e.g. a Lichess broadcast's "PGN source URL") polls.
  app.get<{ Params: { r: number }; Querystring: { event?: string } }>(
    '/broadcast/round/:r/games.pgn',
    {
      schema: {
        params: { type: 'object', required: ['r'], properties: { r: { type: 'integer', minimum: 1 } } },
        querystring: { type: 'object', additionalProperties: false, properties: { event: EVENT } },
      },
    },
    async (req, reply) => pgn(req.query.event, req.params.r, reply, true),
  );
}

/** The journal's events as JSON Lines, filtered like GET /api/events. */
function jsonlRoute(app: FastifyInstance, { state, exports }: ExportOptions): void {
  app.get<{ Querystring: { event?: string; round?: number; board?: number; clockId?: string } }>(
    '/api/export/events.jsonl',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: EVENT_FILTER } } },
    async (req, reply) => {
      reply.type('application/x-ndjson; charset=utf-8');
      if (exports?.jsonl) return reply.send(exports.jsonl(req.query));
      // Without the host core's exporter: one journal record per line, paged through.
      const lines: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = state.events({ ...req.query, after, limit: 1000 });
        for (const e of page.events) lines.push(JSON.stringify(e));
        if (page.next === null) break;
        after = page.next;
      }
      return reply.send(lines.length ? lines.join('\n') + '\n' : '');
    },
  );
}

/** The exports, as a Fastify plugin. */
export async function exportRoutes(app: FastifyInstance, opts: ExportOptions): Promise<void> {
  eventRoutes(app, opts);
  pgnRoutes(app, opts);
  jsonlRoute(app, opts);
}

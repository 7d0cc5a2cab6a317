// Pictures and print views (docs/api.md "Pictures and print views"): a board's time chart (SVG,
// rules/time-chart.ts), an event's print report and its standings page for the screen. Public
// like every read; each page carries the CSP its own markup needs.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { timeChartOf, timeChartSvg, type ChartSize } from '../../../rules/time-chart.ts';
import type { BoardGameJournal, ExportSource, HostState } from '../../app/ports.ts';
import { exportsOr501, knownEvent } from './exports-api.ts';
import { HttpError } from './http-error.ts';
import { BOARD_PARAMS, EVENT_PARAMS } from './schemas.ts';

export interface PictureOptions {
  readonly state: HostState;
  readonly exports?: ExportSource;
}

/**
 * The print report's CSP (host/adapters/exports/report-html.ts): its one inline style sheet,
 * nothing else: no script, no fetch, no frame around it.
 */
export const REPORT_CSP = {
  'default-src': ["'none'"],
  'style-src': ["'unsafe-inline'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
} as const;

/**
 * The standings page's CSP (GET /events/:event/standings, host/adapters/exports/standings-page.ts):
 * its one inline style sheet, allowed by its SHA-256 (CSP Level 3 hash source, so no
 * 'unsafe-inline'), the data: favicon, nothing else: no script, no fetch, no frame around it.
 */
export function standingsPageCsp(styleSha256: string): string {
  return `default-src 'none'; style-src 'sha256-${styleSha256}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** `If-None-Match` holds `etag` (RFC 9110 §13.1.2: a list, `*`, weak comparison ignores `W/`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

const CHART_SIZES: readonly ChartSize[] = ['small', 'full'];
const CHART_QUERY = {
  type: 'object',
  additionalProperties: false,
  // `v`: the page's cache key (the board's move count and result, dashboard/src/chart.ts), so
  // a changed game is a new image URL; the server ignores it (the ETag still decides 304).
  properties: {
    size: { type: 'string', enum: CHART_SIZES, default: 'full' },
    game: { type: 'integer', minimum: 1, maximum: 99 },
    v: { type: 'string', maxLength: 64 },
  },
} as const;
const ROUND_QUERY = { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 1 } } } as const;

/** The game a chart is asked of: the board's current game, or with `gameNo` that game of its round; 404 naming `id` or `game`. */
function chartGame(state: HostState, id: string, gameNo: number | undefined): BoardGameJournal {
  const game = state.boardGame(id, gameNo);
  if (game) return game;
  if (gameNo === undefined || !state.board(id)) throw new HttpError(404, `no board "${id}"`, 'id');
  throw new HttpError(404, `board "${id}" has no game ${gameNo} in its current round`, 'game');
}

/**
 * A board's time chart. Its version is the game's last journal event (and what the picture
 * names), so a browser or a /public screen revalidates with If-None-Match and gets 304 until the game moves.
 */
function chartRoute(app: FastifyInstance, { state }: PictureOptions): void {
  app.get<{ Params: { id: string }; Querystring: { size: ChartSize; game?: number } }>(
    '/api/boards/:id/chart.svg',
    { schema: { params: BOARD_PARAMS, querystring: CHART_QUERY } },
    async (req, reply) => {
      const { game: gameNo } = req.query;
      const game = chartGame(state, req.params.id, gameNo);
      const caption = `Round ${game.round}, board ${game.board}${game.gameNo > 1 || gameNo !== undefined ? `, game ${game.gameNo}` : ''}`;
      const named = createHash('sha256')
        .update(JSON.stringify([game.white, game.black, caption]))
        .digest('hex')
        .slice(0, 12);
      const etag = `"chart-${game.gameId}-${game.lastEventId}-${req.query.size}-${named}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
      const svg = timeChartSvg(timeChartOf(game.timeControl, game.events), { size: req.query.size, white: game.white, black: game.black, caption });
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );
}

/** An event's print report and its standings page. */
function eventPageRoutes(app: FastifyInstance, { state, exports }: PictureOptions): void {
  // The print view of a round's results: the report of `chessclock export --report`
  // (host/adapters/exports/report-html.ts), served as it is written. Its inline style sheet
  // needs its own CSP (the page's own <meta> says the same): no script, nothing fetched.
  app.get<{ Params: { event: string }; Querystring: { round?: number } }>(
    '/events/:event/report.html',
    { schema: { params: EVENT_PARAMS, querystring: ROUND_QUERY }, helmet: { contentSecurityPolicy: { useDefaults: false, directives: REPORT_CSP } } },
    async (req, reply) => {
      knownEvent(state, req.params.event);
      const source = exportsOr501(exports);
      if (!source.report) throw new HttpError(501, 'the print report is not configured on this host');
      const html = source.report(req.params.event, req.query.round);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    },
  );

  // The standings and crosstable of an event for the screen (phone and hall screen): the print
  // report's tables from the one ranking, each scrolling inside itself; links to each round's print view.
  app.get<{ Params: { event: string }; Querystring: { round?: number } }>(
    '/events/:event/standings',
    { schema: { params: EVENT_PARAMS, querystring: ROUND_QUERY } },
    async (req, reply) => {
      knownEvent(state, req.params.event);
      const source = exportsOr501(exports);
      if (!source.standingsPage) throw new HttpError(501, 'the standings page is not configured on this host');
      const page = source.standingsPage(req.params.event, req.query.round);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', standingsPageCsp(page.styleSha256))
        .send(page.html);
    },
  );
}

const PRINT_ROUND_QUERY = {
  type: 'object',
  additionalProperties: false,
  required: ['round'],
  properties: { round: { type: 'integer', minimum: 1 }, perPage: { type: 'integer', enum: [2, 4], default: 2 } },
} as const;

/**
 * A round's pages for print before it is played (host/adapters/exports/pairings-html.ts): its
 * pairings list and its table cards, under the print report's CSP (inline style, nothing else).
 */
function printBeforeRoundRoutes(app: FastifyInstance, { state, exports }: PictureOptions): void {
  const pages = { 'pairings.html': 'pairings', 'cards.html': 'cards' } as const;
  for (const [file, kind] of Object.entries(pages)) {
    app.get<{ Params: { event: string }; Querystring: { round: number; perPage: 2 | 4 } }>(
      `/events/:event/${file}`,
      { schema: { params: EVENT_PARAMS, querystring: PRINT_ROUND_QUERY }, helmet: { contentSecurityPolicy: { useDefaults: false, directives: REPORT_CSP } } },
      async (req, reply) => {
        knownEvent(state, req.params.event);
        const source = exportsOr501(exports);
        if (!source.pairings || !source.cards) throw new HttpError(501, 'the pages for print are not configured on this host');
        const { round, perPage } = req.query;
        const html = kind === 'pairings' ? source.pairings(req.params.event, round) : source.cards(req.params.event, round, perPage);
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
      },
    );
  }
}

/** The pictures and print views, as a Fastify plugin. */
export async function pictureRoutes(app: FastifyInstance, opts: PictureOptions): Promise<void> {
  chartRoute(app, opts);
  eventPageRoutes(app, opts);
  printBeforeRoundRoutes(app, opts);
}

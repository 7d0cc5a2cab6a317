// The host's HTTP/WebSocket API (docs/api.md) and the arbiter dashboard it serves.
//
// Reads are public. Every write needs `Authorization: Bearer <arbiter token>` and goes to
// the CommandSink together with the arbiter's name, which journals it; a team captain's token
// opens only the captain's routes (captain.ts, docs/api.md "Captains"). Bodies, params and
// query strings are checked by JSON schemas before anything runs, so a bad request is a 4xx
// naming the field and changes nothing; a command the host refuses as a whole is a 404/409/422.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebSocket } from 'ws';
import { GAME_RESULTS, type GameResult } from '../../../rules/vocabulary.ts';
import { timeChartOf, timeChartSvg, type ChartSize } from '../../../rules/time-chart.ts';
import { CAPTAIN_PATH, captainBundle, PAGE_PATH, pageBundle } from './dashboard/rule-book-bundle.ts';
import { ArbiterTokens, type ArbiterToken } from './arbiter-tokens.ts';
import { CaptainTokens, type CaptainToken } from './captain-tokens.ts';
import { registerCaptainRoutes } from './captain.ts';
import type { TeamMatchProtocols, TeamMatchView } from '../../app/captains.ts';
import { startRoundOnBoards } from '../../app/round-start.ts';
import { registerNextRoundRoutes } from './next-round-api.ts';
import { registerBoardCommandRoutes } from './board-commands-api.ts';
import { HttpError } from './http-error.ts';
import { ExportRefusedError, type NextRoundSink, type ArbiterCommand, type BoardView, type ClockEventRecord, type CommandSink, type ExportSource, type HostState, type LotStage } from '../../app/ports.ts';

export interface ApiDeps {
  readonly state: HostState;
  readonly commands: CommandSink;
  readonly exports?: ExportSource;
  readonly tokens: ArbiterTokens | readonly ArbiterToken[];
  /** Team captains' tokens, each scoped to one team of one team event (docs/api.md "Captains"). */
  readonly captains?: readonly CaptainToken[];
  /** The team match protocol (captains' and the arbiter's confirmations); absent: its routes answer 501. */
  readonly teamMatches?: TeamMatchProtocols;
  /** Wall-clock UTC for `serverUtcMs` (lets the dashboard correct its own clock). */
  readonly nowUtcMs?: () => number;
  /**
   * Host UTC ms per real ms (default 1). A simulated hall on accelerated time
   * (`chessclock hall --speed 10`) sends 10: the dashboard then advances running clocks
   * at the hall's pace between events.
   */
  readonly timeRate?: number;
  /** Serve the dashboard at `/` (default true). */
  readonly dashboard?: boolean;
  /**
   * The dashboard page as one browser module with the rule book in it (default:
   * rule-book-bundle.ts's `pageBundle`, esbuild over dashboard/src/main.ts once per process),
   * served at /app.js. Awaited before the API is built: a page that does not build fails the
   * server start. Tests pass another builder.
   */
  readonly page?: () => Promise<string>;
  /**
   * The captains' page as one browser module (default: rule-book-bundle.ts's `captainBundle`,
   * esbuild over dashboard/src/captain.ts once per process), served at /captain.js. Awaited like the page.
   */
  readonly captainPage?: () => Promise<string>;
  /** A WebSocket client more than this far behind is disconnected (default 4 MiB). */
  readonly wsMaxBufferedBytes?: number;
  /** Live-feed WebSocket clients at most (default 200); one more is refused with 503. */
  readonly wsMaxClients?: number;
  /**
   * Host names the API answers (the Host header without its port, case-insensitive), against
   * DNS rebinding when it listens beyond loopback; absent or null: any (loopback only).
   */
  readonly allowedHosts?: readonly string[] | null;
  /** Failed sign-ins (a wrong arbiter token) per client address and window before 429 (default 10 a minute). */
  readonly signInLimit?: { readonly max: number; readonly windowMs: number };
  /** Serve HTTPS with this PEM certificate and key (docs/api.md "HTTPS"). */
  readonly https?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Security log lines (refused sign-ins, hosts, feed clients): never a token. */
  readonly log?: (line: string) => void;
  readonly logger?: boolean;
  /** A Swiss event's next round: proposals (pairing engine, loaded TRF) and the arbiter's approval (next-round-api.ts); absent: 501. */
  readonly nextRounds?: NextRoundSink;
}

/** Default cap on live-feed WebSocket clients: a hall's arbiters and screens, with room to spare. */
export const DEFAULT_WS_MAX_CLIENTS = 200;
export const DEFAULT_SIGN_IN_LIMIT = { max: 10, windowMs: 60_000 } as const;

/**
 * The dashboard's Content Security Policy: its own scripts (app.js, captain.js), its
 * own style sheet, the data: favicon, fetch and the /ws feed to its own origin (CSP Level 3:
 * 'self' covers ws: and wss: on the same host), no frames around it (clickjacking), no
 * plugins, no <base>. No inline script or style is allowed, so injected markup cannot run.
 */
export const DASHBOARD_CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

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

const DASHBOARD_DIR = join(dirname(fileURLToPath(import.meta.url)), 'dashboard');
const DASHBOARD_FILES: Record<string, string> = {
  '/': 'index.html',
  '/public': 'public.html',
  '/style.css': 'style.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

const CHART_SIZES: readonly ChartSize[] = ['small', 'full'];
const BOARD_ID = { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,64}$' } as const;
// The schemas' words are the rule book's vocabulary (rules/vocabulary.ts), never a copy.
const RESULT = { type: 'string', enum: GAME_RESULTS } as const;
const BOARD_PARAMS = { type: 'object', required: ['id'], properties: { id: BOARD_ID } } as const;
/**
 * Fastify's validator coerces types (`"5000"` passes as the integer 5000, `["1-0"]` as the
 * string "1-0", `null` as 0), which suits query strings and path parameters, where every
 * value is text, but not JSON bodies: a value of the wrong JSON type is a client's mistake,
 * and docs/api.md promises a 400 naming the field. So every body is first checked, raw, against
 * its schema's types (nested objects and `oneOf` included), with no coercion; then the schema
 * validates the rest (ranges, enums, required and unknown fields).
 */
type TypeSchema = { type?: string | readonly string[]; properties?: Record<string, TypeSchema>; oneOf?: readonly TypeSchema[]; items?: TypeSchema };

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeOk(schema: TypeSchema, v: unknown): boolean {
  if (schema.oneOf) return schema.oneOf.some((s) => typeOk(s, v));
  if (schema.type === undefined) return true;
  const t = jsonType(v);
  // A list of types (`["integer", "null"]`): one of them, as JSON Schema means it.
  const types: readonly string[] = typeof schema.type === 'string' ? [schema.type] : schema.type;
  return types.includes(t) || (types.includes('number') && t === 'integer');
}

/** The first field whose raw JSON type differs from its schema's, as [dotted path, message]. */
function wrongType(schema: TypeSchema, value: unknown, path: string): [string, string] | null {
  if (!typeOk(schema, value)) {
    const expected = schema.oneOf ? schema.oneOf.map((s) => s.type ?? 'any').join(' or ') : typeof schema.type === 'string' ? schema.type : schema.type?.join(' or ');
    const got = value === null ? 'null' : `${JSON.stringify(value)} (${jsonType(value)})`;
    return [path, `"${path}" must be ${expected}, got ${got}`];
  }
  if (schema.properties && jsonType(value) === 'object') {
    for (const [k, sub] of Object.entries(schema.properties)) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined) continue;
      const found = wrongType(sub, v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  if (schema.oneOf) {
    const branch = schema.oneOf.find((s) => typeOk(s, value));
    if (branch?.properties) return wrongType(branch, value, path);
  }
  return null;
}

function strictTypes(schema: object) {
  return async (req: FastifyRequest) => {
    const body = req.body;
    if (body === undefined) return;
    const found = wrongType(schema as TypeSchema, body, '');
    if (found) throw new HttpError(400, found[0] === '' ? `body: must be ${(schema as TypeSchema).type}, got ${jsonType(body)}` : `body: ${found[1]}`, found[0] || undefined);
  };
}

/** Why an arbiter changes a result: free text, journaled with the correction. */
const REASON = { type: 'string', minLength: 1, maxLength: 500 } as const;

/** `reason` as a command field: absent when blank (a blank reason is no reason). */
function reasonOf(reason: string | undefined): { reason?: string } {
  const text = reason?.trim();
  return text ? { reason: text } : {};
}

/**
 * The confirmation's optional body, checked by hand: the dashboard's Confirm sends none (a
 * schema would ask for one). `{}`, `{ "report": 17 }`, `{ "result": "0-1" }`, with `reason`.
 */
function confirmBody(body: unknown): { report?: number; result?: GameResult; reason?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'body: must be empty or an object with "report", "result" or "reason"');
  const b = body as Record<string, unknown>;
  for (const field of Object.keys(b)) {
    if (!['report', 'result', 'reason'].includes(field)) throw new HttpError(400, `body: unknown field "${field}"`, field);
  }
  const out: { report?: number; result?: GameResult; reason?: string } = {};
  if (b.report !== undefined) {
    if (typeof b.report !== 'number' || !Number.isSafeInteger(b.report) || b.report < 1) throw new HttpError(400, `body: "report" must be a reported result's id (a whole number ≥ 1), got ${JSON.stringify(b.report)}`, 'report');
    out.report = b.report;
  }
  if (b.result !== undefined) {
    if (!(GAME_RESULTS as readonly unknown[]).includes(b.result)) throw new HttpError(400, `body: "result" must be one of ${GAME_RESULTS.map((r) => JSON.stringify(r)).join(', ')}`, 'result');
    out.result = b.result as GameResult;
  }
  if (out.report !== undefined && out.result !== undefined) throw new HttpError(400, 'body: send "report" or "result", not both', 'result');
  if (b.reason !== undefined) {
    if (typeof b.reason !== 'string' || b.reason.length > REASON.maxLength) throw new HttpError(400, `body: "reason" must be text of at most ${REASON.maxLength} characters`, 'reason');
    Object.assign(out, reasonOf(b.reason));
  }
  return out;
}

interface ApiError {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

function apiError(statusCode: number, message: string, field?: string): ApiError {
  return { statusCode, error: STATUS_TEXT[statusCode] ?? 'Error', message, ...(field ? { field } : {}) };
}


interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns the first schema violation into a sentence naming the field. */
function describeValidation(context: string, errors: readonly AjvError[]): { message: string; field: string } {
  const e = errors[0];
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  switch (e.keyword) {
    case 'required': {
      const field = [path, String(e.params.missingProperty)].filter(Boolean).join('.');
      return { field, message: `${context}: missing required field "${field}"` };
    }
    case 'additionalProperties': {
      const field = [path, String(e.params.additionalProperty)].filter(Boolean).join('.');
      return { field, message: `${context}: unknown field "${field}"` };
    }
    case 'enum':
      return { field: path, message: `${context}: "${path}" must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { field: path, message: `${context}: ${path ? `"${path}" ` : ''}${e.message ?? 'is invalid'}` };
  }
}

/** The host name of a Host header, lower case, without the port; null when absent or malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::[0-9]{1,5})?$/.exec(header.trim());
  return m ? m[1].toLowerCase() : null;
}

export async function buildApi(deps: ApiDeps): Promise<FastifyInstance> {
  // First, before anything listens: the page is useless without the rule book it imports.
  const [pageJs, captainJs] = (deps.dashboard ?? true) ? await Promise.all([(deps.page ?? pageBundle)(), (deps.captainPage ?? captainBundle)()]) : [null, null];
  const tokens = deps.tokens instanceof ArbiterTokens ? deps.tokens : new ArbiterTokens(deps.tokens);
  const captainTokens = new CaptainTokens(deps.captains ?? [], tokens);
  // A captain token for an event or team the tournament does not have would never work: refused at start.
  for (const c of deps.captains ?? []) {
    const wrong = deps.teamMatches?.checkCaptain(c) ?? null;
    if (wrong !== null) throw new Error(`captain tokens: ${wrong}`);
  }
  const nowUtcMs = deps.nowUtcMs ?? (() => Date.now());
  const maxBuffered = deps.wsMaxBufferedBytes ?? 4 * 1024 * 1024;
  const log = deps.log ?? (() => undefined);
  const app = Fastify({
    logger: deps.logger ?? false,
    // Unknown fields are an error (a typo like "sid" must not be ignored), not silently dropped.
    ajv: { customOptions: { removeAdditional: false } },
    ...(deps.https ? { https: { cert: deps.https.cert, key: deps.https.key } } : {}),
  }) as unknown as FastifyInstance;

  // DNS rebinding: a page on an attacker's name that resolves to the hall PC would otherwise
  // read the API (and the token a browser sends) as same-origin. Bound beyond loopback, only
  // the names the hall uses are answered (RFC 9110 §7.2: Host names the target).
  const allowed = deps.allowedHosts ? new Set(deps.allowedHosts.map((h) => h.toLowerCase())) : null;
  if (allowed) {
    app.addHook('onRequest', async (req, reply) => {
      const host = hostName(req.headers.host);
      if (host !== null && allowed.has(host)) return;
      log(`http: refused Host ${JSON.stringify(req.headers.host ?? '')} from ${req.ip} (${req.method} ${req.url.split('?')[0]}); allow it with --allowed-host`);
      return reply.code(403).send(apiError(403, `host ${JSON.stringify(req.headers.host ?? '')} is not served here: allow it with --allowed-host`));
    });
  }

  // Security headers on every answer; the CSP is the dashboard's (docs/api.md "Security headers").
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: DASHBOARD_CSP },
    // HSTS only over HTTPS (a plain-HTTP hall LAN must stay reachable).
    strictTransportSecurity: deps.https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  });

  // Failed sign-ins are counted per client address (a correct token costs nothing).
  const signIn = deps.signInLimit ?? DEFAULT_SIGN_IN_LIMIT;
  await app.register(rateLimit, { global: false, max: signIn.max, timeWindow: signIn.windowMs });
  const signInFailures = app.createRateLimit({ max: signIn.max, timeWindow: signIn.windowMs });
  const blockedLogged = new Set<string>();

  app.setErrorHandler((err: FastifyError | HttpError, _req, reply) => {
    if ('validation' in err && err.validation) {
      const { message, field } = describeValidation(err.validationContext ?? 'request', err.validation as AjvError[]);
      return reply.code(400).send(apiError(400, message, field));
    }
    if (err instanceof HttpError) return reply.code(err.statusCode).send(apiError(err.statusCode, err.message, err.field));
    if (err instanceof ExportRefusedError) return reply.code(409).send(apiError(409, err.message));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) app.log.error(err);
    return reply.code(status).send(apiError(status, err.message));
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send(apiError(404, `no route ${req.method} ${req.url.split('?')[0]}`)));

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // ---- live feed -------------------------------------------------------------------
  const feedClients = new Map<WebSocket, { event?: string }>();
  function broadcast(message: { type: string; event?: ClockEventRecord; board?: BoardView; match?: TeamMatchView }, eventName: string | undefined): void {
    if (feedClients.size === 0) return;
    const text = JSON.stringify(message); // serialised once for all clients
    for (const [ws, filter] of feedClients) {
      if (filter.event !== undefined && filter.event !== eventName) continue;
      // What the client has not taken of earlier turns: this turn's own messages wait corked
      // (below), and a big batch fed in one turn is not a stalled client (issue 16).
      const behind = corked.get(ws) ?? ws.bufferedAmount;
      if (behind > maxBuffered) {
        // A stalled client must not make the host buffer without bound; it can reconnect.
        ws.close(1013, 'too far behind: reconnect');
        feedClients.delete(ws);
        continue;
      }
      corkForThisTurn(ws);
      ws.send(text);
    }
  }
  /**
   * The host journals a turn's events in one commit and then feeds them out one by one (issue
   * 16): without corking, each would be its own write to the client's socket (one syscall each,
   * 14% of a busy host's CPU). Corked until the turn's synchronous work is done, they leave in
   * one write. `_socket` is ws's net.Socket (not in its typings; absent, nothing is corked).
   */
  /** Corked sockets, with what was buffered for the client before this turn's first message. */
  const corked = new WeakMap<WebSocket, number>();
  function corkForThisTurn(ws: WebSocket): void {
    const socket = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (!socket || corked.has(ws)) return;
    corked.set(ws, ws.bufferedAmount);
    socket.cork();
    process.nextTick(() => {
      corked.delete(ws);
      socket.uncork();
    });
  }
  const unsubscribe = deps.state.subscribe((event, board) => broadcast({ type: 'event', event, board }, event.event));
  // A board's view changed with no event carrying it (a clock connected or lost, a clock's result filed).
  const unwatch = deps.state.watchBoards?.((board) => broadcast({ type: 'board', board }, board.event));
  app.addHook('onClose', async () => {
    unsubscribe();
    unwatch?.();
    for (const ws of feedClients.keys()) ws.close(1001, 'host shutting down');
  });

  const wsMax = deps.wsMaxClients ?? DEFAULT_WS_MAX_CLIENTS;
  app.register(async (scoped) => {
    scoped.get<{ Querystring: { event?: string } }>(
      '/ws',
      {
        websocket: true,
        // Refused before the upgrade (RFC 6455 §4.1: any status but 101 fails the handshake).
        preHandler: async (req, reply) => {
          if (feedClients.size < wsMax) return;
          log(`http: live-feed client from ${req.ip} refused: ${wsMax} clients connected (--ws-max-clients)`);
          return reply.code(503).header('retry-after', '10').send(apiError(503, `the live feed is full (${wsMax} clients): try again later`));
        },
        schema: { querystring: { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 } } } },
      },
      (socket, req) => {
        if (feedClients.size >= wsMax) {
          // Several upgrades raced past the check: close with a reason (RFC 6455 §7.4.1, 1013 try again later).
          socket.close(1013, 'the live feed is full: try again later');
          return;
        }
        const filter = { event: req.query.event };
        const boards = deps.state.boards().filter((b) => filter.event === undefined || b.event === filter.event);
        socket.send(JSON.stringify({ type: 'hello', serverUtcMs: nowUtcMs(), timeRate: deps.timeRate ?? 1, boards }));
        feedClients.set(socket, filter);
        socket.on('close', () => feedClients.delete(socket));
        socket.on('error', () => feedClients.delete(socket));
        // The feed is one-way; anything a client sends is ignored.
      },
    );
  });

  // ---- reads -----------------------------------------------------------------------
  function boardOr404(id: string): BoardView {
    const b = deps.state.board(id);
    if (!b) throw new HttpError(404, `no board "${id}"`, 'id');
    return b;
  }

  // 503 while the host cannot do its work (a full disk: docs/reliability.md), so a monitor sees it.
  app.get('/api/health', async (_req, reply) => {
    const health = deps.state.health?.() ?? { ok: true };
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
      boards: deps.state.boards().filter((b) => (req.query.event === undefined || b.event === req.query.event) && (req.query.round === undefined || b.round === req.query.round)),
    }),
  );

  app.get<{ Params: { id: string } }>('/api/boards/:id', { schema: { params: BOARD_PARAMS } }, async (req) => ({
    serverUtcMs: nowUtcMs(),
    board: boardOr404(req.params.id),
  }));

  const PAGE = {
    after: { type: 'string', pattern: '^[0-9]{1,15}$' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  } as const;
  /** Which events: the same filter for the paged API and the JSON Lines export. */
  const EVENT_FILTER = {
    event: { type: 'string', minLength: 1 },
    round: { type: 'integer', minimum: 0 },
    board: { type: 'integer', minimum: 0 },
    clockId: { type: 'string', minLength: 1 },
  } as const;

  app.get<{ Querystring: { event?: string; round?: number; board?: number; clockId?: string; after?: string; limit: number } }>(
    '/api/events',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...EVENT_FILTER, ...PAGE },
        },
      },
    },
    async (req) => deps.state.events(req.query),
  );

  app.get<{ Params: { id: string }; Querystring: { after?: string; limit: number } }>(
    '/api/boards/:id/events',
    { schema: { params: BOARD_PARAMS, querystring: { type: 'object', additionalProperties: false, properties: PAGE } } },
    async (req) => {
      const b = boardOr404(req.params.id);
      return deps.state.events({ event: b.event, round: b.round, board: b.board, after: req.query.after, limit: req.query.limit });
    },
  );

  // The journal by journal sequence (every MQTT events message carries its `journalSeq`): what a
  // subscriber reads to fill a gap a broker crash left (docs/mqtt.md "Nothing lost"). A public
  // read like every other (the same events are on /api/events and MQTT).
  app.get<{ Querystring: { after: number; limit: number; event?: string; round?: number; board?: number } }>(
    '/api/journal/events',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            after: { type: 'integer', minimum: 0, default: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 500 },
            event: { type: 'string', minLength: 1 },
            round: { type: 'integer', minimum: 0 },
            board: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    async (req) => {
      if (!deps.state.journalEvents) throw new HttpError(501, 'this host has no journal to read by sequence');
      return deps.state.journalEvents(req.query);
    },
  );

  app.get('/api/matches', async () => ({ matches: deps.state.matches() }));

  app.get<{ Querystring: { round?: number } }>(
    '/api/results',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      // A clock's result for no game is the host's as a ResultView marked `unassigned`: listed
      // apart, whatever the round (docs/api.md "GET /api/results").
      const all = deps.state.results(req.query.round);
      return {
        results: all.filter((r) => !r.unassigned).map((r) => ({ ...r, conflicts: r.conflicts ?? [] })),
        unassigned: all.flatMap((r) => (r.unassigned ? [r.unassigned] : [])),
      };
    },
  );

  // ---- exports ---------------------------------------------------------------------
  function exportsOr501(): ExportSource {
    if (!deps.exports) throw new HttpError(501, 'exports are not configured on this host');
    return deps.exports;
  }
  function knownEvent(event: string | undefined): void {
    if (event !== undefined && !deps.state.boards().some((b) => b.event === event)) throw new HttpError(404, `no event "${event}"`, 'event');
  }

  app.get<{ Querystring: { event: string; round?: number } }>(
    '/api/export/trf',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['event'],
          properties: { event: { type: 'string', minLength: 1 }, round: { type: 'integer', minimum: 1 } },
        },
      },
    },
    async (req, reply) => {
      knownEvent(req.query.event);
      const text = exportsOr501().trf(req.query.event, req.query.round);
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );

  app.get<{ Querystring: { event: string; round?: number } }>(
    '/api/standings',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['event'],
          properties: { event: { type: 'string', minLength: 1 }, round: { type: 'integer', minimum: 0 } },
        },
      },
    },
    async (req) => {
      knownEvent(req.query.event);
      if (!deps.state.standings) throw new HttpError(501, 'standings are not computed on this host');
      return deps.state.standings(req.query.event, req.query.round);
    },
  );

  const pgnRoute = async (event: string | undefined, round: number, reply: FastifyReply): Promise<FastifyReply> => {
    knownEvent(event);
    const text = exportsOr501().pgn(event, round);
    // Relays poll this URL: never cache a live game.
    return reply.type('application/x-chess-pgn; charset=utf-8').header('cache-control', 'no-cache').send(text);
  };
  const PGN_QUERY = { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 } } } as const;

  app.get<{ Querystring: { event?: string; round: number } }>(
    '/api/export/pgn',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['round'],
          properties: { event: { type: 'string', minLength: 1 }, round: { type: 'integer', minimum: 1 } },
        },
      },
    },
    async (req, reply) => pgnRoute(req.query.event, req.query.round, reply),
  );

  // The URL a broadcast relay (e.g. a Lichess broadcast's "PGN source URL") polls.
  app.get<{ Params: { r: number }; Querystring: { event?: string } }>(
    '/broadcast/round/:r/games.pgn',
    {
      schema: {
        params: { type: 'object', required: ['r'], properties: { r: { type: 'integer', minimum: 1 } } },
        querystring: PGN_QUERY,
      },
    },
    async (req, reply) => pgnRoute(req.query.event, req.params.r, reply),
  );

  app.get<{ Querystring: { event?: string; round?: number; board?: number; clockId?: string } }>(
    '/api/export/events.jsonl',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: EVENT_FILTER,
        },
      },
    },
    async (req, reply) => {
      reply.type('application/x-ndjson; charset=utf-8');
      if (deps.exports?.jsonl) return reply.send(deps.exports.jsonl(req.query));
      // Without the host core's exporter: one journal record per line, paged through.
      const lines: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = deps.state.events({ ...req.query, after, limit: 1000 });
        for (const e of page.events) lines.push(JSON.stringify(e));
        if (page.next === null) break;
        after = page.next;
      }
      return reply.send(lines.length ? lines.join('\n') + '\n' : '');
    },
  );

  // ---- pictures and print views ---------------------------------------------------
  // A board's time chart (rules/time-chart.ts, docs/api.md "Pictures and print views"): public like every
  // read. Its version is the game's last journal event (and what the picture names), so a
  // browser or a /public screen revalidates with If-None-Match and gets 304 until the game moves.
  app.get<{ Params: { id: string }; Querystring: { size: ChartSize; game?: number } }>(
    '/api/boards/:id/chart.svg',
    {
      schema: {
        params: BOARD_PARAMS,
        querystring: {
          type: 'object',
          additionalProperties: false,
          // `v`: the page's cache key (the board's move count and result, dashboard/src/chart.ts), so
          // a changed game is a new image URL; the server ignores it (the ETag still decides 304).
          properties: { size: { type: 'string', enum: CHART_SIZES, default: 'full' }, game: { type: 'integer', minimum: 1, maximum: 99 }, v: { type: 'string', maxLength: 64 } },
        },
      },
    },
    async (req, reply) => {
      if (!deps.state.boardGame) throw new HttpError(501, 'this host keeps no journal to draw a time chart from');
      const { game: gameNo } = req.query;
      const game = deps.state.boardGame(req.params.id, gameNo);
      if (!game) {
        if (gameNo === undefined || !deps.state.board(req.params.id)) throw new HttpError(404, `no board "${req.params.id}"`, 'id');
        throw new HttpError(404, `board "${req.params.id}" has no game ${gameNo} in its current round`, 'game');
      }
      const caption = `Round ${game.round}, board ${game.board}${game.gameNo > 1 || gameNo !== undefined ? `, game ${game.gameNo}` : ''}`;
      const named = createHash('sha256').update(JSON.stringify([game.white, game.black, caption])).digest('hex').slice(0, 12);
      const etag = `"chart-${game.gameId}-${game.lastEventId}-${req.query.size}-${named}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
      const svg = timeChartSvg(timeChartOf(game.timeControl, game.events), { size: req.query.size, white: game.white, black: game.black, caption });
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );

  // The print view of a round's results: the report of `chessclock export --report`
  // (host/adapters/exports/report-html.ts), served as it is written. Its inline style sheet
  // needs its own CSP (the page's own <meta> says the same): no script, nothing fetched.
  app.get<{ Params: { event: string }; Querystring: { round?: number } }>(
    '/events/:event/report.html',
    {
      schema: {
        params: { type: 'object', required: ['event'], properties: { event: { type: 'string', minLength: 1, maxLength: 200 } } },
        querystring: { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 1 } } },
      },
      helmet: { contentSecurityPolicy: { useDefaults: false, directives: REPORT_CSP } },
    },
    async (req, reply) => {
      knownEvent(req.params.event);
      const source = exportsOr501();
      if (!source.report) throw new HttpError(501, 'the print report is not configured on this host');
      const html = source.report(req.params.event, req.query.round);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    },
  );

  // The standings and crosstable of an event for the screen (phone and hall screen): the print
  // report's tables from the one ranking, each scrolling inside itself; links to each round's print view.
  app.get<{ Params: { event: string }; Querystring: { round?: number } }>(
    '/events/:event/standings',
    {
      schema: {
        params: { type: 'object', required: ['event'], properties: { event: { type: 'string', minLength: 1, maxLength: 200 } } },
        querystring: { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 1 } } },
      },
    },
    async (req, reply) => {
      knownEvent(req.params.event);
      const source = exportsOr501();
      if (!source.standingsPage) throw new HttpError(501, 'the standings page is not configured on this host');
      const page = source.standingsPage(req.params.event, req.query.round);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', standingsPageCsp(page.styleSha256)).send(page.html);
    },
  );

  // ---- writes (arbiter token) ------------------------------------------------------
  async function requireArbiter(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    return requireRole(req, reply, 'arbiter');
  }

  /** A captain's routes (captain.ts): a captain token; an arbiter's token is refused with 403 (it is not a team's). */
  async function requireCaptain(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    return requireRole(req, reply, 'captain');
  }

  async function requireRole(req: FastifyRequest, reply: FastifyReply, role: 'arbiter' | 'captain'): Promise<void> {
    const token = ArbiterTokens.bearer(req.headers.authorization);
    const where = `${req.method} ${req.url.split('?')[0]}`;
    // An address over its failed sign-ins is refused before its token is even looked at.
    const status = await signInFailures(req, { increment: false });
    if (!status.isAllowed && (status.isExceeded || status.remaining === 0)) {
      if (!blockedLogged.has(status.key)) {
        blockedLogged.add(status.key);
        log(`http: sign-ins from ${req.ip} refused for ${Math.ceil(status.ttl / 1000)} s: ${signIn.max} failed within ${signIn.windowMs / 1000} s (${where})`);
      }
      reply
        .code(429)
        .header('retry-after', String(Math.max(1, Math.ceil(status.ttl / 1000))))
        .send(apiError(429, `too many failed sign-ins from this address: try again in ${Math.max(1, Math.ceil(status.ttl / 1000))} s`));
      return reply;
    }
    const arbiter = token === null || role !== 'arbiter' ? null : tokens.identify(token);
    const captain = token === null || role !== 'captain' ? null : captainTokens.identify(token);
    if (arbiter === null && captain === null) {
      // A known token of the other role is no guess (no failed sign-in), but it does not open this door:
      // a captain never does an arbiter's action, and an arbiter signs a match as the arbiter.
      const other = token === null ? null : role === 'arbiter' ? captainTokens.identify(token) : tokens.identify(token);
      if (other !== null) {
        const who = typeof other === 'string' ? `arbiter ${other}` : `captain ${other.captain}`;
        log(`http: ${who}'s token refused for ${role} route ${where} from ${req.ip}`);
        reply.code(403).send(apiError(403, role === 'arbiter' ? `${who}'s token is a captain's: it cannot do arbiter actions` : `${who}'s token is not a captain's: the arbiter confirms a team match with POST /api/events/:event/rounds/:round/matches/:match/confirm`));
        return reply;
      }
      if (token !== null) {
        // A wrong token counts; a request without one (a reader's click) does not.
        const after = await signInFailures(req);
        blockedLogged.delete(after.key);
        log(`http: sign-in refused from ${req.ip}: unknown ${role} token (${where}${after.isAllowed ? '' : `; ${after.remaining} tries left in this window`})`);
      }
      reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="chessclock"')
        .send(apiError(401, token === null ? `missing ${role} token: send "Authorization: Bearer <token>"` : `unknown ${role} token`));
      return reply;
    }
    if (arbiter !== null) (req as FastifyRequest & { arbiter: string }).arbiter = arbiter;
    if (captain !== null) (req as FastifyRequest & { captain: typeof captain }).captain = captain;
  }

  async function run(req: FastifyRequest, reply: FastifyReply, command: ArbiterCommand): Promise<FastifyReply> {
    const arbiter = (req as FastifyRequest & { arbiter: string }).arbiter;
    const outcome = await deps.commands.execute(command, { arbiter });
    if (!outcome.ok) {
      return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
    }
    const board = outcome.board ?? deps.state.board(command.boardId);
    if (board) broadcast({ type: 'board', board }, board.event);
    // An appeal window from the round's end (Ivanovo) starts with the round's last confirmed
    // result: every board of the round shows the new deadline, not only this one.
    if (board && board.appealUntilUtcMs !== undefined && (command.type === 'result' || command.type === 'confirm-result')) {
      for (const other of deps.state.boards()) {
        if (other.id !== board.id && other.event === board.event && other.round === board.round) broadcast({ type: 'board', board: other }, other.event);
      }
    }
    return reply.send({ ok: true, arbiter, board: board ?? null });
  }

  // Lets the dashboard check a token when the arbiter signs in.
  app.get('/api/arbiter', { onRequest: requireArbiter }, async (req) => ({ arbiter: (req as FastifyRequest & { arbiter: string }).arbiter }));

  type WithId = { Params: { id: string } };
  const writeOpts = (body?: object) => ({
    onRequest: requireArbiter,
    ...(body ? { preValidation: strictTypes(body) } : {}),
    schema: { params: BOARD_PARAMS, ...(body ? { body } : {}) },
  });

  // The arbiter's commands to a board's clock: its setup, pauses, time changes and corrections (board-commands-api.ts).
  registerBoardCommandRoutes(app, { run, writeOpts, boardOr404, ...(deps.state.boardGame ? { boardGame: (id: string) => deps.state.boardGame!(id) } : {}) });

  // FIDE Laws 8.7: the result stands unless the arbiter decides otherwise. Entering a result over
  // one recorded is that decision, a correction: `reason` says why (required over a confirmed result).
  app.put<WithId & { Body: { result: GameResult; reason?: string } }>(
    '/api/boards/:id/result',
    writeOpts({ type: 'object', additionalProperties: false, required: ['result'], properties: { result: RESULT, reason: REASON } }),
    async (req, reply) => run(req, reply, { type: 'result', boardId: req.params.id, result: req.body.result, ...reasonOf(req.body.reason) }),
  );

  // No body confirms the recorded result; `report` (or `result`) adopts a result a clock reported
  // instead (docs/api.md): the arbiter decides between the results shown.
  app.post<WithId>('/api/boards/:id/result/confirm', writeOpts(), async (req, reply) => {
    const body = confirmBody(req.body);
    return run(req, reply, { type: 'confirm-result', boardId: req.params.id, ...body });
  });

  // FIDE Laws 6.5: the arbiter starts the clocks — one board, or every board of a round.
  app.post<WithId>('/api/boards/:id/start', writeOpts(), async (req, reply) => run(req, reply, { type: 'start', boardId: req.params.id }));

  // Slovenian final 2007 art. 3: game 1's colours and the armageddon's are drawn by lot. The
  // arbiter enters the draw made in the hall before the host needs it (else the host draws).
  app.post<{ Params: { event: string; round: number; board: number }; Body: { stage: LotStage; white: number } }>(
    '/api/events/:event/rounds/:round/boards/:board/lot',
    {
      onRequest: requireArbiter,
      schema: {
        params: {
          type: 'object',
          required: ['event', 'round', 'board'],
          properties: { event: { type: 'string', minLength: 1, maxLength: 200 }, round: { type: 'integer', minimum: 1 }, board: { type: 'integer', minimum: 1 } },
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['stage', 'white'],
          properties: { stage: { type: 'string', enum: ['classical', 'armageddon'] }, white: { type: 'integer', minimum: 1, maximum: 9999 } },
        },
      },
    },
    async (req, reply) => {
      if (!deps.commands.enterLot) return reply.code(501).send(apiError(501, 'this host has no match director to draw lots'));
      const arbiter = (req as FastifyRequest & { arbiter: string }).arbiter;
      const { event, round, board } = req.params;
      const outcome = await deps.commands.enterLot(event, round, board, req.body.stage, req.body.white, { arbiter });
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      return reply.send({ ok: true, arbiter, lot: outcome.lot });
    },
  );

  app.post<{ Params: { event: string; round: number } }>(
    '/api/events/:event/rounds/:round/start',
    {
      onRequest: requireArbiter,
      schema: {
        params: {
          type: 'object',
          required: ['event', 'round'],
          properties: { event: { type: 'string', minLength: 1, maxLength: 200 }, round: { type: 'integer', minimum: 1 } },
        },
      },
    },
    async (req, reply) => {
      const arbiter = (req as FastifyRequest & { arbiter: string }).arbiter;
      const { event, round } = req.params;
      const outcome = deps.commands.startRound
        ? await deps.commands.startRound(event, round, { arbiter })
        : await startRoundOnBoards(deps.state, deps.commands, event, round, { arbiter }, { sessionUtcMs: nowUtcMs() });
      if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
      for (const id of outcome.started) {
        const board = deps.state.board(id);
        if (board) broadcast({ type: 'board', board }, board.event);
      }
      return reply.send({ ok: true, arbiter, started: outcome.started, skipped: outcome.skipped });
    },
  );

  // The next round of a Swiss event: proposed pairings, approved by an arbiter (docs/api.md "The next round").
  registerNextRoundRoutes(app, {
    sink: deps.nextRounds,
    requireArbiter,
    apiError,
    boardsOpened: (ids) => {
      for (const id of ids) {
        const board = deps.state.board(id);
        if (board) broadcast({ type: 'board', board }, board.event);
      }
    },
  });

  // ---- team match protocol: captains and the arbiter (captain.ts) ------------------
  registerCaptainRoutes(app, {
    ...(deps.teamMatches ? { protocols: deps.teamMatches } : {}),
    requireCaptain,
    requireArbiter,
    strictTypes,
    apiError,
    page: captainJs === null ? null : { path: CAPTAIN_PATH, script: captainJs },
    // The dashboard learns of a captain's mark at once, like of a board change.
    published: (match) => broadcast({ type: 'team-match', match }, match.event),
  });

  // ---- dashboard -------------------------------------------------------------------
  if (pageJs !== null) {
    for (const [url, file] of Object.entries(DASHBOARD_FILES)) {
      app.get(url, async (_req, reply) => {
        const text = await readFile(join(DASHBOARD_DIR, file), 'utf8');
        return reply.type(CONTENT_TYPES[file.split('.').pop()!]).header('cache-control', 'no-cache').send(text);
      });
    }
    // The page itself (host/adapters/http/dashboard/src/main.ts and its modules, bundled at start).
    app.get(PAGE_PATH, async (_req, reply) => reply.type(CONTENT_TYPES.js).header('cache-control', 'no-cache').send(pageJs));
  }

  return app;
}

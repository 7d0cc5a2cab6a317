// The API's Fastify server, before any route (docs/api.md "Conventions", "Security"): the
// validator (strict JSON types in bodies, text read as numbers in query strings and paths), the
// error body every refusal shares, the security headers (@fastify/helmet), the sign-in limiter
// (@fastify/rate-limit, used by auth.ts), the Host check beyond loopback and the WebSocket upgrade.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import AjvCompiler from '@fastify/ajv-compiler';
import websocket from '@fastify/websocket';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { ExportRefusedError } from '../../app/ports.ts';
import { storageFaultReason } from '../../app/storage-fault.ts';
import { apiError, describeValidation, type AjvError } from './api-error.ts';
import { HttpError } from './http-error.ts';

export interface ServerOptions {
  readonly logger?: boolean;
  /** Serve HTTPS with this PEM certificate and key (docs/api.md "HTTPS"). */
  readonly https?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Host names answered (lower case, no port); null or absent: any (loopback only). */
  readonly allowedHosts?: readonly string[] | null;
  /** Failed sign-ins per client address and window before 429. */
  readonly signIn: { readonly max: number; readonly windowMs: number };
  /** Security log lines (refused hosts): never a token. */
  readonly log: (line: string) => void;
}

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
 * The validator's options, as Fastify's `ajv.customOptions`: a JSON body is checked as sent, with
 * no coercion (`"5000"` is not the integer 5000, `["1-0"]` not the string "1-0", `null` not 0: a
 * client's mistake, a 400 naming the field); `verbose` keeps the value sent, so the 400 says what
 * came instead. Unknown fields are an error (a typo like "sid" must not be ignored), never dropped.
 */
const BODY_AJV = { coerceTypes: false, removeAdditional: false, verbose: true } as const;
/** Query strings and path parameters are text by nature: a number there is read from its digits. */
const TEXT_AJV = { coerceTypes: 'array', verbose: false } as const;

type ValidatorFactory = ReturnType<typeof AjvCompiler>;

/**
 * Fastify's own validator (@fastify/ajv-compiler) twice: bodies with the server's `ajv` options
 * (BODY_AJV), query strings, path parameters and headers with coercion from text (TEXT_AJV).
 */
const validatorPool = AjvCompiler();
const bodiesStrictTextCoerced: ValidatorFactory = (externalSchemas, options) => {
  const bodies = validatorPool(externalSchemas, options);
  const text = validatorPool(externalSchemas, { ...options, customOptions: { ...options?.customOptions, ...TEXT_AJV } } as typeof options);
  return (route) => (route.httpPart === 'body' ? bodies : text)(route);
};

/** The host name of a Host header, lower case, without the port; null when absent or malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::[0-9]{1,5})?$/.exec(header.trim());
  return m ? m[1].toLowerCase() : null;
}

/**
 * DNS rebinding: a page on an attacker's name that resolves to the hall PC would otherwise
 * read the API (and the token a browser sends) as same-origin. Bound beyond loopback, only
 * the names the hall uses are answered (RFC 9110 §7.2: Host names the target).
 */
function allowOnlyHosts(app: FastifyInstance, hosts: readonly string[], log: (line: string) => void): void {
  const allowed = new Set(hosts.map((h) => h.toLowerCase()));
  app.addHook('onRequest', async (req, reply) => {
    const host = hostName(req.headers.host);
    if (host !== null && allowed.has(host)) return;
    log(`http: refused Host ${JSON.stringify(req.headers.host ?? '')} from ${req.ip} (${req.method} ${req.url.split('?')[0]}); allow it with --allowed-host`);
    return reply.code(403).send(apiError(403, `host ${JSON.stringify(req.headers.host ?? '')} is not served here: allow it with --allowed-host`));
  });
}

/**
 * Every refusal answers with the same body: a schema violation names its field; a write the
 * journal's storage refused (a full disk) is 503 with the reason (docs/api.md "Conventions", the errors table); a 500 is logged.
 */
function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, _req, reply) => {
    if ('validation' in err && err.validation) {
      const { message, field } = describeValidation(err.validationContext ?? 'request', err.validation as AjvError[]);
      return reply.code(400).send(apiError(400, message, field));
    }
    if (err instanceof HttpError) return reply.code(err.statusCode).send(apiError(err.statusCode, err.message, err.field));
    if (err instanceof ExportRefusedError) return reply.code(409).send(apiError(409, err.message));
    const storage = storageFaultReason(err);
    if (storage !== null) return reply.code(503).send(apiError(503, storage));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) app.log.error(err);
    return reply.code(status).send(apiError(status, err.message));
  });
  const routes = routeTable(app);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allow = routes.methodsFor(path);
    // A path that exists under other methods: 405 with the methods it has (RFC 9110 §15.5.6).
    if (allow.length > 0)
      return reply
        .code(405)
        .header('allow', allow.join(', '))
        .send(apiError(405, `${req.method} is not allowed on ${path}: ${allow.join(', ')}`));
    return reply.code(404).send(apiError(404, `no route ${req.method} ${path}`));
  });
}

/** A route's URL as a regular expression: `:param` (with or without its own pattern) one segment, `*` the rest. */
export function routePattern(url: string): RegExp {
  let out = '';
  for (let i = 0; i < url.length; ) {
    if (url[i] === ':' && url[i + 1] !== ':') {
      i += 1;
      while (i < url.length && /[A-Za-z0-9_-]/.test(url[i])) i += 1;
      if (url[i] === '(') {
        let depth = 0;
        do {
          if (url[i] === '(') depth += 1;
          else if (url[i] === ')') depth -= 1;
          i += 1;
        } while (depth > 0 && i < url.length);
      }
      out += '[^/]+';
    } else if (url[i] === '*') {
      out += '.*';
      i += 1;
    } else {
      out += url[i].replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      i += url[i] === ':' ? 2 : 1; // "::" is a literal colon
    }
  }
  return new RegExp(`^${out}$`);
}

/** Every route's methods by URL pattern, as the routes are added (the 405's Allow header). */
function routeTable(app: FastifyInstance): { methodsFor(path: string): string[] } {
  const byUrl = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const entry = byUrl.get(route.url) ?? { pattern: routePattern(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) entry.methods.add(m.toUpperCase());
    byUrl.set(route.url, entry);
  });
  return {
    methodsFor(path) {
      const methods = new Set<string>();
      for (const { pattern, methods: ms } of byUrl.values()) if (pattern.test(path)) for (const m of ms) methods.add(m);
      return [...methods].sort();
    },
  };
}

/** The server with its validator, defences and error answers; the routes come as plugins (api.ts). */
export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    ajv: { customOptions: BODY_AJV },
    schemaController: { compilersFactory: { buildValidator: bodiesStrictTextCoerced } },
    ...(opts.https ? { https: { cert: opts.https.cert, key: opts.https.key } } : {}),
  });
  if (opts.allowedHosts) allowOnlyHosts(app, opts.allowedHosts, opts.log);
  // Security headers on every answer; the CSP is the dashboard's (docs/api.md "Security headers").
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: DASHBOARD_CSP },
    // HSTS only over HTTPS (a plain-HTTP hall LAN must stay reachable).
    strictTransportSecurity: opts.https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  });
  // Failed sign-ins are counted per client address (auth.ts); no route is limited as such.
  await app.register(rateLimit, { global: false, max: opts.signIn.max, timeWindow: opts.signIn.windowMs });
  answerErrors(app);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  return app;
}

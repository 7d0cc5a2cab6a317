// The host's HTTP/WebSocket API (docs/api.md) and the arbiter dashboard it serves, composed
// of one server (server.ts: validator, error body, security headers, sign-in limit, allowed
// hosts), its two guards (auth.ts) and a Fastify plugin per route family.
//
// Reads are public. Every write needs `Authorization: Bearer <arbiter token>` and goes to
// the CommandSink together with the arbiter's name, which journals it; a team captain's token
// opens only the captain's routes (captain.ts, docs/api.md "Captains"). Bodies, params and
// query strings are checked by JSON schemas before anything runs, so a bad request is a 4xx
// naming the field and changes nothing; a command the host refuses as a whole is a 404/409/422.
import type { FastifyInstance } from 'fastify';
import type { TeamMatchProtocols } from '../../app/captains.ts';
import type { ClockIdentitySink, CommandSink, EntrySink, ExportSource, HostState, NextRoundSink } from '../../app/ports.ts';
import { clockIdentityRoutes } from './clock-identity-api.ts';
import { ArbiterTokens, type ArbiterToken } from './arbiter-tokens.ts';
import { decorateAuth } from './auth.ts';
import { boardCommandRoutes } from './board-commands-api.ts';
import { boardReadRoutes } from './board-reads.ts';
import { CaptainTokens, type CaptainToken } from './captain-tokens.ts';
import { teamMatchRoutes } from './captain.ts';
import { commandRunner } from './command-run.ts';
import { captainBundle, pageBundle } from './dashboard/rule-book-bundle.ts';
import { exportRoutes } from './exports-api.ts';
import { DEFAULT_WS_MAX_CLIENTS, DEFAULT_WS_MAX_CLIENTS_PER_ADDRESS, DEFAULT_WS_PING_INTERVAL_MS, feedRoutes, LiveFeed } from './feed.ts';
import { nextRoundRoutes } from './next-round-api.ts';
import { entryRoutes } from './entries-api.ts';
import { pageRoutes } from './pages.ts';
import { pictureRoutes } from './pictures-api.ts';
import { resultRoutes } from './results-api.ts';
import { roundRoutes } from './rounds-api.ts';
import { createServer } from './server.ts';

export { DASHBOARD_CSP, hostName } from './server.ts';
export { etagMatches, REPORT_CSP, standingsPageCsp } from './pictures-api.ts';
export { DEFAULT_WS_MAX_CLIENTS } from './feed.ts';

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
  /** Live-feed WebSocket clients from one address at most (default 20); one more is refused with 503. */
  readonly wsMaxClientsPerAddress?: number;
  /** A ping to every live-feed client this often; one that has not answered the last is dropped (default 30 s). */
  readonly wsPingIntervalMs?: number;
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
  /** The arbiter's choice between two lines claiming one clock id (absent: 501). */
  readonly clockIdentity?: ClockIdentitySink;
  /** An event's late entries, withdrawals, requested byes and rounds' start times (entries-api.ts); absent: 501. */
  readonly entries?: EntrySink;
}

export const DEFAULT_SIGN_IN_LIMIT = { max: 10, windowMs: 60_000 } as const;

/** The tokens of both roles; a captain token for an event or team the tournament does not have would never work: refused at start. */
function tokensOf(deps: ApiDeps): { arbiters: ArbiterTokens; captains: CaptainTokens } {
  const arbiters = deps.tokens instanceof ArbiterTokens ? deps.tokens : new ArbiterTokens(deps.tokens);
  for (const c of deps.captains ?? []) {
    const wrong = deps.teamMatches?.checkCaptain(c) ?? null;
    if (wrong !== null) throw new Error(`captain tokens: ${wrong}`);
  }
  return { arbiters, captains: new CaptainTokens(deps.captains ?? [], arbiters) };
}

export async function buildApi(deps: ApiDeps): Promise<FastifyInstance> {
  // First, before anything listens: the page is useless without the rule book it imports.
  const pages = (deps.dashboard ?? true) ? await Promise.all([(deps.page ?? pageBundle)(), (deps.captainPage ?? captainBundle)()]) : null;
  const { arbiters, captains } = tokensOf(deps);
  const { state, commands, exports } = deps;
  const nowUtcMs = deps.nowUtcMs ?? (() => Date.now());
  const log = deps.log ?? (() => undefined);
  const signIn = deps.signInLimit ?? DEFAULT_SIGN_IN_LIMIT;
  const app = await createServer({ logger: deps.logger, https: deps.https, allowedHosts: deps.allowedHosts, signIn, log });
  decorateAuth(app, { arbiters, captains, signIn, log });

  const feed = new LiveFeed({
    state,
    nowUtcMs,
    timeRate: deps.timeRate ?? 1,
    maxBufferedBytes: deps.wsMaxBufferedBytes ?? 4 * 1024 * 1024,
    maxClients: deps.wsMaxClients ?? DEFAULT_WS_MAX_CLIENTS,
    maxClientsPerAddress: deps.wsMaxClientsPerAddress ?? DEFAULT_WS_MAX_CLIENTS_PER_ADDRESS,
    pingIntervalMs: deps.wsPingIntervalMs ?? DEFAULT_WS_PING_INTERVAL_MS,
    log,
  });
  const run = commandRunner({ state, commands });
  await app.register(feedRoutes, { feed });
  await app.register(boardReadRoutes, { state, nowUtcMs });
  await app.register(exportRoutes, { state, exports });
  await app.register(pictureRoutes, { state, exports });
  await app.register(boardCommandRoutes, { state, run });
  await app.register(resultRoutes, { run });
  await app.register(roundRoutes, { state, commands, nowUtcMs });
  await app.register(nextRoundRoutes, { sink: deps.nextRounds });
  await app.register(clockIdentityRoutes, deps.clockIdentity ? { sink: deps.clockIdentity } : {});
  await app.register(entryRoutes, { sink: deps.entries });
  await app.register(teamMatchRoutes, { ...(deps.teamMatches ? { protocols: deps.teamMatches } : {}), feed });
  // Lets the dashboard check a token when the arbiter signs in.
  app.get('/api/arbiter', { onRequest: app.requireArbiter }, async (req) => ({ arbiter: req.arbiter }));
  if (pages) await app.register(pageRoutes, { pageJs: pages[0], captainJs: pages[1] });
  return app;
}

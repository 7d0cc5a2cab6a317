// The live feed (docs/api.md "Live feed", GET /ws): every journaled event and every changed
// board or team match, as JSON messages to the WebSocket clients (all, or one event's). A
// stalled client is dropped rather than buffered without bound; the clients are capped in all
// and per address, a browser page may open the feed only from the host's own origin, and a
// client that stops answering pings is dropped (docs/api.md "Live feed").
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { TeamMatchView } from '../../app/captains.ts';
import type { BoardView, ClockEventRecord, HostState } from '../../app/ports.ts';
import { apiError } from './api-error.ts';

/** Default cap on live-feed WebSocket clients: a hall's arbiters and screens, with room to spare. */
export const DEFAULT_WS_MAX_CLIENTS = 200;
/** Default cap per client address: a hall PC's browser tabs and screens, not the whole feed. */
export const DEFAULT_WS_MAX_CLIENTS_PER_ADDRESS = 20;
/** Default time between pings; a client that has not answered one by the next is dropped. */
export const DEFAULT_WS_PING_INTERVAL_MS = 30_000;

export interface FeedOptions {
  readonly state: HostState;
  readonly nowUtcMs: () => number;
  /** Host UTC ms per real ms, told to clients in the hello (ApiDeps.timeRate). */
  readonly timeRate: number;
  /** A client more than this far behind is disconnected. */
  readonly maxBufferedBytes: number;
  /** Clients at most; one more is refused with 503. */
  readonly maxClients: number;
  /** Clients from one address at most; one more is refused with 503. */
  readonly maxClientsPerAddress: number;
  /** A ping to every client this often; one that has not answered the last is dropped. */
  readonly pingIntervalMs: number;
  readonly log: (line: string) => void;
}

type FeedMessage = { type: string; event?: ClockEventRecord; board?: BoardView; match?: TeamMatchView };

interface FeedClient {
  readonly event?: string;
  readonly address: string;
  /** Answered the last ping (or joined since). */
  alive: boolean;
}

export class LiveFeed {
  private readonly clients = new Map<WebSocket, FeedClient>();
  private readonly perAddress = new Map<string, number>();
  /** Corked sockets, with what was buffered for the client before this turn's first message. */
  private readonly corked = new WeakMap<WebSocket, number>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(readonly opts: FeedOptions) {}

  get size(): number {
    return this.clients.size;
  }

  /** Why a client from `address` may not join now, or null when it may. */
  refusal(address: string): string | null {
    if (this.clients.size >= this.opts.maxClients) return `the live feed is full (${this.opts.maxClients} clients)`;
    if ((this.perAddress.get(address) ?? 0) >= this.opts.maxClientsPerAddress)
      return `${this.opts.maxClientsPerAddress} live-feed clients from ${address} already`;
    return null;
  }

  /** A board's view changed: its `board` message. */
  board(board: BoardView): void {
    this.send({ type: 'board', board }, board.event);
  }

  /** The boards (by id) whose views changed, each as it is now. */
  boards(ids: readonly string[]): void {
    for (const id of ids) {
      const board = this.opts.state.board(id);
      if (board) this.board(board);
    }
  }

  /** A team match's protocol changed (a captain's mark, the arbiter's confirmation). */
  teamMatch(match: TeamMatchView): void {
    this.send({ type: 'team-match', match }, match.event);
  }

  send(message: FeedMessage, eventName: string | undefined): void {
    if (this.clients.size === 0) return;
    const text = JSON.stringify(message); // serialised once for all clients
    for (const [ws, filter] of this.clients) {
      if (filter.event !== undefined && filter.event !== eventName) continue;
      // What the client has not taken of earlier turns: this turn's own messages wait corked
      // (below), and a big batch fed in one turn is not a stalled client.
      const behind = this.corked.get(ws) ?? ws.bufferedAmount;
      if (behind > this.opts.maxBufferedBytes) {
        // A stalled client must not make the host buffer without bound; it can reconnect.
        ws.close(1013, 'too far behind: reconnect');
        this.leave(ws);
        continue;
      }
      this.corkForThisTurn(ws);
      ws.send(text);
    }
  }

  /**
   * The host journals a turn's events in one commit and then feeds them out one by one:
   * without corking, each would be its own write to the client's socket (one syscall each,
   * 14% of a busy host's CPU). Corked until the turn's synchronous work is done, they leave in
   * one write. `_socket` is ws's net.Socket (not in its typings; absent, nothing is corked).
   */
  private corkForThisTurn(ws: WebSocket): void {
    const socket = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (!socket || this.corked.has(ws)) return;
    this.corked.set(ws, ws.bufferedAmount);
    socket.cork();
    process.nextTick(() => {
      this.corked.delete(ws);
      socket.uncork();
    });
  }

  /** A new client: the hello (the server's clock and rate, the boards it follows), then the feed. */
  join(socket: WebSocket, filter: { event?: string }, address: string): void {
    const boards = this.opts.state.boards().filter((b) => filter.event === undefined || b.event === filter.event);
    socket.send(JSON.stringify({ type: 'hello', serverUtcMs: this.opts.nowUtcMs(), timeRate: this.opts.timeRate, boards }));
    this.clients.set(socket, { ...filter, address, alive: true });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.on('close', () => this.leave(socket));
    socket.on('error', () => this.leave(socket));
    socket.on('pong', () => {
      const client = this.clients.get(socket);
      if (client) client.alive = true;
    });
    this.startHeartbeat();
    // The feed is one-way; anything else a client sends is ignored.
  }

  private leave(socket: WebSocket): void {
    const client = this.clients.get(socket);
    if (!client) return;
    this.clients.delete(socket);
    const left = (this.perAddress.get(client.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(client.address, left);
    else this.perAddress.delete(client.address);
    if (this.clients.size === 0) this.stopHeartbeat();
  }

  /**
   * Every `pingIntervalMs`, each client is pinged (RFC 6455 §5.5.2; browsers and ws answer by
   * themselves); one that has not answered the previous ping is gone or stuck and is dropped,
   * so a dead or idle connection does not hold a place.
   */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const [ws, client] of this.clients) {
        if (!client.alive) {
          this.opts.log(`http: live-feed client from ${client.address} dropped: no answer to a ping in ${this.opts.pingIntervalMs} ms`);
          ws.terminate();
          this.leave(ws);
          continue;
        }
        client.alive = false;
        ws.ping();
      }
    }, this.opts.pingIntervalMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** The host is shutting down: every client is told so. */
  closeAll(): void {
    this.stopHeartbeat();
    for (const ws of this.clients.keys()) ws.close(1001, 'host shutting down');
  }
}

/**
 * Whether a browser page from `origin` may open the feed served under `host` (the request's
 * Host header): only the host's own pages may (the dashboard, the public view). A client that
 * is not a browser sends no Origin and is not concerned (RFC 6455 §10.2: the Origin check is
 * the server's defence against cross-site pages).
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() === new URL(`http://${host}`).host.toLowerCase();
  } catch {
    return false;
  }
}

/** GET /ws and the host's events and board changes fed to it, until the server closes. */
export async function feedRoutes(app: FastifyInstance, opts: { feed: LiveFeed }): Promise<void> {
  const { feed } = opts;
  const { state, log } = feed.opts;
  const unsubscribe = state.subscribe((event, board) => feed.send({ type: 'event', event, board }, event.event));
  // A board's view changed with no event carrying it (a clock connected or lost, a clock's result filed).
  const unwatch = state.watchBoards((board) => feed.board(board));
  app.addHook('onClose', async () => {
    unsubscribe();
    unwatch();
    feed.closeAll();
  });

  app.get<{ Querystring: { event?: string } }>(
    '/ws',
    {
      websocket: true,
      // Refused before the upgrade (RFC 6455 §4.1: any status but 101 fails the handshake).
      preHandler: async (req, reply) => {
        if (!sameOrigin(req.headers.origin, req.headers.host)) {
          log(`http: live-feed client from ${req.ip} refused: a page from ${JSON.stringify(req.headers.origin)} is not this host's`);
          return reply.code(403).send(apiError(403, `the live feed is open to this host's own pages only, not to ${JSON.stringify(req.headers.origin)}`));
        }
        const refused = feed.refusal(req.ip);
        if (refused === null) return;
        log(`http: live-feed client from ${req.ip} refused: ${refused} (--ws-max-clients, --ws-max-per-address)`);
        return reply
          .code(503)
          .header('retry-after', '10')
          .send(apiError(503, `${refused}: try again later`));
      },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 } } } },
    },
    (socket, req) => {
      const refused = feed.refusal(req.ip);
      if (refused !== null) {
        // Several upgrades raced past the check: close with a reason (RFC 6455 §7.4.1, 1013 try again later).
        socket.close(1013, `${refused}: try again later`);
        return;
      }
      feed.join(socket, { event: req.query.event }, req.ip);
    },
  );
}

// The live feed (docs/api.md "Live feed", GET /ws): every journaled event and every changed
// board or team match, as JSON messages to the WebSocket clients (all, or one event's). A
// stalled client is dropped rather than buffered without bound, and the clients are capped.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { TeamMatchView } from '../../app/captains.ts';
import type { BoardView, ClockEventRecord, HostState } from '../../app/ports.ts';
import { apiError } from './api-error.ts';

/** Default cap on live-feed WebSocket clients: a hall's arbiters and screens, with room to spare. */
export const DEFAULT_WS_MAX_CLIENTS = 200;

export interface FeedOptions {
  readonly state: HostState;
  readonly nowUtcMs: () => number;
  /** Host UTC ms per real ms, told to clients in the hello (ApiDeps.timeRate). */
  readonly timeRate: number;
  /** A client more than this far behind is disconnected. */
  readonly maxBufferedBytes: number;
  /** Clients at most; one more is refused with 503. */
  readonly maxClients: number;
  readonly log: (line: string) => void;
}

type FeedMessage = { type: string; event?: ClockEventRecord; board?: BoardView; match?: TeamMatchView };

export class LiveFeed {
  private readonly clients = new Map<WebSocket, { event?: string }>();
  /** Corked sockets, with what was buffered for the client before this turn's first message. */
  private readonly corked = new WeakMap<WebSocket, number>();

  constructor(readonly opts: FeedOptions) {}

  get size(): number {
    return this.clients.size;
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
        this.clients.delete(ws);
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
  join(socket: WebSocket, filter: { event?: string }): void {
    const boards = this.opts.state.boards().filter((b) => filter.event === undefined || b.event === filter.event);
    socket.send(JSON.stringify({ type: 'hello', serverUtcMs: this.opts.nowUtcMs(), timeRate: this.opts.timeRate, boards }));
    this.clients.set(socket, filter);
    socket.on('close', () => this.clients.delete(socket));
    socket.on('error', () => this.clients.delete(socket));
    // The feed is one-way; anything a client sends is ignored.
  }

  /** The host is shutting down: every client is told so. */
  closeAll(): void {
    for (const ws of this.clients.keys()) ws.close(1001, 'host shutting down');
  }
}

/** GET /ws and the host's events and board changes fed to it, until the server closes. */
export async function feedRoutes(app: FastifyInstance, opts: { feed: LiveFeed }): Promise<void> {
  const { feed } = opts;
  const { state, maxClients, log } = feed.opts;
  const unsubscribe = state.subscribe((event, board) => feed.send({ type: 'event', event, board }, event.event));
  // A board's view changed with no event carrying it (a clock connected or lost, a clock's result filed).
  const unwatch = state.watchBoards?.((board) => feed.board(board));
  app.addHook('onClose', async () => {
    unsubscribe();
    unwatch?.();
    feed.closeAll();
  });

  app.get<{ Querystring: { event?: string } }>(
    '/ws',
    {
      websocket: true,
      // Refused before the upgrade (RFC 6455 §4.1: any status but 101 fails the handshake).
      preHandler: async (req, reply) => {
        if (feed.size < maxClients) return;
        log(`http: live-feed client from ${req.ip} refused: ${maxClients} clients connected (--ws-max-clients)`);
        return reply.code(503).header('retry-after', '10').send(apiError(503, `the live feed is full (${maxClients} clients): try again later`));
      },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { event: { type: 'string', minLength: 1 } } } },
    },
    (socket, req) => {
      if (feed.size >= maxClients) {
        // Several upgrades raced past the check: close with a reason (RFC 6455 §7.4.1, 1013 try again later).
        socket.close(1013, 'the live feed is full: try again later');
        return;
      }
      feed.join(socket, { event: req.query.event });
    },
  );
}

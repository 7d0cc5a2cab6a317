// A stand-in for lichess's broadcast push, on loopback, keeping the contract the pusher relies on
// (docs/broadcast.md "The lichess push contract"):
//  - `POST /api/broadcast/round/{roundId}/push`, the round id 8 characters, the round without a
//    source URL (else 400), the body `text/plain` PGN of up to 100 games (else 400);
//  - an OAuth bearer token with the scope `study:write` (401 without a known token, 403 without
//    the scope or when its user is not a contributor of the round's study);
//  - one request at a time per token: a second while one is out is answered 429, as lichess's
//    API answers it; and 429 on demand (`rateLimitNext`);
//  - every game parsed and played with chessops (lichess's JavaScript chess library): 200 with
//    `{"games": [{"tags", "moves"} | {"tags", "error"}]}`, one entry per game in push order;
//  - games kept per round across pushes, matched by their GameId tag (else White, Black, Round).
// `hold()` keeps the next request open until released, so a test can push while one is out.

import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChessopsGame, readWithChessops } from './chessops-reader.fixture.ts';

export interface StandInToken {
  user: string;
  scopes: string[];
}
export interface StandInRound {
  /** Users allowed to push (the study's contributors). */
  contributors: string[];
  /** A round with a source URL: lichess polls it, and refuses a push. */
  sourceUrl?: string;
}

/** One request as the stand-in saw it and answered it. */
export interface StandInPush {
  roundId: string;
  status: number;
  /** Games in the body (0 when refused before parsing). */
  games: number;
  body: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

export class LichessStandIn extends EventEmitter<{ push: [StandInPush] }> {
  readonly pushes: StandInPush[] = [];
  /** Each round's games as the last pushes left them, by GameId (else `White|Black|Round`). */
  readonly games = new Map<string, Map<string, ChessopsGame>>();
  /** Requests refused because another of the same token was out. */
  concurrentRefusals = 0;
  private readonly server: Server;
  private readonly inFlight = new Set<string>();
  private rateLimited = 0;
  private holds: ((release: () => void) => void)[] = [];

  constructor(
    private readonly tokens: Record<string, StandInToken>,
    private readonly rounds: Record<string, StandInRound>,
  ) {
    super();
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The next `n` pushes are answered 429. */
  rateLimitNext(n = 1): void {
    this.rateLimited += n;
  }

  /** The next push is held open (authorized, in flight) until the returned promise's release is called. */
  hold(): Promise<() => void> {
    return new Promise((resolve) => this.holds.push(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const roundId = /^\/api\/broadcast\/round\/([^/]+)\/push$/.exec(req.url ?? '')?.[1] ?? '';
    const record = (status: number, games: number, answer: unknown) => {
      const push: StandInPush = { roundId, status, games, body, authorization: req.headers.authorization, contentType: req.headers['content-type'] };
      this.pushes.push(push);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      this.emit('push', push);
    };
    if (req.method !== 'POST' || roundId === '') return record(404, 0, { error: 'Not found' });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const who = token === undefined ? undefined : this.tokens[token];
    if (!who) return record(401, 0, { error: 'No such token' });
    if (!who.scopes.includes('study:write')) return record(403, 0, { error: 'Missing scope: study:write' });
    // API rule: one request at a time per token.
    if (this.inFlight.has(token!)) {
      this.concurrentRefusals++;
      return record(429, 0, { error: 'Please only run 1 request(s) at a time' });
    }
    this.inFlight.add(token!);
    try {
      const hold = this.holds.shift();
      if (hold) await new Promise<void>((release) => hold(release));
      const [status, games, answer] = this.answer(roundId, who, req.headers['content-type'], body);
      record(status, games, answer);
    } finally {
      this.inFlight.delete(token!);
    }
  }

  private answer(roundId: string, who: StandInToken, contentType: string | undefined, body: string): [number, number, unknown] {
    if (this.rateLimited > 0) {
      this.rateLimited--;
      return [429, 0, { error: 'Too many requests. Try again later.' }];
    }
    if (!/^[A-Za-z0-9]{8}$/.test(roundId)) return [404, 0, { error: 'Not found' }];
    const round = this.rounds[roundId];
    if (!round) return [404, 0, { error: 'No such broadcast round' }];
    if (!round.contributors.includes(who.user)) return [403, 0, { error: 'Only contributors can push' }];
    if (round.sourceUrl) return [400, 0, { error: 'This round has a source URL; it cannot be pushed to' }];
    if (!/^text\/plain\b/.test(contentType ?? '')) return [400, 0, { error: 'The body must be text/plain PGN' }];
    const games = readWithChessops(body);
    if (games.length === 0) return [400, 0, { error: 'No games in the PGN' }];
    if (games.length > 100) return [400, games.length, { error: `Too many games (${games.length}), max 100` }];
    const kept = this.games.get(roundId) ?? new Map<string, ChessopsGame>();
    this.games.set(roundId, kept);
    const answers = games.map((g) => {
      if (g.error !== null) return { tags: g.tags, error: g.error };
      kept.set(g.tags.GameId ?? `${g.tags.White}|${g.tags.Black}|${g.tags.Round}`, g);
      return { tags: g.tags, moves: g.sans.length };
    });
    return [200, games.length, { games: answers }];
  }
}

// The push of a round's games to a lichess broadcast round (docs/broadcast.md "The push"):
// `POST {base}/api/broadcast/round/{roundId}/push`, the round's PGN as `text/plain`, with the
// organiser's OAuth token (scope `study:write`) as `Authorization: Bearer`. The rules kept, from
// lichess's API specification:
//  - one request at a time per token: a pusher holds one token and sends one request at a time;
//    a round's state given while a request is out waits, and only the latest state of each round
//    is sent (the games of a round are all in every push, so a newer state holds an older one);
//  - at most 100 games per push: a bigger round goes out in several pushes of up to 100 games;
//  - after a `429`, a full minute before the next request; after another error, a wait that
//    doubles (1 s, 2 s, … up to a minute) until a push is answered 200;
//  - a 200 answers each game with its moves or its `error`: kept per game, so the board's panel
//    can show it.
// The token is sent in the header and nowhere else: no message, event or error holds it.

import { EventEmitter } from 'node:events';
import { type BroadcastGame, joinGames } from './live-pgn.ts';

/** lichess: a broadcast round's id is 8 characters. */
const ROUND_ID = /^[A-Za-z0-9]{8}$/;
/** lichess: up to 100 games per push. */
export const MAX_GAMES_PER_PUSH = 100;
/** lichess API: after a 429, wait a full minute. */
export const RATE_LIMIT_WAIT_MS = 60_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/** What lichess said of one game of a push. */
export interface GameOutcome {
  board: number;
  gameNo: number;
  gameId: string;
  /** Moves lichess read, when it took the game. */
  moves: number | null;
  /** Why lichess refused the game (an illegal move, a tag it cannot read), or null. */
  error: string | null;
}

export interface PushReport {
  roundId: string;
  /** The games of the round as lichess answered them, in push order. */
  games: GameOutcome[];
  /** How many requests the state took (over 100 games, several). */
  requests: number;
}

export interface PushFailure {
  roundId: string;
  /** The HTTP status, or null when no answer came (the network). */
  status: number | null;
  message: string;
  /** The wait before the next request. */
  retryInMs: number;
}

/** One request that left for lichess, and what came back: what the journal's broadcast log keeps. */
export interface PushRequest {
  roundId: string;
  /** When the request left (the pusher's `now`). */
  sentUtcMs: number;
  /** The games it held. */
  games: readonly BroadcastGame[];
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** lichess's answer per game (a 200), else null. */
  outcomes: GameOutcome[] | null;
  /** What went wrong (not a 200), else null. */
  message: string | null;
}

export interface LichessPusherEvents {
  pushed: [PushReport];
  failed: [PushFailure];
  request: [PushRequest];
}

export interface LichessPusherOptions {
  /** `https://lichess.org`, or a stand-in or a mirror. */
  base: string;
  /** The OAuth token (scope `study:write`). Never logged. */
  token: string;
  fetch?: typeof fetch;
  /** Waits `ms` before the next request (tests inject their own, to step time). */
  sleep?: (ms: number) => Promise<void>;
  /** Time allowed for one request. Default 30 s. */
  requestTimeoutMs?: number;
  /** UTC ms now, for the time each request left (`request` event). Default Date.now. */
  now?: () => number;
}

export class LichessPushError extends Error {}

/** Checks a lichess round id (8 characters): the error says what is wrong. */
export function checkRoundId(roundId: string): string {
  if (!ROUND_ID.test(roundId)) throw new LichessPushError(`lichess round id "${roundId}": must be 8 letters or digits (the id in the round's URL)`);
  return roundId;
}

/** One pusher per token: one request at a time, the latest state of each round wins. */
export class LichessPusher extends EventEmitter<LichessPusherEvents> {
  private readonly pending = new Map<string, readonly BroadcastGame[]>();
  private readonly outcomes = new Map<string, PushReport>();
  private loop: Promise<void> | null = null;
  private backoffMs = 0;
  private stopped = false;
  /** Ends the request out when the pusher stops (a host that stops does not wait for lichess). */
  private readonly abort = new AbortController();
  private readonly base: string;

  constructor(private readonly opts: LichessPusherOptions) {
    super();
    this.base = opts.base.replace(/\/+$/, '');
    if (!/^https?:\/\//.test(this.base)) throw new LichessPushError(`lichess URL "${opts.base}": must be an http(s) URL`);
    if (opts.token.trim() === '') throw new LichessPushError('lichess token: empty');
  }

  /** The round's games as they are now: sent as soon as no request is out (a state not yet sent is replaced). */
  push(roundId: string, games: readonly BroadcastGame[]): void {
    checkRoundId(roundId);
    if (this.stopped) return;
    this.pending.delete(roundId); // re-inserted last: rounds take turns
    this.pending.set(roundId, games);
    this.loop ??= this.run().finally(() => {
      this.loop = null;
    });
  }

  /** What lichess answered to the round's last push, game by game. */
  lastReport(roundId: string): PushReport | null {
    return this.outcomes.get(roundId) ?? null;
  }

  /** Resolves when nothing is pending or out. */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /** No more requests; the one out, if any, is abandoned. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.abort.abort();
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.pending.size > 0) {
      const [roundId, games] = this.pending.entries().next().value as [string, readonly BroadcastGame[]];
      this.pending.delete(roundId);
      const failure = await this.send(roundId, games);
      if (this.stopped) break;
      if (failure === null) {
        this.backoffMs = 0;
        continue;
      }
      // Not sent: it is still the latest state unless a newer one came meanwhile.
      if (!this.pending.has(roundId)) this.pending.set(roundId, games);
      // The token is never said, even where an answer or a network error would repeat it.
      this.emit('failed', { ...failure, message: failure.message.replaceAll(this.opts.token, '[token]') });
      await (this.opts.sleep ?? delay)(failure.retryInMs);
    }
  }

  /** The state in pushes of up to 100 games; null when every push was answered 200. */
  private async send(roundId: string, games: readonly BroadcastGame[]): Promise<PushFailure | null> {
    const outcomes: GameOutcome[] = [];
    let requests = 0;
    for (let i = 0; i < Math.max(1, games.length); i += MAX_GAMES_PER_PUSH) {
      const chunk = games.slice(i, i + MAX_GAMES_PER_PUSH);
      requests++;
      const sentUtcMs = (this.opts.now ?? Date.now)();
      const answer = await this.request(roundId, chunk);
      const failed = 'failure' in answer ? answer.failure : null;
      if (!this.stopped) {
        const outcomes = failed ? null : (answer as { outcomes: GameOutcome[] }).outcomes;
        const message = failed ? failed.message.replaceAll(this.opts.token, '[token]') : null;
        this.emit('request', { roundId, sentUtcMs, games: chunk, status: failed ? failed.status : 200, outcomes, message });
      }
      if ('failure' in answer) return answer.failure;
      outcomes.push(...answer.outcomes);
    }
    const report: PushReport = { roundId, games: outcomes, requests };
    this.outcomes.set(roundId, report);
    this.emit('pushed', report);
    return null;
  }

  private async request(roundId: string, chunk: readonly BroadcastGame[]): Promise<{ outcomes: GameOutcome[] } | { failure: PushFailure }> {
    const url = `${this.base}/api/broadcast/round/${roundId}/push`;
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.opts.token}`, 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' },
        body: joinGames(chunk),
        signal: AbortSignal.any([AbortSignal.timeout(this.opts.requestTimeoutMs ?? 30_000), this.abort.signal]),
      });
    } catch (err) {
      return { failure: this.failure(roundId, null, `no answer from ${this.base}: ${describe(err)}`) };
    }
    const text = await res.text().catch(() => '');
    if (this.stopped) return { failure: { roundId, status: res.status, message: 'stopped', retryInMs: 0 } };
    if (res.status === 429) {
      return {
        failure: { roundId, status: 429, message: `lichess: too many requests (429)${errorOf(text)}; waiting a minute`, retryInMs: RATE_LIMIT_WAIT_MS },
      };
    }
    if (res.status !== 200) return { failure: this.failure(roundId, res.status, `lichess answered ${res.status}${errorOf(text)}`) };
    let games: unknown[];
    try {
      games = (JSON.parse(text) as { games: unknown[] }).games;
      if (!Array.isArray(games)) throw new Error('no "games" list');
    } catch (err) {
      return { failure: this.failure(roundId, 200, `lichess's answer is not {"games": [...]}: ${describe(err)}`) };
    }
    return { outcomes: chunk.map((game, i) => outcomeOf(game, games[i])) };
  }

  private failure(roundId: string, status: number | null, message: string): PushFailure {
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs === 0 ? FIRST_BACKOFF_MS : this.backoffMs * 2);
    return { roundId, status, message, retryInMs: this.backoffMs };
  }
}

/** lichess answers the games in push order; an answer missing for a game is said as its error. */
function outcomeOf(game: BroadcastGame, answer: unknown): GameOutcome {
  const base = { board: game.board, gameNo: game.gameNo, gameId: game.gameId };
  if (typeof answer !== 'object' || answer === null) return { ...base, moves: null, error: 'lichess gave no answer for this game' };
  const a = answer as { moves?: unknown; error?: unknown };
  if (typeof a.error === 'string') return { ...base, moves: null, error: a.error };
  return { ...base, moves: typeof a.moves === 'number' ? a.moves : null, error: null };
}

/** `: <error>` from a lichess error body `{"error": "..."}`, or the start of the text. */
function errorOf(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === 'string') return `: ${error}`;
  } catch {}
  const start = text.trim().slice(0, 200);
  return start ? `: ${start}` : '';
}

function describe(err: unknown): string {
  const e = err as Error & { cause?: Error };
  return e.cause?.message ? `${e.message} (${e.cause.message})` : (e.message ?? String(err));
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

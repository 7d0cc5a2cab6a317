// docs/broadcast.md "The push": the pusher against a lichess stand-in on loopback that keeps
// lichess's push contract (lichess-stand-in.fixture.ts). Time is stepped: the pusher's waits are
// injected, so the minute after a 429 is checked without waiting it.
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BroadcastHall, CLASSICAL, press } from './broadcast-hall.fixture.ts';
import { checkRoundId, LichessPusher, type LichessPusherOptions, type PushFailure, type PushReport, RATE_LIMIT_WAIT_MS } from './lichess-push.ts';
import { LichessStandIn } from './lichess-stand-in.fixture.ts';
import { type BroadcastGame, broadcastRound } from './live-pgn.ts';

const TOKEN = 'lip_organiserSecret123';
const ROUND = 'aBcD1234';
const SOURCED = 'srcRound';

let standIn: LichessStandIn;
let base: string;
let pusher: LichessPusher | null = null;
beforeEach(async () => {
  standIn = new LichessStandIn(
    {
      [TOKEN]: { user: 'organiser', scopes: ['study:write'] },
      lip_readOnly: { user: 'organiser', scopes: ['study:read'] },
      lip_stranger: { user: 'someone', scopes: ['study:write'] },
    },
    { [ROUND]: { contributors: ['organiser'] }, [SOURCED]: { contributors: ['organiser'], sourceUrl: 'https://example.org/games.pgn' } },
  );
  base = await standIn.start();
});
afterEach(async () => {
  pusher?.stop();
  await pusher?.idle();
  pusher = null;
  await standIn.stop();
});

function newPusher(opts: Partial<LichessPusherOptions> = {}): LichessPusher {
  pusher = new LichessPusher({ base, token: TOKEN, ...opts });
  return pusher;
}
const nextReport = async (p: LichessPusher) => (await once(p, 'pushed'))[0] as PushReport;
const nextFailure = async (p: LichessPusher) => (await once(p, 'failed'))[0] as PushFailure;

/** `n` games of a round with one move each, as the broadcast writes them. */
function games(n: number, move = 'e4'): BroadcastGame[] {
  return Array.from({ length: n }, (_, i) => ({
    board: i + 1,
    gameNo: 1,
    gameId: `ev:1.${i + 1}.1`,
    pgn: `[Event "Ev"]\n[Round "1.${i + 1}"]\n[White "W${i + 1}"]\n[Black "B${i + 1}"]\n[Result "*"]\n[GameId "ev:1.${i + 1}.1"]\n\n1. ${move} *\n`,
    plies: 1,
    newestUtcMs: 0,
    asOfUtcMs: 0,
  }));
}

describe('the push to a lichess broadcast round (docs/broadcast.md "The push")', () => {
  it("the round's games reach lichess with every %clk equal to the journal; a game lichess refuses (an illegal move) is that board's error", async () => {
    const hall = new BroadcastHall();
    const [b1, b2] = hall.games[CLASSICAL];
    const c1 = hall.clock(b1);
    for (const ms of [31_400, 12_000, 65_001, 2_000]) press(c1, ms);
    const c2 = hall.clock(b2);
    for (const ms of [5_000, 6_000]) press(c2, ms);
    const movesText =
      `[Round "1.1"]\n[White "${b1.white}"]\n[Black "${b1.black}"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n` +
      `[Round "1.2"]\n[White "${b2.white}"]\n[Black "${b2.black}"]\n[Result "*"]\n\n1. d4 Ke7 *\n`; // 1... Ke7 is no legal move: the e7 pawn stands there
    const round = broadcastRound(hall.round(CLASSICAL), hall.utc(c1.now), movesText);
    const p = newPusher();
    const pushed = nextReport(p);
    p.push(ROUND, round.games);
    const report = await pushed;

    expect(standIn.pushes.map((x) => [x.status, x.authorization, x.contentType])).toEqual([[200, `Bearer ${TOKEN}`, 'text/plain; charset=utf-8']]);
    expect(report.games.map((g) => [g.board, g.moves, g.error])).toEqual([
      [1, 4, null],
      [2, null, 'ply 2: Ke7 is no legal move in rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1'],
    ]);
    expect(p.lastReport(ROUND)).toEqual(report);
    // What lichess keeps of board 1: each %clk the journal's time of its press (whole seconds, rounded up as the clock shows it).
    const kept = standIn.games.get(ROUND)!.get(`${CLASSICAL}:1.1.1`)!;
    const figures = hall.pressFigures(b1);
    expect(kept.clocks).toEqual(['white:1', 'black:1', 'white:2', 'black:2'].map((k) => Math.ceil(figures.get(k)! / 1000)));
    hall.journal.close();
  });

  it('one request at a time per token: states given while a push is out wait, and only the latest is sent', async () => {
    const p = newPusher();
    const held = standIn.hold();
    p.push(ROUND, games(1, 'e4'));
    const release = await held; // the first push is at lichess, unanswered
    p.push(ROUND, games(1, 'd4'));
    p.push(ROUND, games(1, 'c4'));
    release();
    await p.idle();
    expect(standIn.pushes.map((x) => [x.status, /1\. (\w+)/.exec(x.body)![1]])).toEqual([
      [200, 'e4'],
      [200, 'c4'],
    ]);
    expect(standIn.concurrentRefusals).toBe(0);
  });

  it('a pusher stopped while lichess has not answered abandons the request and sends nothing more', async () => {
    const p = newPusher();
    const failures: PushFailure[] = [];
    p.on('failed', (f) => failures.push(f));
    const held = standIn.hold();
    p.push(ROUND, games(1, 'e4'));
    const release = await held;
    p.push(ROUND, games(1, 'd4'));
    p.stop();
    await p.idle();
    release();
    expect([failures, p.lastReport(ROUND)]).toEqual([[], null]);
    p.push(ROUND, games(1, 'c4'));
    await p.idle();
    expect(standIn.pushes.filter((x) => x.body.includes('1. d4') || x.body.includes('1. c4'))).toEqual([]);
  });

  it('over 100 games go out in several pushes of at most 100 (lichess: 100 games per push)', async () => {
    const p = newPusher();
    const pushed = nextReport(p);
    p.push(ROUND, games(230));
    const report = await pushed;
    expect(standIn.pushes.map((x) => [x.status, x.games])).toEqual([
      [200, 100],
      [200, 100],
      [200, 30],
    ]);
    expect([report.requests, report.games.length, report.games.every((g) => g.error === null && g.moves === 1)]).toEqual([3, 230, true]);
    expect(standIn.games.get(ROUND)!.size).toBe(230);
  });

  it('after a 429 the next request waits a full minute (lichess API: wait 60 s)', async () => {
    const waits: number[] = [];
    let endWait: () => void = () => {};
    const p = newPusher({
      sleep: (ms) =>
        new Promise((resolve) => {
          waits.push(ms);
          endWait = resolve;
        }),
    });
    standIn.rateLimitNext();
    const failed = nextFailure(p);
    p.push(ROUND, games(2));
    expect(await failed).toEqual({
      roundId: ROUND,
      status: 429,
      message: 'lichess: too many requests (429): Too many requests. Try again later.; waiting a minute',
      retryInMs: RATE_LIMIT_WAIT_MS,
    });
    // The pusher is in its wait: the minute asked for, and no request sent since the 429.
    expect([waits, standIn.pushes.map((x) => x.status)]).toEqual([[60_000], [429]]);
    const pushed = nextReport(p);
    endWait();
    await pushed;
    expect(standIn.pushes.map((x) => x.status)).toEqual([429, 200]);
  });

  it('other errors back off, doubling from 1 s; what lichess says is reported, and the token never is', async () => {
    const waits: number[] = [];
    const failures: PushFailure[] = [];
    const p = newPusher({ sleep: async (ms) => void waits.push(ms) });
    p.on('failed', (f) => {
      failures.push(f);
      if (failures.length === 3) p.stop();
    });
    p.push(SOURCED, games(1));
    await p.idle();
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(failures[0]).toEqual({
      roundId: SOURCED,
      status: 400,
      message: 'lichess answered 400: This round has a source URL; it cannot be pushed to',
      retryInMs: 1_000,
    });

    // A token without study:write, one of a stranger, and no lichess at all: said, without the token.
    const said: string[] = [];
    for (const [token, url] of [
      ['lip_readOnly', base],
      ['lip_stranger', base],
      [TOKEN, 'http://127.0.0.1:9'],
    ]) {
      const q: LichessPusher = new LichessPusher({ base: url, token, sleep: async (): Promise<void> => q.stop() });
      q.on('failed', (f) => said.push(`${f.status} ${f.message}`));
      q.push(ROUND, games(1));
      await q.idle();
    }
    expect(said.slice(0, 2)).toEqual(['403 lichess answered 403: Missing scope: study:write', '403 lichess answered 403: Only contributors can push']);
    expect(said[2]).toMatch(/^null no answer from http:\/\/127\.0\.0\.1:9: fetch failed/);
    for (const text of [...said, ...failures.map((f) => f.message)]) expect(text).not.toMatch(/lip_/);
  });

  it('a lichess round id is 8 letters or digits: anything else is refused before a request', () => {
    expect(checkRoundId('aBcD1234')).toBe('aBcD1234');
    const p = newPusher();
    expect(() => p.push('https://lichess.org/broadcast/x/round/aBcD1234', games(1))).toThrow(
      'lichess round id "https://lichess.org/broadcast/x/round/aBcD1234": must be 8 letters or digits (the id in the round\'s URL)',
    );
    expect(() => new LichessPusher({ base: 'lichess.org', token: TOKEN })).toThrow('lichess URL "lichess.org": must be an http(s) URL');
  });
});

describe('the lichess stand-in keeps the push contract (docs/broadcast.md "The lichess push contract")', () => {
  const post = (roundId: string, body: string, token: string | null = TOKEN, contentType = 'text/plain') =>
    fetch(`${base}/api/broadcast/round/${roundId}/push`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      body,
    }).then(async (r) => [r.status, await r.json()]);
  const pgn = (gs: BroadcastGame[]) => gs.map((g) => g.pgn).join('\n');

  it('refuses what lichess refuses, each with its error', async () => {
    expect(await post(ROUND, pgn(games(1)), null)).toEqual([401, { error: 'No such token' }]);
    expect(await post(ROUND, pgn(games(1)), 'lip_unknown')).toEqual([401, { error: 'No such token' }]);
    expect(await post('aBcD123', pgn(games(1)))).toEqual([404, { error: 'Not found' }]);
    expect(await post('zzzz9999', pgn(games(1)))).toEqual([404, { error: 'No such broadcast round' }]);
    expect(await post(ROUND, pgn(games(101)))).toEqual([400, { error: 'Too many games (101), max 100' }]);
    expect(await post(ROUND, pgn(games(1)), TOKEN, 'application/json')).toEqual([400, { error: 'The body must be text/plain PGN' }]);
    expect(standIn.games.get(ROUND)).toBeUndefined();
  });

  it('answers a second request of the same token, while the first is out, with 429', async () => {
    const held = standIn.hold();
    const first = post(ROUND, pgn(games(1)));
    const release = await held;
    expect(await post(ROUND, pgn(games(1)))).toEqual([429, { error: 'Please only run 1 request(s) at a time' }]);
    release();
    expect((await first)[0]).toBe(200);
    expect(standIn.concurrentRefusals).toBe(1);
  });
});

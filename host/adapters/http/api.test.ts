import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { buildApi } from './api.ts';
import { JournalBoards } from '../../app/journal-boards.fixture.ts';
import type { ArbiterCommand, ClockEventRecord, ExportSource } from '../../app/ports.ts';

const TOKEN = 'tok-anna-0123456789abcdef';
const OTHER = 'tok-boris-0123456789abcdef';
const TOKENS = [
  { arbiter: 'Anna (IA)', token: TOKEN },
  { arbiter: 'Boris (FA)', token: OTHER },
];
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });
/** The event's key: its boards' ids are `final-1`, `final-2`, … (boardIdOf). */
const FINAL = 'Final';
const IVANOVO = 'Ivanovo';

const apps: FastifyInstance[] = [];
const hosts: JournalBoards[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const h of hosts.splice(0)) h.close();
});

let seqs = new Map<string, number>();
function ev(clockId: string, type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord {
  const seq = (seqs.get(clockId) ?? 0) + 1;
  seqs.set(clockId, seq);
  return {
    clockId,
    bootId: 'b1',
    seq,
    event: FINAL,
    round: 1,
    board: Number(clockId.slice(-1)),
    type,
    side: null,
    move: null,
    whiteMs: 5_400_000,
    blackMs: 5_400_000,
    monoMs: seq * 1000,
    utcMs: 1_750_000_000_000 + seq * 1000,
    ...extra,
  };
}

interface Setup {
  app: FastifyInstance;
  host: JournalBoards;
  forwarded: ArbiterCommand[];
  exportCalls: string[];
}

async function setup(opts: { exports?: boolean; wsMaxBufferedBytes?: number } = {}): Promise<Setup> {
  seqs = new Map();
  const host = new JournalBoards({ nowUtcMs: () => 1_750_000_500_000 });
  hosts.push(host);
  host.addBoard({
    id: 'final-1',
    event: FINAL,
    round: 1,
    board: 1,
    clockId: 'clk-1',
    white: { name: 'Tratar, Marko' },
    black: { name: 'Sebenik, Matej' },
    timeControl: '40/5400+30:900+30',
  });
  host.addBoard({ id: 'final-2', event: FINAL, round: 1, board: 2, clockId: 'clk-2', timeControl: 'rapid' });
  host.addBoard({ id: 'ivanovo-1', event: IVANOVO, round: 3, board: 1, clockId: 'clk-9' });
  const forwarded = host.forwarded;
  const exportCalls: string[] = [];
  const exports: ExportSource = {
    trf: (event, round, options) => (exportCalls.push(`trf ${event} ${round}${options?.format ? ` ${options.format}` : ''}`), `012 ${event}\n`),
    pgn: (event, round) => (exportCalls.push(`pgn ${event} ${round}`), `[Event "${event}"]\n[Round "${round}.1"]\n\n*\n`),
  };
  const app = await buildApi({
    state: host,
    commands: host,
    tokens: TOKENS,
    exports: opts.exports === false ? undefined : exports,
    nowUtcMs: () => 1_750_000_500_000,
    ...(opts.wsMaxBufferedBytes ? { wsMaxBufferedBytes: opts.wsMaxBufferedBytes } : {}),
  });
  apps.push(app);
  return { app, host, forwarded, exportCalls };
}

describe('HTTP API: public reads', () => {
  it('lists boards with their live state folded from the clock events', async () => {
    const { app, host } = await setup();
    // 40/5400+30:900+30, increment before the move: 90 min + 30 s each at the start; White
    // moves after 1 s: 5 430 000 − 1 000 + 30 000 (move 2's increment) = 5 459 000.
    host.ingest(ev('clk-1', 'started', { whiteMs: 5_430_000, blackMs: 5_430_000 }));
    host.ingest(ev('clk-1', 'moved', { side: 'white', move: 1, whiteMs: 5_459_000, blackMs: 5_430_000 }));
    const res = await app.inject({ method: 'GET', url: '/api/boards' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.serverUtcMs).toBe(1_750_000_500_000);
    expect(body.boards).toHaveLength(3);
    expect(body.boards[0]).toMatchObject({
      id: 'final-1',
      event: FINAL,
      white: { name: 'Tratar, Marko' },
      live: { status: 'running', turn: 'black', whiteMs: 5_459_000, blackMs: 5_430_000, moves: { white: 1, black: 0 }, seq: 2 },
    });
    const filtered = await app.inject({ method: 'GET', url: `/api/boards?event=${encodeURIComponent(IVANOVO)}` });
    expect(filtered.json().boards.map((b: { id: string }) => b.id)).toEqual(['ivanovo-1']);
  });

  it('answers 404 naming the board that does not exist', async () => {
    const { app } = await setup();
    const res = await app.inject({ method: 'GET', url: '/api/boards/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, message: 'no board "nope"', field: 'id' });
  });

  it('pages through events with a cursor, filtered by board', async () => {
    const { app, host } = await setup();
    host.ingest(ev('clk-1', 'started'));
    for (let i = 0; i < 249; i++) {
      host.ingest(ev('clk-1', 'moved', { side: i % 2 ? 'black' : 'white', move: 1 + Math.floor(i / 2) }));
      host.ingest(ev('clk-2', 'moved'));
    }
    const seen: number[] = [];
    let url = '/api/boards/final-1/events?limit=100';
    for (let pages = 0; ; pages++) {
      const page = (await app.inject({ method: 'GET', url })).json();
      seen.push(...page.events.map((e: ClockEventRecord) => e.seq));
      expect(page.events.every((e: ClockEventRecord) => e.clockId === 'clk-1')).toBe(true);
      if (page.next === null) {
        expect(pages).toBe(2);
        break;
      }
      url = `/api/boards/final-1/events?limit=100&after=${page.next}`;
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const all = (await app.inject({ method: 'GET', url: '/api/events?board=2&limit=1000' })).json();
    expect(all.events).toHaveLength(249);
  });

  it('rejects a bad query with a 400 naming the field', async () => {
    const { app } = await setup();
    const r1 = await app.inject({ method: 'GET', url: '/api/events?limit=0' });
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toMatchObject({ field: 'limit', message: 'querystring: "limit" must be >= 1' });
    const r2 = await app.inject({ method: 'GET', url: '/api/events?rnd=1' });
    expect(r2.json()).toMatchObject({ statusCode: 400, field: 'rnd', message: 'querystring: unknown field "rnd"' });
    const r3 = await app.inject({ method: 'GET', url: '/api/boards/bad%20id' });
    expect(r3.json()).toMatchObject({ statusCode: 400, field: 'id' });
  });
});

describe('HTTP API: exports', () => {
  it('serves a round as PGN at /broadcast/round/:r/games.pgn for relays, uncached', async () => {
    const { app, exportCalls } = await setup();
    const res = await app.inject({ method: 'GET', url: `/broadcast/round/2/games.pgn?event=${encodeURIComponent(FINAL)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-chess-pgn; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('[Round "2.1"]');
    expect(exportCalls).toEqual([`pgn ${FINAL} 2`]);
    expect((await app.inject({ method: 'GET', url: '/broadcast/round/0/games.pgn' })).statusCode).toBe(400);
    const unknown = await app.inject({ method: 'GET', url: '/broadcast/round/1/games.pgn?event=Nope' });
    expect(unknown.json()).toMatchObject({ statusCode: 404, message: 'no event "Nope"' });
  });

  it('serves TRF per event and says when the event is missing', async () => {
    const { app, exportCalls } = await setup();
    const res = await app.inject({ method: 'GET', url: `/api/export/trf?event=${encodeURIComponent(FINAL)}&round=1` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(exportCalls).toEqual([`trf ${FINAL} 1`]);
    const missing = await app.inject({ method: 'GET', url: '/api/export/trf' });
    expect(missing.json()).toMatchObject({ statusCode: 400, field: 'event', message: 'querystring: missing required field "event"' });
  });

  it('serves TRF-2026 by default and the TRF16 form with ?format=trf16 (docs/exports.md "FIDE TRF"); another format is a 400 naming the field', async () => {
    const { app, exportCalls } = await setup();
    const url = (q: string) => `/api/export/trf?event=${encodeURIComponent(FINAL)}&round=1${q}`;
    expect((await app.inject({ method: 'GET', url: url('&format=trf16') })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: url('&format=trf26') })).statusCode).toBe(200);
    expect(exportCalls).toEqual([`trf ${FINAL} 1 trf16`, `trf ${FINAL} 1 trf26`]);
    const bad = await app.inject({ method: 'GET', url: url('&format=trf06') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'format' });
    expect(exportCalls).toHaveLength(2);
  });

  it('answers 501 when no exporter is configured', async () => {
    const { app } = await setup({ exports: false });
    const res = await app.inject({ method: 'GET', url: '/api/export/pgn?round=1' });
    expect(res.statusCode).toBe(501);
  });

  it('streams events as JSON Lines, one event per line', async () => {
    const { app, host } = await setup();
    for (let i = 0; i < 1500; i++) host.ingest(ev('clk-2', 'moved'));
    const res = await app.inject({ method: 'GET', url: '/api/export/events.jsonl?board=2' });
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1500);
    expect(lines[1499]).toMatchObject({ clockId: 'clk-2', seq: 1500 });
  });
});

describe('HTTP API: arbiter writes', () => {
  it('refuses writes without a valid Bearer token and passes nothing on', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-1', 'started'));
    const none = await app.inject({ method: 'POST', url: '/api/boards/final-1/pause' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json().message).toMatch(/missing arbiter token/);
    const wrong = await app.inject({ method: 'POST', url: '/api/boards/final-1/pause', headers: auth('tok-anna-0123456789abcdeX') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('unknown arbiter token');
    // A bad token is refused before the body is even looked at.
    const badBody = await app.inject({ method: 'POST', url: '/api/boards/final-1/adjust', headers: auth('nope'), payload: { side: 'pink' } });
    expect(badBody.statusCode).toBe(401);
    expect(host.actions()).toEqual([]);
    expect(forwarded).toEqual([]);
  });

  it('pauses a running clock and records who did it', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-1', 'started'));
    const res = await app.inject({ method: 'POST', url: '/api/boards/final-1/pause', headers: auth(OTHER) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, arbiter: 'Boris (FA)', board: { id: 'final-1' } });
    expect(forwarded).toEqual([{ type: 'pause', boardId: 'final-1' }]);
    expect(host.actions()).toEqual([{ action: 'pause', boardId: 'final-1', arbiter: 'Boris (FA)', outcome: 'applied', reason: null, payload: {} }]);
  });

  it('answers 409 with the reason when the host refuses, and records the refusal', async () => {
    const { app, host, forwarded } = await setup();
    const res = await app.inject({ method: 'POST', url: '/api/boards/final-1/resume', headers: auth() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`board 1 of ${FINAL} round 1 is ready, not paused or flagged`);
    expect(host.actions()[0]).toMatchObject({ arbiter: 'Anna (IA)', outcome: 'rejected' });
    expect(forwarded).toEqual([]);
  });

  it('validates adjust and penalty bodies, naming the field, with nothing applied (FIDE Laws 7.5.5)', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-1', 'started'));
    const cases: Array<[unknown, string, RegExp]> = [
      [{ side: 'pink', ms: 60000 }, 'side', /"side" must be one of "white", "black"/],
      [{ side: 'white' }, 'ms', /missing required field "ms"/],
      [{ side: 'white', ms: 'lots' }, 'ms', /"ms" must be integer/],
      [{ side: 'white', ms: 0 }, 'ms', /must not be 0/],
      [{ side: 'white', ms: 99 * 3600_000 }, 'ms', /"ms" must be <= 10800000/],
      [{ side: 'white', ms: 1000, sid: 'x' }, 'sid', /unknown field "sid"/],
    ];
    for (const [payload, field, message] of cases) {
      const res = await app.inject({ method: 'POST', url: '/api/boards/final-1/adjust', headers: auth(), payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
      expect(res.json().message).toMatch(message);
    }
    const pen = await app.inject({ method: 'POST', url: '/api/boards/final-1/penalty', headers: auth(), payload: { side: 'black' } });
    expect(pen.statusCode).toBe(200);
    const adj = await app.inject({ method: 'POST', url: '/api/boards/final-1/adjust', headers: auth(), payload: { side: 'white', ms: -30000 } });
    expect(adj.statusCode).toBe(200);
    expect(forwarded).toEqual([
      { type: 'penalty', boardId: 'final-1', side: 'black' },
      { type: 'adjust', boardId: 'final-1', side: 'white', ms: -30000 },
    ]);
    expect(host.actions()).toHaveLength(2);
  });

  it('configures a board from a preset, a PGN control or per-side controls, and names a bad token in the control', async () => {
    const { app, host, forwarded } = await setup();
    const bad = await app.inject({ method: 'PUT', url: '/api/boards/final-2/config', headers: auth(), payload: { timeControl: '40/5400+x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'timeControl' });
    expect(bad.json().message).toMatch(/bad increment "x"/);
    expect(host.board('final-2')!.timeControl).toBe('900+10');

    const arm = await app.inject({
      method: 'PUT',
      url: '/api/boards/final-2/config',
      headers: auth(),
      payload: { timeControl: 'armageddon', white: { name: 'A' }, black: { name: 'B' } },
    });
    expect(arm.statusCode).toBe(200);
    expect(arm.json().board).toMatchObject({ timeControl: 'W360-B300', white: { name: 'A' } });
    // PGN standard §7: a name with a control character would split the broadcast's tag line.
    const newline = await app.inject({
      method: 'PUT',
      url: '/api/boards/final-2/config',
      headers: auth(),
      payload: { timeControl: 'armageddon', white: { name: 'A\nB' }, black: { name: 'B' } },
    });
    expect(newline.statusCode).toBe(400);
    expect(newline.json().message).toMatch(/white\.name/);
    expect(host.board('final-2')!.white).toMatchObject({ name: 'A' });
    const sd = await app.inject({
      method: 'PUT',
      url: '/api/boards/final-2/config',
      headers: auth(),
      payload: { timeControl: { white: '3600', black: '3600' }, defaultTime: 900 },
    });
    expect(sd.json().board.timeControl).toBe('3600');
    const tc = (forwarded[1] as Extract<ArbiterCommand, { type: 'configure' }>).timeControl;
    expect(tc.defaultTimeMs).toBe(900_000); // Ivanovo regulations: 15 min default time (FIDE Laws 6.7.1)

    host.ingest(ev('clk-2', 'started'));
    const running = await app.inject({ method: 'PUT', url: '/api/boards/final-2/config', headers: auth(), payload: { timeControl: 'rapid' } });
    expect(running.statusCode).toBe(409);
    expect(host.board('final-2')!.timeControl).toBe('3600');
  });

  it('takes a result, then its confirmation, and lists it with who entered it', async () => {
    const { app } = await setup();
    const bad = await app.inject({ method: 'PUT', url: '/api/boards/final-1/result', headers: auth(), payload: { result: '2-0' } });
    expect(bad.json()).toMatchObject({ statusCode: 400, field: 'result' });
    const early = await app.inject({ method: 'POST', url: '/api/boards/final-1/result/confirm', headers: auth() });
    expect(early.statusCode).toBe(409);
    expect((await app.inject({ method: 'PUT', url: '/api/boards/final-1/result', headers: auth(), payload: { result: '1/2-1/2' } })).statusCode).toBe(200);
    let results = (await app.inject({ method: 'GET', url: '/api/results?round=1' })).json().results;
    expect(results[0]).toMatchObject({ board: 1, result: '1/2-1/2', confirmed: false, by: 'arbiter:Anna (IA)' });
    expect((await app.inject({ method: 'POST', url: '/api/boards/final-1/result/confirm', headers: auth(OTHER) })).statusCode).toBe(200);
    results = (await app.inject({ method: 'GET', url: '/api/results?round=1' })).json().results;
    expect(results[0]).toMatchObject({ confirmed: true, by: 'arbiter:Boris (FA)' });
  });
});

/** Collects a socket's messages from the start (the hello is sent before injectWS resolves). */
async function openFeed(app: FastifyInstance, path: string): Promise<{ ws: WebSocket; next: () => Promise<Record<string, any>> }> {
  const queue: Array<Record<string, any>> = [];
  let waiting: ((m: Record<string, any>) => void) | null = null;
  const ws = await app.injectWS(
    path,
    {},
    {
      onInit: (socket) =>
        socket.on('message', (data) => {
          const m = JSON.parse(data.toString());
          if (waiting) {
            const w = waiting;
            waiting = null;
            w(m);
          } else queue.push(m);
        }),
    },
  );
  const next = () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise<Record<string, any>>((r) => (waiting = r)));
  return { ws, next };
}

describe('HTTP API: starting clocks (FIDE Laws 6.5: the arbiter starts the clocks)', () => {
  it('starts one ready board, records the arbiter, and refuses a running one with 409 naming the board', async () => {
    const { app, host, forwarded } = await setup();
    const res = await app.inject({ method: 'POST', url: '/api/boards/final-1/start', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, arbiter: 'Anna (IA)', board: { id: 'final-1' } });
    expect(forwarded).toEqual([{ type: 'start', boardId: 'final-1' }]);
    host.ingest(ev('clk-1', 'started'));
    const again = await app.inject({ method: 'POST', url: '/api/boards/final-1/start', headers: auth(OTHER) });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`board 1 of ${FINAL} round 1 is running, not ready: only a clock that has not started can be started`);
    expect(forwarded).toHaveLength(1); // nothing sent for the refusal
    expect(host.actions().map((a) => [a.action, a.arbiter, a.outcome])).toEqual([
      ['start', 'Anna (IA)', 'applied'],
      ['start', 'Boris (FA)', 'rejected'],
    ]);
    expect((await app.inject({ method: 'POST', url: '/api/boards/final-1/start' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/boards/nope/start', headers: auth() })).statusCode).toBe(404);
  });

  it('starts a round: every ready board of it, listing the started and the skipped with why', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-2', 'started', { board: 2 })); // board 2 already running
    const url = `/api/events/${encodeURIComponent(FINAL)}/rounds/1/start`;
    const res = await app.inject({ method: 'POST', url, headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      arbiter: 'Anna (IA)',
      started: ['final-1'],
      skipped: [{ boardId: 'final-2', reason: `board 2 of ${FINAL} round 1 is running, not ready: only a clock that has not started can be started` }],
    });
    // The other event's board is untouched; the start carries the session's (round's) start, FIDE Laws 6.7.1.
    expect(forwarded).toEqual([{ type: 'start', boardId: 'final-1', sessionUtcMs: expect.any(Number) }]);
    // Every board's start is journaled with the arbiter, the refused one too (at once; the other once its clock took it).
    expect(
      host
        .actions()
        .map((a) => [a.boardId, a.arbiter, a.outcome])
        .sort(),
    ).toEqual([
      ['final-1', 'Anna (IA)', 'applied'],
      ['final-2', 'Anna (IA)', 'rejected'],
    ]);
  });

  it('refuses a round start for an unknown event (404) or a round that is not the current one (409), sending nothing', async () => {
    const { app, forwarded } = await setup();
    const unknown = await app.inject({ method: 'POST', url: '/api/events/Nope%20Open/rounds/1/start', headers: auth() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('no event "Nope Open" on this host');
    const wrong = await app.inject({ method: 'POST', url: `/api/events/${encodeURIComponent(FINAL)}/rounds/2/start`, headers: auth() });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toBe(`round 2 of event "${FINAL}" is not the current round (the current round is 1)`);
    const bad = await app.inject({ method: 'POST', url: `/api/events/${encodeURIComponent(FINAL)}/rounds/x/start`, headers: auth() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/round/);
    expect(forwarded).toEqual([]);
  });
});

describe('WebSocket feed /ws', () => {
  it('greets with the boards, then pushes every event and board change', async () => {
    const { app, host } = await setup();
    await app.ready();
    const { ws, next: nextMessage } = await openFeed(app, '/ws');
    const hello = await nextMessage();
    expect(hello).toMatchObject({ type: 'hello', serverUtcMs: 1_750_000_500_000 });
    expect(hello.boards).toHaveLength(3);

    host.ingest(ev('clk-1', 'started'));
    expect(await nextMessage()).toMatchObject({
      type: 'event',
      event: { clockId: 'clk-1', type: 'started', seq: 1 },
      board: { id: 'final-1', live: { status: 'running', turn: 'white' } },
    });

    await app.inject({ method: 'PUT', url: '/api/boards/final-1/result', headers: auth(), payload: { result: '1-0' } });
    expect(await nextMessage()).toMatchObject({ type: 'board', board: { id: 'final-1', result: '1-0' } });
    ws.terminate();
  });

  it("a batch fed in one turn that is bigger than the client's buffer bound reaches it whole: only what it left of earlier turns counts as stalled", async () => {
    const { app, host } = await setup({ wsMaxBufferedBytes: 4096 });
    await app.ready();
    const { ws, next: nextMessage } = await openFeed(app, '/ws');
    await nextMessage(); // hello
    let closed: number | null = null;
    ws.on('close', (code) => (closed = code));
    // One journal commit's worth of events, fed in one synchronous turn (corked: about 1 kB each).
    host.ingest(ev('clk-1', 'started'));
    for (let move = 1; move <= 30; move++) host.ingest(ev('clk-1', 'moved', { side: move % 2 ? 'white' : 'black', move }));
    const got = [];
    for (let i = 0; i < 31; i++) got.push(await nextMessage());
    expect(got.map((m) => m.event.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(closed).toBeNull();
    ws.terminate();
  });

  it('filters by event when asked', async () => {
    const { app, host } = await setup();
    await app.ready();
    const { ws, next: nextMessage } = await openFeed(app, `/ws?event=${encodeURIComponent(IVANOVO)}`);
    const hello = await nextMessage();
    expect(hello.boards.map((b: { id: string }) => b.id)).toEqual(['ivanovo-1']);
    host.ingest(ev('clk-1', 'started')); // other event: not sent
    host.ingest({ ...ev('clk-9', 'started'), event: IVANOVO, round: 3, board: 1 });
    expect(await nextMessage()).toMatchObject({ type: 'event', event: { clockId: 'clk-9' } });
    ws.terminate();
  });
});

describe('dashboard files', () => {
  it('serves the page and its script', async () => {
    const { app } = await setup();
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script src="app.js"');
    const js = await app.inject({ method: 'GET', url: '/app.js' });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });
});

describe("HTTP API: the arbiter's powers over the clock (FIDE Laws 6.7.1, 7.5.1, Guidelines III.4)", () => {
  const post = (app: FastifyInstance, url: string, payload?: unknown) =>
    app.inject({ method: 'POST', url, headers: auth(), ...(payload === undefined ? {} : { payload: payload as object }) });

  it('FIDE Laws 6.7.1: POST /arrive {side} marks a player present; a wrong side or an extra field is a 400 naming it', async () => {
    const { app, forwarded } = await setup();
    const ok = await post(app, '/api/boards/final-1/arrive', { side: 'black' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(forwarded).toEqual([{ type: 'arrive', boardId: 'final-1', side: 'black' }]);
    const bad = await post(app, '/api/boards/final-1/arrive', { side: 'blue' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'side' });
    expect((await post(app, '/api/boards/final-1/arrive', { side: 'white', when: 3 })).statusCode).toBe(400);
    expect((await post(app, '/api/boards/final-1/arrive', {})).statusCode).toBe(400);
    expect(forwarded).toHaveLength(1);
  });

  it('FIDE Laws 7.5.1: POST /takeback is taken while paused or flagged, refused (409) while running; a body with content is a 400', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-1', 'started'));
    const running = await post(app, '/api/boards/final-1/takeback');
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe(`board 1 of ${FINAL} round 1 is running: only a paused or flagged clock can take a move back`);
    host.ingest(ev('clk-1', 'moved', { side: 'white', move: 1 }));
    host.ingest(ev('clk-1', 'paused'));
    expect((await post(app, '/api/boards/final-1/takeback', { side: 'white' })).statusCode).toBe(400);
    const ok = await post(app, '/api/boards/final-1/takeback');
    expect(ok.statusCode, ok.body).toBe(200);
    // No body is a take-back rewinding both times (FIDE Laws 7.1's "keep" is asked for by name).
    expect(forwarded).toEqual([{ type: 'takeback', boardId: 'final-1', times: 'rewind' }]);
    expect((await post(app, '/api/boards/final-1/takeback', {})).statusCode).toBe(200);
    expect(host.actions().map((a) => [a.action, a.outcome])).toEqual([
      ['takeback', 'rejected'],
      ['takeback', 'applied'],
      ['takeback', 'applied'],
    ]);
  });

  it('FIDE Laws 6.7.1: POST /reinstate only for a forfeited game', async () => {
    const { app, host, forwarded } = await setup();
    // 15 min + 10 s (increment before the move: 910 000 at the start) with 1 min of allowed lateness.
    host.addBoard({ id: 'final-3', event: FINAL, round: 1, board: 3, clockId: 'clk-3', timeControl: '900+10', defaultTimeMs: 60_000 });
    host.ingest(ev('clk-3', 'arrived', { side: 'white' })); // mono 1 000
    host.ingest(ev('clk-3', 'started', { whiteMs: 910_000, blackMs: 910_000 })); // mono 2 000
    const early = await post(app, '/api/boards/final-3/reinstate');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not forfeited: nothing to reinstate/);
    // Black is still absent when the default time has passed: the clock forfeits Black (mono 62 000).
    host.ingest({ ...ev('clk-3', 'forfeit', { side: 'black', whiteMs: 850_000, blackMs: 910_000 }), monoMs: 62_000 });
    expect(host.board('final-3')!.live).toMatchObject({ status: 'forfeited', whiteMs: 850_000 });
    // A forfeited game has no time to change until it is reinstated.
    expect((await post(app, '/api/boards/final-3/adjust', { side: 'white', ms: 60_000 })).json().message).toMatch(/reinstate the game/);
    expect((await post(app, '/api/boards/final-3/reinstate')).statusCode).toBe(200);
    expect(forwarded).toEqual([{ type: 'reinstate', boardId: 'final-3' }]);
  });

  it('FIDE Guidelines III.4: POST /increment {ms} while stopped; negative, fractional, text or over a minute is a 400', async () => {
    const { app, host, forwarded } = await setup();
    expect((await post(app, '/api/boards/final-1/increment', { ms: 5000 })).statusCode).toBe(200);
    for (const ms of [-5000, 2.5, '5000', 60_001]) {
      const res = await post(app, '/api/boards/final-1/increment', { ms });
      expect(res.statusCode, JSON.stringify(ms)).toBe(400);
      expect(res.json()).toMatchObject({ field: 'ms' });
    }
    host.ingest(ev('clk-1', 'started'));
    const running = await post(app, '/api/boards/final-1/increment', { ms: 5000 });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toMatch(/pause the clock before setting an increment/);
    expect(forwarded).toEqual([{ type: 'increment', boardId: 'final-1', ms: 5000 }]);
  });

  it('FIDE Laws 7.1: POST /takeback {"times":"keep"} keeps both clock times; "rewind" is the default spelled out; another value or field is a 400 naming it', async () => {
    const { app, host, forwarded } = await setup();
    host.ingest(ev('clk-1', 'started'));
    host.ingest(ev('clk-1', 'moved', { side: 'white', move: 1 }));
    host.ingest(ev('clk-1', 'paused'));
    expect((await post(app, '/api/boards/final-1/takeback', { times: 'keep' })).statusCode).toBe(200);
    expect((await post(app, '/api/boards/final-1/takeback', { times: 'rewind' })).statusCode).toBe(200);
    for (const [payload, field] of [
      [{ times: 'later' }, 'times'],
      [{ times: true }, 'times'],
      [{ times: 'keep', side: 'white' }, 'side'],
    ] as const) {
      const res = await post(app, '/api/boards/final-1/takeback', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ field });
    }
    expect((await post(app, '/api/boards/final-1/takeback', { times: 'later' })).json().message).toBe(
      'body: "times" must be one of "rewind", "keep", got "later"',
    );
    expect(forwarded).toEqual([
      { type: 'takeback', boardId: 'final-1', times: 'keep' },
      { type: 'takeback', boardId: 'final-1', times: 'rewind' },
    ]);
  });

  it('FIDE Laws 6.10.2: POST /turn {side} while ready or paused (409 while running); a side that is not one is a 400', async () => {
    const { app, host, forwarded } = await setup();
    expect((await post(app, '/api/boards/final-1/turn', { side: 'black' })).statusCode).toBe(200);
    expect((await post(app, '/api/boards/final-1/turn', { side: 'red' })).json()).toMatchObject({ statusCode: 400, field: 'side' });
    expect((await post(app, '/api/boards/final-1/turn', {})).json()).toMatchObject({ statusCode: 400, field: 'side' });
    host.ingest(ev('clk-1', 'started'));
    const running = await post(app, '/api/boards/final-1/turn', { side: 'white' });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe(`board 1 of ${FINAL} round 1 is running: only a ready or paused clock can be given the side on move`);
    expect(forwarded).toEqual([{ type: 'set-turn', boardId: 'final-1', side: 'black' }]);
    expect(host.actions().map((a) => [a.action, a.outcome])).toEqual([
      ['set-turn', 'applied'],
      ['set-turn', 'rejected'],
    ]);
  });

  it('FIDE Laws 6.10.2: PUT /control reads the body as PUT /config reads a control (one reader); what it leaves out stays as the game has it; 409 while running; a bad control is a 400 naming the token', async () => {
    const { app, host, forwarded } = await setup();
    // final-1 plays 40/5400+30:900+30; the clock should have had a default time of 15 min.
    host.addBoard({ id: 'final-3', event: FINAL, round: 1, board: 3, clockId: 'clk-3', timeControl: '900+10', defaultTimeMs: 60_000 });
    const ok = await app.inject({ method: 'PUT', url: '/api/boards/final-3/control', headers: auth(), payload: { timeControl: '40/5400+30:900+30' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/boards/final-3/control',
          headers: auth(),
          payload: { preset: 'rapid', defaultTime: null, incrementTiming: 'after-move' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'PUT', url: '/api/boards/final-3/control', headers: auth(), payload: { white: '360', black: [{ seconds: 300, delay: 2 }] } }))
        .statusCode,
    ).toBe(200);
    const [classical, rapid, unequal] = forwarded.map((c) => (c.type === 'set-control' ? c.timeControl : null));
    // The default time the body left out is the game's (60 s here), and so is the timing.
    expect(classical).toMatchObject({
      defaultTimeMs: 60_000,
      incrementTiming: 'before-move',
      white: {
        stages: [
          { moves: 40, baseMs: 5_400_000 },
          { moves: null, baseMs: 900_000 },
        ],
      },
    });
    expect(rapid).toMatchObject({ defaultTimeMs: null, incrementTiming: 'after-move', white: { stages: [{ baseMs: 900_000, incrementMs: 10_000 }] } });
    expect(unequal).toMatchObject({ white: { stages: [{ baseMs: 360_000 }] }, black: { stages: [{ baseMs: 300_000, delayMs: 2000 }] } });
    for (const [payload, field, message] of [
      [{ timeControl: '40/5400+x' }, 'timeControl', 'body: "timeControl": bad increment "x" in time control "40/5400+x": expected a whole number'],
      [{ preset: 'bullet' }, 'preset', undefined],
      [{ timeControl: 'rapid', preset: 'rapid' }, 'timeControl', 'body: "timeControl": time control has both "preset" and "timeControl": give one form'],
      [{}, 'timeControl', 'body: "timeControl": time control needs "preset", "timeControl", or "white" and "black"'],
      [{ white: '360' }, 'black', 'body: "black": time control has "white" but no "black"'],
      [{ timeControl: 'rapid', defaultTime: -1 }, 'defaultTime', undefined],
      [{ timeControl: 'rapid', delay: 5 }, 'delay', undefined],
    ] as const) {
      const res = await app.inject({ method: 'PUT', url: '/api/boards/final-3/control', headers: auth(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ field, ...(message ? { message } : {}) });
    }
    host.ingest(ev('clk-3', 'started', { whiteMs: 910_000, blackMs: 910_000 }));
    const running = await app.inject({ method: 'PUT', url: '/api/boards/final-3/control', headers: auth(), payload: { preset: 'classical' } });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe(`board 3 of ${FINAL} round 1 is running: pause the clock before correcting its time control`);
    expect(forwarded).toHaveLength(3);
  });

  it("FIDE Guidelines III.4: POST /delay {ms} like /increment: while stopped, 0–60000; refused in blitz with the rule book's reason, before it reaches the clock", async () => {
    const { app, host, forwarded } = await setup();
    expect((await post(app, '/api/boards/final-1/delay', { ms: 5000 })).statusCode).toBe(200);
    for (const ms of [-1, 2.5, '5000', 60_001]) {
      const res = await post(app, '/api/boards/final-1/delay', { ms });
      expect(res.statusCode, JSON.stringify(ms)).toBe(400);
      expect(res.json()).toMatchObject({ field: 'ms' });
    }
    host.ingest(ev('clk-1', 'started'));
    const running = await post(app, '/api/boards/final-1/delay', { ms: 5000 });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toMatch(/pause the clock before setting a delay/);
    // Guidelines III.2.2: no quickplay finish in blitz (5 min + 3 s).
    host.addBoard({ id: 'final-4', event: FINAL, round: 1, board: 4, clockId: 'clk-4', timeControl: '300+3' });
    const blitz = await post(app, '/api/boards/final-4/delay', { ms: 2000 });
    expect(blitz.statusCode).toBe(409);
    expect(blitz.json().message).toBe(`board 4 of ${FINAL} round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only`);
    expect((await post(app, '/api/boards/final-4/increment', { ms: 2000 })).statusCode).toBe(409);
    expect(forwarded).toEqual([{ type: 'delay', boardId: 'final-1', ms: 5000 }]);
  });

  it('FIDE Laws 6.10.2: a move counter is corrected with the clock stopped (409 while running)', async () => {
    const { app, host } = await setup();
    host.ingest(ev('clk-1', 'started'));
    const res = await post(app, '/api/boards/final-1/moves', { side: 'white', moves: 40 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/pause the clock before correcting a move counter/);
  });

  it('every power needs an arbiter token (401), and a board that does not exist is a 404', async () => {
    const { app } = await setup();
    for (const [url, payload] of [
      ['arrive', { side: 'white' }],
      ['takeback', undefined],
      ['reinstate', undefined],
      ['increment', { ms: 5000 }],
      ['turn', { side: 'black' }],
      ['delay', { ms: 5000 }],
    ] as const) {
      expect((await app.inject({ method: 'POST', url: `/api/boards/final-1/${url}`, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
      expect((await post(app, `/api/boards/nope/${url}`, payload)).statusCode).toBe(404);
    }
    expect((await app.inject({ method: 'PUT', url: '/api/boards/final-1/control', payload: { preset: 'rapid' } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PUT', url: '/api/boards/nope/control', headers: auth(), payload: { preset: 'rapid' } })).statusCode).toBe(404);
  });
});

// docs/api.md "Errors": a value of the wrong JSON type is a 400 naming the field, never coerced
// (RFC 8259 types: null, true, an array and a string are not numbers, and an array is not a string).
describe('HTTP API: strict JSON types in bodies (no coercion)', () => {
  const cases: Array<[string, 'POST' | 'PUT', string, object, string]> = [
    ['moves:null', 'POST', '/api/boards/final-1/moves', { side: 'white', moves: null }, 'moves'],
    ['moves:true', 'POST', '/api/boards/final-1/moves', { side: 'white', moves: true }, 'moves'],
    ['moves:"12"', 'POST', '/api/boards/final-1/moves', { side: 'white', moves: '12' }, 'moves'],
    ['result:["1-0"]', 'PUT', '/api/boards/final-1/result', { result: ['1-0'] }, 'result'],
    ['result:1', 'PUT', '/api/boards/final-1/result', { result: 1 }, 'result'],
    ['ms:"60000" (adjust)', 'POST', '/api/boards/final-1/adjust', { side: 'white', ms: '60000' }, 'ms'],
    ['ms:"60000" (increment)', 'POST', '/api/boards/final-1/increment', { ms: '60000' }, 'ms'],
    ['ms:"5000" (delay)', 'POST', '/api/boards/final-1/delay', { ms: '5000' }, 'ms'],
    ['side:["black"] (turn)', 'POST', '/api/boards/final-1/turn', { side: ['black'] }, 'side'],
    ['defaultTime:"900" (control)', 'PUT', '/api/boards/final-1/control', { preset: 'rapid', defaultTime: '900' }, 'defaultTime'],
    ['timeControl:5400 (control)', 'PUT', '/api/boards/final-1/control', { timeControl: 5400 }, 'timeControl'],
    ['side:["white"]', 'POST', '/api/boards/final-1/penalty', { side: ['white'] }, 'side'],
    ['white.name:["x"]', 'PUT', '/api/boards/final-1/config', { timeControl: '40/5400+30:900+30', white: { name: ['Tratar, Marko'] } }, 'white.name'],
    ['timeControl:5400', 'PUT', '/api/boards/final-1/config', { timeControl: 5400 }, 'timeControl'],
    ['defaultTime:"0"', 'PUT', '/api/boards/final-1/config', { timeControl: '40/5400+30:900+30', defaultTime: '0' }, 'defaultTime'],
    ['reason:["why"]', 'PUT', '/api/boards/final-1/result', { result: '1-0', reason: ['why'] }, 'reason'],
    ['confirm result:["1-0"]', 'POST', '/api/boards/final-1/result/confirm', { result: ['1-0'] }, 'result'],
    ['confirm report:"3"', 'POST', '/api/boards/final-1/result/confirm', { report: '3' }, 'report'],
  ];
  for (const [name, method, url, payload, field] of cases) {
    it(`${name} → 400 naming "${field}", nothing passed on`, async () => {
      const { app, host, forwarded } = await setup();
      const before = host.board('final-1');
      const res = await app.inject({ method, url, headers: auth(), payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, field });
      expect(res.json().message).toContain(field.split('.').pop());
      expect(forwarded).toEqual([]);
      expect(host.board('final-1')).toEqual(before);
    });
  }

  it('a body that is not an object (an array, a number) is a 400', async () => {
    const { app, forwarded } = await setup();
    for (const payload of [['white', 40], 40]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/boards/final-1/moves',
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(forwarded).toEqual([]);
  });

  it('the right types still pass (the check refuses only what is wrong)', async () => {
    const { app, forwarded } = await setup();
    expect((await app.inject({ method: 'POST', url: '/api/boards/final-1/moves', headers: auth(), payload: { side: 'white', moves: 12 } })).statusCode).toBe(
      200,
    );
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/boards/final-2/config',
          headers: auth(),
          payload: { timeControl: { white: '40/5400+30:900+30', black: '40/5400+30:900+30' }, white: { name: 'Tratar, Marko' } },
        })
      ).statusCode,
    ).not.toBe(400);
    expect(forwarded[0]).toEqual({ type: 'set-moves', boardId: 'final-1', side: 'white', moves: 12 });
  });

  it('query strings and path parameters are text and are read as numbers, but a non-number is a 400 naming the field', async () => {
    const { app } = await setup();
    expect((await app.inject({ method: 'GET', url: '/api/boards?round=1' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/boards?round=one' })).json()).toMatchObject({ statusCode: 400, field: 'round' });
    expect((await app.inject({ method: 'GET', url: '/broadcast/round/x/games.pgn' })).json()).toMatchObject({ statusCode: 400, field: 'r' });
    expect((await app.inject({ method: 'POST', url: '/api/events/E/rounds/first/start', headers: auth() })).json()).toMatchObject({
      statusCode: 400,
      field: 'round',
    });
  });
});

describe('HTTP API: GET /api/journal/events (docs/api.md)', () => {
  it('checks its query like every read (a 400 naming the parameter), and answers from the journal', async () => {
    const { app } = await setup();
    expect((await app.inject({ method: 'GET', url: '/api/journal/events?after=-1' })).json()).toMatchObject({ statusCode: 400, field: 'after' });
    expect((await app.inject({ method: 'GET', url: '/api/journal/events?after=ten' })).json()).toMatchObject({ statusCode: 400, field: 'after' });
    expect((await app.inject({ method: 'GET', url: '/api/journal/events?limit=1001' })).json()).toMatchObject({ statusCode: 400, field: 'limit' });
    expect((await app.inject({ method: 'GET', url: '/api/journal/events?clockId=x' })).json()).toMatchObject({ statusCode: 400, field: 'clockId' });
    const res = await app.inject({ method: 'GET', url: '/api/journal/events?after=0' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ events: [], next: null, head: 0 });
  });
});

// The live feed's and the API's limits against a client that takes more than its share (docs/api.md
// "Security"): clients per address, the Origin of a browser page (RFC 6455 §10.2), clients that
// stop answering pings (RFC 6455 §5.5.2), the allowed hosts on loopback too (DNS rebinding, RFC
// 9110 §7.2), and 405 with Allow for a path that exists under other methods (RFC 9110 §15.5.6).
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { WebSocket, type ClientOptions } from 'ws';
import { buildApi, type ApiDeps } from './api.ts';
import { allowedHostsFor } from './listen-option.ts';
import { routePattern } from './server.ts';
import { Journal } from '../../store/journal.ts';
import { JournalPorts } from '../../app/journal-ports.ts';

const TOKEN = 'tok-anna-0123456789abcdef';
const WRONG = 'tok-guess-0000000000000000';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function api(extra: Partial<ApiDeps> = {}): Promise<{ app: FastifyInstance; log: string[]; url: string }> {
  const journal = new Journal(':memory:');
  cleanups.push(() => journal.close());
  const ports = new JournalPorts({ journal, nowUtcMs: () => Date.UTC(2026, 11, 3, 14, 0) });
  const log: string[] = [];
  const app = await buildApi({
    state: ports,
    commands: ports,
    tokens: [{ arbiter: 'Anna (IA)', token: TOKEN }],
    dashboard: false,
    log: (l) => log.push(l),
    ...extra,
  });
  cleanups.push(() => app.close());
  const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
  return { app, log, url };
}

/** Opens the feed; resolves with the socket once its hello has come, or with the refusal's status and message. */
function openFeed(url: string, options: ClientOptions = {}): Promise<{ ws: WebSocket } | { status: number; message: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}/ws`, options);
    cleanups.push(() => ws.terminate());
    ws.once('message', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: JSON.parse(body).message }));
    });
    ws.once('error', (err) => (err.message.startsWith('Unexpected server response') ? undefined : reject(err)));
  });
}

describe('the live feed', () => {
  it('caps the clients of one address; another address has its own share', async () => {
    const { url, log } = await api({ wsMaxClientsPerAddress: 2 });
    expect(await openFeed(url)).toHaveProperty('ws');
    expect(await openFeed(url)).toHaveProperty('ws');
    expect(await openFeed(url)).toEqual({ status: 503, message: '2 live-feed clients from 127.0.0.1 already: try again later' });
    expect(await openFeed(url, { localAddress: '127.0.0.2' })).toHaveProperty('ws');
    expect(log).toEqual(['http: live-feed client from 127.0.0.1 refused: 2 live-feed clients from 127.0.0.1 already (--ws-max-clients, --ws-max-per-address)']);
  });

  it('a place held by a client that leaves is given back', async () => {
    const { url } = await api({ wsMaxClientsPerAddress: 1 });
    const first = await openFeed(url);
    if (!('ws' in first)) throw new Error('the first client was refused');
    expect(await openFeed(url)).toMatchObject({ status: 503 });
    await new Promise<void>((resolve) => {
      first.ws.once('close', () => resolve());
      first.ws.close();
    });
    // The server sees the close after the client: retry until it has (each refusal is an answer, not a wait).
    let again = await openFeed(url);
    while (!('ws' in again)) again = await openFeed(url);
    expect(again).toHaveProperty('ws');
  });

  it("opens to this host's own pages and to clients that are not browsers, never to another site's page", async () => {
    const { url, log } = await api();
    const own = `http://${new URL(url).host}`;
    expect(await openFeed(url, { origin: own })).toHaveProperty('ws');
    expect(await openFeed(url)).toHaveProperty('ws'); // no Origin: a relay, a script
    expect(await openFeed(url, { origin: 'https://attacker.example' })).toEqual({
      status: 403,
      message: `the live feed is open to this host's own pages only, not to "https://attacker.example"`,
    });
    expect(await openFeed(url, { origin: 'http://127.0.0.1:1' })).toMatchObject({ status: 403 }); // another port is another origin
    expect(log.filter((l) => l.includes('is not this host'))).toHaveLength(2);
  });

  it('drops a client that stops answering pings, and keeps one that answers', async () => {
    const { url, log } = await api({ wsPingIntervalMs: 100 });
    const answering = await openFeed(url);
    const silent = await openFeed(url, { autoPong: false });
    if (!('ws' in answering) || !('ws' in silent)) throw new Error('a client was refused');
    const pinged = new Promise<void>((resolve) => silent.ws.once('ping', () => resolve()));
    const dropped = new Promise<number>((resolve) => silent.ws.once('close', (code) => resolve(code)));
    await pinged;
    expect(await dropped).toBe(1006); // terminated: no closing handshake with a client that does not answer
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
    expect(log).toContain('http: live-feed client from 127.0.0.1 dropped: no answer to a ping in 100 ms');
  });
});

describe('allowed hosts on loopback (DNS rebinding)', () => {
  it('a loopback bind answers localhost, 127.0.0.1, [::1] and the configured names only', () => {
    const machine = { hostname: 'hallpc', addresses: ['127.0.0.1', '192.168.1.10'] };
    expect(allowedHostsFor('127.0.0.1', [], machine)).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(allowedHostsFor('::1', ['hall.lan'], machine)).toEqual(['hall.lan', '[::1]', 'localhost', '127.0.0.1']);
  });

  it("a rebound page's wrong tokens are refused before they count: the arbiter on the same address still signs in", async () => {
    const { app } = await api({
      allowedHosts: allowedHostsFor('127.0.0.1', [], { hostname: 'hallpc', addresses: [] }),
      signInLimit: { max: 3, windowMs: 60_000 },
    });
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/arbiter',
        headers: { host: 'rebound.attacker.example:8080', authorization: `Bearer ${WRONG}` },
      });
      expect(res.statusCode).toBe(403);
    }
    const arbiter = await app.inject({ method: 'GET', url: '/api/arbiter', headers: { host: '127.0.0.1:8080', authorization: `Bearer ${TOKEN}` } });
    expect(arbiter.statusCode).toBe(200);
  });
});

describe('a method a path does not have', () => {
  it('is 405 with the methods it has (Allow); a path that does not exist stays 404', async () => {
    const { app } = await api();
    const wrong = await app.inject({ method: 'GET', url: '/api/boards/final-1/pause' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json()).toMatchObject({ statusCode: 405, message: 'GET is not allowed on /api/boards/final-1/pause: POST' });
    const del = await app.inject({ method: 'DELETE', url: '/api/boards?event=x' });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    expect((await app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it("a route's pattern matches its paths: parameters are one segment, a wildcard the rest", () => {
    expect(routePattern('/api/boards/:id/pause').test('/api/boards/final-1/pause')).toBe(true);
    expect(routePattern('/api/boards/:id/pause').test('/api/boards/a/b/pause')).toBe(false);
    expect(routePattern('/api/x/:n(^\\d+)').test('/api/x/12')).toBe(true);
    expect(routePattern('/files/*').test('/files/a/b.png')).toBe(true);
    expect(routePattern('/a.b').test('/aXb')).toBe(false);
  });
});

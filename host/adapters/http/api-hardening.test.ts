// The API's defences (docs/api.md "Security"): security headers and the dashboard's CSP
// (@fastify/helmet), failed sign-ins limited and logged per address (@fastify/rate-limit), the
// Host check beyond loopback (DNS rebinding, RFC 9110 §7.2), the cap on live-feed clients
// (RFC 6455 §4.1: a non-101 answer fails the handshake) and HTTPS with certificate files.
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpsRequest } from 'node:https';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { buildApi, DASHBOARD_CSP, hostName, type ApiDeps } from './api.ts';
import { allowedHostsFor } from './listen-option.ts';
import { JournalBoards } from '../../app/journal-boards.fixture.ts';
import { testCertificate } from '../../../test/test-certificate.ts';

const TOKEN = 'tok-anna-0123456789abcdef';
const WRONG = 'tok-guess-0000000000000000';
const apps: FastifyInstance[] = [];
const hosts: JournalBoards[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const h of hosts.splice(0)) h.close();
});

async function api(extra: Partial<ApiDeps> = {}): Promise<{ app: FastifyInstance; log: string[]; host: JournalBoards }> {
  const host = new JournalBoards();
  hosts.push(host);
  host.addBoard({ id: 'final-1', event: 'Final', round: 1, board: 1, clockId: 'clk-1' });
  const log: string[] = [];
  const app = await buildApi({
    state: host,
    commands: host,
    tokens: [{ arbiter: 'Anna (IA)', token: TOKEN }],
    captainPage: async () => 'export {};',
    log: (l) => log.push(l),
    ...extra,
  });
  apps.push(app);
  return { app, log, host };
}

describe('security headers (@fastify/helmet)', () => {
  it('the dashboard comes with a CSP allowing only its own scripts, styles and feed, no framing, nosniff', async () => {
    const { app } = await api();
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    for (const [directive, values] of Object.entries(DASHBOARD_CSP)) expect(csp).toContain(`${directive} ${values.join(' ')}`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests'); // a plain-HTTP hall LAN must keep working
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // HSTS only over HTTPS
    // Every page the dashboard is made of still loads (its scripts are same-origin files).
    for (const url of ['/app.js', '/style.css', '/public', '/captain.js']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });

  it('API answers carry the headers too', async () => {
    const { app } = await api();
    const res = await app.inject({ method: 'GET', url: '/api/boards' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
  });
});

describe('failed sign-ins (@fastify/rate-limit)', () => {
  it('a wrong token is logged with the source address (never the token); after 10 in the window the address gets 429, even with a right token', async () => {
    const { app, log } = await api({ signInLimit: { max: 10, windowMs: 60_000 } });
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/arbiter', headers: { authorization: `Bearer ${WRONG}` } });
      expect(res.statusCode).toBe(401);
    }
    expect(log.filter((l) => l.startsWith('http: sign-in refused from 127.0.0.1: unknown arbiter token (GET /api/arbiter'))).toHaveLength(10);
    const blocked = await app.inject({ method: 'GET', url: '/api/arbiter', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(/too many failed sign-ins/);
    const write = await app.inject({ method: 'POST', url: '/api/boards/final-1/pause', headers: { authorization: `Bearer ${WRONG}` } });
    expect(write.statusCode).toBe(429);
    expect(log.filter((l) => l.startsWith('http: sign-ins from 127.0.0.1 refused for'))).toHaveLength(1); // one line per block, not per try
    expect(log.join('\n')).not.toContain(WRONG);
    expect(log.join('\n')).not.toContain(TOKEN);
  });

  it('right tokens and requests without a token do not count', async () => {
    const { app, log } = await api({ signInLimit: { max: 3, windowMs: 60_000 } });
    for (let i = 0; i < 20; i++) {
      expect((await app.inject({ method: 'GET', url: '/api/arbiter', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/api/boards/final-1/pause' })).statusCode).toBe(401);
    }
    expect(log).toEqual([]);
  });
});

describe('allowed hosts beyond loopback', () => {
  it("answers the hall's names and refuses any other Host with 403, logged", async () => {
    const { app, log } = await api({ allowedHosts: ['hall.lan', '192.168.1.10', 'localhost'] });
    expect((await app.inject({ method: 'GET', url: '/api/boards', headers: { host: 'hall.lan:8080' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/boards', headers: { host: '192.168.1.10' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/', headers: { host: 'HALL.LAN' } })).statusCode).toBe(200);
    const rebound = await app.inject({ method: 'GET', url: '/api/boards', headers: { host: 'attacker.example:8080' } });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json().message).toMatch(/--allowed-host/);
    expect(log.some((l) => l.includes('refused Host "attacker.example:8080"'))).toBe(true);
  });

  it("the default list: a loopback bind allows the loopback names; a LAN bind allows its address, the machine's names and the configured ones", () => {
    const machine = { hostname: 'hallpc', addresses: ['127.0.0.1', '192.168.1.10', 'fe80::1'] };
    expect(allowedHostsFor('127.0.0.1', [], machine)).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(allowedHostsFor('192.168.1.10', [], machine)).toEqual(['192.168.1.10', 'hallpc', 'localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('0.0.0.0', ['Hall.LAN'], machine)).toEqual(['hall.lan', '127.0.0.1', '192.168.1.10', '[fe80::1]', 'hallpc', 'localhost', '[::1]']);
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName('Hall.Lan:80')).toBe('hall.lan');
    expect(hostName('a b')).toBeNull();
  });
});

describe('live-feed cap', () => {
  it('refuses the client beyond --ws-max-clients with 503 and a reason, and takes one again when a place is free', async () => {
    const { app, log } = await api({ wsMaxClients: 2 });
    const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
    const open = (): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${url}/ws`);
        ws.once('message', () => resolve(ws)); // the hello
        ws.once('error', reject);
      });
    const a = await open();
    const b = await open();
    const third = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(`${url}/ws`);
      ws.on('error', () => undefined);
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    expect(third.status).toBe(503);
    expect(JSON.parse(third.body).message).toMatch(/the live feed is full \(2 clients\)/);
    expect(log.some((l) => l.includes('live-feed client from 127.0.0.1 refused'))).toBe(true);
    const closed = new Promise((r) => a.once('close', r));
    a.close();
    await closed;
    // The server sees the close a moment after the client: retry until it is taken.
    let c: WebSocket | null = null;
    for (let i = 0; i < 50 && c === null; i++) c = await open().catch(() => null);
    expect(c).not.toBeNull();
    b.terminate();
    c!.terminate();
  });
});

describe('HTTPS with certificate files', () => {
  it('serves the API over TLS with the given certificate, with HSTS', async () => {
    const cert = await testCertificate();
    const { app } = await api({ https: cert });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    expect(url.startsWith('https://')).toBe(true);
    const res = await new Promise<{ status: number; hsts: unknown; body: string }>((resolve, reject) => {
      const req = httpsRequest(`${url}/api/boards`, { ca: cert.cert }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, hsts: r.headers['strict-transport-security'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).boards).toHaveLength(1);
    expect(res.hsts).toMatch(/max-age=\d+/);
    // A client that does not trust the certificate is refused by TLS itself.
    await expect(
      new Promise((resolve, reject) => {
        const req = httpsRequest(`${url}/api/boards`, {}, resolve);
        req.on('error', reject);
        req.end();
      }),
    ).rejects.toThrow(/self.signed|certificate/i);
  });
});

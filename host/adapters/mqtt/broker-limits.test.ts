// The embedded broker's limits (docs/mqtt.md "Limits"), against Aedes over real TCP on
// loopback with raw sockets and MQTT.js clients. MQTT 3.1.1 §2.2.3 (the remaining length),
// §3.1 (CONNECT), §3.2.2.3 (CONNACK return codes), §4.8 (closing on a protocol violation).
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import fc from 'fast-check';
import mqtt from 'mqtt';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-target.ts';
import { BurstLog, PacketSizeGate, PacketRefusedError, SignInLimiter, brokerLimits, type BrokerLimits } from './broker-limits.ts';
import { generatedPassword } from './broker-access.ts';
import { fixedHeader as header } from './mqtt-bytes.fixture.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const READER = { username: 'relay', password: 'relay-password-0123', access: 'read' as const };
const HOST = { username: 'host', password: generatedPassword(), access: 'publish' as const };
const HOST_ID = 'chessclock-host-limits';

async function broker(limits: Partial<BrokerLimits>): Promise<{ broker: EmbeddedBroker; port: number; refused: string[] }> {
  const refused: string[] = [];
  const b = await startEmbeddedBroker('127.0.0.1', 0, {
    access: { accounts: [HOST, READER], reservedClientIds: [HOST_ID], onRefused: (w) => refused.push(w) },
    limits,
  });
  cleanups.push(() => b.close());
  return { broker: b, port: (b.server.address() as { port: number }).port, refused };
}

/** A raw TCP connection to the broker, closed after the test. */
async function raw(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  const s = connect({ host: '127.0.0.1', port, localAddress });
  s.on('error', () => undefined);
  cleanups.push(() => void s.destroy());
  await once(s, 'connect');
  return s;
}

/** Resolves when `s` closes, however (events.once would reject on the reset that comes first). */
const closed = (s: Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

/** A UTF-8 string as MQTT writes it: two length bytes, then the bytes (§1.5.3). */
const mqttString = (text: string) => {
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
};

/** A CONNECT (§3.1) with a username and password, as bytes. */
function connectPacket(clientId: string, username: string, password: string): Buffer {
  const body = Buffer.concat([mqttString('MQTT'), Buffer.from([4, 0b1100_0010, 0, 30]), mqttString(clientId), mqttString(username), mqttString(password)]);
  return Buffer.concat([header(0x10, body.length), body]);
}

let clientNo = 0;

/** Signs in over a raw connection from `localAddress`; the CONNACK's return code (§3.2.2.3), or -1 when closed without one. */
async function connectCode(port: number, who: { username: string; password: string; clientId?: string }, localAddress = '127.0.0.1'): Promise<number> {
  const s = await raw(port, localAddress);
  const answer = new Promise<number>((resolve) => {
    let got = Buffer.alloc(0);
    s.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      if (got.length >= 4 && got[0] === 0x20) resolve(got[3]);
    });
    s.once('close', () => resolve(-1));
  });
  s.write(connectPacket(who.clientId ?? `limits-${++clientNo}`, who.username, who.password));
  return answer;
}

/** Resolves when `predicate` holds, checked at every event-loop turn, or rejects naming `what`. */
async function until(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs `chunks` through a gate; the bytes that came out, and the error if it refused. */
async function throughGate(limit: number, chunks: readonly Buffer[]): Promise<{ out: Buffer; error: Error | null }> {
  const gate = new PacketSizeGate(limit);
  const out: Buffer[] = [];
  gate.on('data', (c: Buffer) => out.push(c));
  let error: Error | null = null;
  const ended = new Promise<void>((resolve) => {
    gate.once('end', resolve);
    gate.once('error', (e) => {
      error = e;
      resolve();
    });
  });
  for (const c of chunks) gate.write(c);
  gate.end();
  await ended;
  return { out: Buffer.concat(out), error };
}

/** A packet as the gate sees it: a fixed header of any type and flags, and a body of its length. */
const somePacket = fc
  .record({ type: fc.integer({ min: 0, max: 255 }), body: fc.uint8Array({ maxLength: 20_000 }) })
  .map(({ type, body }) => Buffer.concat([header(type, body.length), body]));

describe('the packet-size gate (§2.2.3: a fixed header says how long its packet is)', () => {
  it('passes any run of packets through unchanged, however the bytes are split, when each fits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(somePacket, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 20 }),
        async (packets, cuts) => {
          const bytes = Buffer.concat(packets);
          const chunks: Buffer[] = [];
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const size = cuts[i % cuts.length];
            chunks.push(bytes.subarray(at, at + size));
            at += size;
          }
          const limit = Math.max(...packets.map((p) => p.length));
          const { out, error } = await throughGate(limit, chunks);
          expect(error).toBeNull();
          expect(out.equals(bytes)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses at the header, before the body: one byte over the limit, and a CONNECT claiming 200 MB', async () => {
    const fits = Buffer.concat([header(0x30, 200), Buffer.alloc(200)]); // a PUBLISH of 200 bytes after its header
    expect((await throughGate(fits.length, [fits])).error).toBeNull();
    const over = await throughGate(fits.length - 1, [fits]);
    expect(over.error).toBeInstanceOf(PacketRefusedError);
    expect(over.out.length).toBe(0);
    // The header alone, byte by byte: refused on the length byte that takes it over.
    const big = header(0x10, 200_000_000);
    const refused = await throughGate(
      64 * 1024,
      [...big].map((b) => Buffer.from([b])),
    );
    // Refused on the third length byte: 1 + 3 + (the first three bytes' worth) already exceeds the limit.
    const third = (big[1] & 0x7f) + (big[2] & 0x7f) * 128 + (big[3] & 0x7f) * 128 ** 2;
    expect(refused.error?.message).toBe(`packet refused: its header claims at least ${1 + 3 + third} bytes, and the broker takes at most 65536`);
    expect(refused.out.length).toBeLessThan(big.length); // the header's first bytes only, never a byte of the body
  });

  it('refuses a remaining length of more than four bytes (malformed, §2.2.3)', async () => {
    const { error } = await throughGate(2 ** 30, [Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x01])]);
    expect(error?.message).toMatch(/malformed remaining length/);
  });

  it('the limits are checked: a limit that is not a whole number ≥ 1 is named', () => {
    expect(() => brokerLimits({ maxConnections: 0 })).toThrow('broker limit maxConnections: expected a whole number ≥ 1, got 0');
    expect(() => brokerLimits({ maxPacketBytes: 1.5 })).toThrow(/maxPacketBytes/);
    expect(brokerLimits().maxPacketBytes).toBe(65_536);
  });
});

describe('the embedded broker behind its limits', () => {
  it('closes a connection whose CONNECT claims more than the limit, before reading its body', async () => {
    const { port, refused } = await broker({ maxPacketBytes: 1024 });
    const s = await raw(port);
    const gone = closed(s);
    s.write(header(0x10, 10_000_000));
    s.write(Buffer.alloc(64 * 1024)); // the start of the claimed body
    await gone;
    expect(refused).toEqual([
      expect.stringMatching(/^connection closed from 127\.0\.0\.1: packet refused: its header claims at least \d+ bytes, and the broker takes at most 1024$/),
    ]);
    // A reader's publish over the limit after sign-in is refused the same way.
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, username: READER.username, password: READER.password });
    cleanups.push(() => client.endAsync(true));
    client.on('error', () => undefined); // the broker closes on it: a reset
    await new Promise((resolve) => client.once('connect', resolve));
    const dropped = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish('chessclock/v1/x', Buffer.alloc(2000));
    await dropped;
  });

  it('caps connections per address and in all, before reading a byte; another address has its own share', async () => {
    const { broker: b, port, refused } = await broker({ maxConnectionsPerAddress: 2, maxConnections: 3 });
    const kept = [await raw(port), await raw(port)];
    const third = await raw(port);
    await closed(third);
    expect(kept.every((s) => !s.destroyed)).toBe(true);
    expect(refused).toEqual(['connection refused from 127.0.0.1: 2 connections from one address are open']);
    // Another loopback address has its own share, up to the broker's total of 3.
    expect(await connectCode(port, READER, '127.0.0.2')).toBe(0);
    expect(await connectCode(port, READER, '127.0.0.3')).toBe(-1);
    expect(refused).toContain("connection refused from 127.0.0.3: the broker's 3 connections are open");
    // A closed connection gives its place back.
    kept[0].destroy();
    const open = () => new Promise<number>((resolve) => b.server.getConnections((_e, n) => resolve(n)));
    let n = 3;
    await until('the broker to see the closed connection', () => {
      void open().then((c) => (n = c));
      return n === 2;
    });
    expect(await connectCode(port, READER, '127.0.0.3')).toBe(0);
  });

  it('drops a client that has not finished its CONNECT in time', async () => {
    const { port } = await broker({ connectTimeoutMs: 300 });
    const s = await raw(port);
    const from = performance.now();
    s.write(header(0x10, 40).subarray(0, 1)); // half a header, then nothing
    await closed(s);
    expect(performance.now() - from).toBeGreaterThanOrEqual(250);
  });

  it('limits failed sign-ins per address and tells them once per burst; the host signs in throughout', async () => {
    const { port, refused } = await broker({ signInFailures: 3, signInWindowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect(await connectCode(port, { ...READER, password: `wrong-password-${i}` })).toBe(4);
    // Used up: even the right password is refused unchecked (CONNACK 5, not authorized).
    expect(await connectCode(port, READER)).toBe(5);
    for (let i = 0; i < 20; i++) expect(await connectCode(port, { ...READER, password: `wrong-password-${i}` })).toBe(5);
    // The host's own account on its reserved client id is still checked, and signs in.
    expect(await connectCode(port, { ...HOST, clientId: HOST_ID })).toBe(0);
    // Another address is not held back by this one.
    expect(await connectCode(port, READER, '127.0.0.2')).toBe(0);
    // 24 refusals from 127.0.0.1, one line: the first; the rest are told when the burst ends.
    expect(refused).toEqual([expect.stringMatching(/^sign-in refused: bad username or password for "relay" \(client "limits-\d+"\) from 127\.0\.0\.1$/)]);
    expect(refused.join('\n')).not.toContain('wrong-password');
  });
});

describe('the sign-in limiter and the burst log', () => {
  it('an address is refused after its failures in the window, stays refused while it keeps trying, and is forgotten after a quiet window', () => {
    let now = 0;
    const limiter = new SignInLimiter({ signInFailures: 3, signInWindowMs: 1000 }, () => now);
    for (const t of [0, 100, 200]) {
      now = t;
      expect(limiter.blocked('a')).toBe(false);
      limiter.failure('a');
    }
    now = 300;
    expect(limiter.blocked('a')).toBe(true);
    expect(limiter.blocked('b')).toBe(false);
    // Failures spread wider than the window do not add up.
    const spread = new SignInLimiter({ signInFailures: 3, signInWindowMs: 1000 }, () => now);
    for (const t of [0, 900, 1800]) {
      now = t;
      spread.failure('a');
    }
    now = 1900;
    expect(spread.blocked('a')).toBe(false);
    // Trying on while refused (each refusal counts) keeps the address refused; a quiet window frees it.
    for (const t of [300, 400, 500]) {
      now = t;
      limiter.failure('a');
    }
    now = 1250;
    expect(limiter.blocked('a')).toBe(true);
    now = 1500;
    expect(limiter.blocked('a')).toBe(false);
  });

  it('tells the first refusal of a burst at once and the rest in one line when it has been quiet', async () => {
    const told: string[] = [];
    const log = new BurstLog((w) => told.push(w), 50);
    for (let i = 0; i < 300; i++) log.refused('sign-in:10.0.0.9', `sign-in refused: try ${i}`);
    log.refused('sign-in:10.0.0.8', 'sign-in refused: other');
    expect(told).toEqual(['sign-in refused: try 0', 'sign-in refused: other']);
    await until('the burst to end', () => told.length === 3);
    expect(told[2]).toBe('299 more refused (sign-in:10.0.0.9) in the burst that began with: sign-in refused: try 0');
  });
});

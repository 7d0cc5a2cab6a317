// Access control on the embedded broker (docs/mqtt.md "Access control"), against Aedes over
// real TCP/TLS on 127.0.0.1 with MQTT.js clients: MQTT 3.1.1 §3.1.3.4-5 (username, password),
// §3.2.2.3 (CONNACK return codes), §3.9.3 (SUBACK 0x80 failure).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { startHostMqtt, type HostMqtt } from './host-mqtt.ts';
import type { MqttPublisher } from './publisher.ts';
import { Journal, type JournalOutboxStore } from '../../store/journal.ts';
import { parseMqttReaders, redactUrl } from './broker-access.ts';
import { resultTopic } from './topics.ts';
import { testCertificate } from '../../../test/test-certificate.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const READER = { username: 'relay', password: 'relay-password-0123', access: 'read' as const };
const BOARD = { event: 'Slovenian Final 2025/26', round: 1, board: 1 };
const TRUE_RESULT = JSON.stringify({ v: 1, ...BOARD, gameNo: 1, result: '1-0', confirmed: true, confirmedBy: 'Chief Arbiter' });
const FORGED = JSON.stringify({ v: 1, ...BOARD, gameNo: 1, result: '0-1', confirmed: true, confirmedBy: 'Chief Arbiter' });

async function host(
  extra: Partial<Parameters<typeof startHostMqtt>[0]> = {},
): Promise<{ mqtt: HostMqtt<MqttPublisher>; outbox: JournalOutboxStore; refused: string[]; brokerUrl: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mqtt-access-'));
  const journal = new Journal(join(dir, 'journal.db'));
  const outbox = journal.outboxStore(() => Date.now());
  const refused: string[] = [];
  const m = (await startHostMqtt({
    target: 'embedded:0',
    outbox,
    clientId: 'chessclock-host-test',
    readers: [READER],
    onRefused: (w) => refused.push(w),
    reconnectPeriodMs: 100,
    ...extra,
  }))!;
  cleanups.push(async () => {
    await m.close();
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const address = m.broker!.server.address() as { port: number };
  return { mqtt: m, outbox, refused, brokerUrl: `${m.broker!.url.split(':')[0]}://127.0.0.1:${address.port}` };
}

/** Connects and resolves with the CONNACK's return code (0 = accepted). */
async function connectCode(url: string, opts: IClientOptions): Promise<{ code: number; client: MqttClient }> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  cleanups.push(() => client.endAsync(true));
  return new Promise((resolve) => {
    client.once('connect', (ack) => resolve({ code: ack.returnCode ?? 0, client }));
    client.once('error', (err) => resolve({ code: (err as Error & { code?: number }).code ?? -1, client }));
  });
}

async function retainedOf(url: string, topic: string, opts: IClientOptions): Promise<string[]> {
  const { code, client } = await connectCode(url, opts);
  expect(code).toBe(0);
  const got: string[] = [];
  client.on('message', (_t, p, packet) => {
    if (packet.retain) got.push(p.toString());
  });
  await client.subscribeAsync(topic, { qos: 1 });
  // A retained message is sent with the SUBACK's subscription (§3.3.1.3); wait until it is here.
  const until = performance.now() + 5_000;
  while (got.length === 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
  return got;
}

describe('embedded broker: who may sign in', () => {
  it('refuses an anonymous client (CONNACK 5, not authorized) unless anonymous read is asked for', async () => {
    const { brokerUrl, refused } = await host();
    expect((await connectCode(brokerUrl, { clientId: 'anon-1' })).code).toBe(5);
    expect(refused.some((r) => r.includes('anonymous client "anon-1"'))).toBe(true);
  });

  it('refuses a wrong password (CONNACK 4) and never logs it', async () => {
    const { brokerUrl, refused } = await host();
    expect((await connectCode(brokerUrl, { clientId: 'r-1', username: 'relay', password: 'wrong-password-000' })).code).toBe(4);
    expect((await connectCode(brokerUrl, { clientId: 'r-2', username: 'nobody', password: READER.password })).code).toBe(4);
    expect((await connectCode(brokerUrl, { clientId: 'r-3', username: 'relay', password: READER.password })).code).toBe(0);
    expect(refused.join('\n')).not.toContain('wrong-password-000');
    expect(refused.join('\n')).not.toContain(READER.password);
  });

  it("a reader may not take the host's client id (CONNACK 2): it would take over the host's session (§3.1.4)", async () => {
    const { brokerUrl, mqtt: m } = await host();
    expect((await connectCode(brokerUrl, { clientId: 'chessclock-host-test', username: READER.username, password: READER.password })).code).toBe(2);
    expect(m.publisher.client.connected).toBe(true);
  });
});

describe('embedded broker: only the host publishes', () => {
  it("a reader's forged retained result is refused (connection dropped) and never reaches a subscriber, live or late", async () => {
    const { brokerUrl, outbox, mqtt: m, refused } = await host();
    const topic = resultTopic({ ...BOARD, gameNo: 1 } as Parameters<typeof resultTopic>[0]);
    // The host's true result, retained, through its outbox like every message it sends.
    outbox.append([{ topic, payload: TRUE_RESULT, retain: true }]);
    m.publisher.publishPending();
    await m.publisher.idle();

    // A live subscriber (a reader) on the board's topics.
    const live = await connectCode(brokerUrl, { clientId: 'live', username: READER.username, password: READER.password });
    const seen: string[] = [];
    live.client.on('message', (t, p) => seen.push(`${t} ${p.toString()}`));
    await live.client.subscribeAsync('chessclock/v1/#', { qos: 1 });

    // The forger signs in as a reader and publishes a retained "0-1, confirmedBy Chief Arbiter".
    const forger = await connectCode(brokerUrl, { clientId: 'forger', username: READER.username, password: READER.password });
    expect(forger.code).toBe(0);
    const closed = new Promise<void>((r) => forger.client.once('close', () => r()));
    forger.client.publish(topic, FORGED, { qos: 1, retain: true });
    await closed; // MQTT 3.1.1 has no negative PUBACK: the broker drops the connection
    expect(refused.some((r) => r.startsWith(`publish refused: "${topic}" from client "forger"`))).toBe(true);

    // The host's next message arrives after anything the forger's would have (one broker, one order).
    outbox.append([{ topic: 'chessclock/v1/marker', payload: 'after', retain: false }]);
    m.publisher.publishPending();
    const until = performance.now() + 5_000;
    while (!seen.some((s) => s.endsWith(' after')) && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(seen.some((s) => s.endsWith(' after'))).toBe(true);
    expect(seen.filter((s) => s.includes('"0-1"'))).toEqual([]);

    // A late subscriber gets the host's retained result, not the forgery.
    expect(await retainedOf(brokerUrl, topic, { clientId: 'late', username: READER.username, password: READER.password })).toEqual([TRUE_RESULT]);
  });

  it('anonymous read, when asked for, reads but may not publish, nor under the project topics nor elsewhere', async () => {
    const { brokerUrl, outbox, mqtt: m, refused } = await host({ anonymousRead: true });
    const topic = resultTopic({ ...BOARD, gameNo: 1 } as Parameters<typeof resultTopic>[0]);
    outbox.append([{ topic, payload: TRUE_RESULT, retain: true }]);
    m.publisher.publishPending();
    await m.publisher.idle();
    for (const forgedTopic of [topic, 'elsewhere/topic']) {
      const anon = await connectCode(brokerUrl, { clientId: `anon-${forgedTopic.length}` });
      expect(anon.code).toBe(0);
      const closed = new Promise<void>((r) => anon.client.once('close', () => r()));
      anon.client.publish(forgedTopic, FORGED, { qos: 1, retain: true });
      await closed;
    }
    expect(refused.filter((r) => r.startsWith('publish refused'))).toHaveLength(2);
    expect(await retainedOf(brokerUrl, topic, { clientId: 'anon-reader' })).toEqual([TRUE_RESULT]);
  });

  it("a will is a publish: a reader's will on a project topic is refused when it fires", async () => {
    const { brokerUrl, refused, outbox, mqtt: m } = await host();
    const topic = resultTopic({ ...BOARD, gameNo: 1 } as Parameters<typeof resultTopic>[0]);
    const live = await connectCode(brokerUrl, { clientId: 'live-2', username: READER.username, password: READER.password });
    const seen: string[] = [];
    live.client.on('message', (_t, p) => seen.push(p.toString()));
    await live.client.subscribeAsync('chessclock/v1/#', { qos: 1 });
    const { code, client } = await connectCode(brokerUrl, {
      clientId: 'will',
      username: READER.username,
      password: READER.password,
      will: { topic, payload: Buffer.from(FORGED), qos: 1, retain: true },
    });
    expect(code).toBe(0);
    client.stream.destroy(); // an ungraceful end fires the will (§3.1.2.5)
    const until = performance.now() + 5_000;
    while (!refused.some((r) => r.includes('from client "will"')) && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(refused.some((r) => r.startsWith(`publish refused: "${topic}" from client "will"`))).toBe(true);
    outbox.append([{ topic: 'chessclock/v1/marker', payload: 'after', retain: false }]);
    m.publisher.publishPending();
    const until2 = performance.now() + 5_000;
    while (!seen.includes('after') && performance.now() < until2) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['after']);
  });
});

describe('embedded broker over TLS (mqtts)', () => {
  it('serves mqtts with the given certificate: a reader trusting it reads, one that does not is refused the handshake', async () => {
    const cert = await testCertificate();
    const { brokerUrl, outbox, mqtt: m } = await host({ tls: cert });
    expect(brokerUrl.startsWith('mqtts://')).toBe(true);
    expect(m.url.startsWith('mqtts://')).toBe(true);
    const topic = resultTopic({ ...BOARD, gameNo: 1 } as Parameters<typeof resultTopic>[0]);
    outbox.append([{ topic, payload: TRUE_RESULT, retain: true }]);
    m.publisher.publishPending();
    await m.publisher.idle();
    expect(await retainedOf(brokerUrl, topic, { clientId: 'tls-reader', username: READER.username, password: READER.password, ca: cert.cert })).toEqual([
      TRUE_RESULT,
    ]);
    const untrusted = await connectCode(brokerUrl, { clientId: 'tls-untrusted', username: READER.username, password: READER.password });
    expect(untrusted.code).not.toBe(0); // self-signed certificate: TLS refuses (RFC 8446 §4.4.2.4)
  });
});

describe('secrets in files and logs', () => {
  it('a readers file names the bad entry and never echoes a password', () => {
    expect(parseMqttReaders('[{"username":"relay","password":"relay-password-0123"}]', 'readers.json')).toEqual([READER]);
    expect(() => parseMqttReaders('[{"username":"relay","password":"short"}]', 'readers.json')).toThrow(
      /readers\.json: entry 1 \(relay\): the password must be at least 12 characters/,
    );
    expect(() => parseMqttReaders('[{"username":"relay"}]', 'readers.json')).toThrow(/entry 1 must be/);
    expect(() => parseMqttReaders('{', 'readers.json')).toThrow(/readers\.json: not JSON/);
    for (const text of ['[{"username":"relay","password":"short"}]', 'relay:a-secret-password', '[{"username":"relay","password":"a-secret-password"']) {
      try {
        parseMqttReaders(text, 'r');
        expect.unreachable(text);
      } catch (err) {
        expect((err as Error).message).not.toMatch(/short|secret/);
      }
    }
  });

  it('a broker URL in a log line has its password replaced', () => {
    expect(redactUrl('mqtt://host:s3cret-pass@broker.lan:1883')).toBe('mqtt://host:***@broker.lan:1883');
    expect(redactUrl('mqtts://broker.lan:8883')).toBe('mqtts://broker.lan:8883');
    expect(redactUrl('mqtt://u:p%40ss@10.0.0.2')).toBe('mqtt://u:***@10.0.0.2');
  });
});

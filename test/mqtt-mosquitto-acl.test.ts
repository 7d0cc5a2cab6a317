// The shipped Mosquitto configuration (docs/mosquitto/chessclock.conf, chessclock.acl and a
// password file made with mosquitto_passwd, Debian package `mosquitto`) against a real broker:
// anonymous clients are refused (MQTT 3.1.1 §3.2.2.3 code 5), the host publishes with its
// account, a reader's PUBLISH is dropped so a forged retained result never reaches a subscriber,
// live or late, and the same over TLS with a certificate the test makes.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { startHostMqtt, type HostMqtt } from '../host/adapters/mqtt/host-mqtt.ts';
import { Journal, type JournalOutboxStore } from '../host/store/journal.ts';
import { resultTopic } from '../host/adapters/mqtt/topics.ts';
import { Mosquitto, freePort, SKIP_MOSQUITTO, SKIP_MOSQUITTO_MESSAGE } from './mosquitto.ts';
import { testCertificate } from './test-certificate.ts';

const PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find((p) => spawnSync(p, ['-h']).error === undefined);
const SKIP = SKIP_MOSQUITTO;
if (SKIP) console.warn(SKIP_MOSQUITTO_MESSAGE);

const SHIPPED = fileURLToPath(new URL('../docs/mosquitto/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mqtt-acl-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

const HOST = { username: 'chessclock-host', password: 'host-password-0123456' };
const READER = { username: 'relay', password: 'relay-password-0123' };
const BOARD = { event: 'Slovenian Final 2025/26', round: 1, board: 1, gameNo: 1 };
const TOPIC = resultTopic(BOARD as Parameters<typeof resultTopic>[0]);
const TRUE_RESULT = JSON.stringify({ v: 1, ...BOARD, result: '1-0', confirmed: true, confirmedBy: 'Chief Arbiter' });
const FORGED = JSON.stringify({ v: 1, ...BOARD, result: '0-1', confirmed: true, confirmedBy: 'Chief Arbiter' });

/** The shipped config with this test's paths and listener (docs/mqtt.md tells the same edits). */
function shippedAccess(): string[] {
  if (PASSWD === undefined) throw new Error('mosquitto_passwd not found: install the Debian package `mosquitto`');
  const passwd = join(work, 'chessclock.passwd');
  // The recipe of docs/mqtt.md: one account for the host, one per reader.
  expect(spawnSync(PASSWD, ['-b', '-c', passwd, HOST.username, HOST.password]).status).toBe(0);
  expect(spawnSync(PASSWD, ['-b', passwd, READER.username, READER.password]).status).toBe(0);
  const acl = join(work, 'chessclock.acl');
  writeFileSync(acl, readFileSync(join(SHIPPED, 'chessclock.acl')));
  return readFileSync(join(SHIPPED, 'chessclock.conf'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#') && !/^(listener|certfile|keyfile)\b/.test(l))
    .map((l) => l.replace('/etc/mosquitto/chessclock.passwd', passwd).replace('/etc/mosquitto/chessclock.acl', acl));
}

function connect(url: string, opts: IClientOptions): Promise<{ code: number; client: MqttClient }> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  cleanups.push(() => client.endAsync(true));
  return new Promise((resolve) => {
    client.once('connect', (ack) => resolve({ code: ack.returnCode ?? 0, client }));
    client.once('error', (err) => resolve({ code: (err as Error & { code?: number }).code ?? -1, client }));
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const end = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function hostPublisher(url: string, extra: { ca?: string } = {}): Promise<{ mqtt: HostMqtt; outbox: JournalOutboxStore }> {
  const journal = new Journal(join(work, `journal-${Math.random().toString(36).slice(2)}.db`));
  const outbox = journal.outboxStore(() => Date.now());
  const m = (await startHostMqtt({
    target: { kind: 'external', url },
    outbox,
    clientId: `chessclock-host-acl-${Math.random().toString(36).slice(2)}`,
    ...HOST,
    ...extra,
    reconnectPeriodMs: 100,
    onError: () => undefined,
  }))!;
  cleanups.push(async () => {
    await m.close();
    journal.close();
  });
  return { mqtt: m, outbox };
}

async function publishAsHost(h: { mqtt: HostMqtt; outbox: JournalOutboxStore }, topic: string, payload: string, retain: boolean): Promise<void> {
  h.outbox.append([{ topic, payload, retain }]);
  h.mqtt.publisher.publishPending();
  await h.mqtt.publisher.idle();
}

describe.skipIf(SKIP)('the shipped Mosquitto password file and ACL (docs/mosquitto/)', () => {
  it("refuses anonymous clients and wrong passwords; the host publishes; a reader's forged retained result reaches nobody", { timeout: 60_000 }, async () => {
    const broker = new Mosquitto(await freePort(), work, { access: shippedAccess() });
    cleanups.push(() => broker.kill());
    await broker.start();
    const url = `mqtt://127.0.0.1:${broker.port}`;

    expect((await connect(url, { clientId: 'anon' })).code).toBe(5);
    expect((await connect(url, { clientId: 'bad', username: READER.username, password: 'not-the-password' })).code).toBe(5); // Mosquitto answers 5 for both

    const host = await hostPublisher(url);
    await publishAsHost(host, TOPIC, TRUE_RESULT, true);

    const live = await connect(url, { clientId: 'live', ...READER });
    expect(live.code).toBe(0);
    const seen: string[] = [];
    live.client.on('message', (_t, p) => seen.push(p.toString()));
    await live.client.subscribeAsync('chessclock/v1/#', { qos: 1 });
    await until(() => seen.includes(TRUE_RESULT), 'the retained result at the live subscriber');

    // The forger has a reader account; Mosquitto acknowledges and drops its publish (ACL).
    const forger = await connect(url, { clientId: 'forger', ...READER });
    expect(forger.code).toBe(0);
    await forger.client.publishAsync(TOPIC, FORGED, { qos: 1, retain: true });
    // Anything the forger's publish caused would be delivered before the host's next message.
    await publishAsHost(host, 'chessclock/v1/marker', 'after', false);
    await until(() => seen.includes('after'), "the host's marker");
    expect(seen.filter((s) => s === FORGED)).toEqual([]);

    const late = await connect(url, { clientId: 'late', ...READER });
    const retained: string[] = [];
    late.client.on('message', (_t, p, packet) => packet.retain && retained.push(p.toString()));
    await late.client.subscribeAsync(TOPIC, { qos: 1 });
    await until(() => retained.length > 0, 'the retained result at the late subscriber');
    expect(retained).toEqual([TRUE_RESULT]);
    // The broker's own log names the refusal (mosquitto -v).
    expect(broker.output()).toMatch(/Denied PUBLISH from forger/);
  });

  it("over TLS (the shipped 8883 listener's certfile/keyfile, a certificate the test makes): the host and readers trusting it connect, others are refused", {
    timeout: 60_000,
  }, async () => {
    const cert = await testCertificate();
    writeFileSync(join(work, 'hall.crt'), cert.cert);
    writeFileSync(join(work, 'hall.key'), cert.key);
    const broker = new Mosquitto(await freePort(), work, {
      access: shippedAccess(),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the broker wrapper's placeholder for the port it picks
      listener: ['listener ${port} 127.0.0.1', `certfile ${join(work, 'hall.crt')}`, `keyfile ${join(work, 'hall.key')}`],
    });
    cleanups.push(() => broker.kill());
    await broker.start();
    const url = `mqtts://127.0.0.1:${broker.port}`;
    const host = await hostPublisher(url, { ca: cert.cert });
    await publishAsHost(host, TOPIC, TRUE_RESULT, true);
    expect(host.mqtt.url).toBe(url);
    const reader = await connect(url, { clientId: 'tls-reader', ...READER, ca: cert.cert });
    expect(reader.code).toBe(0);
    const got: string[] = [];
    reader.client.on('message', (_t, p) => got.push(p.toString()));
    await reader.client.subscribeAsync(TOPIC, { qos: 1 });
    await until(() => got.length > 0, 'the retained result over TLS');
    expect(got).toEqual([TRUE_RESULT]);
    expect((await connect(url, { clientId: 'tls-untrusting', ...READER })).code).not.toBe(0);
  });
});

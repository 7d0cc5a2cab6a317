// Secrets never on the command line (docs/host.md "Secrets"): arbiter tokens from --tokens FILE
// or CHESSCLOCK_TOKENS, MQTT passwords from a file or CHESSCLOCK_MQTT_PASSWORD; a bad file is one
// line naming the option and the path, never echoing a secret.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readSecurityOptions, securityWarnings, SECURITY_OPTIONS } from './security-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'security-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const values = (args: string[]) => parseArgs({ args, options: { token: { type: 'string', multiple: true }, ...SECURITY_OPTIONS }, strict: true }).values;

describe('arbiter tokens without the command line', () => {
  it('--tokens FILE reads the JSON list docs/api.md describes', () => {
    const f = file(
      'tokens.json',
      JSON.stringify([
        { arbiter: 'Ana Srebrnič', token: 'a-long-arbiter-token-1' },
        { arbiter: 'Boris', token: 'another-long-token-22' },
      ]),
    );
    expect(readSecurityOptions(values(['--tokens', f]), {}).tokens).toEqual([
      { arbiter: 'Ana Srebrnič', token: 'a-long-arbiter-token-1' },
      { arbiter: 'Boris', token: 'another-long-token-22' },
    ]);
  });

  it('CHESSCLOCK_TOKENS holds the same JSON; --token, the file and the variable add up', () => {
    const f = file('t2.json', JSON.stringify([{ arbiter: 'B', token: 'bbbbbbbbbbbbbbbbbbbb' }]));
    const env = { CHESSCLOCK_TOKENS: JSON.stringify([{ arbiter: 'C', token: 'cccccccccccccccccccc' }]) };
    expect(readSecurityOptions(values(['--token', 'A:aaaaaaaaaaaaaaaaaaaa', '--tokens', f]), env).tokens.map((t) => t.arbiter)).toEqual(['A', 'B', 'C']);
  });

  it('team captains\' tokens come from the same file and variable, apart from the arbiters\' (docs/api.md "Captains")', () => {
    const captain = { captain: 'Иванов Пётр', event: 'ivanovo-2018', team: 1, token: 'captain-token-school-one-1' };
    const f = file('roles.json', JSON.stringify([{ arbiter: 'A', token: 'aaaaaaaaaaaaaaaaaaaa' }, captain]));
    const env = { CHESSCLOCK_TOKENS: JSON.stringify([{ ...captain, captain: 'Сидорова Анна', team: 2, token: 'captain-token-school-two-2' }]) };
    const s = readSecurityOptions(values(['--tokens', f]), env);
    expect(s.tokens.map((t) => t.arbiter)).toEqual(['A']);
    expect(s.captains.map((c) => [c.captain, c.event, c.team])).toEqual([
      ['Иванов Пётр', 'ivanovo-2018', 1],
      ['Сидорова Анна', 'ivanovo-2018', 2],
    ]);
    const bad = file('bad-captain.json', JSON.stringify([{ captain: 'X', event: 'ivanovo-2018', team: 'one', token: 'captain-token-school-one-1' }]));
    expect(() => readSecurityOptions(values(['--tokens', bad]), {})).toThrow(
      `--tokens ${bad}: entry 1 (X): "team" must be the team's id in the tournament file`,
    );
  });

  it('a missing or bad tokens file is one line naming the option and the path (and never a token)', () => {
    expect(() => readSecurityOptions(values(['--tokens', join(dir, 'nope.json')]), {})).toThrow(
      `--tokens ${join(dir, 'nope.json')}: cannot read: no such file`,
    );
    const bad = file('bad.json', '[{ "arbiter": "A", "token": 42 }]');
    expect(() => readSecurityOptions(values(['--tokens', bad]), {})).toThrow(`--tokens ${bad}: entry 1 must be { "arbiter": string, "token": string }`);
    expect(() => readSecurityOptions(values([]), { CHESSCLOCK_TOKENS: 'A:secret-secret-secret' })).toThrow(/environment variable CHESSCLOCK_TOKENS: not JSON/);
    try {
      readSecurityOptions(values([]), { CHESSCLOCK_TOKENS: 'A:secret-secret-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('secret');
    }
  });
});

describe('MQTT and TLS options', () => {
  it('the external broker password comes from a file or CHESSCLOCK_MQTT_PASSWORD, and needs --mqtt-user', () => {
    const pw = file('mqtt-pass', 'file-password-123\n');
    expect(readSecurityOptions(values(['--mqtt-user', 'hall-host', '--mqtt-password-file', pw]), {}).mqtt).toEqual({
      username: 'hall-host',
      password: 'file-password-123',
    });
    expect(readSecurityOptions(values(['--mqtt-user', 'hall-host']), { CHESSCLOCK_MQTT_PASSWORD: 'env-password-456' }).mqtt).toEqual({
      username: 'hall-host',
      password: 'env-password-456',
    });
    expect(() => readSecurityOptions(values([]), { CHESSCLOCK_MQTT_PASSWORD: 'env-password-456' })).toThrow(/without --mqtt-user NAME/);
  });

  it('readers file, anonymous read, certificate pairs and the WebSocket cap are read and checked', () => {
    const readers = file('readers.json', JSON.stringify([{ username: 'relay', password: 'relay-password-0123' }]));
    const cert = file('c.pem', 'CERT');
    const key = file('k.pem', 'KEY');
    const s = readSecurityOptions(
      values([
        '--mqtt-readers',
        readers,
        '--mqtt-anonymous-read',
        '--https-cert',
        cert,
        '--https-key',
        key,
        '--allowed-host',
        'hall.lan',
        '--ws-max-clients',
        '50',
      ]),
      {},
    );
    expect(s.mqtt.readers).toEqual([{ username: 'relay', password: 'relay-password-0123', access: 'read' }]);
    expect(s.mqtt.anonymousRead).toBe(true);
    expect(s.http.https!.cert.toString()).toBe('CERT');
    expect(s.http).toMatchObject({ allowedHosts: ['hall.lan'], wsMaxClients: 50 });
    expect(() => readSecurityOptions(values(['--https-cert', cert]), {})).toThrow('--https-cert and --https-key go together');
    expect(() => readSecurityOptions(values(['--mqtt-tls-key', key]), {})).toThrow('--mqtt-tls-cert and --mqtt-tls-key go together');
    expect(() => readSecurityOptions(values(['--ws-max-clients', '0']), {})).toThrow(/--ws-max-clients 0: expected a whole number ≥ 1/);
    expect(() => readSecurityOptions(values(['--allowed-host', 'http://hall.lan/']), {})).toThrow(/--allowed-host/);
    // docs/mqtt.md "Limits": the embedded broker's caps from the command line, each checked.
    expect(readSecurityOptions(values(['--mqtt-max-packet', '4096', '--mqtt-max-connections', '80', '--mqtt-max-per-address', '8']), {}).mqtt.limits).toEqual({
      maxPacketBytes: 4096,
      maxConnections: 80,
      maxConnectionsPerAddress: 8,
    });
    expect(readSecurityOptions(values([]), {}).mqtt.limits).toBeUndefined();
    expect(() => readSecurityOptions(values(['--mqtt-max-packet', '1']), {})).toThrow(/--mqtt-max-packet 1: expected a whole number ≥ 2/);
    expect(() => readSecurityOptions(values(['--mqtt-max-per-address', '3.5']), {})).toThrow(/--mqtt-max-per-address 3\.5: expected a whole number/);
    expect(() => readSecurityOptions(values(['--mqtt-readers', join(dir, 'none.json')]), {})).toThrow(
      /--mqtt-readers .*none\.json: cannot read the MQTT readers file: ENOENT/,
    );
  });
});

describe('warnings at start', () => {
  it('names a secret that would cross the LAN in clear, and nothing on loopback or with TLS', () => {
    const none = { kind: 'none' };
    expect(securityWarnings({ http: { host: '127.0.0.1' }, https: false, mqtt: { kind: 'embedded', host: '127.0.0.1' }, mqttTls: false })).toEqual([]);
    expect(securityWarnings({ http: { host: '0.0.0.0' }, https: true, mqtt: { kind: 'embedded', host: '0.0.0.0' }, mqttTls: true })).toEqual([]);
    expect(securityWarnings({ http: { host: '0.0.0.0' }, https: false, mqtt: none, mqttTls: false })[0]).toMatch(
      /API listens on 0\.0\.0\.0 over plain HTTP: arbiter tokens cross the LAN/,
    );
    expect(securityWarnings({ http: null, https: false, mqtt: { kind: 'embedded', host: '192.168.1.10' }, mqttTls: false })[0]).toMatch(
      /MQTT broker listens on 192\.168\.1\.10 without TLS/,
    );
    expect(securityWarnings({ http: null, https: false, mqtt: { kind: 'external', url: 'mqtt://broker.lan:1883' }, mqttTls: false })[0]).toMatch(
      /signs in to broker\.lan without TLS/,
    );
    expect(securityWarnings({ http: null, https: false, mqtt: { kind: 'external', url: 'mqtts://broker.lan:8883' }, mqttTls: false })).toEqual([]);
  });
});

// The options `chessclock host` and `chessclock hall` share for who may read and write:
// arbiter tokens, MQTT accounts and TLS, HTTPS, allowed hosts, the WebSocket cap. No secret
// is ever needed on the command line (`ps` shows it to every user of the machine): tokens and
// passwords come from files or environment variables (docs/host.md "Secrets").
import { readFileSync } from 'node:fs';
import { parseTokenOption, type ArbiterToken } from '../host/adapters/http/arbiter-tokens.ts';
import { parseTokenEntries, type CaptainToken } from '../host/adapters/http/captain-tokens.ts';
import { loadMqttReaders, type MqttAccount } from '../host/adapters/mqtt/broker-access.ts';
import type { BrokerLimits } from '../host/adapters/mqtt/broker-limits.ts';

/** parseArgs option specs; spread into each command's options. */
export const SECURITY_OPTIONS = {
  tokens: { type: 'string' },
  'mqtt-readers': { type: 'string' },
  'mqtt-anonymous-read': { type: 'boolean' },
  'mqtt-user': { type: 'string' },
  'mqtt-password-file': { type: 'string' },
  'mqtt-ca': { type: 'string' },
  'mqtt-tls-cert': { type: 'string' },
  'mqtt-tls-key': { type: 'string' },
  'https-cert': { type: 'string' },
  'https-key': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'ws-max-clients': { type: 'string' },
  'ws-max-per-address': { type: 'string' },
  'mqtt-max-packet': { type: 'string' },
  'mqtt-max-connections': { type: 'string' },
  'mqtt-max-per-address': { type: 'string' },
} as const;

export const TOKENS_ENV = 'CHESSCLOCK_TOKENS';
export const MQTT_PASSWORD_ENV = 'CHESSCLOCK_MQTT_PASSWORD';

export const SECURITY_HELP = `secrets and access (docs/host.md "Secrets", docs/mqtt.md "Access control"):
  --tokens FILE          arbiter tokens: [{ "arbiter": "NAME", "token": "SECRET" }] (JSON), and
                         team captains' { "captain": "NAME", "event": "ID", "team": N, "token": "SECRET" };
                         or the same JSON in the environment variable ${TOKENS_ENV}
  --mqtt-readers FILE    embedded broker: read-only accounts [{ "username", "password" }]
  --mqtt-anonymous-read  embedded broker: clients without an account may subscribe
                         (default: every client signs in; only the host publishes)
  --mqtt-tls-cert FILE   embedded broker: listen with TLS (mqtts://), PEM certificate...
  --mqtt-tls-key FILE    ...and its PEM key
  --mqtt-user NAME       external broker: the host's account; its password from the
                         environment variable ${MQTT_PASSWORD_ENV} or --mqtt-password-file
  --mqtt-password-file FILE   external broker: the password (first line of FILE)
  --mqtt-ca FILE         external mqtts:// broker: trust this PEM CA certificate
  --https-cert FILE      serve the API and dashboard over HTTPS, PEM certificate...
  --https-key FILE       ...and its PEM key
  --allowed-host NAME    a Host header the API answers when bound beyond loopback
                         (repeatable; default: the --http address and localhost)
  --ws-max-clients N     live-feed WebSocket clients at most (default 200)
  --ws-max-per-address N live-feed WebSocket clients from one address at most (default 20)
  --mqtt-max-packet BYTES     embedded broker: the longest packet a client may send (default 65536);
                         a longer one closes its connection before its body is read
  --mqtt-max-connections N    embedded broker: connections at once (default 500)
  --mqtt-max-per-address N    embedded broker: connections at once from one address (default 50)`;

export interface SecurityValues {
  readonly token?: string | readonly string[];
  readonly tokens?: string;
  readonly 'mqtt-readers'?: string;
  readonly 'mqtt-anonymous-read'?: boolean;
  readonly 'mqtt-user'?: string;
  readonly 'mqtt-password-file'?: string;
  readonly 'mqtt-ca'?: string;
  readonly 'mqtt-tls-cert'?: string;
  readonly 'mqtt-tls-key'?: string;
  readonly 'https-cert'?: string;
  readonly 'https-key'?: string;
  readonly 'allowed-host'?: readonly string[];
  readonly 'ws-max-clients'?: string;
  readonly 'ws-max-per-address'?: string;
  readonly 'mqtt-max-packet'?: string;
  readonly 'mqtt-max-connections'?: string;
  readonly 'mqtt-max-per-address'?: string;
}

export interface SecuritySettings {
  /** From --token, --tokens FILE and the environment, in that order. */
  readonly tokens: ArbiterToken[];
  /** Team captains' tokens from the same file and variable (docs/api.md "Captains"). */
  readonly captains: CaptainToken[];
  /** Spread into startHost's `mqtt` options. */
  readonly mqtt: {
    readers?: MqttAccount[];
    anonymousRead?: boolean;
    tls?: { cert: Buffer; key: Buffer };
    username?: string;
    password?: string;
    ca?: Buffer;
    /** The embedded broker's limits (docs/mqtt.md "Limits"). */
    limits?: Partial<BrokerLimits>;
  };
  /** Spread into startHost's `http` options. */
  readonly http: {
    https?: { cert: Buffer; key: Buffer };
    allowedHosts?: string[];
    wsMaxClients?: number;
    wsMaxClientsPerAddress?: number;
  };
}

/** Reads a file an option names; the error is one line naming the option and the path. */
export function readOptionFile(option: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`${option} ${path}: cannot read: ${e.code === 'ENOENT' ? 'no such file' : (e.code ?? e.message)}`);
  }
}

function pair(values: SecurityValues, cert: 'mqtt-tls-cert' | 'https-cert', key: 'mqtt-tls-key' | 'https-key'): { cert: Buffer; key: Buffer } | undefined {
  const c = values[cert];
  const k = values[key];
  if (c === undefined && k === undefined) return undefined;
  if (c === undefined || k === undefined) throw new Error(`--${cert} and --${key} go together`);
  return { cert: readOptionFile(`--${cert}`, c), key: readOptionFile(`--${key}`, k) };
}

/** Resolves the options (files read here); throws one line naming the option on a mistake. */
export function readSecurityOptions(values: SecurityValues, env: NodeJS.ProcessEnv = process.env): SecuritySettings {
  const tokens: ArbiterToken[] = [];
  const tokenArgs = values.token === undefined ? [] : typeof values.token === 'string' ? [values.token] : values.token;
  tokenArgs.forEach((t, i) => tokens.push(parseTokenOption(t, tokenArgs.length > 1 ? `--token #${i + 1}` : '--token')));
  const captains: CaptainToken[] = [];
  const add = (entries: { arbiters: ArbiterToken[]; captains: CaptainToken[] }) => {
    tokens.push(...entries.arbiters);
    captains.push(...entries.captains);
  };
  if (values.tokens !== undefined) add(parseTokenEntries(readOptionFile('--tokens', values.tokens).toString('utf8'), `--tokens ${values.tokens}`));
  const fromEnv = env[TOKENS_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') add(parseTokenEntries(fromEnv, `environment variable ${TOKENS_ENV}`));

  const mqtt: SecuritySettings['mqtt'] = {};
  if (values['mqtt-readers'] !== undefined) {
    try {
      mqtt.readers = loadMqttReaders(values['mqtt-readers']);
    } catch (err) {
      throw new Error(`--mqtt-readers ${(err as Error).message}`);
    }
  }
  if (values['mqtt-anonymous-read']) mqtt.anonymousRead = true;
  const tls = pair(values, 'mqtt-tls-cert', 'mqtt-tls-key');
  if (tls) mqtt.tls = tls;
  if (values['mqtt-user'] !== undefined) mqtt.username = values['mqtt-user'];
  if (values['mqtt-password-file'] !== undefined) {
    mqtt.password = readOptionFile('--mqtt-password-file', values['mqtt-password-file']).toString('utf8').split(/\r?\n/)[0];
  } else if (env[MQTT_PASSWORD_ENV] !== undefined) mqtt.password = env[MQTT_PASSWORD_ENV];
  if (mqtt.password !== undefined && mqtt.username === undefined)
    throw new Error(
      `a MQTT password was given (${values['mqtt-password-file'] !== undefined ? '--mqtt-password-file' : MQTT_PASSWORD_ENV}) without --mqtt-user NAME`,
    );
  if (values['mqtt-ca'] !== undefined) mqtt.ca = readOptionFile('--mqtt-ca', values['mqtt-ca']);

  const http: SecuritySettings['http'] = {};
  const https = pair(values, 'https-cert', 'https-key');
  if (https) http.https = https;
  if (values['allowed-host'] !== undefined) {
    for (const h of values['allowed-host'])
      if (!/^[A-Za-z0-9.:[\]-]+$/.test(h)) throw new Error(`--allowed-host ${JSON.stringify(h)}: expected a host name or address (no scheme, no path)`);
    http.allowedHosts = [...values['allowed-host']];
  }
  if (values['ws-max-clients'] !== undefined) http.wsMaxClients = wholeNumber('--ws-max-clients', values['ws-max-clients']);
  if (values['ws-max-per-address'] !== undefined) http.wsMaxClientsPerAddress = wholeNumber('--ws-max-per-address', values['ws-max-per-address']);
  const limits: { -readonly [K in keyof BrokerLimits]?: BrokerLimits[K] } = {};
  if (values['mqtt-max-packet'] !== undefined) limits.maxPacketBytes = wholeNumber('--mqtt-max-packet', values['mqtt-max-packet'], 2);
  if (values['mqtt-max-connections'] !== undefined) limits.maxConnections = wholeNumber('--mqtt-max-connections', values['mqtt-max-connections']);
  if (values['mqtt-max-per-address'] !== undefined) limits.maxConnectionsPerAddress = wholeNumber('--mqtt-max-per-address', values['mqtt-max-per-address']);
  if (Object.keys(limits).length > 0) mqtt.limits = limits;
  return { tokens, captains, mqtt, http };
}

/**
 * What the operator should hear at start: a secret that will cross the hall LAN in clear
 * (tokens over plain HTTP, MQTT passwords without TLS) when listening beyond loopback.
 */
export function securityWarnings(opts: {
  readonly http: { readonly host: string } | null;
  readonly https: boolean;
  readonly mqtt: { readonly kind: string; readonly host?: string; readonly url?: string };
  readonly mqttTls: boolean;
}): string[] {
  const loopback = (h: string): boolean => h === 'localhost' || h === '::1' || /^127\./.test(h);
  const out: string[] = [];
  if (opts.http && !loopback(opts.http.host) && !opts.https) {
    out.push(
      `warning: the API listens on ${opts.http.host} over plain HTTP: arbiter tokens cross the LAN readable (--https-cert/--https-key, docs/api.md "Security")`,
    );
  }
  if (opts.mqtt.kind === 'embedded' && opts.mqtt.host !== undefined && !loopback(opts.mqtt.host) && !opts.mqttTls) {
    out.push(
      `warning: the MQTT broker listens on ${opts.mqtt.host} without TLS: readers' passwords cross the LAN readable (--mqtt-tls-cert/--mqtt-tls-key, docs/mqtt.md)`,
    );
  }
  if (opts.mqtt.kind === 'external' && opts.mqtt.url !== undefined && /^(mqtt|ws|tcp):/.test(opts.mqtt.url)) {
    const host = new URL(opts.mqtt.url).hostname;
    if (!loopback(host)) out.push(`warning: the host signs in to ${host} without TLS (use mqtts:// or wss://, docs/mqtt.md)`);
  }
  return out;
}

/** An option's value as a whole number ≥ 1, or an error naming the option. */
function wholeNumber(option: string, value: string, least = 1): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < least) throw new Error(`${option} ${value}: expected a whole number ≥ ${least}`);
  return n;
}

// Who may do what on the embedded broker (docs/mqtt.md "Access control").
//
// Every client signs in (MQTT 3.1.1 §3.1.3.4-5, username and password in CONNECT). The host
// itself has the only account that may publish, and only under the project's topics
// (`chessclock/v1/...`): a result or a board state on MQTT is believed by relays and
// displays, so no one else may write one, retained or not. Reader accounts may subscribe
// and never publish (nor leave a will: a will is a publish). Anonymous clients are refused
// unless `anonymousRead` is set, and then they read only.
//
// Passwords are compared in constant time (both sides hashed to 32 bytes, as the arbiter
// tokens are), and the host's client id is reserved to the host account: MQTT gives a new
// connection with the same client id the old one's session (§3.1.4), so a reader taking it
// would cut the host off.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import { addressOf, type BurstLog, type SignInLimiter } from './broker-limits.ts';

/** The topics the host publishes under (topics.ts). */
export const TOPIC_ROOT = 'chessclock/v1/';

export type MqttAccess = 'publish' | 'read';

export interface MqttAccount {
  readonly username: string;
  readonly password: string;
  readonly access: MqttAccess;
}

/** Reader passwords shorter than this are refused at start-up (as arbiter tokens are). */
export const MIN_MQTT_PASSWORD_LENGTH = 12;

export interface BrokerAccessOptions {
  /** The host's own account (publish) and the readers'. */
  readonly accounts: readonly MqttAccount[];
  /** Clients without a username may subscribe (never publish). Default false. */
  readonly anonymousRead?: boolean;
  /** Client ids only a publishing account may use (the host's own). */
  readonly reservedClientIds?: readonly string[];
  /** Told of every refusal: sign-in, publish or subscribe (never with the password). */
  readonly onRefused?: (what: string) => void;
  /**
   * Failed sign-ins limited per address, and told through `log` once per burst instead of
   * one line each (broker-limits.ts). Absent: every failure is checked and told.
   */
  readonly signIns?: { readonly limiter: SignInLimiter; readonly log: BurstLog };
}

const digest = (s: string | Buffer): Buffer => createHash('sha256').update(s).digest();

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

const ACCESS = new WeakMap<Client, MqttAccess>();

/** A random password for the host's own account on its embedded broker (never printed). */
export function generatedPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** Installs the sign-in and the publish/subscribe checks on an Aedes broker. */
export function installBrokerAccess(aedes: Aedes, opts: BrokerAccessOptions): void {
  const accounts = opts.accounts.map((a) => ({ username: a.username, hash: digest(a.password), access: a.access }));
  const reserved = new Set(opts.reservedClientIds ?? []);
  const refused = opts.onRefused ?? (() => {});

  const address = (client: Client) => addressOf(client.conn) ?? 'unknown';
  /** A failed sign-in: counted against the address, told once per burst when limited. */
  const failed = (client: Client, what: string) => {
    if (!opts.signIns) return refused(what);
    opts.signIns.limiter.failure(address(client));
    opts.signIns.log.refused(`sign-in:${address(client)}`, `${what} from ${address(client)}`);
  };

  aedes.authenticate = (client, username, password, done) => {
    if (opts.signIns?.limiter.blocked(address(client)) && !reserved.has(client.id)) {
      failed(client, `sign-in refused unchecked: too many failed sign-ins (client "${client.id}")`);
      return done(authError('too many failed sign-ins', 5), false); // §3.2.2.3 code 5: not authorized
    }
    if (username === undefined || username === '') {
      if (opts.anonymousRead && password === undefined && !reserved.has(client.id)) {
        ACCESS.set(client, 'read');
        return done(null, true);
      }
      failed(client, `sign-in refused: anonymous client "${client.id}"`);
      return done(authError('anonymous access is off', 5), false); // §3.2.2.3 code 5: not authorized
    }
    const presented = digest(password ?? Buffer.alloc(0));
    let found: (typeof accounts)[number] | null = null;
    // Every account is compared, so the time taken says nothing about which name exists.
    for (const a of accounts) {
      const ok = timingSafeEqual(presented, a.hash) && a.username === username;
      if (ok && found === null) found = a;
    }
    if (found === null) {
      failed(client, `sign-in refused: bad username or password for "${username}" (client "${client.id}")`);
      return done(authError('bad username or password', 4), false); // §3.2.2.3 code 4
    }
    if (reserved.has(client.id) && found.access !== 'publish') {
      failed(client, `sign-in refused: "${username}" may not use the host's client id "${client.id}"`);
      return done(authError('client id reserved', 2), false); // §3.2.2.3 code 2: identifier rejected
    }
    ACCESS.set(client, found.access);
    return done(null, true);
  };

  aedes.authorizePublish = (client, packet, callback) => {
    // client null: a will stored from an earlier connection; nobody to vouch for it.
    const access = client ? ACCESS.get(client) : undefined;
    if (access === 'publish' && packet.topic.startsWith(TOPIC_ROOT)) return callback(null);
    refused(`publish refused: "${packet.topic}" from client "${client?.id ?? '(none)'}" (${access ?? 'no account'})`);
    // MQTT 3.1.1 has no negative PUBACK: the broker drops the message and the connection.
    return callback(new Error(`client may not publish to "${packet.topic}"`));
  };

  aedes.authorizeSubscribe = (client, sub, callback) => {
    if (ACCESS.has(client)) return callback(null, sub);
    refused(`subscribe refused: "${sub.topic}" from client "${client.id}"`);
    return callback(null, null); // SUBACK 0x80 (§3.9.3)
  };
}

/**
 * Reads reader accounts from a JSON file `[{ "username": "relay", "password": "..." }]`
 * (docs/mqtt.md); errors name the file and the entry, never a password.
 */
export function loadMqttReaders(path: string): MqttAccount[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read the MQTT readers file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseMqttReaders(text, path);
}

export function parseMqttReaders(text: string, source: string): MqttAccount[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Not the parser's message: V8 quotes the start of the text, which here holds passwords.
    throw new Error(`${source}: not JSON (${(err as Error).message.replace(/,? ?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '').slice(0, 80)})`);
  }
  if (!Array.isArray(value)) throw new Error(`${source}: expected an array of { "username", "password" }`);
  const seen = new Set<string>();
  return value.map((v: unknown, i) => {
    const o = v as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || typeof o.username !== 'string' || o.username === '' || typeof o.password !== 'string') {
      throw new Error(`${source}: entry ${i + 1} must be { "username": string, "password": string }`);
    }
    for (const k of Object.keys(o)) if (k !== 'username' && k !== 'password') throw new Error(`${source}: entry ${i + 1}: unknown field "${k}"`);
    if (o.password.length < MIN_MQTT_PASSWORD_LENGTH)
      throw new Error(`${source}: entry ${i + 1} (${o.username}): the password must be at least ${MIN_MQTT_PASSWORD_LENGTH} characters`);
    if (seen.has(o.username)) throw new Error(`${source}: entry ${i + 1}: username "${o.username}" appears twice`);
    seen.add(o.username);
    return { username: o.username, password: o.password, access: 'read' as const };
  });
}

/** A broker URL fit for a log line: the password (if any) replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === '') return url;
    u.password = '***';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    // Not a URL: hide whatever sits between "://" and "@".
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

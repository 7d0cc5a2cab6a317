// `chessclock host --mqtt <target>`: where the host publishes.
//
//   --mqtt embedded              an in-process Aedes broker on 127.0.0.1:1883
//   --mqtt embedded:PORT         the same on another port (0 = any free port)
//   --mqtt embedded:HOST:PORT    listen on another address (e.g. 0.0.0.0 for the hall LAN)
//   --mqtt mqtt://host:1883      an external broker (also mqtts://, ws://, wss://); its password
//                                comes from CHESSCLOCK_MQTT_PASSWORD or --mqtt-password-file,
//                                never from the command line (docs/mqtt.md)
//   --mqtt none                  no MQTT (the default)
//
// The embedded broker asks every client to sign in (broker-access.ts); `--mqtt-tls-cert` and
// `--mqtt-tls-key` make it listen with TLS (mqtts://) instead of plain TCP.
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { once } from 'node:events';
import { Aedes } from 'aedes';
import { installBrokerAccess, redactUrl, type BrokerAccessOptions } from './broker-access.ts';
import { BurstLog, brokerLimits, guardConnections, SignInLimiter, type BrokerLimits } from './broker-limits.ts';

export type MqttTarget =
  | { readonly kind: 'none' }
  | { readonly kind: 'embedded'; readonly host: string; readonly port: number }
  | { readonly kind: 'external'; readonly url: string };

export const DEFAULT_MQTT_PORT = 1883;

export class MqttOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MqttOptionError';
  }
}

function parsePort(text: string, whole: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) {
    throw new MqttOptionError(`--mqtt ${whole}: bad port "${text}" (expected 0-65535)`);
  }
  return Number(text);
}

/** Parses the value of `--mqtt`; throws MqttOptionError saying what is wrong. */
export function parseMqttOption(value: string | undefined): MqttTarget {
  if (value === undefined || value === 'none') return { kind: 'none' };
  if (value === 'embedded') return { kind: 'embedded', host: '127.0.0.1', port: DEFAULT_MQTT_PORT };
  if (value.startsWith('embedded:')) {
    const rest = value.slice('embedded:'.length);
    const colon = rest.lastIndexOf(':');
    if (colon < 0) return { kind: 'embedded', host: '127.0.0.1', port: parsePort(rest, value) };
    const host = rest.slice(0, colon);
    if (host.length === 0) throw new MqttOptionError(`--mqtt ${value}: empty host before the port`);
    return { kind: 'embedded', host, port: parsePort(rest.slice(colon + 1), value) };
  }
  let url: URL;
  const shown = redactUrl(value); // an error message is a log line too: no password in it
  try {
    url = new URL(value);
  } catch {
    throw new MqttOptionError(`--mqtt "${shown}": expected "embedded", "embedded:PORT", "none" or a broker URL like mqtt://host:1883`);
  }
  if (!['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:'].includes(url.protocol)) {
    throw new MqttOptionError(
      `--mqtt "${shown}": unsupported scheme "${url.protocol}" (expected "embedded", "embedded:PORT", "none" or a broker URL with mqtt:, mqtts:, ws: or wss:)`,
    );
  }
  if (url.hostname === '') throw new MqttOptionError(`--mqtt "${shown}": missing broker host`);
  return { kind: 'external', url: value };
}

export interface EmbeddedBroker {
  readonly aedes: Aedes;
  readonly server: Server;
  /** The URL clients connect to, with the actual port. */
  readonly url: string;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  /** Sign-in and publish/subscribe rules. Absent: anyone may do anything (tests and benchmarks only;
   * `chessclock host` and `hall` always pass them). */
  readonly access?: BrokerAccessOptions;
  /** PEM certificate chain and key: the broker speaks MQTT over TLS (mqtts://). */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Packet size, connection caps, CONNECT timeout, sign-in failures (broker-limits.ts); defaults DEFAULT_BROKER_LIMITS. */
  readonly limits?: Partial<BrokerLimits>;
}

/** Starts an Aedes broker on a TCP (or TLS) listener, behind the limits of broker-limits.ts. */
export async function startEmbeddedBroker(host = '127.0.0.1', port = 0, opts: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const limits = brokerLimits(opts.limits);
  const aedes = await Aedes.createBroker({ connectTimeout: limits.connectTimeoutMs });
  const onRefused = opts.access?.onRefused;
  if (opts.access) {
    installBrokerAccess(aedes, {
      ...opts.access,
      signIns: { limiter: new SignInLimiter(limits), log: new BurstLog(onRefused ?? (() => {}), limits.signInWindowMs) },
    });
  }
  const listener = guardConnections(aedes.handle, { limits, ...(onRefused ? { onRefused } : {}) });
  const server: Server = opts.tls ? createTlsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createServer(listener);
  // A failed TLS handshake (a client that does not trust the certificate) is that client's problem.
  server.on('tlsClientError', () => undefined);
  server.listen(port, host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([err]) => {
      aedes.close();
      throw new MqttOptionError(`--mqtt embedded:${host}:${port}: cannot listen: ${(err as Error).message}`);
    }),
  ]);
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    aedes,
    server,
    url: `${opts.tls ? 'mqtts' : 'mqtt'}://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves a target to a broker URL, starting the embedded broker when asked. */
export async function resolveMqttTarget(
  target: MqttTarget,
  embedded: EmbeddedBrokerOptions = {},
): Promise<{ url: string | null; broker: EmbeddedBroker | null }> {
  if (target.kind === 'none') return { url: null, broker: null };
  if (target.kind === 'external') return { url: target.url, broker: null };
  const broker = await startEmbeddedBroker(target.host, target.port, embedded);
  return { url: broker.url, broker };
}

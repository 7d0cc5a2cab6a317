// What `chessclock host` calls to get MQTT going: resolves `--mqtt`, starts the embedded
// broker if asked, connects a client and returns the durable-outbox publisher.
import mqtt, { type IClientOptions } from 'mqtt';
import { MqttPublisher } from './publisher.ts';
import { PublisherThread, type HostPublisher } from './publisher-thread.ts';
import { parseMqttOption, resolveMqttTarget, type EmbeddedBroker, type MqttTarget } from './mqtt-target.ts';
import { generatedPassword, redactUrl, type MqttAccount } from './broker-access.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { BrokerLimits } from './broker-limits.ts';
import type { JournalOutboxStore } from '../../store/journal.ts';
import type { HostState } from '../../app/ports.ts';
import { bridgeHostFeedToMqtt } from './host-feed-bridge.ts';

export interface HostMqtt<P extends HostPublisher = HostPublisher> {
  readonly publisher: P;
  readonly broker: EmbeddedBroker | null;
  /** The broker's URL, its password (if any) replaced by `***`: fit for a log line. */
  readonly url: string;
  close(): Promise<void>;
  /** Drops the connection and the listener at once (when close() takes too long). */
  forceClose(): void;
}

/** The host's own account on the embedded broker (its password is generated per start). */
export const HOST_MQTT_USERNAME = 'chessclock-host';

export interface StartHostMqttOptions {
  /** `--mqtt` value or an already parsed target. */
  readonly target: string | MqttTarget;
  readonly outbox: OutboxStore;
  /** Stable per host so a broker can tell hosts apart in its logs. */
  readonly clientId?: string;
  readonly reconnectPeriodMs?: number;
  readonly onError?: (err: Error) => void;
  /** An external broker's account for the host (the password never on the command line: docs/mqtt.md). */
  readonly username?: string;
  readonly password?: string;
  /** PEM CA certificate(s) to trust for an mqtts:// broker with a private CA. */
  readonly ca?: string | Buffer;
  /** Embedded broker: read-only accounts (`--mqtt-readers FILE`). */
  readonly readers?: readonly MqttAccount[];
  /** Embedded broker: clients without an account may subscribe (never publish). Default false. */
  readonly anonymousRead?: boolean;
  /** Embedded broker: listen with TLS (mqtts://) with this PEM certificate and key. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Told of every refused sign-in, publish or subscribe on the embedded broker. */
  readonly onRefused?: (what: string) => void;
  /** Embedded broker: its limits (broker-limits.ts; defaults DEFAULT_BROKER_LIMITS). */
  readonly limits?: Partial<BrokerLimits>;
}

/**
 * The publisher on a thread of its own (publisher-thread.ts), for the journal's outbox on disk:
 * what `chessclock host` and the hall run (startHost). Its store is the journal's, and the
 * thread reads the journal's file at `journalPath`.
 */
export interface StartHostMqttThreadOptions extends Omit<StartHostMqttOptions, 'outbox'> {
  readonly outbox: JournalOutboxStore;
  readonly journalPath: string;
}

/** The broker (the embedded one started if asked) and how the host connects to it; null when the target is `none`. */
async function hostConnection(
  opts: Omit<StartHostMqttOptions, 'outbox'>,
): Promise<{ url: string; broker: EmbeddedBroker | null; options: IClientOptions } | null> {
  const target = typeof opts.target === 'string' ? parseMqttOption(opts.target) : opts.target;
  const clientId = opts.clientId ?? `chessclock-host-${process.pid}`;
  // On the embedded broker the host signs in like everyone else, with a password made now.
  const own = target.kind === 'embedded' ? { username: HOST_MQTT_USERNAME, password: generatedPassword() } : null;
  const { url, broker } = await resolveMqttTarget(target, {
    access: {
      accounts: [...(own ? [{ ...own, access: 'publish' as const }] : []), ...(opts.readers ?? [])],
      anonymousRead: opts.anonymousRead ?? false,
      reservedClientIds: [clientId],
      ...(opts.onRefused ? { onRefused: opts.onRefused } : {}),
    },
    ...(opts.tls ? { tls: opts.tls } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  if (url === null) return null;
  const options: IClientOptions = {
    clientId,
    reconnectPeriod: opts.reconnectPeriodMs ?? 1000,
    connectTimeout: 5000,
    ...(own ?? {}),
    ...(opts.username !== undefined ? { username: opts.username } : {}),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
    ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
    // Our own embedded TLS broker is reached over loopback, where its certificate's name
    // (the hall's LAN name) does not match: the link is still encrypted, and nobody else can
    // hold the port we just bound.
    ...(own && opts.tls ? { rejectUnauthorized: false } : {}),
  };
  return { url, broker, options };
}

/** Returns null when the target is `none`. The publisher runs on the event loop. */
export async function startHostMqtt(opts: StartHostMqttOptions): Promise<HostMqtt<MqttPublisher> | null> {
  const connection = await hostConnection(opts);
  if (!connection) return null;
  const { url, broker } = connection;
  // MQTT.js logs through `debug`, whose calls allocate their arguments even when nobody
  // listens: 3% of the host's allocations in a hall (docs/benchmarks.md). With DEBUG set
  // (DEBUG=mqttjs*), MQTT.js logs as `debug` users expect.
  const client = mqtt.connect(url, { ...connection.options, ...(process.env.DEBUG ? {} : { log: () => {} }) });
  // Connection errors are retried by MQTT.js; report them, never crash the host on them.
  client.on('error', (err) => opts.onError?.(err));
  const publisher = new MqttPublisher({ client, outbox: opts.outbox, ...(opts.onError ? { onError: opts.onError } : {}) });
  return hostMqttOf(publisher, broker, url, () => publisher.client.stream?.destroy());
}

/** Returns null when the target is `none`. The publisher runs on a thread of its own (publisher-thread.ts). */
export async function startHostMqttThread(opts: StartHostMqttThreadOptions): Promise<HostMqtt<PublisherThread> | null> {
  const connection = await hostConnection(opts);
  if (!connection) return null;
  const { url, broker, options } = connection;
  let publisher: PublisherThread;
  try {
    publisher = await PublisherThread.start({
      journalPath: opts.journalPath,
      outbox: opts.outbox,
      url,
      options,
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
  } catch (err) {
    await broker?.close();
    throw err;
  }
  return hostMqttOf(publisher, broker, url, () => publisher.forceClose());
}

/** The room around a started publisher: closing ends the publisher first, then the embedded broker. */
function hostMqttOf<P extends HostPublisher>(publisher: P, broker: EmbeddedBroker | null, url: string, dropPublisher: () => void): HostMqtt<P> {
  return {
    publisher,
    broker,
    url: redactUrl(url),
    async close() {
      await publisher.close();
      await broker?.close();
    },
    forceClose() {
      dropPublisher();
      broker?.server.close();
    },
  };
}

/**
 * Keeps MQTT up to date with a running host: every journaled event's message (drafted into
 * the journal's outbox in the event's own transaction, see journal-topics.ts) is sent as it
 * comes, the board's retained state with it, and the outbox is drained once a second for
 * what is drafted outside clock events (results, confirmations) or was left by a broker
 * outage. Returns the function that stops it. `chessclock host`, `chessclock hall` and the
 * load host all publish through this one function.
 */
export function publishHostToMqtt(host: HostState, mqtt: HostMqtt, drainEveryMs = 1_000): () => void {
  const stopFeed = bridgeHostFeedToMqtt(host, mqtt.publisher);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const drain = (): void => {
    mqtt.publisher.publishPending();
    timer = setTimeout(drain, drainEveryMs);
  };
  drain();
  return () => {
    stopFeed();
    if (timer) clearTimeout(timer);
    timer = null;
  };
}

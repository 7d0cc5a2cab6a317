// What `chessclock host` calls to get MQTT going: resolves `--mqtt`, starts the embedded
// broker if asked, connects a client and returns the durable-outbox publisher.
import mqtt from 'mqtt';
import { MqttPublisher } from './publisher.ts';
import { parseMqttOption, resolveMqttTarget, type EmbeddedBroker, type MqttTarget } from './mqtt-target.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { HostState } from '../../app/ports.ts';
import { bridgeHostFeedToMqtt } from './host-feed-bridge.ts';

export interface HostMqtt {
  readonly publisher: MqttPublisher;
  readonly broker: EmbeddedBroker | null;
  readonly url: string;
  close(): Promise<void>;
}

export interface StartHostMqttOptions {
  /** `--mqtt` value or an already parsed target. */
  readonly target: string | MqttTarget;
  readonly outbox: OutboxStore;
  /** Stable per host so a broker can tell hosts apart in its logs. */
  readonly clientId?: string;
  readonly reconnectPeriodMs?: number;
  readonly onError?: (err: Error) => void;
}

/** Returns null when the target is `none`. */
export async function startHostMqtt(opts: StartHostMqttOptions): Promise<HostMqtt | null> {
  const target = typeof opts.target === 'string' ? parseMqttOption(opts.target) : opts.target;
  const { url, broker } = await resolveMqttTarget(target);
  if (url === null) return null;
  const client = mqtt.connect(url, {
    clientId: opts.clientId ?? `chessclock-host-${process.pid}`,
    reconnectPeriod: opts.reconnectPeriodMs ?? 1000,
    connectTimeout: 5000,
  });
  // Connection errors are retried by MQTT.js; report them, never crash the host on them.
  client.on('error', (err) => opts.onError?.(err));
  const publisher = new MqttPublisher({ client, outbox: opts.outbox, onError: opts.onError });
  return {
    publisher,
    broker,
    url,
    async close() {
      await publisher.close();
      await broker?.close();
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
  const stopFeed = bridgeHostFeedToMqtt(host, mqtt.publisher, { eventsInOutbox: true });
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

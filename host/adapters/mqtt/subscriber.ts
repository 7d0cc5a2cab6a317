// Subscribes to the events topics and hands each clock event on exactly once, whatever
// QoS 1 redelivery or a publisher's outbox resend does (see event-deduper.ts).
import type { MqttClient } from 'mqtt';
import { EventDeduper } from './event-deduper.ts';
import { decodeEvent, type EventPayload } from './payload.ts';
import { parseBoardTopic, topicFilter, type BoardAddress } from './topics.ts';

export interface EventSubscription {
  readonly deduper: EventDeduper;
  /** Messages that were not valid events payloads (reported through onInvalid). */
  readonly invalid: () => number;
  unsubscribe(): Promise<void>;
}

export interface SubscribeOptions {
  /** Narrow to one event/round/board; omitted parts match everything. */
  readonly filter?: Partial<BoardAddress>;
  readonly onInvalid?: (err: Error, topic: string) => void;
}

/** Whether a board's address passes a subscriber's filter (absent fields match any). */
export function matches(addr: BoardAddress, filter: Partial<BoardAddress> | undefined): boolean {
  if (!filter) return true;
  return (
    (filter.event === undefined || filter.event === addr.event) &&
    (filter.round === undefined || filter.round === addr.round) &&
    (filter.board === undefined || filter.board === addr.board)
  );
}

/**
 * Subscribes at QoS 1 to `chessclock/v1/.../events` and calls `onEvent` once per
 * (clockId, bootId, seq). Resolves after the broker's SUBACK. MQTT.js re-subscribes by
 * itself after a reconnect (`resubscribe: true`, its default).
 */
export async function subscribeClockEvents(
  client: MqttClient,
  onEvent: (event: EventPayload) => void,
  opts: SubscribeOptions = {},
): Promise<EventSubscription> {
  const filter = topicFilter('events', opts.filter);
  const deduper = new EventDeduper();
  let invalid = 0;
  const onMessage = (topic: string, payload: Buffer): void => {
    let event: EventPayload;
    try {
      const addr = parseBoardTopic(topic);
      // The client may carry other subscriptions: keep to ours.
      if (addr.kind !== 'events' || !matches(addr, opts.filter)) return;
      event = decodeEvent(payload);
    } catch (err) {
      invalid++;
      opts.onInvalid?.(err as Error, topic);
      return;
    }
    if (deduper.firstTime(event.clockId, event.bootId, event.seq)) onEvent(event);
  };
  client.on('message', onMessage);
  await client.subscribeAsync(filter, { qos: 1 });
  return {
    deduper,
    invalid: () => invalid,
    async unsubscribe() {
      client.off('message', onMessage);
      await client.unsubscribeAsync(filter);
    },
  };
}

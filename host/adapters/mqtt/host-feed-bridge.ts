// Connects the host's live feed to the MQTT publisher: after each journaled event the board's
// retained state is published (coalesced per event-loop turn), and the event itself either
// was drafted into the journal's outbox in the same transaction (`eventsInOutbox: true`, the
// journal with `outboxTopic: journalOutboxTopic`) or is stored by the publisher now.
import type { HostState } from '../../app/ports.ts';
import type { MqttPublisher } from './publisher.ts';

export interface FeedBridgeOptions {
  /** True when the journal drafts the events messages itself (see journal-topics.ts). */
  readonly eventsInOutbox: boolean;
}

/** Returns the function that disconnects the bridge. */
export function bridgeHostFeedToMqtt(state: HostState, publisher: MqttPublisher, opts: FeedBridgeOptions): () => void {
  // With the journal drafting the messages, one outbox read per turn of the event loop is
  // enough however many events the turn journaled (a thousand clocks press in bursts).
  let pumpScheduled = false;
  let stopped = false;
  const unsubscribe = state.subscribe((event, board) => {
    if (!opts.eventsInOutbox) publisher.publishEvent(event);
    else if (!pumpScheduled) {
      pumpScheduled = true;
      setImmediate(() => {
        pumpScheduled = false;
        if (!stopped) publisher.publishPending();
      });
    }
    if (board?.live) publisher.publishStateSoon(board, board.live);
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}

// Connects the host's live feed to the MQTT publisher: the journal drafts each event's message
// into its outbox in the event's own transaction (journal-topics.ts), so after a turn's events
// are journaled the publisher is told once to send what is pending, and each board's retained
// state is published (coalesced by the publisher).
import type { HostState } from '../../app/ports.ts';
import type { HostPublisher } from './publisher-thread.ts';

/** Returns the function that disconnects the bridge. */
export function bridgeHostFeedToMqtt(state: HostState, publisher: HostPublisher): () => void {
  // One outbox read per turn of the event loop is enough however many events the turn
  // journaled (a thousand clocks press in bursts).
  let pumpScheduled = false;
  let stopped = false;
  const unsubscribe = state.subscribe((_event, board) => {
    if (!pumpScheduled) {
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

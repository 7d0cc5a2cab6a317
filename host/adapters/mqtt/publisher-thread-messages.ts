// The messages between the host's event loop and the MQTT publisher thread
// (publisher-thread.ts, publisher-thread-worker.ts). One definition for both sides.
import type { IClientOptions } from 'mqtt';
import type { OutboxDraft } from './outbox-store.ts';
import type { PublisherStats } from './publisher.ts';
import type { BoardAddress } from './topics.ts';
import type { LiveClockState } from '../../app/ports.ts';

/** What the thread is started with (`workerData`). */
export interface PublisherThreadData {
  /** The journal's file: the thread reads the outbox with a connection of its own. */
  readonly journalPath: string;
  readonly url: string;
  /** MQTT.js options that survive a structured clone (no functions). */
  readonly options: IClientOptions;
}

/** From the event loop to the thread. */
export type ToPublisherThread =
  /** New rows in the outbox (a turn's events, a result): send them. */
  | { readonly type: 'pending' }
  /** Boards' newest live states, gathered on the event loop: stored as retained states. */
  | { readonly type: 'states'; readonly states: ReadonlyArray<{ readonly addr: BoardAddress; readonly state: LiveClockState }> }
  /** An outbox write asked for by the thread: done (`error` null) or refused. */
  | { readonly type: 'written'; readonly k: number; readonly error: string | null }
  /** Answer `idle` (with the stats) once every stored message is acknowledged. */
  | { readonly type: 'idle'; readonly k: number }
  /** Stop: flush the delivery marks, close the connection, answer `closed`. */
  | { readonly type: 'close' };

/** From the thread to the event loop. */
export type FromPublisherThread =
  /** `tid`: the thread's id on Linux, where it runs at a lower priority (null elsewhere). */
  | { readonly type: 'ready'; readonly tid: number | null }
  /** Write aside (the journal's writer thread): delivery marks or retained states; answer `written`. */
  | { readonly type: 'write'; readonly k: number; readonly marks: readonly number[] | null; readonly rows: readonly OutboxDraft[] | null }
  | { readonly type: 'stats'; readonly stats: PublisherStats }
  | { readonly type: 'idle'; readonly k: number; readonly stats: PublisherStats }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'closed' };

// The durable outbox the MQTT publisher drains. A message is stored before anything is
// sent and removed only after the broker's PUBACK (MQTT 3.1.1 §4.3.2: the sender owns a
// QoS 1 message until it is acknowledged), so a crash or a broker outage loses nothing:
// whatever is still here is resent on the next connection. The journal's outbox table is the
// store (Journal.outboxStore, host/store/outbox.ts).

export interface OutboxDraft {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
}

export interface OutboxMessage extends OutboxDraft {
  /** Increasing in insertion order; messages are published in this order. */
  readonly id: number;
}

export interface OutboxStore {
  /** Stores all drafts atomically (all or none). */
  append(drafts: readonly OutboxDraft[]): void;
  /** Up to `limit` undelivered messages with id > `afterId`, in id order. */
  pending(limit: number, afterId?: number): OutboxMessage[];
  /** Marks messages delivered (idempotent). */
  markDone(ids: readonly number[]): void;
  pendingCount(): number;
  /**
   * Optional: stores retained states (every draft `retain`) without making the caller wait for a
   * lock (the journal hands them to its writer thread); resolves once stored, rejects as
   * `append` throws. A store without it is written with `append`.
   */
  appendRetainedAside?(drafts: readonly OutboxDraft[]): Promise<void>;
  /** Optional: `markDone` without waiting for a lock, as `appendRetainedAside`. */
  markDoneAside?(ids: readonly number[]): Promise<void>;
}

// Publishes journaled clock events to MQTT through a durable outbox.
//
// Order of duties, so nothing is lost:
//  1. `publishEvent` stores the events message (and the board's retained state) in the
//     outbox first; only then is anything sent.
//  2. The pump hands stored messages to MQTT.js at QoS 1, a bounded number at a time.
//  3. A message is removed from the outbox only in the publish callback, which MQTT.js
//     5.16 calls for QoS 1 when the broker's PUBACK arrives (client.js: the callback is
//     parked in `outgoing[messageId]` and run by handlers/ack.js on 'puback'; `publishAsync`
//     wraps the same callback and resolves with the *sent* packet, not the PUBACK).
//  4. While the broker is down MQTT.js keeps unacknowledged packets in its outgoing store
//     and resends them after reconnecting; if this process dies instead, the rows are still
//     in the outbox and are sent again on the next start. Either way a message may arrive
//     twice (QoS 1 is at-least-once), which subscribers undo with (clockId, bootId, seq).
//
// Retained messages are drafted here (a board's state after a clock event) and by others in
// the same outbox (the journal drafts a result, and the board's `finished` state with it, in
// the result's own transaction: journal-topics.ts). The newest retained message per topic is
// the one with the highest outbox id, whoever drafted it: that is the one re-sent after a
// reconnect, and a state gathered before it is not stored after it. (Retained results are not
// re-sent: only the boards' states, as before.)
import type { MqttClient } from 'mqtt';
import type { BoardAddress } from './topics.ts';
import { eventsTopic, stateTopic } from './topics.ts';
import { encodeEvent, encodeState } from './payload.ts';
import type { OutboxDraft, OutboxMessage, OutboxStore } from './outbox-store.ts';
import type { ClockEventRecord, LiveClockState } from '../../app/ports.ts';
import { RefusedWrites } from './refused-writes.ts';

/** Outbox rows read at most to learn others' retained states before storing a batch of ours. */
const LEARN_BATCH = 1000;

export interface MqttPublisherOptions {
  readonly client: MqttClient;
  readonly outbox: OutboxStore;
  /** Messages handed to MQTT.js and not yet acknowledged, at most (MQTT ids are 16-bit). */
  readonly maxInFlight?: number;
  /** Re-send each board's last retained state after every reconnect (a broker without
   * persistence forgets retained messages when it restarts). Default true. */
  readonly republishStateOnReconnect?: boolean;
  /**
   * Boards' retained states are gathered this long (ms) and stored in one outbox transaction
   * (one fsync), the newest per board. Default 250: a late subscriber's state lags by at most
   * that; the events themselves are not delayed.
   */
  readonly stateBatchMs?: number;
  /**
   * Delivery marks (the outbox rows the broker acknowledged) are gathered this long (ms) and
   * written in one outbox transaction. Default 100: a mark lost in a crash only means one more,
   * deduplicated, resend, and a transaction per burst of PUBACKs was as many writer-thread
   * transactions as clock-event commits.
   */
  readonly markBatchMs?: number;
  readonly onError?: (err: Error) => void;
}

export interface PublisherStats {
  readonly published: number;
  readonly acked: number;
  readonly inFlight: number;
  readonly pending: number;
}

export class MqttPublisher {
  readonly client: MqttClient;
  private readonly outbox: OutboxStore;
  private readonly maxInFlight: number;
  private readonly republishState: boolean;
  private readonly onError: (err: Error) => void;
  /** Outbox ids handed to MQTT.js and awaiting PUBACK. */
  private readonly inFlight = new Set<number>();
  /** Highest outbox id handed to MQTT.js; the next read starts after it. */
  private cursor = 0;
  /** A publish failed: re-read the outbox from the start on the next connect. */
  private rewind = false;
  private readonly ackedIds: number[] = [];
  private markTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly markBatchMs: number;
  /** A pump is due at the next turn: PUBACKs made room after a read that room cut short. */
  private pumpScheduled = false;
  /**
   * The newest retained state per board (`…/state` topic): `id` is its outbox id once the pump has read it;
   * null for one drafted here and not read yet (it is newer than every row read so far).
   */
  private readonly lastState = new Map<string, { payload: string; id: number | null; parsed?: Partial<LiveClockState> | null }>();
  private readonly stateBatch = new Map<string, { addr: BoardAddress; state: LiveClockState }>();
  private stateBatchScheduled = false;
  private readonly stateBatchMs: number;
  private stateBatchTimer: ReturnType<typeof setTimeout> | null = null;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private published = 0;
  private acked = 0;
  private readonly onConnect = (): void => this.handleConnect();
  /** Each kind of outbox write's refusals (a full disk): told at their start and end, retried with a backoff. */
  private readonly stateWrites: RefusedWrites;
  private readonly markWrites: RefusedWrites;
  private readonly reconnectWrites: RefusedWrites;

  constructor(opts: MqttPublisherOptions) {
    this.client = opts.client;
    this.outbox = opts.outbox;
    this.maxInFlight = opts.maxInFlight ?? 512;
    this.republishState = opts.republishStateOnReconnect ?? true;
    this.stateBatchMs = opts.stateBatchMs ?? 250;
    this.markBatchMs = opts.markBatchMs ?? 100;
    this.onError = opts.onError ?? (() => {});
    const report = (err: Error): void => this.onError(err);
    this.stateWrites = new RefusedWrites("store the boards' retained states", report);
    this.markWrites = new RefusedWrites('mark acknowledged messages published', report);
    this.reconnectWrites = new RefusedWrites('store the retained states to re-send after the reconnect', report);
    this.client.on('connect', this.onConnect);
    // Leftovers from a previous run go out first (MQTT.js queues them until connected).
    this.pump();
  }

  /** Stores the event (and the board's new retained state) durably, then sends. */
  publishEvent(event: ClockEventRecord, state?: LiveClockState): void {
    const drafts: OutboxDraft[] = [{ topic: eventsTopic(event), payload: encodeEvent(event), retain: false }];
    if (state) drafts.push(this.stateDraft(event, state));
    this.outbox.append(drafts);
    this.pump();
  }

  /** Stores many events in one outbox transaction (one fsync), then sends. */
  publishEvents(events: readonly ClockEventRecord[]): void {
    if (events.length === 0) return;
    this.outbox.append(events.map((e) => ({ topic: eventsTopic(e), payload: encodeEvent(e), retain: false })));
    this.pump();
  }

  /** Stores and sends a board's retained state alone (e.g. after an arbiter change). */
  publishState(addr: BoardAddress, state: LiveClockState): void {
    this.outbox.append([this.stateDraft(addr, state)]);
    this.pump();
  }

  /**
   * Like publishState, but coalesced: the newest state per board is stored once per
   * `stateBatchMs`, all boards in one outbox transaction. Per event it would be a second
   * fsync for every press (measured by `npm run load`: press→journal p99 9.9 ms → 62 ms at
   * 470 presses/s); the retained state is a convenience for late subscribers, the events are
   * the record.
   */
  publishStateSoon(addr: BoardAddress, state: LiveClockState): void {
    this.stateBatch.set(stateTopic(addr), { addr, state });
    if (this.stateBatchScheduled) return;
    this.publishStateLater();
  }

  /**
   * Stores the gathered states (newest per board) in one outbox transaction. What others
   * drafted meanwhile is read first: a state gathered at a clock event is not stored over a
   * newer one drafted since for the same event (a result entered at the host after the last
   * press: `finished` at the same `seq`), else the retained state would go back to `running`.
   */
  private flushStateBatch(): void {
    if (this.stateBatchTimer) clearTimeout(this.stateBatchTimer);
    this.stateBatchTimer = null;
    if (this.stateBatch.size === 0) {
      this.stateBatchScheduled = false;
      return;
    }
    this.learnPending();
    this.stateBatchScheduled = false;
    const gathered = [...this.stateBatch.values()].filter(({ addr, state }) => !this.supersededByKnown(stateTopic(addr), state));
    const drafts = gathered.map(({ addr: a, state: s }) => this.stateDraft(a, s));
    this.stateBatch.clear();
    if (drafts.length === 0) {
      // Every gathered state is stored already, as it is or newer (another write stored it, e.g.
      // the states re-sent after a reconnect): nothing of this kind is owed, so its refusals end.
      this.stateWrites.succeeded();
      return;
    }
    const aside = this.outbox.appendRetainedAside;
    this.writeOutbox(
      this.stateWrites,
      undefined,
      aside && (() => aside.call(this.outbox, drafts)),
      () => this.outbox.append(drafts),
      (stored) => {
        // Stored on another thread: read once stored (stored here, the caller's pump reads them).
        if (stored) return aside ? this.pump() : undefined;
        // The journal cannot write (a full disk): kept for the next try, after the backoff
        // (refused-writes.ts), unless a newer state of the board was gathered meanwhile.
        for (const g of gathered) if (!this.stateBatch.has(stateTopic(g.addr))) this.stateBatch.set(stateTopic(g.addr), g);
        if (!this.closed && !this.stateBatchScheduled) this.publishStateLater();
      },
    );
  }

  /** The last pump read as many rows as there was room for (or none for want of room). */
  private roomLimited = false;

  /** Outbox writes handed off (`appendRetainedAside`, `markDoneAside`) and not yet answered. */
  private asideWrites = 0;

  /**
   * An outbox write of `kind`: handed off to another thread where the store has an aside for it
   * (`handOff`, the journal's writer thread), else made here now (`here`). `then` learns
   * whether it was stored, when it is known. `what` words a refusal if the kind's own words do not.
   */
  private writeOutbox(
    kind: RefusedWrites,
    what: string | undefined,
    handOff: (() => Promise<void>) | undefined,
    here: () => void,
    then: (stored: boolean) => void,
  ): void {
    if (handOff) return this.handedOff(handOff(), kind, what, then);
    then(this.tryWrite(kind, what, here));
    this.resolveIdle();
  }

  /**
   * Follows an outbox write handed off to another thread: counted (the publisher is not idle)
   * until answered; a refusal goes to its kind, as in `tryWrite`; `then` learns whether it was stored.
   */
  private handedOff(write: Promise<void>, kind: RefusedWrites, what: string | undefined, then: (stored: boolean) => void): void {
    this.asideWrites++;
    write.then(
      () => {
        this.asideWrites--;
        kind.succeeded();
        then(true);
        this.resolveIdle();
      },
      (err: Error) => {
        this.asideWrites--;
        if (!this.closed) kind.failed(err, what);
        then(false);
        this.resolveIdle();
      },
    );
  }

  /** Stores the gathered states after `stateBatchMs`, or after the backoff while the journal refuses them. */
  private publishStateLater(): void {
    this.stateBatchScheduled = true;
    this.stateBatchTimer = setTimeout(
      () => {
        this.flushStateBatch();
        this.pump();
      },
      Math.max(this.stateBatchMs, this.stateWrites.retryMs),
    );
  }

  /**
   * Runs an outbox write from a timer or a broker callback, where a throw would end the
   * process: a storage fault (a full disk) goes to its kind, which tells it once, and the write
   * is tried again later by the caller (docs/reliability.md). Returns whether it succeeded.
   */
  private tryWrite(kind: RefusedWrites, what: string | undefined, write: () => void): boolean {
    try {
      write();
      kind.succeeded();
      return true;
    } catch (err) {
      kind.failed(err as Error, what);
      return false;
    }
  }

  /** Whether the newest retained state known for `topic` is of the same clock boot and at least as far on. */
  private supersededByKnown(topic: string, state: LiveClockState): boolean {
    const known = this.lastState.get(topic);
    if (!known || known.id === null) return false;
    // Parsed once per state others drafted (our own drafts carry it), not at every flush (2% of
    // the host's time at 2,000 presses/s).
    if (known.parsed === undefined) {
      try {
        known.parsed = JSON.parse(known.payload) as Partial<LiveClockState>;
      } catch {
        known.parsed = null;
      }
    }
    const k = known.parsed;
    if (k === null) return false;
    return k.clockId === state.clockId && k.bootId === state.bootId && typeof k.seq === 'number' && k.seq >= state.seq;
  }

  /**
   * Reads what waits in the outbox beyond what the pump has read (at most a batch: an outage's
   * backlog is read by the pump in time), to learn retained states drafted by others. Sends
   * nothing, so it also runs while closing.
   */
  private learnPending(): void {
    for (const row of this.outbox.pending(LEARN_BATCH, this.cursor)) {
      if (row.retain && row.topic.endsWith('/state')) this.learnRetained(row);
    }
  }

  /** Keeps the newest retained state per board as the pump reads the outbox in id order. */
  private learnRetained(row: OutboxMessage): void {
    const known = this.lastState.get(row.topic);
    if (!known) this.lastState.set(row.topic, { payload: row.payload, id: row.id });
    else if (known.id === null) {
      // Our own draft, not read yet: rows before it are older; reaching it gives it its id.
      if (known.payload === row.payload) known.id = row.id;
    } else if (row.id > known.id) this.lastState.set(row.topic, { payload: row.payload, id: row.id });
  }

  /**
   * Sends what others stored in the outbox: call after the journal drafted messages in its
   * own transaction (Journal option `outboxTopic`, see journal-topics.ts).
   */
  publishPending(): void {
    this.pump();
  }

  stats(): PublisherStats {
    return { published: this.published, acked: this.acked, inFlight: this.inFlight.size, pending: this.outbox.pendingCount() };
  }

  /** Resolves once every stored message has been acknowledged by the broker. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops publishing and closes the connection. Unacknowledged messages stay in the
   * outbox for the next start.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // States gathered but not yet stored go to the outbox: the next start sends them.
    this.flushStateBatch();
    this.client.off('connect', this.onConnect);
    await this.client.endAsync(true);
    this.flushMarks();
  }

  private stateDraft(addr: BoardAddress, state: LiveClockState): OutboxDraft {
    const topic = stateTopic(addr);
    const payload = encodeState(addr, state);
    // What supersededByKnown compares, known here without parsing the payload back.
    this.lastState.set(topic, { payload, id: null, parsed: { clockId: state.clockId, bootId: state.bootId, seq: state.seq } });
    return { topic, payload, retain: true };
  }

  private handleConnect(): void {
    if (this.rewind) {
      this.rewind = false;
      this.cursor = 0;
    }
    if (this.republishState && this.lastState.size > 0 && this.client.connected) {
      // Appended after everything pending, so a newer state is never overtaken by an older one.
      const states = [...this.lastState].map(([topic, { payload }]) => ({ topic, payload, retain: true }));
      const aside = this.outbox.appendRetainedAside;
      this.writeOutbox(
        this.reconnectWrites,
        undefined,
        aside && (() => aside.call(this.outbox, states)),
        () => this.outbox.append(states),
        (stored) => {
          // Stored on another thread: read once stored (stored here, the pump below reads them).
          if (stored && aside) this.pump();
        },
      );
    }
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    const room = this.maxInFlight - this.inFlight.size;
    if (room <= 0) {
      this.roomLimited = true;
      return;
    }
    const rows = this.outbox.pending(room, this.cursor);
    // A full read may have left rows behind: the PUBACKs that make room read on (`settle`).
    this.roomLimited = rows.length >= room;
    // A retained state superseded by a newer one for the same topic in this batch is
    // skipped: the retained value is last-writer-wins anyway.
    const newestRetained = new Map<string, number>();
    for (const r of rows) if (r.retain) newestRetained.set(r.topic, r.id);
    const superseded: number[] = [];
    for (const row of rows) {
      this.cursor = Math.max(this.cursor, row.id);
      if (row.retain && row.topic.endsWith('/state')) this.learnRetained(row);
      if (this.inFlight.has(row.id)) continue;
      if (row.retain && newestRetained.get(row.topic) !== row.id) {
        superseded.push(row.id);
        continue;
      }
      this.inFlight.add(row.id);
      this.published++;
      this.client.publish(row.topic, row.payload, { qos: 1, retain: row.retain }, (err) => this.settle(row.id, err));
    }
    // Marked done with the acknowledged ones (retried with them if the journal cannot write).
    if (superseded.length > 0) {
      this.ackedIds.push(...superseded);
      this.flushMarksSoon();
    }
    this.resolveIdle();
  }

  private settle(id: number, err: Error | undefined): void {
    this.inFlight.delete(id);
    if (err) {
      // Keep the row; it is read again after the next (re)connect or on the next start.
      this.rewind = true;
      if (!this.closed) this.onError(err);
      return;
    }
    this.acked++;
    this.ackedIds.push(id);
    this.flushMarksSoon();
    // Only a read that room cut short left rows to read now; new rows bring their own pump
    // (publishPending, the drain timer), so a PUBACK need not read the outbox again (measured:
    // a read per burst of PUBACKs was 2% of the host's loop at 1,000 presses/s).
    if (this.roomLimited && !this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(() => {
        this.pumpScheduled = false;
        if (this.roomLimited) this.pump();
      });
    }
  }

  /** Writes the gathered delivery marks within `markBatchMs` (or the backoff while refused), all in one outbox transaction. */
  private flushMarksSoon(): void {
    if (this.markTimer || this.closed) return;
    this.markTimer = setTimeout(() => this.flushMarks(), Math.max(this.markBatchMs, this.markWrites.retryMs));
  }

  private flushMarks(): void {
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = null;
    if (this.ackedIds.length === 0) return;
    const ids = this.ackedIds.splice(0);
    const aside = this.outbox.markDoneAside;
    this.writeOutbox(
      this.markWrites,
      `mark ${ids.length} acknowledged messages published`,
      aside && (() => aside.call(this.outbox, ids)),
      () => this.outbox.markDone(ids),
      (marked) => {
        if (!marked) this.markLater(ids);
      },
    );
  }

  /** Marks the journal refused (a full disk): kept and tried again after the backoff; until then they only count as pending. */
  private markLater(ids: readonly number[]): void {
    this.ackedIds.unshift(...ids);
    this.flushMarksSoon();
  }

  private isIdle(): boolean {
    return this.inFlight.size === 0 && this.ackedIds.length === 0 && !this.stateBatchScheduled && this.asideWrites === 0 && this.outbox.pendingCount() === 0;
  }

  private resolveIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

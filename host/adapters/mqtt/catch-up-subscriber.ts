// A subscriber that misses nothing: MQTT for speed, the host's journal for completeness
// (docs/mqtt.md "Nothing lost: the catch-up subscriber").
//
// A broker that crashes can lose messages it already acknowledged to the host (Mosquitto
// saves its queues to disk only every `autosave_interval`), and the host, holding a PUBACK,
// has deleted them from its outbox. So every events message carries its `journalSeq`, one
// sequence for the whole host with no holes among published events except events of clocks
// with no game, and this helper:
//   - delivers each event once, in journal order, whether it came by MQTT or HTTP;
//   - on a gap (a journalSeq beyond the next one expected), and after every (re)connect,
//     reads `GET /api/journal/events?after=N` from the host until the journal's head, and
//     delivers what it had not seen;
//   - drops what it has seen (QoS 1 redeliveries, outbox resends, catch-up overlaps).
//
//   const sub = await CatchUpSubscriber.start({ client, apiUrl: 'http://hall-pc:8080', onEvent });
//
// With a board filter most messages look like gaps (the other boards' events come between):
// each costs one small HTTP read, which suits a display for a few boards.
import type { MqttClient } from 'mqtt';
import { decodeEvent, type EventPayload } from './payload.ts';
import { parseBoardTopic, topicFilter, type BoardAddress } from './topics.ts';
import { matches } from './subscriber.ts';

export interface JournaledEvent extends EventPayload {
  readonly journalSeq: number;
}

export interface CatchUpStats {
  readonly fromMqtt: number;
  readonly fromHttp: number;
  /** Repeats dropped (MQTT redeliveries, events that came by both roads). */
  readonly duplicates: number;
  /** HTTP catch-ups run (gaps and reconnects). */
  readonly catchUps: number;
  readonly invalid: number;
}

export interface CatchUpOptions {
  /** A connected or connecting MQTT.js client (clean: false keeps its queue across short outages). */
  readonly client: MqttClient;
  /** The host's API, e.g. `http://hall-pc:8080` (HTTPS with a private CA: set NODE_EXTRA_CA_CERTS). */
  readonly apiUrl: string;
  /** Narrow to one event/round/board; omitted parts match everything. */
  readonly filter?: Partial<BoardAddress>;
  /** Deliver events after this journal sequence (0: the whole journal); default 'head': from now on. */
  readonly after?: number | 'head';
  readonly onEvent: (event: JournaledEvent, via: 'mqtt' | 'http') => void;
  /** An HTTP read failed (retried after `retryMs`) or a message was not an events payload. */
  readonly onError?: (err: Error) => void;
  /** Events per HTTP page (default 500, at most 1000). */
  readonly pageLimit?: number;
  /** A failed catch-up is tried again after this long (default 1000 ms). */
  readonly retryMs?: number;
  readonly fetch?: typeof fetch;
}

interface Range {
  events: JournaledEvent[];
  next: number | null;
  head: number;
}

export class CatchUpSubscriber {
  /** Every journalSeq ≤ floor has been delivered, or is not an event of ours. */
  private floor: number;
  /** Delivered above the floor. */
  private readonly above = new Set<number>();
  private readonly queue: JournaledEvent[] = [];
  private busy = false;
  private catchUpWanted = false;
  /** The message a catch-up was last run for: if the host's journal does not reach it, it is delivered as it is. */
  private gapFor = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly stat = { fromMqtt: 0, fromHttp: 0, duplicates: 0, catchUps: 0, invalid: 0 };
  private readonly topic: string;
  private readonly fetchFn: typeof fetch;
  private readonly onMessage = (topic: string, payload: Buffer): void => this.handleMessage(topic, payload);
  /**
   * After a reconnect: subscribe again and wait for the SUBACK (MQTT 3.1.1 §3.8.4: from then on
   * the broker forwards), then read the journal. Whatever the broker lost, or received before
   * the subscription stood, is journaled at most at the head that read returns.
   */
  private readonly onConnect = (): void => {
    if (this.closed) return;
    this.opts.client.subscribeAsync(this.topic, { qos: 1 }).then(
      () => this.requestCatchUp(),
      (err: Error) => {
        this.opts.onError?.(err);
        this.requestCatchUp();
      },
    );
  };

  private constructor(
    private readonly opts: CatchUpOptions,
    floor: number,
  ) {
    this.floor = floor;
    this.topic = topicFilter('events', opts.filter);
    this.fetchFn = opts.fetch ?? fetch;
  }

  /** Subscribes (QoS 1), then catches up from `after`; resolves once both are done. */
  static async start(opts: CatchUpOptions): Promise<CatchUpSubscriber> {
    const fetchFn = opts.fetch ?? fetch;
    let floor: number;
    if (opts.after === undefined || opts.after === 'head') floor = (await readRange(fetchFn, opts.apiUrl, { after: 0, limit: 1, filter: opts.filter })).head;
    else floor = opts.after;
    const sub = new CatchUpSubscriber(opts, floor);
    opts.client.on('message', sub.onMessage);
    // After a reconnect: subscribe again, then read from the host what the broker lost meanwhile.
    opts.client.on('connect', sub.onConnect);
    await opts.client.subscribeAsync(sub.topic, { qos: 1 });
    sub.requestCatchUp();
    await sub.settled();
    return sub;
  }

  stats(): CatchUpStats {
    return { ...this.stat };
  }

  /** The journal sequence up to which nothing is missing. */
  get delivered(): number {
    return this.floor;
  }

  /** Reads the host's journal for anything not yet delivered (also called on gaps and reconnects). */
  async catchUp(): Promise<void> {
    this.requestCatchUp();
    await this.settled();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.opts.client.off('message', this.onMessage);
    this.opts.client.off('connect', this.onConnect);
    if (this.opts.client.connected) await this.opts.client.unsubscribeAsync(this.topic).catch(() => undefined);
  }

  private settledWaiters: Array<() => void> = [];
  private settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((r) => this.settledWaiters.push(r));
  }

  private handleMessage(topic: string, payload: Buffer): void {
    if (this.closed) return;
    let event: EventPayload;
    try {
      const addr = parseBoardTopic(topic);
      if (addr.kind !== 'events' || !matches(addr, this.opts.filter)) return;
      event = decodeEvent(payload);
      if (event.journalSeq === undefined) throw new Error('events payload without "journalSeq" (a host older than this helper)');
    } catch (err) {
      this.stat.invalid++;
      this.opts.onError?.(err as Error);
      return;
    }
    this.queue.push(event as JournaledEvent);
    void this.run();
  }

  private requestCatchUp(): void {
    if (this.closed) return;
    this.catchUpWanted = true;
    void this.run();
  }

  /** One worker: messages in arrival order, a catch-up whenever one is wanted, never two at once. */
  private async run(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.closed && (this.catchUpWanted || this.queue.length > 0)) {
        if (this.catchUpWanted) {
          this.catchUpWanted = false;
          await this.readJournal();
          continue;
        }
        const e = this.queue.shift()!;
        if (this.seen(e.journalSeq)) {
          this.stat.duplicates++;
          continue;
        }
        if (e.journalSeq > this.floor + 1 && this.retryTimer === null && this.gapFor !== e.journalSeq) {
          // A gap: what lies between is read from the host first, so delivery stays in journal order.
          this.gapFor = e.journalSeq;
          this.queue.unshift(e);
          this.catchUpWanted = true;
          continue;
        }
        this.deliver(e, 'mqtt');
      }
    } finally {
      this.busy = false;
      const waiters = this.settledWaiters.splice(0);
      for (const w of waiters) w();
    }
  }

  private async readJournal(): Promise<void> {
    this.stat.catchUps++;
    try {
      for (;;) {
        const page = await readRange(this.fetchFn, this.opts.apiUrl, { after: this.floor, limit: this.opts.pageLimit ?? 500, filter: this.opts.filter });
        for (const e of page.events) {
          if (this.seen(e.journalSeq)) this.stat.duplicates++;
          else this.deliver(e, 'http');
        }
        // Nothing of ours is missing up to the page's end (or the head when it is the last page).
        this.raiseFloor(page.next ?? page.head);
        if (page.next === null) break;
      }
    } catch (err) {
      this.opts.onError?.(new Error(`catch-up from ${this.opts.apiUrl} failed (trying again): ${(err as Error).message}`));
      // Meanwhile messages are delivered as they come; the gap is filled when the host answers.
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        this.requestCatchUp();
      }, this.opts.retryMs ?? 1000);
    }
  }

  private seen(seq: number): boolean {
    return seq <= this.floor || this.above.has(seq);
  }

  private deliver(e: JournaledEvent, via: 'mqtt' | 'http'): void {
    this.above.add(e.journalSeq);
    if (via === 'mqtt') this.stat.fromMqtt++;
    else this.stat.fromHttp++;
    while (this.above.delete(this.floor + 1)) this.floor++;
    this.opts.onEvent(e, via);
  }

  private raiseFloor(to: number): void {
    if (to <= this.floor) return;
    this.floor = to;
    for (const s of this.above) if (s <= to) this.above.delete(s);
    while (this.above.delete(this.floor + 1)) this.floor++;
  }
}

/** One page of `GET /api/journal/events` (docs/api.md), checked. */
async function readRange(fetchFn: typeof fetch, apiUrl: string, q: { after: number; limit: number; filter?: Partial<BoardAddress> }): Promise<Range> {
  const url = new URL('/api/journal/events', apiUrl);
  url.searchParams.set('after', String(q.after));
  url.searchParams.set('limit', String(q.limit));
  if (q.filter?.event !== undefined) url.searchParams.set('event', q.filter.event);
  if (q.filter?.round !== undefined) url.searchParams.set('round', String(q.filter.round));
  if (q.filter?.board !== undefined) url.searchParams.set('board', String(q.filter.board));
  const res = await fetchFn(url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url.pathname}${url.search}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { events?: unknown; next?: unknown; head?: unknown };
  if (!Array.isArray(body.events) || !Number.isSafeInteger(body.head) || !(body.next === null || Number.isSafeInteger(body.next))) {
    throw new Error(`GET ${url.pathname}: not a journal range (expected { events, next, head })`);
  }
  const events = body.events.map((e) => {
    const ev = decodeEvent(JSON.stringify({ v: 1, ...(e as object) }));
    if (ev.journalSeq === undefined) throw new Error(`GET ${url.pathname}: an event without "journalSeq"`);
    return ev as JournaledEvent;
  });
  return { events, next: body.next as number | null, head: body.head as number };
}

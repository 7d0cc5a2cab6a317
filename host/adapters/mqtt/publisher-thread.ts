// The MQTT publisher on a thread of its own (docs/mqtt.md "Delivery: from the host to the broker"): the durable-outbox publisher
// (publisher.ts) and its MQTT.js client run in a worker thread (publisher-thread-worker.ts), so
// that publishing, the broker's PUBACKs and the outbox reads leave the host's event loop, which
// takes the clocks' presses. In a hall of 2,000 clocks they were a quarter of what the loop
// allocated and a quarter of what outlived its young generation (docs/benchmarks.md).
//
// What stays here is what only the event loop has: the boards' live states, gathered per board
// for `stateBatchMs` and handed over in one message, and the journal, through which the thread's
// writes go (the delivery marks and retained states, on the journal's writer thread as before).
// The order of duties of publisher.ts is unchanged: a message is sent only once stored, and
// marked only after the broker's PUBACK.
import { Worker } from 'node:worker_threads';
import type { IClientOptions } from 'mqtt';
import type { LiveClockState } from '../../app/ports.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { PublisherStats } from './publisher.ts';
import type { FromPublisherThread, PublisherThreadData, ToPublisherThread } from './publisher-thread-messages.ts';
import { stateTopic, type BoardAddress } from './topics.ts';

/** What the host's MQTT room calls on its publisher, in this thread or on its own. */
export interface HostPublisher {
  /** Sends what others stored in the outbox (the journal drafts each event's message in its own transaction). */
  publishPending(): void;
  /** Stores the board's newest state as its retained state, coalesced (publisher.ts `publishStateSoon`). */
  publishStateSoon(addr: BoardAddress, state: LiveClockState): void;
  stats(): PublisherStats;
  /** Resolves once every stored message has been acknowledged by the broker. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface PublisherThreadOptions {
  readonly journalPath: string;
  /** The journal's outbox store: the thread's writes are made through its asides. */
  readonly outbox: Required<Pick<OutboxStore, 'appendRetainedAside' | 'markDoneAside'>>;
  readonly url: string;
  /** MQTT.js options (plain data: they are copied to the thread). */
  readonly options: IClientOptions;
  /** Default 250, as publisher.ts. */
  readonly stateBatchMs?: number;
  readonly onError?: (err: Error) => void;
}

/** How long the host waits before it starts a publisher thread that died again. */
const RESTART_MS = 1_000;

export class PublisherThread implements HostPublisher {
  private worker: Worker;
  private readonly data: PublisherThreadData;
  private readonly outbox: PublisherThreadOptions['outbox'];
  private readonly onError: (err: Error) => void;
  private readonly stateBatchMs: number;
  private readonly states = new Map<string, { addr: BoardAddress; state: LiveClockState }>();
  private statesTimer: ReturnType<typeof setTimeout> | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private lastStats: PublisherStats = { published: 0, acked: 0, inFlight: 0, pending: 0 };
  private readonly idleWaiters = new Map<number, () => void>();
  private idleN = 0;
  private closing: Promise<void> | null = null;
  private closedResolve: (() => void) | null = null;
  private running = true;
  /** Threads started again after one died (publisher-thread.test.ts). */
  restarts = 0;
  /** The running thread's id on Linux, where it runs at a nice value 10 above the host's (publisher-thread-worker.ts); null elsewhere. */
  tid: number | null;

  private constructor({ worker, tid }: StartedWorker, data: PublisherThreadData, opts: PublisherThreadOptions) {
    this.worker = worker;
    this.tid = tid;
    this.data = data;
    this.outbox = opts.outbox;
    this.onError = opts.onError ?? (() => {});
    this.stateBatchMs = opts.stateBatchMs ?? 250;
    this.attach(worker);
  }

  /** Starts the thread; resolves once it runs (its modules loaded, the journal opened). */
  static async start(opts: PublisherThreadOptions): Promise<PublisherThread> {
    const data: PublisherThreadData = { journalPath: opts.journalPath, url: opts.url, options: opts.options };
    return new PublisherThread(await startWorker(data), data, opts);
  }

  private attach(worker: Worker): void {
    worker.on('message', (m: FromPublisherThread) => this.handle(m, worker));
    worker.on('error', (err) => this.onError(new Error(`MQTT publisher thread: ${err.message}`)));
    worker.on('exit', (code) => {
      this.running = false;
      this.closedResolve?.();
      // A thread that is gone acknowledges nothing more: whoever waits is let go; what is
      // unacknowledged stays in the outbox.
      for (const w of this.idleWaiters.values()) w();
      this.idleWaiters.clear();
      // A thread that died while the host runs (an uncaught error in MQTT.js, say) is started
      // again: it sends what the outbox holds, as at a host's start (docs/mqtt.md "Delivery").
      if (this.closing === null) {
        this.onError(new Error(`MQTT publisher thread stopped (exit code ${code}); starting it again in ${RESTART_MS} ms`));
        this.restartTimer = setTimeout(() => void this.restart(), RESTART_MS);
      }
    });
  }

  private async restart(): Promise<void> {
    this.restartTimer = null;
    if (this.closing !== null) return;
    let started: StartedWorker;
    try {
      started = await startWorker(this.data);
    } catch (err) {
      this.onError(new Error(`MQTT publisher thread did not start again: ${(err as Error).message}; trying again in ${RESTART_MS} ms`));
      this.restartTimer = setTimeout(() => void this.restart(), RESTART_MS);
      return;
    }
    const { worker } = started;
    if (this.closing !== null) {
      await worker.terminate();
      return;
    }
    this.worker = worker;
    this.tid = started.tid;
    this.running = true;
    this.restarts++;
    this.attach(worker);
    this.send({ type: 'pending' });
    this.flushStates();
  }

  publishPending(): void {
    this.send({ type: 'pending' });
  }

  publishStateSoon(addr: BoardAddress, state: LiveClockState): void {
    // The address alone: the caller's `addr` is the board's whole view (host-feed-bridge.ts),
    // which would otherwise be kept here and copied to the thread with the state.
    this.states.set(stateTopic(addr), { addr: { event: addr.event, round: addr.round, board: addr.board }, state });
    this.statesTimer ??= setTimeout(() => this.flushStates(), this.stateBatchMs);
  }

  stats(): PublisherStats {
    return this.lastStats;
  }

  idle(): Promise<void> {
    this.flushStates();
    if (!this.running) return Promise.resolve();
    const k = ++this.idleN;
    return new Promise<void>((resolve) => {
      this.idleWaiters.set(k, resolve);
      this.send({ type: 'idle', k });
    });
  }

  /** Stops the thread once it has closed its connection and its last delivery marks are written. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.flushStates();
      if (this.restartTimer) clearTimeout(this.restartTimer);
      if (!this.running) return;
      const closed = new Promise<void>((resolve) => (this.closedResolve = resolve));
      this.send({ type: 'close' });
      await closed;
      await this.worker.terminate();
    })();
    return this.closing;
  }

  /** Ends the thread at once (a close that took too long): what is unacknowledged stays in the outbox. */
  forceClose(): void {
    this.closing ??= Promise.resolve();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    void this.worker.terminate();
  }

  private flushStates(): void {
    if (this.statesTimer) clearTimeout(this.statesTimer);
    this.statesTimer = null;
    // While a thread is started again the boards' newest states wait here for it.
    if (this.states.size === 0 || !this.running) return;
    const states = [...this.states.values()];
    this.states.clear();
    this.send({ type: 'states', states });
  }

  private send(m: ToPublisherThread): void {
    if (this.running) this.worker.postMessage(m);
  }

  private handle(m: FromPublisherThread, from: Worker): void {
    switch (m.type) {
      case 'write': {
        // A write asked by a thread that died since is still made (marks of PUBACKs received,
        // states to retain); only its answer is dropped, for the thread now running numbers its own.
        const answer = (error: string | null) => {
          if (from === this.worker && this.running) from.postMessage({ type: 'written', k: m.k, error } satisfies ToPublisherThread);
        };
        const write = m.marks ? this.outbox.markDoneAside(m.marks) : this.outbox.appendRetainedAside(m.rows ?? []);
        write.then(
          () => answer(null),
          (err: Error) => answer(err.message),
        );
        break;
      }
      case 'stats':
        this.lastStats = m.stats;
        break;
      case 'idle':
        this.lastStats = m.stats;
        this.idleWaiters.get(m.k)?.();
        this.idleWaiters.delete(m.k);
        break;
      case 'error':
        this.onError(new Error(m.message));
        break;
      case 'closed':
        this.closedResolve?.();
        break;
      case 'ready':
        break;
    }
  }
}

interface StartedWorker {
  readonly worker: Worker;
  readonly tid: number | null;
}

/** A publisher thread, once it runs (its modules loaded, the journal opened). */
async function startWorker(data: PublisherThreadData): Promise<StartedWorker> {
  const worker = new Worker(new URL('./publisher-thread.mjs', import.meta.url), { workerData: data });
  return new Promise<StartedWorker>((resolve, reject) => {
    const onMessage = (m: FromPublisherThread) => {
      if (m.type !== 'ready') return;
      worker.off('error', reject);
      worker.off('message', onMessage);
      resolve({ worker, tid: m.tid });
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

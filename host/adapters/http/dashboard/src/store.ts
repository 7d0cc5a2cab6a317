// The live board store of the dashboard's pages: every board as the host shows it (BoardView,
// host/app/ports.ts), from the live feed /ws (docs/api.md "Live feed": a `hello` with every
// board, then one `event` or `board` message per change), and the host's clock.
//
// Listeners are told once per animation frame which boards changed, however many messages
// arrived in between (a hall of 200 clocks sends hundreds a second; the screen changes 60 times
// a second at most). The store computes nothing about a clock: the rule book does (rules/),
// from the figures it holds.
import type { BoardView } from '../../../../app/ports.ts';

/** What changed since the last notification. */
export interface StoreChange {
  /** Ids of the boards that changed (added or updated); every board after a `hello` (reset). */
  readonly ids: ReadonlySet<string>;
  /** True after a (re)connection's hello: the whole board list was replaced. */
  readonly reset: boolean;
  /** Each changed board as it was before this frame's first change (undefined: new, or after a reset). */
  readonly before: ReadonlyMap<string, BoardView | undefined>;
}

export type StoreListener = (change: StoreChange) => void;

/** A `team-match` message of the feed (a captain's or the arbiter's mark), passed on as it came. */
export type FeedListener = (message: { readonly type: string; readonly [key: string]: unknown }) => void;

export type ConnectionState = 'connecting' | 'live' | 'down';

/** Schedules `fn` for the next frame; a page in the background (no frames) still catches up within a second. */
function nextFrame(fn: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  setTimeout(run, 1000);
}

export class BoardStore {
  readonly boards = new Map<string, BoardView>();
  /** Host UTC and browser UTC at the last hello (ms), and host ms per browser ms (a simulated hall on accelerated time runs faster than 1). */
  private hostAtHelloMs = Date.now();
  private browserAtHelloMs = this.hostAtHelloMs;
  private timeRate = 1;
  private readonly listeners = new Set<StoreListener>();
  private readonly feedListeners = new Set<FeedListener>();
  private pending = new Map<string, BoardView | undefined>();
  private pendingReset = false;
  private scheduled = false;
  private retryMs = 500;

  /** The host's UTC now: the hello's `serverUtcMs`, advanced at the hall's `timeRate`. */
  hostNowMs(): number {
    return this.hostAtHelloMs + (Date.now() - this.browserAtHelloMs) * this.timeRate;
  }

  get(id: string): BoardView | undefined {
    return this.boards.get(id);
  }

  /** Called once per animation frame with the boards that changed; returns the unsubscribe. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Feed messages other than boards (`team-match`). */
  onFeed(listener: FeedListener): () => void {
    this.feedListeners.add(listener);
    return () => this.feedListeners.delete(listener);
  }

  /** A board as the API answered a command with it (the feed's copy then looks unchanged). */
  set(board: BoardView): void {
    const before = this.boards.get(board.id);
    this.boards.set(board.id, board);
    this.changed(board.id, before);
  }

  /** Folds one feed message in (exported for tests and benchmarks: the page calls it per WebSocket message). */
  receive(m: { type: string; [key: string]: unknown }): void {
    if (m.type === 'hello') {
      this.hostAtHelloMs = m.serverUtcMs as number;
      this.browserAtHelloMs = Date.now();
      const rate = m.timeRate as number;
      this.timeRate = rate > 0 ? rate : 1;
      this.boards.clear();
      for (const b of m.boards as BoardView[]) this.boards.set(b.id, b);
      this.pending.clear();
      this.pendingReset = true;
      for (const id of this.boards.keys()) this.pending.set(id, undefined);
      this.schedule();
    } else if ((m.type === 'event' || m.type === 'board') && m.board) {
      this.set(m.board as BoardView);
    } else {
      for (const l of this.feedListeners) l(m);
    }
  }

  /** Follows /ws, reconnecting with a growing pause (0.5 s to 10 s); `onState` paints the badge. */
  connect(onState: (state: ConnectionState, text: string) => void = () => {}): void {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    ws.onopen = () => {
      this.retryMs = 500;
      onState('live', 'live');
    };
    ws.onmessage = (msg) => this.receive(JSON.parse(msg.data as string));
    ws.onclose = () => {
      onState('down', 'disconnected: reconnecting…');
      setTimeout(() => this.connect(onState), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    };
  }

  private changed(id: string, before: BoardView | undefined): void {
    if (!this.pending.has(id)) this.pending.set(id, before);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    nextFrame(() => this.flush());
  }

  /** Tells the listeners now (the next frame does it otherwise). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0 && !this.pendingReset) return;
    const change: StoreChange = { ids: new Set(this.pending.keys()), reset: this.pendingReset, before: this.pending };
    this.pending = new Map();
    this.pendingReset = false;
    for (const l of this.listeners) l(change);
  }
}

/** The page's one store. */
export const store = new BoardStore();

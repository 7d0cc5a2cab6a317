// The live board store (docs/dashboard.md: fluid with 200 boards and 500 clock events/s): however many
// feed messages arrive between two frames, the listeners hear once, with each changed board once
// and its view before the frame's first change; a hello replaces every board (docs/api.md "Live feed").
import { describe, expect, it } from 'vitest';
import type { BoardView } from '../../../../app/ports.ts';
import { BoardStore, type StoreChange } from './store.ts';

const board = (n: number, moves = 0): BoardView => ({
  id: `b${n}`,
  event: 'e',
  round: 1,
  board: n,
  clockId: `c${n}`,
  white: null,
  black: null,
  timeControl: null,
  live: moves ? ({ moves: { white: moves, black: 0 } } as BoardView['live']) : null,
  result: null,
  resultConfirmed: false,
});

describe('BoardStore', () => {
  it('tells its listeners once per frame, each changed board once, with its view before the frame', () => {
    const store = new BoardStore();
    const heard: StoreChange[] = [];
    store.subscribe((c) => heard.push(c));
    store.receive({ type: 'hello', serverUtcMs: 1_000, timeRate: 1, boards: [board(1), board(2), board(3)] });
    store.flush();
    expect(heard).toHaveLength(1);
    expect(heard[0].reset).toBe(true);
    expect([...heard[0].ids]).toEqual(['b1', 'b2', 'b3']);
    // 500 events for two boards within one frame: one notification.
    for (let i = 1; i <= 500; i++) store.receive({ type: 'event', board: board(i % 2 ? 1 : 2, i) });
    store.flush();
    expect(heard).toHaveLength(2);
    expect(heard[1].reset).toBe(false);
    expect([...heard[1].ids].sort()).toEqual(['b1', 'b2']);
    expect(heard[1].before.get('b1')!.live).toBeNull(); // as it was before this frame
    expect(store.get('b1')!.live!.moves.white).toBe(499);
    expect(store.get('b2')!.live!.moves.white).toBe(500);
    // Nothing new: no notification.
    store.flush();
    expect(heard).toHaveLength(2);
  });

  it('passes other feed messages on (a team match mark) and keeps the host clock from the hello', () => {
    const store = new BoardStore();
    const other: unknown[] = [];
    store.onFeed((m) => other.push(m));
    store.receive({ type: 'hello', serverUtcMs: 5_000_000, timeRate: 10, boards: [] });
    store.receive({ type: 'team-match', match: { id: 'm1' } });
    expect(other).toEqual([{ type: 'team-match', match: { id: 'm1' } }]);
    const now = store.hostNowMs();
    // Host time = the hello's serverUtcMs advanced at its rate (10 host ms per browser ms here).
    expect(now).toBeGreaterThanOrEqual(5_000_000);
    expect(now).toBeLessThan(5_000_000 + 10 * 1000);
  });
});

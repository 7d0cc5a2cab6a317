// One board view (board-views.ts): GET, the /ws hello, each /ws event, each /ws board message
// and MQTT all carry the view one module builds — with whether the clock is connected and the
// line's health — so whichever reached a reader last says everything the others did.
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkFigures } from '../clocks/clock-session.ts';
import { JournalBoards } from './journal-boards.fixture.ts';
import type { BoardView } from './ports.ts';

const LINE: LinkFigures = { framesDropped: 2, crcFailures: 1, retransmits: 3, duplicatesReceived: 0, rttMs: 12, connections: 1 };

/** The clock fleet as the views see it: which clocks are connected, with their lines' health. */
class Fleet {
  readonly online = new Map<string, boolean>();
  presence(clockId: string): { online: boolean; link?: LinkFigures } {
    return this.online.has(clockId) ? { online: this.online.get(clockId)!, link: LINE } : { online: false };
  }
}

const opened: JournalBoards[] = [];
afterEach(() => opened.splice(0).forEach((h) => h.close()));

function hall(fleet?: Fleet): JournalBoards {
  const h = new JournalBoards({ nowUtcMs: () => 1_750_000_000_000, ...(fleet ? { clocks: fleet } : {}) });
  opened.push(h);
  h.addBoard({ event: 'Final', board: 1, clockId: 'clk-1', timeControl: 'rapid' });
  h.addBoard({ event: 'Final', board: 2, clockId: 'clk-2', timeControl: 'rapid' });
  return h;
}

let seq = 0;
const press = (clockId: string, type = 'started') => ({
  clockId,
  bootId: 'b1',
  seq: ++seq,
  type,
  side: null,
  move: null,
  whiteMs: 910_000,
  blackMs: 910_000,
  monoMs: seq * 1000,
  utcMs: 1_750_000_000_000 + seq * 1000,
});

describe('one board view on every path', () => {
  it("the feed's board is GET's board: clockOnline and link included", () => {
    const fleet = new Fleet();
    fleet.online.set('clk-1', true);
    fleet.online.set('clk-2', false);
    const h = hall(fleet);
    const fed: BoardView[] = [];
    h.subscribe((_e, board) => board && fed.push(board));
    h.ingest(press('clk-1'));
    expect(fed).toHaveLength(1);
    expect(fed[0]).toEqual(h.board('final-1'));
    expect(fed[0]).toEqual(h.boards().find((b) => b.id === 'final-1'));
    expect(fed[0]).toMatchObject({ clockOnline: true, link: LINE, live: { status: 'running' } });
    // The other board's clock is away: GET says so, and so would its next event.
    expect(h.board('final-2')).toMatchObject({ clockOnline: false, link: LINE });
  });

  it('a clock connected or lost goes out through watchBoards: its boards only, once per turn, with the view GET gives', async () => {
    const fleet = new Fleet();
    fleet.online.set('clk-1', true);
    fleet.online.set('clk-2', true);
    const h = hall(fleet);
    const told: BoardView[] = [];
    h.watchBoards((board) => told.push(board));
    fleet.online.set('clk-2', false);
    h.views.clockChanged('clk-2');
    h.views.clockChanged('clk-2');
    expect(told).toEqual([]); // after the change settled
    await new Promise((r) => setTimeout(r, 5));
    expect(told).toEqual([h.board('final-2')]);
    expect(told[0].clockOnline).toBe(false);
    // A press on the other board carries that board, and the offline one keeps what it said.
    const fed: BoardView[] = [];
    h.subscribe((_e, board) => board && fed.push(board));
    h.ingest(press('clk-1'));
    expect(fed.map((b) => [b.id, b.clockOnline])).toEqual([['final-1', true]]);
    expect(h.board('final-2')!.clockOnline).toBe(false);
  });

  it('a restore from the journal shows on the board and goes out through watchBoards', async () => {
    const fleet = new Fleet();
    fleet.online.set('clk-1', true);
    const h = hall(fleet);
    const told: BoardView[] = [];
    h.watchBoards((board) => told.push(board));
    const note = {
      utcMs: 1_750_000_100_000,
      clockId: 'clk-1',
      outcome: 'restored' as const,
      differences: ['white 1:00:00 on the clock, 59:30 in the journal'],
      mismatches: [],
    };
    h.setRestore('final-1', note);
    expect(h.board('final-1')!.restore).toEqual(note);
    await new Promise((r) => setTimeout(r, 5));
    expect(told.map((b) => [b.id, b.restore])).toEqual([['final-1', note]]);
  });

  it('an arbiter\'s accepted command goes out through watchBoards before it is answered; a refused one says nothing (docs/api.md "Embedding: `buildApi(deps)`")', async () => {
    const h = hall();
    const told: BoardView[] = [];
    h.watchBoards((board) => told.push(board));
    h.ingest(press('clk-1'));
    const out = await h.execute({ type: 'result', boardId: 'final-1', result: '1-0' }, { arbiter: 'Anna (IA)' });
    expect(out.ok).toBe(true);
    expect(told.map((b) => [b.id, b.result])).toEqual([['final-1', '1-0']]);
    expect(told[0]).toEqual(h.board('final-1'));
    // A clock command to a game with a result is refused (FIDE Laws 6.9 / docs/api.md "A game with a result").
    const refused = await h.execute({ type: 'pause', boardId: 'final-1' }, { arbiter: 'Anna (IA)' });
    expect(refused).toMatchObject({ ok: false, status: 409 });
    expect(told).toHaveLength(1);
  });

  it('a host with no clock lines says nothing of them (clockOnline absent: the dashboard lists no board as offline)', () => {
    const h = hall();
    const fed: BoardView[] = [];
    h.subscribe((_e, board) => board && fed.push(board));
    h.ingest(press('clk-1'));
    expect(fed[0]).toEqual(h.board('final-1'));
    expect(fed[0]).not.toHaveProperty('clockOnline');
    expect(fed[0]).not.toHaveProperty('link');
  });
});

// Default time 0 without a trap (FIDE Laws 6.7.1: a player who arrives after the default time
// loses; with 0, a player not marked present when the clock starts loses at once): before such
// a start the page asks who is at the board and sends their arrivals first. The boards are the
// host's views of the unchanged clock statechart (test/browser-harness.ts SimulatedBoard), and
// the arrivals the answer asks for are given to that statechart before its START, so each test
// shows what the question saves a seated player from.
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { presetTimeControl, type TimeControl } from '../../../../../protocol/time-control.ts';
import { JournalBoards } from '../../../../app/journal-boards.fixture.ts';
import { boardIdOf } from '../../../../app/board-views.ts';
import type { BoardView } from '../../../../app/ports.ts';
import { SimulatedBoard } from '../../../../../test/browser-harness.ts';
import { answeredAction, requestsOf } from './actions.ts';
import { confirmationOf } from './confirmations.ts';
import { absentAtZeroDefault, roundArrivals, roundPresenceQuestion, startPresenceQuestion } from './presence.ts';

const T0 = Date.UTC(2026, 2, 14, 9, 0, 0);
const EVENT = 'Ivanovo Team Ch. 2018';

const hosts: JournalBoards[] = [];
afterEach(() => hosts.splice(0).forEach((h) => h.close()));

/** Boards of one round on the real statechart. */
function round(...controls: TimeControl[]) {
  const time = new SimulatedClock();
  const host = new JournalBoards({ nowUtcMs: () => T0 + time.now() });
  hosts.push(host);
  const clocks = controls.map((control, i) => {
    const board = i + 1;
    host.addBoard({ event: EVENT, round: 3, board, clockId: `clk-${board}`, white: { name: `White ${board}` }, black: { name: `Black ${board}` }, control });
    return new SimulatedBoard(host, time, T0, `clk-${board}`, { event: EVENT, round: 3, board }, control);
  });
  return { host, clocks, board: (n: number): BoardView => host.board(boardIdOf(EVENT, n))! };
}

const zero = () => presetTimeControl('sudden-death-60', { defaultTime: 0 });

describe('Start at a default time of 0 asks who is at the board (FIDE Laws 6.7.1)', () => {
  it('without the question, a start forfeits a seated player nobody marked present: the trap', () => {
    const r = round(zero());
    r.clocks[0].send({ type: 'START', at: 0 });
    expect(r.board(1).live!.status).toBe('forfeited');
  });

  it("asks with both players preselected; the answer's arrivals go before the start, and the game runs", () => {
    const r = round(zero());
    const b = r.board(1);
    expect(absentAtZeroDefault(b)).toEqual(['white', 'black']);
    const c = confirmationOf(b, { kind: 'start' }, T0)!;
    expect(c).toEqual(startPresenceQuestion(b));
    expect(c.title).toBe('Start board 1: who is at the board?');
    expect(c.choice!.options.map((o) => [o.value, o.label, o.checked])).toEqual([
      ['both', 'Both players are at the board', true],
      ['white', 'White only', false],
      ['black', 'Black only', false],
      ['neither', 'Neither player', false],
    ]);
    expect(c.choice!.options[1].lines).toEqual([
      'White (White 1) is marked present, then the clock starts',
      'Black (Black 1) loses by default at the start (FIDE Laws 6.7.1)',
    ]);
    const action = answeredAction(b, { kind: 'start' }, ['both'], '');
    expect(requestsOf('b1', action)).toEqual([
      ['POST', '/api/boards/b1/arrive', { side: 'white' }],
      ['POST', '/api/boards/b1/arrive', { side: 'black' }],
      ['POST', '/api/boards/b1/start'],
    ]);
    // The clock given those calls in that order: both present, the game runs.
    r.clocks[0].send({ type: 'ARRIVE', side: 'white', at: 0 });
    r.clocks[0].send({ type: 'ARRIVE', side: 'black', at: 0 });
    r.clocks[0].send({ type: 'START', at: 0 });
    expect(r.board(1).live).toMatchObject({ status: 'running', present: { white: true, black: true } });
  });

  it('"White only" marks White present and lets Black lose by default at the start, as the arbiter chose', () => {
    const r = round(zero());
    const action = answeredAction(r.board(1), { kind: 'start' }, ['white'], '');
    expect(requestsOf('b1', action).map((q) => q[1])).toEqual(['/api/boards/b1/arrive', '/api/boards/b1/start']);
    r.clocks[0].send({ type: 'ARRIVE', side: 'white', at: 0 });
    r.clocks[0].send({ type: 'START', at: 0 });
    expect(r.board(1).live!.status).toBe('forfeited');
    expect(r.board(1).live!.present).toEqual({ white: true, black: false });
  });

  it('a side already marked present stays present: only the answers that include it are offered, and it is not sent again', () => {
    const r = round(zero());
    r.clocks[0].send({ type: 'ARRIVE', side: 'black', at: 0 }); // Black pressed the lever while ready
    const b = r.board(1);
    expect(absentAtZeroDefault(b)).toEqual(['white']);
    expect(startPresenceQuestion(b)!.choice!.options.map((o) => o.value)).toEqual(['both', 'black']);
    expect(requestsOf('b1', answeredAction(b, { kind: 'start' }, ['both'], '')).map((q) => q[2])).toEqual([{ side: 'white' }, undefined]);
  });

  it('asks nothing at another default time, or with both players marked present: Start is sent at once', () => {
    const r = round(presetTimeControl('sudden-death-60', { defaultTime: 900 }), zero());
    expect(confirmationOf(r.board(1), { kind: 'start' }, T0)).toBeNull();
    r.clocks[1].send({ type: 'ARRIVE', side: 'white', at: 0 });
    r.clocks[1].send({ type: 'ARRIVE', side: 'black', at: 0 });
    expect(confirmationOf(r.board(2), { kind: 'start' }, T0)).toBeNull();
    expect(requestsOf('b2', { kind: 'start' })).toEqual([['POST', '/api/boards/b2/start']]);
  });

  it('reads the default time in force: a control corrected to a default time of 0 asks (FIDE Laws 6.10.2)', () => {
    const r = round(presetTimeControl('sudden-death-60', { defaultTime: 900 }));
    r.clocks[0].send({ type: 'SET_CONTROL', timeControl: zero(), at: 0 });
    expect(absentAtZeroDefault(r.board(1))).toEqual(['white', 'black']);
  });
});

describe('Start round at a default time of 0: one question for the round', () => {
  it('lists every player a default time of 0 would forfeit, board by board, all ticked; boards without it are not listed', () => {
    const r = round(zero(), presetTimeControl('sudden-death-60', { defaultTime: 900 }), zero());
    r.clocks[2].send({ type: 'ARRIVE', side: 'white', at: 0 });
    const q = roundPresenceQuestion(EVENT, 3, [r.board(1), r.board(2), r.board(3)])!;
    expect(q.title).toBe(`Start round 3 of ${EVENT}: is everyone seated?`);
    expect(q.changes).toEqual(['2 boards with a default time of 0: 3 players not yet marked present']);
    expect(q.choice!.multiple).toBe(true);
    expect(q.choice!.options.map((o) => [o.label, o.checked])).toEqual([
      ['Board 1 · White (White 1)', true],
      ['Board 1 · Black (Black 1)', true],
      ['Board 3 · Black (Black 3)', true],
    ]);
    // The arbiter unticks Black on board 3, who is not at the board.
    const ticked = q.choice!.options.filter((o) => o.label !== 'Board 3 · Black (Black 3)').map((o) => o.value);
    expect(roundArrivals(ticked)).toEqual([
      { boardId: r.board(1).id, side: 'white' },
      { boardId: r.board(1).id, side: 'black' },
    ]);
  });

  it('asks nothing when no board of the round has a player a default time of 0 would forfeit', () => {
    const r = round(presetTimeControl('sudden-death-60', { defaultTime: 900 }));
    expect(roundPresenceQuestion(EVENT, 3, [r.board(1)])).toBeNull();
  });
});

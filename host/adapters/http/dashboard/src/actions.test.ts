// The panel's pure parts (docs/dashboard.md: careful actions ask first): what a confirmation says will change is
// what the clock then shows. Each figure is checked against the real clock statechart
// (rules/clock.machine.ts) given the same command at the same instant, and read with the clock's
// own display rule; the refusals are the rule book's, with the host's words for a board without a
// clock (host/app/host.ts answers 503 for it).
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { BoardView, LiveClockState } from '../../../../app/ports.ts';
import { clockMachine, type ClockInput } from '../../../../../rules/clock.machine.ts';
import { readClock } from '../../../../../rules/clock-reading.ts';
import { clockBasis } from '../../../../../rules/clock-snapshot.ts';
import { boardCommandRefusal } from '../../../../../rules/command-rules.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { parseSideControl, presetTimeControl, timeControl, type Side } from '../../../../../protocol/time-control.ts';
import { gameOf, messageFor, refusalOf, requestOf, resultButtonText } from './actions.ts';
import { confirmationOf } from './confirmations.ts';

const T0 = Date.UTC(2025, 5, 15, 12);

/** A clock on the real statechart, and the board the host would show for it after its last event. */
function hall(preset: string) {
  const time = new SimulatedClock();
  // 'blitz': 5 minutes each, no increment (a blitz category: FIDE Laws A.1).
  const control = preset === 'blitz' ? timeControl(parseSideControl('300'), parseSideControl('300')) : presetTimeControl(preset);
  const actor = createActor(clockMachine, { input: { timeControl: control }, clock: time });
  actor.start();
  const send = (input: ClockInput) => actor.send(input);
  /** The BoardView as of hall time `at` (the host's view after the clock's last event then). */
  const board = (at: number, extra: Partial<BoardView> = {}): BoardView => {
    const state = actor.getSnapshot().context.clock;
    const r = readClock(state, at);
    const live = {
      clockId: 'clk-3',
      bootId: 'b',
      seq: 1,
      status: r.status,
      turn: state.turn,
      whiteMs: r.white,
      blackMs: r.black,
      atUtcMs: T0 + at,
      moves: { white: state.white.moves, black: state.black.moves },
      flag: null,
      flags: [],
      period: { white: 1, black: 1 },
      present: { white: true, black: true },
      startedAtUtcMs: T0,
      illegalMoves: { white: 0, black: 0 },
      clock: clockBasis(state, at),
    } as unknown as LiveClockState;
    return {
      id: 'b3',
      event: 'Final',
      round: 1,
      board: 3,
      clockId: 'clk-3',
      clockOnline: true,
      white: { name: 'Novak' },
      black: { name: 'Lenič' },
      timeControl: 'x',
      live,
      result: null,
      resultConfirmed: false,
      ...extra,
    };
  };
  const shows = (side: Side, at: number) => formatClockTime(readClock(actor.getSnapshot().context.clock, at)[side]);
  return { time, send, board, shows, actor };
}

describe('confirmationOf: the figures before → after are what the clock then shows', () => {
  it('−1 min for White while White thinks (an arbiter adjustment): "Board 3, White (Novak): 4:32 → 3:32"', () => {
    const h = hall('blitz');
    h.send({ type: 'START', at: 0 });
    const reportAt = 0;
    const board = h.board(reportAt);
    // 28 s later, White still thinking; the page computes the time from the report (rule book).
    const now = 28_000;
    const c = confirmationOf(board, { kind: 'adjust', side: 'white', ms: -60_000 }, T0 + now)!;
    expect(c.changes).toEqual(['Board 3, White (Novak): 4:32 → 3:32']);
    expect(c.title).toBe('Take 1:00 from White on board 3?');
    // The clock given the same command at the same instant shows exactly that.
    expect(h.shows('white', now)).toBe('4:32');
    h.time.set(now);
    h.send({ type: 'ADJUST', side: 'white', ms: -60_000, at: now });
    expect(h.shows('white', now)).toBe('3:32');
  });

  it('more than is left is taken only down to 0, and the confirmation says so', () => {
    const h = hall('blitz');
    h.send({ type: 'START', at: 0 });
    const c = confirmationOf(h.board(0), { kind: 'adjust', side: 'black', ms: -400_000 }, T0 + 1000)!;
    expect(c.changes[0]).toBe('Board 3, Black (Lenič): 5:00 → 0.0 (no more than the 5:00 left: −5:00)');
  });

  it("a penalty for White's illegal move goes to Black, the opponent (FIDE Laws 7.5.5: 2 min in a standard game, 1 min in rapid or blitz)", () => {
    for (const [preset, added] of [
      ['classical', '+2:00'],
      ['blitz', '+1:00'],
    ] as const) {
      const h = hall(preset);
      h.send({ type: 'START', at: 0 });
      h.time.set(10_000);
      h.send({ type: 'PRESS', side: 'white', at: 10_000 });
      h.time.set(20_000);
      h.send({ type: 'PAUSE', at: 20_000 });
      const board = h.board(20_000);
      const c = confirmationOf(board, { kind: 'penalty', side: 'white' }, T0 + 25_000)!;
      const before = h.shows('black', 25_000);
      h.time.set(25_000);
      h.send({ type: 'PENALTY', side: 'white', at: 25_000 });
      expect(c.changes).toEqual([`Board 3, Black (Lenič): ${before} → ${h.shows('black', 25_000)} (${added})`]);
      expect(c.note).toContain('FIDE Laws 7.5.5');
    }
  });

  it('a move-counter correction that reaches the next period says the time it credits (FIDE Laws 6.10.2)', () => {
    const h = hall('classical'); // 90 min / 40 moves + 15 min, 30 s per move
    h.send({ type: 'START', at: 0 });
    h.time.set(5000);
    h.send({ type: 'PAUSE', at: 5000 });
    const c = confirmationOf(h.board(5000), { kind: 'set-moves', side: 'white', moves: 40 }, T0 + 6000)!;
    h.time.set(6000);
    h.send({ type: 'SET_MOVES', side: 'white', moves: 40, at: 6000 });
    expect(c.changes[0]).toBe('Board 3, White (Novak): moves #0 → #40');
    expect(c.changes[1]).toMatch(/^Board 3, White \(Novak\): \S+ → (\S+) \(the next period's 15:00 credited\)$/);
    expect(c.changes[1].split(' → ')[1].split(' ')[0]).toBe(h.shows('white', 6000));
  });

  it('start, pause, resume, confirm and a first result are sent without asking; a correction asks, and a confirmed one asks for a reason', () => {
    const h = hall('blitz');
    const board = h.board(0);
    for (const kind of ['start', 'pause', 'resume', 'confirm'] as const) expect(confirmationOf(board, { kind }, T0)).toBeNull();
    expect(confirmationOf(board, { kind: 'result', result: '1-0' }, T0)).toBeNull();
    expect(resultButtonText(board)).toBe('Enter result'); // the first entry is not a correction (docs/dashboard.md: careful actions ask first)
    const entered = { ...board, result: '1-0' };
    expect(resultButtonText(entered)).toBe('Correct result');
    expect(confirmationOf(entered, { kind: 'result', result: '0-1' }, T0)).toMatchObject({ changes: ['Board 3: 1-0 → 0-1 (unconfirmed)'], needsReason: false });
    expect(confirmationOf({ ...entered, resultConfirmed: true }, { kind: 'result', result: '--' }, T0)).toMatchObject({
      changes: ['Board 3: 1-0 (confirmed) → −− (both forfeit) (unconfirmed)'],
      needsReason: true,
    });
  });

  it('a take-back names the move it annuls and the illegal move it counts (FIDE Laws 7.5.1 with 7.5.5)', () => {
    const h = hall('blitz');
    h.send({ type: 'START', at: 0 });
    h.time.set(3000);
    h.send({ type: 'PRESS', side: 'white', at: 3000 });
    h.send({ type: 'PAUSE', at: 3000 });
    const c = confirmationOf(h.board(3000), { kind: 'takeback', times: 'rewind' }, T0 + 4000)!;
    expect(c.title).toBe("Take back White's last move (#1) on board 3?");
    expect(c.changes).toEqual([
      'Board 3, White (Novak): moves #1 → #0, on move again',
      'Board 3, White (Novak): counted as an illegal move (0 recorded so far; a penalty for this same move does not count it again)',
    ]);
  });
});

/** A board of `preset` whose clock was started and paused. */
function hallPaused(preset: string): BoardView {
  const h = hall(preset);
  h.send({ type: 'START', at: 0 });
  h.send({ type: 'PAUSE', at: 1000 });
  return h.board(1000);
}

describe('refusalOf: which controls a board takes now, and why not', () => {
  it('follows the rule book for a board with a clock (rules/command-rules.ts)', () => {
    const h = hall('blitz');
    h.send({ type: 'START', at: 0 });
    const board = h.board(0);
    for (const kind of ['start', 'pause', 'resume', 'takeback', 'reinstate', 'penalty'] as const) {
      expect(refusalOf(kind, board), kind).toBe(boardCommandRefusal(kind, board, { movesCompleted: 0 }));
    }
    expect(refusalOf('pause', board)).toBeNull();
    expect(refusalOf('start', board)).toBe('board 3 of Final round 1 is running, not ready: only a clock that has not started can be started');
  });

  it("FIDE Guidelines III.2.2: no quickplay increment in blitz, by the control in force, in the host's words", () => {
    const h = hall('blitz');
    h.send({ type: 'START', at: 0 });
    h.send({ type: 'PAUSE', at: 1000 });
    expect(refusalOf('increment', h.board(1000))).toBe(
      'board 3 of Final round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only',
    );
    expect(refusalOf('increment', hallPaused('rapid'))).toBeNull();
  });

  it("a board with no clock refuses every clock command in the host's words (no Start that would answer 503); its result can still be entered", () => {
    const board: BoardView = {
      id: 'b9',
      event: 'Final',
      round: 1,
      board: 9,
      clockId: null,
      white: { name: 'A' },
      black: { name: 'B' },
      timeControl: '900+10',
      live: null,
      result: null,
      resultConfirmed: false,
    };
    expect(refusalOf('start', board)).toBe('board 9 of Final round 1 has no clock assigned');
    expect(refusalOf('adjust', board)).toBe('board 9 of Final round 1 has no clock assigned');
    expect(refusalOf('result', board)).toBeNull();
    expect(refusalOf('confirm', board)).toBe('board 9 of Final round 1 has no result to confirm');
  });

  it('an offline clock refuses clock commands, saying so', () => {
    const h = hall('blitz');
    const board = h.board(0, { clockOnline: false });
    expect(refusalOf('start', board)).toBe('clock clk-3 of board 3 of Final round 1 is offline: nothing can be changed on it');
  });

  it('a final result cannot be corrected; a confirmed one cannot be confirmed again', () => {
    const h = hall('blitz');
    expect(refusalOf('result', h.board(0, { result: '1-0', resultConfirmed: true, resultFinal: true }))).toBe(
      'the result of board 3 of Final round 1 is final (the appeal time is over)',
    );
    expect(refusalOf('confirm', h.board(0, { result: '1-0', resultConfirmed: true }))).toBe('the result of board 3 of Final round 1 is confirmed');
  });
});

describe('requestOf: the API call of each action (docs/api.md)', () => {
  it('builds the documented routes and bodies', () => {
    expect(requestOf('b 3', { kind: 'adjust', side: 'white', ms: -60_000 })).toEqual(['POST', '/api/boards/b%203/adjust', { side: 'white', ms: -60_000 }]);
    expect(requestOf('b3', { kind: 'penalty', side: 'black' })).toEqual(['POST', '/api/boards/b3/penalty', { side: 'black' }]);
    expect(requestOf('b3', { kind: 'set-moves', side: 'black', moves: 38 })).toEqual(['POST', '/api/boards/b3/moves', { side: 'black', moves: 38 }]);
    expect(requestOf('b3', { kind: 'result', result: '0-1', reason: 'scoresheets' })).toEqual([
      'PUT',
      '/api/boards/b3/result',
      { result: '0-1', reason: 'scoresheets' },
    ]);
    expect(requestOf('b3', { kind: 'confirm' })).toEqual(['POST', '/api/boards/b3/result/confirm']);
  });
});

describe('messageFor: an action message belongs to the game it was about (docs/dashboard.md: messages belong to a game)', () => {
  it('stays while the board plays the same game, whatever its clock does; goes with a new round or a new game of the mini-match', () => {
    const h = hall('blitz');
    const b = h.board(0);
    const m = { game: gameOf(b), kind: 'ok' as const, text: 'Pause: done by Anna' };
    expect(messageFor(m, b)).toBe(m);
    expect(messageFor(m, { ...b, result: '1-0' })).toBe(m);
    expect(messageFor(m, { ...b, round: 2 })).toBeNull();
    expect(messageFor(m, { ...b, game: { no: 2, kind: 'rapid', matchId: 'm' } })).toBeNull();
    expect(messageFor(undefined, b)).toBeNull();
  });
});

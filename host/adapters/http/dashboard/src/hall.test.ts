// The hall view's pure parts (docs/dashboard.md "The hall view (`/`) and its side panel"): the filter kept in the URL, jumping
// to a board by number or player, the line's view model (times by the rule book's display rule,
// FIDE equipment standard: rounded up), and when a chart image is asked for again.
import { describe, expect, it } from 'vitest';
import type { BoardView, LiveClockState } from '../../../../app/ports.ts';
import { startClock } from '../../../../../rules/clock-core.ts';
import { initialClock } from '../../../../../rules/clock-state.ts';
import { clockBasis } from '../../../../../rules/clock-snapshot.ts';
import { parseSideControl, timeControl } from '../../../../../protocol/time-control.ts';
import { chartKey, chartUrl } from './chart.ts';
import { filterFromQuery, jumpMatches, matchesFilter, queryWithFilter, rowView } from './hall.ts';

const T0 = Date.UTC(2025, 5, 15, 12);

function board(n: number, extra: Partial<BoardView> = {}): BoardView {
  return {
    id: `b${n}`,
    event: 'final',
    eventName: 'Final',
    round: 1,
    board: n,
    clockId: `clk-${n}`,
    clockOnline: true,
    white: { name: `White ${n}` },
    black: { name: `Black ${n}` },
    timeControl: '300',
    live: null,
    result: null,
    resultConfirmed: false,
    ...extra,
  };
}

/** A running 5-minute game started at T0, as the host shows it after its start event. */
function running(n: number): BoardView {
  const tc = timeControl(parseSideControl('300'), parseSideControl('300'));
  const state = startClock(initialClock(tc, 0), 0);
  const live = {
    clockId: `clk-${n}`,
    bootId: 'b',
    seq: 1,
    status: 'running',
    turn: 'white',
    whiteMs: 300_000,
    blackMs: 300_000,
    atUtcMs: T0,
    moves: { white: 0, black: 0 },
    flag: null,
    flags: [],
    period: { white: 1, black: 1 },
    present: { white: true, black: true },
    startedAtUtcMs: T0,
    clock: clockBasis(state, 0),
  } as unknown as LiveClockState;
  return board(n, { live });
}

describe('the filter in the URL', () => {
  it('reads event, round and status; ignores what it does not know', () => {
    expect(filterFromQuery('?event=final&round=2&status=pending')).toEqual({ event: 'final', round: 2, status: 'pending' });
    expect(filterFromQuery('?round=x&status=nonsense')).toEqual({ event: '', round: 0, status: '' });
  });
  it('writes them back, keeping other parameters and dropping empty ones', () => {
    expect(queryWithFilter('?lang=sl', { event: 'final', round: 3, status: '' })).toBe('?lang=sl&event=final&round=3');
    expect(queryWithFilter('?event=x&status=finished', { event: '', round: 0, status: '' })).toBe('');
    const f = { event: 'Slovenian Final 2025/26', round: 1, status: 'attention' as const };
    expect(filterFromQuery(queryWithFilter('', f))).toEqual(f);
  });
  it('matches a board by event, round and status group', () => {
    const t = T0 + 1000;
    expect(matchesFilter(running(1), { event: 'final', round: 1, status: 'playing' }, t)).toBe(true);
    expect(matchesFilter(running(1), { event: 'other', round: 0, status: '' }, t)).toBe(false);
    expect(matchesFilter(running(1), { event: '', round: 2, status: '' }, t)).toBe(false);
    expect(matchesFilter(board(2, { result: '1-0' }), { event: '', round: 0, status: 'pending' }, t)).toBe(true);
    expect(matchesFilter(board(2, { result: '1-0', resultConfirmed: true }), { event: '', round: 0, status: 'finished' }, t)).toBe(true);
    // No clock, or its clock offline: the arbiter must see to it.
    expect(matchesFilter(board(3, { clockId: null }), { event: '', round: 0, status: 'attention' }, t)).toBe(true);
    expect(matchesFilter(board(4, { clockOnline: false }), { event: '', round: 0, status: 'attention' }, t)).toBe(true);
    expect(matchesFilter(board(5), { event: '', round: 0, status: 'attention' }, t)).toBe(false);
  });
});

describe('jump to a board', () => {
  const boards = [board(1, { white: { name: 'Lenič, Luka' } }), board(12, { black: { name: 'Novak, Ana', team: 'Maribor' } }), board(2)];
  it('by number: that board exactly (12 is not 1 or 2)', () => {
    expect(jumpMatches(boards, '12').map((b) => b.id)).toEqual(['b12']);
    expect(jumpMatches(boards, ' 1 ').map((b) => b.id)).toEqual(['b1']);
  });
  it('by player or team, accents and case ignored', () => {
    expect(jumpMatches(boards, 'lenic').map((b) => b.id)).toEqual(['b1']);
    expect(jumpMatches(boards, 'ana novak').map((b) => b.id)).toEqual(['b12']);
    expect(jumpMatches(boards, 'maribor').map((b) => b.id)).toEqual(['b12']);
    expect(jumpMatches(boards, 'nobody')).toEqual([]);
    expect(jumpMatches(boards, '  ')).toEqual([]);
  });
});

describe("a board's line", () => {
  it('shows the running time as the clock does (rounded up: 4:32 after 27.5 s; tenths below 20 s)', () => {
    const v = rowView(running(1), T0 + 27_500);
    expect(v.sides.white.time).toBe('4:33');
    expect(rowView(running(1), T0 + 28_000).sides.white.time).toBe('4:32');
    expect(rowView(running(1), T0 + 300_000 - 12_345).sides.white.time).toBe('12.4');
    expect(v.sides.black.time).toBe('5:00');
    expect(v.sides.white.running).toBe(true);
    expect(v.sides.black.onMove).toBe(false);
    expect(v.status).toBe('running');
    expect(v.sides.white.moves).toBe('#0');
    expect(v.sides.white.period).toBe('P1');
  });
  it('says "no clock" for a board no clock serves, "offline" for a clock the host cannot reach', () => {
    expect(rowView(board(3, { clockId: null }), T0).statusText).toBe('no clock');
    expect(rowView(board(3, { clockOnline: false }), T0).statusText).toBe('offline');
    expect(rowView(board(3, { clockId: null }), T0).status).toBe('ready');
  });
});

describe('the chart image is asked for again only when the game moved on', () => {
  it('keys on round, game, moves and result; nothing before the first clock event', () => {
    expect(chartKey(board(1))).toBeNull();
    const b = running(1);
    expect(chartKey(b)).toBe('1.1.0.');
    expect(chartKey({ ...b, live: { ...b.live!, moves: { white: 1, black: 0 } } })).toBe('1.1.1.');
    expect(chartKey({ ...b, result: '1-0' })).toBe('1.1.0.1-0');
    // A clock event that is not a move (a pause) keeps the key: no new request.
    expect(chartKey({ ...b, live: { ...b.live!, status: 'paused' } })).toBe(chartKey(b));
    expect(chartUrl('b 1', 'small', '1.1.0.')).toBe('/api/boards/b%201/chart.svg?size=small&v=1.1.0.');
  });
});

// The arbiter's powers at the clock, exact to the millisecond (docs/replay.md "Arbiter
// inputs"): take-back of the last move (FIDE Laws 7.5.1 with 6.10.2), the move-counter
// correction (6.10.2), reinstating after a forfeit (6.7.1), the default time from the
// session's start (6.7.1), the quickplay increment (Guidelines III.4), refused inputs,
// and a game with a result being over at the clock. Each case prints every output line
// the contract gives, so the arithmetic in the comments is checked in full.

import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { clockMachine, type ClockOutput } from './clock.machine.ts';
import { readClock } from './clock-reading.ts';
import { replayText } from '../firmware-ts/replay.ts';
import { StepClock } from './step-clock.ts';

type Line = Record<string, unknown>;
const run = (lines: Line[]): Line[] => replayText(lines.map((l) => JSON.stringify(l)).join('\n')).map((l) => JSON.parse(l) as Line);

describe('take-back of the last move (FIDE Laws 7.5.1 with 6.10.2)', () => {
  it("White's illegal 2nd move is annulled: both times return to the press instant, before its 30 s increment; White replays it", () => {
    // Classical, before-move: 5 430 000 each. W1 at 60 s: 5 430 000 − 60 000 + 30 000 = 5 400 000.
    // B1 at 120 s (60 s): 5 400 000. W2 at 200 s (80 s): 5 350 000; paused at 230 s (Black used 30 s).
    // Take-back: White 5 400 000 − 80 000 = 5 320 000 (no increment), Black 5 400 000 (its 30 s given back).
    // Resumed at 240 s, White presses at 260 s: 80 s + 20 s used: 5 400 000 − 100 000 + 30 000 = 5 330 000.
    const out = run([
      { type: 'setup', preset: 'classical' },
      { t: 0, type: 'start' },
      { t: 60000, type: 'press', side: 'white' },
      { t: 120000, type: 'press', side: 'black' },
      { t: 200000, type: 'press', side: 'white' },
      { t: 230000, type: 'pause' },
      { t: 231000, type: 'takeback' },
      { t: 240000, type: 'resume' },
      { t: 260000, type: 'press', side: 'white' },
      { t: 270000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 60000, type: 'move', side: 'white', move: 1, white: 5400000, black: 5430000 },
      { t: 120000, type: 'move', side: 'black', move: 1, white: 5400000, black: 5400000 },
      { t: 200000, type: 'move', side: 'white', move: 2, white: 5350000, black: 5400000 },
      { t: 231000, type: 'takeback', side: 'white', move: 1, times: 'rewind', white: 5320000, black: 5400000 },
      { t: 260000, type: 'move', side: 'white', move: 2, white: 5330000, black: 5400000 },
      {
        t: 270000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 5330000,
        black: 5390000,
        moves: { white: 2, black: 1 },
        flag: null,
        illegal: { white: 1, black: 0 },
      },
    ]);
  });

  it('the press that ended the first period is annulled: its bonus goes with it and comes exactly once when the move is made again (Laws 6.10.2)', () => {
    // 3/60+2:30+1, before-move: 62 000 each. W3 at 5 000 completes move 3: 64 000 − 1 000 + 30 000 + 1 000 = 94 000.
    // Take-back at 6 000: White 64 000 − 1 000 = 63 000. W3 again at 9 000 (1 000 + 2 000 used): 64 000 − 3 000 + 31 000 = 92 000.
    const out = run([
      { type: 'setup', timeControl: '3/60+2:30+1' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 2000, type: 'press', side: 'black' },
      { t: 3000, type: 'press', side: 'white' },
      { t: 4000, type: 'press', side: 'black' },
      { t: 5000, type: 'press', side: 'white' },
      { t: 6000, type: 'pause' },
      { t: 6000, type: 'takeback' },
      { t: 7000, type: 'resume' },
      { t: 9000, type: 'press', side: 'white' },
      { t: 9000, type: 'end' },
    ]);
    expect(out.slice(4)).toEqual([
      { t: 5000, type: 'move', side: 'white', move: 3, white: 94000, black: 64000 },
      { t: 6000, type: 'takeback', side: 'white', move: 2, times: 'rewind', white: 63000, black: 64000 },
      { t: 9000, type: 'move', side: 'white', move: 3, white: 92000, black: 64000 },
      {
        t: 9000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 92000,
        black: 64000,
        moves: { white: 3, black: 2 },
        flag: null,
        illegal: { white: 1, black: 0 },
      },
    ]);
  });

  it('simple delay: a delay already used in the annulled turn is not granted again (Black thought 3 s of 5, so 2 s of delay remain)', () => {
    const out = run([
      { type: 'setup', timeControl: [{ seconds: 300, delay: 5, delayMode: 'simple' }] },
      { t: 0, type: 'start' },
      { t: 10000, type: 'press', side: 'white' },
      { t: 13000, type: 'press', side: 'black' },
      { t: 14000, type: 'pause' },
      { t: 15000, type: 'takeback' },
      { t: 20000, type: 'resume' },
      { t: 24000, type: 'press', side: 'black' },
      { t: 24000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 10000, type: 'move', side: 'white', move: 1, white: 295000, black: 300000 },
      { t: 13000, type: 'move', side: 'black', move: 1, white: 295000, black: 300000 },
      { t: 15000, type: 'takeback', side: 'black', move: 0, times: 'rewind', white: 295000, black: 300000 },
      // 3 s before + 4 s after = 7 s in the turn, 5 s of it free: 2 s charged.
      { t: 24000, type: 'move', side: 'black', move: 1, white: 295000, black: 298000 },
      {
        t: 24000,
        type: 'state',
        status: 'running',
        turn: 'white',
        white: 295000,
        black: 298000,
        moves: { white: 1, black: 1 },
        flag: null,
        illegal: { white: 0, black: 1 },
      },
    ]);
  });

  it('a penalty given before the take-back stays on top of the restored times (Laws 7.5.5: +1 min in rapid)', () => {
    const out = run([
      { type: 'setup', preset: 'rapid' },
      { t: 0, type: 'start' },
      { t: 5000, type: 'press', side: 'white' },
      { t: 9000, type: 'press', side: 'black' },
      { t: 12000, type: 'press', side: 'white' },
      { t: 15000, type: 'pause' },
      { t: 16000, type: 'penalty', side: 'white' },
      { t: 17000, type: 'takeback' },
      { t: 18000, type: 'end' },
    ]);
    expect(out.slice(3)).toEqual([
      // White back to 915 000 − 3 000; Black 916 000 + 60 000 of the penalty.
      { t: 17000, type: 'takeback', side: 'white', move: 1, times: 'rewind', white: 912000, black: 976000 },
      {
        t: 18000,
        type: 'state',
        status: 'paused',
        turn: 'white',
        white: 912000,
        black: 976000,
        moves: { white: 1, black: 1 },
        flag: null,
        illegal: { white: 1, black: 0 },
      },
    ]);
  });

  it('a second take-back annuls the move before it; a third with no move left is refused', () => {
    const out = run([
      { type: 'setup', timeControl: '600+5' },
      { t: 0, type: 'start' },
      { t: 4000, type: 'press', side: 'white' }, // 605 000 − 4 000 + 5 000 = 606 000
      { t: 10000, type: 'press', side: 'black' }, // 605 000 − 6 000 + 5 000 = 604 000
      { t: 11000, type: 'pause' },
      { t: 12000, type: 'takeback' }, // Black on move, 605 000 − 6 000 = 599 000
      { t: 13000, type: 'takeback' }, // White on move, 605 000 − 4 000 = 601 000; Black 605 000
      { t: 14000, type: 'takeback' },
      { t: 15000, type: 'end' },
    ]);
    expect(out.slice(2)).toEqual([
      { t: 12000, type: 'takeback', side: 'black', move: 0, times: 'rewind', white: 606000, black: 599000 },
      { t: 13000, type: 'takeback', side: 'white', move: 0, times: 'rewind', white: 601000, black: 605000 },
      { t: 14000, type: 'rejected', input: 'takeback', reason: 'no completed move to take back' },
      {
        t: 15000,
        type: 'state',
        status: 'paused',
        turn: 'white',
        white: 601000,
        black: 605000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 1, black: 1 },
      },
    ]);
  });

  it('a flag that fell after the annulled press is annulled with it: its time is given back (docs/replay.md)', () => {
    // 60+0: W1 at 10 s (50 000 left); Black's flag falls at 70 s; take-back from the flag.
    const out = run([
      { type: 'setup', timeControl: '60' },
      { t: 0, type: 'start' },
      { t: 10000, type: 'press', side: 'white' },
      { t: 80000, type: 'takeback' },
      { t: 90000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 10000, type: 'move', side: 'white', move: 1, white: 50000, black: 60000 },
      { t: 70000, type: 'flag', side: 'black', white: 50000, black: 0 },
      { t: 80000, type: 'takeback', side: 'white', move: 0, times: 'rewind', white: 50000, black: 60000 },
      {
        t: 90000,
        type: 'state',
        status: 'paused',
        turn: 'white',
        white: 50000,
        black: 60000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 1, black: 0 },
      },
    ]);
  });

  it('sandclock: the sand that ran into the other glass at the press flows back (no transfer of the annulled press)', () => {
    // *60: W1 at 10 s → White 50 000, Black 70 000. B1 at 15 s → Black 65 000, White 55 000.
    // Take-back at the paused clock (paused at 15 s as pressed): Black 70 000 − 5 000 = 65 000 running, White 55 000.
    const out = run([
      { type: 'setup', timeControl: '*60' },
      { t: 0, type: 'start' },
      { t: 10000, type: 'press', side: 'white' },
      { t: 15000, type: 'press', side: 'black' },
      { t: 17000, type: 'pause' },
      { t: 18000, type: 'takeback' },
      { t: 18000, type: 'end' },
    ]);
    expect(out.slice(2)).toEqual([
      { t: 18000, type: 'takeback', side: 'black', move: 0, times: 'rewind', white: 55000, black: 65000 },
      {
        t: 18000,
        type: 'state',
        status: 'paused',
        turn: 'black',
        white: 55000,
        black: 65000,
        moves: { white: 1, black: 0 },
        flag: null,
        illegal: { white: 0, black: 1 },
      },
    ]);
  });

  it('Bronstein delay: the refund of the annulled press goes with it', () => {
    // 300 s, Bronstein 5 s: W1 at 3 s → 300 000 (3 s given back). Take-back: 297 000 again on move.
    const out = run([
      { type: 'setup', timeControl: [{ seconds: 300, delay: 5, delayMode: 'bronstein' }] },
      { t: 0, type: 'start' },
      { t: 3000, type: 'press', side: 'white' },
      { t: 4000, type: 'pause' },
      { t: 5000, type: 'takeback' },
      { t: 6000, type: 'resume' },
      { t: 10000, type: 'press', side: 'white' }, // 7 s used, 5 s back: 298 000
    ]);
    expect(out).toEqual([
      { t: 3000, type: 'move', side: 'white', move: 1, white: 300000, black: 300000 },
      { t: 5000, type: 'takeback', side: 'white', move: 0, times: 'rewind', white: 297000, black: 300000 },
      { t: 10000, type: 'move', side: 'white', move: 1, white: 298000, black: 300000 },
    ]);
  });

  it('is refused while the clock runs and before the first move; nothing changes', () => {
    const out = run([
      { type: 'setup', preset: 'rapid' },
      { t: 0, type: 'takeback' },
      { t: 0, type: 'start' },
      { t: 5000, type: 'press', side: 'white' },
      { t: 6000, type: 'takeback' },
      { t: 7000, type: 'reinstate' },
      { t: 8000, type: 'press', side: 'black' },
      { t: 9000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 0, type: 'rejected', input: 'takeback', reason: 'no move to take back: the game has not started' },
      { t: 5000, type: 'move', side: 'white', move: 1, white: 915000, black: 910000 },
      { t: 6000, type: 'rejected', input: 'takeback', reason: 'pause the clock before taking a move back' },
      { t: 7000, type: 'rejected', input: 'reinstate', reason: 'nothing to reinstate: the game was not lost by default' },
      { t: 8000, type: 'move', side: 'black', move: 1, white: 915000, black: 917000 },
      {
        t: 9000,
        type: 'state',
        status: 'running',
        turn: 'white',
        white: 914000,
        black: 917000,
        moves: { white: 1, black: 1 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });
});

describe('move-counter correction (FIDE Laws 6.10.2): the period follows the count, and no period is credited twice', () => {
  it('38 → 40 credits the second period now; 41 adds nothing; back to 39 keeps it; reaching 40 again by a move credits nothing', () => {
    const out = run([
      { type: 'setup', timeControl: '40/5400+30:900+30' },
      { t: 0, type: 'start' },
      { t: 60000, type: 'press', side: 'white' },
      { t: 100000, type: 'pause' },
      { t: 101000, type: 'moves', side: 'white', moves: 40 },
      { t: 102000, type: 'moves', side: 'white', moves: 41 },
      { t: 103000, type: 'moves', side: 'white', moves: 39 },
      { t: 110000, type: 'resume' },
      { t: 150000, type: 'press', side: 'black' },
      { t: 160000, type: 'press', side: 'white' },
      { t: 160000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 60000, type: 'move', side: 'white', move: 1, white: 5400000, black: 5430000 },
      { t: 101000, type: 'moves', side: 'white', moves: 40, period: 1, white: 6300000, black: 5390000 },
      { t: 102000, type: 'moves', side: 'white', moves: 41, period: 1, white: 6300000, black: 5390000 },
      { t: 103000, type: 'moves', side: 'white', moves: 39, period: 0, white: 6300000, black: 5390000 },
      { t: 150000, type: 'move', side: 'black', move: 1, white: 6300000, black: 5380000 },
      { t: 160000, type: 'move', side: 'white', move: 40, white: 6320000, black: 5380000 },
      {
        t: 160000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 6320000,
        black: 5380000,
        moves: { white: 40, black: 1 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it('a jump over two periods credits both, once (40/7200:20/3600:1800 set to 60)', () => {
    const out = run([
      { type: 'setup', timeControl: '40/7200:20/3600:1800' },
      { t: 0, type: 'moves', side: 'black', moves: 60 },
      { t: 0, type: 'moves', side: 'black', moves: 0 },
      { t: 0, type: 'moves', side: 'black', moves: 60 },
    ]);
    expect(out).toEqual([
      { t: 0, type: 'moves', side: 'black', moves: 60, period: 2, white: 7200000, black: 12600000 },
      { t: 0, type: 'moves', side: 'black', moves: 0, period: 0, white: 7200000, black: 12600000 },
      { t: 0, type: 'moves', side: 'black', moves: 60, period: 2, white: 7200000, black: 12600000 },
    ]);
  });

  it('is refused while the clock runs; `set-moves` with a period that contradicts the count is refused', () => {
    const out = run([
      { type: 'setup', preset: 'classical' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'moves', side: 'white', moves: 40 },
      { t: 2000, type: 'pause' },
      { t: 3000, type: 'set-moves', side: 'white', moves: 41, period: 0 },
      { t: 4000, type: 'set-moves', side: 'white', moves: 41, period: 1 },
    ]);
    expect(out).toEqual([
      { t: 1000, type: 'rejected', input: 'moves', reason: 'pause the clock before correcting a move counter' },
      { t: 3000, type: 'rejected', input: 'set-moves', reason: 'period 0 contradicts 41 completed moves (period 1)' },
      { t: 4000, type: 'moves', side: 'white', moves: 41, period: 1, white: 6328000, black: 5430000 },
    ]);
  });
});

describe('reinstating after a forfeit (FIDE Laws 6.7.1: "unless the arbiter decides otherwise")', () => {
  it("the game stands paused at the forfeit's times and goes on; until then adjust and penalty do nothing", () => {
    const out = run([
      { type: 'setup', preset: 'sudden-death-60', defaultTime: 900 },
      { t: 0, type: 'start' },
      { t: 10000, type: 'press', side: 'white' },
      { t: 950000, type: 'adjust', side: 'black', ms: 60000 },
      { t: 960000, type: 'penalty', side: 'white' },
      { t: 1000000, type: 'reinstate' },
      { t: 1005000, type: 'reinstate' },
      { t: 1010000, type: 'resume' },
      { t: 1020000, type: 'press', side: 'black' },
      { t: 1020000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 10000, type: 'move', side: 'white', move: 1, white: 3590000, black: 3600000 },
      { t: 900000, type: 'forfeit', side: 'black' },
      { t: 950000, type: 'rejected', input: 'adjust', reason: 'the game was lost by default: reinstate it first' },
      { t: 960000, type: 'rejected', input: 'penalty', reason: 'the game was lost by default: reinstate it first' },
      // Black ran from 10 s to the forfeit at 900 s: 3 600 000 − 890 000.
      { t: 1000000, type: 'reinstated', white: 3590000, black: 2710000 },
      { t: 1005000, type: 'rejected', input: 'reinstate', reason: 'nothing to reinstate: the game was not lost by default' },
      { t: 1020000, type: 'move', side: 'black', move: 1, white: 3590000, black: 2700000 },
      {
        t: 1020000,
        type: 'state',
        status: 'running',
        turn: 'white',
        white: 3590000,
        black: 2700000,
        moves: { white: 1, black: 1 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });
});

describe('default time from the session start (FIDE Laws 6.7.1; Ivanovo: 15 minutes after the round start)', () => {
  it('a board started 3 minutes late: the absent White is forfeited 12 minutes after the clock started', () => {
    const out = run([
      { type: 'setup', preset: 'sudden-death-60', defaultTime: 900 },
      { t: 180000, type: 'arrive', side: 'black' },
      { t: 180000, type: 'start', session: 0 },
      { t: 2000000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 900000, type: 'forfeit', side: 'white' },
      {
        t: 2000000,
        type: 'state',
        status: 'forfeited',
        turn: 'white',
        white: 2880000,
        black: 3600000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it('the default time already passed at the start: the absent side is forfeited at once', () => {
    const out = run([
      { type: 'setup', preset: 'sudden-death-60', defaultTime: 900 },
      { t: 1000000, type: 'arrive', side: 'white' },
      { t: 1000000, type: 'start', session: 0 },
      { t: 1000001, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 1000000, type: 'forfeit', side: 'black' },
      {
        t: 1000001,
        type: 'state',
        status: 'forfeited',
        turn: 'white',
        white: 3600000,
        black: 3600000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it('a session start after the start instant, or not a whole number, is an input error naming the line', () => {
    const bad = (session: unknown) => () =>
      replayText([JSON.stringify({ type: 'setup', preset: 'rapid' }), JSON.stringify({ t: 5, type: 'start', session })].join('\n'));
    expect(bad(6)).toThrow('line 2: "session" 6 is after "t" 5');
    expect(bad(1.5)).toThrow('line 2: "session" must be a whole number of milliseconds, got 1.5');
    expect(bad('0')).toThrow('line 2: "session" must be a whole number of milliseconds, got "0"');
  });

  it("a session that began before the clock's first stamp (a negative `session`) is no error: a board started at t 0 a minute into the round", () => {
    // FIDE Laws 6.7.1: 15 min default time from the round's start 60 s before t 0: White, absent, is forfeited at 840 000.
    const out = run([
      { type: 'setup', preset: 'rapid', defaultTime: 900 },
      { t: 0, type: 'arrive', side: 'black' },
      { t: 0, type: 'start', session: -60000 },
      { t: 900000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 840000, type: 'forfeit', side: 'white' },
      {
        t: 900000,
        type: 'state',
        status: 'forfeited',
        turn: 'white',
        white: 70000,
        black: 910000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
    // A session already more than the default time before the start forfeits at once, at the start.
    const late = run([
      { type: 'setup', preset: 'rapid', defaultTime: 900 },
      { t: 0, type: 'start', session: -900000 },
      { t: 1, type: 'end' },
    ]);
    expect(late.slice(0, 2)).toEqual([
      { t: 0, type: 'forfeit', side: 'white' },
      { t: 0, type: 'forfeit', side: 'black' },
    ]);
  });
});

describe('quickplay increment (FIDE Guidelines III.4)', () => {
  it('5 s for both sides late in a 60-minute game, credited after each later move', () => {
    const out = run([
      { type: 'setup', preset: 'sudden-death-60' },
      { t: 0, type: 'start' },
      { t: 1500000, type: 'press', side: 'white' },
      { t: 3000000, type: 'pause' },
      { t: 3001000, type: 'increment', ms: 5000 },
      { t: 3002000, type: 'resume' },
      { t: 3010000, type: 'press', side: 'black' },
      { t: 3020000, type: 'press', side: 'white' },
      { t: 3020000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 1500000, type: 'move', side: 'white', move: 1, white: 2100000, black: 3600000 },
      { t: 3001000, type: 'increment', ms: 5000 },
      { t: 3010000, type: 'move', side: 'black', move: 1, white: 2100000, black: 2097000 },
      { t: 3020000, type: 'move', side: 'white', move: 2, white: 2095000, black: 2097000 },
      {
        t: 3020000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 2095000,
        black: 2097000,
        moves: { white: 2, black: 1 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it("comes on top of the period's own increment, also with before-move timing; refused while running", () => {
    const out = run([
      { type: 'setup', timeControl: '900+10' },
      { t: 0, type: 'increment', ms: 2000 },
      { t: 0, type: 'start' },
      { t: 1000, type: 'increment', ms: 3000 },
      { t: 5000, type: 'press', side: 'white' }, // 910 000 − 5 000 + 10 000 + 2 000
    ]);
    expect(out).toEqual([
      { t: 0, type: 'increment', ms: 2000 },
      { t: 1000, type: 'rejected', input: 'increment', reason: 'pause the clock before setting an increment' },
      { t: 5000, type: 'move', side: 'white', move: 1, white: 917000, black: 910000 },
    ]);
  });
});

describe('a game with a result is over at the clock (FIDE Laws 6.9: the clock never records a result on its own)', () => {
  function clock() {
    const steps = new StepClock();
    const actor = createActor(clockMachine, { input: { timeControl: presetTimeControl('rapid') }, clock: steps });
    const outs: ClockOutput[] = [];
    actor.on('*', (o) => outs.push(o as ClockOutput));
    actor.start();
    return { actor, outs, at: (t: number) => steps.advanceTo(t) };
  }

  it('start/pause does not resume it; a result correction from the host replaces it; a new game clears it', () => {
    const { actor, outs, at } = clock();
    actor.send({ type: 'START', at: 0 });
    at(5000);
    actor.send({ type: 'PRESS', side: 'white', at: 5000 });
    actor.send({ type: 'PAUSE', at: 6000 });
    actor.send({ type: 'RESULT', result: '0-1', by: 'players', at: 7000 });
    actor.send({ type: 'RESUME', at: 8000 });
    actor.send({ type: 'START', at: 8000 });
    actor.send({ type: 'PRESS', side: 'black', at: 9000 });
    const r = readClock(actor.getSnapshot().context.clock, 10000);
    expect(r.result).toBe('0-1');
    expect(r.status).toBe('paused');
    expect(r.black).toBe(910000 - 1000);
    expect(outs.filter((o) => o.type === 'rejected').map((o) => o.type === 'rejected' && o.input)).toEqual(['RESUME', 'START', 'PRESS']);
    actor.send({ type: 'RESULT', result: '1/2-1/2', by: 'host', at: 11000 });
    expect(readClock(actor.getSnapshot().context.clock, 11000).result).toBe('1/2-1/2');
    actor.send({ type: 'NEW_GAME', timeControl: presetTimeControl('rapid'), at: 12000 });
    expect(readClock(actor.getSnapshot().context.clock, 12000)).toMatchObject({ status: 'ready', result: null, white: 910000 });
  });

  it('a result recorded by the host while the clock runs stops it at that instant', () => {
    const { actor, at } = clock();
    actor.send({ type: 'START', at: 0 });
    at(4000);
    actor.send({ type: 'RESULT', result: '1-0', by: 'host', at: 4000 });
    at(100000);
    const r = readClock(actor.getSnapshot().context.clock, 100000);
    expect(r).toMatchObject({ status: 'paused', result: '1-0', white: 906000, black: 910000, flag: null });
  });

  it('a flag does not record a result: the result stays open until someone enters it', () => {
    const { actor, at } = clock();
    actor.send({ type: 'START', at: 0 });
    at(2_000_000);
    const r = readClock(actor.getSnapshot().context.clock, 2_000_000);
    expect(r).toMatchObject({ status: 'flagged', flag: 'white', result: null });
  });
});

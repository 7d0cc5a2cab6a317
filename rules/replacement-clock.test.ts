// The arbiter's corrections of FIDE Laws 6.10.2 (docs/replay.md "Replacement clock and
// corrections"): the side on move set without a fake press, a corrected time control that keeps
// both times, counters and the periods credited; the quickplay delay of Guidelines III.4 and no
// quickplay finish in blitz; the count of illegal moves of Laws 7.5.5. Exact to the millisecond.
import { describe, expect, it } from 'vitest';
import { replayText } from '../firmware-ts/replay.ts';
import { illegalMoveLosers } from './illegal-moves.ts';

type Line = Record<string, unknown>;
const run = (lines: Line[]): Line[] => replayText(lines.map((l) => JSON.stringify(l)).join('\n')).map((l) => JSON.parse(l) as Line);
const last = (out: Line[]) => out[out.length - 1];

describe('the side on move (FIDE Laws 6.10.2: a replacement clock, a clock set with the wrong side running)', () => {
  it("a replacement clock set up with Black on move: the start runs Black's clock, and no increment or move is credited before Black's move", () => {
    const out = run([
      { type: 'setup', preset: 'rapid' },
      { t: 0, type: 'moves', side: 'white', moves: 12 },
      { t: 0, type: 'moves', side: 'black', moves: 11 },
      { t: 0, type: 'adjust', side: 'white', ms: -300000 },
      { t: 0, type: 'turn', side: 'black' },
      { t: 1000, type: 'start' },
      { t: 4000, type: 'end' },
      { t: 9000, type: 'press', side: 'black' },
      { t: 9000, type: 'end' },
    ]);
    expect(out.slice(2)).toEqual([
      { t: 0, type: 'turn', side: 'black', white: 610000, black: 910000 },
      {
        t: 4000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 610000,
        black: 907000,
        moves: { white: 12, black: 11 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
      // 8 s used, then the move's 10 s increment: 910 000 + 2 000.
      { t: 9000, type: 'move', side: 'black', move: 12, white: 610000, black: 912000 },
      {
        t: 9000,
        type: 'state',
        status: 'running',
        turn: 'white',
        white: 610000,
        black: 912000,
        moves: { white: 12, black: 12 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it("with Black on move, the press of the side not on move (White) starts the clock while ready, as Black's press starts White's", () => {
    const out = run([
      { type: 'setup', preset: 'rapid' },
      { t: 0, type: 'turn', side: 'black' },
      { t: 500, type: 'press', side: 'black' },
      { t: 1000, type: 'end' },
      { t: 2000, type: 'press', side: 'white' },
      { t: 5000, type: 'end' },
    ]);
    expect(out.slice(1).map((o) => [o.t, o.status, o.turn, o.black])).toEqual([
      [1000, 'ready', 'black', 910000],
      [5000, 'running', 'black', 907000],
    ]);
  });

  it('set while paused mid-turn: no time moves; the turn of the side set begins when the clock runs', () => {
    // 60 s each, no increment. White's clock ran 4 s before the pause (56 000). The arbiter finds
    // White's clock was running by mistake: Black on move. Resumed at 10 s, Black thinks 3 s.
    const out = run([
      { type: 'setup', timeControl: '60' },
      { t: 0, type: 'start' },
      { t: 4000, type: 'pause' },
      { t: 5000, type: 'turn', side: 'black' },
      { t: 10000, type: 'resume' },
      { t: 13000, type: 'end' },
      { t: 13000, type: 'press', side: 'black' },
      { t: 15000, type: 'end' },
    ]);
    expect(out).toEqual([
      { t: 5000, type: 'turn', side: 'black', white: 56000, black: 60000 },
      {
        t: 13000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 56000,
        black: 57000,
        moves: { white: 0, black: 0 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
      { t: 13000, type: 'move', side: 'black', move: 1, white: 56000, black: 57000 },
      {
        t: 15000,
        type: 'state',
        status: 'running',
        turn: 'white',
        white: 54000,
        black: 57000,
        moves: { white: 0, black: 1 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it('is refused while the clock runs and after a flag; a take-back still annuls the last completed move after it', () => {
    const out = run([
      { type: 'setup', timeControl: '60' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'turn', side: 'black' },
      { t: 2000, type: 'press', side: 'white' },
      { t: 3000, type: 'pause' },
      { t: 4000, type: 'turn', side: 'white' },
      { t: 5000, type: 'takeback' },
      { t: 6000, type: 'end' },
    ]);
    expect(out[0]).toEqual({ t: 1000, type: 'rejected', input: 'turn', reason: 'pause the clock before setting the side on move' });
    // The take-back restores White on move at its press, with Black's second given back.
    expect(last(out)).toEqual({
      t: 6000,
      type: 'state',
      status: 'paused',
      turn: 'white',
      white: 58000,
      black: 60000,
      moves: { white: 0, black: 0 },
      flag: null,
      illegal: { white: 1, black: 0 },
    });
  });
});

describe('a corrected time control (FIDE Laws 6.10.2: a clock set wrongly)', () => {
  it('set to 90 minutes sudden death instead of the classical control: the times stay; the move-40 bonus then comes once, at move 40', () => {
    // 5400+30 before-move: 5 430 000 each. The arbiter installs 40/5400+30:900+30 after White's 39th
    // move (Black's clock paused having run 10 s); White's 40th move brings the 15 minutes.
    const lines: Line[] = [
      { type: 'setup', timeControl: '5400+30' },
      { t: 0, type: 'start' },
    ];
    let t = 0;
    for (let k = 0; k < 39; k++) lines.push({ t: (t += 10_000), type: 'press', side: 'white' }, { t: (t += 10_000), type: 'press', side: 'black' });
    lines.push({ t: (t += 5_000), type: 'pause' }, { t: t + 1000, type: 'control', timeControl: '40/5400+30:900+30' }, { t: t + 2000, type: 'resume' });
    lines.push({ t: t + 7000, type: 'press', side: 'white' }, { t: t + 7000, type: 'end' });
    const out = run(lines);
    // Each side after 39 moves: 5 430 000 − 390 000 + 1 170 000 = 6 210 000.
    expect(out.slice(-3)).toEqual([
      { t: 786000, type: 'control', timeControl: '40/5400+30:900+30', defaultTime: null, incrementTiming: 'before-move', white: 6205000, black: 6210000 },
      // White's move 40: 10 s used, the 15 minutes and the next increment: 6 210 000 − 10 000 + 900 000 + 30 000.
      { t: 792000, type: 'move', side: 'white', move: 40, white: 7130000, black: 6210000 },
      {
        t: 792000,
        type: 'state',
        status: 'running',
        turn: 'black',
        white: 7130000,
        black: 6210000,
        moves: { white: 40, black: 39 },
        flag: null,
        illegal: { white: 0, black: 0 },
      },
    ]);
  });

  it('a period the count already reached under the corrected control counts as credited: the arbiter adjusts, the clock never adds it twice', () => {
    // Set to 3600 (one period) at move 41 each; corrected to 40/5400:900. Both are in period 2 by
    // their counts: nothing is credited by the correction or by any later move.
    const out = run([
      { type: 'setup', timeControl: '3600' },
      { t: 0, type: 'moves', side: 'white', moves: 41 },
      { t: 0, type: 'moves', side: 'black', moves: 41 },
      { t: 0, type: 'control', timeControl: '40/5400:900' },
      { t: 0, type: 'adjust', side: 'white', ms: 900000 },
      { t: 1000, type: 'start' },
      { t: 2000, type: 'press', side: 'white' },
      { t: 3000, type: 'press', side: 'black' },
      { t: 3000, type: 'end' },
    ]);
    expect(out[2]).toMatchObject({ type: 'control', white: 3600000, black: 3600000 });
    expect(last(out)).toEqual({
      t: 3000,
      type: 'state',
      status: 'running',
      turn: 'white',
      white: 4499000,
      black: 3599000,
      moves: { white: 42, black: 42 },
      flag: null,
      illegal: { white: 0, black: 0 },
    });
  });

  it("keeps the game's default time unless the line gives one; a corrected default time forfeits from the session start (FIDE Laws 6.7.1)", () => {
    const out = run([
      { type: 'setup', timeControl: '3600', defaultTime: 900 },
      { t: 0, type: 'arrive', side: 'white' },
      { t: 0, type: 'start' },
      { t: 100000, type: 'pause' },
      { t: 101000, type: 'control', timeControl: '3600+30' },
      { t: 102000, type: 'control', timeControl: '3600+30', defaultTime: 60 },
      { t: 103000, type: 'end' },
    ]);
    expect(out.map((o) => [o.type, o.defaultTime ?? null, o.t])).toEqual([
      ['control', 900, 101000],
      // 60 s from the session start have passed: the absent Black is forfeited at once.
      ['control', 60, 102000],
      ['forfeit', null, 102000],
      ['state', null, 103000],
    ]);
  });

  it('is refused while the clock runs; a bad control is an input error naming the token', () => {
    const out = run([
      { type: 'setup', timeControl: '60' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'control', timeControl: '120' },
    ]);
    expect(out).toEqual([{ t: 1000, type: 'rejected', input: 'control', reason: 'pause the clock before correcting the time control' }]);
    expect(() => replayText('{"type":"setup","timeControl":"60"}\n{"t":0,"type":"control","timeControl":"40/90x"}')).toThrow(
      'line 2: bad seconds "90x" in time control "40/90x": expected a whole number',
    );
  });
});

describe('the quickplay finish (FIDE Guidelines III.4) and blitz (III.2.2: the Guidelines do not apply)', () => {
  it('the delay comes with every turn that begins after it; the turn in progress keeps the delay it began with', () => {
    const out = run([
      { type: 'setup', preset: 'sudden-death-60' },
      { t: 0, type: 'start' },
      { t: 3490000, type: 'press', side: 'white' },
      { t: 3495000, type: 'press', side: 'black' },
      { t: 3500000, type: 'pause' },
      { t: 3501000, type: 'delay', ms: 5000 },
      { t: 3502000, type: 'resume' },
      { t: 3510000, type: 'press', side: 'white' }, // 13 s of White's turn, no delay: 110 000 − 13 000
      { t: 3513000, type: 'press', side: 'black' }, // 3 s: within the delay
      { t: 3521000, type: 'press', side: 'white' }, // 8 s: 3 s charged
      { t: 3521000, type: 'delay', ms: 0 },
    ]);
    expect(out.slice(2)).toEqual([
      { t: 3501000, type: 'delay', ms: 5000 },
      { t: 3510000, type: 'move', side: 'white', move: 2, white: 97000, black: 3595000 },
      { t: 3513000, type: 'move', side: 'black', move: 2, white: 97000, black: 3595000 },
      { t: 3521000, type: 'move', side: 'white', move: 3, white: 94000, black: 3595000 },
      { t: 3521000, type: 'rejected', input: 'delay', reason: 'pause the clock before setting a delay' },
    ]);
  });

  it('in blitz neither the increment nor the delay is set (removing one is always taken)', () => {
    const out = run([
      { type: 'setup', preset: 'armageddon' },
      { t: 0, type: 'increment', ms: 5000 },
      { t: 0, type: 'delay', ms: 5000 },
      { t: 0, type: 'increment', ms: 0 },
      { type: 'setup', timeControl: '540+1' },
      { t: 0, type: 'increment', ms: 2000 },
      { type: 'setup', timeControl: '601' },
      { t: 0, type: 'increment', ms: 2000 },
    ]);
    const reason = 'no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only';
    expect(out).toEqual([
      { t: 0, type: 'rejected', input: 'increment', reason },
      { t: 0, type: 'rejected', input: 'delay', reason },
      { t: 0, type: 'increment', ms: 0 },
      // 540 + 60 × 1 = 600 s ≤ 10 min: blitz (FIDE Laws A.1/B.1).
      { t: 0, type: 'rejected', input: 'increment', reason },
      // 601 s: rapid.
      { t: 0, type: 'increment', ms: 2000 },
    ]);
  });
});

describe('illegal moves counted (FIDE Laws 7.5.5: the second one loses)', () => {
  const game = (extra: Line[]) =>
    run([
      { type: 'setup', preset: 'rapid' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 2000, type: 'pause' },
      ...extra,
      { t: 20000, type: 'end' },
    ]);
  it('a take-back and a penalty for the same illegal move, in either order, are one illegal move', () => {
    expect(
      last(
        game([
          { t: 3000, type: 'takeback' },
          { t: 4000, type: 'penalty', side: 'white' },
        ]),
      ).illegal,
    ).toEqual({ white: 1, black: 0 });
    expect(
      last(
        game([
          { t: 3000, type: 'penalty', side: 'white' },
          { t: 4000, type: 'takeback' },
        ]),
      ).illegal,
    ).toEqual({ white: 1, black: 0 });
  });

  it('two take-backs, two penalties, or a penalty after a move was completed since, are two', () => {
    const again = [
      { t: 3000, type: 'takeback' },
      { t: 4000, type: 'resume' },
      { t: 5000, type: 'press', side: 'white' },
      { t: 6000, type: 'pause' },
    ];
    const two = last(game([...again, { t: 7000, type: 'takeback' }]));
    expect(two.illegal).toEqual({ white: 2, black: 0 });
    expect(illegalMoveLosers(two.illegal as { white: number; black: number })).toEqual(['white']);
    expect(
      last(
        game([
          { t: 3000, type: 'penalty', side: 'white' },
          { t: 4000, type: 'penalty', side: 'white' },
        ]),
      ).illegal,
    ).toEqual({ white: 2, black: 0 });
    expect(last(game([...again, { t: 7000, type: 'penalty', side: 'white' }])).illegal).toEqual({ white: 2, black: 0 });
    expect(illegalMoveLosers({ white: 1, black: 1 })).toEqual([]);
  });
});

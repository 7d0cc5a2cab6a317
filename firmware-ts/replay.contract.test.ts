// An independent check of the `chessclock replay` contract (docs/replay.md: "Input", "setup", "Timed inputs" and "Output"),
// written from the specification, not from the code. Every expected figure is worked out
// by hand in the comments next to it; nothing here calls the code under test to compute
// what it should say.
//
// Output lines of types the contract does not name (e.g. `started`, `adjusted`) are
// ignored, as the contract tells consumers to do.

import { describe, expect, it } from 'vitest';
import { Replayer, ReplayError, replayText } from './replay.ts';

type Out = Record<string, unknown>;
type In = Record<string, unknown>;
type SideName = 'white' | 'black';

/** The output types the contract defines (docs/replay.md "Output"); others may be added and are ignored. */
const CONTRACT_TYPES = new Set(['move', 'flag', 'forfeit', 'state']);

function replay(lines: In[]): Out[] {
  const raw = replayText(lines.map((l) => JSON.stringify(l)).join('\n'));
  const parsed = raw.map((l) => JSON.parse(l) as Out);
  // docs/replay.md "Output": every output line is JSON with an integer `t`.
  for (const o of parsed) expect(Number.isInteger(o.t)).toBe(true);
  return parsed.filter((o) => CONTRACT_TYPES.has(o.type as string));
}

const setup = (extra: In): In => ({ type: 'setup', ...extra });
const start = (t: number): In => ({ t, type: 'start' });
const press = (t: number, side: SideName): In => ({ t, type: 'press', side });
const arrive = (t: number, side: SideName): In => ({ t, type: 'arrive', side });
const pause = (t: number): In => ({ t, type: 'pause' });
const resume = (t: number): In => ({ t, type: 'resume' });
const adjust = (t: number, side: SideName, ms: number): In => ({ t, type: 'adjust', side, ms });
const penalty = (t: number, side: SideName): In => ({ t, type: 'penalty', side });
const end = (t: number): In => ({ t, type: 'end' });

const move = (t: number, side: SideName, n: number, white: number, black: number): Out => ({
  t,
  type: 'move',
  side,
  move: n,
  white,
  black,
});
const flag = (t: number, side: SideName, white: number, black: number): Out => ({ t, type: 'flag', side, white, black });
const forfeit = (t: number, side: SideName): Out => ({ t, type: 'forfeit', side });
const state = (
  t: number,
  status: string,
  turn: SideName,
  white: number,
  black: number,
  moves: { white: number; black: number },
  flagSide: SideName | null = null,
  illegal: { white: number; black: number } = { white: 0, black: 0 },
): Out => ({ t, type: 'state', status, turn, white, black, moves, flag: flagSide, illegal });

const ofType = (out: Out[], type: string): Out[] => out.filter((o) => o.type === type);
const last = (out: Out[]): Out => out[out.length - 1];

/**
 * Plays `moves` full moves with constant thinking times: White thinks `wMs` per move,
 * Black `bMs`. White's k-th press is at (k−1)(w+b) + w, Black's at k(w+b).
 */
function steadyGame(moves: number, wMs: number, bMs: number): In[] {
  const lines: In[] = [start(0)];
  for (let k = 1; k <= moves; k++) {
    lines.push(press((k - 1) * (wMs + bMs) + wMs, 'white'));
    lines.push(press(k * (wMs + bMs), 'black'));
  }
  return lines;
}

const moveOf = (out: Out[], side: SideName, n: number): Out | undefined => out.find((o) => o.type === 'move' && o.side === side && o.move === n);

describe('replay contract: output lines (docs/replay.md "Output")', () => {
  it('move line: both times after the increment; state line at end', () => {
    // rapid = 900+10, increment before the move (before-move, FIDE practice: docs/replay.md "setup"):
    // at the start each side holds 900 000 + 10 000 = 910 000.
    // White moves at 5 000: 910 000 − 5 000 + 10 000 (increment for move 2) = 915 000.
    // At 6 000 Black has run 1 000: 910 000 − 1 000 = 909 000.
    const out = replay([setup({ preset: 'rapid' }), start(0), press(5000, 'white'), end(6000)]);
    expect(out).toEqual([move(5000, 'white', 1, 915000, 910000), state(6000, 'running', 'black', 915000, 909000, { white: 1, black: 0 })]);
  });

  it('state line while ready: both hold base + first increment (before-move, docs/replay.md "setup")', () => {
    // classical 40/5400+30: 5 400 000 + 30 000 = 5 430 000 each.
    const out = replay([setup({ preset: 'classical' }), end(0)]);
    expect(out).toEqual([state(0, 'ready', 'white', 5430000, 5430000, { white: 0, black: 0 })]);
  });

  it('output is exactly one JSON object per line', () => {
    const raw = replayText([setup({ preset: 'rapid' }), start(0), press(1000, 'white'), end(2000)].map((l) => JSON.stringify(l)).join('\n'));
    for (const l of raw) {
      expect(l).not.toContain('\n');
      expect(typeof JSON.parse(l)).toBe('object');
    }
  });
});

describe('replay contract: time-control kinds (docs/replay.md "setup")', () => {
  it('sudden death 3600: time used is charged, nothing added', () => {
    // White: 3 600 000 − 12 345 = 3 587 655. Black runs 12 345 → 20 000: 7 655 used → 3 592 345.
    const out = replay([setup({ timeControl: '3600' }), start(0), press(12345, 'white'), press(20000, 'black'), end(20000)]);
    expect(out).toEqual([
      move(12345, 'white', 1, 3587655, 3600000),
      move(20000, 'black', 1, 3587655, 3592345),
      state(20000, 'running', 'white', 3587655, 3592345, { white: 1, black: 1 }),
    ]);
  });

  it('increment after-move (PGN convention): start at base, credit after each move', () => {
    // 900+10 after-move: start 900 000. White moves at 5 000: 900 000 − 5 000 + 10 000 = 905 000.
    // (before-move would give 910 000 − 5 000 + 10 000 = 915 000, see the first test.)
    const out = replay([setup({ timeControl: '900+10', incrementTiming: 'after-move' }), start(0), press(5000, 'white'), end(5000)]);
    expect(out).toEqual([move(5000, 'white', 1, 905000, 900000), state(5000, 'running', 'black', 905000, 900000, { white: 1, black: 0 })]);
  });

  it('classical 40/5400+30:900+30: a 41-move game crossing the move-40 bonus, to the ms', () => {
    // White thinks 100 000 per move, Black 60 000. Start: 5 400 000 + 30 000 = 5 430 000 each.
    // After k ≤ 39 moves: White 5 430 000 − 100 000k + 30 000k = 5 430 000 − 70 000k,
    //                     Black 5 430 000 − 60 000k + 30 000k = 5 430 000 − 30 000k.
    // Move 40 adds the 900 000 bonus at that press, then move 41's increment (30 000, stage 2):
    //   White after 40: 5 430 000 − 70 000·40 + 900 000 = 3 530 000; after 41: 3 460 000.
    //   Black after 40: 5 430 000 − 30 000·40 + 900 000 = 5 130 000; after 41: 5 100 000.
    const out = replay([setup({ preset: 'classical' }), ...steadyGame(41, 100000, 60000)]);
    expect(ofType(out, 'move')).toHaveLength(82);
    for (let k = 1; k <= 41; k++) {
      const bonus = k >= 40 ? 900000 : 0;
      const w = 5430000 - 70000 * k + bonus;
      const b = 5430000 - 30000 * k + bonus;
      const bBefore = 5430000 - 30000 * (k - 1) + (k - 1 >= 40 ? 900000 : 0);
      expect(moveOf(out, 'white', k)).toEqual(move((k - 1) * 160000 + 100000, 'white', k, w, bBefore));
      expect(moveOf(out, 'black', k)).toEqual(move(k * 160000, 'black', k, w, b));
    }
    // The exact figures at the bonus, written out.
    expect(moveOf(out, 'white', 39)).toEqual(move(6180000, 'white', 39, 2700000, 4290000));
    expect(moveOf(out, 'white', 40)).toEqual(move(6340000, 'white', 40, 3530000, 4260000));
    expect(moveOf(out, 'black', 40)).toEqual(move(6400000, 'black', 40, 3530000, 5130000));
    expect(moveOf(out, 'white', 41)).toEqual(move(6500000, 'white', 41, 3460000, 5130000));
  });

  it('before-move: completing move 40 credits the increment of the stage of move 41 (40/5400+30:900+60)', () => {
    // White 100 000 per move. Start 5 430 000. After 39: 5 430 000 − 70 000·39 = 2 700 000.
    // Move 40: 2 700 000 − 100 000 + 900 000 (bonus) + 60 000 (stage-2 increment, move 41) = 3 560 000.
    // Move 41: 3 560 000 − 100 000 + 60 000 = 3 520 000.
    const out = replay([setup({ timeControl: '40/5400+30:900+60' }), ...steadyGame(41, 100000, 60000)]);
    expect(moveOf(out, 'white', 39)?.white).toBe(2700000);
    expect(moveOf(out, 'white', 40)?.white).toBe(3560000);
    expect(moveOf(out, 'white', 41)?.white).toBe(3520000);
  });

  it('after-move: completing move k credits the increment of the stage of move k (40/5400+30:900+60)', () => {
    // Start 5 400 000 (no increment before the first move). After k ≤ 40: 5 400 000 − 70 000k,
    // plus the bonus at 40: 5 400 000 − 2 800 000 + 900 000 = 3 500 000.
    // Move 41 is played in stage 2: 3 500 000 − 100 000 + 60 000 = 3 460 000.
    const out = replay([setup({ timeControl: '40/5400+30:900+60', incrementTiming: 'after-move' }), ...steadyGame(41, 100000, 60000)]);
    expect(moveOf(out, 'white', 1)?.white).toBe(5330000);
    expect(moveOf(out, 'white', 39)?.white).toBe(2670000);
    expect(moveOf(out, 'white', 40)?.white).toBe(3500000);
    expect(moveOf(out, 'white', 41)?.white).toBe(3460000);
  });

  it('40/7200:20/3600:1800: bonus at move 40 and 60, none at 80 or after (periods do not repeat)', () => {
    // No increment. White 10 000 per move, Black 5 000.
    // White after k: 7 200 000 − 10 000k + 3 600 000·[k≥40] + 1 800 000·[k≥60].
    // Black after k: 7 200 000 − 5 000k  + 3 600 000·[k≥40] + 1 800 000·[k≥60].
    const out = replay([setup({ timeControl: '40/7200:20/3600:1800' }), ...steadyGame(100, 10000, 5000)]);
    const bonus = (k: number) => (k >= 40 ? 3600000 : 0) + (k >= 60 ? 1800000 : 0);
    for (const k of [1, 39, 40, 41, 59, 60, 61, 79, 80, 81, 100]) {
      expect(moveOf(out, 'white', k)?.white, `white move ${k}`).toBe(7200000 - 10000 * k + bonus(k));
      expect(moveOf(out, 'black', k)?.black, `black move ${k}`).toBe(7200000 - 5000 * k + bonus(k));
    }
    // Written out: White 39 → 6 810 000; 40 → 10 400 000; 60 → 12 000 000; 80 → 11 800 000.
    expect(moveOf(out, 'white', 39)?.white).toBe(6810000);
    expect(moveOf(out, 'white', 40)?.white).toBe(10400000);
    expect(moveOf(out, 'white', 60)?.white).toBe(12000000);
    expect(moveOf(out, 'white', 80)?.white).toBe(11800000);
  });

  it('the last period is final: 40/7200:20/3600:20/1800 adds nothing at move 80', () => {
    // Same game; the move count "20" of the last period must not add another 1 800 000 at 80.
    const out = replay([setup({ timeControl: '40/7200:20/3600:20/1800' }), ...steadyGame(81, 10000, 5000)]);
    // White after 79: 7 200 000 − 790 000 + 5 400 000 = 11 810 000; after 80: 11 800 000; after 81: 11 790 000.
    expect(moveOf(out, 'white', 79)?.white).toBe(11810000);
    expect(moveOf(out, 'white', 80)?.white).toBe(11800000);
    expect(moveOf(out, 'white', 81)?.white).toBe(11790000);
  });

  it('JSON stages: bonus and per-stage increment ({moves:2,seconds:60,increment:1},{seconds:30,increment:2})', () => {
    // Start 60 000 + 1 000 = 61 000 each (before-move).
    // White 1 at 10 000: 61 000 − 10 000 + 1 000 (move 2 in stage 1) = 52 000.
    // Black 1 at 15 000: 61 000 − 5 000 + 1 000 = 57 000.
    // White 2 at 25 000 (10 000 used): 52 000 − 10 000 + 30 000 (bonus) + 2 000 (move 3 in stage 2) = 74 000.
    // Black 2 at 30 000 (5 000 used): 57 000 − 5 000 + 30 000 + 2 000 = 84 000.
    // White 3 at 31 000 (1 000 used): 74 000 − 1 000 + 2 000 = 75 000.
    const out = replay([
      setup({
        timeControl: [
          { moves: 2, seconds: 60, increment: 1 },
          { seconds: 30, increment: 2 },
        ],
      }),
      start(0),
      press(10000, 'white'),
      press(15000, 'black'),
      press(25000, 'white'),
      press(30000, 'black'),
      press(31000, 'white'),
    ]);
    expect(ofType(out, 'move')).toEqual([
      move(10000, 'white', 1, 52000, 61000),
      move(15000, 'black', 1, 52000, 57000),
      move(25000, 'white', 2, 74000, 57000),
      move(30000, 'black', 2, 74000, 84000),
      move(31000, 'white', 3, 75000, 84000),
    ]);
  });

  it('sandclock *60: time charged to the side on move is credited to the other; flag at 0', () => {
    // Start 60 000 each. White moves at 10 000: White 50 000, Black 70 000.
    // Black moves at 40 000 (30 000 used): Black 40 000, White 80 000.
    // White runs from 40 000 with 80 000: flag at 120 000; Black then holds 40 000 + 80 000 = 120 000.
    const out = replay([setup({ timeControl: '*60' }), start(0), press(10000, 'white'), press(40000, 'black'), end(200000)]);
    expect(out).toEqual([
      move(10000, 'white', 1, 50000, 70000),
      move(40000, 'black', 1, 80000, 40000),
      flag(120000, 'white', 0, 120000),
      state(200000, 'flagged', 'white', 0, 120000, { white: 1, black: 1 }, 'white'),
    ]);
  });

  it('sandclock: the mid-move reading already credits the other side', () => {
    // At 25 000 White has run 25 000: White 35 000, Black 85 000 (sum stays 120 000).
    const out = replay([setup({ timeControl: '*60' }), start(0), end(25000)]);
    expect(out).toEqual([state(25000, 'running', 'white', 35000, 85000, { white: 0, black: 0 })]);
  });

  describe('simple vs Bronstein delay (5 s on 300 s)', () => {
    const simple = { timeControl: [{ seconds: 300, delay: 5, delayMode: 'simple' }] };
    const bronstein = { timeControl: [{ seconds: 300, delay: 5, delayMode: 'bronstein' }] };

    it('completed moves: both charge max(0, used − delay)', () => {
      // White 3 000 used: simple charges 0; Bronstein charges 3 000, gives back min(3 000, 5 000) → 300 000.
      // Black 8 000 used: simple 8 000 − 5 000 = 3 000; Bronstein 8 000 − 5 000 = 3 000 → 297 000.
      const lines = [start(0), press(3000, 'white'), press(11000, 'black')];
      const expected = [move(3000, 'white', 1, 300000, 300000), move(11000, 'black', 1, 300000, 297000)];
      expect(ofType(replay([setup(simple), ...lines]), 'move')).toEqual(expected);
      expect(ofType(replay([setup(bronstein), ...lines]), 'move')).toEqual(expected);
    });

    it('the same presses read differently mid-move: simple holds, Bronstein counts down', () => {
      // At 3 000 into White's turn: simple has charged nothing (300 000);
      // Bronstein has charged 3 000 (297 000), to be given back at the press.
      const lines = [start(0), end(3000)];
      expect(replay([setup(simple), ...lines])).toEqual([state(3000, 'running', 'white', 300000, 300000, { white: 0, black: 0 })]);
      expect(replay([setup(bronstein), ...lines])).toEqual([state(3000, 'running', 'white', 297000, 300000, { white: 0, black: 0 })]);
    });

    it('the same presses give different flags: simple flags delay later', () => {
      // White always moves 1 000 after Black (inside the delay: stays 300 000).
      // Black 1: 151 000 − 1 000 = 150 000 used, 145 000 charged → 155 000 (both modes).
      // Black 2: 302 000 − 152 000 = 150 000 used (< 155 000, so Bronstein has not flagged),
      //          145 000 charged → 10 000 (both modes).
      // Black's 3rd turn starts at 303 000 with 10 000:
      //   simple:    flag at 303 000 + 5 000 + 10 000 = 318 000; the press at 315 000 is in time,
      //              12 000 used, 7 000 charged → 3 000.
      //   Bronstein: flag at 303 000 + 10 000 = 313 000; the press at 315 000 is too late.
      const lines = [
        start(0),
        press(1000, 'white'),
        press(151000, 'black'),
        press(152000, 'white'),
        press(302000, 'black'),
        press(303000, 'white'),
        press(315000, 'black'),
        end(400000),
      ];
      const s = replay([setup(simple), ...lines]);
      const b = replay([setup(bronstein), ...lines]);
      for (const out of [s, b]) {
        expect(moveOf(out, 'black', 1)).toEqual(move(151000, 'black', 1, 300000, 155000));
        expect(moveOf(out, 'black', 2)).toEqual(move(302000, 'black', 2, 300000, 10000));
      }
      expect(moveOf(s, 'black', 3)).toEqual(move(315000, 'black', 3, 300000, 3000));
      // simple: White's next turn starts at 315 000 with 300 000 → flag only at 620 000, after the end.
      expect(ofType(s, 'flag')).toEqual([]);
      expect(moveOf(b, 'black', 3)).toBeUndefined();
      expect(ofType(b, 'flag')).toEqual([flag(313000, 'black', 300000, 0)]);
    });

    it('simple delay: pauses are excluded from the delay', () => {
      // White runs 0 → 2 000, paused 2 000 → 102 000, runs 102 000 → 106 000: 6 000 running.
      // Charged 6 000 − 5 000 = 1 000 → 299 000 (had the pause eaten the delay: 296 000).
      // Bronstein: 6 000 used, 5 000 given back → also 299 000.
      const lines = [start(0), pause(2000), resume(102000), press(106000, 'white')];
      expect(ofType(replay([setup(simple), ...lines]), 'move')).toEqual([move(106000, 'white', 1, 299000, 300000)]);
      expect(ofType(replay([setup(bronstein), ...lines]), 'move')).toEqual([move(106000, 'white', 1, 299000, 300000)]);
    });
  });

  it('armageddon preset: White 6 min, Black 5 min, no increment; Black flags', () => {
    // White 360 000 − 20 000 = 340 000; Black 300 000 − 30 000 = 270 000; White 340 000 − 10 000 = 330 000.
    // Black runs from 60 000 with 270 000: flag at 330 000.
    const lines = [start(0), press(20000, 'white'), press(50000, 'black'), press(60000, 'white'), end(400000)];
    const expected = [
      move(20000, 'white', 1, 340000, 300000),
      move(50000, 'black', 1, 340000, 270000),
      move(60000, 'white', 2, 330000, 270000),
      flag(330000, 'black', 330000, 0),
      state(400000, 'flagged', 'black', 330000, 0, { white: 2, black: 1 }, 'black'),
    ];
    expect(replay([setup({ preset: 'armageddon' }), ...lines])).toEqual(expected);
    // docs/replay.md "setup": the same control given per side.
    expect(replay([setup({ white: '360', black: '300' }), ...lines])).toEqual(expected);
  });

  it('armageddon: White who never moves flags at exactly 360 000', () => {
    const out = replay([setup({ white: '360', black: '300' }), start(0), end(360000)]);
    expect(out).toEqual([flag(360000, 'white', 0, 300000), state(360000, 'flagged', 'white', 0, 300000, { white: 0, black: 0 }, 'white')]);
  });
});

describe('replay contract: the flag (docs/replay.md "Timed inputs")', () => {
  // sudden-death-60: White moves at 1 000 (3 599 000), Black at 2 000 (3 599 000).
  // White runs from 2 000 with 3 599 000: flag at 2 000 + 3 599 000 = 3 601 000.
  const opening = [setup({ preset: 'sudden-death-60' }), start(0), press(1000, 'white'), press(2000, 'black')];

  it('flag at the exact computed instant, both times frozen', () => {
    const out = replay([...opening, end(3700000)]);
    expect(out.slice(2)).toEqual([flag(3601000, 'white', 0, 3599000), state(3700000, 'flagged', 'white', 0, 3599000, { white: 1, black: 1 }, 'white')]);
  });

  it('a press at exactly the flag instant is too late (deadlines before inputs)', () => {
    const out = replay([...opening, press(3601000, 'white'), end(3601000)]);
    expect(out.slice(2)).toEqual([flag(3601000, 'white', 0, 3599000), state(3601000, 'flagged', 'white', 0, 3599000, { white: 1, black: 1 }, 'white')]);
  });

  it('a press 1 ms before the flag is in time', () => {
    // White: 3 599 000 − (3 600 999 − 2 000) = 1.
    const out = replay([...opening, press(3600999, 'white'), end(3600999)]);
    expect(out.slice(2)).toEqual([move(3600999, 'white', 2, 1, 3599000), state(3600999, 'running', 'black', 1, 3599000, { white: 2, black: 1 })]);
  });

  it('end at exactly the flag instant reads flagged (deadlines before inputs)', () => {
    const out = replay([...opening, end(3601000)]);
    expect(last(out)).toEqual(state(3601000, 'flagged', 'white', 0, 3599000, { white: 1, black: 1 }, 'white'));
  });

  it('after the flag presses do nothing and no time is added (increment mode: other clock stops)', () => {
    // rapid: White moves at 5 000 → 915 000. Black runs from 5 000 with 910 000: flag at 915 000.
    // White's clock must not run afterwards, and presses add no increment.
    const out = replay([
      setup({ preset: 'rapid' }),
      start(0),
      press(5000, 'white'),
      press(915000, 'black'),
      press(920000, 'white'),
      press(930000, 'black'),
      end(2000000),
    ]);
    expect(out).toEqual([
      move(5000, 'white', 1, 915000, 910000),
      flag(915000, 'black', 915000, 0),
      state(2000000, 'flagged', 'black', 915000, 0, { white: 1, black: 0 }, 'black'),
    ]);
  });

  it('FIDE Laws 6.10.2: after a flag the arbiter adjusts and resumes; the first flag is remembered', () => {
    // 300 s sudden death: White flags at 300 000. Arbiter adds 60 000 at 310 000, resumes at 320 000.
    // White moves at 330 000: 60 000 − 10 000 = 50 000. Black runs from 330 000 with 300 000:
    // flag at 630 000. The state still names White, whose flag fell first.
    const out = replay([setup({ timeControl: '300' }), start(0), adjust(310000, 'white', 60000), resume(320000), press(330000, 'white'), end(700000)]);
    expect(out).toEqual([
      flag(300000, 'white', 0, 300000),
      move(330000, 'white', 1, 50000, 300000),
      flag(630000, 'black', 50000, 0),
      state(700000, 'flagged', 'black', 50000, 0, { white: 1, black: 0 }, 'white'),
    ]);
  });

  it('FIDE Laws 6.10.2: resume after a flag with no time added does nothing', () => {
    // Reading of "may resume if the side on move now has time left": with 0 left nothing runs.
    const out = replay([setup({ timeControl: '300' }), start(0), resume(310000), press(320000, 'white'), end(400000)]);
    expect(out).toEqual([flag(300000, 'white', 0, 300000), state(400000, 'flagged', 'white', 0, 300000, { white: 0, black: 0 }, 'white')]);
  });
});

describe('replay contract: default time, forfeit on lateness (FIDE Laws 6.7, docs/replay.md "Timed inputs")', () => {
  const ivanovo = setup({ preset: 'sudden-death-60', defaultTime: 900 });

  it("FIDE Laws 6.7.1: both absent at 15:00 → two forfeit lines, White first; White's time ran from the start (6.7.2)", () => {
    // Forfeit at 0 + 900 000. White's clock ran 0 → 900 000: 3 600 000 − 900 000 = 2 700 000; then frozen.
    const out = replay([ivanovo, start(0), end(1000000)]);
    expect(out).toEqual([forfeit(900000, 'white'), forfeit(900000, 'black'), state(1000000, 'forfeited', 'white', 2700000, 3600000, { white: 0, black: 0 })]);
  });

  it('FIDE Laws 6.7.1: only the absent side forfeits (White arrived)', () => {
    const out = replay([ivanovo, start(0), arrive(1000, 'white'), end(1000000)]);
    expect(out).toEqual([forfeit(900000, 'black'), state(1000000, 'forfeited', 'white', 2700000, 3600000, { white: 0, black: 0 })]);
  });

  it('FIDE Laws 6.7.1: only the absent side forfeits (Black arrived, White absent)', () => {
    const out = replay([ivanovo, start(0), arrive(500, 'black'), end(1000000)]);
    expect(ofType(out, 'forfeit')).toEqual([forfeit(900000, 'white')]);
  });

  it('arriving at exactly start + default time is too late; 1 ms before is in time', () => {
    const late = replay([ivanovo, start(0), arrive(1, 'white'), arrive(900000, 'black'), end(900000)]);
    expect(late).toEqual([forfeit(900000, 'black'), state(900000, 'forfeited', 'white', 2700000, 3600000, { white: 0, black: 0 })]);
    const inTime = replay([ivanovo, start(0), arrive(1, 'white'), arrive(899999, 'black'), end(1000000)]);
    expect(inTime).toEqual([state(1000000, 'running', 'white', 2600000, 3600000, { white: 0, black: 0 })]);
  });

  it('the countdown runs from start, not from setup (start at 50 000 → forfeit at 950 000)', () => {
    const out = replay([ivanovo, start(50000), arrive(60000, 'white'), end(1000000)]);
    expect(ofType(out, 'forfeit')).toEqual([forfeit(950000, 'black')]);
  });

  it('a press of the own lever that does nothing else is an arrival (Black, not on move)', () => {
    // Black presses at 1 000 while White is on move: no move, but Black is present.
    // White's move at 2 000 is White's arrival. No forfeit; White 3 600 000 − 2 000 = 3 598 000;
    // Black runs 2 000 → 1 000 000: 3 600 000 − 998 000 = 2 602 000.
    const out = replay([ivanovo, start(0), press(1000, 'black'), press(2000, 'white'), end(1000000)]);
    expect(out).toEqual([move(2000, 'white', 1, 3598000, 3600000), state(1000000, 'running', 'black', 3598000, 2602000, { white: 1, black: 0 })]);
  });

  it("White's press while ready does nothing else but is White's arrival", () => {
    // White presses before the start (ignored as a press), Black arrives; clock runs from 0.
    const out = replay([ivanovo, press(0, 'white'), start(0), arrive(10, 'black'), end(1000000)]);
    expect(out).toEqual([state(1000000, 'running', 'white', 2600000, 3600000, { white: 0, black: 0 })]);
  });

  it("Black's press while ready starts White's clock and is Black's arrival", () => {
    // The countdown starts at the press (20 000): White absent → forfeit at 920 000.
    // White's clock ran 20 000 → 920 000: 3 600 000 − 900 000 = 2 700 000.
    const out = replay([ivanovo, press(20000, 'black'), end(1000000)]);
    expect(out).toEqual([forfeit(920000, 'white'), state(1000000, 'forfeited', 'white', 2700000, 3600000, { white: 0, black: 0 })]);
  });

  it('pauses do not stop the default-time countdown; after a forfeit resume and presses do nothing', () => {
    // Paused at 100 000 (White charged 100 000 → 3 500 000); forfeits still at 900 000.
    const out = replay([ivanovo, start(0), pause(100000), resume(950000), press(960000, 'white'), end(1000000)]);
    expect(out).toEqual([forfeit(900000, 'white'), forfeit(900000, 'black'), state(1000000, 'forfeited', 'white', 3500000, 3600000, { white: 0, black: 0 })]);
  });

  it('a default-time deadline passed while flagged forfeits at the moment of the resume', () => {
    // 300 s with default 900 s; White arrived, Black never. White flags at 300 000 (Black 300 000).
    // While flagged nothing else is scheduled: no forfeit at 900 000.
    // Arbiter adds 600 000 to White at 400 000 and resumes at 1 000 000: Black forfeits at 1 000 000,
    // before any time runs (White keeps 600 000).
    const out = replay([
      setup({ timeControl: '300', defaultTime: 900 }),
      start(0),
      arrive(1000, 'white'),
      adjust(400000, 'white', 600000),
      resume(1000000),
      end(1100000),
    ]);
    expect(out).toEqual([
      flag(300000, 'white', 0, 300000),
      forfeit(1000000, 'black'),
      state(1100000, 'forfeited', 'white', 600000, 300000, { white: 0, black: 0 }, 'white'),
    ]);
  });

  it('while flagged the passed default time stays unannounced', () => {
    const out = replay([setup({ timeControl: '300', defaultTime: 900 }), start(0), arrive(1000, 'white'), end(1000000)]);
    expect(out).toEqual([flag(300000, 'white', 0, 300000), state(1000000, 'flagged', 'white', 0, 300000, { white: 0, black: 0 }, 'white')]);
  });

  it('FIDE Laws 6.7.1: default time 0 is not set by omission — without defaultTime nobody forfeits', () => {
    const out = replay([setup({ preset: 'sudden-death-60' }), start(0), end(1000000)]);
    expect(out).toEqual([state(1000000, 'running', 'white', 2600000, 3600000, { white: 0, black: 0 })]);
  });
});

describe('replay contract: adjust and penalty (FIDE Laws 6.10.2, 7.5.5, A.3, B.3; docs/replay.md "Timed inputs")', () => {
  // Penalty at the start, before any time runs: the opponent (not on move unless White) gains it.
  // White offends at 0, so Black (not running) gets the penalty; read at 0.
  const penaltyFor = (s: In) => replay([s, start(0), penalty(0, 'white'), end(0)]);

  it('FIDE Laws 7.5.5: standard (classical, x = 5 400 + 60·30 = 7 200 s) → +2 min to the opponent', () => {
    // Black: 5 430 000 + 120 000 = 5 550 000; the penalty records White's illegal move (the state's count).
    expect(penaltyFor(setup({ preset: 'classical' }))).toEqual([
      state(0, 'running', 'white', 5430000, 5550000, { white: 0, black: 0 }, null, { white: 1, black: 0 }),
    ]);
  });

  it('FIDE Laws A.3: rapid (900+10, x = 900 + 600 = 1 500 s) → +1 min', () => {
    // Black: 910 000 + 60 000 = 970 000.
    expect(last(penaltyFor(setup({ preset: 'rapid' })))).toMatchObject({ white: 910000, black: 970000 });
  });

  it('FIDE Laws B.3: blitz (armageddon, x = min(360, 300) = 300 s ≤ 600) → +1 min; Black offends, White gains', () => {
    // White is on move and gains 60 000 at 1 000: 360 000 − 1 000 + 60 000 = 419 000.
    const out = replay([setup({ preset: 'armageddon' }), start(0), penalty(1000, 'black'), end(1000)]);
    expect(out).toEqual([state(1000, 'running', 'white', 419000, 300000, { white: 0, black: 0 }, null, { white: 0, black: 1 })]);
  });

  it.each([
    // [control, x in seconds, category, penalty]
    ['600', '600 ≤ 600: blitz', 60000],
    ['540+1', '540 + 60 = 600 ≤ 600: blitz', 60000],
    ['601', '600 < 601 < 3 600: rapid', 60000],
    ['3599', '3 599 < 3 600: rapid', 60000],
    ['2999+10', '2 999 + 600 = 3 599: rapid', 60000],
    ['3600', '3 600 ≥ 3 600: standard', 120000],
    ['3000+10', '3 000 + 600 = 3 600: standard', 120000],
  ])('FIDE Laws A.1/B.1 boundaries: %s (%s) → +%i ms', (tc, _why, penaltyMs) => {
    const out = last(penaltyFor(setup({ timeControl: tc })));
    // Black held base + first increment (before-move); read at 0.
    const [base, inc = '0'] = tc.split('+');
    const blackStart = Number(base) * 1000 + Number(inc) * 1000;
    expect(out.black).toBe(blackStart + penaltyMs);
  });

  it('FIDE Laws A.1: the category uses the smaller side (White 3600, Black 3599 → rapid, +1 min)', () => {
    const out = last(penaltyFor(setup({ white: '3600', black: '3599' })));
    expect(out.black).toBe(3599000 + 60000);
  });

  it('FIDE Laws 6.10.2: adjust adds time to the running side', () => {
    // 3 600 000 − 1 000 + 60 000 = 3 659 000 at 1 000; at 11 000: 3 649 000.
    const out = replay([setup({ timeControl: '3600' }), start(0), adjust(1000, 'white', 60000), end(11000)]);
    expect(out).toEqual([state(11000, 'running', 'white', 3649000, 3600000, { white: 0, black: 0 })]);
  });

  it('adjust never goes below zero; a side at zero flags as soon as its clock runs', () => {
    // Black (not on move) set to 0 at 1 000 (−10⁹ clamps to 0): no flag while White runs.
    // White moves at 2 000: Black's clock starts with 0 → flag at 2 000.
    const out = replay([setup({ timeControl: '3600' }), start(0), adjust(1000, 'black', -1e9), end(1500), press(2000, 'white'), end(3000)]);
    expect(out).toEqual([
      state(1500, 'running', 'white', 3598500, 0, { white: 0, black: 0 }),
      move(2000, 'white', 1, 3598000, 0),
      flag(2000, 'black', 3598000, 0),
      state(3000, 'flagged', 'black', 3598000, 0, { white: 1, black: 0 }, 'black'),
    ]);
  });

  it('adjusting the running side to exactly zero flags at once', () => {
    // At 1 000 White holds 3 599 000; −3 599 000 leaves 0 → flag at 1 000.
    const out = replay([setup({ timeControl: '3600' }), start(0), adjust(1000, 'white', -3599000), end(5000)]);
    expect(out).toEqual([flag(1000, 'white', 0, 3600000), state(5000, 'flagged', 'white', 0, 3600000, { white: 0, black: 0 }, 'white')]);
  });

  it('adjusting the running side below zero clamps to 0 and flags at once', () => {
    const out = replay([setup({ timeControl: '3600' }), start(0), adjust(1000, 'white', -1e9), end(5000)]);
    expect(ofType(out, 'flag')).toEqual([flag(1000, 'white', 0, 3600000)]);
  });

  it('adjusting to zero while a simple delay still runs flags when the delay ends', () => {
    // 300 s, simple delay 5 s. At 2 000 White's main time is untouched (300 000): −300 000 → 0.
    // The delay runs until 0 + 5 000: flag at 5 000.
    const out = replay([setup({ timeControl: [{ seconds: 300, delay: 5, delayMode: 'simple' }] }), start(0), adjust(2000, 'white', -300000), end(10000)]);
    expect(out).toEqual([flag(5000, 'white', 0, 300000), state(10000, 'flagged', 'white', 0, 300000, { white: 0, black: 0 }, 'white')]);
  });

  it('at zero with a simple delay, a move within the delay is in time; next turn flags after the delay', () => {
    // White at 0 from 2 000, moves at 4 999 (inside the 5 000 delay): 0 charged → 0.
    // Black moves at 10 000: 5 001 used, 1 charged → 299 999.
    // White's new turn starts at 10 000 with 0: flag at 10 000 + 5 000 = 15 000.
    const out = replay([
      setup({ timeControl: [{ seconds: 300, delay: 5, delayMode: 'simple' }] }),
      start(0),
      adjust(2000, 'white', -300000),
      press(4999, 'white'),
      press(10000, 'black'),
      end(20000),
    ]);
    expect(out).toEqual([
      move(4999, 'white', 1, 0, 300000),
      move(10000, 'black', 1, 0, 299999),
      flag(15000, 'white', 0, 299999),
      state(20000, 'flagged', 'white', 0, 299999, { white: 1, black: 1 }, 'white'),
    ]);
  });

  it('adjusting the running side to zero after its simple delay has run out flags at once', () => {
    // At 7 000 White's main time is 300 000 − (7 000 − 5 000) = 298 000; −298 000 → 0: flag at 7 000.
    const out = replay([setup({ timeControl: [{ seconds: 300, delay: 5, delayMode: 'simple' }] }), start(0), adjust(7000, 'white', -298000), end(7000)]);
    expect(ofType(out, 'flag')).toEqual([flag(7000, 'white', 0, 300000)]);
  });

  it("a flag that falls at once at the last line's t is written even when the stream ends there", () => {
    // The adjust at 1 000 leaves White at 0: the flag falls at 1 000, an instant the input has
    // already reached, so the output must carry it although no later line follows.
    const out = replay([setup({ timeControl: '3600' }), start(0), adjust(1000, 'white', -1e9)]);
    expect(ofType(out, 'flag')).toEqual([flag(1000, 'white', 0, 3600000)]);
  });
});

describe('replay contract: presses and states (FIDE Laws 6.2.1, 6.6, 6.11; docs/replay.md "Timed inputs")', () => {
  const sd = setup({ timeControl: '3600' });

  it('FIDE Laws 6.11: presses while paused do nothing; resume continues the same side', () => {
    // White runs 0 → 1 000 and 3 000 → 4 000: 3 598 000; the presses at 2 000 are ignored.
    const out = replay([sd, start(0), pause(1000), press(2000, 'white'), press(2000, 'black'), end(2500), resume(3000), end(4000)]);
    expect(out).toEqual([
      state(2500, 'paused', 'white', 3599000, 3600000, { white: 0, black: 0 }),
      state(4000, 'running', 'white', 3598000, 3600000, { white: 0, black: 0 }),
    ]);
  });

  it('FIDE Laws 6.11: a paused clock does not flag', () => {
    // 300 s: paused at 1 000 with 299 000 left; nothing falls during a long pause.
    const out = replay([setup({ timeControl: '300' }), start(0), pause(1000), end(1000000)]);
    expect(out).toEqual([state(1000000, 'paused', 'white', 299000, 300000, { white: 0, black: 0 })]);
  });

  it('FIDE Laws 6.2.1: a press by the side not on move does nothing', () => {
    const out = replay([sd, start(0), press(1000, 'black'), end(2000)]);
    expect(out).toEqual([state(2000, 'running', 'white', 3598000, 3600000, { white: 0, black: 0 })]);
  });

  it("a press by Black while ready starts White's clock (no move is counted)", () => {
    const out = replay([sd, press(500, 'black'), end(10500)]);
    expect(out).toEqual([state(10500, 'running', 'white', 3590000, 3600000, { white: 0, black: 0 })]);
  });

  it('a press by White while ready does nothing', () => {
    const out = replay([sd, press(500, 'white'), end(10500)]);
    expect(out).toEqual([state(10500, 'ready', 'white', 3600000, 3600000, { white: 0, black: 0 })]);
  });

  it("FIDE Laws 6.6: start starts White's clock", () => {
    const out = replay([sd, start(100), end(1100)]);
    expect(out).toEqual([state(1100, 'running', 'white', 3599000, 3600000, { white: 0, black: 0 })]);
  });
});

describe('replay contract: several games in one stream (docs/replay.md "Input")', () => {
  it('each setup starts a new game; t may restart at 0 in the next game', () => {
    // Game 1 (rapid): White 910 000 − 5 000 + 10 000 = 915 000. Game 2 (armageddon, t from 0):
    // White 360 000 − 1 000 = 359 000; flag from game 1 does not carry over.
    const out = replay([
      setup({ preset: 'rapid' }),
      start(0),
      press(5000, 'white'),
      end(900000),
      setup({ preset: 'armageddon' }),
      start(0),
      press(1000, 'white'),
      end(2000),
    ]);
    expect(out).toEqual([
      move(5000, 'white', 1, 915000, 910000),
      state(900000, 'running', 'black', 915000, 15000, { white: 1, black: 0 }),
      move(1000, 'white', 1, 359000, 300000),
      state(2000, 'running', 'black', 359000, 299000, { white: 1, black: 0 }),
    ]);
  });

  it('a pending flag of the previous game never fires in the next', () => {
    // Game 1: 300 s, White would flag at 300 000, but a new setup comes before any line reaches
    // that instant; game 2's timeline starts over at 0, so nothing of game 1 may appear.
    // Game 2: 3 600 000 − 400 000 = 3 200 000.
    const out = replay([setup({ timeControl: '300' }), start(0), setup({ timeControl: '3600' }), start(0), end(400000)]);
    expect(out).toEqual([state(400000, 'running', 'white', 3200000, 3600000, { white: 0, black: 0 })]);
  });
});

describe("replay extension: set-moves, the arbiter's move-counter correction (FIDE Laws 6.10.2; docs/replay.md)", () => {
  it("a corrected counter moves the move-40 bonus: set to 38 while paused, the bonus comes at White's move 40, once", () => {
    // Classical 40/5400+30:900+30, before-move: White starts with 5 430 000.
    // White's move 1 at 10 000: 5 430 000 − 10 000 + 30 000 = 5 450 000.
    // Paused at 12 000 (Black used 2 000); the arbiter finds the clock missed presses: White's counter is 38.
    // Resumed at 15 000; Black's move 1 at 20 000 (2 000 + 5 000 used): 5 430 000 − 7 000 + 30 000 = 5 453 000.
    // White's move 39 at 30 000 (10 000 used): 5 450 000 − 10 000 + 30 000 = 5 470 000.
    // Black's move 2 at 40 000: 5 453 000 − 10 000 + 30 000 = 5 473 000.
    // White's move 40 at 50 000 ends period 0: 5 470 000 − 10 000 + 900 000 + 30 000 = 6 390 000.
    const out = replay([
      setup({ preset: 'classical' }),
      start(0),
      press(10_000, 'white'),
      { t: 12_000, type: 'pause' },
      { t: 13_000, type: 'set-moves', side: 'white', moves: 38 },
      { t: 15_000, type: 'resume' },
      press(20_000, 'black'),
      press(30_000, 'white'),
      press(40_000, 'black'),
      press(50_000, 'white'),
    ]);
    expect(ofType(out, 'move').filter((o) => o.side === 'white')).toEqual([
      move(10_000, 'white', 1, 5_450_000, 5_430_000),
      move(30_000, 'white', 39, 5_470_000, 5_453_000),
      move(50_000, 'white', 40, 6_390_000, 5_473_000),
    ]);
  });

  it('bad moves and period are errors naming the field', () => {
    const run = (extra: In) => () =>
      replayText([JSON.stringify(setup({ preset: 'rapid' })), JSON.stringify({ t: 0, type: 'set-moves', side: 'white', ...extra })].join('\n'));
    expect(run({ moves: -1 })).toThrow('line 2: "moves" must be a whole number ≥ 0, got -1');
    expect(run({ moves: 3, period: 'x' })).toThrow('line 2: "period" must be a whole number ≥ 0, got "x"');
    expect(run({ side: 'red', moves: 3 })).toThrow('line 2: "side" must be "white" or "black", got "red"');
  });
});

describe('replay contract: bad input (docs/replay.md, exit status, and "Input")', () => {
  /** Feeds lines one by one; returns what was written and the error thrown. */
  function feed(lines: string[]): { out: Out[]; error: unknown } {
    const written: string[] = [];
    const r = new Replayer((l) => written.push(l));
    let error: unknown = null;
    try {
      for (const l of lines) r.line(l);
      r.finish();
    } catch (err) {
      error = err;
    }
    return { out: written.map((l) => JSON.parse(l) as Out).filter((o) => CONTRACT_TYPES.has(o.type as string)), error };
  }
  const j = (o: In) => JSON.stringify(o);
  const good = [j(setup({ preset: 'rapid' })), j(start(0)), j(press(5000, 'white'))];
  const goodOut = [move(5000, 'white', 1, 915000, 910000)];

  function expectError(lines: string[], lineNo: number, mentions: string[] = []) {
    const { out, error } = feed(lines);
    expect(error).toBeInstanceOf(ReplayError);
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^line ${lineNo}: \\S`));
    expect(message).not.toContain('\n');
    for (const m of mentions) expect(message).toContain(m);
    return out;
  }

  it('malformed JSON → line N, earlier lines already written', () => {
    expect(expectError([...good, '{"t":6000,"type":"press"'], 4)).toEqual(goodOut);
  });

  it('unknown type names the type', () => {
    expect(expectError([...good, j({ t: 6000, type: 'jump' })], 4, ['jump'])).toEqual(goodOut);
  });

  it('unknown side names the side', () => {
    expect(expectError([...good, j({ t: 6000, type: 'press', side: 'red' })], 4, ['red'])).toEqual(goodOut);
    expectError([...good, j({ t: 6000, type: 'adjust', side: 'green', ms: 1000 })], 4, ['green']);
    expectError([...good, j({ t: 6000, type: 'arrive', side: 'blue' })], 4, ['blue']);
    expectError([...good, j({ t: 6000, type: 'penalty', side: 'pink' })], 4, ['pink']);
  });

  it('a press without a side is an error', () => {
    expectError([...good, j({ t: 6000, type: 'press' })], 4);
  });

  it('missing setup → line 1', () => {
    expectError([j(start(0))], 1);
    expectError(['', j(press(10, 'black'))], 2);
  });

  it('t going backwards within a game → that line', () => {
    expect(expectError([...good, j(press(4999, 'black'))], 4, ['4999'])).toEqual(goodOut);
  });

  it('t is an integer number of milliseconds', () => {
    expectError([...good, j({ t: 6000.5, type: 'press', side: 'black' })], 4);
    expectError([...good, j({ t: '6000', type: 'press', side: 'black' })], 4);
  });

  it.each([
    ['40/5400+x', 'x'],
    ['?', '?'],
    ['-', '-'],
    ['90m', '90m'],
    ['40/5400+30:abc', 'abc'],
    ['*x', 'x'],
  ])('a bad PGN time control %s names the token %s', (tc, token) => {
    expect(expectError([...good, j(setup({ timeControl: tc }))], 4, [token])).toEqual(goodOut);
  });

  it('a bad JSON time control names the field', () => {
    expectError([j(setup({ timeControl: [{ seconds: -1 }] }))], 1, ['seconds']);
    expectError([j(setup({ timeControl: [{ seconds: 300, delayMode: 'fischer' }] }))], 1, ['delayMode']);
    expectError([j(setup({ timeControl: [{ seconds: 300, incremnt: 5 }] }))], 1, ['incremnt']);
  });

  it('an unknown preset names it', () => {
    expectError([j(setup({ preset: 'bullet' }))], 1, ['bullet']);
  });

  it('a bad defaultTime or incrementTiming names the field', () => {
    expectError([j(setup({ preset: 'rapid', defaultTime: -5 }))], 1, ['defaultTime']);
    expectError([j(setup({ preset: 'rapid', incrementTiming: 'sometimes' }))], 1, ['incrementTiming']);
  });

  it('deadlines before the bad line were already written', () => {
    // 300 s: White flags at 300 000; the bad line at 400 000 comes after that output.
    const { out, error } = feed([j(setup({ timeControl: '300' })), j(start(0)), j(end(350000)), '{oops']);
    expect(error).toBeInstanceOf(ReplayError);
    expect(out[0]).toEqual(flag(300000, 'white', 0, 300000));
  });
});

// The take-back as an arbiter uses it (docs/replay.md "Take-back"), exact to the millisecond:
// annulling one side's move leaves the other side's count, period and credited time standing
// (FIDE Laws 7.5.1 with 6.10.2), the arbiter may keep both clock times (Laws 7.1), a sandclock
// comes back as it is shown, and a turn keeps the one delay it began with. Each case prints the
// contract's lines, so the arithmetic in the comments is checked in full.
import { describe, expect, it } from 'vitest';
import { replayText } from '../firmware-ts/replay.ts';

type Line = Record<string, unknown>;
const run = (lines: Line[]): Line[] => replayText(lines.map((l) => JSON.stringify(l)).join('\n')).map((l) => JSON.parse(l) as Line);
const last = (out: Line[]) => out[out.length - 1];
const state = (
  t: number,
  status: string,
  turn: string,
  white: number,
  black: number,
  moves: { white: number; black: number },
  flag: string | null,
  illegal: { white: number; black: number },
) => ({
  t,
  type: 'state',
  status,
  turn,
  white,
  black,
  moves,
  flag,
  illegal,
});

describe("a take-back leaves the other side's count standing (FIDE Laws 7.5.1 with 6.10.2)", () => {
  it("the arbiter corrects Black into the second period, then takes back White's move: Black keeps 2 moves and the 30 s", () => {
    // [2/60, 30]: W1 at 1 s (59 000), B1 at 3 s (58 000), W2 at 6 s: 56 000 + 30 000 = 86 000.
    // Black's counter set to 2 at 8 s (paused at 7 s): +30 000 → 87 000. Take-back at 9 s:
    // White 56 000 with 1 move; Black its 58 000 at the press + the 30 000 its correction credited.
    const out = run([
      { type: 'setup', timeControl: [{ moves: 2, seconds: 60 }, { seconds: 30 }] },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'press', side: 'black' },
      { t: 6000, type: 'press', side: 'white' },
      { t: 7000, type: 'pause' },
      { t: 8000, type: 'moves', side: 'black', moves: 2 },
      { t: 9000, type: 'takeback' },
      { t: 10000, type: 'end' },
    ]);
    expect(out.slice(3)).toEqual([
      { t: 8000, type: 'moves', side: 'black', moves: 2, period: 1, white: 86000, black: 87000 },
      { t: 9000, type: 'takeback', side: 'white', move: 1, times: 'rewind', white: 56000, black: 88000 },
      state(10000, 'paused', 'white', 56000, 88000, { white: 1, black: 2 }, null, { white: 1, black: 0 }),
    ]);
  });

  it("classical, both counters one short at move 39: after W 41, B 40 and a take-back of White's move 40, Black keeps its 15 minutes and never flags in period 1", () => {
    // 40/5400+30:900+30, 10 s a move. White's 40th press credits the 15 minutes; paused 5 s later.
    // The arbiter sets White 41 (nothing more to credit) and Black 40 (+900 000 for Black), then
    // takes back White's move 40: White goes back to 39 moves, its time at the press; Black stays
    // at 40 moves with the 15 minutes (its 5 s since the press given back).
    const lines: Line[] = [
      { type: 'setup', preset: 'classical' },
      { t: 0, type: 'start' },
    ];
    let t = 0;
    for (let k = 0; k < 39; k++) {
      lines.push({ t: (t += 10_000), type: 'press', side: 'white' }, { t: (t += 10_000), type: 'press', side: 'black' });
    }
    lines.push({ t: (t += 10_000), type: 'press', side: 'white' }); // 790 000: W40
    lines.push({ t: (t += 5_000), type: 'pause' }); // 795 000
    lines.push({ t: t + 1000, type: 'moves', side: 'white', moves: 41 }, { t: t + 2000, type: 'moves', side: 'black', moves: 40 });
    lines.push({ t: t + 3000, type: 'takeback' }, { t: t + 3000, type: 'end' });
    const out = run(lines);
    // Each side: 5 430 000 − 39 × 10 000 + 39 × 30 000 = 6 210 000 after 39 moves.
    expect(out.slice(-2)).toEqual([
      { t: 798000, type: 'takeback', side: 'white', move: 39, times: 'rewind', white: 6200000, black: 7110000 },
      state(798000, 'paused', 'white', 6200000, 7110000, { white: 39, black: 40 }, null, { white: 1, black: 0 }),
    ]);
    // The game goes on: 30 more moves each at 3 minutes a move. Black, in period 1 with the
    // 15 minutes, has 7 110 000 − 30 × 180 000 + 30 × 30 000 = 2 610 000 left: no flag.
    const more: Line[] = [...lines.slice(0, -1), { t: 800_000, type: 'resume' }];
    let u = 800_000;
    for (let k = 0; k < 30; k++) {
      more.push({ t: (u += 180_000), type: 'press', side: 'white' }, { t: (u += 180_000), type: 'press', side: 'black' });
    }
    more.push({ t: u, type: 'end' });
    const after = run(more);
    expect(after.some((o) => o.type === 'flag')).toBe(false);
    expect(last(after)).toMatchObject({ black: 2610000, moves: { white: 69, black: 70 }, flag: null });
  });

  it("the mover's own correction since the press goes back with its move, with the time it credited", () => {
    // [2/60, 30]: after W2 (period 1, 86 000), White's counter is set to 5: nothing more to credit.
    // Black's set to 3 credits its 30 s. The take-back undoes White's correction, keeps Black's.
    const out = run([
      { type: 'setup', timeControl: [{ moves: 2, seconds: 60 }, { seconds: 30 }] },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'press', side: 'black' },
      { t: 6000, type: 'press', side: 'white' },
      { t: 7000, type: 'pause' },
      { t: 7500, type: 'moves', side: 'white', moves: 5 },
      { t: 8000, type: 'moves', side: 'black', moves: 3 },
      { t: 9000, type: 'takeback' },
      { t: 10000, type: 'end' },
    ]);
    expect(last(out)).toEqual(state(10000, 'paused', 'white', 56000, 88000, { white: 1, black: 3 }, null, { white: 1, black: 0 }));
  });
});

describe('a take-back that keeps the clock times (FIDE Laws 7.1: "the right not to change the clock times")', () => {
  it('nothing changes on the displays; the move played again does not bring the period bonus a second time', () => {
    // [2/60, 30]: W2 at 6 s ends period 1 (86 000). Paused at 7 s (Black 57 000). Kept: 86 000 and
    // 57 000. White plays move 2 again at 12 s after 2 s: 84 000, with no second 30 000.
    const out = run([
      { type: 'setup', timeControl: [{ moves: 2, seconds: 60 }, { seconds: 30 }] },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'press', side: 'black' },
      { t: 6000, type: 'press', side: 'white' },
      { t: 7000, type: 'pause' },
      { t: 9000, type: 'takeback', times: 'keep' },
      { t: 9500, type: 'end' },
      { t: 10000, type: 'resume' },
      { t: 12000, type: 'press', side: 'white' },
      { t: 13000, type: 'end' },
    ]);
    expect(out.slice(3)).toEqual([
      { t: 9000, type: 'takeback', side: 'white', move: 1, times: 'keep', white: 86000, black: 57000 },
      state(9500, 'paused', 'white', 86000, 57000, { white: 1, black: 1 }, null, { white: 1, black: 0 }),
      { t: 12000, type: 'move', side: 'white', move: 2, white: 84000, black: 57000 },
      state(13000, 'running', 'black', 84000, 56000, { white: 2, black: 1 }, null, { white: 1, black: 0 }),
    ]);
  });

  it('a flag that fell after the annulled press stays, and so do the times', () => {
    // 10+0 both; White presses at 2 s; Black lets its flag fall at 12 s. Kept: the flag and Black's 0.
    const out = run([
      { type: 'setup', timeControl: '10' },
      { t: 0, type: 'start' },
      { t: 2000, type: 'press', side: 'white' },
      { t: 13000, type: 'takeback', times: 'keep' },
      { t: 14000, type: 'end' },
      { t: 15000, type: 'takeback' },
    ]);
    expect(out).toEqual([
      { t: 2000, type: 'move', side: 'white', move: 1, white: 8000, black: 10000 },
      { t: 12000, type: 'flag', side: 'black', white: 8000, black: 0 },
      { t: 13000, type: 'takeback', side: 'white', move: 0, times: 'keep', white: 8000, black: 0 },
      state(14000, 'paused', 'white', 8000, 0, { white: 0, black: 0 }, 'black', { white: 1, black: 0 }),
      { t: 15000, type: 'rejected', input: 'takeback', reason: 'no completed move to take back' },
    ]);
  });

  it('a simple delay already used in the annulled turn is not granted again: the turn keeps its one delay', () => {
    // 60 s with a 5 s simple delay. Black thinks 3 s and presses (nothing charged); the move is
    // taken back with the times kept; Black thinks 4 s more: 7 s of the turn, 5 s free, 2 s charged.
    const out = run([
      { type: 'setup', timeControl: [{ seconds: 60, delay: 5, delayMode: 'simple' }] },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 4000, type: 'press', side: 'black' },
      { t: 4000, type: 'pause' },
      { t: 5000, type: 'takeback', times: 'keep' },
      { t: 6000, type: 'resume' },
      { t: 10000, type: 'press', side: 'black' },
    ]);
    expect(out.slice(1)).toEqual([
      { t: 4000, type: 'move', side: 'black', move: 1, white: 60000, black: 60000 },
      { t: 5000, type: 'takeback', side: 'black', move: 0, times: 'keep', white: 60000, black: 60000 },
      { t: 10000, type: 'move', side: 'black', move: 1, white: 60000, black: 58000 },
    ]);
  });
});

describe('a sandclock comes back as it is shown (FIDE Laws 7.5.1; an adjustment never takes a side below zero)', () => {
  it("the arbiter took all 61 s of White's glass, then takes back Black's move: White is at 0, not 2 s", () => {
    // *60: W1 at 1 s (White 59 000, Black 61 000); B1 at 3 s (Black 59 000, White 61 000). White's
    // 61 000 removed at 4 s. At Black's press White had 59 000 + the 2 000 that ran into its glass
    // during Black's turn; less the 61 000 taken: 0.
    const out = run([
      { type: 'setup', timeControl: '*60' },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'press', side: 'black' },
      { t: 3000, type: 'pause' },
      { t: 4000, type: 'adjust', side: 'white', ms: -1000000 },
      { t: 5000, type: 'takeback' },
      { t: 6000, type: 'end' },
    ]);
    expect(out.slice(2)).toEqual([
      { t: 5000, type: 'takeback', side: 'black', move: 0, times: 'rewind', white: 0, black: 59000 },
      state(6000, 'paused', 'black', 0, 59000, { white: 1, black: 0 }, null, { white: 0, black: 1 }),
    ]);
  });
});

describe('one delay per turn: that of the period the turn began in (docs/replay.md "One delay per turn")', () => {
  const control = [{ moves: 2, seconds: 60, delay: 5, delayMode: 'simple' }, { seconds: 30 }];
  it("a correction that moves the side on move into a period without delay mid-turn does not take the turn's delay away", () => {
    // Black's turn began at 1 s in period 0 (5 s delay). Paused at 3 s (2 s used, free); its counter
    // set to 2 (period 1, no delay, +30 000). Resumed at 5 s, pressed at 7 s: 4 s used, all free.
    const out = run([
      { type: 'setup', timeControl: control },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'pause' },
      { t: 4000, type: 'moves', side: 'black', moves: 2 },
      { t: 5000, type: 'resume' },
      { t: 7000, type: 'press', side: 'black' },
    ]);
    expect(out.slice(1)).toEqual([
      { t: 4000, type: 'moves', side: 'black', moves: 2, period: 1, white: 60000, black: 90000 },
      { t: 7000, type: 'move', side: 'black', move: 3, white: 60000, black: 90000 },
    ]);
  });

  it('a take-back resumes the annulled turn with the delay it began with, not that of the period the correction gave it', () => {
    // As above, then Black's move 3 is taken back (rewind): Black is back at 2 moves (period 1), but
    // its turn began in period 0: 4 s used so far, 1 s of delay left. 3 s more cost 2 s.
    const out = run([
      { type: 'setup', timeControl: control },
      { t: 0, type: 'start' },
      { t: 1000, type: 'press', side: 'white' },
      { t: 3000, type: 'pause' },
      { t: 4000, type: 'moves', side: 'black', moves: 2 },
      { t: 5000, type: 'resume' },
      { t: 7000, type: 'press', side: 'black' },
      { t: 7000, type: 'pause' },
      { t: 8000, type: 'takeback' },
      { t: 9000, type: 'resume' },
      { t: 12000, type: 'press', side: 'black' },
    ]);
    expect(out.slice(-2)).toEqual([
      { t: 8000, type: 'takeback', side: 'black', move: 2, times: 'rewind', white: 60000, black: 90000 },
      { t: 12000, type: 'move', side: 'black', move: 3, white: 60000, black: 88000 },
    ]);
  });
});

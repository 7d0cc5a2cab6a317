import { describe, expect, it } from 'vitest';
import { foldEvent } from './live-state.ts';
import { parsePgnTimeControl, presetTimeControl, timeControl, type TimeControl } from '../../protocol/time-control.ts';
import type { ClockEventRecord, LiveClockState } from './host-ports.ts';

let seq = 0;
function ev(type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord {
  seq++;
  return { clockId: 'c', bootId: 'b', seq, event: 'E', round: 1, board: 1, type, side: null, move: null, whiteMs: null, blackMs: null, monoMs: seq, utcMs: 1000 + seq, ...extra };
}

function fold(events: ClockEventRecord[], control: TimeControl | null = null): LiveClockState {
  return events.reduce<LiveClockState | null>((s, e) => foldEvent(s, e, control), null)!;
}

/** Both sides' presses of `n` full moves (White then Black), from move `from`. */
function moves(from: number, n: number): ClockEventRecord[] {
  const out: ClockEventRecord[] = [];
  for (let m = from; m < from + n; m++) out.push(ev('moved', { side: 'white', move: m }), ev('moved', { side: 'black', move: m }));
  return out;
}

const classical = presetTimeControl('classical'); // 40/5400+30:900+30
const classicalWithDefault = presetTimeControl('classical', { defaultTime: 1800 }); // 30 min lateness allowed

describe('foldEvent: a board live state from its clock events', () => {
  it('follows start, moves, pause and resume, keeping the clock\'s own times', () => {
    seq = 0;
    const s = fold([
      ev('started', { whiteMs: 900_000, blackMs: 900_000 }),
      ev('moved', { side: 'white', move: 1, whiteMs: 905_000, blackMs: 900_000 }),
      ev('moved', { side: 'black', move: 1, whiteMs: 905_000, blackMs: 903_000 }),
      ev('paused', { whiteMs: 899_000, blackMs: 903_000 }),
    ]);
    expect(s).toMatchObject({ status: 'paused', turn: 'white', whiteMs: 899_000, blackMs: 903_000, moves: { white: 1, black: 1 }, seq: 4, atUtcMs: 1004 });
    expect(foldEvent(s, ev('resumed', { whiteMs: 899_000, blackMs: 903_000 })).status).toBe('running');
  });

  it('keeps the first flag (FIDE electronic clock standard (e): which flag fell first stays shown) and marks forfeits', () => {
    seq = 0;
    const s = fold([ev('started', { whiteMs: 1000, blackMs: 1000 }), ev('flag', { side: 'white', whiteMs: 0, blackMs: 1000 })]);
    expect(s).toMatchObject({ status: 'flagged', flag: 'white', whiteMs: 0 });
    expect(foldEvent(s, ev('flag', { side: 'black', whiteMs: 0, blackMs: 0 })).flag).toBe('white');
    expect(fold([ev('forfeit', { side: 'black' })]).status).toBe('forfeited');
  });

  it('keeps the previous times when an event carries none', () => {
    seq = 0;
    const s = fold([ev('started', { whiteMs: 60_000, blackMs: 50_000 }), ev('arrived', { side: 'black' })]);
    expect(s).toMatchObject({ whiteMs: 60_000, blackMs: 50_000, status: 'running' });
  });

  it('FIDE Laws 6.10.1 (move-40 bonus, classical 40/5400+30:900+30): period 1 until a side completes move 40, then 2', () => {
    seq = 0;
    const at39 = fold([ev('started'), ...moves(1, 39), ev('moved', { side: 'white', move: 40 })], classical);
    expect(at39.period).toEqual({ white: 2, black: 1 }); // White completed move 40, Black has not
    expect(foldEvent(at39, ev('moved', { side: 'black', move: 40 }), classical).period).toEqual({ white: 2, black: 2 });
    expect(fold([ev('started'), ...moves(1, 60)], classical).period).toEqual({ white: 2, black: 2 }); // no third period
    expect(fold([ev('started'), ...moves(1, 30)], presetTimeControl('rapid')).period).toEqual({ white: 1, black: 1 });
  });

  it('periods follow each side\'s own control (unequal stages: White 20/3600:1800, Black 40/3600:1800)', () => {
    seq = 0;
    const tc = timeControl(parsePgnTimeControl('20/3600:1800'), parsePgnTimeControl('40/3600:1800'));
    expect(fold([ev('started'), ...moves(1, 25)], tc).period).toEqual({ white: 2, black: 1 });
  });

  it('FIDE Laws 6.10.2: an arbiter\'s move-counter correction sets moves and the period the clock reports (0-based on the wire)', () => {
    seq = 0;
    let s = fold([ev('started'), ...moves(1, 35)], classical);
    s = foldEvent(s, ev('moves-set', { side: 'white', move: 41, detail: { moves: 41, period: 1 } }), classical);
    expect(s.moves.white).toBe(41);
    expect(s.period).toEqual({ white: 2, black: 1 });
    // Corrected back into period 1 past move 40: the clock keeps that period until it ends again (never, here).
    s = foldEvent(s, ev('moves-set', { side: 'black', move: 45, detail: { moves: 45, period: 0 } }), classical);
    s = foldEvent(s, ev('moved', { side: 'black', move: 46 }), classical);
    expect(s.period.black).toBe(1);
    // Without a period in the event the side keeps its period.
    expect(foldEvent(s, ev('moves-set', { side: 'white', move: 10 }), classical).period.white).toBe(2);
  });

  it('FIDE Laws 6.7.1: with a default time both sides are absent until they arrive or press; Black\'s start press arrives Black', () => {
    seq = 0;
    const ready = fold([ev('arrived', { side: 'white' })], classicalWithDefault);
    expect(ready.present).toEqual({ white: true, black: false });
    // On the clock Black's start press emits 'arrived' for Black, then 'started'.
    const byPress = fold([ev('arrived', { side: 'black' }), ev('started', { utcMs: 50_000 })], classicalWithDefault);
    expect(byPress.present).toEqual({ white: false, black: true });
    // An arbiter's START shows nobody: both still absent; White's first move shows White.
    let s = fold([ev('started')], classicalWithDefault);
    expect(s.present).toEqual({ white: false, black: false });
    s = foldEvent(s, ev('moved', { side: 'white', move: 1 }), classicalWithDefault);
    expect(s.present).toEqual({ white: true, black: false });
    // A forfeit for lateness leaves the absent side absent.
    expect(foldEvent(s, ev('forfeit', { side: 'black' }), classicalWithDefault).present.black).toBe(false);
  });

  it('FIDE Laws 6.7.1: without a default time (or without a known control) presence is not tracked: both present', () => {
    seq = 0;
    expect(fold([ev('started')], classical).present).toEqual({ white: true, black: true });
    expect(fold([ev('started')]).present).toEqual({ white: true, black: true });
  });

  it('FIDE Laws 6.9 / III.3.1: flags are kept in the order they fell; flag stays the first', () => {
    seq = 0;
    let s = fold([ev('started'), ev('flag', { side: 'black', whiteMs: 10, blackMs: 0 })]);
    s = foldEvent(s, ev('flag', { side: 'white', whiteMs: 0, blackMs: 0 }));
    s = foldEvent(s, ev('flag', { side: 'black', whiteMs: 0, blackMs: 0 })); // a repeat adds nothing
    expect(s.flags).toEqual(['black', 'white']);
    expect(s.flag).toBe('black');
  });

  it('startedAtUtcMs is the UTC of the first started event (default time counts from it), null before', () => {
    seq = 0;
    expect(fold([ev('arrived', { side: 'white' })]).startedAtUtcMs).toBeNull();
    const s = fold([ev('started', { utcMs: 77_000 }), ev('paused', { utcMs: 80_000 }), ev('resumed', { utcMs: 90_000 })]);
    expect(s.startedAtUtcMs).toBe(77_000);
  });
});

describe("foldEvent: the arbiter's powers (protocol 1.1)", () => {
  it('FIDE Laws 7.5.1 with 6.10.2: a take-back puts the mover back on move, with its count, period, illegal moves and the restored times; paused', () => {
    seq = 0;
    const s = fold([
      ev('started', { whiteMs: 910_000, blackMs: 910_000 }),
      ...moves(1, 1),
      ev('moved', { side: 'white', move: 2, whiteMs: 922_000, blackMs: 916_000 }),
      ev('paused', { whiteMs: 922_000, blackMs: 915_000 }),
      ev('taken-back', { side: 'white', move: 1, whiteMs: 915_000, blackMs: 916_000, detail: { period: 0, illegalMoves: 1 } }),
    ]);
    expect(s).toMatchObject({ status: 'paused', turn: 'white', moves: { white: 1, black: 1 }, period: { white: 1, black: 1 }, illegalMoves: { white: 1, black: 0 }, whiteMs: 915_000, blackMs: 916_000 });
  });

  it('FIDE Laws 7.5.1: a flag that fell after the annulled press is annulled with it; one that fell before stays', () => {
    seq = 0;
    const after = fold([ev('started'), ev('moved', { side: 'white', move: 1 }), ev('flag', { side: 'black' }), ev('taken-back', { side: 'white', move: 0, detail: { period: 0, illegalMoves: 1 } })]);
    expect(after).toMatchObject({ flags: [], flag: null, status: 'paused', turn: 'white' });
    const before = fold([
      ev('started'),
      ev('moved', { side: 'white', move: 1 }),
      ev('flag', { side: 'black' }),
      ev('adjusted', { side: 'black', detail: { ms: 60_000, reason: 'arbiter' } }),
      ev('resumed'),
      ev('moved', { side: 'black', move: 1 }),
      ev('paused'),
      ev('taken-back', { side: 'black', move: 0, detail: { period: 0, illegalMoves: 1 } }),
    ]);
    expect(before).toMatchObject({ flags: ['black'], flag: 'black', turn: 'black' });
  });

  it('FIDE Laws 6.7.1: a reinstated forfeit stands paused with both players present', () => {
    seq = 0;
    const s = fold([ev('arrived', { side: 'white' }), ev('started'), ev('forfeit', { side: 'black' }), ev('reinstated', { whiteMs: 300_000, blackMs: 300_000 })], presetTimeControl('armageddon', { defaultTime: 900 }));
    expect(s).toMatchObject({ status: 'paused', present: { white: true, black: true } });
  });

  it('FIDE Guidelines III.4: the quickplay increment is shown as set', () => {
    seq = 0;
    expect(fold([ev('started'), ev('paused'), ev('increment-set', { detail: { ms: 5000 } })])).toMatchObject({ incrementMs: 5000, status: 'paused' });
    expect(fold([ev('started')]).incrementMs).toBe(0);
  });

  it('FIDE Laws 6.7.1: a board started after its session counts the default time from the session (sessionAtUtcMs)', () => {
    seq = 0;
    const s = fold([ev('started', { utcMs: 1_000_000, detail: { sessionElapsedMs: 300_000 } })], classicalWithDefault);
    expect(s).toMatchObject({ startedAtUtcMs: 1_000_000, sessionAtUtcMs: 700_000 });
    expect(fold([ev('started', { utcMs: 5000 })]).sessionAtUtcMs).toBe(5000);
  });
});

import { describe, expect, it } from 'vitest';
import { foldEvent } from './live-state.ts';
import type { ClockEventRecord, LiveClockState } from './host-ports.ts';

let seq = 0;
function ev(type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord {
  seq++;
  return { clockId: 'c', bootId: 'b', seq, event: 'E', round: 1, board: 1, type, side: null, move: null, whiteMs: null, blackMs: null, monoMs: seq, utcMs: 1000 + seq, ...extra };
}

function fold(events: ClockEventRecord[]): LiveClockState {
  return events.reduce<LiveClockState | null>((s, e) => foldEvent(s, e), null)!;
}

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
});

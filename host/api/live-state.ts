// Folds journaled clock events into a board's live state (status, side on move, both
// times as of the event). No clock arithmetic happens here: the times are the clock's
// own figures from each event; readers compute the running side's time between events
// as `remaining − (now − atUtcMs)` (ARCHITECTURE rule 3: remaining time is computed).
import { other } from '../../protocol/time-control.ts';
import type { ClockEventRecord, LiveClockState } from './host-ports.ts';

export function foldEvent(prev: LiveClockState | null, e: ClockEventRecord): LiveClockState {
  const base: LiveClockState = prev ?? {
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    status: 'ready',
    turn: null,
    whiteMs: e.whiteMs ?? 0,
    blackMs: e.blackMs ?? 0,
    atUtcMs: e.utcMs,
    moves: { white: 0, black: 0 },
    flag: null,
  };
  let { status, turn, moves, flag } = base;
  switch (e.type) {
    case 'started':
      status = 'running';
      turn = 'white'; // FIDE Laws 6.2.1 / 6.5: White's clock is started
      break;
    case 'move':
    case 'moved':
      if (e.side) {
        turn = other(e.side);
        moves = { ...moves, [e.side]: e.move ?? moves[e.side] + 1 };
      }
      status = 'running';
      break;
    case 'flag':
      status = 'flagged';
      flag = flag ?? e.side;
      break;
    case 'forfeit':
      status = 'forfeited';
      break;
    case 'paused':
      status = 'paused';
      break;
    case 'resumed':
      status = 'running';
      break;
    case 'result':
      status = 'finished';
      break;
    default:
      // adjusted, arrived, ...: times only
      break;
  }
  return {
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    status,
    turn,
    whiteMs: e.whiteMs ?? base.whiteMs,
    blackMs: e.blackMs ?? base.blackMs,
    atUtcMs: e.utcMs,
    moves,
    flag,
  };
}

// Folds journaled clock events into a board's live state (status, side on move, both
// times as of the event, periods, presence, flags). No clock arithmetic happens here: the
// times are the clock's own figures from each event; readers compute the running side's
// time between events as `remaining − (now − atUtcMs)` (ARCHITECTURE rule 3: remaining
// time is computed).
//
// The game's time control, when the reader knows it, gives what the events do not carry:
// where each side's period ends (the move-40 bonus) and whether presence is tracked at all
// (only when the control sets a default time, FIDE Laws 6.7.1).
import { other, periodEndMove, type Side, type TimeControl } from '../../protocol/time-control.ts';
import type { ClockEventRecord, LiveClockState } from './host-ports.ts';

/** The live state of a board whose clock has reported nothing yet for its game. */
export function initialLiveState(e: ClockEventRecord, control: TimeControl | null): LiveClockState {
  // FIDE Laws 6.7.1: lateness only matters when a default time is set; otherwise nobody is "absent".
  const tracked = control !== null && control.defaultTimeMs !== null;
  return {
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
    period: { white: 1, black: 1 },
    present: { white: !tracked, black: !tracked },
    flags: [],
    startedAtUtcMs: null,
  };
}

/**
 * The period after `side` completed move `moves` (was `fromMoves` in period `period`): the
 * clock moves a side on only when it completes its period's last move (periods never go
 * back), so an arbiter's correction of the period stays in force until the next period end.
 */
function periodAfterMove(control: TimeControl | null, side: Side, period: number, fromMoves: number, moves: number): number {
  if (control === null) return period;
  let p = period;
  for (let end = periodEndMove(control[side], p); end !== null && fromMoves < end && moves >= end; end = periodEndMove(control[side], p)) p++;
  return p;
}

export function foldEvent(prev: LiveClockState | null, e: ClockEventRecord, control: TimeControl | null = null): LiveClockState {
  const base: LiveClockState = prev ?? initialLiveState(e, control);
  let { status, turn, moves, flag, period, present, flags, startedAtUtcMs } = base;
  const arrive = (side: Side) => {
    if (!present[side]) present = { ...present, [side]: true };
  };
  switch (e.type) {
    case 'started':
      status = 'running';
      turn = 'white'; // FIDE Laws 6.2.1 / 6.5: White's clock is started
      startedAtUtcMs = startedAtUtcMs ?? e.utcMs;
      break;
    case 'move':
    case 'moved':
      if (e.side) {
        const done = e.move ?? moves[e.side] + 1;
        turn = other(e.side);
        period = { ...period, [e.side]: periodAfterMove(control, e.side, period[e.side], moves[e.side], done) };
        moves = { ...moves, [e.side]: done };
        arrive(e.side); // a player who moved is at the board (FIDE Laws 6.7.1)
      }
      status = 'running';
      break;
    case 'moves-set':
      // FIDE Laws 6.10.2: the arbiter corrected the move counter; the clock reports the
      // 0-based period the side now plays in (detail.period), which is honoured as given.
      if (e.side) {
        const done = e.move ?? moves[e.side];
        const wire = e.detail?.period;
        const p = typeof wire === 'number' && Number.isInteger(wire) && wire >= 0 ? wire + 1 : period[e.side];
        moves = { ...moves, [e.side]: done };
        period = { ...period, [e.side]: p };
      }
      break;
    case 'arrived':
      if (e.side) arrive(e.side);
      break;
    case 'flag':
      status = 'flagged';
      // FIDE Laws 6.9 / III.3.1: which flag fell first decides; later flags are kept in order.
      if (e.side && !flags.includes(e.side)) flags = [...flags, e.side];
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
      // adjusted, ...: times only
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
    period,
    present,
    flags,
    startedAtUtcMs,
  };
}

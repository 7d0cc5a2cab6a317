// Folds journaled clock events into a board's live state (status, side on move, both
// times as of the event, periods, presence, flags). No clock arithmetic happens here: the
// times are the clock's own figures from each event; readers compute the running side's
// time between events as `remaining − (now − atUtcMs)` (docs/architecture.md rule 3: remaining
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
    sessionAtUtcMs: null,
    illegalMoves: { white: 0, black: 0 },
    incrementMs: 0,
  };
}

/**
 * The flags as they stood before each completed move, newest last: a take-back restores the
 * flags of the press it annuls (a flag that fell after it is annulled with it: docs/replay.md,
 * "Take-back"). Kept beside the state, not in it, so the API and MQTT payloads stay as they are.
 */
const flagsBeforeMoves = new WeakMap<LiveClockState, readonly (readonly Side[])[]>();

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
  let sessionAtUtcMs = base.sessionAtUtcMs ?? null;
  let illegalMoves = base.illegalMoves ?? { white: 0, black: 0 };
  let incrementMs = base.incrementMs ?? 0;
  let history = (prev && flagsBeforeMoves.get(prev)) ?? [];
  const arrive = (side: Side) => {
    if (!present[side]) present = { ...present, [side]: true };
  };
  switch (e.type) {
    case 'started':
      status = 'running';
      turn = 'white'; // FIDE Laws 6.2.1 / 6.5: White's clock is started
      startedAtUtcMs = startedAtUtcMs ?? e.utcMs;
      if (sessionAtUtcMs === null) {
        // FIDE Laws 6.7.1: the default time counts from the session start, which the clock reports
        // as a duration before this start (0 or absent: the start itself).
        const elapsed = e.detail?.sessionElapsedMs;
        sessionAtUtcMs = e.utcMs - (typeof elapsed === 'number' && Number.isSafeInteger(elapsed) && elapsed > 0 ? elapsed : 0);
      }
      break;
    case 'move':
    case 'moved':
      if (e.side) {
        const done = e.move ?? moves[e.side] + 1;
        turn = other(e.side);
        period = { ...period, [e.side]: periodAfterMove(control, e.side, period[e.side], moves[e.side], done) };
        moves = { ...moves, [e.side]: done };
        arrive(e.side); // a player who moved is at the board (FIDE Laws 6.7.1)
        history = [...history, flags];
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
    case 'taken-back':
      // FIDE Laws 7.5.1 with 6.10.2: the side that made the annulled move is on move again,
      // with the counter, period and illegal-move count the clock reports; the clock stands paused.
      if (e.side) {
        const wirePeriod = e.detail?.period;
        const count = e.detail?.illegalMoves;
        moves = { ...moves, [e.side]: e.move ?? Math.max(0, moves[e.side] - 1) };
        if (typeof wirePeriod === 'number' && Number.isInteger(wirePeriod) && wirePeriod >= 0) period = { ...period, [e.side]: wirePeriod + 1 };
        if (typeof count === 'number' && Number.isInteger(count) && count >= 0) illegalMoves = { ...illegalMoves, [e.side]: count };
        turn = e.side;
      }
      if (history.length > 0) {
        flags = history[history.length - 1];
        flag = flags[0] ?? null;
        history = history.slice(0, -1);
      }
      status = 'paused';
      break;
    case 'reinstated':
      // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the forfeit is overruled; everyone is there.
      present = { white: true, black: true };
      status = 'paused';
      break;
    case 'increment-set': {
      // FIDE Guidelines III.4: the quickplay increment both sides now get after each move.
      const ms = e.detail?.ms;
      if (typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0) incrementMs = ms;
      break;
    }
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
  const next: LiveClockState = {
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
    sessionAtUtcMs,
    illegalMoves,
    incrementMs,
  };
  if (history.length > 0) flagsBeforeMoves.set(next, history);
  return next;
}

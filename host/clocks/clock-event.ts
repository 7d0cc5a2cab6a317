// A ClockEvent from the wire as a journal row: the clock's kind and side in the journal's
// words, and its timestamp (ms on the clock's own monotonic base) mapped to UTC through the
// time-sync estimate of that clock boot, with the mapping's error bound.
import { ClockEvent_Kind, ClockStatus, type GameResult as WireResult, Side as WireSide, type ClockEvent } from '../../protocol/gen/chessclock_pb.ts';
import { timeControlFromWire } from '../../protocol/time-control-codec.ts';
import { clockToUtcMs, hostToUtcMs, type TimeSyncEstimator, type UtcReference } from '../../protocol/time-sync.ts';
import { timeControlSpec, type Side } from '../../protocol/time-control.ts';
import { RESULT_TO_WIRE } from '../../rules/clock-snapshot-wire.ts';
import { CLOCK_RESULTS, type GameResult } from '../../rules/vocabulary.ts';
import type { ClockEventInput, ClockEventType } from '../store/journal.ts';

const TYPE: Record<ClockEvent_Kind, ClockEventType> = {
  [ClockEvent_Kind.MOVED]: 'moved',
  [ClockEvent_Kind.STARTED]: 'started',
  [ClockEvent_Kind.FLAG]: 'flag',
  [ClockEvent_Kind.FORFEIT]: 'forfeit',
  [ClockEvent_Kind.PAUSED]: 'paused',
  [ClockEvent_Kind.RESUMED]: 'resumed',
  [ClockEvent_Kind.ADJUSTED]: 'adjusted',
  [ClockEvent_Kind.ARRIVED]: 'arrived',
  [ClockEvent_Kind.RESULT_ENTERED]: 'result',
  [ClockEvent_Kind.MOVES_SET]: 'moves-set',
  [ClockEvent_Kind.TAKEN_BACK]: 'taken-back',
  [ClockEvent_Kind.REINSTATED]: 'reinstated',
  [ClockEvent_Kind.INCREMENT_SET]: 'increment-set',
  [ClockEvent_Kind.RESTORED]: 'restored',
  [ClockEvent_Kind.TURN_SET]: 'turn-set',
  [ClockEvent_Kind.CONTROL_SET]: 'control-set',
  [ClockEvent_Kind.DELAY_SET]: 'delay-set',
};

const STOPPED_STATUS = new Map<ClockStatus, string>([
  [ClockStatus.READY, 'ready'],
  [ClockStatus.PAUSED, 'paused'],
  [ClockStatus.FLAGGED, 'flagged'],
  [ClockStatus.FORFEITED, 'forfeited'],
]);

/** The results a clock reports (rules/vocabulary.ts CLOCK_RESULTS, the double forfeit `--` since 1.4) by their wire value. */
const RESULT = new Map<WireResult, GameResult>(CLOCK_RESULTS.map((r) => [RESULT_TO_WIRE[r], r]));

function side(s: WireSide): Side | null {
  return s === WireSide.WHITE ? 'white' : s === WireSide.BLACK ? 'black' : null;
}

/**
 * How far a clock crystal may drift from the host's between sync exchanges: 200 ppm covers
 * cheap ceramic resonators (±0.5 %) poorly but every crystal (±20-100 ppm) with room. Used
 * only to widen the bound for instants outside the span the estimate was fitted over.
 */
export const EXTRAPOLATION_DRIFT_PPM = 200;

/**
 * The error bound journaled when no sync exchange with that clock boot exists yet (events
 * replayed from an earlier boot's outbox, or sent before the first exchange after a host
 * restart): the mapping is then only the arrival time, an upper bound of the instant.
 * The largest SQLite-friendly int32 says "unbounded" without a NULL the journal refuses.
 */
export const UNSYNCED_UNCERTAINTY_MS = 2_147_483_647;

export interface UtcMapping {
  readonly utcMs: number;
  readonly uncertaintyMs: number;
}

/**
 * The UTC of clock instant `atMs`. With an estimate: the fitted line, its bound, widened by
 * the drift allowance outside the fitted span. Without one: the frame's arrival (the event
 * happened no later than that), with the "unbounded" marker.
 */
export function clockInstantToUtc(est: TimeSyncEstimator | null, atMs: number, ref: UtcReference, arrivedAtHostMs: number): UtcMapping {
  const e = est?.estimate() ?? null;
  if (!est || !e) return { utcMs: Math.round(hostToUtcMs(arrivedAtHostMs, ref)), uncertaintyMs: UNSYNCED_UNCERTAINTY_MS };
  const hostMs = est.clockToHostMs(atMs);
  const outside = hostMs < e.spanStartHostMs ? e.spanStartHostMs - hostMs : hostMs > e.spanEndHostMs ? hostMs - e.spanEndHostMs : 0;
  return {
    utcMs: Math.round(clockToUtcMs(est, atMs, ref)),
    uncertaintyMs: Math.ceil(e.uncertaintyMs + (outside * EXTRAPOLATION_DRIFT_PPM) / 1e6),
  };
}

/** The hex form of a boot id as journaled (8 digits: stable width, as the clock's Hello shows it). */
export const bootIdText = (bootId: number): string => (bootId >>> 0).toString(16).padStart(8, '0');

/** The journal row for one ClockEvent of clock `clockId`, boot `bootId`, sequence `seq`. */
export function journalInput(clockId: string, bootId: number, seq: number, ev: ClockEvent, at: UtcMapping): ClockEventInput {
  const type = TYPE[ev.kind];
  if (type === undefined) throw new RangeError(`clock ${clockId} seq ${seq}: unknown ClockEvent kind ${ev.kind}`);
  let detail: Record<string, unknown> | null = null;
  // FIDE Laws 7.5.5: a penalty's event names the credited side; since 1.4 it carries the
  // offender's illegal-move count after it, never 0 (a 1.3 clock sends none: 0 is "not said").
  if (type === 'adjusted')
    detail = { ms: ev.adjustMs, reason: ev.penalty ? 'penalty' : 'arbiter', ...(ev.penalty && ev.illegalMoves > 0 ? { illegalMoves: ev.illegalMoves } : {}) };
  if (type === 'result') {
    const result = RESULT.get(ev.result);
    if (result === undefined) throw new RangeError(`clock ${clockId} seq ${seq}: result_entered without a result`);
    // Both players confirmed it with their levers, or the arbiter entered it at the clock.
    detail = { result, confirmedBy: ev.byArbiter ? 'arbiter' : 'players' };
  }
  // FIDE Laws 6.10.2: the counter, the 0-based period it gives, and the time that period credited.
  if (type === 'moves-set') detail = { moves: ev.moveNumber, period: ev.period, creditedMs: ev.adjustMs };
  // FIDE Laws 6.7.1: the default time counts from the session start, that long before the start.
  if (type === 'started' && ev.sessionElapsedMs > 0) detail = { sessionElapsedMs: ev.sessionElapsedMs };
  // FIDE Laws 7.5.1 with 6.10.2: `side`'s move annulled; its period and illegal-move count after it,
  // and whether the arbiter kept both clock times (Laws 7.1; a clock before 1.4 always rewinds).
  if (type === 'taken-back') detail = { period: ev.period, illegalMoves: ev.illegalMoves, times: ev.keepTimes ? 'keep' : 'rewind' };
  // FIDE Laws 6.10.2: the corrected control, in the control spec form readTimeControlSpec reads back whole.
  if (type === 'control-set') {
    let control;
    try {
      control = timeControlFromWire(ev.control, 'clock_event.control');
    } catch (err) {
      throw new RangeError(`clock ${clockId} seq ${seq}: control_set: ${(err as Error).message}`);
    }
    detail = { timeControl: timeControlSpec(control) };
  }
  // FIDE Guidelines III.4: the quickplay delay now in force (0 = none).
  if (type === 'delay-set') detail = { ms: ev.delayMs };
  // FIDE Guidelines III.4: the quickplay increment now in force (0 = none).
  if (type === 'increment-set') detail = { ms: ev.incrementMs };
  // docs/protocol.md "Restore": the stopped status the clock now stands in.
  if (type === 'restored') detail = { status: STOPPED_STATUS.get(ev.status) ?? 'paused' };
  return {
    clockId,
    bootId: bootIdText(bootId),
    seq,
    type,
    side: side(ev.side),
    move: type === 'moved' || type === 'moves-set' || type === 'taken-back' ? ev.moveNumber : null,
    whiteMs: ev.whiteMs,
    blackMs: ev.blackMs,
    monoMs: ev.atMs,
    utcMs: at.utcMs,
    uncertaintyMs: at.uncertaintyMs,
    detail,
  };
}

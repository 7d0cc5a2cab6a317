// A clock snapshot (rules/clock-snapshot.ts) in the protocol's message and back
// (docs/protocol.md, "Restore"): the same value on both ends of the cable.
import { create } from '@bufbuild/protobuf';
import {
  ClockSnapshotSchema,
  ClockStatus as WireStatus,
  GameResult as WireResult,
  IllegalRecord as WireIllegal,
  Side as WireSide,
  SideSnapshotSchema,
  UndoSnapshotSchema,
  type ClockSnapshot as WireSnapshot,
  type SideSnapshot as WireSideSnapshot,
} from '../protocol/gen/chessclock_pb.ts';
import type { Side } from '../protocol/time-control.ts';
import { timeControlFromWire, timeControlToWire } from '../protocol/time-control-codec.ts';
import type { IllegalRecord, SideState } from './clock-state.ts';
import type { ClockResult, ClockRunStatus } from './vocabulary.ts';
import type { ClockSnapshot, SnapshotStatus } from './clock-snapshot.ts';

/** The rule book's words on the wire (protocol/chessclock.proto enums): one table each, for the clock and the host. */
export const SIDE_TO_WIRE: Readonly<Record<Side, WireSide>> = { white: WireSide.WHITE, black: WireSide.BLACK };
export const CLOCK_STATUS_TO_WIRE: Readonly<Record<ClockRunStatus, WireStatus>> = {
  ready: WireStatus.READY,
  running: WireStatus.RUNNING,
  paused: WireStatus.PAUSED,
  flagged: WireStatus.FLAGGED,
  forfeited: WireStatus.FORFEITED,
};
export const RESULT_TO_WIRE: Readonly<Record<ClockResult, WireResult>> = {
  '1-0': WireResult.WHITE_WINS,
  '1/2-1/2': WireResult.DRAW,
  '0-1': WireResult.BLACK_WINS,
  '--': WireResult.DOUBLE_FORFEIT,
};
const ILLEGAL_TO_WIRE: Readonly<Record<IllegalRecord, WireIllegal>> = { takeback: WireIllegal.TAKEBACK, penalty: WireIllegal.PENALTY };

const SIDE = SIDE_TO_WIRE;
const STATUS: Readonly<Record<SnapshotStatus, WireStatus>> = CLOCK_STATUS_TO_WIRE;
const RESULT = RESULT_TO_WIRE;

const sideOf = (s: WireSide): Side | null => (s === WireSide.WHITE ? 'white' : s === WireSide.BLACK ? 'black' : null);

function sideToWire(s: SideState): WireSideSnapshot {
  return create(SideSnapshotSchema, {
    creditedMs: s.creditedMs,
    chargedMs: s.chargedMs,
    moves: s.moves,
    period: s.period,
    creditedPeriod: s.creditedPeriod,
    present: s.present,
    forfeited: s.forfeited,
    illegalMoves: s.illegalMoves,
    arbiterMs: s.arbiterMs,
    illegalOpen: s.illegalOpen === null ? WireIllegal.NONE : ILLEGAL_TO_WIRE[s.illegalOpen],
  });
}

function sideFromWire(s: WireSideSnapshot | undefined, where: string): SideState {
  if (!s) throw new RangeError(`${where}: missing`);
  return {
    creditedMs: s.creditedMs,
    chargedMs: s.chargedMs,
    moves: s.moves,
    period: s.period,
    creditedPeriod: s.creditedPeriod,
    present: s.present,
    forfeited: s.forfeited,
    illegalMoves: s.illegalMoves,
    illegalOpen: s.illegalOpen === WireIllegal.TAKEBACK ? 'takeback' : s.illegalOpen === WireIllegal.PENALTY ? 'penalty' : null,
    arbiterMs: s.arbiterMs,
  };
}

export function snapshotToWire(snap: ClockSnapshot): WireSnapshot {
  return create(ClockSnapshotSchema, {
    status: STATUS[snap.status],
    turn: SIDE[snap.turn],
    white: sideToWire(snap.white),
    black: sideToWire(snap.black),
    turnActiveMs: snap.turnActiveMs,
    flag: snap.flag ? SIDE[snap.flag] : WireSide.UNSPECIFIED,
    started: snap.started,
    sinceStartMs: snap.sinceStartMs,
    extraIncrementMs: snap.extraIncrementMs,
    result: snap.result ? RESULT[snap.result] : WireResult.NONE,
    turnPeriod: snap.turnPeriod,
    turnExtraDelayMs: snap.turnExtraDelayMs,
    extraDelayMs: snap.extraDelayMs,
    control: snap.control === null ? undefined : timeControlToWire(snap.control),
    undo: snap.undo.map((u) =>
      create(UndoSnapshotSchema, {
        turn: SIDE[u.turn],
        turnActiveMs: u.turnActiveMs,
        turnPeriod: u.turnPeriod,
        turnExtraDelayMs: u.turnExtraDelayMs,
        flag: u.flag ? SIDE[u.flag] : WireSide.UNSPECIFIED,
        white: sideToWire(u.white),
        black: sideToWire(u.black),
        agoMs: u.agoMs,
      }),
    ),
  });
}

/** The snapshot of a checked message (protocol/envelope-validation.ts); throws RangeError naming the field otherwise. */
export function snapshotFromWire(w: WireSnapshot, where = 'snapshot'): ClockSnapshot {
  const status = (Object.keys(STATUS) as SnapshotStatus[]).find((k) => STATUS[k] === w.status);
  if (!status) throw new RangeError(`${where}.status: ${WireStatus[w.status] ?? w.status} is not a stopped clock's status`);
  const turn = sideOf(w.turn);
  if (!turn) throw new RangeError(`${where}.turn: missing`);
  const result = (Object.keys(RESULT) as ClockResult[]).find((k) => RESULT[k] === w.result) ?? null;
  const white = sideFromWire(w.white, `${where}.white`);
  const black = sideFromWire(w.black, `${where}.black`);
  let control = null;
  if (w.control !== undefined) {
    try {
      control = timeControlFromWire(w.control, `${where}.control`);
    } catch (err) {
      throw new RangeError((err as Error).message);
    }
  }
  return {
    status,
    turn,
    white,
    black,
    turnActiveMs: w.turnActiveMs,
    // A 1.3 peer sends no turn_period: its turns began in the period the side on move is in.
    turnPeriod: w.turnPeriod ?? (turn === 'white' ? white : black).period,
    turnExtraDelayMs: w.turnExtraDelayMs,
    flag: sideOf(w.flag),
    started: w.started,
    sinceStartMs: w.sinceStartMs,
    extraIncrementMs: w.extraIncrementMs,
    extraDelayMs: w.extraDelayMs,
    result,
    control,
    undo: w.undo.map((u, i) => {
      const t = sideOf(u.turn);
      if (!t) throw new RangeError(`${where}.undo[${i}].turn: missing`);
      const uw = sideFromWire(u.white, `${where}.undo[${i}].white`);
      const ub = sideFromWire(u.black, `${where}.undo[${i}].black`);
      return {
        turn: t,
        turnActiveMs: u.turnActiveMs,
        turnPeriod: u.turnPeriod ?? (t === 'white' ? uw : ub).period,
        turnExtraDelayMs: u.turnExtraDelayMs,
        flag: sideOf(u.flag),
        white: uw,
        black: ub,
        agoMs: u.agoMs,
      };
    }),
  };
}

// The time control on the wire: protocol/time-control.ts values <-> the Configure fields
// (chessclock.proto SideControl/Stage, all in ms). The wire form is canonical, so decoding
// is strict: a value time-control.ts would never produce is refused with the field's path
// (`configure.white.stages[1].moves`), not silently repaired.
import { create } from '@bufbuild/protobuf';
import {
  DelayMode as WireDelayMode,
  IncrementTiming as WireIncrementTiming,
  ControlSchema,
  SideControlSchema,
  StageSchema,
  type Configure,
  type Control,
  type SideControl as WireSideControl,
} from './gen/chessclock_pb.ts';
import { TimeControlError, type DelayMode, type IncrementTiming, type SideControl, type Stage, type TimeControl } from './time-control.ts';

/** The same bounds as time-control.ts: no real control exceeds 100 h per stage or 1000 moves. */
export const MAX_STAGE_MS = 100 * 3600 * 1000;
export const MAX_STAGE_MOVES = 1000;
/** A FIDE control has 1–3 periods; 8 leaves room for odd events and keeps Configure small. */
export const MAX_STAGES = 8;

/** The Configure fields that carry a time control. */
export type TimeControlFields = Pick<Configure, 'white' | 'black' | 'defaultTimeMs' | 'incrementTiming'>;

const DELAY_MODE_TO_WIRE: Record<DelayMode, WireDelayMode> = {
  simple: WireDelayMode.SIMPLE,
  bronstein: WireDelayMode.BRONSTEIN,
};
const INCREMENT_TIMING_TO_WIRE: Record<IncrementTiming, WireIncrementTiming> = {
  'before-move': WireIncrementTiming.BEFORE_MOVE,
  'after-move': WireIncrementTiming.AFTER_MOVE,
};

function wholeMs(value: number, path: string, max: number): number {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new TimeControlError(`${path}: must be a whole number from 0 to ${max}, got ${value}`, path);
  }
  return value;
}

function sideToProto(side: SideControl, path: string): WireSideControl {
  if (side.stages.length === 0) throw new TimeControlError(`${path}.stages: at least one stage is needed`, `${path}.stages`);
  return create(SideControlSchema, {
    sandclock: side.kind === 'sandclock',
    stages: side.stages.map((s, i) => {
      const at = `${path}.stages[${i}]`;
      return create(StageSchema, {
        moves: s.moves === null ? 0 : wholeMs(s.moves, `${at}.moves`, MAX_STAGE_MOVES),
        baseMs: wholeMs(s.baseMs, `${at}.base_ms`, MAX_STAGE_MS),
        incrementMs: wholeMs(s.incrementMs, `${at}.increment_ms`, MAX_STAGE_MS),
        delayMs: wholeMs(s.delayMs, `${at}.delay_ms`, MAX_STAGE_MS),
        delayMode: DELAY_MODE_TO_WIRE[s.delayMode],
      });
    }),
  });
}

/** TimeControl -> the Configure fields. Throws TimeControlError naming the field. */
export function timeControlToProto(tc: TimeControl): TimeControlFields {
  const fields: TimeControlFields = {
    white: sideToProto(tc.white, 'white'),
    black: sideToProto(tc.black, 'black'),
    defaultTimeMs: tc.defaultTimeMs === null ? undefined : wholeMs(tc.defaultTimeMs, 'default_time_ms', MAX_STAGE_MS),
    incrementTiming: INCREMENT_TIMING_TO_WIRE[tc.incrementTiming],
  };
  // Round through the strict decoder so that nothing leaves that a peer would refuse.
  timeControlFromProto(fields);
  return fields;
}

function sideFromProto(side: WireSideControl | undefined, path: string): SideControl {
  if (side === undefined) throw new TimeControlError(`${path}: missing`, path);
  const n = side.stages.length;
  if (n === 0) throw new TimeControlError(`${path}.stages: at least one stage is needed`, `${path}.stages`);
  if (n > MAX_STAGES) throw new TimeControlError(`${path}.stages: ${n} stages, at most ${MAX_STAGES}`, `${path}.stages`);
  const stages = side.stages.map((s, i): Stage => {
    const at = `${path}.stages[${i}]`;
    const last = i === n - 1;
    const moves = wholeMs(s.moves, `${at}.moves`, MAX_STAGE_MOVES);
    if (last && moves !== 0) {
      throw new TimeControlError(`${at}.moves: the last stage lasts the rest of the game, so moves must be 0, got ${moves}`, `${at}.moves`);
    }
    if (!last && moves === 0) {
      throw new TimeControlError(`${at}.moves: only the last stage may be sudden death (moves 0)`, `${at}.moves`);
    }
    const baseMs = wholeMs(s.baseMs, `${at}.base_ms`, MAX_STAGE_MS);
    if (i === 0 && baseMs === 0) throw new TimeControlError(`${at}.base_ms: the first stage has no time`, `${at}.base_ms`);
    let delayMode: DelayMode;
    if (s.delayMode === WireDelayMode.SIMPLE) delayMode = 'simple';
    else if (s.delayMode === WireDelayMode.BRONSTEIN) delayMode = 'bronstein';
    else throw new TimeControlError(`${at}.delay_mode: unknown DelayMode ${s.delayMode}`, `${at}.delay_mode`);
    return {
      moves: last ? null : moves,
      baseMs,
      incrementMs: wholeMs(s.incrementMs, `${at}.increment_ms`, MAX_STAGE_MS),
      delayMs: wholeMs(s.delayMs, `${at}.delay_ms`, MAX_STAGE_MS),
      delayMode,
    };
  });
  if (side.sandclock) {
    const s = stages[0];
    if (n !== 1 || s.incrementMs !== 0 || s.delayMs !== 0) {
      throw new TimeControlError(`${path}: a sandclock has exactly one stage without increment or delay`, `${path}.sandclock`);
    }
  }
  return { kind: side.sandclock ? 'sandclock' : 'stages', stages };
}

/** The Configure fields -> TimeControl. Throws TimeControlError naming the field path. */
export function timeControlFromProto(fields: TimeControlFields): TimeControl {
  const white = sideFromProto(fields.white, 'white');
  const black = sideFromProto(fields.black, 'black');
  if ((white.kind === 'sandclock') !== (black.kind === 'sandclock')) {
    throw new TimeControlError('white.sandclock/black.sandclock: a sandclock must be used by both sides', 'sandclock');
  }
  let incrementTiming: IncrementTiming;
  if (fields.incrementTiming === WireIncrementTiming.BEFORE_MOVE) incrementTiming = 'before-move';
  else if (fields.incrementTiming === WireIncrementTiming.AFTER_MOVE) incrementTiming = 'after-move';
  else throw new TimeControlError(`increment_timing: unknown IncrementTiming ${fields.incrementTiming}`, 'increment_timing');
  const defaultTimeMs = fields.defaultTimeMs === undefined ? null : wholeMs(fields.defaultTimeMs, 'default_time_ms', MAX_STAGE_MS);
  return { white, black, defaultTimeMs, incrementTiming };
}

/** TimeControl -> a Control message (protocol 1.4: a correction mid-game). Throws TimeControlError naming the field. */
export function timeControlToWire(tc: TimeControl): Control {
  return create(ControlSchema, timeControlToProto(tc));
}

/**
 * A Control message -> TimeControl, strict as timeControlFromProto; an error names the field
 * under `path` (`command.control.white.stages[1].moves`).
 */
export function timeControlFromWire(control: Control | undefined, path: string): TimeControl {
  if (control === undefined) throw new TimeControlError(`${path}: missing`, path);
  try {
    return timeControlFromProto(control);
  } catch (err) {
    if (err instanceof TimeControlError) throw new TimeControlError(`${path}.${err.message}`, `${path}.${err.token ?? ''}`);
    throw err;
  }
}

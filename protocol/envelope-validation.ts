// What a decoded Envelope must satisfy before it may reach the application (ARCHITECTURE
// rule 6: nothing invalid gets past the codec). protobuf-es already guarantees the scalar
// types; this adds what proto3 cannot say: enums are known values (proto3 enums are open,
// so 7 decodes as 7), required sides and kinds are set, the time control is runnable.
// Errors name the field by its proto path, e.g. `clock_event.side`, so a C implementer
// can find it in chessclock.proto.
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import {
  ClockEvent_Kind,
  Command_Kind,
  EnvelopeSchema,
  Side,
  ClockStatus,
  type ClockEvent,
  type ClockSnapshot,
  type Command,
  type Control,
  type Envelope,
} from './gen/chessclock_pb.ts';
import { timeControlFromProto, timeControlFromWire } from './time-control-codec.ts';
import { TimeControlError } from './time-control.ts';

/**
 * Most annulable presses a ClockSnapshot carries (docs/protocol.md "Restore"): four keep a
 * Restore within one 512-byte frame with room to spare (protocol/frame-size.test.ts).
 */
export const MAX_SNAPSHOT_UNDO = 4;

/** Longest text field accepted (names, labels, display text); a frame is ≤ 512 bytes anyway. */
export const MAX_TEXT_LENGTH = 128;

type Plain = Record<string, unknown>;

function fieldValue(message: Plain, field: DescField): unknown {
  if (field.oneof) {
    const group = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
    return group?.case === field.localName ? group.value : undefined;
  }
  return message[field.localName];
}

/** What is wrong with a scalar field's value, without its path; null when nothing is. */
function scalarProblem(type: ScalarType, value: unknown): string | null {
  switch (type) {
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff
        ? null
        : `must be a whole number from 0 to 4294967295, got ${String(value)}`;
    case ScalarType.SINT32:
    case ScalarType.INT32:
      return typeof value === 'number' && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff
        ? null
        : `must be a whole number from -2147483648 to 2147483647, got ${String(value)}`;
    case ScalarType.BOOL:
      return typeof value === 'boolean' ? null : `must be true or false, got ${String(value)}`;
    case ScalarType.STRING:
      if (typeof value !== 'string') return `must be text, got ${typeof value}`;
      return value.length <= MAX_TEXT_LENGTH ? null : `${value.length} characters, at most ${MAX_TEXT_LENGTH}`;
    default:
      return `scalar type ${type} is not used by this protocol`;
  }
}

/** What is wrong with an enum field's value (proto3 enums are open), without its path; null when nothing is. */
function enumProblem(field: DescField & { enum: { value: Record<number, unknown>; name: string } }, value: unknown): string | null {
  return typeof value === 'number' && field.enum.value[value] !== undefined ? null : `${String(value)} is not a known ${field.enum.name}`;
}

/** A field's proto path below `path` (made only for an error: every message is checked). */
const pathOf = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

/** Generic check over the schema: scalar ranges and known enum values, recursively. */
function structureError(desc: DescMessage, message: Plain, path: string): string | null {
  for (const field of desc.fields) {
    const value = fieldValue(message, field);
    if (value === undefined) {
      if (field.fieldKind === 'scalar' && !field.oneof && field.proto.proto3Optional !== true) {
        return `${pathOf(path, field.name)}: missing`;
      }
      continue; // unset message, unset optional, or another oneof case
    }
    switch (field.fieldKind) {
      case 'scalar': {
        const problem = scalarProblem(field.scalar, value);
        if (problem) return `${pathOf(path, field.name)}: ${problem}`;
        break;
      }
      case 'enum': {
        const problem = enumProblem(field, value);
        if (problem) return `${pathOf(path, field.name)}: ${problem}`;
        break;
      }
      case 'message': {
        const err = structureError(field.message, value as Plain, pathOf(path, field.name));
        if (err) return err;
        break;
      }
      case 'list': {
        if (!Array.isArray(value)) return `${pathOf(path, field.name)}: must be a list`;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (field.listKind !== 'message') {
            const problem = field.listKind === 'scalar' ? scalarProblem(field.scalar, item) : enumProblem(field, item);
            if (problem) return `${pathOf(path, field.name)}[${i}]: ${problem}`;
          } else {
            const err = structureError(field.message, item as Plain, `${pathOf(path, field.name)}[${i}]`);
            if (err) return err;
          }
        }
        break;
      }
      case 'map':
        return `${pathOf(path, field.name)}: maps are not used by this protocol`;
    }
  }
  return null;
}

/** Kinds whose `side` names who moved / lost / arrived / was adjusted. */
const EVENT_KINDS_WITH_SIDE = new Set<ClockEvent_Kind>([
  ClockEvent_Kind.MOVED,
  ClockEvent_Kind.FLAG,
  ClockEvent_Kind.FORFEIT,
  ClockEvent_Kind.ADJUSTED,
  ClockEvent_Kind.ARRIVED,
  ClockEvent_Kind.MOVES_SET,
  ClockEvent_Kind.TAKEN_BACK,
  // Since 1.4: FIDE Laws 6.10.2, the side the arbiter set on move.
  ClockEvent_Kind.TURN_SET,
]);

const COMMAND_KINDS_WITH_SIDE = new Set<Command_Kind>([
  Command_Kind.ADJUST,
  Command_Kind.PENALTY,
  Command_Kind.SET_MOVES,
  Command_Kind.ARRIVE,
  Command_Kind.SET_TURN,
]);

/** A time control carried whole (since 1.4): what timeControlFromWire says is wrong with it, at `path`; null when runnable. */
function controlError(control: Control | undefined, path: string): string | null {
  try {
    timeControlFromWire(control, path);
    return null;
  } catch (e) {
    if (e instanceof TimeControlError) return e.message;
    throw e;
  }
}

function clockEventError(e: ClockEvent): string | null {
  if (EVENT_KINDS_WITH_SIDE.has(e.kind) && e.side === Side.UNSPECIFIED) {
    return `clock_event.side: required for a ${ClockEvent_Kind[e.kind].toLowerCase()} event`;
  }
  // FIDE Laws 6.10.2: the corrected control the clock now runs, whole.
  if (e.kind === ClockEvent_Kind.CONTROL_SET) return controlError(e.control, 'clock_event.control');
  return null;
}

function commandError(c: Command): string | null {
  if (c.kind === Command_Kind.UNSPECIFIED) return 'command.kind: missing';
  if (COMMAND_KINDS_WITH_SIDE.has(c.kind) && c.side === Side.UNSPECIFIED) {
    return `command.side: required for ${Command_Kind[c.kind].toLowerCase()}`;
  }
  // FIDE Guidelines III.4: an increment or a delay is time given, never taken.
  if (c.kind === Command_Kind.INCREMENT && c.ms < 0) return `command.ms: the increment must be 0 or more, got ${c.ms}`;
  if (c.kind === Command_Kind.DELAY && c.ms < 0) return `command.ms: the delay must be 0 or more, got ${c.ms}`;
  // FIDE Laws 6.10.2: a correction installs a whole, runnable control.
  if (c.kind === Command_Kind.SET_CONTROL) return controlError(c.control, 'command.control');
  return null;
}

function snapshotError(snap: ClockSnapshot | undefined, path: string): string | null {
  if (!snap) return `${path}: missing`;
  if (snap.status === ClockStatus.RUNNING) return `${path}.status: a snapshot is of a stopped clock, not RUNNING`;
  if (!snap.white || !snap.black) return `${path}.${snap.white ? 'black' : 'white'}: missing`;
  if (snap.turn === Side.UNSPECIFIED) return `${path}.turn: missing`;
  if (snap.undo.length > MAX_SNAPSHOT_UNDO) return `${path}.undo: ${snap.undo.length} presses, at most ${MAX_SNAPSHOT_UNDO}`;
  for (let i = 0; i < snap.undo.length; i++) {
    const u = snap.undo[i];
    if (!u.white || !u.black) return `${path}.undo[${i}].${u.white ? 'black' : 'white'}: missing`;
    if (u.turn === Side.UNSPECIFIED) return `${path}.undo[${i}].turn: missing`;
  }
  // Since 1.4: the control the arbiter installed during the game, when there is one, is runnable.
  return snap.control === undefined ? null : controlError(snap.control, `${path}.control`);
}

function nonEmpty(value: string, path: string): string | null {
  return value.trim() === '' ? `${path}: must not be empty` : null;
}

function bodyError(env: Envelope): string | null {
  const body = env.body;
  switch (body.case) {
    case 'clockEvent':
      return clockEventError(body.value);
    case 'command':
      return commandError(body.value);
    case 'status':
      return body.value.batteryPercent !== undefined && body.value.batteryPercent > 100
        ? `status.battery_percent: ${body.value.batteryPercent} is over 100`
        : null;
    case 'hello':
      if (body.value.protocolMajor === 0) return 'hello.protocol_major: must be 1 or more';
      return nonEmpty(body.value.serialId, 'hello.serial_id');
    case 'helloAck':
      return body.value.protocolMajor === 0 ? 'hello_ack.protocol_major: must be 1 or more' : null;
    case 'configure': {
      const err = nonEmpty(body.value.gameId, 'configure.game_id');
      if (err) return err;
      try {
        timeControlFromProto(body.value);
        return null;
      } catch (e) {
        if (e instanceof TimeControlError) return `configure.${e.message}`;
        throw e;
      }
    }
    case 'configureAck':
      return nonEmpty(body.value.gameId, 'configure_ack.game_id');
    case 'nack':
      return nonEmpty(body.value.reason, 'nack.reason');
    case 'held':
      return snapshotError(body.value.snapshot, 'held.snapshot');
    case 'restore':
      return nonEmpty(body.value.gameId, 'restore.game_id') ?? snapshotError(body.value.snapshot, 'restore.snapshot');
    case 'ackOnly':
    case 'syncRequest':
    case 'syncResponse':
      return null;
    case undefined:
      // A body case this version does not know (a newer minor's message) arrives as an
      // unknown field: legal, the session skips it. No body and nothing unknown: malformed.
      return env.$unknown !== undefined && env.$unknown.length > 0 ? null : 'body: missing (no message in the envelope)';
  }
}

/**
 * Returns null when `env` may be handed to the application, else the first problem,
 * naming the field (`clock_event.side: required for a moved event`).
 */
export function envelopeError(env: Envelope): string | null {
  return structureError(EnvelopeSchema, env as unknown as Plain, '') ?? bodyError(env);
}

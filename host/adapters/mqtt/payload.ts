// JSON payloads of the MQTT topics (docs/mqtt.md). Every events message carries the
// journal key (clockId, bootId, seq) so subscribers can drop the duplicates that QoS 1
// ("at least once", MQTT 3.1.1 §4.3.2) and outbox resends after a crash produce, and its
// `journalSeq` (the host's journal sequence) so they can see a gap a broker crash left and
// fill it from the host (catch-up-subscriber.ts).
import type { ClockEventRecord, LiveClockState } from '../../app/ports.ts';

/** Payload format version; bump on an incompatible change (topics carry v1 too). */
export const PAYLOAD_VERSION = 1;

export interface EventPayload extends ClockEventRecord {
  readonly v: typeof PAYLOAD_VERSION;
}

export interface StatePayload extends LiveClockState {
  readonly v: typeof PAYLOAD_VERSION;
  readonly event: string;
  readonly round: number;
  readonly board: number;
}

export function encodeEvent(e: ClockEventRecord): string {
  const p: EventPayload = {
    v: PAYLOAD_VERSION,
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    event: e.event,
    round: e.round,
    board: e.board,
    type: e.type,
    side: e.side,
    move: e.move,
    whiteMs: e.whiteMs,
    blackMs: e.blackMs,
    monoMs: e.monoMs,
    utcMs: e.utcMs,
    ...(e.uncertaintyMs !== undefined ? { uncertaintyMs: e.uncertaintyMs } : {}),
    ...(e.detail !== undefined && e.detail !== null ? { detail: e.detail } : {}),
    ...(e.journalSeq !== undefined ? { journalSeq: e.journalSeq } : {}),
  };
  return JSON.stringify(p);
}

export function encodeState(addr: { event: string; round: number; board: number }, s: LiveClockState): string {
  const p: StatePayload = { v: PAYLOAD_VERSION, event: addr.event, round: addr.round, board: addr.board, ...s };
  return JSON.stringify(p);
}

export class PayloadError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'PayloadError';
  }
}

type Check = (v: unknown) => boolean;
const isInt: Check = (v) => Number.isSafeInteger(v);
const isStr: Check = (v) => typeof v === 'string' && v.length > 0;
const orNull =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);
const isSide: Check = (v) => v === 'white' || v === 'black';

const EVENT_FIELDS: Record<Exclude<keyof ClockEventRecord, 'uncertaintyMs' | 'detail' | 'journalSeq'>, [Check, string]> = {
  clockId: [isStr, 'a non-empty string'],
  bootId: [isStr, 'a non-empty string'],
  seq: [isInt, 'an integer'],
  event: [isStr, 'a non-empty string'],
  round: [isInt, 'an integer'],
  board: [isInt, 'an integer'],
  type: [isStr, 'a non-empty string'],
  side: [orNull(isSide), '"white", "black" or null'],
  move: [orNull(isInt), 'an integer or null'],
  whiteMs: [orNull(isInt), 'an integer or null'],
  blackMs: [orNull(isInt), 'an integer or null'],
  monoMs: [isInt, 'an integer'],
  utcMs: [isInt, 'an integer'],
};

/** Parses an events payload; throws PayloadError naming the bad field. */
export function decodeEvent(payload: Buffer | string): EventPayload {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString());
  } catch (err) {
    throw new PayloadError(`events payload is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null) throw new PayloadError('events payload is not a JSON object');
  const o = value as Record<string, unknown>;
  if (o.v !== PAYLOAD_VERSION) throw new PayloadError(`unsupported payload version ${JSON.stringify(o.v)} (expected ${PAYLOAD_VERSION})`, 'v');
  for (const [field, [check, expected]] of Object.entries(EVENT_FIELDS)) {
    if (!check(o[field])) {
      throw new PayloadError(`events payload field "${field}" must be ${expected}, got ${JSON.stringify(o[field])}`, field);
    }
  }
  if (o.uncertaintyMs !== undefined && !isInt(o.uncertaintyMs)) {
    throw new PayloadError(`events payload field "uncertaintyMs" must be an integer, got ${JSON.stringify(o.uncertaintyMs)}`, 'uncertaintyMs');
  }
  if (o.journalSeq !== undefined && !(isInt(o.journalSeq) && (o.journalSeq as number) >= 1)) {
    throw new PayloadError(`events payload field "journalSeq" must be an integer ≥ 1, got ${JSON.stringify(o.journalSeq)}`, 'journalSeq');
  }
  if (o.detail !== undefined && (typeof o.detail !== 'object' || Array.isArray(o.detail))) {
    throw new PayloadError(`events payload field "detail" must be an object or null, got ${JSON.stringify(o.detail)}`, 'detail');
  }
  return o as unknown as EventPayload;
}

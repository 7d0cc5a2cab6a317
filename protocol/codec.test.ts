// Envelope codec: errors as values, validation after decode (docs/architecture.md rule 6), unknown
// fields and body cases of a newer minor version skipped (chessclock.proto header).
import { toBinary, create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope, envelope, InvalidEnvelopeError, type EnvelopeInit } from './codec.ts';
import { envelopeError } from './envelope-validation.ts';
import { ClockEvent_Kind, ClockStatus, Command_Kind, EnvelopeSchema, GameResult, Side, StatusSchema } from './gen/chessclock_pb.ts';
import { timeControlFromWire, timeControlToWire } from './time-control-codec.ts';
import { presetTimeControl } from './time-control.ts';

const moved = envelope({
  seq: 7,
  body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.MOVED, side: Side.WHITE, atMs: 1000, moveNumber: 1, whiteMs: 5000, blackMs: 6000 } },
});

describe('decodeEnvelope', () => {
  it('round-trips a valid envelope', () => {
    const r = decodeEnvelope(encodeEnvelope(moved));
    expect(r).toEqual({ ok: true, envelope: moved });
  });

  it('returns an error value for bytes that are not protobuf (truncated varint)', () => {
    const r = decodeEnvelope(new Uint8Array([0x08, 0xff]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^undecodable payload/);
  });

  it('refuses an unknown enum value, naming the field (proto3 enums are open)', () => {
    // Envelope{seq 1, clock_event{kind 99, side 1}}
    const r = decodeEnvelope(new Uint8Array([0x08, 0x01, 0x1a, 0x04, 0x08, 0x63, 0x10, 0x01]));
    expect(r).toEqual({ ok: false, error: 'invalid envelope: clock_event.kind: 99 is not a known Kind', seq: 1 });
  });

  it('refuses a moved event without a side', () => {
    const r = decodeEnvelope(new Uint8Array([0x08, 0x01, 0x1a, 0x02, 0x18, 0x05]));
    expect(r).toEqual({ ok: false, error: 'invalid envelope: clock_event.side: required for a moved event', seq: 1 });
  });

  it('refuses an envelope with no body and nothing unknown', () => {
    const r = decodeEnvelope(new Uint8Array([0x08, 0x03, 0x10, 0x02]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('body: missing');
  });

  it('skips a body case from a newer minor version: ok with body.case undefined', () => {
    // Envelope{seq 5, field 14 (unknown here) = {field 1: 1}}
    const r = decodeEnvelope(new Uint8Array([0x08, 0x05, 0x72, 0x02, 0x08, 0x01]));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.envelope.seq).toBe(5);
      expect(r.envelope.body.case).toBeUndefined();
    }
  });

  it('skips an unknown field inside a known message and keeps it when re-encoding', () => {
    // Status{white_ms 1} + unknown field 15 (varint 1)
    const status = [...toBinary(StatusSchema, create(StatusSchema, { whiteMs: 1 })), 0x78, 0x01];
    const bytes = new Uint8Array([0x22, status.length, ...status]);
    const r = decodeEnvelope(bytes);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.envelope.body.case).toBe('status');
      expect(encodeEnvelope(r.envelope)).toEqual(bytes);
    }
  });
});

describe('encodeEnvelope', () => {
  it('refuses an invalid envelope, naming the field', () => {
    const bad = envelope({ seq: 1, body: { case: 'command', value: { kind: Command_Kind.ADJUST, ms: 1000 } } });
    expect(() => encodeEnvelope(bad)).toThrow(InvalidEnvelopeError);
    expect(() => encodeEnvelope(bad)).toThrow('command.side: required for adjust');
  });

  it('refuses a negative uint32 time', () => {
    const bad = create(EnvelopeSchema, moved);
    if (bad.body.case === 'clockEvent') bad.body.value.whiteMs = -1;
    expect(() => encodeEnvelope(bad)).toThrow('clock_event.white_ms: must be a whole number from 0 to 4294967295, got -1');
  });
});

describe('validation rules of docs/protocol.md "Validation", each refused with its field', () => {
  const ok = { stages: [{ baseMs: 60_000 }] };
  const cases: Array<[string, EnvelopeInit, string]> = [
    ['flag without side', { seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.FLAG } } }, 'clock_event.side: required for a flag event'],
    ['command without kind', { seq: 1, body: { case: 'command', value: {} } }, 'command.kind: missing'],
    [
      'set_moves without side',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.SET_MOVES, moves: 3 } } },
      'command.side: required for set_moves',
    ],
    ['battery over 100 %', { body: { case: 'status', value: { batteryPercent: 101 } } }, 'status.battery_percent: 101 is over 100'],
    ['hello without serial id', { body: { case: 'hello', value: { protocolMajor: 1, serialId: ' ' } } }, 'hello.serial_id: must not be empty'],
    ['hello with major 0', { body: { case: 'hello', value: { serialId: 'CC-1' } } }, 'hello.protocol_major: must be 1 or more'],
    ['configure without game id', { seq: 1, body: { case: 'configure', value: { white: ok, black: ok } } }, 'configure.game_id: must not be empty'],
    ['configure with a bad control', { seq: 1, body: { case: 'configure', value: { gameId: 'g', white: ok } } }, 'configure.black: missing'],
    ['nack without reason', { seq: 1, body: { case: 'nack', value: { refusedSeq: 4 } } }, 'nack.reason: must not be empty'],
    ['unknown Side in a status', { body: { case: 'status', value: { turn: 9 as Side } } }, 'status.turn: 9 is not a known Side'],
    ['text over 128 characters', { body: { case: 'status', value: { displayWhite: 'x'.repeat(129) } } }, 'status.display_white: 129 characters, at most 128'],
    [
      'a list item named by its index',
      { body: { case: 'hello', value: { protocolMajor: 1, serialId: 'CC-1', capabilities: ['sack', 'x'.repeat(129)] } } },
      'hello.capabilities[1]: 129 characters, at most 128',
    ],
  ];
  for (const [what, init, message] of cases) {
    it(what, () => {
      const env = envelope(init);
      expect(envelopeError(env)).toBe(message);
      // The same bytes coming in are refused by the decoder too (encoded without validation).
      expect(decodeEnvelope(toBinary(EnvelopeSchema, env))).toEqual({ ok: false, error: `invalid envelope: ${message}`, seq: env.seq });
    });
  }

  it("decoding a Buffer yields plain Uint8Arrays (nothing pins the stream's buffer)", () => {
    const bytes = Buffer.from([0x08, 0x05, 0x72, 0x02, 0x08, 0x01]);
    const r = decodeEnvelope(bytes);
    expect(r.ok && Buffer.isBuffer(r.envelope.$unknown?.[0].data)).toBe(false);
    bytes.fill(0);
    expect(r.ok && Array.from(r.envelope.$unknown?.[0].data ?? [])).toEqual([0x02, 0x08, 0x01]);
  });
});

describe("protocol 1.1: the arbiter's powers on the wire (FIDE Laws 6.7.1, 6.10.2, 7.5.1, Guidelines III.4)", () => {
  const roundTrip = (init: EnvelopeInit) => {
    const env = envelope(init);
    expect(decodeEnvelope(encodeEnvelope(env))).toEqual({ ok: true, envelope: env });
  };

  it('FIDE Laws 6.7.1: Command ARRIVE {side} and START {session_elapsed_ms} round-trip', () => {
    roundTrip({ seq: 3, body: { case: 'command', value: { kind: Command_Kind.ARRIVE, side: Side.BLACK } } });
    roundTrip({ seq: 4, body: { case: 'command', value: { kind: Command_Kind.START, sessionElapsedMs: 420_000 } } });
  });

  it('FIDE Laws 7.5.1 / 6.7.1 / Guidelines III.4: Commands TAKEBACK, REINSTATE, INCREMENT {ms} round-trip', () => {
    roundTrip({ seq: 5, body: { case: 'command', value: { kind: Command_Kind.TAKEBACK } } });
    roundTrip({ seq: 6, body: { case: 'command', value: { kind: Command_Kind.REINSTATE } } });
    roundTrip({ seq: 7, body: { case: 'command', value: { kind: Command_Kind.INCREMENT, ms: 5000 } } });
  });

  it('FIDE Laws 7.5.1: ClockEvent TAKEN_BACK carries side, move, period, illegal-move count and the restored times', () => {
    roundTrip({
      seq: 8,
      body: {
        case: 'clockEvent',
        value: {
          kind: ClockEvent_Kind.TAKEN_BACK,
          side: Side.WHITE,
          atMs: 17_000,
          moveNumber: 1,
          period: 0,
          illegalMoves: 1,
          whiteMs: 910_000,
          blackMs: 916_000,
          status: ClockStatus.PAUSED,
        },
      },
    });
  });

  it('FIDE Laws 6.7.1 / Guidelines III.4 / 6.10.2: REINSTATED, INCREMENT_SET, STARTED with a session, MOVES_SET with the credited time round-trip', () => {
    roundTrip({
      seq: 9,
      body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.REINSTATED, atMs: 900_500, whiteMs: 300_000, blackMs: 300_000, status: ClockStatus.PAUSED } },
    });
    roundTrip({
      seq: 10,
      body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.INCREMENT_SET, atMs: 901_000, incrementMs: 5000, status: ClockStatus.PAUSED } },
    });
    roundTrip({
      seq: 11,
      body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.STARTED, atMs: 600_000, sessionElapsedMs: 300_000, whiteMs: 5_400_000, blackMs: 5_400_000 } },
    });
    roundTrip({
      seq: 12,
      body: {
        case: 'clockEvent',
        value: { kind: ClockEvent_Kind.MOVES_SET, side: Side.BLACK, atMs: 602_000, moveNumber: 40, period: 1, adjustMs: 900_000, status: ClockStatus.PAUSED },
      },
    });
  });

  const refused: Array<[string, EnvelopeInit, string]> = [
    ['FIDE Laws 6.7.1: arrive without side', { seq: 1, body: { case: 'command', value: { kind: Command_Kind.ARRIVE } } }, 'command.side: required for arrive'],
    [
      'FIDE Guidelines III.4: a negative increment',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.INCREMENT, ms: -5000 } } },
      'command.ms: the increment must be 0 or more, got -5000',
    ],
    [
      'FIDE Laws 7.5.1: taken_back without side',
      { seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.TAKEN_BACK } } },
      'clock_event.side: required for a taken_back event',
    ],
  ];
  for (const [what, init, message] of refused) {
    it(`refused, naming the field: ${what}`, () => {
      const env = envelope(init);
      expect(envelopeError(env)).toBe(message);
      expect(decodeEnvelope(toBinary(EnvelopeSchema, env))).toEqual({ ok: false, error: `invalid envelope: ${message}`, seq: env.seq });
    });
  }

  it('a Command kind beyond this version (as a 1.0 clock sees TAKEBACK) is refused as unknown, naming the field', () => {
    // Envelope{seq 2, command{kind 99}}: what any kind newer than the receiver's schema looks like to it.
    expect(decodeEnvelope(new Uint8Array([0x08, 0x02, 0x42, 0x02, 0x08, 0x63]))).toEqual({
      ok: false,
      error: 'invalid envelope: command.kind: 99 is not a known Kind',
      seq: 2,
    });
  });
});

describe("protocol 1.4: the arbiter's corrections on the wire (FIDE Laws 6.10.2, 7.1, 7.5.5, 6.7.1, Guidelines III.4)", () => {
  const rapid = timeControlToWire(presetTimeControl('rapid'));
  const roundTrip = (init: EnvelopeInit) => {
    const env = envelope(init);
    expect(decodeEnvelope(encodeEnvelope(env))).toEqual({ ok: true, envelope: env });
  };

  it('FIDE Laws 7.1 / 6.10.2 / Guidelines III.4 / 6.7.1: Commands TAKEBACK {keep_times}, SET_TURN {side}, SET_CONTROL {control}, DELAY {ms}, ENTER_RESULT DOUBLE_FORFEIT round-trip', () => {
    roundTrip({ seq: 1, body: { case: 'command', value: { kind: Command_Kind.TAKEBACK, keepTimes: true } } });
    roundTrip({ seq: 2, body: { case: 'command', value: { kind: Command_Kind.SET_TURN, side: Side.BLACK } } });
    roundTrip({ seq: 3, body: { case: 'command', value: { kind: Command_Kind.SET_CONTROL, control: rapid } } });
    roundTrip({ seq: 4, body: { case: 'command', value: { kind: Command_Kind.DELAY, ms: 5000 } } });
    roundTrip({ seq: 5, body: { case: 'command', value: { kind: Command_Kind.ENTER_RESULT, result: GameResult.DOUBLE_FORFEIT } } });
  });

  it('the control a SET_CONTROL carries decodes to the control sent (timeControlFromWire)', () => {
    const r = decodeEnvelope(encodeEnvelope(envelope({ seq: 3, body: { case: 'command', value: { kind: Command_Kind.SET_CONTROL, control: rapid } } })));
    expect(r.ok && r.envelope.body.case === 'command' && timeControlFromWire(r.envelope.body.value.control, 'command.control')).toEqual(
      presetTimeControl('rapid'),
    );
  });

  it('FIDE Laws 7.1 / 6.10.2 / 7.5.5 / 6.7.1: ClockEvents TAKEN_BACK {keep_times}, TURN_SET, CONTROL_SET, DELAY_SET, a penalty ADJUSTED {illegal_moves}, RESULT_ENTERED DOUBLE_FORFEIT round-trip', () => {
    roundTrip({
      seq: 6,
      body: {
        case: 'clockEvent',
        value: {
          kind: ClockEvent_Kind.TAKEN_BACK,
          side: Side.WHITE,
          atMs: 17_000,
          moveNumber: 1,
          illegalMoves: 1,
          keepTimes: true,
          whiteMs: 897_000,
          blackMs: 906_000,
          status: ClockStatus.PAUSED,
        },
      },
    });
    roundTrip({
      seq: 7,
      body: {
        case: 'clockEvent',
        value: { kind: ClockEvent_Kind.TURN_SET, side: Side.BLACK, atMs: 30_000, whiteMs: 600_000, blackMs: 600_000, status: ClockStatus.READY },
      },
    });
    roundTrip({ seq: 8, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.CONTROL_SET, atMs: 31_000, control: rapid, status: ClockStatus.PAUSED } } });
    roundTrip({ seq: 9, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.DELAY_SET, atMs: 32_000, delayMs: 5000, status: ClockStatus.PAUSED } } });
    roundTrip({
      seq: 10,
      body: {
        case: 'clockEvent',
        value: { kind: ClockEvent_Kind.ADJUSTED, side: Side.WHITE, atMs: 33_000, adjustMs: 60_000, penalty: true, illegalMoves: 2, status: ClockStatus.PAUSED },
      },
    });
    roundTrip({
      seq: 11,
      body: {
        case: 'clockEvent',
        value: { kind: ClockEvent_Kind.RESULT_ENTERED, atMs: 34_000, result: GameResult.DOUBLE_FORFEIT, byArbiter: true, status: ClockStatus.FORFEITED },
      },
    });
  });

  const badControl = { white: { stages: [{ moves: 40, baseMs: 900_000 }] }, black: { stages: [{ baseMs: 900_000 }] } };
  const refused: Array<[string, EnvelopeInit, string]> = [
    [
      'FIDE Laws 6.10.2: set_turn without side',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.SET_TURN } } },
      'command.side: required for set_turn',
    ],
    [
      'FIDE Laws 6.10.2: turn_set without side',
      { seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.TURN_SET } } },
      'clock_event.side: required for a turn_set event',
    ],
    [
      'FIDE Laws 6.10.2: set_control without a control',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.SET_CONTROL } } },
      'command.control: missing',
    ],
    [
      'FIDE Laws 6.10.2: set_control with a control whose last stage has a move count',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.SET_CONTROL, control: badControl } } },
      'command.control.white.stages[0].moves: the last stage lasts the rest of the game, so moves must be 0, got 40',
    ],
    [
      'FIDE Laws 6.10.2: control_set without a control',
      { seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.CONTROL_SET } } },
      'clock_event.control: missing',
    ],
    [
      'FIDE Laws 6.10.2: control_set with a control missing a side',
      { seq: 1, body: { case: 'clockEvent', value: { kind: ClockEvent_Kind.CONTROL_SET, control: { white: rapid.white } } } },
      'clock_event.control.black: missing',
    ],
    [
      'FIDE Guidelines III.4: a negative delay',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.DELAY, ms: -1 } } },
      'command.ms: the delay must be 0 or more, got -1',
    ],
    [
      'a result beyond this version (5)',
      { seq: 1, body: { case: 'command', value: { kind: Command_Kind.ENTER_RESULT, result: 5 as GameResult } } },
      'command.result: 5 is not a known GameResult',
    ],
    [
      'FIDE Laws 6.10.2: a restore whose corrected control cannot run',
      {
        seq: 1,
        body: {
          case: 'restore',
          value: { gameId: '7', snapshot: { status: ClockStatus.PAUSED, turn: Side.WHITE, white: {}, black: {}, control: badControl } },
        },
      },
      'restore.snapshot.control.white.stages[0].moves: the last stage lasts the rest of the game, so moves must be 0, got 40',
    ],
  ];
  for (const [what, init, message] of refused) {
    it(`refused, naming the field: ${what}`, () => {
      const env = envelope(init);
      expect(envelopeError(env)).toBe(message);
      expect(decodeEnvelope(toBinary(EnvelopeSchema, env))).toEqual({ ok: false, error: `invalid envelope: ${message}`, seq: env.seq });
    });
  }

  it('a 1.3 peer reads a 1.4 take-back keeping the times as a plain take-back: keep_times is an unknown field it skips (and keeps)', () => {
    // Command{kind TAKEBACK, field 7 = 1}: to a schema without field 7, the same bytes minus the known ones.
    const bytes = encodeEnvelope(envelope({ seq: 2, body: { case: 'command', value: { kind: Command_Kind.TAKEBACK, keepTimes: true } } }));
    expect(Array.from(bytes)).toEqual([0x08, 0x02, 0x42, 0x04, 0x08, 0x0a, 0x38, 0x01]);
  });
});

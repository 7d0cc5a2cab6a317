// The clock's side of the link: host Commands become statechart inputs, statechart outputs
// become ClockEvents (docs/protocol.md, "Command" and "ClockEvent"; protocol 1.1 adds the
// arbiter's powers, 1.4 the arbiter's corrections and the double forfeit).
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { ClockEvent_Kind, ClockStatus, CommandSchema, Command_Kind, GameResult, Side, type ClockEvent } from '../protocol/gen/chessclock_pb.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { timeControlFromWire, timeControlToWire } from '../protocol/time-control-codec.ts';
import { clockMachine, type ClockInput, type ClockOutput } from '../rules/clock.machine.ts';
import { clockEventBody, commandInput } from './host-link.ts';
import { readClock } from '../rules/clock-reading.ts';

const cmd = (init: MessageInitShape<typeof CommandSchema>) => create(CommandSchema, init);

/** Runs inputs through the real statechart; returns its outputs and the final clock state. */
function run(inputs: ClockInput[], timeControl = presetTimeControl('rapid')) {
  const actor = createActor(clockMachine, { input: { timeControl } });
  const outputs: ClockOutput[] = [];
  actor.on('*', (o) => outputs.push(o as ClockOutput));
  actor.start();
  for (const i of inputs) actor.send(i);
  const clock = actor.getSnapshot().context.clock;
  actor.stop();
  return { outputs, clock };
}

/** The ClockEvent the link would send for the last output of `type`. */
function eventFor(inputs: ClockInput[], type: ClockOutput['type']): ClockEvent | null {
  const { outputs, clock } = run(inputs);
  const out = outputs.filter((o) => o.type === type).at(-1)!;
  expect(out, `no ${type} output`).toBeDefined();
  const r = readClock(clock, out.at);
  const body = clockEventBody(out, r.status, { white: r.white, black: r.black }, clock);
  return body === null ? null : (body.value as ClockEvent);
}

describe('commandInput: host Commands as statechart inputs', () => {
  it('FIDE Laws 6.7.1: START with session_elapsed_ms starts the default time that long before the arrival', () => {
    expect(commandInput(cmd({ kind: Command_Kind.START, sessionElapsedMs: 300_000 }), 1_000_000)).toEqual({ type: 'START', at: 1_000_000, sessionAt: 700_000 });
    // 0 (or absent: an older host): the session starts with the clock.
    expect(commandInput(cmd({ kind: Command_Kind.START }), 5000)).toEqual({ type: 'START', at: 5000 });
    // Before the clock booted: a negative instant on its time base is still a good session start.
    expect(commandInput(cmd({ kind: Command_Kind.START, sessionElapsedMs: 9000 }), 5000)).toEqual({ type: 'START', at: 5000, sessionAt: -4000 });
  });

  it('FIDE Laws 6.7.1: ARRIVE {side}', () => {
    expect(commandInput(cmd({ kind: Command_Kind.ARRIVE, side: Side.BLACK }), 10)).toEqual({ type: 'ARRIVE', side: 'black', at: 10 });
    expect(commandInput(cmd({ kind: Command_Kind.ARRIVE }), 10)).toEqual({ error: 'command arrive: "side" must be white or black' });
  });

  it('FIDE Laws 7.5.1 / 6.7.1: TAKEBACK and REINSTATE', () => {
    expect(commandInput(cmd({ kind: Command_Kind.TAKEBACK }), 20)).toEqual({ type: 'TAKEBACK', at: 20 });
    expect(commandInput(cmd({ kind: Command_Kind.REINSTATE }), 30)).toEqual({ type: 'REINSTATE', at: 30 });
  });

  it('FIDE Guidelines III.4: INCREMENT {ms ≥ 0}', () => {
    expect(commandInput(cmd({ kind: Command_Kind.INCREMENT, ms: 5000 }), 40)).toEqual({ type: 'INCREMENT', ms: 5000, at: 40 });
    expect(commandInput(cmd({ kind: Command_Kind.INCREMENT, ms: -1 }), 40)).toEqual({ error: 'command increment: "ms" must be 0 or more, got -1' });
  });

  it("FIDE Laws 6.9: ENTER_RESULT is the statechart's RESULT by the host", () => {
    expect(commandInput(cmd({ kind: Command_Kind.ENTER_RESULT, result: GameResult.BLACK_WINS }), 50)).toEqual({
      type: 'RESULT',
      result: '0-1',
      by: 'host',
      at: 50,
    });
    expect(commandInput(cmd({ kind: Command_Kind.ENTER_RESULT }), 50)).toEqual({ error: 'enter result: "result" must be 1-0, 1/2-1/2, 0-1, --' });
  });

  it('FIDE Laws 6.7.1: ENTER_RESULT DOUBLE_FORFEIT (protocol 1.4) is the result "--" by the host', () => {
    expect(commandInput(cmd({ kind: Command_Kind.ENTER_RESULT, result: GameResult.DOUBLE_FORFEIT }), 50)).toEqual({
      type: 'RESULT',
      result: '--',
      by: 'host',
      at: 50,
    });
  });

  it('FIDE Laws 7.1: TAKEBACK with keep_times keeps both clock times (protocol 1.4)', () => {
    expect(commandInput(cmd({ kind: Command_Kind.TAKEBACK, keepTimes: true }), 20)).toEqual({ type: 'TAKEBACK', at: 20, times: 'keep' });
  });

  it('FIDE Laws 6.10.2 / Guidelines III.4: SET_TURN {side}, SET_CONTROL {control}, DELAY {ms ≥ 0} (protocol 1.4)', () => {
    expect(commandInput(cmd({ kind: Command_Kind.SET_TURN, side: Side.BLACK }), 60)).toEqual({ type: 'SET_TURN', side: 'black', at: 60 });
    expect(commandInput(cmd({ kind: Command_Kind.SET_TURN }), 60)).toEqual({ error: 'command set turn: "side" must be white or black' });
    const classical = presetTimeControl('classical');
    expect(commandInput(cmd({ kind: Command_Kind.SET_CONTROL, control: timeControlToWire(classical) }), 70)).toEqual({
      type: 'SET_CONTROL',
      timeControl: classical,
      at: 70,
    });
    expect(commandInput(cmd({ kind: Command_Kind.SET_CONTROL }), 70)).toEqual({ error: 'command set control: command.control: missing' });
    expect(commandInput(cmd({ kind: Command_Kind.DELAY, ms: 5000 }), 80)).toEqual({ type: 'DELAY', ms: 5000, at: 80 });
    expect(commandInput(cmd({ kind: Command_Kind.DELAY, ms: -1 }), 80)).toEqual({ error: 'command delay: "ms" must be 0 or more, got -1' });
  });

  it('a kind this firmware does not know is refused, not guessed', () => {
    expect(commandInput(cmd({ kind: 99 as Command_Kind }), 1)).toEqual({ error: 'command kind 99 is not a clock input' });
  });
});

describe('clockEventBody: statechart outputs as ClockEvents', () => {
  const play: ClockInput[] = [
    { type: 'START', at: 0 },
    { type: 'PRESS', side: 'white', at: 5000 },
    { type: 'PRESS', side: 'black', at: 9000 },
    { type: 'PAUSE', at: 15_000 },
  ];

  it('FIDE Laws 7.5.1 with 6.10.2: a take-back reports who, the move count, period, illegal moves and the restored times', () => {
    const e = eventFor([...play, { type: 'TAKEBACK', at: 17_000 }], 'takeback')!;
    // Rapid 900+10 (before-move): Black's move at 9 s is annulled; both times are those of that press.
    expect(e).toMatchObject({
      kind: ClockEvent_Kind.TAKEN_BACK,
      side: Side.BLACK,
      atMs: 17_000,
      moveNumber: 0,
      period: 0,
      illegalMoves: 1,
      status: ClockStatus.PAUSED,
      whiteMs: 915_000,
      blackMs: 906_000,
    });
  });

  it('FIDE Laws 7.1: a take-back keeping the times says so (keep_times) and reports the times as they were', () => {
    const { clock } = run(play);
    const shown = readClock(clock, 17_000);
    const e = eventFor([...play, { type: 'TAKEBACK', at: 17_000, times: 'keep' }], 'takeback')!;
    expect(e).toMatchObject({ kind: ClockEvent_Kind.TAKEN_BACK, side: Side.BLACK, keepTimes: true, whiteMs: shown.white, blackMs: shown.black });
    expect(eventFor([...play, { type: 'TAKEBACK', at: 17_000 }], 'takeback')!.keepTimes ?? false).toBe(false);
  });

  it("FIDE Laws 7.5.5: a penalty names the credited side and carries the offender's illegal-move count", () => {
    const e = eventFor([...play, { type: 'PENALTY', side: 'black', at: 16_000 }], 'adjusted')!;
    expect(e).toMatchObject({ kind: ClockEvent_Kind.ADJUSTED, side: Side.WHITE, penalty: true, illegalMoves: 1 });
    expect(eventFor([...play, { type: 'ADJUST', side: 'black', ms: 1000, at: 16_000 }], 'adjusted')!.illegalMoves ?? 0).toBe(0);
  });

  it('FIDE Laws 6.10.2 / Guidelines III.4: turn set, control set (the control whole) and delay set are reported', () => {
    expect(eventFor([{ type: 'SET_TURN', side: 'black', at: 10 }], 'turn-set')).toMatchObject({
      kind: ClockEvent_Kind.TURN_SET,
      side: Side.BLACK,
      status: ClockStatus.READY,
      whiteMs: 910_000,
      blackMs: 910_000,
    });
    const classical = presetTimeControl('classical');
    const e = eventFor([...play, { type: 'SET_CONTROL', timeControl: classical, at: 16_000 }], 'control-set')!;
    expect(e.kind).toBe(ClockEvent_Kind.CONTROL_SET);
    expect(timeControlFromWire(e.control, 'clock_event.control')).toEqual(classical);
    expect(eventFor([...play, { type: 'DELAY', ms: 5000, at: 16_000 }], 'delay-set')).toMatchObject({
      kind: ClockEvent_Kind.DELAY_SET,
      delayMs: 5000,
      atMs: 16_000,
    });
  });

  it('FIDE Laws 6.7.1: a double forfeit the arbiter keyed in at the clock is reported as DOUBLE_FORFEIT', () => {
    expect(clockEventBody({ type: 'result', at: 5, result: '--', by: 'arbiter' }, 'forfeited', { white: 1, black: 2 })?.value).toMatchObject({
      kind: ClockEvent_Kind.RESULT_ENTERED,
      result: GameResult.DOUBLE_FORFEIT,
      byArbiter: true,
    });
  });

  it('FIDE Laws 6.7.1: reinstating a forfeit reports the times, paused', () => {
    const tc = { ...presetTimeControl('rapid'), defaultTimeMs: 60_000 };
    const { outputs, clock } = run(
      [
        { type: 'ARRIVE', side: 'white', at: 0 },
        { type: 'START', at: 0 },
        { type: 'PAUSE', at: 61_000 },
        { type: 'REINSTATE', at: 62_000 },
      ],
      tc,
    );
    const out = outputs.find((o) => o.type === 'reinstated')!;
    const r = readClock(clock, out.at);
    expect(clockEventBody(out, r.status, r, clock)?.value).toMatchObject({ kind: ClockEvent_Kind.REINSTATED, status: ClockStatus.PAUSED, atMs: 62_000 });
  });

  it('FIDE Guidelines III.4: the increment set is reported in increment_ms', () => {
    expect(eventFor([...play, { type: 'INCREMENT', ms: 5000, at: 16_000 }], 'increment-set')).toMatchObject({
      kind: ClockEvent_Kind.INCREMENT_SET,
      incrementMs: 5000,
      atMs: 16_000,
    });
  });

  it('FIDE Laws 6.7.1: a start after its session reports the session as the time elapsed before it', () => {
    expect(eventFor([{ type: 'START', at: 400_000, sessionAt: 100_000 }], 'started')).toMatchObject({
      kind: ClockEvent_Kind.STARTED,
      atMs: 400_000,
      sessionElapsedMs: 300_000,
    });
    expect(eventFor([{ type: 'START', at: 400_000 }], 'started')).toMatchObject({ sessionElapsedMs: 0 });
  });

  it('FIDE Laws 6.10.2: a counter correction reports the count, the period it gives and the time that period credited', () => {
    const classical = presetTimeControl('classical');
    const { outputs, clock } = run(
      [
        { type: 'START', at: 0 },
        { type: 'PAUSE', at: 1000 },
        { type: 'SET_MOVES', side: 'white', moves: 40, at: 2000 },
      ],
      classical,
    );
    const out = outputs.find((o) => o.type === 'moves-set')!;
    const r = readClock(clock, out.at);
    expect(clockEventBody(out, r.status, r, clock)?.value).toMatchObject({
      kind: ClockEvent_Kind.MOVES_SET,
      side: Side.WHITE,
      moveNumber: 40,
      period: 1,
      adjustMs: 900_000,
      whiteMs: r.white,
    });
  });

  it('FIDE Laws 6.9: a result the host sent is not echoed back; one entered at the clock is reported', () => {
    const r = { white: 1, black: 2 };
    expect(clockEventBody({ type: 'result', at: 5, result: '1-0', by: 'host' }, 'paused', r)).toBeNull();
    expect(clockEventBody({ type: 'result', at: 5, result: '1-0', by: 'arbiter' }, 'paused', r)?.value).toMatchObject({
      kind: ClockEvent_Kind.RESULT_ENTERED,
      result: GameResult.WHITE_WINS,
      byArbiter: true,
    });
    expect(clockEventBody({ type: 'result', at: 5, result: '0-1', by: 'players' }, 'paused', r)?.value).toMatchObject({
      result: GameResult.BLACK_WINS,
      byArbiter: false,
    });
  });
});

// The clock's side of the link to the host (docs/protocol.md; docs/firmware.md "Link").
//
//  - every clock event (statechart output, a result entered at the clock included) goes to
//    the host as a sequenced ClockEvent (a result the host sent is not echoed); the link's outbox holds it until the host acks
//    it, and with a file store it survives a restart of the process;
//  - Configure from the host starts a new game with its control (ConfigureAck), unless the
//    clock is running or the control is bad (a sequenced Nack saying why; the clock keeps
//    its game: docs/architecture.md rule 10); Commands become statechart inputs stamped on arrival;
//  - time sync requests are answered by the link itself from the firmware's time base,
//    the same one that stamps the events, so the host maps `at_ms` to UTC;
//  - the clock keeps time on its own when the host is away: nothing here blocks it.
import { randomInt } from 'node:crypto';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { SerialPort } from 'serialport';
import {
  ClockEvent_Kind,
  Command_Kind,
  type GameResult as WireResult,
  Nack_Code,
  Side as WireSide,
  type Command,
  type Configure,
  type Restore,
} from '../protocol/gen/chessclock_pb.ts';
import { fittingSnapshotBody } from '../protocol/frame-encoder.ts';
import { createLink, DEFAULT_BAUD_RATE, type BodyInit, type Link, type OutboxStore, type ReceivedMessage, type TimeSource } from '../protocol/session-api.ts';
import type { ProtocolVersion } from '../protocol/handshake.ts';
import { timeControlFromProto, timeControlFromWire, timeControlToWire } from '../protocol/time-control-codec.ts';
import type { ClockFirmware } from './clock-firmware.ts';
import type { ClockState } from '../rules/clock-state.ts';
import { CLOCK_RESULTS, type ClockResult, type ClockRunStatus } from '../rules/vocabulary.ts';
import { snapshotClock } from '../rules/clock-snapshot.ts';
import { CLOCK_STATUS_TO_WIRE, RESULT_TO_WIRE, SIDE_TO_WIRE, snapshotFromWire, snapshotToWire } from '../rules/clock-snapshot-wire.ts';
import type { ClockInput, ClockOutput } from '../rules/clock.machine.ts';
import type { Timebase } from './timebase.ts';

export const FIRMWARE_VERSION = '0.1.0';

const SIDE = SIDE_TO_WIRE;
const STATUS = CLOCK_STATUS_TO_WIRE;
const RESULT = RESULT_TO_WIRE;
/** The results the clock takes from the host: each of the rule book's clock results (rules/vocabulary.ts CLOCK_RESULTS) by its wire value. */
const FROM_RESULT = new Map<WireResult, ClockResult>(CLOCK_RESULTS.map((r) => [RESULT[r], r]));

/**
 * The ClockEvent body for a statechart output, or null for outputs the host does not need.
 * `clock`, when given, is the clock state after the output (a take-back reports the period
 * the side is back in from it).
 */
export function clockEventBody(
  out: ClockOutput,
  status: ClockRunStatus,
  times: { white: number; black: number },
  clock?: Pick<ClockState, 'white' | 'black'> & Partial<Pick<ClockState, 'turn'>>,
): BodyInit | null {
  const base = { atMs: out.at >>> 0, status: STATUS[status], whiteMs: times.white, blackMs: times.black };
  const ev = (value: Record<string, unknown>): BodyInit => ({ case: 'clockEvent', value: { ...base, ...value } }) as BodyInit;
  switch (out.type) {
    case 'started':
      // FIDE Laws 6.7.1: the default time counts from the session start, sent as a duration
      // before this event (a uint32 instant could not say "before the clock booted").
      return ev({ kind: ClockEvent_Kind.STARTED, whiteMs: out.white, blackMs: out.black, sessionElapsedMs: Math.max(0, out.at - out.sessionAt) >>> 0 });
    case 'move':
      return ev({ kind: ClockEvent_Kind.MOVED, side: SIDE[out.side], moveNumber: out.move, whiteMs: out.white, blackMs: out.black });
    case 'flag':
      return ev({ kind: ClockEvent_Kind.FLAG, side: SIDE[out.side], whiteMs: out.white, blackMs: out.black });
    case 'forfeit':
      return ev({ kind: ClockEvent_Kind.FORFEIT, side: SIDE[out.side] });
    case 'paused':
      return ev({ kind: ClockEvent_Kind.PAUSED, whiteMs: out.white, blackMs: out.black });
    case 'resumed':
      return ev({ kind: ClockEvent_Kind.RESUMED, whiteMs: out.white, blackMs: out.black });
    case 'arrived':
      return ev({ kind: ClockEvent_Kind.ARRIVED, side: SIDE[out.side] });
    case 'result':
      // A result the host sent (ENTER_RESULT) is the host's own: not echoed back to it.
      if (out.by === 'host') return null;
      return ev({ kind: ClockEvent_Kind.RESULT_ENTERED, result: RESULT[out.result], byArbiter: out.by === 'arbiter' });
    case 'restored':
      // The host's Restore is loaded: the clock stands stopped with the journal's game; `side` is on move.
      return ev({ kind: ClockEvent_Kind.RESTORED, ...(clock?.turn ? { side: SIDE[clock.turn] } : {}), whiteMs: out.white, blackMs: out.black });
    default: {
      // An arbiter's correction, or nothing to send.
      const correction = correctionEventFields(out, clock);
      return correction ? ev(correction) : null;
    }
  }
}

/** The ClockEvent fields for an arbiter's correction (a time adjusted, a move taken back, a control set…), or null for any other output. */
function correctionEventFields(out: ClockOutput, clock?: Pick<ClockState, 'white' | 'black'>): Record<string, unknown> | null {
  switch (out.type) {
    case 'adjusted':
      // FIDE Laws 7.5.5: a penalty names the credited side and carries the offender's illegal-move count (since 1.4).
      return {
        kind: ClockEvent_Kind.ADJUSTED,
        side: SIDE[out.side],
        adjustMs: out.ms,
        penalty: out.reason === 'penalty',
        ...(out.reason === 'penalty' && out.illegalMoves !== undefined ? { illegalMoves: out.illegalMoves } : {}),
        whiteMs: out.white,
        blackMs: out.black,
      };
    case 'moves-set':
      // FIDE Laws 6.10.2: the period follows from the count; a later period's time credited once (adjust_ms).
      return {
        kind: ClockEvent_Kind.MOVES_SET,
        side: SIDE[out.side],
        moveNumber: out.moves,
        period: out.period,
        adjustMs: out.creditedMs,
        whiteMs: out.white,
        blackMs: out.black,
      };
    case 'takeback':
      // FIDE Laws 7.5.1 with 6.10.2: `side`'s last move annulled; the times are the restored ones.
      return {
        kind: ClockEvent_Kind.TAKEN_BACK,
        side: SIDE[out.side],
        moveNumber: out.move,
        illegalMoves: out.illegalMoves,
        // FIDE Laws 7.1: the arbiter kept both clock times (since 1.4).
        keepTimes: out.times === 'keep',
        ...(clock ? { period: clock[out.side].period } : {}),
        whiteMs: out.white,
        blackMs: out.black,
      };
    case 'turn-set':
      // FIDE Laws 6.10.2: the side the arbiter set on move; no time moved.
      return { kind: ClockEvent_Kind.TURN_SET, side: SIDE[out.side], whiteMs: out.white, blackMs: out.black };
    case 'control-set':
      // FIDE Laws 6.10.2: the corrected control now in force, whole; both times unchanged.
      return { kind: ClockEvent_Kind.CONTROL_SET, control: timeControlToWire(out.timeControl), whiteMs: out.white, blackMs: out.black };
    case 'delay-set':
      // FIDE Guidelines III.4: the quickplay delay now in force for turns yet to begin.
      return { kind: ClockEvent_Kind.DELAY_SET, delayMs: out.ms };
    case 'reinstated':
      // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the forfeit is overruled.
      return { kind: ClockEvent_Kind.REINSTATED, whiteMs: out.white, blackMs: out.black };
    case 'increment-set':
      // FIDE Guidelines III.4: the quickplay increment now in force.
      return { kind: ClockEvent_Kind.INCREMENT_SET, incrementMs: out.ms };
    default:
      // new-game is answered by ConfigureAck; rejected inputs change nothing.
      return null;
  }
}

/** The statechart input for a host Command, or an error text naming what is wrong. */
export function commandInput(cmd: Command, at: number): ClockInput | { error: string } {
  const side = cmd.side === WireSide.WHITE ? 'white' : cmd.side === WireSide.BLACK ? 'black' : null;
  const needSide = (kind: string) => ({ error: `command ${kind}: "side" must be white or black` });
  switch (cmd.kind) {
    case Command_Kind.START:
      // The session began session_elapsed_ms before this command arrived (0: it begins now).
      return cmd.sessionElapsedMs > 0 ? { type: 'START', at, sessionAt: at - cmd.sessionElapsedMs } : { type: 'START', at };
    case Command_Kind.PAUSE:
      return { type: 'PAUSE', at };
    case Command_Kind.RESUME:
      return { type: 'RESUME', at };
    case Command_Kind.ADJUST:
      return side ? { type: 'ADJUST', side, ms: cmd.ms, at } : needSide('adjust');
    case Command_Kind.PENALTY:
      return side ? { type: 'PENALTY', side, at } : needSide('penalty');
    case Command_Kind.SET_MOVES:
      return side ? { type: 'SET_MOVES', side, moves: cmd.moves, at } : needSide('set moves');
    case Command_Kind.ARRIVE:
      return side ? { type: 'ARRIVE', side, at } : needSide('arrive');
    case Command_Kind.TAKEBACK:
      // FIDE Laws 7.1: the arbiter may keep both clock times (since 1.4); else both go back to the press.
      return cmd.keepTimes ? { type: 'TAKEBACK', at, times: 'keep' } : { type: 'TAKEBACK', at };
    case Command_Kind.SET_TURN:
      return side ? { type: 'SET_TURN', side, at } : needSide('set turn');
    case Command_Kind.SET_CONTROL:
      try {
        return { type: 'SET_CONTROL', timeControl: timeControlFromWire(cmd.control, 'command.control'), at };
      } catch (err) {
        return { error: `command set control: ${(err as Error).message}` };
      }
    case Command_Kind.DELAY:
      return cmd.ms >= 0 ? { type: 'DELAY', ms: cmd.ms, at } : { error: `command delay: "ms" must be 0 or more, got ${cmd.ms}` };
    case Command_Kind.REINSTATE:
      return { type: 'REINSTATE', at };
    case Command_Kind.INCREMENT:
      return cmd.ms >= 0 ? { type: 'INCREMENT', ms: cmd.ms, at } : { error: `command increment: "ms" must be 0 or more, got ${cmd.ms}` };
    case Command_Kind.ENTER_RESULT: {
      const result = FROM_RESULT.get(cmd.result);
      return result ? { type: 'RESULT', result, by: 'host', at } : { error: `enter result: "result" must be ${CLOCK_RESULTS.join(', ')}` };
    }
    default:
      return { error: `command kind ${Command_Kind[cmd.kind] ?? cmd.kind} is not a clock input` };
  }
}

export interface ClockLinkOptions {
  serialId: string;
  /** The link's outbox; a FileOutboxStore keeps unacknowledged events across restarts. */
  outboxStore?: OutboxStore;
  /**
   * Timers for retransmission and heartbeats. Default: the firmware's time base. A fleet on
   * simulated time passes real timers here (its simulated hours jump past in milliseconds).
   */
  timers?: Pick<Timebase, 'setTimer' | 'clearTimer'>;
  /** Status heartbeat interval (firmware time); 0 = none. Default 1000 ms. */
  statusIntervalMs?: number;
  bootId?: number;
  /** The protocol version the clock announces (default: this code's). Tests play older clocks with it. */
  protocolVersion?: ProtocolVersion;
  /** Refused by the host (its id online on another line): greet again after this wait, doubling to a longest (default GREET_AGAIN_AFTER_REFUSAL). */
  greetAgainAfterRefusal?: { readonly initialMs: number; readonly maxMs: number };
}

/** A refused clock greets again after 5 s, then 10, 20, 30, 30 s, … (docs/protocol.md "Handshake and versioning"). */
export const GREET_AGAIN_AFTER_REFUSAL = { initialMs: 5_000, maxMs: 30_000 } as const;

export interface ClockLink {
  readonly link: Link;
  /** Messages sent and not yet acknowledged (or failed). */
  pending(): number;
  /** Resolves when every message sent so far was acknowledged (or failed). */
  drained(): Promise<void>;
  /** Stops forwarding and closes the link (the outbox keeps what was not acknowledged). */
  close(reason?: string): void;
}

/** What the handlers of the host's messages work with (see linkClockToHost). */
interface HostMessageContext {
  readonly firmware: ClockFirmware;
  readonly send: (body: BodyInit) => void;
  /** Refuses the message with a sequenced Nack saying why. */
  readonly nack: (m: ReceivedMessage, code: Nack_Code, reason: string) => void;
  /** Runs a statechart input; while it runs a 'rejected' output is its answer: that reason, or null. */
  readonly refusalOf: (input: Parameters<ClockFirmware['command']>[0]) => string | null;
}

/** Configure: a new game with the host's control, unless the clock is running or the control is bad. */
function onConfigure(ctx: HostMessageContext, m: ReceivedMessage, cfg: Configure): void {
  const { firmware } = ctx;
  if (firmware.reading().status === 'running') return ctx.nack(m, Nack_Code.NOT_NOW, 'the clock is running: pause it before a new game');
  let tc;
  try {
    tc = timeControlFromProto(cfg);
  } catch (err) {
    return ctx.nack(m, Nack_Code.BAD_CONFIGURATION, (err as Error).message);
  }
  firmware.command({ type: 'NEW_GAME', timeControl: tc });
  firmware.showResult(null);
  firmware.setGame(cfg.gameId);
  ctx.send({ case: 'configureAck', value: { gameId: cfg.gameId } } as BodyInit);
}

/** docs/protocol.md "Restore": the journal's game, loaded stopped (FIDE Laws 6.10.1); the arbiter resumes. */
function onRestore(ctx: HostMessageContext, m: ReceivedMessage, r: Restore): void {
  const { firmware } = ctx;
  if (r.gameId !== (firmware.gameId ?? '')) {
    return ctx.nack(
      m,
      Nack_Code.NOT_READY,
      `restore of game ${r.gameId}: the clock is configured for ${firmware.gameId ? `game ${firmware.gameId}` : 'no game'}; configure it first`,
    );
  }
  let snapshot;
  try {
    snapshot = snapshotFromWire(r.snapshot!, 'restore.snapshot');
  } catch (err) {
    return ctx.nack(m, Nack_Code.INVALID, (err as Error).message);
  }
  const refusal = ctx.refusalOf({ type: 'RESTORE', snapshot });
  if (refusal) ctx.nack(m, Nack_Code.NOT_NOW, `restore: ${refusal}`);
}

/**
 * docs/protocol.md "Restore": HOLD stops the clock (a PAUSED event), then says what the clock
 * holds. The Held is sequenced after every event still in the outbox, so the host has them all first.
 */
function onHold(ctx: HostMessageContext, m: ReceivedMessage): void {
  const { firmware } = ctx;
  if (firmware.reading().status === 'running') firmware.command({ type: 'PAUSE' });
  const at = firmware.now();
  // One frame: with a corrected control of many stages the oldest presses are left out (docs/protocol.md "Restore", Size).
  const wire = snapshotToWire(snapshotClock(firmware.state(), at));
  const held = fittingSnapshotBody(wire.undo.length, (n) => ({
    case: 'held' as const,
    value: { gameId: firmware.gameId ?? '', atMs: at >>> 0, snapshot: { ...wire, undo: wire.undo.slice(0, n) } },
  }));
  if (held === null)
    return ctx.nack(m, Nack_Code.NOT_NOW, "hold: the clock's state does not fit one frame (a corrected control of too many stages): set the clock by hand");
  ctx.send(held as BodyInit);
}

/** A Command from the host: a statechart input stamped on arrival (NEW_GAME and HOLD handled here). */
function onCommand(ctx: HostMessageContext, m: ReceivedMessage, cmd: Command): void {
  const { firmware } = ctx;
  // ENTER_RESULT (the arbiter's result at the host) is the statechart's RESULT by 'host': the
  // game is over at the clock too (a running clock stops); it is not echoed back as an event.
  if (cmd.kind === Command_Kind.NEW_GAME) {
    if (firmware.reading().status === 'running') return ctx.nack(m, Nack_Code.NOT_NOW, 'the clock is running: pause it before a new game');
    firmware.command({ type: 'NEW_GAME', timeControl: firmware.state().timeControl });
    return firmware.showResult(null);
  }
  if (cmd.kind === Command_Kind.HOLD) return onHold(ctx, m);
  const input = commandInput(cmd, firmware.now());
  if ('error' in input) return ctx.nack(m, Nack_Code.INVALID, input.error);
  const refusal = ctx.refusalOf(input);
  if (refusal) ctx.nack(m, Nack_Code.NOT_NOW, `${Command_Kind[cmd.kind]?.toLowerCase() ?? 'command'}: ${refusal}`);
}

/** The Status heartbeat: the clock's times, turn, status, counters and what its display shows. */
function statusBody(firmware: ClockFirmware): BodyInit {
  const r = firmware.reading();
  const row = firmware.screen()[0] ?? '';
  return {
    case: 'status',
    value: {
      atMs: firmware.now() >>> 0,
      whiteMs: r.white,
      blackMs: r.black,
      turn: SIDE[r.turn],
      status: STATUS[r.status],
      whiteMoves: r.moves.white,
      blackMoves: r.moves.black,
      displayWhite: row.slice(0, 8).trim(),
      displayBlack: row.slice(8).trim(),
    },
  } as BodyInit;
}

/**
 * Sends on `link`, counting those not yet settled. A send is settled by the host's ack; an
 * unacknowledged event stays in the outbox and is resent after a reconnect, so a failure here
 * is not an error of the clock.
 */
function trackedSends(link: Link): { send: (body: BodyInit) => void; pending: () => number; drained: () => Promise<void> } {
  let inFlight = 0;
  const drainWaiters: Array<() => void> = [];
  const send = (body: BodyInit) => {
    inFlight++;
    void link
      .send(body)
      .catch(() => undefined)
      .finally(() => {
        inFlight--;
        if (inFlight === 0) for (const fn of drainWaiters.splice(0)) fn();
      });
  };
  return {
    send,
    pending: () => inFlight,
    drained: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => drainWaiters.push(resolve))),
  };
}

/** Links the firmware to a host over any Duplex (serial port, pty, TCP socket, in-memory pair). */
export function linkClockToHost(firmware: ClockFirmware, duplex: Duplex, options: ClockLinkOptions): ClockLink {
  const timers = options.timers ?? firmware.time;
  const time: TimeSource = {
    now: () => firmware.now(),
    setTimer: (fn, ms) => timers.setTimer(fn, ms) as object,
    clearTimer: (h) => timers.clearTimer(h as object),
  };
  const link = createLink(duplex, {
    role: 'clock',
    identity: { serialId: options.serialId, firmwareVersion: FIRMWARE_VERSION, bootId: options.bootId ?? randomInt(0, 2 ** 32 - 1) },
    time,
    outboxStore: options.outboxStore,
    greetAgainAfterRefusal: options.greetAgainAfterRefusal ?? GREET_AGAIN_AFTER_REFUSAL,
    ...(options.protocolVersion ? { version: options.protocolVersion } : {}),
  });
  const { send, pending, drained } = trackedSends(link);

  // While a host command is applied, a 'rejected' output from the statechart is its answer.
  let pendingCommand: ((reason: string) => void) | null = null;
  // A result entered at the clock (players or arbiter) is the statechart's RESULT input, so it
  // reaches the host as that output, like every other clock event.
  const onOutput = (out: ClockOutput) => {
    const reading = firmware.reading(out.at);
    const body = clockEventBody(out, reading.status, { white: reading.white, black: reading.black }, firmware.state());
    if (body) send(body);
    if (out.type === 'rejected') pendingCommand?.(out.reason);
  };
  firmware.on('output', onOutput);

  const ctx: HostMessageContext = {
    firmware,
    send,
    nack: (m, code, reason) => send({ case: 'nack', value: { refusedSeq: m.seq, code, reason: reason.slice(0, 128) } } as BodyInit),
    refusalOf: (input) => {
      let refusal: string | null = null;
      pendingCommand = (reason) => (refusal = reason);
      try {
        firmware.command(input);
      } finally {
        pendingCommand = null;
      }
      return refusal;
    },
  };
  const onMessage = (m: ReceivedMessage) => {
    if (m.body.case === 'configure') onConfigure(ctx, m, m.body.value as Configure);
    else if (m.body.case === 'restore') onRestore(ctx, m, m.body.value as Restore);
    else if (m.body.case === 'command') onCommand(ctx, m, m.body.value as Command);
  };
  link.on('message', onMessage);

  let heartbeat: ReturnType<typeof timers.setTimer> | null = null;
  const statusEvery = options.statusIntervalMs ?? 1000;
  const beat = () => {
    link.post(statusBody(firmware));
    heartbeat = timers.setTimer(beat, statusEvery);
  };
  if (statusEvery > 0) heartbeat = timers.setTimer(beat, statusEvery);

  return {
    link,
    pending,
    drained,
    close(reason = 'closed by the clock') {
      firmware.off('output', onOutput);
      link.off('message', onMessage);
      if (heartbeat !== null) timers.clearTimer(heartbeat);
      link.close(reason);
    },
  };
}

/** Opens the line to the host: a serial device or pty at 115 200 baud, or `tcp:HOST:PORT`. */
export async function openHostLine(spec: string): Promise<Duplex> {
  const tcp = /^tcp:([^:]+):(\d+)$/.exec(spec);
  if (tcp) {
    const socket = connect({ host: tcp[1], port: Number(tcp[2]) });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return socket;
  }
  const port = new SerialPort({ path: spec, baudRate: DEFAULT_BAUD_RATE, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(new Error(`cannot open ${spec}: ${err.message}`)) : resolve())));
  return port;
}

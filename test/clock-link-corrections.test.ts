// The clock's side of protocol 1.4 (docs/protocol.md "Command", "ClockEvent"), over a real link
// between the unchanged firmware on a virtual board and a host session: the arbiter's
// corrections arrive as Commands and become the statechart's inputs (a take-back keeping the
// times, the side on move, a corrected control, the quickplay delay, the double forfeit), and
// what the statechart answers comes back as ClockEvents the host can journal. A command the
// clock refuses leaves its state as it was (docs/architecture.md rule 10), and a correction
// survives a power cut like every other change of the clock's state.
import { afterEach, describe, expect, it } from 'vitest';
import { ClockEvent_Kind, ClockStatus, Command_Kind, GameResult, Nack_Code, Side, type ClockEvent } from '../protocol/gen/chessclock_pb.ts';
import { systemTime, type BodyInit, type ReceivedMessage } from '../protocol/session-api.ts';
import { timeControlFromWire, timeControlToProto, timeControlToWire } from '../protocol/time-control-codec.ts';
import { presetTimeControl, readTimeControlSpec, type TimeControl } from '../protocol/time-control.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { ClockRefusedError, ClockSession } from '../host/clocks/clock-session.ts';
import { SimClock, simulatedHall, waitFor } from './e2e-harness.ts';

type Sim = ReturnType<typeof simulatedHall>['sim'];

describe("protocol 1.4 at the clock: the arbiter's corrections through the link (FIDE Laws 6.10.2, 7.1, 7.5.5, 6.7.1, Guidelines III.4)", () => {
  const stops: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  /** A clock on a host session, configured for game 7 with `tc`; `events` collects what it reports. */
  async function linked(tc: TimeControl, sim: Sim, stateDir?: string) {
    const clock = await SimClock.boot('CLK-C', sim, tc, stateDir ? { stateDir } : {});
    stops.push(() => clock.stop());
    const events: ClockEvent[] = [];
    const session = new ClockSession({
      key: 'memory:c',
      open: clock.memoryLine(),
      time: { now: () => sim.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
      handler: {
        online: () => undefined,
        offline: () => undefined,
        message: (_s, m: ReceivedMessage) => {
          if (m.body.case === 'clockEvent') events.push(m.body.value);
        },
      },
    }).start();
    stops.push(() => session.stop());
    await waitFor('the clock online', () => session.online);
    await session.request({
      case: 'configure',
      value: { gameId: '7', event: 'E', round: '1', board: '1', whitePlayer: 'W', blackPlayer: 'B', ...timeControlToProto(tc) },
    } as BodyInit);
    const command = (value: Record<string, unknown>) => session.request({ case: 'command', value } as BodyInit);
    /** Sends a command and waits for the event of `kind` it makes the clock report. */
    const reported = async (value: Record<string, unknown>, kind: ClockEvent_Kind): Promise<ClockEvent> => {
      const n = events.length;
      await command(value);
      await waitFor(`${ClockEvent_Kind[kind]} reported`, () => events.slice(n).some((e) => e.kind === kind));
      return events.slice(n).find((e) => e.kind === kind)!;
    };
    return { clock, fw: clock.clock.firmware, events, command, reported };
  }

  it('FIDE Laws 6.10.2 / 7.1 / 7.5.5 / Guidelines III.4: side on move, a take-back keeping both times, its penalty counted once, a corrected control, a delay; each reported as the statechart made it', async () => {
    const { sim } = simulatedHall(0);
    // The clock's flash (its saved state), for a power cut below.
    const stateDir = mkdtempSync(join(tmpdir(), 'clock-corrections-'));
    stops.push(() => rmSync(stateDir, { recursive: true, force: true }));
    const { clock, fw, events, command, reported } = await linked(presetTimeControl('rapid'), sim, stateDir);

    // FIDE Laws 6.10.2: a replacement clock set up with Black on move, before the start.
    const turn = await reported({ kind: Command_Kind.SET_TURN, side: Side.BLACK }, ClockEvent_Kind.TURN_SET);
    expect(fw.state().turn).toBe('black');
    expect(turn).toMatchObject({ side: Side.BLACK, status: ClockStatus.READY, whiteMs: fw.reading().white, blackMs: fw.reading().black });
    await command({ kind: Command_Kind.START });
    expect(fw.reading()).toMatchObject({ status: 'running', turn: 'black' });
    sim.advanceBy(4_000);
    await clock.press('black');
    sim.advanceBy(3_000);
    await clock.press('white'); // the illegal move
    sim.advanceBy(1_000);
    await command({ kind: Command_Kind.PAUSE });

    // FIDE Laws 7.1: the arbiter annuls White's move and keeps both clock times.
    const shown = fw.reading();
    const taken = await reported({ kind: Command_Kind.TAKEBACK, keepTimes: true }, ClockEvent_Kind.TAKEN_BACK);
    expect(fw.reading()).toMatchObject({ status: 'paused', turn: 'white', white: shown.white, black: shown.black, moves: { white: 0, black: 1 } });
    expect(taken).toMatchObject({ side: Side.WHITE, keepTimes: true, moveNumber: 0, illegalMoves: 1, whiteMs: shown.white, blackMs: shown.black });

    // FIDE Laws 7.5.5: the penalty of the same illegal move credits Black and counts it once.
    const penalty = await reported({ kind: Command_Kind.PENALTY, side: Side.WHITE }, ClockEvent_Kind.ADJUSTED);
    expect(penalty).toMatchObject({ side: Side.BLACK, penalty: true, illegalMoves: 1, blackMs: fw.reading().black });
    expect(fw.reading().illegalMoves).toEqual({ white: 1, black: 0 });

    // FIDE Laws 6.10.2: the clock was set to the wrong control; both times stay.
    const classical = presetTimeControl('classical');
    const before = fw.reading();
    const corrected = await reported({ kind: Command_Kind.SET_CONTROL, control: timeControlToWire(classical) }, ClockEvent_Kind.CONTROL_SET);
    expect(fw.state().timeControl).toEqual(classical);
    expect(timeControlFromWire(corrected.control, 'clock_event.control')).toEqual(classical);
    expect(corrected).toMatchObject({ whiteMs: before.white, blackMs: before.black, status: ClockStatus.PAUSED });

    // FIDE Guidelines III.4: a 5 s delay for both sides on every later turn.
    const delay = await reported({ kind: Command_Kind.DELAY, ms: 5000 }, ClockEvent_Kind.DELAY_SET);
    expect(delay).toMatchObject({ delayMs: 5000 });
    expect(fw.state().extraDelayMs).toBe(5000);

    // A power cut now: the clock comes back with the corrections (they are changes of its state, saved like a press).
    const reborn = await VirtualClock.boot({ timeControl: presetTimeControl('rapid'), time: sim, snapshots: fileSnapshotStore(stateDir) });
    stops.push(() => reborn.stop());
    expect(reborn.firmware.state()).toMatchObject({ timeControl: classical, controlCorrected: true, extraDelayMs: 5000, turn: 'white' });
    expect(reborn.firmware.reading().illegalMoves).toEqual({ white: 1, black: 0 });

    // FIDE Laws 6.7.1: the arbiter's double forfeit at the host is the clock's result too (not echoed back).
    const n = events.length;
    await command({ kind: Command_Kind.ENTER_RESULT, result: GameResult.DOUBLE_FORFEIT });
    expect(fw.state().result).toBe('--');
    await command({ kind: Command_Kind.RESUME }).catch((err: unknown) => expect(err).toBeInstanceOf(ClockRefusedError));
    expect(fw.reading().status).not.toBe('running');
    expect(events.slice(n).filter((e) => e.kind === ClockEvent_Kind.RESULT_ENTERED)).toEqual([]);
  }, 30_000);

  it("FIDE Guidelines III.4: no quickplay delay in blitz: the clock answers Nack NOT_NOW with the rule book's reason and keeps its state", async () => {
    const { sim } = simulatedHall(0);
    const blitz = readTimeControlSpec('300+3').timeControl;
    const { fw, command } = await linked(blitz, sim);
    const before = fw.state();
    const refused = command({ kind: Command_Kind.DELAY, ms: 5000 });
    await expect(refused).rejects.toBeInstanceOf(ClockRefusedError);
    await expect(refused).rejects.toMatchObject({ nack: { code: Nack_Code.NOT_NOW } });
    await expect(refused).rejects.toThrow(/no quickplay finish in blitz/);
    expect(fw.state()).toEqual(before);
    // Removing a delay (0) is always taken.
    await command({ kind: Command_Kind.DELAY, ms: 0 });
    expect(fw.state().extraDelayMs).toBe(0);
  }, 30_000);
});

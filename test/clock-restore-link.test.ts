// The clock's side of docs/protocol.md "Restore" (protocol 1.2), over a real link between the
// unchanged firmware on a virtual board and a host session: HOLD pauses a running clock and is
// answered by a Held after the PAUSED event; a Restore is refused for another game or while
// the clock runs (the clock keeps its state: docs/architecture.md rule 10), and otherwise
// loaded stopped and reported as RESTORED.
import { afterEach, describe, expect, it } from 'vitest';
import { ClockEvent_Kind, ClockStatus, Command_Kind, Nack_Code, type ClockEvent } from '../protocol/gen/chessclock_pb.ts';
import { systemTime, type BodyInit, type ReceivedMessage } from '../protocol/session-api.ts';
import { timeControlToProto } from '../protocol/time-control-codec.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { snapshotFromWire, snapshotToWire } from '../rules/clock-snapshot-wire.ts';
import { ClockRefusedError, ClockSession } from '../host/clocks/clock-session.ts';
import { SimClock, simulatedHall, waitFor } from './e2e-harness.ts';

describe('HOLD and Restore at the clock (docs/protocol.md "Restore")', () => {
  const stops: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  it('holds (pausing first), refuses a Restore for another game or while running, and loads one stopped', async () => {
    const { sim } = simulatedHall(0);
    const clock = await SimClock.boot('CLK-R', sim, presetTimeControl('rapid'));
    stops.push(() => clock.stop());
    const events: ClockEvent[] = [];
    const session = new ClockSession({
      key: 'memory:r',
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
    const tc = presetTimeControl('rapid');
    await session.request({
      case: 'configure',
      value: { gameId: '7', event: 'E', round: '1', board: '1', whitePlayer: 'W', blackPlayer: 'B', ...timeControlToProto(tc) },
    } as BodyInit);
    expect(clock.clock.firmware.gameId).toBe('7');
    await session.request({ case: 'command', value: { kind: Command_Kind.START } } as BodyInit);
    sim.advanceBy(4_000);
    await clock.press('white');
    sim.advanceBy(6_000);
    await clock.press('black');
    sim.advanceBy(2_500); // White's clock runs

    // HOLD: the running clock pauses (PAUSED, sequenced first), then says what it holds.
    const held = await session.hold();
    expect(clock.clock.firmware.reading().status).toBe('paused');
    const paused = events.at(-1)!;
    expect(paused.kind).toBe(ClockEvent_Kind.PAUSED);
    expect(held.gameId).toBe('7');
    const snap = snapshotFromWire(held.snapshot!);
    expect(snap).toMatchObject({ status: 'paused', turn: 'white', turnActiveMs: 2_500, started: true });
    expect(snap.white.moves).toBe(1);
    expect(snap.undo).toHaveLength(2);

    // Another game: refused, nothing changed (Nack NOT_READY names both games).
    const wrongGame = session.request({ case: 'restore', value: { gameId: '8', snapshot: held.snapshot } } as BodyInit);
    await expect(wrongGame).rejects.toBeInstanceOf(ClockRefusedError);
    await expect(wrongGame).rejects.toMatchObject({ nack: { code: Nack_Code.NOT_READY } });
    await expect(wrongGame).rejects.toThrow('restore of game 8: the clock is configured for game 7; configure it first');

    // While running: refused (FIDE Laws 6.11: the clock is set while stopped).
    await session.request({ case: 'command', value: { kind: Command_Kind.RESUME } } as BodyInit);
    const running = session.request({ case: 'restore', value: { gameId: '7', snapshot: held.snapshot } } as BodyInit);
    await expect(running).rejects.toMatchObject({ nack: { code: Nack_Code.NOT_NOW } });
    expect(clock.clock.firmware.reading().status).toBe('running');
    await session.request({ case: 'command', value: { kind: Command_Kind.PAUSE } } as BodyInit);

    // The journal's state (here: the held one with a minute more for Black) is loaded stopped.
    const journal = { ...snap, black: { ...snap.black, creditedMs: snap.black.creditedMs + 60_000 } };
    const before = clock.clock.firmware.reading();
    const n = events.length;
    await session.request({ case: 'restore', value: { gameId: '7', snapshot: snapshotToWire(journal) } } as BodyInit);
    await waitFor('RESTORED', () => events.length > n);
    const restored = events.at(-1)!;
    const after = clock.clock.firmware.reading();
    expect(after).toMatchObject({
      status: 'paused',
      turn: 'white',
      white: held.snapshot!.white!.creditedMs - held.snapshot!.white!.chargedMs - 2_500,
      black: before.black + 60_000,
    });
    expect(restored).toMatchObject({ status: ClockStatus.PAUSED, whiteMs: after.white, blackMs: after.black });
  }, 30_000);
});

// The simulated clock linked to a host (protocol/ Link in the host role) over an
// in-memory pair and over a real pty pair (socat) with the real serialport package:
// what the host receives is checked event by event, with the clock's own timestamps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import { ClockEvent_Kind, Command_Kind, Nack_Code, Side as WireSide, GameResult as WireResult } from '../protocol/gen/chessclock_pb.ts';
import {
  createLink,
  FileOutboxStore,
  openPtyPair,
  openSerialLink,
  ptySkipReason,
  systemTime,
  type Link,
  type PtyPair,
  type ReceivedMessage,
} from '../protocol/session-api.ts';
import { createLossyPair } from '../protocol/lossy-line.ts';
import { timeControlToProto } from '../protocol/time-control-codec.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Rig {
  clock: VirtualClock;
  clockLink: ClockLink;
  host: Link;
  received: ReceivedMessage[];
}

async function rig(opts: { time?: SimulatedTime; outboxDir?: string } = {}): Promise<Rig> {
  const clock = await VirtualClock.boot({ timeControl: presetTimeControl('classical'), time: opts.time });
  const pair = createLossyPair({ seed: 1, time: systemTime, immediate: true });
  const clockLink = linkClockToHost(clock.firmware, pair.a, {
    serialId: 'sim-board-1',
    timers: realTimebase, // simulated hours must not look like a silent host
    statusIntervalMs: 0,
    outboxStore: opts.outboxDir ? new FileOutboxStore(join(opts.outboxDir, 'outbox.json')) : undefined,
  });
  const host = createLink(pair.b, { role: 'host', autoSync: false });
  const received: ReceivedMessage[] = [];
  host.on('message', (m: ReceivedMessage) => received.push(m));
  cleanups.push(() => {
    clockLink.close();
    host.close();
    clock.stop();
  });
  await host.ready;
  return { clock, clockLink, host, received };
}

const events = (r: Rig) => r.received.filter((m) => m.body.case === 'clockEvent').map((m) => m.body.value as Record<string, unknown>);

describe('the clock linked to a host (in-memory pair)', () => {
  it('Configure from the host sets the game; every clock event reaches the host with the clock’s time (armageddon flag)', async () => {
    const r = await rig();
    await r.host.send({
      case: 'configure',
      value: { gameId: 'g1', event: 'Slovenian final', round: '3', board: '1', ...timeControlToProto(presetTimeControl('armageddon')) },
    });
    await waitFor('configureAck', () => r.received.find((m) => m.body.case === 'configureAck'));
    expect(r.clock.screen()[0]).toBe('   6:00  5:00   ');
    await r.clock.tap('startPause');
    r.clock.advance(4_000);
    await r.clock.tap('white');
    r.clock.advance(300_000);
    await waitFor('the flag event', () => events(r).find((e) => e.kind === ClockEvent_Kind.FLAG));
    expect(events(r)).toEqual([
      expect.objectContaining({ kind: ClockEvent_Kind.STARTED, atMs: 0, whiteMs: 360_000, blackMs: 300_000 }),
      expect.objectContaining({ kind: ClockEvent_Kind.MOVED, side: WireSide.WHITE, moveNumber: 1, atMs: 4_000, whiteMs: 356_000, blackMs: 300_000 }),
      expect.objectContaining({ kind: ClockEvent_Kind.FLAG, side: WireSide.BLACK, atMs: 304_000, whiteMs: 356_000, blackMs: 0 }),
    ]);
    // Result entry at the clock: both levers confirm; the host gets RESULT_ENTERED.
    await r.clock.tap('ok');
    await r.clock.tap('plus'); // nothing is preselected after a flag (FIDE Laws 6.9): White's win
    await r.clock.tap('ok');
    await r.clock.tap('white');
    await r.clock.tap('black');
    const result = await waitFor('the result', () => events(r).find((e) => e.kind === ClockEvent_Kind.RESULT_ENTERED));
    // Both players confirmed it with their levers: not the arbiter's override.
    expect(result).toMatchObject({ result: WireResult.WHITE_WINS, atMs: 304_000, byArbiter: false });
  });

  it('host commands become statechart inputs; what the clock refuses is answered with a Nack (docs/architecture.md rule 10)', async () => {
    const r = await rig();
    await r.clock.tap('startPause');
    r.clock.advance(10_000);
    // An illegal move by White, penalised from the host: Black +2 min (FIDE Laws 7.5.5, standard).
    await r.host.send({ case: 'command', value: { kind: Command_Kind.PENALTY, side: WireSide.WHITE } });
    const adj = await waitFor('adjusted', () => events(r).find((e) => e.kind === ClockEvent_Kind.ADJUSTED));
    expect(adj).toMatchObject({ side: WireSide.BLACK, adjustMs: 120_000, penalty: true, atMs: 10_000, blackMs: 5_550_000 });
    expect(r.clock.screen()[0]).toBe('1:30:20* 1:32:30');
    const nacks = () => r.received.filter((m) => m.body.case === 'nack').map((m) => m.body.value as { code: number; reason: string });
    // FIDE Laws 6.10.2: a move counter is corrected with the clock stopped: refused while it runs.
    await r.host.send({ case: 'command', value: { kind: Command_Kind.SET_MOVES, side: WireSide.BLACK, moves: 3 } });
    await waitFor('nack of set moves', () => nacks().length === 1);
    expect(nacks()[0]).toMatchObject({ code: Nack_Code.NOT_NOW, reason: expect.stringContaining('pause the clock') });
    // RESUME while running does nothing in the statechart: the host hears why.
    await r.host.send({ case: 'command', value: { kind: Command_Kind.RESUME } });
    await waitFor('nack of resume', () => nacks().length === 2);
    expect(nacks()[1]).toMatchObject({ code: Nack_Code.NOT_NOW });
    // A new game is refused while the clock runs, and the game is kept.
    await r.host.send({ case: 'configure', value: { gameId: 'g2', ...timeControlToProto(presetTimeControl('rapid')) } });
    await waitFor('third nack', () => nacks().length === 3);
    expect(nacks()[2].reason).toContain('pause it before a new game');
    // Paused, the correction goes through; the host hears the new count.
    await r.host.send({ case: 'command', value: { kind: Command_Kind.PAUSE } });
    await r.host.send({ case: 'command', value: { kind: Command_Kind.SET_MOVES, side: WireSide.BLACK, moves: 3 } });
    const set = await waitFor('moves set', () => events(r).find((e) => e.kind === ClockEvent_Kind.MOVES_SET));
    expect(set).toMatchObject({ side: WireSide.BLACK, moveNumber: 3, period: 0, atMs: 10_000 });
    expect(r.clock.firmware.state().timeControl).toEqual(presetTimeControl('classical'));
  });

  it('answers time sync from the same time base that stamps its events (the host can map at_ms)', async () => {
    const r = await rig({ time: new SimulatedTime(5_000_000) });
    const sample = await r.host.syncOnce();
    expect(sample).not.toBeNull();
    // The clock stamps t2/t3 with its own (here simulated) time: 5 000 000 ms.
    const est = r.host.timeSync!.estimate()!;
    const hostNow = systemTime.now();
    expect(Math.abs(est.offsetMs - (5_000_000 - hostNow))).toBeLessThan(250);
  });

  it('events not acknowledged survive a restart of the clock process (outbox on disk)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-outbox-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // First process: a host that never answers (the far end of the pair is not read).
    const first = await VirtualClock.boot({ timeControl: presetTimeControl('rapid') });
    const deaf = createLossyPair({ seed: 2, time: systemTime, immediate: true });
    const lost = linkClockToHost(first.firmware, deaf.a, {
      serialId: 'sim-board-2',
      timers: realTimebase,
      statusIntervalMs: 0,
      outboxStore: new FileOutboxStore(join(dir, 'outbox.json')),
    });
    await first.tap('startPause');
    first.advance(7_000);
    await first.tap('white');
    lost.close('power cut');
    first.stop();
    // Second process, same outbox file, a host that listens.
    const second = await rig({ outboxDir: dir, time: new SimulatedTime(0) });
    const got = await waitFor('the old events', () => {
      const e = events(second);
      return e.length >= 2 && e;
    });
    expect(got.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: ClockEvent_Kind.STARTED, atMs: 0 }),
      expect.objectContaining({ kind: ClockEvent_Kind.MOVED, side: WireSide.WHITE, moveNumber: 1, atMs: 7_000, whiteMs: 913_000 }),
    ]);
  });
});

const skip = ptySkipReason();
describe.skipIf(skip !== null)(`the clock over a real pty pair (socat + serialport) ${skip ?? ''}`, () => {
  it('a game’s events cross the pty to a host opened with openSerialLink at 115200 baud', async () => {
    const pty: PtyPair = await openPtyPair();
    cleanups.push(() => pty.close());
    const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid') });
    cleanups.push(() => clock.stop());
    const port = new SerialPort({ path: pty.a, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    cleanups.push(() => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())));
    const clockLink = linkClockToHost(clock.firmware, port, { serialId: 'pty-board', timers: realTimebase, statusIntervalMs: 0 });
    cleanups.push(() => clockLink.close());
    const host = await openSerialLink(pty.b, { role: 'host', autoSync: false });
    cleanups.push(() => host.close());
    const received: ReceivedMessage[] = [];
    host.link.on('message', (m: ReceivedMessage) => received.push(m));
    await host.link.ready;
    expect(host.link.peerHello?.serialId).toBe('pty-board');
    await clock.tap('startPause');
    for (let i = 1; i <= 5; i++) {
      clock.advance(3_000);
      await clock.tap('white');
      clock.advance(2_000);
      await clock.tap('black');
    }
    const moved = await waitFor('ten moves', () => {
      const m = received.filter((x) => x.body.case === 'clockEvent' && (x.body.value as { kind: number }).kind === ClockEvent_Kind.MOVED);
      return m.length === 10 && m;
    });
    expect(moved.map((m) => (m.body.value as { atMs: number }).atMs)).toEqual([3_000, 5_000, 8_000, 10_000, 13_000, 15_000, 18_000, 20_000, 23_000, 25_000]);
    expect(moved.at(-1)!.body.value).toMatchObject({
      side: WireSide.BLACK,
      moveNumber: 5,
      whiteMs: 910_000 - 15_000 + 50_000,
      blackMs: 910_000 - 10_000 + 50_000,
    });
  });
});

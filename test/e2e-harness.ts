// Shared pieces of the host end-to-end tests: simulated clocks (the unchanged firmware on
// virtual boards) that can be plugged into a Host over an in-memory line or a real pty,
// unplugged, and plugged back — keeping their persisted outbox and boot, as a real clock
// does when its USB cable is pulled.
//
// Time: every clock and the host share ONE SimulatedTime as their monotonic base, so a
// seven-hour round takes seconds and the host's time sync sees exactly the clocks' time
// (offset 0): journaled UTC = START_UTC + simulated ms. Timers of the links (retransmit,
// acks, sync, backoff) run on real time: bytes travel in real time, even over an in-memory line.
import { SerialPort } from 'serialport';
import { Duplex } from 'node:stream';
import { systemTime, createLossyPair, MemoryOutboxStore, openPtyPair, type PtyPair, type TimeSource } from '../protocol/session-api.ts';
import type { TimeControl } from '../protocol/time-control.ts';
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { AnchoredClock } from '../host/utc.ts';
import type { Line } from '../host/bridge/clock-session.ts';
import { RESULTS, type GameResult } from '../firmware-ts/menu.machine.ts';

/** The simulated time line of a test and the host clock on it. */
export function simulatedHall(startUtcMs: number): { sim: SimulatedTime; hostClock: AnchoredClock } {
  const sim = new SimulatedTime(0);
  const base: TimeSource = { now: () => sim.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer };
  return { sim, hostClock: new AnchoredClock(base, { hostMs: 0, utcMs: startUtcMs }) };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` (real time) until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** One simulated clock with its cable. */
export class SimClock {
  readonly outbox = new MemoryOutboxStore();
  clockLink: ClockLink | null = null;
  /** False while the cable is out: the host's line cannot be opened. */
  plugged = true;
  private ptyPort: SerialPort | null = null;

  private constructor(
    readonly serialId: string,
    readonly clock: VirtualClock,
    readonly bootId: number,
  ) {}

  static async boot(serialId: string, sim: SimulatedTime, timeControl: TimeControl, bootId = 0x1000 + Number(serialId.replace(/\D/g, '') || 1)): Promise<SimClock> {
    const clock = await VirtualClock.boot({ timeControl, time: sim, snapshots: memorySnapshotStore() });
    return new SimClock(serialId, clock, bootId);
  }

  /** Connects the firmware's link to one end of a line. Same boot, same persisted outbox. */
  connect(duplex: Duplex): ClockLink {
    this.clockLink?.close('re-linked');
    this.clockLink = linkClockToHost(this.clock.firmware, duplex, {
      serialId: this.serialId,
      bootId: this.bootId,
      outboxStore: this.outbox,
      timers: systemTime,
      statusIntervalMs: 200,
    });
    return this.clockLink;
  }

  /** For Host.addLine: a new in-memory line each time the host opens it. */
  memoryLine(): () => Promise<Line> {
    return async () => {
      if (!this.plugged) throw new Error(`${this.serialId}: no such device (unplugged)`);
      const { a, b } = createLossyPair({ seed: 1, time: systemTime, immediate: true });
      this.connect(b);
      return {
        duplex: a,
        close: () => {
          a.destroy();
          b.destroy();
        },
      };
    };
  }

  /** Pulls the in-memory cable: the clock's line ends; the host's line closes with it. */
  unplugMemory(): void {
    this.plugged = false;
    const l = this.clockLink;
    this.clockLink = null;
    l?.close('cable pulled');
  }

  /** Opens the clock's end of a pty pair with serialport. */
  async connectPty(path: string): Promise<void> {
    const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
    this.ptyPort = port;
    this.connect(port);
  }

  async closePty(): Promise<void> {
    const port = this.ptyPort;
    this.ptyPort = null;
    this.clockLink?.close('pty closed');
    this.clockLink = null;
    if (port?.isOpen) await new Promise<void>((r) => port.close(() => r()));
  }

  async press(side: 'white' | 'black'): Promise<void> {
    await this.clock.tap(side);
  }

  /** The players stop the clock, key in the result and both confirm it with their levers. */
  async enterResult(result: GameResult): Promise<void> {
    const c = this.clock;
    if (c.firmware.reading().status === 'running') await c.tap('startPause');
    await c.tap('ok');
    const from = RESULTS.indexOf(c.firmware.menu.getSnapshot().context.result.choice);
    const to = RESULTS.indexOf(result);
    for (let i = from; i < to; i++) await c.tap('plus');
    for (let i = from; i > to; i--) await c.tap('minus');
    await c.tap('ok');
    await c.tap('white');
    await c.tap('black');
  }

  stop(): void {
    this.clockLink?.close('test over');
    this.clock.stop();
  }
}

/**
 * Plays `moves` moves per side on a configured clock: the arbiter starts it, each side
 * thinks `thinkMs` (simulated) and presses. Returns the presses made, in order.
 */
export async function playMoves(c: SimClock, sim: SimulatedTime, moves: number, thinkMs: number, opts: { onPress?: (n: number) => Promise<void> | void } = {}): Promise<number> {
  await c.clock.tap('startPause');
  let presses = 0;
  for (let m = 1; m <= moves; m++) {
    for (const side of ['white', 'black'] as const) {
      sim.advanceBy(thinkMs);
      await c.press(side);
      presses++;
      await opts.onPress?.(presses);
    }
  }
  return presses;
}

/** A pty pair whose clock end is also reachable by a stable symlink (like /dev/serial/by-id/...). */
export async function ptyPair(): Promise<PtyPair> {
  return openPtyPair();
}

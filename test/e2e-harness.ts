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
import { mulberry32 } from '../protocol/prng.ts';
import { join } from 'node:path';
import { systemTime, FileOutboxStore, MemoryOutboxStore, openPtyPair, type OutboxStore, type PtyPair, type TimeSource } from '../protocol/session-api.ts';
import type { TimeControl } from '../protocol/time-control.ts';
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { fileSnapshotStore, memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { ClockCable } from '../simulator/clock-cable.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import type { Line } from '../host/clocks/clock-session.ts';
import type { ClockResult } from '../rules/vocabulary.ts';
import { chooseResult } from '../simulator/player-script.ts';

/** The simulated time line of a test and the host clock on it. */
export function simulatedHall(startUtcMs: number): { sim: SimulatedTime; hostClock: AnchoredClock } {
  const sim = new SimulatedTime(0);
  const base: TimeSource = { now: () => sim.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer };
  return { sim, hostClock: new AnchoredClock(base, { hostMs: 0, utcMs: startUtcMs }) };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` (real time) until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000, tick?: () => void): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    tick?.();
    await sleep(5);
  }
}

/**
 * Lets simulated time flow while a test waits: the clock's link times its retransmissions
 * on the clock's own time base (its `now()`), which only moves when the test moves it.
 */
export const flowing =
  (sim: SimulatedTime, msPerTick = 20) =>
  () =>
    sim.advanceBy(msPerTick);

/**
 * The clock's end of its cable (simulator/clock-cable.ts), with a frame-level fault model
 * for the fault tests: a whole frame gets one byte flipped, or noise arrives before it.
 */
export class Cable extends ClockCable {
  /** Probability that a frame the clock sends gets one byte flipped (0 = clean line). */
  corruptProbability = 0;
  /** Probability of a burst of noise on the line before a frame. */
  garbageProbability = 0;
  /** Seeded: a failure replays exactly. (Not "every nth frame": that locks onto periodic traffic.) */
  private readonly frameRng = mulberry32(1055);
  framesOut = 0;
  corrupted = 0;

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const peer = this.peer;
    if (peer && !peer.destroyed) {
      this.framesOut++;
      if (this.frameRng() < this.garbageProbability) peer.write(Buffer.from([0x13, 0x37, 0xc0, 0x42, 0xdb, 0x99, 0xc0]));
      let out = chunk;
      if (this.frameRng() < this.corruptProbability && chunk.length > 4) {
        out = Buffer.from(chunk);
        out[Math.floor(out.length / 2)] ^= 0x5a;
        this.corrupted++;
      }
      peer.write(out);
    }
    cb();
  }
}

/** One simulated clock with its cable. */
export interface SimClockOptions {
  /** Where the clock keeps its state and outbox (`chessclock sim --state-dir`): survives a power cut. Default: memory. */
  readonly stateDir?: string;
  readonly bootId?: number;
  /** The protocol version the clock's firmware announces (default: this code's). */
  readonly protocolVersion?: { major: number; minor: number };
  /** Refused by the host: greet again after these waits (default the firmware's, 5 s doubling to 30 s, real time). */
  readonly greetAgainAfterRefusal?: { readonly initialMs: number; readonly maxMs: number };
}

export class SimClock {
  readonly outbox: OutboxStore;
  readonly cable: Cable;
  readonly clockLink: ClockLink;
  private ptyPort: SerialPort | null = null;

  private constructor(
    readonly serialId: string,
    readonly clock: VirtualClock,
    readonly bootId: number,
    outbox: OutboxStore,
    protocolVersion?: { major: number; minor: number },
    greetAgainAfterRefusal?: SimClockOptions['greetAgainAfterRefusal'],
  ) {
    this.outbox = outbox;
    this.cable = new Cable(serialId);
    this.clockLink = linkClockToHost(clock.firmware, this.cable, {
      serialId,
      bootId,
      outboxStore: this.outbox,
      timers: systemTime,
      statusIntervalMs: 200,
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(greetAgainAfterRefusal ? { greetAgainAfterRefusal } : {}),
    });
  }

  static async boot(serialId: string, sim: SimulatedTime, timeControl: TimeControl, opts: SimClockOptions = {}): Promise<SimClock> {
    const bootId = opts.bootId ?? 0x1000 + Number(serialId.replace(/\D/g, '') || 1);
    const snapshots = opts.stateDir ? fileSnapshotStore(opts.stateDir) : memorySnapshotStore();
    const outbox = opts.stateDir ? new FileOutboxStore(join(opts.stateDir, 'outbox.json')) : new MemoryOutboxStore();
    const clock = await VirtualClock.boot({ timeControl, time: sim, snapshots });
    return new SimClock(serialId, clock, bootId, outbox, opts.protocolVersion, opts.greetAgainAfterRefusal);
  }

  /** False while the cable is out: the host's line cannot be opened. */
  get plugged(): boolean {
    return this.cable.plugged;
  }

  /** For Host.addLine: a new in-memory line each time the host opens it (while plugged). */
  memoryLine(): () => Promise<Line> {
    return this.cable.memoryLine();
  }

  /** Pulls the in-memory cable: the host's line ends; the clock keeps time and its outbox. */
  unplugMemory(): void {
    this.cable.unplug();
  }

  plugMemory(): void {
    this.cable.plug();
  }

  /** Opens the clock's end of a pty pair with serialport and puts it on the cable. */
  async connectPty(path: string): Promise<void> {
    const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
    this.ptyPort = port;
    this.cable.attach(port);
  }

  async closePty(): Promise<void> {
    const port = this.ptyPort;
    this.ptyPort = null;
    this.cable.detach();
    if (port?.isOpen) await new Promise<void>((r) => port.close(() => r()));
  }

  async press(side: 'white' | 'black'): Promise<void> {
    await this.clock.tap(side);
  }

  /** The players stop the clock, key in the result and both confirm it with their levers. */
  async enterResult(result: ClockResult): Promise<void> {
    const c = this.clock;
    if (c.firmware.reading().status === 'running') await c.tap('startPause');
    await c.tap('ok');
    await chooseResult(c, result);
    await c.tap('ok');
    await c.tap('white');
    await c.tap('black');
  }

  stop(): void {
    this.clockLink.close('test over');
    this.cable.detach();
    void this.closePty();
    this.clock.stop();
  }
}

/**
 * Plays `moves` moves per side on a configured clock: the arbiter starts it, each side
 * thinks `thinkMs` (simulated) and presses. Returns the presses made, in order.
 */
export async function playMoves(
  c: SimClock,
  sim: SimulatedTime,
  moves: number,
  thinkMs: number,
  opts: { onPress?: (n: number) => Promise<void> | void } = {},
): Promise<number> {
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

// One complete simulated chess clock: the virtual board, the unchanged firmware on it
// (through Johnny-Five), and the time base they share. Tests, the terminal clock and the
// fleet drive it like a person would: press keys, read the LCD, watch the LEDs.
//
// Time: the firmware's clock, its statechart deadlines and its repaints run on the given
// Timebase (simulated by default). Johnny-Five's button debounce (~7 ms) runs on real
// timers, so `tap()` waits (really) for the debounced edge to reach the firmware while
// simulated time stands still: the edge is stamped with the simulated instant of the press.
import type { TimeControl } from '../protocol/time-control.ts';
import { connectHardware, type Hardware } from '../firmware-ts/board.ts';
import { ClockFirmware, type ResultEntry } from '../firmware-ts/clock-firmware.ts';
import type { ClockOutput } from '../rules/clock.machine.ts';
import { parseHardwareMap, type HardwareMap } from '../firmware-ts/hardware-map.ts';
import type { ButtonName } from '../firmware-ts/menu-context.ts';
import type { SnapshotStore } from '../firmware-ts/snapshot-store.ts';
import type { ClockLink } from '../firmware-ts/host-link.ts';
import type { Timebase } from '../firmware-ts/timebase.ts';
import { SimulatedTime } from './simulated-time.ts';
import { VirtualBoard } from './virtual-board.ts';

export interface VirtualClockOptions {
  timeControl: TimeControl;
  map?: HardwareMap;
  /** Default: a SimulatedTime starting at 0. */
  time?: Timebase;
  snapshots?: SnapshotStore;
  sound?: boolean;
}

/** How long to wait (real time) for a debounced edge before calling the board broken. */
const EDGE_TIMEOUT_MS = 2000;

export class VirtualClock {
  /** Every clock output and result the firmware produced, in order. */
  readonly outputs: ClockOutput[] = [];
  readonly results: ResultEntry[] = [];
  /** The link to a host, once one is attached. */
  hostLink: ClockLink | null = null;

  private constructor(
    readonly board: VirtualBoard,
    readonly hardware: Hardware,
    readonly firmware: ClockFirmware,
    readonly time: Timebase,
  ) {
    firmware.on('output', (out: ClockOutput) => this.outputs.push(out));
    firmware.on('result', (r: ResultEntry) => this.results.push(r));
  }

  static async boot(options: VirtualClockOptions): Promise<VirtualClock> {
    const map = options.map ?? parseHardwareMap({});
    const time = options.time ?? new SimulatedTime();
    const board = new VirtualBoard({ map, now: () => time.now() });
    const hardware = await connectHardware({ io: board }, map);
    const firmware = new ClockFirmware({
      hardware,
      time,
      timeControl: options.timeControl,
      snapshots: options.snapshots,
      sound: options.sound ?? map.piezo?.enabled ?? false,
    });
    return new VirtualClock(board, hardware, firmware, time);
  }

  /** The simulated time, when the clock runs on one. */
  get simulated(): SimulatedTime | null {
    return this.time instanceof SimulatedTime ? this.time : null;
  }

  /** What the LCD shows (decoded from the I2C bytes), or the two 4-digit displays. */
  screen(): string[] {
    return this.board.screen();
  }

  /** Pushes a key and waits until the firmware has the debounced edge. */
  async down(key: ButtonName): Promise<void> {
    const seen = this.edge(key, 'down');
    this.board.press(key);
    await seen;
  }

  async up(key: ButtonName): Promise<void> {
    const seen = this.edge(key, 'up');
    this.board.release(key);
    await seen;
  }

  /** Press and release, as a finger does. */
  async tap(key: ButtonName): Promise<void> {
    await this.down(key);
    await this.up(key);
  }

  /**
   * How this clock lets `ms` of its time pass while keys are held: advance the simulated
   * time, or wait in real time. A fleet replaces it with its own scheduler, which owns the
   * shared simulated time.
   */
  sleep: (ms: number) => Promise<void> = async (ms) => {
    const sim = this.simulated;
    if (sim) sim.advanceBy(ms);
    else await new Promise((r) => setTimeout(r, ms));
  };

  /** Holds keys together for `ms` of clock time (e.g. mode+ok for arbiter mode). */
  async hold(keys: ButtonName[], ms: number): Promise<void> {
    for (const k of keys) await this.down(k);
    await this.sleep(ms);
    for (const k of keys) await this.up(k);
  }

  /** Advances simulated time (fires flags, forfeits and repaints on the way). */
  advance(ms: number): void {
    const sim = this.simulated;
    if (!sim) throw new Error('advance() needs a clock on simulated time');
    sim.advanceBy(ms);
  }

  private readonly stopHooks: Array<() => unknown> = [];

  /** Runs `fn` when the clock stops (closing its link, its port...). */
  onStop(fn: () => unknown): void {
    this.stopHooks.push(fn);
  }

  /** Stops the firmware, then whatever was attached to the clock. */
  async stop(): Promise<void> {
    this.firmware.stop();
    for (const fn of this.stopHooks.splice(0).reverse()) await fn();
  }

  private edge(key: ButtonName, edge: 'down' | 'up'): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.firmware.off('key', listener);
        reject(new Error(`the ${key} key did not report "${edge}" within ${EDGE_TIMEOUT_MS} ms`));
      }, EDGE_TIMEOUT_MS);
      const listener = (e: { key: ButtonName; edge: string }) => {
        if (e.key !== key || e.edge !== edge) return;
        clearTimeout(timer);
        this.firmware.off('key', listener);
        resolve();
      };
      this.firmware.on('key', listener);
    });
  }
}

// A fleet of simulated clocks with scripted players, on one simulated time line, for
// end-to-end and load tests (the host's tests use this programmatic API; `chessclock sim
// --clocks N` runs it from the command line).
//
// Every clock runs the unchanged firmware on its own virtual board. Simulated time moves
// only when every player is waiting for a later instant: then it jumps to the earliest
// such instant, firing the firmware's deadlines (flags, forfeits, repaints) on the way.
// Johnny-Five's 7 ms debounce runs on real time while simulated time stands still, so
// each key edge is stamped with exactly the simulated instant of the press, and a whole
// seven-hour round takes seconds. The same seed gives the same games, to the millisecond.
import type { Duplex } from 'node:stream';
import { SerialPort } from 'serialport';
import { DEFAULT_BAUD_RATE, openPtyPair, systemTime } from '../protocol/session-api.ts';
import { createLossyPair } from '../protocol/lossy-line.ts';
import { mulberry32, type Rng } from '../protocol/prng.ts';
import type { TimeControl } from '../protocol/time-control.ts';
import { parseHardwareMap, type HardwareMap } from '../firmware-ts/hardware-map.ts';
import { linkClockToHost } from '../firmware-ts/host-link.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { memorySnapshotStore, type SnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { DEFAULT_PLAYERS, playGame, type GameSummary, type PlayerModel, type ScriptContext } from './player-script.ts';
import { SimulatedTime } from './simulated-time.ts';
import { VirtualClock } from './virtual-clock.ts';

export interface FleetOptions {
  clocks: number;
  seed: number;
  /** The control of each clock's game (by index), or one for all. */
  timeControl: TimeControl | ((index: number) => TimeControl);
  players?: Partial<PlayerModel>;
  map?: HardwareMap;
  sound?: boolean;
  /**
   * Called once per clock after it booted and before play starts: the place to link it
   * to a host (e.g. `linkClockToHost(clock.firmware, duplex)`). May be async.
   */
  attach?: (clock: VirtualClock, index: number) => void | Promise<void>;
  /** Snapshot store per clock (default: in memory). */
  snapshots?: (index: number) => SnapshotStore;
}

export interface ClockReport extends GameSummary {
  index: number;
  events: number;
}

export class Fleet {
  readonly time = new SimulatedTime(0);
  readonly clocks: VirtualClock[] = [];
  private readonly waiting: Array<{ t: number; resolve: () => void }> = [];
  private active = 0;
  private stepScheduled = false;

  private constructor(private readonly options: FleetOptions) {}

  static async create(options: FleetOptions): Promise<Fleet> {
    if (!Number.isInteger(options.clocks) || options.clocks < 1) throw new Error(`clocks must be a whole number ≥ 1, got ${options.clocks}`);
    const fleet = new Fleet(options);
    const map = options.map ?? parseHardwareMap({});
    for (let i = 0; i < options.clocks; i++) {
      const timeControl = typeof options.timeControl === 'function' ? options.timeControl(i) : options.timeControl;
      const clock = await VirtualClock.boot({
        timeControl,
        map,
        time: fleet.time,
        snapshots: options.snapshots?.(i) ?? memorySnapshotStore(),
        sound: options.sound ?? false,
      });
      clock.sleep = (ms) => fleet.until(fleet.time.now() + ms);
      fleet.clocks.push(clock);
      await options.attach?.(clock, i);
    }
    return fleet;
  }

  /** Resolves when simulated time reaches `t` (at once if it already has). */
  until(t: number): Promise<void> {
    if (t <= this.time.now()) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push({ t, resolve });
      this.active--;
      this.scheduleStep();
    });
  }

  /** Plays one game on every clock; resolves with one report per clock. */
  async run(): Promise<ClockReport[]> {
    const model: PlayerModel = { ...DEFAULT_PLAYERS, ...this.options.players };
    const games = this.clocks.map((clock, index) => {
      // One stream of randomness per clock: clocks do not disturb each other's games.
      const rng: Rng = mulberry32((this.options.seed * 1_000_003 + index) >>> 0);
      const ctx: ScriptContext = { clock, rng, model, until: (t) => this.until(t) };
      this.active++;
      return playGame(ctx)
        .then((summary): ClockReport => ({ index, ...summary, events: clock.outputs.filter((o) => o.type !== 'rejected').length }))
        .finally(() => {
          this.active--;
          this.scheduleStep();
        });
    });
    return Promise.all(games);
  }

  async stop(): Promise<void> {
    await Promise.all(this.clocks.map((c) => c.stop()));
  }

  /** When every player waits, jump to the earliest instant one of them waits for. */
  private scheduleStep(): void {
    if (this.stepScheduled) return;
    this.stepScheduled = true;
    setImmediate(() => {
      this.stepScheduled = false;
      if (this.active > 0 || this.waiting.length === 0) return;
      const t = Math.min(...this.waiting.map((w) => w.t));
      this.time.advanceTo(t);
      const due = this.waiting.filter((w) => w.t <= t);
      this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => w.t > t));
      this.active += due.length;
      for (const w of due) w.resolve();
    });
  }
}

/** A host-side stream for clock `index` (the other end of its line). */
export type HostEnd = (end: Duplex, index: number) => void | Promise<void>;

/**
 * `attach` for FleetOptions: links every clock to a host over a perfect in-memory line.
 * `host` gets the host's end of each line (e.g. to run a host session on it); the link's
 * retransmission timers run on real time, the events carry the simulated clock's time.
 */
export function inMemoryHosts(host: HostEnd, opts: { statusIntervalMs?: number } = {}): NonNullable<FleetOptions['attach']> {
  return async (clock, index) => {
    const pair = createLossyPair({ seed: index + 1, time: systemTime, immediate: true });
    const link = linkClockToHost(clock.firmware, pair.a, { serialId: `sim-${index + 1}`, timers: realTimebase, statusIntervalMs: opts.statusIntervalMs ?? 0 });
    clock.hostLink = link;
    clock.onStop(() => link.close('fleet stopped'));
    await host(pair.b, index);
  };
}

/**
 * `attach` for FleetOptions: one socat pty pair per clock; the clock opens its end with
 * the real serialport package at 115 200 baud, `host` gets the other end's path (for a
 * host process: `chessclock host` reads such paths from a ports file).
 */
export function ptyHosts(
  host: (path: string, index: number) => void | Promise<void>,
  opts: { statusIntervalMs?: number } = {},
): NonNullable<FleetOptions['attach']> {
  return async (clock, index) => {
    const pty = await openPtyPair();
    const port = new SerialPort({ path: pty.a, baudRate: DEFAULT_BAUD_RATE, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    const link = linkClockToHost(clock.firmware, port, { serialId: `sim-${index + 1}`, timers: realTimebase, statusIntervalMs: opts.statusIntervalMs ?? 0 });
    clock.hostLink = link;
    clock.onStop(async () => {
      link.close('fleet stopped');
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
      await pty.close();
    });
    await host(pty.b, index);
  };
}

// One chess clock on the emulated Uno: the real StandardFirmata binary on avr8js
// (emulated-uno.ts), Johnny-Five on its serial port through firmata.js, and the unchanged
// clock firmware on top, kept across resets of the AVR by a board session
// (firmware-ts/board-session.ts). Tests, the bench and `chessclock sim --uno` drive it like
// a person: push a key's pin, read the LCD from the HD44780 model, watch the LED pins.
//
// Everything runs in real time (the firmware on the monotonic clock, the AVR locked to it):
// a key's edge reaches the firmware after the UART, firmata.js and Johnny-Five's ~7 ms
// debounce, and is stamped where it arrives (docs/architecture.md rule 2).
import { EventEmitter } from 'node:events';
import type { Side, TimeControl } from '../../protocol/time-control.ts';
import { BoardSession } from '../../firmware-ts/board-session.ts';
import { ClockFirmware, followBoardSession, type ResultEntry } from '../../firmware-ts/clock-firmware.ts';
import { parseHardwareMap, type HardwareMap } from '../../firmware-ts/hardware-map.ts';
import type { ClockLink } from '../../firmware-ts/host-link.ts';
import type { ButtonName } from '../../firmware-ts/menu-context.ts';
import { realTimebase } from '../../firmware-ts/monotonic.ts';
import type { SnapshotStore } from '../../firmware-ts/snapshot-store.ts';
import type { Timebase } from '../../firmware-ts/timebase.ts';
import type { ClockOutput } from '../../rules/clock.machine.ts';
import { EmulatedUno, type EmulatedUnoOptions, type PinEdge } from './emulated-uno.ts';

export interface UnoClockOptions {
  timeControl: TimeControl;
  map?: HardwareMap;
  snapshots?: SnapshotStore;
  sound?: boolean;
  /** Default: real time (the AVR is locked to it). */
  time?: Timebase;
  uno?: Omit<EmulatedUnoOptions, 'map'>;
  /** Bound on Johnny-Five's handshake with the emulated StandardFirmata (default 20 s). */
  timeoutMs?: number;
}

/** A key edge as it happened at the pin and as the firmware stamped it. */
export interface KeyEdge {
  readonly key: ButtonName;
  readonly edge: 'down' | 'up';
  /** The pin edge, with its AVR cycle count. */
  readonly pin: PinEdge;
  /** The firmware's stamp (monotonic ms), where the debounced edge arrived. */
  readonly at: number;
}

/** How long (real time) to wait for a key edge to reach the firmware: generous, for a loaded CI core. */
const EDGE_TIMEOUT_MS = 10_000;

export class UnoClock {
  readonly outputs: ClockOutput[] = [];
  readonly results: ResultEntry[] = [];
  /** Every key edge: the pin's cycle count and the firmware's stamp. */
  readonly keyEdges: KeyEdge[] = [];
  hostLink: ClockLink | null = null;
  /** Emits 'change' when the LCD model latched bytes, an output pin (LED) changed, or the firmware repainted. */
  readonly changes = new EventEmitter();
  private readonly stopHooks: Array<() => unknown> = [];

  private constructor(
    readonly uno: EmulatedUno,
    readonly session: BoardSession,
    readonly firmware: ClockFirmware,
  ) {
    firmware.on('output', (out: ClockOutput) => this.outputs.push(out));
    firmware.on('result', (r: ResultEntry) => this.results.push(r));
    const stopFollowing = followBoardSession(firmware, session);
    this.stopHooks.push(stopFollowing);
    uno.on('lcd', () => this.changes.emit('change'));
    uno.on('pin', () => this.changes.emit('change'));
    firmware.on('paint', () => this.changes.emit('change'));
  }

  static async boot(options: UnoClockOptions): Promise<UnoClock> {
    const map = options.map ?? parseHardwareMap({});
    const uno = new EmulatedUno({ ...options.uno, map });
    let session: BoardSession;
    try {
      session = await BoardSession.connect({ open: () => ({ io: uno.connectFirmata() }), map, timeoutMs: options.timeoutMs ?? 20_000 });
    } catch (err) {
      uno.stop();
      throw err;
    }
    const firmware = new ClockFirmware({
      hardware: session.hardware,
      time: options.time ?? realTimebase,
      timeControl: options.timeControl,
      snapshots: options.snapshots,
      sound: options.sound ?? map.piezo?.enabled ?? false,
    });
    return new UnoClock(uno, session, firmware);
  }

  /** The LCD's two rows, decoded from the I2C bytes StandardFirmata put on the TWI bus. */
  screen(): string[] {
    return this.uno.lcd.text();
  }

  /** The same shape as the virtual board's, for the terminal: LEDs read from the port pins. */
  get board(): { led(side: Side): boolean } {
    return { led: (side) => this.uno.led(side) };
  }

  /** Pushes a key's pin and waits until the firmware has the debounced edge. */
  async down(key: ButtonName): Promise<KeyEdge> {
    const seen = this.edge(key, 'down');
    const pin = this.uno.press(key);
    return this.record(key, 'down', pin, await seen);
  }

  async up(key: ButtonName): Promise<KeyEdge> {
    const seen = this.edge(key, 'up');
    const pin = this.uno.release(key);
    return this.record(key, 'up', pin, await seen);
  }

  /** Press and release, as a finger does; returns the down edge. */
  async tap(key: ButtonName): Promise<KeyEdge> {
    const down = await this.down(key);
    await this.up(key);
    return down;
  }

  /** Holds keys together for `ms` of real time (e.g. mode+ok for arbiter mode). */
  async hold(keys: ButtonName[], ms: number): Promise<void> {
    for (const k of keys) await this.down(k);
    await new Promise((r) => setTimeout(r, ms));
    for (const k of keys) await this.up(k);
  }

  /** Waits (bounded) until the LCD model shows what `test` accepts; returns the rows. */
  waitForScreen(test: (rows: string[]) => boolean, timeoutMs = 10_000, what = 'the expected LCD text'): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const rows = this.screen();
        if (!test(rows)) return false;
        clearTimeout(timer);
        this.changes.off('change', check);
        resolve(rows);
        return true;
      };
      const timer = setTimeout(() => {
        this.changes.off('change', check);
        reject(new Error(`the emulated LCD did not show ${what} within ${timeoutMs} ms; it shows ${JSON.stringify(this.screen())}`));
      }, timeoutMs);
      this.changes.on('change', check);
      check();
    });
  }

  onStop(fn: () => unknown): void {
    this.stopHooks.push(fn);
  }

  async stop(): Promise<void> {
    this.firmware.stop();
    this.session.close();
    for (const fn of this.stopHooks.splice(0).reverse()) await fn();
    this.uno.stop();
  }

  private record(key: ButtonName, edge: 'down' | 'up', pin: PinEdge, at: number): KeyEdge {
    const e: KeyEdge = { key, edge, pin, at };
    this.keyEdges.push(e);
    return e;
  }

  private edge(key: ButtonName, edge: 'down' | 'up'): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.firmware.off('key', listener);
        reject(new Error(`the ${key} key did not report "${edge}" through the emulated Uno within ${EDGE_TIMEOUT_MS} ms`));
      }, EDGE_TIMEOUT_MS);
      const listener = (e: { key: ButtonName; edge: string; at: number }) => {
        if (e.key !== key || e.edge !== edge) return;
        clearTimeout(timer);
        this.firmware.off('key', listener);
        resolve(e.at);
      };
      this.firmware.on('key', listener);
    });
  }
}

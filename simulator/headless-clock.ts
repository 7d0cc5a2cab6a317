// A clock without its Johnny-Five board, for load runs of a thousand clocks: the unchanged
// firmware adapter (firmware-ts/clock-firmware.ts — key edges stamped where they arrive,
// the menu and clock statecharts, snapshots, display repaints) on a headless Hardware
// whose keys are pressed in software and whose screen and LEDs only remember what they
// were told. What is left out is exactly Johnny-Five: its Board, Button debounce and the
// LCD's I2C bytes. VirtualClock keeps those, at a cost measured here (docs/load.md): per
// press ~1.7 ms of CPU (headless ~0.2 ms) and ~15 ms of real time (debounce); ~64 KB of
// heap per clock (headless ~15-20 KB); boot ~11 ms (headless ~0.25 ms).
import { EventEmitter } from 'node:events';
import type five from 'johnny-five';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import type { Hardware, Screen } from '../firmware-ts/board.ts';
import { ClockFirmware } from '../firmware-ts/clock-firmware.ts';
import type { ButtonName } from '../firmware-ts/menu-context.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import type { Timebase } from '../firmware-ts/timebase.ts';

class MemoryScreen implements Screen {
  readonly kind = 'lcd' as const;
  rows: readonly string[] = [];
  paint(rows: readonly string[]): void {
    this.rows = rows;
  }
}

export class HeadlessClock {
  readonly firmware: ClockFirmware;
  readonly keys = new EventEmitter();
  readonly screen = new MemoryScreen();
  readonly leds: Record<Side, boolean> = { white: false, black: false };

  constructor(timeControl: TimeControl, time: Timebase) {
    const hardware: Hardware = {
      // No Johnny-Five board: nothing in the firmware adapter reads it.
      board: null as unknown as five.Board,
      keys: this.keys,
      buttons: {} as Hardware['buttons'],
      screen: this.screen,
      setLed: (side, on) => (this.leds[side] = on),
      beep: () => undefined,
    };
    this.firmware = new ClockFirmware({ hardware, time, timeControl, snapshots: memorySnapshotStore(), sound: false });
  }

  /** Press and release a key: the edges reach the firmware at once (no debounce). */
  tap(key: ButtonName): void {
    this.keys.emit('down', key);
    this.keys.emit('up', key);
  }

  stop(): void {
    this.firmware.stop();
  }
}

// A software Arduino Uno for Johnny-Five: the unchanged firmware runs on it.
//
// It is mock-firmata's Firmata (a Johnny-Five IO plugin that does nothing) given the
// parts of a chess clock, wired as the hardware map says:
//  - buttons: `press(key)` / `release(key)` change the pin level and call the callbacks
//    Johnny-Five registered with `digitalRead` (as Firmata's digital reports would);
//    five.Button then debounces for ~7 ms of real time before it reports the edge;
//  - the LCD: I2C writes to the PCF8574 address go into an HD44780 model (hd44780.ts),
//    or writes to the HT16K33 addresses into 7-segment models (ht16k33.ts);
//  - LEDs: their last digitalWrite/analogWrite level;
//  - the piezo: five.Piezo toggles its pin at the tone's frequency; runs of toggles are
//    logged as tones, stamped with the board's `now()`.
import { EventEmitter } from 'node:events';
import { Firmata } from 'mock-firmata';
import type { Side } from '../protocol/time-control.ts';
import type { HardwareMap, PinName } from '../firmware-ts/hardware-map.ts';
import type { ButtonName } from '../firmware-ts/menu-context.ts';
import { Hd44780 } from './hd44780.ts';
import { Ht16k33Digits } from './ht16k33.ts';

/** The Uno's analog pins A0-A5 are digital pins 14-19 (mock-firmata's UNO pin table). */
export function pinNumber(pin: PinName): number {
  return typeof pin === 'number' ? pin : 14 + Number(pin.slice(1));
}

export interface ToneBurst {
  /** Board time (the `now` given to the board) of the burst's first toggle. */
  readonly at: number;
  readonly pin: number;
  toggles: number;
}

/** A gap of this long (board time) without toggles ends a tone. */
const TONE_GAP_MS = 50;

export interface VirtualBoardOptions {
  map: HardwareMap;
  /** Board time for the tone log (the same Timebase the firmware uses). */
  now?: () => number;
}

export class VirtualBoard extends Firmata {
  readonly map: HardwareMap;
  readonly lcd: Hd44780 | null;
  readonly digits: Record<Side, Ht16k33Digits> | null;
  readonly toneLog: ToneBurst[] = [];
  /** Emits 'display' after every I2C write that reached a display. */
  readonly events = new EventEmitter();
  private readonly now: () => number;
  private readonly readers = new Map<number, Array<(value: number) => void>>();
  private readonly levels = new Map<number, number>();
  private readonly buttonPins: Record<ButtonName, { pin: number; pullup: boolean }>;
  private lastToneAt = -Infinity;
  i2cWrites = 0;

  constructor(options: VirtualBoardOptions) {
    super();
    this.map = options.map;
    this.now = options.now ?? (() => 0);
    // Johnny-Five treats "Mock" (and "Firmata") as an Arduino: A0-A5 map to pins 14-19.
    this.name = 'Mock';
    this.defaultLed = 13;
    // StandardFirmata reports I2C on the Uno's SDA/SCL (A4, A5 = pins 18, 19); mock-firmata's pin table lacks it.
    for (const pin of [18, 19]) if (!this.pins[pin].supportedModes.includes(6)) this.pins[pin].supportedModes.push(6);
    const { levers, buttons, display } = options.map;
    this.buttonPins = {
      white: { pin: pinNumber(levers.white.pin), pullup: levers.white.pullup },
      black: { pin: pinNumber(levers.black.pin), pullup: levers.black.pullup },
      startPause: { pin: pinNumber(buttons.startPause.pin), pullup: buttons.startPause.pullup },
      mode: { pin: pinNumber(buttons.mode.pin), pullup: buttons.mode.pullup },
      plus: { pin: pinNumber(buttons.plus.pin), pullup: buttons.plus.pullup },
      minus: { pin: pinNumber(buttons.minus.pin), pullup: buttons.minus.pullup },
      ok: { pin: pinNumber(buttons.ok.pin), pullup: buttons.ok.pullup },
    };
    // Idle level: a pull-up button reads HIGH until pressed to ground.
    for (const { pin, pullup } of Object.values(this.buttonPins)) this.levels.set(pin, pullup ? 1 : 0);
    this.lcd = display.type === 'lcd' ? new Hd44780() : null;
    this.digits = display.type === 'digits' ? { white: new Ht16k33Digits(), black: new Ht16k33Digits() } : null;
    // IO plugin contract: "connect" then "ready", asynchronously (rwaldron/io-plugins).
    process.nextTick(() => {
      this.emit('connect');
      this.emit('ready');
    });
  }

  // ---- the IO plugin side (called by Johnny-Five) ----

  pinMode(pin: number, mode: number): void {
    if (this.pins[pin]) this.pins[pin].mode = mode;
  }

  digitalRead(pin: number, callback: (value: number) => void): void {
    const list = this.readers.get(pin) ?? [];
    list.push(callback);
    this.readers.set(pin, list);
  }

  digitalWrite(pin: number, value: number): void {
    const piezoPin = this.map.piezo ? pinNumber(this.map.piezo.pin) : -1;
    if (pin === piezoPin) this.logTone(pin);
    // A write to an input pin switches its pull-up (Firmata): it does not change the level read.
    if (this.readers.has(pin)) return;
    this.levels.set(pin, value ? 1 : 0);
  }

  analogWrite(pin: number, value: number): void {
    this.levels.set(pin, value > 0 ? 1 : 0);
  }

  i2cConfig(): void {}

  i2cWrite(address: number, registerOrBytes: number | number[], maybeBytes?: number | number[]): void {
    const asArray = (v: number | number[]) => (Array.isArray(v) ? v : [v]);
    const bytes = maybeBytes === undefined ? asArray(registerOrBytes) : [...asArray(registerOrBytes), ...asArray(maybeBytes)];
    this.i2cWrites++;
    const { display } = this.map;
    if (display.type === 'lcd' && this.lcd && address === display.address) {
      for (const b of bytes) this.lcd.writePort(b);
      this.events.emit('display');
    } else if (display.type === 'digits' && this.digits) {
      for (const side of ['white', 'black'] as const) {
        if (display.addresses[side] === address) this.digits[side].write(bytes);
      }
      this.events.emit('display');
    }
  }

  // ---- the person's / test's side ----

  /** Pushes a key down: the pin goes to its pressed level and Johnny-Five is told. */
  press(key: ButtonName): void {
    const { pin, pullup } = this.buttonPins[key];
    this.setLevel(pin, pullup ? 0 : 1);
  }

  release(key: ButtonName): void {
    const { pin, pullup } = this.buttonPins[key];
    this.setLevel(pin, pullup ? 1 : 0);
  }

  isDown(key: ButtonName): boolean {
    const { pin, pullup } = this.buttonPins[key];
    return this.levels.get(pin) === (pullup ? 0 : 1);
  }

  private setLevel(pin: number, level: number): void {
    if (this.levels.get(pin) === level) return;
    this.levels.set(pin, level);
    for (const cb of this.readers.get(pin) ?? []) cb(level);
  }

  /** The LCD's two rows, or the two 4-digit displays' texts. */
  screen(): string[] {
    if (this.lcd) return this.lcd.text();
    if (this.digits) return [this.digits.white.text(), this.digits.black.text()];
    return [];
  }

  led(side: Side): boolean {
    return this.levels.get(pinNumber(this.map.leds[side].pin)) === 1;
  }

  private logTone(pin: number): void {
    const at = this.now();
    const last = this.toneLog[this.toneLog.length - 1];
    if (!last || at - this.lastToneAt > TONE_GAP_MS || last.pin !== pin) this.toneLog.push({ at, pin, toggles: 1 });
    else last.toggles++;
    this.lastToneAt = at;
  }
}

// The Johnny-Five side of the clock: builds the components the hardware map names on a
// board, and nothing else. No rule lives here: buttons report edges, the screen paints
// text it is given, LEDs and piezo do what they are told (docs/architecture.md rule 4).
//
// The board is either a Johnny-Five IO plugin instance (`io`: the simulator's virtual
// board, mock-firmata in tests) or a serial port running StandardFirmata (`port`).
import { EventEmitter } from 'node:events';
import five from 'johnny-five';
import type { Side } from '../protocol/time-control.ts';
import { checkCapabilities, MENU_KEYS, type ButtonWiring, type HardwareMap, type PinCapability } from './hardware-map.ts';
import type { ButtonName } from './menu-context.ts';
import { LCD_COLS } from '../rules/display-format.ts';

/** Where the screen's text goes: the 16×2 LCD, or two 4-digit displays. */
export interface Screen {
  readonly kind: 'lcd' | 'digits';
  /** Shows these rows; only what changed since the last call is written. */
  paint(rows: readonly string[], blink?: boolean): void;
}

export interface Hardware {
  readonly board: five.Board;
  /** Emits `('down' | 'up', key)` for every debounced edge of every key. */
  readonly keys: EventEmitter;
  /** The Johnny-Five buttons, by key (for tests and the bench that listen in). */
  readonly buttons: Readonly<Record<ButtonName, five.Button>>;
  readonly screen: Screen;
  setLed(side: Side, on: boolean): void;
  /** One beep, if a piezo is fitted. */
  beep(frequencyHz: number, durationMs: number): void;
}

export type BoardSource = { io: unknown } | { port: string };

// Johnny-Five's type declarations lack several members used here (Led.Digits#print, LCD
// cursor, Board `sigint`); this is the narrow shape the adapter relies on.
interface DigitsLike {
  print(text: string): DigitsLike;
  blink(value: 'slow' | false): DigitsLike;
}

/**
 * Connects to the board and creates the clock's components once it is ready.
 * `timeoutMs` bounds the wait for StandardFirmata's handshake on a real port.
 */
export function connectHardware(source: BoardSource, map: HardwareMap, timeoutMs = 15_000): Promise<Hardware> {
  return new Promise((resolve, reject) => {
    const options: Record<string, unknown> = { repl: false, debug: false, sigint: false, timeout: timeoutMs };
    if ('io' in source) options.io = source.io;
    else options.port = source.port;
    const board = new five.Board(options as five.BoardOption);
    board.on('error', (err: Error) => reject(err));
    board.on('ready', () => {
      try {
        // The map against what the board said it can do: the capability report a Firmata
        // board answered in the handshake (firmata.js; an IO plugin that never spoke Firmata,
        // like the tests' mock-firmata, has no report to check against).
        const io = (board as unknown as { io: { pins?: PinCapability[]; versionReceived?: boolean } }).io;
        if (io.versionReceived === true && io.pins) checkCapabilities(map, io.pins);
        resolve(createComponents(board, map));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function createComponents(board: five.Board, map: HardwareMap): Hardware {
  const keys = new EventEmitter();
  const button = (name: ButtonName, wiring: ButtonWiring) => {
    const b = new five.Button({ board, pin: wiring.pin, isPullup: wiring.pullup });
    b.on('down', () => keys.emit('down', name));
    b.on('up', () => keys.emit('up', name));
    return b;
  };
  const buttons = {
    white: button('white', map.levers.white),
    black: button('black', map.levers.black),
    ...Object.fromEntries(MENU_KEYS.map((k) => [k, button(k, map.buttons[k])])),
  } as Record<ButtonName, five.Button>;

  const leds = {
    white: new five.Led({ board, pin: map.leds.white.pin } as five.LedOption),
    black: new five.Led({ board, pin: map.leds.black.pin } as five.LedOption),
  };
  const piezo = map.piezo ? new five.Piezo({ board, pin: map.piezo.pin } as unknown as five.PiezoOption) : null;

  return {
    board,
    keys,
    buttons,
    screen: map.display.type === 'lcd' ? lcdScreen(board, map.display.controller, map.display.address) : digitsScreen(board, map.display.addresses),
    setLed: (side, on) => (on ? leds[side].on() : leds[side].off()),
    beep: (hz, ms) => {
      (piezo as unknown as { frequency(hz: number, ms: number): void } | null)?.frequency(hz, ms);
    },
  };
}

// The PCF8574 backpack's pins (five.LCD's PCF8574 register map): P0 = RS, P2 = EN,
// P3 = backlight, P4-P7 = D4-D7 of the HD44780 in 4-bit mode.
const PCF_RS = 0x01;
const PCF_EN = 0x04;
const PCF_BACKLIGHT = 0x08;
/**
 * Expander bytes per I2C write: StandardFirmata forwards one I2C_REQUEST as one Wire
 * transaction; Wire buffers 32 bytes and StandardFirmata 2.4's sysex buffer holds 64 bytes,
 * two per data byte after the address and mode. 28 = seven whole characters.
 */
export const LCD_BYTES_PER_I2C_WRITE = 28;

/**
 * The expander bytes that write `bytes` to the HD44780 (rs: data or instruction), in 4-bit
 * mode: per nibble the data with EN high, then with EN low (the HD44780 latches on EN's
 * falling edge), backlight kept on. Exactly what five.LCD sends one I2C write at a time.
 */
export function pcf8574Nibbles(bytes: readonly number[], rs: boolean): number[] {
  const out: number[] = [];
  for (const b of bytes) {
    for (const nibble of [b >> 4, b & 0x0f]) {
      const v = (nibble << 4) | PCF_BACKLIGHT | (rs ? PCF_RS : 0);
      out.push(v | PCF_EN, v);
    }
  }
  return out;
}

function lcdScreen(board: five.Board, controller: string, address: number): Screen {
  // five.LCD initialises the display (4-bit mode, display on, clear, backlight); the paints
  // below write the expander directly.
  new five.LCD({ board, controller, address, rows: 2, cols: LCD_COLS } as unknown as five.LCDI2COption);
  const io = (board as unknown as { io: { i2cWrite(address: number, bytes: number[]): void } }).io;
  // five.LCD's set-up ends with on(), which sends display control 0x0E: the underline cursor
  // on (its entry-mode bits overwrite the cursor-off bit). A clock shows no cursor: display on,
  // cursor and blink off (HD44780 "Display on/off control", 0x0C).
  io.i2cWrite(address, pcf8574Nibbles([0x0c], false));
  const shown: string[] = [' '.repeat(LCD_COLS), ' '.repeat(LCD_COLS)];
  return {
    kind: 'lcd',
    paint(rows) {
      const stream: number[] = [];
      rows.slice(0, 2).forEach((text, row) => {
        const line = text.padEnd(LCD_COLS).slice(0, LCD_COLS);
        // Write only the changed span (a running clock changes one or two characters a second).
        let first = 0;
        while (first < LCD_COLS && line[first] === shown[row][first]) first++;
        if (first === LCD_COLS) return;
        let last = LCD_COLS - 1;
        while (line[last] === shown[row][last]) last--;
        // Set DDRAM address (0x80 | address; row 2 starts at 0x40), then the characters.
        stream.push(...pcf8574Nibbles([0x80 | ((row === 0 ? 0x00 : 0x40) + first)], false));
        stream.push(
          ...pcf8574Nibbles(
            [...line.slice(first, last + 1)].map((ch) => ch.charCodeAt(0) & 0xff),
            true,
          ),
        );
        shown[row] = line;
      });
      // Over Firmata at 57,600 baud the LCD's traffic bounds the refresh. five.LCD's print()
      // sends one I2C write (7 Firmata bytes) per expander byte, 28 bytes per character; the
      // expander takes a run of bytes in one I2C transaction, each byte its new port state,
      // so one write carries seven characters: ~9 Firmata bytes per character
      // (docs/benchmarks.md "Firmware", the emulated Uno).
      for (let i = 0; i < stream.length; i += LCD_BYTES_PER_I2C_WRITE) io.i2cWrite(address, stream.slice(i, i + LCD_BYTES_PER_I2C_WRITE));
    },
  };
}

function digitsScreen(board: five.Board, addresses: Readonly<Record<Side, number>>): Screen {
  const make = (address: number) =>
    new five.Led.Digits({ board, controller: 'HT16K33', addresses: [address] } as unknown as five.Led.DigitsOption) as unknown as DigitsLike;
  const displays = { white: make(addresses.white), black: make(addresses.black) };
  const shown = { white: '', black: '', blink: false };
  return {
    kind: 'digits',
    paint(rows, blink = false) {
      (['white', 'black'] as const).forEach((side, i) => {
        const text = rows[i] ?? '';
        if (text !== shown[side]) displays[side].print(text);
        shown[side] = text;
      });
      if (blink !== shown.blink) {
        // Paused: both displays blink (the 4-digit displays have no room for a mark).
        for (const d of Object.values(displays)) d.blink(blink ? 'slow' : false);
        shown.blink = blink;
      }
    },
  };
}

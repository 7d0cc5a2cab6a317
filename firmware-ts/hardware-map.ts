// The hardware map: which pin or I2C address each part of the clock is wired to.
//
// It comes from a JSON file (`chessclock clock --config wiring.json`); every section
// that is left out falls back to the Arduino Uno wiring drawn in docs/firmware.md.
// A bad value is rejected with an error naming the field (`levers.white.pin: ...`),
// because a clock wired to the wrong pin fails silently at the board: a lever that
// never reports is indistinguishable from a player who never moves.
import type { Side } from '../protocol/time-control.ts';

/** A pin as Johnny-Five names it on an Uno: digital 2-13, or analog A0-A5 used as digital. */
export type PinName = number | `A${0 | 1 | 2 | 3 | 4 | 5}`;

/** The four menu keys plus the start/pause key (docs/firmware.md "Keys"). */
export type MenuKey = 'startPause' | 'mode' | 'plus' | 'minus' | 'ok';
export const MENU_KEYS: readonly MenuKey[] = ['startPause', 'mode', 'plus', 'minus', 'ok'];

export interface ButtonWiring {
  readonly pin: PinName;
  /** Internal pull-up on, button to ground: reads LOW while pressed (Johnny-Five inverts it). */
  readonly pullup: boolean;
}

/** A 16×2 character LCD behind a PCF8574 I2C backpack (five.LCD). */
export interface LcdWiring {
  readonly type: 'lcd';
  readonly controller: 'PCF8574' | 'PCF8574A';
  /** 7-bit I2C address: 0x27 for PCF8574 with A0-A2 high, 0x3F for PCF8574A. */
  readonly address: number;
}

/** Two 4-digit 7-segment displays behind HT16K33 backpacks (five.Led.Digits), one per side. */
export interface DigitsWiring {
  readonly type: 'digits';
  readonly controller: 'HT16K33';
  readonly addresses: Readonly<Record<Side, number>>;
}

/** An LED; `pwm: true` asks for a PWM pin (dimmed by duty cycle, e.g. for a dark hall). */
export interface LedWiring {
  readonly pin: PinName;
  readonly pwm?: boolean;
}

export interface HardwareMap {
  readonly levers: Readonly<Record<Side, ButtonWiring>>;
  readonly buttons: Readonly<Record<MenuKey, ButtonWiring>>;
  readonly display: LcdWiring | DigitsWiring;
  /** LEDs showing which clock runs: FIDE equipment standard (d), visible from 10 m. */
  readonly leds: Readonly<Record<Side, LedWiring>>;
  /** The piezo beeps once at a flag; `enabled: false` silences it (tournament halls). */
  readonly piezo: { readonly pin: PinName; readonly enabled: boolean } | null;
}

export class HardwareMapError extends Error {
  constructor(
    /** The dotted path of the bad field, e.g. `levers.white.pin`. */
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'HardwareMapError';
  }
}

/** The Arduino Uno wiring (docs/firmware.md "Wiring"). A4/A5 stay free: they are the I2C bus. */
export const UNO_DEFAULTS: HardwareMap = {
  levers: { white: { pin: 2, pullup: true }, black: { pin: 3, pullup: true } },
  buttons: {
    startPause: { pin: 4, pullup: true },
    mode: { pin: 5, pullup: true },
    plus: { pin: 6, pullup: true },
    minus: { pin: 7, pullup: true },
    ok: { pin: 8, pullup: true },
  },
  display: { type: 'lcd', controller: 'PCF8574', address: 0x27 },
  leds: { white: { pin: 9 }, black: { pin: 10 } },
  piezo: { pin: 11, enabled: true },
};

const PIN_RULE = 'must be a digital pin 2-13 or A0-A5';
// On the Uno the I2C bus is wired to A4 (SDA) and A5 (SCL); every display option is I2C.
const I2C_PINS: Record<string, string> = { A4: 'the I2C data line (SDA)', A5: 'the I2C clock line (SCL)' };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown, field: string): Json {
  if (!isObject(value)) throw new HardwareMapError(field, `must be an object, got ${JSON.stringify(value)}`);
  return value;
}

function onlyKeys(obj: Json, field: string, known: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) {
      const where = field === '' ? key : `${field}.${key}`;
      throw new HardwareMapError(where, `unknown field (known: ${known.join(', ')})`);
    }
  }
}

export function parsePin(value: unknown, field: string): PinName {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 2 && value <= 13) return value;
  if (typeof value === 'string' && /^A[0-5]$/.test(value)) {
    if (I2C_PINS[value]) throw new HardwareMapError(field, `${value} is ${I2C_PINS[value]} used by the display`);
    return value as PinName;
  }
  throw new HardwareMapError(field, `${PIN_RULE}, got ${JSON.stringify(value)}`);
}

function parseButton(value: unknown, field: string, fallback: ButtonWiring): ButtonWiring {
  if (value === undefined) return fallback;
  // Shorthand: a bare pin means a pull-up button on that pin.
  if (typeof value === 'number' || typeof value === 'string') return { pin: parsePin(value, field), pullup: true };
  const obj = objectAt(value, field);
  onlyKeys(obj, field, ['pin', 'pullup']);
  const pullup = obj.pullup === undefined ? true : obj.pullup;
  if (typeof pullup !== 'boolean') throw new HardwareMapError(`${field}.pullup`, `must be true or false, got ${JSON.stringify(pullup)}`);
  return { pin: parsePin(obj.pin, `${field}.pin`), pullup };
}

function parseAddress(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;
    throw new HardwareMapError(field, `must be an I2C address ${hex(min)}-${hex(max)} (${min}-${max}), got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseDisplay(value: unknown): LcdWiring | DigitsWiring {
  if (value === undefined) return UNO_DEFAULTS.display;
  const obj = objectAt(value, 'display');
  if (obj.type === 'lcd') {
    onlyKeys(obj, 'display', ['type', 'controller', 'address']);
    const controller = obj.controller ?? 'PCF8574';
    if (controller !== 'PCF8574' && controller !== 'PCF8574A') {
      throw new HardwareMapError('display.controller', `must be "PCF8574" or "PCF8574A" for an LCD, got ${JSON.stringify(controller)}`);
    }
    // PCF8574 answers at 0x20-0x27, PCF8574A at 0x38-0x3F (address pins A0-A2).
    const [min, max, fallback] = controller === 'PCF8574' ? [0x20, 0x27, 0x27] : [0x38, 0x3f, 0x3f];
    const address = obj.address === undefined ? fallback : parseAddress(obj.address, 'display.address', min, max);
    return { type: 'lcd', controller, address };
  }
  if (obj.type === 'digits') {
    onlyKeys(obj, 'display', ['type', 'controller', 'addresses']);
    const controller = obj.controller ?? 'HT16K33';
    if (controller !== 'HT16K33') {
      throw new HardwareMapError('display.controller', `must be "HT16K33" for digits, got ${JSON.stringify(controller)}`);
    }
    const raw = obj.addresses === undefined ? { white: 0x70, black: 0x71 } : objectAt(obj.addresses, 'display.addresses');
    onlyKeys(raw, 'display.addresses', ['white', 'black']);
    // HT16K33 backpacks answer at 0x70-0x77.
    const white = parseAddress(raw.white, 'display.addresses.white', 0x70, 0x77);
    const black = parseAddress(raw.black, 'display.addresses.black', 0x70, 0x77);
    if (white === black) throw new HardwareMapError('display.addresses.black', `is the same address as display.addresses.white (${white})`);
    return { type: 'digits', controller, addresses: { white, black } };
  }
  throw new HardwareMapError('display.type', `must be "lcd" or "digits", got ${JSON.stringify(obj.type)}`);
}

/**
 * Checks a parsed JSON hardware map and fills in the Uno defaults for what it leaves out.
 * Throws HardwareMapError naming the first bad field.
 */
export function parseHardwareMap(value: unknown): HardwareMap {
  const root = value === undefined ? {} : objectAt(value, '(root)');
  onlyKeys(root, '', ['levers', 'buttons', 'display', 'leds', 'piezo', '$comment']);

  const leversJson = root.levers === undefined ? {} : objectAt(root.levers, 'levers');
  onlyKeys(leversJson, 'levers', ['white', 'black']);
  const levers = {
    white: parseButton(leversJson.white, 'levers.white', UNO_DEFAULTS.levers.white),
    black: parseButton(leversJson.black, 'levers.black', UNO_DEFAULTS.levers.black),
  };

  const buttonsJson = root.buttons === undefined ? {} : objectAt(root.buttons, 'buttons');
  onlyKeys(buttonsJson, 'buttons', MENU_KEYS);
  const buttons = Object.fromEntries(MENU_KEYS.map((key) => [key, parseButton(buttonsJson[key], `buttons.${key}`, UNO_DEFAULTS.buttons[key])])) as Record<
    MenuKey,
    ButtonWiring
  >;

  const ledsJson = root.leds === undefined ? {} : objectAt(root.leds, 'leds');
  onlyKeys(ledsJson, 'leds', ['white', 'black']);
  const led = (side: Side) => {
    const raw = ledsJson[side];
    if (raw === undefined) return UNO_DEFAULTS.leds[side];
    if (isObject(raw)) {
      onlyKeys(raw, `leds.${side}`, ['pin', 'pwm']);
      const pin = parsePin(raw.pin, `leds.${side}.pin`);
      if (raw.pwm === undefined) return { pin };
      if (typeof raw.pwm !== 'boolean') throw new HardwareMapError(`leds.${side}.pwm`, `must be true or false, got ${JSON.stringify(raw.pwm)}`);
      return { pin, pwm: raw.pwm };
    }
    return { pin: parsePin(raw, `leds.${side}`) };
  };
  const leds = { white: led('white'), black: led('black') };

  let piezo: HardwareMap['piezo'] = UNO_DEFAULTS.piezo;
  if (root.piezo === null) piezo = null;
  else if (root.piezo !== undefined) {
    const raw = objectAt(root.piezo, 'piezo');
    onlyKeys(raw, 'piezo', ['pin', 'enabled']);
    const enabled = raw.enabled === undefined ? true : raw.enabled;
    if (typeof enabled !== 'boolean') throw new HardwareMapError('piezo.enabled', `must be true or false, got ${JSON.stringify(enabled)}`);
    piezo = { pin: parsePin(raw.pin, 'piezo.pin'), enabled };
  }

  const map: HardwareMap = { levers, buttons, display: parseDisplay(root.display), leds, piezo };
  checkNoSharedPins(map);
  return map;
}

/** Every pin named in the map with the field that names it, in a stable order. */
export function pinUses(map: HardwareMap): Array<{ field: string; pin: PinName }> {
  const uses: Array<{ field: string; pin: PinName }> = [];
  for (const side of ['white', 'black'] as const) uses.push({ field: `levers.${side}.pin`, pin: map.levers[side].pin });
  for (const key of MENU_KEYS) uses.push({ field: `buttons.${key}.pin`, pin: map.buttons[key].pin });
  for (const side of ['white', 'black'] as const) uses.push({ field: `leds.${side}.pin`, pin: map.leds[side].pin });
  if (map.piezo) uses.push({ field: 'piezo.pin', pin: map.piezo.pin });
  return uses;
}

function checkNoSharedPins(map: HardwareMap): void {
  const seen = new Map<string, string>();
  for (const { field, pin } of pinUses(map)) {
    const key = String(pin);
    const first = seen.get(key);
    if (first) throw new HardwareMapError(field, `pin ${key} is already used by ${first.replace(/\.pin$/, '')}`);
    seen.set(key, field);
  }
}

/** Reads and checks a wiring file; errors name the file and the field. */
export async function loadHardwareMapFile(path: string): Promise<HardwareMap> {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HardwareMapError(path, `not valid JSON (${(err as Error).message})`);
  }
  try {
    return parseHardwareMap(json);
  } catch (err) {
    if (err instanceof HardwareMapError) throw new HardwareMapError(`${path}: ${err.field}`, err.message.slice(err.field.length + 2));
    throw err;
  }
}

// ---- the map against the board's Firmata capability report ----

/** Firmata pin modes (Firmata protocol 2.x, "Pin modes"), as the capability report numbers them. */
export const FIRMATA_MODES = { INPUT: 0, OUTPUT: 1, ANALOG: 2, PWM: 3, SERVO: 4, I2C: 6, PULLUP: 11 } as const;
export type FirmataModeName = keyof typeof FIRMATA_MODES;

/** A pin number as Firmata counts it on an Uno: A0-A5 are 14-19. */
export function firmataPin(pin: PinName): number {
  return typeof pin === 'number' ? pin : 14 + Number(pin.slice(1));
}

/**
 * The Firmata mode each pin of the map is used in, with the field that asks for it. Keys are
 * INPUT (StandardFirmata 2.4 has no PULLUP mode: the pull-up is switched on by writing HIGH to
 * the input, as Johnny-Five does); LEDs OUTPUT, or PWM when the map asks for it; the piezo
 * OUTPUT (five.Piezo toggles it); an I2C display needs I2C on the Uno's SDA/SCL (A4, A5).
 */
export function pinModes(map: HardwareMap): Array<{ field: string; pin: number; mode: FirmataModeName }> {
  const uses: Array<{ field: string; pin: number; mode: FirmataModeName }> = [];
  for (const side of ['white', 'black'] as const) uses.push({ field: `levers.${side}.pin`, pin: firmataPin(map.levers[side].pin), mode: 'INPUT' });
  for (const key of MENU_KEYS) uses.push({ field: `buttons.${key}.pin`, pin: firmataPin(map.buttons[key].pin), mode: 'INPUT' });
  for (const side of ['white', 'black'] as const) {
    const led = map.leds[side];
    uses.push({ field: `leds.${side}.pin`, pin: firmataPin(led.pin), mode: led.pwm ? 'PWM' : 'OUTPUT' });
  }
  if (map.piezo) uses.push({ field: 'piezo.pin', pin: firmataPin(map.piezo.pin), mode: 'OUTPUT' });
  uses.push({ field: 'display', pin: firmataPin('A4'), mode: 'I2C' }, { field: 'display', pin: firmataPin('A5'), mode: 'I2C' });
  return uses;
}

/** One pin of Firmata's capability report: the modes it supports (firmata.js `io.pins[n].supportedModes`). */
export interface PinCapability {
  readonly supportedModes: readonly number[];
}

/**
 * Checks the map against the board's capability report (Firmata CAPABILITY_RESPONSE): every
 * pin the map uses must support the mode it is used in. Throws HardwareMapError naming the
 * field, the pin, the mode and the modes the pin has, before any component is created: a
 * clock whose LED pin cannot do PWM would otherwise stay dark without a word.
 */
export function checkCapabilities(map: HardwareMap, pins: readonly PinCapability[]): void {
  const names = Object.fromEntries(Object.entries(FIRMATA_MODES).map(([k, v]) => [v, k])) as Record<number, string>;
  for (const { field, pin, mode } of pinModes(map)) {
    const supported = pins[pin]?.supportedModes ?? [];
    if (supported.includes(FIRMATA_MODES[mode])) continue;
    const has = supported.length === 0 ? 'none' : supported.map((m) => names[m] ?? `mode ${m}`).join(', ');
    const shown = pin >= 14 ? `A${pin - 14} (pin ${pin})` : `pin ${pin}`;
    throw new HardwareMapError(field, `${shown} does not support ${mode} on this board (its modes: ${has})`);
  }
}

import { describe, expect, it } from 'vitest';
import { checkCapabilities, FIRMATA_MODES, HardwareMapError, parseHardwareMap, pinModes, UNO_DEFAULTS } from './hardware-map.ts';

function errorOf(value: unknown): HardwareMapError {
  try {
    parseHardwareMap(value);
  } catch (e) {
    if (e instanceof HardwareMapError) return e;
    throw e;
  }
  throw new Error('expected a HardwareMapError');
}

describe('hardware map (docs/firmware.md "Wiring")', () => {
  it('an empty file gives the Arduino Uno wiring', () => {
    expect(parseHardwareMap({})).toEqual(UNO_DEFAULTS);
    expect(parseHardwareMap(undefined)).toEqual(UNO_DEFAULTS);
  });

  it('overrides only the sections given, with the bare-pin shorthand for pull-up buttons', () => {
    const map = parseHardwareMap({ levers: { white: 12 }, buttons: { ok: { pin: 'A0', pullup: false } } });
    expect(map.levers.white).toEqual({ pin: 12, pullup: true });
    expect(map.levers.black).toEqual(UNO_DEFAULTS.levers.black);
    expect(map.buttons.ok).toEqual({ pin: 'A0', pullup: false });
    expect(map.display).toEqual(UNO_DEFAULTS.display);
  });

  it('accepts two HT16K33 4-digit displays', () => {
    const map = parseHardwareMap({ display: { type: 'digits', addresses: { white: 0x70, black: 0x72 } } });
    expect(map.display).toEqual({ type: 'digits', controller: 'HT16K33', addresses: { white: 0x70, black: 0x72 } });
  });

  it('piezo null means no piezo fitted', () => {
    expect(parseHardwareMap({ piezo: null }).piezo).toBeNull();
    expect(parseHardwareMap({ piezo: { pin: 13, enabled: false } }).piezo).toEqual({ pin: 13, enabled: false });
  });

  it.each([
    [{ levers: { white: { pin: 1 } } }, 'levers.white.pin', 'must be a digital pin 2-13 or A0-A5, got 1'],
    [{ levers: { white: { pin: 'D7' } } }, 'levers.white.pin', 'must be a digital pin 2-13 or A0-A5, got "D7"'],
    [{ buttons: { ok: 'A4' } }, 'buttons.ok', 'A4 is the I2C data line (SDA) used by the display'],
    [{ buttons: { plus: { pin: 6, pullup: 'yes' } } }, 'buttons.plus.pullup', 'must be true or false, got "yes"'],
    [{ buttons: { menu: 6 } }, 'buttons.menu', 'unknown field'],
    [{ leds: { white: 2 } }, 'leds.white.pin', 'pin 2 is already used by levers.white'],
    [{ display: { type: 'oled' } }, 'display.type', 'must be "lcd" or "digits", got "oled"'],
    [{ display: { type: 'lcd', address: 0x3f } }, 'display.address', 'must be an I2C address 0x20-0x27'],
    [{ display: { type: 'lcd', controller: 'PCF8574A', address: 0x27 } }, 'display.address', 'must be an I2C address 0x38-0x3F'],
    [{ display: { type: 'digits', addresses: { white: 0x70, black: 0x70 } } }, 'display.addresses.black', 'is the same address'],
    [{ piezo: { pin: 11, enabled: 1 } }, 'piezo.enabled', 'must be true or false'],
    [{ levers: [] }, 'levers', 'must be an object'],
    [{ lever: {} }, 'lever', 'unknown field'],
  ])('rejects %j naming the field', (json, field, problem) => {
    const err = errorOf(json);
    expect(err.field).toBe(field);
    expect(err.message).toContain(`${field}: ${problem}`);
  });
});

describe('hardware map against a Firmata capability report (Firmata protocol 2.x CAPABILITY_RESPONSE)', () => {
  const { INPUT, OUTPUT, ANALOG, PWM, SERVO, I2C } = FIRMATA_MODES;
  // An Uno's report as StandardFirmata 2.4 gives it: no modes on the serial pins 0-1, PWM on
  // 3, 5, 6, 9, 10, 11, I2C on A4/A5 (the real report is checked in test/emulated-uno.test.ts).
  const uno = Array.from({ length: 20 }, (_, pin) => {
    if (pin < 2) return { supportedModes: [] as number[] };
    if (pin >= 14) return { supportedModes: pin >= 18 ? [INPUT, OUTPUT, ANALOG, I2C] : [INPUT, OUTPUT, ANALOG] };
    return { supportedModes: [3, 5, 6, 9, 10, 11].includes(pin) ? [INPUT, OUTPUT, PWM, SERVO] : [INPUT, OUTPUT, SERVO] };
  });

  it('the Uno wiring asks each pin for a mode it has', () => {
    expect(() => checkCapabilities(UNO_DEFAULTS, uno)).not.toThrow();
    expect(pinModes(UNO_DEFAULTS).find((u) => u.field === 'leds.white.pin')).toEqual({ field: 'leds.white.pin', pin: 9, mode: 'OUTPUT' });
  });

  it('an LED asking for PWM on a pin without it is refused, naming the field, the pin and the mode', () => {
    const map = parseHardwareMap({ leds: { white: { pin: 12, pwm: true } } });
    expect(() => checkCapabilities(map, uno)).toThrow(HardwareMapError);
    expect(() => checkCapabilities(map, uno)).toThrow('leds.white.pin: pin 12 does not support PWM on this board (its modes: INPUT, OUTPUT, SERVO)');
    expect(() => checkCapabilities(parseHardwareMap({ leds: { black: { pin: 10, pwm: true } } }), uno)).not.toThrow();
  });

  it('a board without I2C on A4/A5 cannot drive the display', () => {
    const noI2c = uno.map((p, pin) => (pin >= 18 ? { supportedModes: [INPUT, OUTPUT, ANALOG] } : p));
    expect(() => checkCapabilities(UNO_DEFAULTS, noI2c)).toThrow('display: A4 (pin 18) does not support I2C on this board (its modes: INPUT, OUTPUT, ANALOG)');
  });

  it('rejects a pwm flag that is not a boolean', () => {
    const err = errorOf({ leds: { white: { pin: 9, pwm: 'yes' } } });
    expect(err.message).toBe('leds.white.pwm: must be true or false, got "yes"');
  });
});

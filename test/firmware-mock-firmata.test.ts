// Johnny-Five components on plain mock-firmata (no simulator): the test itself plays the
// board. Buttons are pressed by calling the callbacks Johnny-Five passed to
// `io.digitalRead(pin, cb)` (dependencies.md pitfall 5); what reaches the LCD is the raw
// `io.i2cWrite` traffic, decoded here with the HD44780 model. five.Button debounces on
// real timers (~7 ms), so each edge waits for the firmware's stamped key event.
import { afterEach, describe, expect, it } from 'vitest';
import { Firmata } from 'mock-firmata';
import { presetTimeControl } from '../protocol/time-control.ts';
import { connectHardware } from '../firmware-ts/board.ts';
import { ClockFirmware } from '../firmware-ts/clock-firmware.ts';
import { parseHardwareMap } from '../firmware-ts/hardware-map.ts';
import { Hd44780 } from '../simulator/hd44780.ts';
import { Ht16k33Digits } from '../simulator/ht16k33.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';

interface CapturedIo {
  io: InstanceType<typeof Firmata>;
  readers: Map<number, (value: number) => void>;
  i2c: Array<{ address: number; bytes: number[] }>;
  writes: Array<[number, number]>;
  analog: Array<[number, number]>;
}

function mockIo(): CapturedIo {
  const io = new Firmata();
  const captured: CapturedIo = { io, readers: new Map(), i2c: [], writes: [], analog: [] };
  io.digitalRead = (pin: number, cb: (value: number) => void) => captured.readers.set(pin, cb);
  io.digitalWrite = (pin: number, value: number) => captured.writes.push([pin, value]);
  io.analogWrite = (pin: number, value: number) => captured.analog.push([pin, value]);
  io.i2cWrite = (address: number, a: number | number[], b?: number | number[]) => {
    const arr = (v: number | number[]) => (Array.isArray(v) ? v : [v]);
    captured.i2c.push({ address, bytes: b === undefined ? arr(a) : [...arr(a), ...arr(b)] });
  };
  // mock-firmata never connects by itself.
  process.nextTick(() => {
    io.emit('connect');
    io.emit('ready');
  });
  return captured;
}

const firmwares: ClockFirmware[] = [];
afterEach(() => {
  for (const f of firmwares.splice(0)) f.stop();
});

async function edge(fw: ClockFirmware, cb: (v: number) => void, value: number): Promise<number> {
  const seen = new Promise<number>((resolve) => fw.once('key', (e: { at: number }) => resolve(e.at)));
  cb(value);
  return seen;
}

describe('firmware on mock-firmata (Johnny-Five components, captured callbacks)', () => {
  it('a lever press on pin 2 reaches the clock and the LCD shows the new times', async () => {
    const map = parseHardwareMap({});
    const cap = mockIo();
    const time = new SimulatedTime(1_000);
    const hardware = await connectHardware({ io: cap.io }, map);
    const fw = new ClockFirmware({ hardware, time, timeControl: presetTimeControl('rapid') });
    firmwares.push(fw);
    // Pull-ups on: Johnny-Five wrote HIGH to each button pin after INPUT mode.
    for (const pin of [2, 3, 4, 5, 6, 7, 8]) expect(cap.writes).toContainEqual([pin, 1]);
    const lcd = new Hd44780();
    const show = () => {
      for (const { address, bytes } of cap.i2c.splice(0)) if (address === 0x27) bytes.forEach((b) => lcd.writePort(b));
      return lcd.text();
    };
    expect(show()).toEqual(['  15:10  15:10  ', '#0 P1 REDY #0 P1']);

    const startPause = cap.readers.get(4)!;
    const white = cap.readers.get(2)!;
    expect(await edge(fw, startPause, 0)).toBe(1_000); // pressed: pull-up reads LOW
    await edge(fw, startPause, 1);
    time.advanceBy(12_345);
    // The press is stamped with the time at which the debounced edge reached the adapter.
    expect(await edge(fw, white, 0)).toBe(13_345);
    await edge(fw, white, 1);
    // 900 000 + 10 000 − 12 345 + 10 000 = 907 655 → shown rounded up as 15:08.
    expect(show()).toEqual(['  15:08 *15:10  ', '#1 P1      #0 P1']);
    expect(fw.reading().white).toBe(907_655);
    time.advanceBy(4_000);
    expect(show()[0]).toBe('  15:08 *15:06  ');
    // LEDs: White's (pin 9) off, Black's (pin 10) on; both are PWM pins, so Johnny-Five uses analogWrite.
    const last = (pin: number) => cap.analog.filter(([p]) => p === pin).at(-1)?.[1];
    expect([last(9), last(10)]).toEqual([0, 255]);
  });

  it('a lone "up" at connect is not a release: the clock stays ready (docs/firmware.md "Keys and menus": a key acts on its press and release)', async () => {
    const map = parseHardwareMap({});
    const cap = mockIo();
    const time = new SimulatedTime(0);
    const hardware = await connectHardware({ io: cap.io }, map);
    const fw = new ClockFirmware({ hardware, time, timeControl: presetTimeControl('rapid') });
    firmwares.push(fw);
    const keys: unknown[] = [];
    fw.on('key', (k) => keys.push(k));
    // At connect StandardFirmata's first port report can read a key LOW (a pin of the port not
    // yet in INPUT mode is reported 0), the next one HIGH: within five.Button's 7 ms debounce,
    // which then reports only the 'up' (seen with the real binary on the emulated Uno over a
    // pty: the clock started by itself).
    const reportedUp = new Promise((r) => (hardware.buttons.startPause as unknown as NodeJS.EventEmitter).once('up', r));
    cap.readers.get(4)!(0);
    cap.readers.get(4)!(1);
    await reportedUp;
    expect(keys).toEqual([]);
    expect(fw.state().status).toBe('ready');
    // A real tap still starts it.
    await edge(fw, cap.readers.get(4)!, 0);
    await edge(fw, cap.readers.get(4)!, 1);
    expect(fw.state().status).toBe('running');
  });

  it('two HT16K33 4-digit displays show each side and blink while paused', async () => {
    const map = parseHardwareMap({ display: { type: 'digits', addresses: { white: 0x70, black: 0x71 } } });
    const cap = mockIo();
    const time = new SimulatedTime(0);
    const hardware = await connectHardware({ io: cap.io }, map);
    const fw = new ClockFirmware({ hardware, time, timeControl: presetTimeControl('armageddon') });
    firmwares.push(fw);
    const displays = { 112: new Ht16k33Digits(), 113: new Ht16k33Digits() } as Record<number, Ht16k33Digits>;
    const show = () => {
      for (const { address, bytes } of cap.i2c.splice(0)) displays[address]?.write(bytes);
      return [displays[0x70].text(), displays[0x71].text()];
    };
    expect(show()).toEqual([' 6:00', ' 5:00']);
    await edge(fw, cap.readers.get(4)!, 0);
    await edge(fw, cap.readers.get(4)!, 1);
    time.advanceBy(341_000); // 19 s left for White: tenths
    expect(show()).toEqual([' 1 9.0', ' 5:00']);
    expect(displays[0x70].blink).toBe(0);
    await edge(fw, cap.readers.get(4)!, 0); // pause
    show();
    expect(displays[0x70].blink).toBe(3); // HT16K33 0.5 Hz blink ("slow")
  });
});

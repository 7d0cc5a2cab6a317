// An emulated Arduino Uno running the real StandardFirmata binary, for the unchanged clock
// firmware: Johnny-Five talks Firmata to it over a serial port object, byte for byte as it
// would to a board on /dev/ttyACM0.
//
// What runs: avr8js's ATmega328P CPU at 16 MHz with timers 0-2, USART0, TWI, the ADC and
// ports B, C, D, executing the Intel HEX image. Around it, the parts of the clock:
//  - keys: pin levels set on the port's PIN register (`press`/`release`). avr8js does not
//    model the internal pull-ups, so a pull-up key's pin is held HIGH while idle, as the
//    pull-up would hold it, and pulled LOW while pressed;
//  - LEDs: read from the port pins the AVR drives (`led(side)`);
//  - the piezo: its pin's edges, stamped with the AVR cycle count (`piezoHz()`);
//  - the 16×2 LCD: a PCF8574 I2C expander model on the AVR's TWI bus, feeding the HD44780
//    model (simulator/hd44780.ts) its port bytes, so `lcd.text()` and `lcd.cursor` are what
//    the glass would show;
//  - the serial line: bytes the AVR writes to UDR0 go to the port's 'data' at the pace the
//    emulated UART sends them (57,600 baud: one byte per 2,778 cycles); bytes written by
//    Johnny-Five are queued and handed to the UART one at a time, each when the previous
//    one has been received (`rxBusy` clear), as a real line delivers them.
//
// Time: real-time-locked by default, because Johnny-Five's button debounce, its LCD
// timing and the clock's own stamps run on wall time. Every slice (~1 ms of wall time)
// runs the cycles due since the last one (elapsed wall ms × 16,000). If the machine cannot
// keep up (a loaded CI core), a slice runs at most `maxCatchUpMs` of cycles and the rest of
// the lag is dropped: the emulated Uno then runs slower than wall time but stays correct,
// and no burst of stale bytes reaches Johnny-Five at once. `realTime: false` runs free (for
// the MHz benchmark).
//
// Reset: StandardFirmata blinks its version on pin 13 for ~1.9 s after a reset before it
// speaks; each boot runs `bootFastForwardMs` of cycles free-running first (in chunks that
// yield to the event loop), then locks to real time. Opening the serial port resets the AVR,
// as the Uno's DTR line does through its auto-reset capacitor; `brownOut()` resets it with
// the port left open, as a supply dip would. A reset is a power-on: new CPU, peripherals
// and SRAM (the emulator models no bootloader: the sketch starts at once).
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import Firmata from 'firmata';
import {
  AVRADC,
  AVRIOPort,
  AVRTimer,
  AVRTWI,
  AVRUSART,
  CPU,
  PinState,
  adcConfig,
  avrInstruction,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  twiConfig,
  usart0Config,
  type TWIEventHandler,
} from 'avr8js';
import type { Side } from '../../protocol/time-control.ts';
import type { HardwareMap, PinName } from '../../firmware-ts/hardware-map.ts';
import type { ButtonName } from '../../firmware-ts/menu-context.ts';
import { monotonicNowMs } from '../../firmware-ts/monotonic.ts';
import { Hd44780 } from '../hd44780.ts';
import { parseIntelHex, standardFirmataHexPath } from './intel-hex.ts';

export const UNO_HZ = 16_000_000;
export const CYCLES_PER_MS = UNO_HZ / 1000;
/** StandardFirmata's line speed (Firmata.begin(57600)). */
export const FIRMATA_BAUD = 57_600;
/** Pin edges kept (the newest): a PWM pin toggles ~1,000 times a second. */
const EDGES_KEPT = 20_000;

/** Uno digital pin → AVR port and bit: D0-D7 = PD0-7, D8-D13 = PB0-5, A0-A5 (14-19) = PC0-5. */
export function unoPin(pin: PinName | number): { port: 'B' | 'C' | 'D'; bit: number; number: number } {
  const n = typeof pin === 'number' ? pin : 14 + Number(pin.slice(1));
  if (!Number.isInteger(n) || n < 0 || n > 19) throw new Error(`not an Uno pin: ${JSON.stringify(pin)}`);
  if (n < 8) return { port: 'D', bit: n, number: n };
  if (n < 14) return { port: 'B', bit: n - 8, number: n };
  return { port: 'C', bit: n - 14, number: n };
}

/** One level change of a pin, on the AVR's time line and on the firmware's monotonic one. */
export interface PinEdge {
  readonly pin: number;
  readonly level: 0 | 1;
  /** AVR clock cycles since this boot's power-on. */
  readonly cycle: number;
  /** The reset count of the boot the cycle belongs to. */
  readonly boot: number;
  /** Monotonic ms (firmware-ts/monotonic.ts) when the edge happened. */
  readonly atMs: number;
  /** 'input': set by a key; 'output': driven by the AVR. */
  readonly kind: 'input' | 'output';
}

export interface EmulatedUnoOptions {
  map: HardwareMap;
  /** Intel HEX text; default: the StandardFirmata 2.4 that avrgirl-arduino ships. */
  hex?: string;
  /** Lock the cycles to wall time (default true). */
  realTime?: boolean;
  /** Cycles run free-running after each reset, in ms of AVR time (default 2000: past the version blink). */
  bootFastForwardMs?: number;
  /** At most this much AVR time runs in one real-time slice; a longer lag is dropped (default 25 ms). */
  maxCatchUpMs?: number;
}

/** The serial port of the emulated Uno, in the shape firmata.js takes as its transport. */
export class UnoSerialPort extends EventEmitter {
  readonly path: string;
  readonly baudRate = FIRMATA_BAUD;
  isOpen = true;
  /** Bytes each way since the port opened. */
  bytesToBoard = 0;
  bytesFromBoard = 0;

  constructor(
    private readonly uno: EmulatedUno,
    path: string,
  ) {
    super();
    this.path = path;
    // serialport emits 'open' asynchronously; firmata.js listens after its constructor.
    process.nextTick(() => this.isOpen && this.emit('open'));
    this.on('newListener', (event) => {
      if (event !== 'data') return;
      process.nextTick(() => {
        const pending = Buffer.concat(this.unread.splice(0));
        if (pending.length > 0 && this.isOpen) this.emit('data', pending);
      });
    });
  }

  write(data: Buffer | number[], callback?: (err?: Error | null) => void): boolean {
    if (!this.isOpen) {
      const err = new Error(`${this.path}: port is not open`);
      if (callback) process.nextTick(callback, err);
      else process.nextTick(() => this.emit('error', err));
      return false;
    }
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
    this.bytesToBoard += bytes.length;
    this.uno.receive(bytes);
    if (callback) process.nextTick(callback, null);
    return true;
  }

  close(callback?: (err?: Error | null) => void): void {
    if (!this.isOpen) {
      callback?.(null);
      return;
    }
    this.isOpen = false;
    this.uno.portClosed(this);
    process.nextTick(() => {
      this.emit('close');
      callback?.(null);
    });
  }

  /** Called by the Uno with bytes the UART sent. */
  deliver(bytes: Buffer): void {
    if (!this.isOpen) return;
    this.bytesFromBoard += bytes.length;
    // Like a serial port's read buffer: bytes wait until someone reads them.
    if (this.listenerCount('data') === 0) this.unread.push(bytes);
    else this.emit('data', bytes);
  }

  private unread: Buffer[] = [];
}

/** One AVR with its peripherals; replaced as a whole at every reset. */
class Machine {
  readonly cpu: CPU;
  readonly ports: Record<'B' | 'C' | 'D', AVRIOPort>;
  readonly usart: AVRUSART;
  readonly twi: AVRTWI;
  constructor(flash: Uint8Array) {
    this.cpu = new CPU(new Uint16Array(flash.buffer.slice(0)));
    // The ports first: a timer finds the pins its compare outputs drive (PWM) when it is built.
    this.ports = { B: new AVRIOPort(this.cpu, portBConfig), C: new AVRIOPort(this.cpu, portCConfig), D: new AVRIOPort(this.cpu, portDConfig) };
    new AVRTimer(this.cpu, timer0Config);
    new AVRTimer(this.cpu, timer1Config);
    new AVRTimer(this.cpu, timer2Config);
    new AVRADC(this.cpu, adcConfig);
    this.usart = new AVRUSART(this.cpu, usart0Config, UNO_HZ);
    this.twi = new AVRTWI(this.cpu, twiConfig, UNO_HZ);
    keepUsartStatusFlags(this.cpu, this.usart);
  }
  /** Runs instructions until the cycle counter reaches `target`. */
  runTo(target: number): void {
    const cpu = this.cpu;
    while (cpu.cycles < target) {
      avrInstruction(cpu);
      cpu.tick();
    }
  }
}

/**
 * avr8js 0.21.1 loses received bytes when the firmware transmits. Its UCSR0B write hook clears
 * a pending receive (the RXC0 flag and its interrupt) whenever UCSR0B is written with RXEN0 on,
 * and its UCSR0A write hook zeroes the read-only flags. HardwareSerial writes both while it
 * sends (UDRIE0 on and off, TXC0 cleared), so a byte that completed just then (an interrupt
 * handler running, interrupts off) was dropped: one Firmata I2C message in a few hundred,
 * garbling the LCD, whenever a key report went out during a repaint (found by
 * test/emulated-uno.test.ts). On the ATmega328P (datasheet, USART0 "UCSR0A" register description) RXC0, UDRE0, FE0, DOR0
 * and UPE0 are read-only: only reading UDR0 clears RXC0. The wrappers restore them.
 */
function keepUsartStatusFlags(cpu: CPU, usart: AVRUSART): void {
  const { UCSRA, UCSRB } = usart0Config;
  const RXC = 0x80;
  const READ_ONLY = RXC | 0x20 | 0x10 | 0x08 | 0x04;
  const rxInterrupt = (usart as unknown as { RXC: Parameters<CPU['setInterruptFlag']>[0] }).RXC;
  const writeB = cpu.writeHooks[UCSRB];
  cpu.writeHooks[UCSRB] = (value, old, addr, mask) => {
    const rxPending = cpu.data[UCSRA] & RXC;
    const handled = writeB(value, old, addr, mask);
    if (rxPending) cpu.setInterruptFlag(rxInterrupt);
    return handled;
  };
  const writeA = cpu.writeHooks[UCSRA];
  cpu.writeHooks[UCSRA] = (value, old, addr, mask) => {
    const readOnly = cpu.data[UCSRA] & READ_ONLY;
    const handled = writeA(value, old, addr, mask);
    cpu.data[UCSRA] |= readOnly;
    return handled;
  };
}

/** The PCF8574 I2C expander of the LCD backpack: every byte written to it is its port's new state. */
class Pcf8574 implements TWIEventHandler {
  private selected = false;
  /** Port bytes written during the current I2C transaction. */
  private written = 0;
  constructor(
    private readonly twi: AVRTWI,
    private readonly address: number,
    private readonly lcd: Hd44780,
    private readonly onStop: (bytes: number) => void,
  ) {}
  start(): void {
    this.twi.completeStart();
  }
  stop(): void {
    const bytes = this.written;
    this.selected = false;
    this.written = 0;
    this.twi.completeStop();
    if (bytes > 0) this.onStop(bytes);
  }
  connectToSlave(addr: number, write: boolean): void {
    // Only the expander answers (ACK); any other address gets no ACK, as on an empty bus.
    this.selected = addr === this.address && write;
    this.twi.completeConnect(addr === this.address);
  }
  writeByte(value: number): void {
    if (this.selected) {
      this.lcd.writePort(value);
      this.written++;
    }
    this.twi.completeWrite(this.selected);
  }
  readByte(): void {
    // Reading the expander returns its quasi-bidirectional pins, high when not driven.
    this.twi.completeRead(0xff);
  }
}

export interface UnoStats {
  /** AVR cycles run since construction (all boots). */
  readonly cycles: number;
  /** Wall ms the emulator spent running instructions. */
  readonly busyMs: number;
  /** AVR ms dropped because the machine could not keep real time. */
  readonly droppedMs: number;
  readonly resets: number;
}

export class EmulatedUno extends EventEmitter {
  readonly map: HardwareMap;
  /** The LCD as the glass shows it, rebuilt at each reset (the LCD loses power with the board). */
  lcd = new Hd44780();
  /** Pin edges, oldest first (the newest 20,000 or so are kept). */
  readonly edges: PinEdge[] = [];
  private readonly flash: Uint8Array;
  private readonly realTime: boolean;
  private readonly bootFastForwardMs: number;
  private readonly maxCatchUpCycles: number;
  private machine: Machine;
  private port: UnoSerialPort | null = null;
  private rxQueue: number[] = [];
  private txPending: number[] = [];
  private boot = 0;
  private booting: Promise<void> = Promise.resolve();
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wallBase = 0;
  private cycleBase = 0;
  private readonly keyPins: Record<ButtonName, { pin: number; pullup: boolean }>;
  private readonly inputLevels = new Map<number, boolean>();
  private totalCycles = 0;
  private busyMs = 0;
  private droppedMs = 0;
  private portCount = 0;
  /** Bytes overwritten in UDR0 before the firmware read them (UART data overrun). */
  rxOverruns = 0;

  constructor(options: EmulatedUnoOptions) {
    super();
    this.map = options.map;
    this.flash = parseIntelHex(options.hex ?? readFileSync(standardFirmataHexPath(), 'utf8'));
    this.realTime = options.realTime ?? true;
    this.bootFastForwardMs = options.bootFastForwardMs ?? 2000;
    this.maxCatchUpCycles = (options.maxCatchUpMs ?? 25) * CYCLES_PER_MS;
    const { levers, buttons } = options.map;
    const key = (w: { pin: PinName; pullup: boolean }) => ({ pin: unoPin(w.pin).number, pullup: w.pullup });
    this.keyPins = {
      white: key(levers.white),
      black: key(levers.black),
      startPause: key(buttons.startPause),
      mode: key(buttons.mode),
      plus: key(buttons.plus),
      minus: key(buttons.minus),
      ok: key(buttons.ok),
    };
    // Idle level: a pull-up key reads HIGH until pressed to ground.
    for (const { pin, pullup } of Object.values(this.keyPins)) this.inputLevels.set(pin, pullup);
    this.machine = this.powerOn();
  }

  /** The AVR cycle counter of the current boot. */
  get cycles(): number {
    return this.machine.cpu.cycles;
  }

  get resets(): number {
    return this.boot;
  }

  stats(): UnoStats {
    return { cycles: this.totalCycles + this.machine.cpu.cycles, busyMs: this.busyMs, droppedMs: this.droppedMs, resets: this.boot };
  }

  /** Resolves when the current boot's fast-forward is done (the firmware is about to speak). */
  booted(): Promise<void> {
    return this.booting;
  }

  /** Starts the emulation (the board gets power). */
  start(): Promise<void> {
    if (this.running) return this.booting;
    this.running = true;
    this.booting = this.fastForwardBoot();
    return this.booting;
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.port?.close();
  }

  /**
   * Opens the Uno's serial port. As on the real board, opening it pulses DTR, which resets
   * the AVR (the Uno's auto-reset): the firmware boots again and announces its version.
   */
  openSerial(path = `emulated-uno-${++this.portCount}`): UnoSerialPort {
    if (this.port?.isOpen) throw new Error(`${path}: the emulated Uno's serial port is already open (${this.port.path})`);
    const port = new UnoSerialPort(this, path);
    this.port = port;
    // A board that is not running yet gets its power with the port: that power-on is the reset.
    if (this.running) this.reset('serial-open');
    else void this.start();
    return port;
  }

  /**
   * Opens the serial port and puts firmata.js (the Firmata client Johnny-Five uses for a real
   * board) on it, in one tick, as firmata.js does with a port it opens itself: it must be
   * listening when the port reports 'open'. Give the result to Johnny-Five as `io`, in the
   * same tick too (firmware-ts/board.ts connectHardware does).
   */
  connectFirmata(path?: string): Firmata {
    const io = new Firmata(this.openSerial(path), { reportVersionTimeout: 10_000 });
    // What Johnny-Five sets on a Firmata board it opens itself (lib/board.js Serial.connect):
    // the name makes it treat the IO as an Arduino (A0-A5 are pins 14-19).
    io.name = 'Firmata';
    io.defaultLed = 13;
    return io;
  }

  /** A supply dip: the AVR resets; the USB serial line stays open. */
  brownOut(): Promise<void> {
    this.reset('brown-out');
    return this.booting;
  }

  /** Pushes a key: its pin goes to the pressed level. */
  press(key: ButtonName): PinEdge {
    const { pin, pullup } = this.keyPins[key];
    return this.setInput(pin, !pullup);
  }

  release(key: ButtonName): PinEdge {
    const { pin, pullup } = this.keyPins[key];
    return this.setInput(pin, pullup);
  }

  /** Whether the LED of a side is lit: its pin is an output driven HIGH. */
  led(side: Side): boolean {
    return this.pinState(this.map.leds[side].pin) === PinState.High;
  }

  pinState(pin: PinName | number): PinState {
    const { port, bit } = unoPin(pin);
    return this.machine.ports[port].pinState(bit);
  }

  /**
   * The piezo's tone in Hz over the AVR-time window ending now: rising edges of its pin per
   * second, from their cycle counts (0 when silent or no piezo is fitted).
   */
  piezoHz(windowMs = 100): number {
    if (!this.map.piezo) return 0;
    const pin = unoPin(this.map.piezo.pin).number;
    const from = this.machine.cpu.cycles - windowMs * CYCLES_PER_MS;
    const rising = this.edges.filter((e) => e.boot === this.boot && e.pin === pin && e.level === 1 && e.cycle >= from);
    if (rising.length < 2) return 0;
    const spanCycles = rising[rising.length - 1].cycle - rising[0].cycle;
    return spanCycles > 0 ? ((rising.length - 1) * UNO_HZ) / spanCycles : 0;
  }

  /** Runs the AVR free for `ms` of its time, synchronously (benchmarks; boot fast-forward). */
  runFor(ms: number): void {
    const started = performance.now();
    this.machine.runTo(this.machine.cpu.cycles + ms * CYCLES_PER_MS);
    this.busyMs += performance.now() - started;
    this.flushTx();
  }

  // ---- the serial port's side ----

  /** Bytes from the host side of the serial line. */
  receive(bytes: Buffer): void {
    for (const b of bytes) this.rxQueue.push(b);
    this.feedRx();
  }

  portClosed(port: UnoSerialPort): void {
    if (this.port === port) this.port = null;
    this.rxQueue = [];
  }

  // ---- inside ----

  private powerOn(): Machine {
    const m = new Machine(this.flash);
    this.lcd = new Hd44780();
    const address = this.map.display.type === 'lcd' ? this.map.display.address : -1;
    const bootNo = this.boot;
    m.twi.eventHandler = new Pcf8574(m.twi, address, this.lcd, (bytes) => this.emit('lcd', { bytes, cycle: m.cpu.cycles, boot: bootNo }));
    m.usart.onByteTransmit = (b) => this.txPending.push(b);
    // A byte completing while the previous one is still unread in UDR0 overwrites it: the
    // real UART's data overrun (DOR). Counted, so a test or the bench can see lost input.
    const writeByte = m.usart.writeByte.bind(m.usart);
    m.usart.writeByte = (value: number, immediate?: boolean) => {
      if (immediate && m.cpu.data[usart0Config.UCSRA] & 0x80) this.rxOverruns++;
      return writeByte(value, immediate);
    };
    // A byte the UART finished receiving: hand it the next one, one character time later.
    m.usart.onRxComplete = () => this.feedRx();
    for (const [name, port] of Object.entries(m.ports) as Array<['B' | 'C' | 'D', AVRIOPort]>) {
      port.addListener((value, old) => {
        const changed = value ^ old;
        for (let bit = 0; bit < 8; bit++) {
          if (!(changed & (1 << bit))) continue;
          const state = port.pinState(bit);
          if (state !== PinState.High && state !== PinState.Low) continue; // an input's pull-up bit
          const pin = name === 'D' ? bit : name === 'B' ? bit + 8 : bit + 14;
          const edge: PinEdge = { pin, level: state === PinState.High ? 1 : 0, cycle: m.cpu.cycles, boot: bootNo, atMs: monotonicNowMs(), kind: 'output' };
          this.pushEdge(edge);
          this.emit('pin', edge);
        }
      });
    }
    for (const [pin, level] of this.inputLevels) {
      const { port, bit } = unoPin(pin);
      m.ports[port].setPin(bit, level);
    }
    return m;
  }

  private reset(reason: 'serial-open' | 'brown-out'): void {
    this.totalCycles += this.machine.cpu.cycles;
    this.boot++;
    this.rxQueue = [];
    this.txPending = [];
    this.machine = this.powerOn();
    this.emit('reset', reason);
    if (this.running) this.booting = this.fastForwardBoot();
  }

  private async fastForwardBoot(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const machine = this.machine;
    const end = this.bootFastForwardMs * CYCLES_PER_MS;
    // Chunks of 50 ms of AVR time, yielding between them so the rest of the process
    // (a host link's heartbeat in the same process) is not starved.
    while (machine.cpu.cycles < end) {
      const started = performance.now();
      machine.runTo(Math.min(end, machine.cpu.cycles + 50 * CYCLES_PER_MS));
      this.busyMs += performance.now() - started;
      await new Promise((r) => setImmediate(r));
      if (this.machine !== machine || !this.running) return;
    }
    this.flushTx();
    this.feedRx();
    this.wallBase = performance.now();
    this.cycleBase = machine.cpu.cycles;
    this.schedule();
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => this.slice(), this.realTime ? 1 : 0);
  }

  private slice(): void {
    this.timer = null;
    if (!this.running) return;
    const m = this.machine;
    const now = performance.now();
    let target = this.realTime ? this.cycleBase + Math.floor((now - this.wallBase) * CYCLES_PER_MS) : m.cpu.cycles + 20 * CYCLES_PER_MS;
    if (target - m.cpu.cycles > this.maxCatchUpCycles) {
      // Behind real time: run one bounded slice and drop the rest of the lag, so the AVR
      // runs slower than the wall clock for a moment instead of bursting.
      this.droppedMs += (target - m.cpu.cycles - this.maxCatchUpCycles) / CYCLES_PER_MS;
      target = m.cpu.cycles + this.maxCatchUpCycles;
      this.cycleBase = target;
      this.wallBase = now;
    }
    const started = performance.now();
    m.runTo(target);
    this.busyMs += performance.now() - started;
    this.flushTx();
    this.schedule();
  }

  private feedRx(): void {
    const usart = this.machine.usart;
    // RX is fed only when the UART is enabled and idle: one character time per byte.
    if (this.rxQueue.length === 0 || usart.rxBusy || !usart.rxEnable) return;
    usart.writeByte(this.rxQueue.shift()!);
  }

  private flushTx(): void {
    if (this.txPending.length === 0) return;
    const bytes = Buffer.from(this.txPending);
    this.txPending = [];
    this.port?.deliver(bytes);
  }

  private setInput(pin: number, level: boolean): PinEdge {
    this.inputLevels.set(pin, level);
    const { port, bit } = unoPin(pin);
    this.machine.ports[port].setPin(bit, level);
    const edge: PinEdge = { pin, level: level ? 1 : 0, cycle: this.machine.cpu.cycles, boot: this.boot, atMs: monotonicNowMs(), kind: 'input' };
    this.pushEdge(edge);
    return edge;
  }

  private pushEdge(edge: PinEdge): void {
    this.edges.push(edge);
    if (this.edges.length > EDGES_KEPT * 1.5) this.edges.splice(0, this.edges.length - EDGES_KEPT);
  }
}

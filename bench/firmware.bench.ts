// Firmware figures (docs/benchmarks.md "Firmware"), measured through the unchanged
// firmware on the simulated board (Johnny-Five over the virtual Uno, LCD decoded from
// the I2C bytes):
//  1. press-to-display latency: from five.Button's debounced 'down' to the last LCD byte
//     of the repaint (the firmware's own work), and from the pin edge (includes the
//     ~7 ms debounce of five.Button);
//  2. charged time versus true elapsed time over a simulated 7-hour game, 120 moves per
//     side: the target is 0 ms, because charges come from stamped edges, never from the
//     display's repaint ticks.
import type { EventEmitter } from 'node:events';
import { mulberry32 } from '../protocol/prng.ts';
import { parsePgnTimeControl, presetTimeControl, timeControl } from '../protocol/time-control.ts';
import { logNormalMs } from '../simulator/player-script.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { UNO_DEFAULTS } from '../firmware-ts/hardware-map.ts';
import { CYCLES_PER_MS, EmulatedUno } from '../simulator/uno/emulated-uno.ts';
import { UnoClock } from '../simulator/uno/uno-clock.ts';

const hr = () => Number(process.hrtime.bigint()) / 1000; // µs

function quantiles(values: number[]): { p50: number; p99: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
}

async function latency(presses: number): Promise<void> {
  const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid') });
  const firmwareUs: number[] = [];
  const edgeMs: number[] = [];
  let downAt = 0;
  let edgeAt = 0;
  for (const side of ['white', 'black'] as const) {
    // First listener: the debounced edge arrives; last listener: the adapter has handled it
    // (statechart, repaint, LCD bytes, snapshot) — it all runs synchronously in between.
    // five.Button is an EventEmitter (its type declarations omit prependListener).
    const button = clock.hardware.buttons[side] as unknown as EventEmitter;
    button.prependListener('down', () => (downAt = hr()));
    button.on('down', () => {
      const done = hr();
      firmwareUs.push(done - downAt);
      edgeMs.push((done - edgeAt) / 1000);
    });
  }
  await clock.tap('startPause');
  let wrong = 0;
  for (let i = 0; i < presses; i++) {
    const side = i % 2 === 0 ? 'white' : 'black';
    clock.advance(1_000 + (i % 7) * 137);
    const before = clock.screen()[0];
    edgeAt = hr();
    await clock.down(side);
    if (clock.screen()[0] === before) wrong++;
    await clock.up(side);
  }
  await clock.stop();
  const f = quantiles(firmwareUs.slice(10)); // skip warm-up (JIT)
  const e = quantiles(edgeMs.slice(10));
  console.log(
    `press → LCD, firmware only (debounced edge → last LCD byte): p50 ${f.p50.toFixed(0)} µs, p99 ${f.p99.toFixed(0)} µs, max ${f.max.toFixed(0)} µs (${firmwareUs.length - 10} presses)`,
  );
  console.log(`press → LCD, from the pin edge (incl. five.Button's 7 ms debounce): p50 ${e.p50.toFixed(2)} ms, p99 ${e.p99.toFixed(2)} ms`);
  if (wrong) console.log(`  !! ${wrong} presses left the LCD unchanged`);
}

async function sevenHourGame(): Promise<void> {
  // 2 h for 40 moves, 1 h for 20, 30 min + 30 s per move for the rest (FIDE classical
  // with three periods): each side spends 3.5 h on 120 moves, 7 h in all.
  const side = parsePgnTimeControl('40/7200:20/3600:1800+30');
  const clock = await VirtualClock.boot({ timeControl: timeControl(side, side) });
  const rng = mulberry32(2024);
  const perSideMs = 3.5 * 3600_000;
  const moves = 120;
  // Log-normal think times, scaled so each side's total is exactly 3.5 h.
  const draws = (['white', 'black'] as const).map(() => Array.from({ length: moves }, () => logNormalMs(rng, 60_000, 0.9)));
  const thinks = draws.map((d) => {
    const sum = d.reduce((a, b) => a + b, 0);
    const scaled = d.map((x) => Math.max(1, Math.round((x * perSideMs) / sum)));
    scaled[moves - 1] += perSideMs - scaled.reduce((a, b) => a + b, 0);
    return scaled;
  });
  let paints = 0;
  clock.firmware.on('paint', () => paints++);
  const started = performance.now();
  await clock.tap('startPause');
  const trueElapsed = { white: 0, black: 0 };
  let maxMoveErrorMs = 0;
  for (let m = 0; m < moves; m++) {
    for (const [i, s] of (['white', 'black'] as const).entries()) {
      const before = clock.firmware.state()[s].chargedMs;
      clock.advance(thinks[i][m]);
      await clock.tap(s);
      trueElapsed[s] += thinks[i][m];
      const charged = clock.firmware.state()[s].chargedMs - before;
      maxMoveErrorMs = Math.max(maxMoveErrorMs, Math.abs(charged - thinks[i][m]));
    }
  }
  const realS = (performance.now() - started) / 1000;
  const state = clock.firmware.state();
  const errW = state.white.chargedMs - trueElapsed.white;
  const errB = state.black.chargedMs - trueElapsed.black;
  const flags = clock.outputs.filter((o) => o.type === 'flag').length;
  await clock.stop();
  console.log(
    `7-hour game, 120 moves per side (40/7200:20/3600:1800+30): charged − true elapsed = White ${errW} ms, Black ${errB} ms; ` +
      `worst single move ${maxMoveErrorMs} ms; ${paints} display repaints in between; ${flags} flags; ${realS.toFixed(1)} s real`,
  );
}

/**
 * The unchanged firmware on the emulated Uno (the real StandardFirmata 2.4 on avr8js), in real
 * time: pin edge → the HD44780 model shows what the firmware painted for that press, over real
 * Firmata at 57,600 baud; Firmata bytes on the wire per press (down + up), each direction; the
 * AVR's MHz locked to real time and free-running; how many Unos one core runs in real time.
 */
async function emulatedUno(presses: number): Promise<void> {
  const clock = await UnoClock.boot({ timeControl: presetTimeControl('rapid'), sound: false });
  const port = (clock.session.hardware.board as unknown as { io: { transport: { bytesToBoard: number; bytesFromBoard: number } } }).io.transport;
  const waitLcd = (rows: string[]) => clock.waitForScreen((r) => r.join('|') === rows.join('|'), 10_000, JSON.stringify(rows));
  await waitLcd(clock.firmware.screen());
  await clock.tap('startPause');
  await waitLcd(clock.firmware.screen());
  const edgeToLcdMs: number[] = [];
  const edgeToStampMs: number[] = [];
  const toBoard: number[] = [];
  const fromBoard: number[] = [];
  const cyclesBefore = clock.uno.stats().cycles;
  const wallBefore = performance.now();
  const droppedBefore = clock.uno.stats().droppedMs;
  for (let i = 0; i < presses; i++) {
    const side = i % 2 === 0 ? 'white' : 'black';
    await new Promise((r) => setTimeout(r, 120 + (i % 5) * 40)); // think
    const bytes0 = { to: port.bytesToBoard, from: port.bytesFromBoard };
    const t0 = performance.now();
    const edge = await clock.down(side);
    // What the firmware painted for this press (the repaint ran when the edge arrived).
    const painted = clock.firmware.screen(edge.at);
    await waitLcd(painted);
    edgeToLcdMs.push(performance.now() - t0);
    edgeToStampMs.push(edge.at - edge.pin.atMs);
    await clock.up(side);
    toBoard.push(port.bytesToBoard - bytes0.to);
    fromBoard.push(port.bytesFromBoard - bytes0.from);
  }
  const wallMs = performance.now() - wallBefore;
  const stats = clock.uno.stats();
  const lockedMhz = (stats.cycles - cyclesBefore) / wallMs / 1000;
  const dropped = stats.droppedMs - droppedBefore;
  await clock.stop();
  const l = quantiles(edgeToLcdMs.slice(4));
  const st = quantiles(edgeToStampMs.slice(4));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `emulated Uno, pin edge → LCD characters latched in the HD44780 model (real Firmata, 57,600 baud): p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms (${presses - 4} presses)`,
  );
  console.log(`emulated Uno, pin edge → firmware's stamp (UART + firmata.js + five.Button debounce): p50 ${st.p50} ms, p99 ${st.p99} ms, max ${st.max} ms`);
  console.log(
    `emulated Uno, Firmata bytes per press (down + up, incl. the repaint): to the board mean ${mean(toBoard).toFixed(0)} (max ${Math.max(...toBoard)}), from the board mean ${mean(fromBoard).toFixed(1)} (max ${Math.max(...fromBoard)})`,
  );
  console.log(
    `emulated Uno, real-time-locked: ${lockedMhz.toFixed(2)} MHz of AVR over ${(wallMs / 1000).toFixed(1)} s wall; ${dropped.toFixed(0)} ms of lag dropped; ${(stats.busyMs / (wallMs + 2000)).toFixed(2)} of a core busy (approx.)`,
  );

  freeRunningUno();
  await unosInRealTime();
}

/** Free-running: StandardFirmata idle (Johnny-Five connected, nothing to do), no lock: the AVR's MHz and the Unos per core it implies. */
function freeRunningUno(): void {
  const free = new EmulatedUno({ map: UNO_DEFAULTS, realTime: false, bootFastForwardMs: 0 });
  free.runFor(2_000);
  const t = performance.now();
  const c0 = free.cycles;
  free.runFor(4_000);
  const freeMhz = (free.cycles - c0) / (performance.now() - t) / 1000;
  free.stop();
  console.log(
    `emulated Uno, free-running: ${freeMhz.toFixed(1)} MHz (${((free.cycles - c0) / CYCLES_PER_MS / 1000).toFixed(0)} s of AVR time) → ${Math.floor(freeMhz / 16)} Unos per core in real time (free MHz / 16)`,
  );
}

/**
 * How many Unos one core runs in real time, measured, not derived: k Unos real-time-locked in this one process (one core: Node's
 * thread) for 5 s each, StandardFirmata idle; k is in real time while every Uno keeps
 * 99.5 % of 16 MHz. Stops at the first k that does not.
 */
async function unosInRealTime(): Promise<void> {
  let inRealTime = 0;
  for (let k = 1; k <= 12; k++) {
    const unos = Array.from({ length: k }, () => new EmulatedUno({ map: UNO_DEFAULTS }));
    await Promise.all(unos.map((u) => u.start()));
    const before = unos.map((u) => u.stats().cycles);
    const w0 = performance.now();
    await new Promise((r) => setTimeout(r, 5_000));
    const wall = performance.now() - w0;
    const mhz = unos.map((u, i) => (u.stats().cycles - before[i]) / wall / 1000);
    for (const u of unos) u.stop();
    const slowest = Math.min(...mhz);
    console.log(
      `emulated Uno, ${k} at once, real-time-locked, one process: slowest ${slowest.toFixed(2)} MHz, mean ${(mhz.reduce((a, b) => a + b, 0) / k).toFixed(2)} MHz`,
    );
    if (slowest < 16 * 0.995) break;
    inRealTime = k;
  }
  console.log(`emulated Unos one core runs in real time (measured): ${inRealTime}`);
}

export async function run(): Promise<void> {
  await latency(400);
  await sevenHourGame();
  await emulatedUno(Number(process.env.UNO_PRESSES ?? 80));
}

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
  console.log(`press → LCD, firmware only (debounced edge → last LCD byte): p50 ${f.p50.toFixed(0)} µs, p99 ${f.p99.toFixed(0)} µs, max ${f.max.toFixed(0)} µs (${firmwareUs.length - 10} presses)`);
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

export async function run(): Promise<void> {
  await latency(400);
  await sevenHourGame();
}

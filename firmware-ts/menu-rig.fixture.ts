// The menus wired to the clock statechart as the firmware wires them (commands in, the clock's
// answers back), on a simulated time line, with the keys as edges: the rig the menu tests share.
import { afterEach } from 'vitest';
import { createActor } from 'xstate';
import type { TimeControl } from '../protocol/time-control.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { readClock } from '../rules/clock-reading.ts';
import { clockMachine, type ClockInput, type ClockOutput } from '../rules/clock.machine.ts';
import { clockView } from './clock-view.ts';
import { screenRows } from './menu-text.ts';
import { arbiterItemIndex } from './menu-arbiter.ts';
import { menuEventsFor, type ButtonName } from './menu-context.ts';
import { ARBITER_HOLD_MS, menuMachine } from './menu.machine.ts';
import { xstateClock } from './timebase.ts';

const rigs: Array<() => void> = [];
afterEach(() => {
  for (const stop of rigs.splice(0)) stop();
});

export function rig(timeControl: TimeControl) {
  const time = new SimulatedTime();
  const actorClock = xstateClock(time);
  const clock = createActor(clockMachine, { input: { timeControl }, clock: actorClock });
  const menu = createActor(menuMachine, { input: { sound: false }, clock: actorClock });
  const commands: ClockInput[] = [];
  const outputs: ClockOutput[] = [];
  clock.on('*', (out) => {
    outputs.push(out as ClockOutput);
    // As the firmware does: the menu hears refusals and illegal moves recorded.
    for (const event of menuEventsFor(out as ClockOutput, () => readClock(clock.getSnapshot().context.clock, time.now()))) menu.send(event);
  });
  menu.on('command', ({ input }) => {
    commands.push(input);
    clock.send(input);
  });
  clock.start();
  menu.start();
  rigs.push(() => {
    menu.stop();
    clock.stop();
  });
  const state = () => clock.getSnapshot().context.clock;
  const edge = (type: 'KEY_DOWN' | 'KEY_UP', key: ButtonName) => {
    const at = time.now();
    menu.send({ type, key, at, ...clockView(state(), at) });
  };
  const tap = (key: ButtonName, times = 1) => {
    for (let i = 0; i < times; i++) {
      edge('KEY_DOWN', key);
      edge('KEY_UP', key);
    }
  };
  const arbiter = () => {
    edge('KEY_DOWN', 'mode');
    edge('KEY_DOWN', 'ok');
    time.advanceBy(ARBITER_HOLD_MS);
    edge('KEY_UP', 'mode');
    edge('KEY_UP', 'ok');
  };
  const rows = () => {
    const snap = menu.getSnapshot();
    return screenRows(snap.value, snap.context, clockView(state(), time.now()), time.now());
  };
  /** From arbiter item 0 to the item of `kind`. */
  const toItem = (kind: Parameters<typeof arbiterItemIndex>[0], side?: 'white' | 'black') => tap('mode', arbiterItemIndex(kind, side));
  return { time, clock, menu, commands, outputs, state, edge, tap, arbiter, rows, toItem };
}

/** Start, then `n` moves per side of `ms` each. */
export function play(r: ReturnType<typeof rig>, n: number, ms = 10_000) {
  r.tap('startPause');
  for (let i = 0; i < n; i++) {
    r.time.advanceBy(ms);
    r.tap('white');
    r.time.advanceBy(ms);
    r.tap('black');
  }
}

// The statechart as the board runs it: events stamped where they arrive, timers on a
// clock that may fire late. Rule-by-rule replay tables live in replay.contract.test.ts.
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { presetTimeControl, parsePgnTimeControl, parseJsonTimeControl, timeControl } from '../protocol/time-control.ts';
import { clockMachine, type ClockInput, type ClockMachineInput, type ClockOutput } from './clock.machine.ts';
import { readClock } from './clock-reading.ts';

function boot(input: ClockMachineInput) {
  const clock = new SimulatedClock();
  const actor = createActor(clockMachine, { input, clock });
  const out: ClockOutput[] = [];
  actor.on('*', (o) => out.push(o));
  actor.start();
  /** Advances the clock to `at` (timers due by then fire) and sends the input. */
  const at = (input: ClockInput) => {
    clock.set(input.at);
    actor.send(input);
  };
  return { actor, clock, out, at, state: () => actor.getSnapshot() };
}

const rapid = () => presetTimeControl('rapid');

describe('clock statechart', () => {
  it('deadlines before inputs (docs/replay.md "Timed inputs") even when the flag timer has not fired yet (timer late on a busy board)', () => {
    // The board stamps the press at 900 000 ms; its timer loop has not run yet.
    // Rapid 15 min + 10 s, before-move: White holds 910 000 ms at the start.
    const { actor, out } = boot({ timeControl: rapid() });
    actor.send({ type: 'START', at: 0 });
    // No clock.set(): the SimulatedClock stays at 0, as if the timer were late.
    actor.send({ type: 'PRESS', side: 'white', at: 910_000 });
    expect(out.filter((o) => o.type === 'flag')).toEqual([{ type: 'flag', at: 910_000, side: 'white', white: 0, black: 910_000 }]);
    expect(out.some((o) => o.type === 'move')).toBe(false);
    expect(actor.getSnapshot().value).toBe('flagged');
  });

  it('FIDE Laws 6.2.1: a press 1 ms before the flag instant completes the move', () => {
    const { actor, out } = boot({ timeControl: rapid() });
    actor.send({ type: 'START', at: 0 });
    actor.send({ type: 'PRESS', side: 'white', at: 909_999 });
    // 910 000 − 909 999 + 10 000 increment = 10 001
    expect(out.at(-1)).toEqual({ type: 'move', at: 909_999, side: 'white', move: 1, white: 10_001, black: 910_000 });
    expect(actor.getSnapshot().matches({ running: 'black' })).toBe(true);
  });

  it('the flag timer fires by itself at the exact computed deadline', () => {
    const { clock, actor, out, at } = boot({ timeControl: rapid() });
    at({ type: 'START', at: 1_000 });
    at({ type: 'PRESS', side: 'white', at: 31_000 }); // White 910 000 − 30 000 + 10 000 = 890 000
    clock.set(941_000 - 1);
    expect(out.some((o) => o.type === 'flag')).toBe(false);
    clock.set(2_000_000); // far past: the flag is stamped at its deadline, not at "now"
    expect(out.at(-1)).toEqual({ type: 'flag', at: 941_000, side: 'black', white: 890_000, black: 0 });
    expect(readClock(actor.getSnapshot().context.clock, 2_000_000).flag).toBe('black');
  });

  it('power cut: a snapshot taken at a press restores the clock paused exactly there', () => {
    const first = boot({ timeControl: presetTimeControl('classical') });
    first.at({ type: 'START', at: 0 });
    first.at({ type: 'PRESS', side: 'white', at: 12_000 });
    const saved = JSON.parse(JSON.stringify(first.actor.getSnapshot().context.clock));
    const before = readClock(saved, 12_000);

    const second = boot({ timeControl: presetTimeControl('classical'), restore: saved });
    expect(second.state().value).toEqual({ paused: 'idle' });
    const after = readClock(second.state().context.clock, 50_000);
    expect(after).toEqual({ ...before, status: 'paused' });
    // Laws 6.11: the arbiter resumes; the same side (Black) runs on from where it was.
    second.at({ type: 'RESUME', at: 60_000 });
    second.at({ type: 'PRESS', side: 'black', at: 65_000 });
    expect(second.out.at(-1)).toMatchObject({ type: 'move', side: 'black', move: 1, black: 5_430_000 - 5_000 + 30_000 });
  });

  it('rejects inputs that do nothing in the current state, and leaves the state intact', () => {
    const { actor, out, at } = boot({ timeControl: rapid() });
    at({ type: 'RESUME', at: 0 });
    expect(out.at(-1)).toMatchObject({ type: 'rejected', input: 'RESUME' });
    at({ type: 'START', at: 0 });
    const before = actor.getSnapshot().context.clock;
    at({ type: 'START', at: 5 });
    expect(out.at(-1)).toMatchObject({ type: 'rejected', input: 'START' });
    at({ type: 'NEW_GAME', timeControl: rapid(), at: 6 });
    expect(out.at(-1)).toMatchObject({ type: 'rejected', input: 'NEW_GAME' });
    expect(actor.getSnapshot().context.clock).toBe(before);
  });

  it('an input stamped earlier than the last one is rejected (time never goes backwards)', () => {
    const { actor, out } = boot({ timeControl: rapid() });
    actor.send({ type: 'START', at: 100 });
    actor.send({ type: 'PRESS', side: 'white', at: 50 });
    expect(out.at(-1)).toMatchObject({ type: 'rejected', input: 'PRESS', reason: 'time went backwards' });
    expect(actor.getSnapshot().context.clock.white.moves).toBe(0);
  });

  it('NEW_GAME after a finished game goes back to ready with the new control', () => {
    const { actor, at } = boot({ timeControl: presetTimeControl('armageddon') });
    at({ type: 'START', at: 0 });
    at({ type: 'PAUSE', at: 10 });
    at({ type: 'NEW_GAME', timeControl: rapid(), at: 20 });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(readClock(actor.getSnapshot().context.clock, 20)).toMatchObject({ white: 910_000, black: 910_000, status: 'ready' });
  });

  it('FIDE Laws 6.7.1: a default time deadline passes while paused (pauses do not stop it)', () => {
    const tc = presetTimeControl('sudden-death-60', { defaultTime: 900 });
    const { actor, clock, out, at } = boot({ timeControl: tc });
    at({ type: 'ARRIVE', side: 'white', at: 0 });
    at({ type: 'START', at: 0 });
    at({ type: 'PAUSE', at: 100_000 });
    clock.set(900_000);
    expect(out.filter((o) => o.type === 'forfeit')).toEqual([{ type: 'forfeit', at: 900_000, side: 'black' }]);
    expect(actor.getSnapshot().value).toBe('forfeited');
    // A forfeit ends the game: resume does nothing.
    at({ type: 'RESUME', at: 900_500 });
    expect(actor.getSnapshot().value).toBe('forfeited');
  });

  it('FIDE Laws 6.10.2: after a flag the arbiter adds time and resumes; the first flag stays remembered', () => {
    const tc = timeControl(parsePgnTimeControl('60'), parsePgnTimeControl('60'));
    const { actor, clock, out, at } = boot({ timeControl: tc });
    at({ type: 'START', at: 0 });
    clock.set(60_000);
    expect(actor.getSnapshot().value).toBe('flagged');
    at({ type: 'RESUME', at: 61_000 });
    expect(out.at(-1)).toMatchObject({ type: 'rejected', input: 'RESUME' });
    at({ type: 'ADJUST', side: 'white', ms: 30_000, at: 62_000 });
    at({ type: 'RESUME', at: 63_000 });
    expect(actor.getSnapshot().matches({ running: 'white' })).toBe(true);
    at({ type: 'PRESS', side: 'white', at: 70_000 });
    expect(out.at(-1)).toMatchObject({ type: 'move', side: 'white', white: 23_000, black: 60_000 });
    clock.set(130_000);
    expect(out.at(-1)).toMatchObject({ type: 'flag', at: 130_000, side: 'black' });
    expect(actor.getSnapshot().context.clock.flag).toBe('white');
  });

  it('simple delay: the display does not move during the delay, and the flag waits for it', () => {
    const tc = timeControl(parseJsonTimeControl([{ seconds: 10, delay: 5 }]), parseJsonTimeControl([{ seconds: 10, delay: 5 }]));
    const { actor, clock, out, at } = boot({ timeControl: tc });
    at({ type: 'START', at: 0 });
    expect(readClock(actor.getSnapshot().context.clock, 4_999).white).toBe(10_000);
    expect(readClock(actor.getSnapshot().context.clock, 6_000).white).toBe(9_000);
    clock.set(15_000);
    expect(out.at(-1)).toEqual({ type: 'flag', at: 15_000, side: 'white', white: 0, black: 10_000 });
  });
});

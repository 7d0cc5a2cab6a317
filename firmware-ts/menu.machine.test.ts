// The menus driven by key edges (KEY_DOWN / KEY_UP), wired to the clock statechart as the
// firmware wires them (commands in, 'rejected' reasons back), on a simulated time line.
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { presetTimeControl } from '../protocol/time-control.ts';
import { readClock } from '../rules/clock-reading.ts';
import { clockMachine, type ClockInput } from '../rules/clock.machine.ts';
import { play, rig } from './menu-rig.fixture.ts';
import { ARBITER_ITEMS } from './menu-arbiter.ts';
import { menuMachine } from './menu.machine.ts';

const actors: Array<() => void> = [];
afterEach(() => {
  for (const stop of actors.splice(0)) stop();
});

describe('arbiter menu: the new powers', () => {
  it('FIDE Laws 7.5.1: "take back" names the move it annuls (ok: annul W #n) and ok sends TAKEBACK', () => {
    const r = rig(presetTimeControl('rapid'));
    play(r, 2);
    r.time.advanceBy(5_000);
    r.tap('white'); // White's third move is illegal
    r.tap('startPause');
    r.arbiter();
    r.toItem('takeback');
    expect(r.rows()).toEqual(['ARB take back   ', 'ok: annul W #3  ']);
    r.tap('ok'); // the choice of the times (rewind first)
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'TAKEBACK', times: 'rewind' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'takeback', side: 'white', move: 2, illegalMoves: 1 });
    expect(r.rows()).toEqual(['ARB take back   ', 'move annulled   ']);
    r.tap('startPause'); // leave: the LCD shows White's count of annulled moves
    expect(r.rows()[1]).toBe('#2 !1 PAUS #2 P1');
  });

  it('FIDE Laws 7.5.1: when the clock refuses, the LCD shows its reason (no move to take back)', () => {
    const r = rig(presetTimeControl('rapid'));
    r.tap('startPause');
    r.time.advanceBy(3_000);
    r.tap('startPause');
    r.arbiter();
    r.toItem('takeback');
    expect(r.rows()[1]).toBe('no move to annul');
    r.tap('ok');
    expect(r.outputs.at(-1)).toMatchObject({ type: 'rejected', input: 'TAKEBACK', reason: 'no completed move to take back' });
    expect(r.rows()).toEqual(['no completed    ', 'move to take bac']); // 16 columns: the rest is cut
    r.tap('mode'); // the next key clears it
    expect(r.rows()[0]).toBe('ARB arrive W    ');
  });

  it('FIDE Laws 6.7: before the start, arbiter mode marks each side present (arrive W / arrive B); the ? marks go', () => {
    const r = rig(presetTimeControl('sudden-death-60', { defaultTime: 900 }));
    expect(r.rows()).toEqual(['1:00:00??1:00:00', '#0 P1 REDY #0 P1']);
    r.arbiter(); // the clock is ready: arbiter mode opens
    r.toItem('arrive', 'black');
    expect(r.rows()).toEqual(['ARB arrive B    ', 'absent ok:here  ']);
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'ARRIVE', side: 'black' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'arrived', side: 'black' });
    expect(r.rows()).toEqual(['ARB arrive B    ', 'Black present   ']);
    r.tap('startPause'); // leave arbiter mode (the clock stays ready)
    expect(r.rows()).toEqual(['1:00:00? 1:00:00', '#0 P1 REDY #0 P1']);
    r.tap('white'); // White's lever while ready: White is present, nothing starts
    expect(r.rows()).toEqual(['1:00:00  1:00:00', '#0 P1 REDY #0 P1']);
    expect(r.state().status).toBe('ready');
  });

  it('FIDE Laws 6.7.1: the default-time countdown replaces the status while a side is absent', () => {
    const r = rig(presetTimeControl('sudden-death-60', { defaultTime: 900 }));
    r.tap('startPause');
    r.time.advanceBy(28_000);
    r.tap('white'); // White arrives and moves; Black is still away
    expect(r.rows()).toEqual(['  59:32 *1:00:00', '#1  DT 14:32   ?']);
    r.tap('startPause'); // pauses do not stop the default time
    r.time.advanceBy(60_000);
    expect(r.rows()).toEqual(['  59:32 ?1:00:00', '#1  DT 13:32   ?']);
  });

  it('FIDE Laws 6.7.1: after a forfeit arbiter mode opens on "reinstate"; ok overrules the forfeit', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('white'); // White is present
    r.tap('startPause'); // who is here? White only (the one choice besides both, White being marked)
    r.tap('plus');
    r.tap('ok'); // Black is not: lost by default at once
    r.time.advanceBy(1);
    expect(r.state().status).toBe('forfeited');
    r.arbiter();
    expect(r.rows()).toEqual(['ARB reinstate   ', 'ok: overrule    ']);
    r.tap('ok');
    expect(r.outputs.at(-1)).toMatchObject({ type: 'reinstated' });
    expect(r.rows()[1]).toBe('reinstated      ');
    r.tap('ok'); // again: the clock says there is nothing to reinstate
    expect(r.rows()).toEqual(['nothing to      ', 'reinstate       ']);
  });

  it('FIDE Guidelines III.4: "quickplay incr." offers 5 s, changes in 1 s steps, ok sends INCREMENT for both sides', () => {
    const r = rig(presetTimeControl('sudden-death-60'));
    play(r, 1);
    r.tap('startPause');
    r.arbiter();
    r.toItem('increment');
    expect(r.rows()).toEqual(['ARB quickplay   ', '+5s ok          ']);
    r.tap('plus', 2);
    r.tap('minus');
    expect(r.rows()[1]).toBe('+6s ok          ');
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'INCREMENT', ms: 6_000 });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'increment-set', ms: 6_000 });
    expect(r.rows()).toEqual(['ARB quickplay   ', 'incr. +6s set   ']);
    r.tap('mode', ARBITER_ITEMS.length); // around to the item again: it shows the increment in force
    expect(r.rows()).toEqual(['ARB quickplay   ', '+6s ok now+6    ']);
  });
});

describe('result entry (FIDE Laws 6.9: the clock never records a result on its own)', () => {
  it('FIDE Laws 6.9: after a flag only the opponent’s win and the draw are offered, neither preselected; ok alone does nothing', () => {
    const r = rig(presetTimeControl('armageddon'));
    r.tap('startPause');
    r.time.advanceBy(360_000); // White's flag
    r.tap('ok');
    expect(r.menu.getSnapshot().context.result).toMatchObject({ choice: null, choices: ['1/2-1/2', '0-1'] });
    expect(r.rows()).toEqual(['Result? +/- ok  ', '-- = or 0-1     ']);
    r.tap('ok');
    expect(r.rows()[0]).toBe('Result? +/- ok  '); // still choosing
    r.tap('plus');
    expect(r.rows()[1]).toBe('1/2-1/2         ');
    r.tap('plus', 2); // 0-1, then around to the draw: 1-0 is never offered
    expect(r.rows()[1]).toBe('1/2-1/2         ');
    r.tap('plus');
    r.tap('ok');
    r.tap('white');
    r.tap('black');
    expect(r.commands.at(-1)).toMatchObject({ type: 'RESULT', result: '0-1', by: 'players' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'result', result: '0-1', by: 'players' });
    expect(r.rows()[1]).toBe('Result 0-1      ');
    r.tap('ok'); // the players enter a result once
    expect(r.rows()[1]).toBe('Result 0-1      ');
  });

  it('FIDE Laws 6.7.1: after a forfeit the present side’s win is preselected', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('white');
    r.tap('startPause');
    r.tap('plus'); // White only
    r.tap('ok');
    r.time.advanceBy(1);
    r.tap('ok');
    expect(r.rows()).toEqual(['Result? +/- ok  ', '1-0             ']);
  });

  it('FIDE Laws 6.9: a finished game is not resumed by start/pause; setup (mode) opens for the next game and sends NEW_GAME', () => {
    const r = rig(presetTimeControl('rapid'));
    play(r, 1);
    r.tap('startPause');
    r.tap('ok');
    r.tap('plus', 3); // 1-0, 1/2-1/2, 0-1
    r.tap('ok');
    r.tap('white');
    r.tap('black');
    r.tap('startPause');
    expect(r.outputs.at(-1)).toMatchObject({ type: 'rejected', input: 'RESUME', reason: 'the game is over: it has a result' });
    expect(r.rows()[1]).toBe('Result 0-1      ');
    r.tap('mode');
    expect(r.rows()).toEqual(['Control         ', 'rapid           ']);
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'NEW_GAME' });
    expect(r.rows()).toEqual(['  15:10  15:10  ', '#0 P1 REDY #0 P1']);
  });
});

describe('a power-cut game and the host’s restore (docs/protocol.md "Restore")', () => {
  it('FIDE Laws 6.10.1: the keep-or-discard question after a power cut is answered by the host’s restore: the levers press the clock again', () => {
    const menu = createActor(menuMachine, { input: { sound: false, restored: presetTimeControl('rapid') } });
    menu.start();
    actors.push(() => menu.stop());
    expect(menu.getSnapshot().value).toBe('restore');
    const commands: ClockInput[] = [];
    menu.on('command', ({ input }) => commands.push(input));
    const clock = readClock(createActor(clockMachine, { input: { timeControl: presetTimeControl('rapid') } }).getSnapshot().context.clock, 0);
    const control = presetTimeControl('rapid');
    // While the question stands a lever does nothing…
    menu.send({ type: 'KEY_DOWN', key: 'white', at: 10, clock: { ...clock, status: 'running' }, control, takeback: null });
    menu.send({ type: 'KEY_UP', key: 'white', at: 20, clock: { ...clock, status: 'running' }, control, takeback: null });
    expect(commands).toEqual([]);
    // …the host loads the journal's game: the question is gone and the lever presses the clock.
    menu.send({ type: 'HOST_RESTORED' });
    expect(menu.getSnapshot().value).not.toBe('restore');
    menu.send({ type: 'KEY_DOWN', key: 'white', at: 30, clock: { ...clock, status: 'running' }, control, takeback: null });
    expect(commands).toEqual([{ type: 'PRESS', side: 'white', at: 30 }]);
  });
});

describe('setup keeps what its keys do not change', () => {
  it('setup opened on a control with the increment after the move (as a host may configure it) and confirmed unchanged changes nothing', () => {
    const control = presetTimeControl('classical', { defaultTime: 900, incrementTiming: 'after-move' });
    const r = rig(control);
    r.tap('mode');
    expect(r.rows()).toEqual(['Control         ', 'classical       ']);
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'NEW_GAME', timeControl: control });
  });
});

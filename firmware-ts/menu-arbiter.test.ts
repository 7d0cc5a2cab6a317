// The arbiter's items at the clock driven through the real menu machine wired to the clock
// statechart (menu-rig.fixture.ts): the take-back's choice of the times, the second illegal
// move, a replacement clock, a corrected control, the quickplay delay, the double forfeit.
import { describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { readClock } from '../rules/clock-reading.ts';
import { play, rig } from './menu-rig.fixture.ts';
import { ARBITER_ITEMS, arbiterItemIndex } from './menu-arbiter.ts';

describe('take-back: the arbiter chooses what happens to the clock times (FIDE Laws 7.1, 7.5.1)', () => {
  /** Rapid (910 000 ms each): W 5 s, B 3 s, W 4 s (illegal), paused 1 s later. */
  function illegalSecondMove() {
    const r = rig(presetTimeControl('rapid'));
    r.tap('startPause');
    r.time.advanceBy(5_000);
    r.tap('white');
    r.time.advanceBy(3_000);
    r.tap('black');
    r.time.advanceBy(4_000);
    r.tap('white');
    r.time.advanceBy(1_000);
    r.tap('startPause');
    r.arbiter();
    r.toItem('takeback');
    return r;
  }

  it('FIDE Laws 7.1: before ok the LCD shows both clocks after "rewind times" and after "keep times"; nothing is sent while choosing', () => {
    const r = illegalSecondMove();
    expect(r.rows()).toEqual(['ARB take back   ', 'ok: annul W #2  ']);
    r.tap('ok');
    // Rewind: White as at the illegal press (915 000 − 4 000, before its increment), Black's second back.
    expect(r.rows()).toEqual(['rewind times +/-', '  15:11  15:17  ']);
    r.tap('plus');
    // Keep: both clocks as they stand (White 921 000 after the increment, Black 916 000).
    expect(r.rows()).toEqual(['keep times   +/-', '  15:21  15:16  ']);
    r.tap('minus');
    expect(r.rows()[0]).toBe('rewind times +/-');
    expect(r.commands.filter((c) => c.type === 'TAKEBACK')).toEqual([]);
    r.tap('mode'); // back to the item: nothing annulled
    expect(r.rows()).toEqual(['ARB take back   ', 'ok: annul W #2  ']);
    expect(r.outputs.some((o) => o.type === 'takeback')).toBe(false);
  });

  it('FIDE Laws 7.1: "keep times" sends TAKEBACK with times keep; the clocks show what the preview showed', () => {
    const r = illegalSecondMove();
    r.tap('ok');
    r.tap('plus');
    const preview = r.rows()[1];
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'TAKEBACK', times: 'keep' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'takeback', side: 'white', move: 1, times: 'keep', white: 921_000, black: 916_000 });
    expect(r.rows()).toEqual(['ARB take back   ', 'move annulled   ']);
    r.tap('startPause');
    expect(r.rows()).toEqual([preview, '#1 !1 PAUS #1 P1']);
  });

  it("FIDE Laws 7.5.1: after a forfeit the item does not open the choice; it says why (the rule book's command rule)", () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 60 }));
    r.tap('startPause');
    r.time.advanceBy(5_000);
    r.tap('white'); // White present and moved; Black never comes
    r.time.advanceBy(60_000);
    expect(r.state().status).toBe('forfeited');
    r.arbiter();
    r.tap('mode', arbiterItemIndex('takeback') - arbiterItemIndex('reinstate') + ARBITER_ITEMS.length);
    expect(r.rows()[0]).toBe('ARB take back   ');
    r.tap('ok');
    expect(r.rows()).toEqual(['the clock is    ', 'forfeited       ']);
    expect(r.commands.filter((c) => c.type === 'TAKEBACK')).toEqual([]);
  });
});

describe('FIDE Laws 7.5.5: the second illegal move of a player', () => {
  it('FIDE Laws 7.5.5: the second penalty lands on the result item with the opponent’s win chosen; nothing is recorded until ok', () => {
    const r = rig(presetTimeControl('rapid'));
    play(r, 1);
    r.time.advanceBy(5_000);
    r.tap('white'); // illegal
    r.tap('startPause');
    r.arbiter();
    r.toItem('penalty', 'white');
    r.tap('ok'); // the first: +1:00 for Black (rapid), White's count 1
    expect(r.rows()).toEqual(['ARB illegal W   ', 'penalty applied ']);
    r.tap('startPause');
    r.tap('startPause'); // resume
    r.time.advanceBy(5_000);
    r.tap('black');
    r.time.advanceBy(5_000);
    r.tap('white'); // illegal again
    r.tap('startPause');
    r.arbiter();
    r.toItem('penalty', 'white');
    r.tap('ok'); // the second
    expect(r.state().white.illegalMoves).toBe(2);
    expect(r.rows()).toEqual(['7.5.5: W loses  ', '0-1 ok?         ']);
    expect(r.outputs.some((o) => o.type === 'result')).toBe(false); // the arbiter decides
    // The opponent cannot mate? The arbiter chooses the draw instead (+/-).
    r.tap('minus');
    expect(r.rows()).toEqual(['7.5.5: W loses  ', '1/2-1/2 ok?     ']);
    r.tap('plus');
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'RESULT', result: '0-1', by: 'arbiter' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'result', result: '0-1', by: 'arbiter' });
  });

  it('FIDE Laws 7.5.5: a penalty and a take-back of the same illegal move count once: no prompt', () => {
    const r = rig(presetTimeControl('rapid'));
    play(r, 1);
    r.time.advanceBy(5_000);
    r.tap('white');
    r.tap('startPause');
    r.arbiter();
    r.toItem('penalty', 'white');
    r.tap('ok');
    r.tap('mode', arbiterItemIndex('takeback') - arbiterItemIndex('penalty', 'white'));
    r.tap('ok');
    r.tap('ok'); // rewind
    expect(r.state().white.illegalMoves).toBe(1);
    expect(r.rows()).toEqual(['ARB take back   ', 'move annulled   ']);
  });
});

describe('FIDE Laws 6.10.2: a replacement clock and a control set wrongly', () => {
  it('FIDE Laws 6.10.2: counters, times, then "side on move" sets Black on move; the start runs Black’s clock', () => {
    const r = rig(presetTimeControl('classical'));
    r.arbiter(); // ready: a replacement clock is set up before it starts
    r.toItem('moves', 'white');
    r.tap('plus', 20);
    r.tap('mode');
    r.tap('plus', 19);
    r.tap('mode'); // both counters sent
    expect(r.rows()).toEqual(['ARB side on move', 'ok: Black moves ']);
    r.tap('plus'); // White (on move now): ok would change nothing
    expect(r.rows()[1]).toBe('White moves now ');
    r.tap('plus');
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'SET_TURN', side: 'black' });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'turn-set', side: 'black' });
    expect(r.rows()).toEqual(['ARB side on move', 'Black on move   ']);
    r.tap('startPause'); // leave arbiter mode
    r.tap('startPause'); // START
    expect(r.state().status).toBe('running');
    expect(r.state().turn).toBe('black');
    expect(r.rows()).toEqual(['1:30:30 *1:30:30', '#20P1      #19P1']);
  });

  it('FIDE Laws 6.10.2: "control" installs a corrected control chosen like the setup; the confirmation says the times stay', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 900, incrementTiming: 'after-move' }));
    r.tap('white'); // White is present
    play(r, 1);
    r.tap('startPause');
    r.arbiter();
    r.toItem('control');
    expect(r.rows()).toEqual(['ARB control: ok ', '15m +10s        ']);
    r.tap('ok');
    expect(r.rows()).toEqual(['Control         ', 'rapid           ']);
    r.tap('minus'); // classical
    expect(r.rows()[1]).toBe('classical       ');
    const before = readClock(r.state(), r.time.now());
    r.tap('ok');
    expect(r.rows()).toEqual(['times stay, ok? ', 'then adjust them']);
    expect(r.commands.filter((c) => c.type === 'SET_CONTROL')).toEqual([]);
    r.tap('ok');
    const sent = r.commands.at(-1);
    expect(sent).toMatchObject({ type: 'SET_CONTROL' });
    // The game's own default time and increment timing stay; only the periods are corrected.
    expect(sent?.type === 'SET_CONTROL' && sent.timeControl).toEqual(presetTimeControl('classical', { defaultTime: 900, incrementTiming: 'after-move' }));
    expect(r.outputs.at(-1)).toMatchObject({ type: 'control-set', white: before.white, black: before.black });
    expect(r.rows()).toEqual(['ARB control: ok ', 'control set     ']);
  });

  it('FIDE Laws 6.10.2: start/pause leaves the control editor without sending anything', () => {
    const r = rig(presetTimeControl('rapid'));
    play(r, 1);
    r.tap('startPause');
    r.arbiter();
    r.toItem('control');
    r.tap('ok');
    r.tap('plus');
    r.tap('startPause');
    expect(r.rows()).toEqual(['ARB control: ok ', '15m +10s        ']);
    r.tap('ok'); // the editor opens again on the control in force
    r.tap('ok');
    r.tap('mode'); // from the confirmation back to the editor
    expect(r.rows()).toEqual(['Control         ', 'rapid           ']);
    expect(r.commands.filter((c) => c.type === 'SET_CONTROL')).toEqual([]);
  });
});

describe('FIDE Guidelines III.4: the quickplay delay', () => {
  it('FIDE Guidelines III.4: "delay" offers 5 s beside the increment, changes in 1 s steps, ok sends DELAY', () => {
    const r = rig(presetTimeControl('sudden-death-60'));
    play(r, 1);
    r.tap('startPause');
    r.arbiter();
    r.toItem('delay');
    expect(arbiterItemIndex('delay')).toBe(arbiterItemIndex('increment') + 1);
    expect(r.rows()).toEqual(['ARB delay       ', '5s ok           ']);
    r.tap('plus');
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'DELAY', ms: 6_000 });
    expect(r.outputs.at(-1)).toMatchObject({ type: 'delay-set', ms: 6_000 });
    expect(r.rows()).toEqual(['ARB delay       ', 'delay 6s set    ']);
    r.tap('mode', ARBITER_ITEMS.length);
    expect(r.rows()).toEqual(['ARB delay       ', '6s ok now 6s    ']);
  });

  it('FIDE Guidelines III.2.2: in blitz neither the increment nor the delay is offered; ok shows the rule book’s reason and sends nothing', () => {
    const r = rig(presetTimeControl('armageddon'));
    play(r, 1);
    r.tap('startPause');
    for (const kind of ['increment', 'delay'] as const) {
      r.arbiter();
      r.toItem(kind);
      expect(r.rows()[1]).toBe('not in blitz    ');
      r.tap('plus');
      expect(r.rows()[1]).toBe('not in blitz    ');
      r.tap('ok');
      expect(r.rows()).toEqual(['no quickplay    ', 'finish in blitz ']);
      r.tap('startPause'); // leave arbiter mode
    }
    expect(r.commands.filter((c) => c.type === 'INCREMENT' || c.type === 'DELAY')).toEqual([]);
  });
});

describe('FIDE Laws 6.7.1: the double forfeit is the arbiter’s result', () => {
  it('FIDE Laws 6.7.1: neither player present at a default time of 0: both lose; the arbiter records "--" (0-0 both forfeit)', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('startPause');
    r.tap('minus'); // both → neither
    expect(r.rows()).toEqual(['Present? +/- ok ', 'neither         ']);
    r.tap('ok');
    r.time.advanceBy(1);
    expect(r.state().status).toBe('forfeited');
    // The players' result entry offers only the played results.
    r.tap('ok');
    expect(r.menu.getSnapshot().context.result.choices).toEqual(['1-0', '1/2-1/2', '0-1']);
    r.tap('startPause');
    r.arbiter(); // opens on "reinstate" after a forfeit; the result item is next
    r.tap('mode', arbiterItemIndex('result') - arbiterItemIndex('reinstate'));
    expect(r.rows()).toEqual(['ARB result      ', 'choose with +/- ']);
    r.tap('minus'); // from no choice, minus picks the last: the double forfeit
    expect(r.rows()).toEqual(['ARB result      ', '0-0 both forfeit']);
    r.tap('ok');
    expect(r.commands.at(-1)).toMatchObject({ type: 'RESULT', result: '--', by: 'arbiter' });
    r.tap('startPause');
    expect(r.rows()[1]).toBe('0-0 both forfeit');
  });
});

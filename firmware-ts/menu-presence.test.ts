// A start at a default time of 0 (FIDE Laws 6.7.1) through the real menu machine wired to the
// clock statechart (menu-rig.fixture.ts): the clock asks who is present first.
import { describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { rig } from './menu-rig.fixture.ts';

describe('FIDE Laws 6.7.1: a default time of 0 asks who is present before the start', () => {
  it('FIDE Laws 6.7.1: the start key asks first (both preselected); ok sends ARRIVE for each, then START: no seated player is forfeited', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('startPause');
    expect(r.rows()).toEqual(['Present? +/- ok ', 'both W and B    ']);
    expect(r.commands).toEqual([]);
    r.tap('ok');
    expect(r.commands.map((c) => (c.type === 'ARRIVE' ? `${c.type} ${c.side}` : c.type))).toEqual(['ARRIVE white', 'ARRIVE black', 'START']);
    r.time.advanceBy(60_000);
    expect(r.state().status).toBe('running');
    expect(r.outputs.some((o) => o.type === 'forfeit')).toBe(false);
  });

  it('FIDE Laws 6.7.1: start/pause at the question cancels: the clock stays ready and nothing is sent', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('startPause');
    r.tap('plus');
    r.tap('startPause');
    expect(r.commands).toEqual([]);
    expect(r.state().status).toBe('ready');
    expect(r.rows()[1]).toBe('#0 P1 REDY #0 P1');
  });

  it('FIDE Laws 6.7.1: Black’s lever while ready (which starts White’s clock) asks too; "Black only" forfeits White at once', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('black');
    expect(r.rows()[0]).toBe('Present? +/- ok ');
    r.tap('plus', 2); // both → White only → Black only
    expect(r.rows()[1]).toBe('Black only      ');
    r.tap('ok');
    r.time.advanceBy(1);
    expect(r.outputs.filter((o) => o.type === 'forfeit')).toMatchObject([{ side: 'white' }]);
  });

  it('FIDE Laws 6.7.1: no question when both are marked present, when the lever is the on-move side’s, or with a default time above 0', () => {
    const zero = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    zero.tap('white'); // White's own lever while ready: present, nothing starts
    expect(zero.commands).toEqual([{ type: 'PRESS', side: 'white', at: 0 }]);
    zero.arbiter();
    zero.toItem('arrive', 'black');
    zero.tap('ok');
    zero.tap('startPause');
    zero.tap('startPause'); // both present: the start key starts
    expect(zero.commands.at(-1)).toMatchObject({ type: 'START' });
    expect(zero.state().status).toBe('running');
    const fifteen = rig(presetTimeControl('rapid', { defaultTime: 900 }));
    fifteen.tap('startPause');
    expect(fifteen.commands).toEqual([{ type: 'START', at: 0 }]);
  });

  it('FIDE Laws 6.7.1: with White marked present only "both" and "White only" are offered (an arrival is never taken back)', () => {
    const r = rig(presetTimeControl('rapid', { defaultTime: 0 }));
    r.tap('white');
    r.tap('startPause');
    expect(r.menu.getSnapshot().context.presence.choices).toEqual(['both', 'white']);
    r.tap('ok');
    expect(r.commands.slice(1).map((c) => c.type)).toEqual(['ARRIVE', 'START']);
    expect(r.commands[1]).toMatchObject({ side: 'black' });
  });
});

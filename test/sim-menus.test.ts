// The menus at the clock, driven through the virtual board's keys (docs/firmware.md "Keys").
import { afterEach, describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';

const clocks: VirtualClock[] = [];
afterEach(async () => {
  for (const c of clocks.splice(0)) await c.stop();
});
async function boot(preset: Parameters<typeof presetTimeControl>[0]): Promise<VirtualClock> {
  const c = await VirtualClock.boot({ timeControl: presetTimeControl(preset) });
  clocks.push(c);
  return c;
}
const taps = async (c: VirtualClock, key: Parameters<VirtualClock['tap']>[0], n: number) => {
  for (let i = 0; i < n; i++) await c.tap(key);
};

describe('arbiter mode (FIDE equipment standard (j): time and move-counter corrections by the arbiter)', () => {
  it('changes a time in steps of 1 min / 10 s / 1 s, sent as one ADJUST when leaving the item (Laws 6.10.2)', async () => {
    const c = await boot('rapid');
    await c.tap('startPause');
    c.advance(30_000);
    await c.tap('startPause'); // paused: White has 880 000 ms
    await c.hold(['mode', 'ok'], 2_000);
    await c.tap('plus'); // +1:00
    await c.tap('ok'); // step 10 s
    await c.tap('minus'); // −0:10
    await c.tap('ok'); // step 1 s
    await taps(c, 'plus', 3); // +0:03
    expect(c.screen()).toEqual(['ARB W time 1s   ', '15:33 +0:53     ']);
    expect(c.outputs.filter((o) => o.type === 'adjusted')).toHaveLength(0); // nothing sent yet
    await c.tap('mode'); // leaving the item commits it
    expect(c.outputs.at(-1)).toMatchObject({ type: 'adjusted', side: 'white', ms: 53_000, reason: 'arbiter', white: 933_000 });
    expect(c.screen()[0]).toBe('ARB B time 1m   ');
  });

  it('FIDE Laws 6.10.2: sets a move counter with SET_MOVES; the period follows from the count', async () => {
    const c = await boot('classical');
    await c.tap('startPause');
    for (let i = 0; i < 3; i++) {
      c.advance(10_000);
      await c.tap('white');
      c.advance(10_000);
      await c.tap('black');
    }
    await c.tap('startPause');
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', 2); // White moves
    expect(c.screen()).toEqual(['ARB W moves     ', '3               ']);
    await taps(c, 'plus', 2);
    await c.tap('ok');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'moves-set', side: 'white', moves: 5, period: 0 });
    expect(c.screen()[1]).toBe('set             ');
    await c.tap('mode'); // Black moves
    await taps(c, 'plus', 37); // 3 → 40: Black's next move is in the second period
    await c.tap('startPause'); // leaving arbiter mode commits too
    expect(c.outputs.at(-1)).toMatchObject({ type: 'moves-set', side: 'black', moves: 40, period: 1 });
    expect(c.screen()[1]).toBe('#5 P1 PAUS #40P2');
  });
});

describe('setup menu', () => {
  it('edits a custom multi-stage control: 2 stages, 30 moves in 60 min +10 s, then 15 min +10 s', async () => {
    const c = await boot('rapid');
    await c.tap('mode');
    expect(c.screen()[1]).toBe('rapid           '); // setup opens on the clock's control
    await taps(c, 'plus', 3); // rapid → armageddon → sudden-death-60 → custom
    expect(c.screen()).toEqual(['Control: custom ', '15m +10s        ']); // custom, starting from the rapid stages
    await c.tap('mode');
    expect(c.screen()).toEqual(['Custom: stages  ', '1               ']);
    await c.tap('plus'); // a second stage (40 moves, 30 min, +30 s by default)
    await c.tap('mode');
    expect(c.screen()).toEqual(['Stage 1 moves   ', '40              ']);
    await taps(c, 'minus', 10); // 40 → 30
    await c.tap('mode');
    await taps(c, 'plus', 45); // 15 → 60 min
    await c.tap('mode'); // stage 1 increment stays 10 s
    await c.tap('mode');
    expect(c.screen()).toEqual(['Stage 2 minutes ', '30              ']);
    await taps(c, 'minus', 15); // 30 → 15 min
    await c.tap('mode');
    await taps(c, 'minus', 20); // 30 → 10 s
    await c.tap('ok');
    const tc = c.firmware.state().timeControl;
    expect(tc.white.stages.map((s) => [s.moves, s.baseMs, s.incrementMs])).toEqual([
      [30, 3_600_000, 10_000],
      [null, 900_000, 10_000],
    ]);
    expect(c.screen()[0]).toBe('1:00:10  1:00:10');
  });

  it('switches the flag beep off', async () => {
    const c = await boot('armageddon');
    await c.tap('mode');
    await taps(c, 'mode', 2);
    expect(c.screen()).toEqual(['Sound at flag   ', 'on              ']);
    await c.tap('plus');
    await c.tap('ok');
    await c.tap('startPause');
    c.advance(360_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(c.outputs.at(-1)).toMatchObject({ type: 'flag' });
    expect(c.board.toneLog).toHaveLength(0);
  });
});

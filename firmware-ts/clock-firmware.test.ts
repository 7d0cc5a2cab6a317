// The firmware on the simulated board (Johnny-Five over the virtual Uno, LCD decoded from the
// I2C bytes): the arbiter's new powers from the keys, and a finished game staying finished.
import { afterEach, describe, expect, it } from 'vitest';
import { presetTimeControl, type TimeControl } from '../protocol/time-control.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { arbiterItemIndex } from './menu-arbiter.ts';
import { memorySnapshotStore } from './snapshot-store.ts';

const clocks: VirtualClock[] = [];
afterEach(async () => {
  for (const c of clocks.splice(0)) await c.stop();
});
async function boot(timeControl: TimeControl, snapshots?: ReturnType<typeof memorySnapshotStore>): Promise<VirtualClock> {
  const c = await VirtualClock.boot({ timeControl, snapshots });
  clocks.push(c);
  return c;
}
async function taps(c: VirtualClock, key: Parameters<VirtualClock['tap']>[0], n: number): Promise<void> {
  for (let i = 0; i < n; i++) await c.tap(key);
}

describe('the clock firmware: arbiter powers and results', () => {
  it('FIDE Laws 7.5.1, 7.1: the arbiter takes back an illegal move from the menu, seeing both clocks after rewinding or keeping the times; the LCD counts it (!1)', async () => {
    const c = await boot(presetTimeControl('rapid'));
    await c.tap('startPause');
    c.advance(5_000);
    await c.tap('white');
    c.advance(3_000);
    await c.tap('black');
    c.advance(4_000);
    await c.tap('white'); // White's second move is illegal
    c.advance(1_000);
    await c.tap('startPause'); // Black stops the clock and calls the arbiter
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', arbiterItemIndex('takeback'));
    expect(c.screen()).toEqual(['ARB take back   ', 'ok: annul W #2  ']);
    await c.tap('ok');
    // The LCD (decoded from the I2C bytes) shows what each choice will show, from the rule book.
    expect(c.screen()).toEqual(['rewind times +/-', '  15:11  15:17  ']);
    await c.tap('plus');
    expect(c.screen()).toEqual(['keep times   +/-', '  15:21  15:16  ']);
    await c.tap('minus');
    expect(c.outputs.some((o) => o.type === 'takeback')).toBe(false);
    await c.tap('ok');
    // Both clocks as at the illegal press, before its 10 s increment; Black's second back.
    expect(c.outputs.at(-1)).toEqual({
      type: 'takeback',
      at: 15_000,
      side: 'white',
      move: 1,
      illegalMoves: 1,
      times: 'rewind',
      white: 911_000,
      black: 917_000,
    });
    expect(c.screen()[1]).toBe('move annulled   ');
    await c.tap('startPause'); // leave arbiter mode
    expect(c.screen()).toEqual(['  15:11  15:17  ', '#1 !1 PAUS #1 P1']);
    await c.tap('startPause'); // resume: White is on move again
    c.advance(2_000);
    await c.tap('white');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'move', side: 'white', move: 2, white: 919_000 });
    // The annulment is in the snapshot-worthy state: illegal moves stay counted.
    expect(c.firmware.reading().illegalMoves).toEqual({ white: 1, black: 0 });
  });

  it('FIDE Laws 6.9: after a flag the result menu preselects nothing; a game with a result is not resumed by start/pause', async () => {
    const c = await boot(presetTimeControl('armageddon'));
    await c.tap('startPause');
    c.advance(10_000);
    await c.tap('white');
    c.advance(300_000); // Black's flag
    await c.tap('ok');
    expect(c.firmware.menu.getSnapshot().context.result.choice).toBeNull();
    expect(c.screen()).toEqual(['Result? +/- ok  ', '-- 1-0 or =     ']);
    await c.tap('ok'); // nothing chosen: nothing happens
    await c.tap('white');
    await c.tap('black');
    expect(c.results).toHaveLength(0);
    expect(c.outputs.some((o) => o.type === 'result')).toBe(false);
    await c.tap('plus'); // 1-0
    await c.tap('ok');
    await c.tap('white');
    await c.tap('black');
    expect(c.outputs.at(-1)).toEqual({ type: 'result', at: 310_000, result: '1-0', by: 'players' });
    expect(c.results).toEqual([{ type: 'result', at: 310_000, result: '1-0', by: 'players' }]);
    expect(c.firmware.reading().result).toBe('1-0');
    // The arbiter gives Black time, then someone presses start/pause: the game stays over.
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', arbiterItemIndex('time', 'black'));
    await c.tap('plus');
    await c.tap('mode'); // commits the ADJUST: refused, the game is over; the reason shows
    expect(c.outputs.at(-1)).toMatchObject({ type: 'rejected', input: 'ADJUST', reason: 'the game is over: it has a result' });
    expect(c.screen()).toEqual(['the game is over', '                ']);
    await c.tap('startPause'); // leave arbiter mode
    await c.tap('startPause'); // RESUME: refused
    expect(c.outputs.at(-1)).toMatchObject({ type: 'rejected', input: 'RESUME' });
    c.advance(60_000);
    expect(c.screen()).toEqual(['   5:50 F0.0    ', 'Result 1-0      ']);
    expect(c.firmware.reading().status).toBe('flagged');
  });

  it('FIDE Laws 6.9: a result from the host (showResult) is the statechart’s RESULT by the host; a new game clears it', async () => {
    const c = await boot(presetTimeControl('rapid'));
    await c.tap('startPause');
    c.advance(30_000);
    c.firmware.showResult('1/2-1/2'); // the arbiter at the host, while the clock runs: it stops
    expect(c.outputs.at(-1)).toEqual({ type: 'result', at: 30_000, result: '1/2-1/2', by: 'host' });
    expect(c.results).toHaveLength(0); // the host's own result is not echoed back to it
    expect(c.screen()).toEqual(['  14:40  15:10  ', 'Result 1/2-1/2  ']);
    await c.tap('startPause');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'rejected', input: 'RESUME' });
    c.firmware.showResult(null); // records nothing
    expect(c.firmware.reading().result).toBe('1/2-1/2');
    await c.tap('mode'); // setup opens once the game is over
    await c.tap('ok'); // the same control: NEW_GAME
    expect(c.outputs.at(-1)).toMatchObject({ type: 'new-game' });
    expect(c.screen()).toEqual(['  15:10  15:10  ', '#0 P1 REDY #0 P1']);
  });

  it('FIDE Laws 6.7.1: the LCD repaints the default-time countdown as it changes, also while paused', async () => {
    const c = await boot(presetTimeControl('sudden-death-60', { defaultTime: 900 }));
    await c.tap('startPause');
    c.advance(28_000);
    await c.tap('white'); // Black is away
    await c.tap('startPause');
    expect(c.screen()).toEqual(['  59:32 ?1:00:00', '#1  DT 14:32   ?']);
    c.advance(1_000); // nothing else repaints while paused: the countdown's own schedule does
    expect(c.screen()[1]).toBe('#1  DT 14:31   ?');
    c.advance(870_000);
    expect(c.screen()[1]).toBe('#1   DT 1.0    ?');
    c.advance(1_000);
    expect(c.outputs.at(-1)).toEqual({ type: 'forfeit', at: 900_000, side: 'black' });
    expect(c.screen()).toEqual(['  59:32 X1:00:00', '#1 P1 DEFT #0 P1']);
  });
});

describe('the clock firmware: a second illegal move and a start at a default time of 0', () => {
  it('FIDE Laws 7.5.5: a second illegal move taken back (times kept) shows that White loses and asks the arbiter for the result', async () => {
    const c = await boot(presetTimeControl('rapid'));
    await c.tap('startPause');
    c.advance(5_000);
    await c.tap('white'); // illegal
    await c.tap('startPause');
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', arbiterItemIndex('takeback'));
    await c.tap('ok');
    await c.tap('ok'); // rewind: White's count 1
    expect(c.screen()).toEqual(['ARB take back   ', 'move annulled   ']);
    await c.tap('startPause');
    await c.tap('startPause'); // resume
    c.advance(4_000);
    await c.tap('white'); // illegal again
    await c.tap('startPause');
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', arbiterItemIndex('takeback'));
    await c.tap('ok');
    await c.tap('plus'); // keep the times
    await c.tap('ok');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'takeback', side: 'white', illegalMoves: 2, times: 'keep' });
    // The clock says what Laws 7.5.5 makes of it, with Black's win chosen; it records nothing itself.
    expect(c.screen()).toEqual(['7.5.5: W loses  ', '0-1 ok?         ']);
    expect(c.outputs.some((o) => o.type === 'result')).toBe(false);
    await c.tap('ok');
    expect(c.results).toEqual([{ type: 'result', at: c.time.now(), result: '0-1', by: 'arbiter' }]);
    await c.tap('startPause');
    expect(c.screen()[1]).toBe('Result 0-1      ');
  });

  it('FIDE Laws 6.7.1: with a default time of 0 the start key asks who is present; both (preselected) arrive and nobody is forfeited', async () => {
    const c = await boot(presetTimeControl('sudden-death-60', { defaultTime: 0 }));
    expect(c.screen()[0]).toBe('1:00:00??1:00:00');
    await c.tap('startPause');
    expect(c.screen()).toEqual(['Present? +/- ok ', 'both W and B    ']);
    expect(c.outputs).toEqual([]); // nothing sent yet: the clock is still ready
    await c.tap('ok');
    expect(c.outputs.map((o) => o.type)).toEqual(['arrived', 'arrived', 'started']);
    c.advance(30_000);
    expect(c.outputs.some((o) => o.type === 'forfeit')).toBe(false);
    expect(c.screen()).toEqual(['  59:30* 1:00:00', '#0 P1      #0 P1']);
  });

  it('FIDE Laws 6.7.1: with a default time of 0 Black’s lever while ready asks too; "White only" forfeits the absent Black at the start', async () => {
    const c = await boot(presetTimeControl('sudden-death-60', { defaultTime: 0 }));
    await c.tap('black');
    expect(c.screen()).toEqual(['Present? +/- ok ', 'both W and B    ']);
    await c.tap('plus');
    expect(c.screen()[1]).toBe('White only      ');
    await c.tap('ok');
    c.advance(0); // the forfeit deadline is the start instant itself
    expect(c.outputs).toMatchObject([{ type: 'arrived', side: 'white' }, { type: 'started' }, { type: 'forfeit', side: 'black', at: 0 }]);
    expect(c.screen()).toEqual(['1:00:00 X1:00:00', '#0 P1 DEFT #0 P1']);
  });
});

describe('the clock firmware: the arbiter’s new corrections survive a power cut', () => {
  it('FIDE Laws 6.10.2, Guidelines III.4: the side on move, a corrected control and the quickplay delay set from the menu are saved at once', async () => {
    const snapshots = memorySnapshotStore();
    const c = await boot(presetTimeControl('rapid'), snapshots);
    await c.tap('startPause');
    c.advance(5_000);
    await c.tap('white');
    c.advance(5_000);
    await c.tap('startPause');
    await c.hold(['mode', 'ok'], 2_000);
    await taps(c, 'mode', arbiterItemIndex('turn'));
    await c.tap('ok'); // White on move (Black's move was not made on this clock)
    expect(snapshots.load()?.turn).toBe('white');
    await c.tap('mode'); // control
    await c.tap('ok');
    await c.tap('minus'); // classical
    await c.tap('ok');
    await c.tap('ok');
    expect(snapshots.load()).toMatchObject({ controlCorrected: true, timeControl: presetTimeControl('classical') });
    await taps(c, 'mode', arbiterItemIndex('delay') - arbiterItemIndex('control'));
    await c.tap('ok');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'delay-set', ms: 5_000 });
    expect(snapshots.load()?.extraDelayMs).toBe(5_000);
  });
});

// End-to-end on the simulator: the unchanged firmware on a virtual Uno (Johnny-Five over a
// mock-firmata IO plugin), keys pressed through the captured digitalRead callbacks, the
// LCD read back by decoding the PCF8574/HD44780 bytes, time simulated. Each scenario is
// checked on the LCD text and on the events the firmware hands to the host link.
import { afterEach, describe, expect, it } from 'vitest';
import { presetTimeControl } from '../protocol/time-control.ts';
import { arbiterItemIndex } from '../firmware-ts/menu-arbiter.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';

const clocks: VirtualClock[] = [];
async function boot(...args: Parameters<typeof VirtualClock.boot>): Promise<VirtualClock> {
  const c = await VirtualClock.boot(...args);
  clocks.push(c);
  return c;
}
afterEach(() => {
  for (const c of clocks.splice(0)) c.stop();
});

describe('simulated board: full games through the firmware', () => {
  it('classical 40/5400+30:900+30 crosses the move-40 bonus (FIDE Laws 6.1 periods; increment before the move)', async () => {
    const c = await boot({ timeControl: presetTimeControl('classical') });
    // Before the start both sides hold 90 min + the first 30 s increment: a DGT shows 1:30:30.
    expect(c.screen()).toEqual(['1:30:30  1:30:30', '#0 P1 REDY #0 P1']);
    await c.tap('startPause');
    expect(c.board.led('white')).toBe(true);
    for (let move = 1; move <= 40; move++) {
      c.advance(60_000); // each side thinks exactly one minute per move
      await c.tap('white');
      c.advance(60_000);
      await c.tap('black');
    }
    // Each move nets −60 s + 30 s: 5 430 000 − 40 × 30 000 = 4 230 000, then the second
    // period's 15 min are added at the 40th press: 5 130 000 ms = 1:25:30 for both.
    const moves = c.outputs.filter((o) => o.type === 'move');
    expect(moves).toHaveLength(80);
    expect(moves[78]).toEqual({ type: 'move', at: 79 * 60_000, side: 'white', move: 40, white: 5_130_000, black: 4_260_000 });
    expect(moves[79]).toEqual({ type: 'move', at: 80 * 60_000, side: 'black', move: 40, white: 5_130_000, black: 5_130_000 });
    expect(c.screen()).toEqual(['1:25:30* 1:25:30', '#40P2      #40P2']);
    // Move 41 is in the second period: 30 s increment still, no further bonus.
    c.advance(90_000);
    expect(c.screen()[0]).toBe('1:24:00* 1:25:30');
    await c.tap('white');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'move', side: 'white', move: 41, white: 5_070_000 });
    expect(c.screen()).toEqual(['1:24:30 *1:25:30', '#41P2      #40P2']);
    expect([c.board.led('white'), c.board.led('black')]).toEqual([false, true]);
  });

  it('armageddon: Black’s flag falls at the exact instant and stays marked (FIDE equipment standard (e)); one beep', async () => {
    const c = await boot({ timeControl: presetTimeControl('armageddon'), sound: true });
    expect(c.screen()[0]).toBe('   6:00  5:00   ');
    await c.tap('startPause');
    c.advance(10_000);
    await c.tap('white');
    c.advance(299_999); // Black has 1 ms left
    expect(c.screen()[0]).toBe('   5:50 *0.1    ');
    expect(c.outputs.some((o) => o.type === 'flag')).toBe(false);
    c.advance(1);
    expect(c.outputs.at(-1)).toEqual({ type: 'flag', at: 310_000, side: 'black', white: 350_000, black: 0 });
    expect(c.screen()).toEqual(['   5:50 F0.0    ', '#1 P1 FLAG #0 P1']);
    expect([c.board.led('white'), c.board.led('black')]).toEqual([false, false]);
    await new Promise((r) => setTimeout(r, 50)); // five.Piezo toggles the pin on its own (real) timer
    expect(c.board.toneLog).toHaveLength(1);
    expect(c.board.toneLog[0].at).toBe(310_000);
    // A late press changes nothing; the mark stays.
    await c.tap('black');
    c.advance(60_000);
    expect(c.screen()[0]).toBe('   5:50 F0.0    ');
  });

  it('the piezo stays silent at a flag when switched off', async () => {
    const c = await boot({ timeControl: presetTimeControl('armageddon'), sound: false });
    await c.tap('startPause');
    c.advance(360_000);
    expect(c.outputs.at(-1)).toMatchObject({ type: 'flag', side: 'white' });
    await new Promise((r) => setTimeout(r, 50));
    expect(c.board.toneLog).toHaveLength(0);
  });

  it('forfeit at 15:00: Black never arrives (Ivanovo regulation, FIDE Laws 6.7.1 default time)', async () => {
    const c = await boot({ timeControl: presetTimeControl('sudden-death-60', { defaultTime: 900 }) });
    // Nobody is at the board yet: both marked absent.
    expect(c.screen()[0]).toBe('1:00:00??1:00:00');
    await c.tap('startPause');
    c.advance(60_000);
    await c.tap('white'); // White arrives, moves and presses
    expect(c.screen()[0]).toBe('  59:00 *1:00:00');
    c.advance(900_000 - 60_000 - 1);
    expect(c.outputs.some((o) => o.type === 'forfeit')).toBe(false);
    c.advance(1);
    expect(c.outputs.at(-1)).toEqual({ type: 'forfeit', at: 900_000, side: 'black' });
    // Black's clock ran from 60 000 to 900 000: 1:00:00 − 14:00 = 46:00.
    expect(c.screen()).toEqual(['  59:00 X46:00  ', '#1 P1 DEFT #0 P1']);
  });

  it('arbiter penalty: hold mode+ok 2 s while paused, illegal move by White gives Black +2 min (FIDE Laws 7.5.5)', async () => {
    const c = await boot({ timeControl: presetTimeControl('classical') });
    await c.tap('startPause');
    c.advance(30_000);
    await c.tap('white');
    c.advance(45_000);
    await c.tap('startPause'); // a player stops the clock to call the arbiter (Laws 6.12.2)
    expect(c.screen()).toEqual(['1:30:30  1:29:45', '#1 P1 PAUS #0 P1']);
    // Holding the combination for less than 2 s does nothing.
    await c.hold(['mode', 'ok'], 1_999);
    expect(c.screen()[1]).toBe('#1 P1 PAUS #0 P1');
    await c.hold(['mode', 'ok'], 2_000);
    expect(c.screen()).toEqual(['ARB W time 1m   ', '1:30:30         ']);
    for (let i = 0; i < arbiterItemIndex('penalty', 'white'); i++) await c.tap('mode');
    expect(c.screen()).toEqual(['ARB illegal W   ', 'ok:+2:00 B      ']);
    await c.tap('ok');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'adjusted', side: 'black', ms: 120_000, reason: 'penalty', black: 5_505_000 });
    expect(c.screen()[1]).toBe('penalty applied ');
    await c.tap('startPause'); // leave arbiter mode
    // The penalty records White's illegal move: the LCD counts it where the period stood (!1).
    expect(c.screen()).toEqual(['1:30:30  1:31:45', '#1 !1 PAUS #0 P1']);
    await c.tap('startPause'); // resume
    expect(c.outputs.at(-1)).toMatchObject({ type: 'resumed' });
    c.advance(5_000);
    expect(c.screen()[0]).toBe('1:30:30 *1:31:40');
  });

  it('players cannot open arbiter mode or setup while the clock runs', async () => {
    const c = await boot({ timeControl: presetTimeControl('rapid') });
    await c.tap('startPause');
    await c.hold(['mode', 'ok'], 3_000);
    await c.tap('mode');
    expect(c.screen()[1]).toBe('#0 P1      #0 P1');
    expect(c.outputs.filter((o) => o.type === 'adjusted')).toHaveLength(0);
  });

  it('power cut: the snapshot taken at the last press restores the game paused, exactly there, once the arbiter confirms', async () => {
    const snapshots = memorySnapshotStore();
    const before = await boot({ timeControl: presetTimeControl('classical'), snapshots });
    await before.tap('startPause');
    before.advance(100_000);
    await before.tap('white');
    before.advance(200_000);
    await before.tap('black');
    const lastPress = before.outputs.at(-1);
    expect(lastPress).toEqual({ type: 'move', at: 300_000, side: 'black', move: 1, white: 5_360_000, black: 5_260_000 });
    before.advance(25_000); // White thinks... and the power goes
    before.stop();

    // A new process: its monotonic clock starts again near zero.
    const after = await boot({ timeControl: presetTimeControl('rapid'), snapshots, time: new SimulatedTime(0) });
    expect(after.firmware.restored).toBe(true);
    // The restored game keeps its own control (classical), paused at the last press.
    expect(after.screen()).toEqual(['1:29:20  1:27:40', 'RESTORED ok/mode']);
    await after.tap('ok'); // the arbiter keeps it
    expect(after.screen()).toEqual(['1:29:20  1:27:40', '#1 P1 PAUS #1 P1']);
    await after.tap('startPause');
    after.advance(40_000);
    await after.tap('white');
    // White's turn resumed from the snapshot: 5 360 000 − 40 000 + 30 000.
    expect(after.outputs.at(-1)).toMatchObject({ type: 'move', side: 'white', move: 2, white: 5_350_000, black: 5_260_000 });
    expect(after.screen()[0]).toBe('1:29:10 *1:27:40');
  });

  it('FIDE Laws 6.9 result entry after a flag: nothing preselected, both players confirm with their levers; the arbiter can override', async () => {
    const c = await boot({ timeControl: presetTimeControl('armageddon') });
    await c.tap('startPause');
    c.advance(360_000); // White's flag
    await c.tap('ok');
    // Only Black's win or a draw (Black cannot mate), and neither chosen: ok alone records nothing.
    expect(c.screen()).toEqual(['Result? +/- ok  ', '-- = or 0-1     ']);
    await c.tap('ok');
    expect(c.screen()[0]).toBe('Result? +/- ok  ');
    await c.tap('minus'); // from no choice, minus picks the last: 0-1
    expect(c.screen()[1]).toBe('0-1             ');
    await c.tap('ok');
    await c.tap('white');
    expect(c.screen()).toEqual(['Confirm: levers ', '0-1    Wok B--  ']);
    expect(c.results).toHaveLength(0);
    await c.tap('black');
    expect(c.results).toEqual([{ type: 'result', result: '0-1', by: 'players', at: 360_000 }]);
    expect(c.outputs.at(-1)).toEqual({ type: 'result', result: '0-1', by: 'players', at: 360_000 });
    expect(c.firmware.reading().result).toBe('0-1');
    expect(c.screen()[1]).toBe('Result 0-1      ');
    // Arbiter override: mode+ok 2 s (a flag has fallen), to the result item, choose, ok.
    await c.hold(['mode', 'ok'], 2_000);
    for (let i = 0; i < arbiterItemIndex('result'); i++) await c.tap('mode');
    expect(c.screen()).toEqual(['ARB result      ', 'choose with +/- ']);
    await c.tap('ok'); // nothing chosen: nothing recorded
    expect(c.results).toHaveLength(1);
    await c.tap('plus');
    await c.tap('ok');
    expect(c.results.at(-1)).toMatchObject({ type: 'result', result: '1-0', by: 'arbiter' });
    await c.tap('startPause');
    expect(c.screen()[1]).toBe('Result 1-0      ');
  });

  it('setup before the game: choose the armageddon preset and a 15 min default time', async () => {
    const c = await boot({ timeControl: presetTimeControl('classical') });
    await c.tap('mode');
    expect(c.screen()).toEqual(['Control         ', 'classical       ']);
    await c.tap('plus');
    await c.tap('plus');
    expect(c.screen()[1]).toBe('armageddon      ');
    await c.tap('mode');
    expect(c.screen()).toEqual(['Default time    ', 'none            ']);
    for (let i = 0; i < 4; i++) await c.tap('plus');
    expect(c.screen()[1]).toBe('15 min          ');
    await c.tap('ok');
    expect(c.outputs.at(-1)).toMatchObject({ type: 'new-game' });
    expect(c.firmware.state().timeControl.defaultTimeMs).toBe(900_000);
    expect(c.screen()[0]).toBe('   6:00??5:00   ');
  });
});

// The clock's state on disk survives a firmware update mid-game: a file written before the clock
// kept each turn's delay, the quickplay delay, the open illegal-move record and a corrected
// control still loads, and the game goes on exactly as that firmware would have run it
// (docs/firmware.md, power cut; FIDE Laws 6.10.1: the arbiter resumes a restored clock).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActor } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSideControl, timeControl } from '../protocol/time-control.ts';
import { clockMachine, type ClockOutput } from '../rules/clock.machine.ts';
import { readClock } from '../rules/clock-reading.ts';
import { StepClock } from '../rules/step-clock.ts';
import { fileSnapshotStore } from './snapshot-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A state as the older firmware wrote it: the newer fields dropped, at every level. */
function olderFile(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) =>
    ['turnPeriod', 'turnExtraDelayMs', 'extraDelayMs', 'illegalOpen', 'controlCorrected'].includes(key) ? undefined : v,
  );
}

describe('a clock state saved by an older firmware (FIDE Laws 6.10.1: the game goes on where it stood)', () => {
  it('loads, resumes with the delay of the period the side is in, and its moves can still be taken back (Laws 7.5.1)', () => {
    const side = parseSideControl([{ seconds: 60, delay: 5, delayMode: 'simple' }]);
    const tc = timeControl(side, side);
    const clock = new StepClock();
    const played = createActor(clockMachine, { input: { timeControl: tc }, clock });
    played.start();
    for (const e of [
      { type: 'START', at: 0 },
      { type: 'PRESS', side: 'white', at: 7000 },
      { type: 'PRESS', side: 'black', at: 9000 },
    ] as const) {
      clock.advanceTo(e.at);
      played.send(e);
    }
    const state = played.getSnapshot().context.clock;
    played.stop();
    const dir = mkdtempSync(join(tmpdir(), 'clock-state-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'clock-state.json'), JSON.stringify(olderFile(state)));

    const loaded = fileSnapshotStore(dir).load()!;
    expect([loaded.turnPeriod, loaded.turnExtraDelayMs, loaded.extraDelayMs, loaded.white.illegalOpen, loaded.controlCorrected]).toEqual([
      0,
      0,
      0,
      null,
      false,
    ]);
    const again = new StepClock();
    again.advanceTo(100_000);
    const resumed = createActor(clockMachine, { input: { timeControl: tc, restore: { ...loaded, lastAt: 100_000, runningSince: 100_000 } }, clock: again });
    const outs: ClockOutput[] = [];
    resumed.on('*', (o) => outs.push(o as ClockOutput));
    resumed.start();
    // The power cut left it paused: White on move, 60 000 − 2 000 (7 s, 5 free) = 58 000.
    expect(readClock(resumed.getSnapshot().context.clock, 100_000)).toMatchObject({ status: 'paused', turn: 'white', white: 58000, black: 60000 });
    resumed.send({ type: 'TAKEBACK', at: 100_500 });
    expect(outs.at(-1)).toMatchObject({ type: 'takeback', side: 'black', white: 58000, black: 60000 });
    resumed.send({ type: 'RESUME', at: 101_000 });
    again.advanceTo(104_000);
    resumed.send({ type: 'PRESS', side: 'black', at: 104_000 });
    // Black's turn: 2 s before the cut, 3 s after: 5 s, all within its 5 s delay.
    expect(outs.at(-1)).toMatchObject({ type: 'move', side: 'black', move: 1, black: 60000 });
    resumed.stop();
  });
});

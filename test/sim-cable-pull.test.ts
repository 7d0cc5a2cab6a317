// A cable pull between a clock and the host, over real ptys (socat) with the real serialport
// package (docs/reliability.md "Faults": cable pull): the device vanishes under both ends (socat killed), the
// players go on pressing, and a new device appears at the same stable path (as a USB clock
// gets its /dev/serial/by-id name back). The clock reopens its line with backoff
// (firmware-ts/host-line.ts, what `chessclock sim --link` and `clock --link` run), the host
// reopens its end, and every press made while the cable was out is journaled exactly once.
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPtyPair, ptySkipReason, systemTime, type PtyPair } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { linkClockOverReopeningLine, type HostLineEvent, type ReopeningClockLink } from '../firmware-ts/host-line.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { Host } from '../host/app/host.ts';
import { Journal } from '../host/store/journal.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { journalOutboxTopic } from '../host/adapters/mqtt/journal-topics.ts';
import { loadSloHall, START } from './e2e-match.ts';
import { flowing, simulatedHall, waitFor } from './e2e-harness.ts';

const skip = ptySkipReason();
if (skip) console.warn(`sim-cable-pull: ${skip}`);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A pty pair whose ends are reached by stable names, as /dev/serial/by-id/… is. */
async function cable(dir: string): Promise<PtyPair> {
  const pty = await openPtyPair();
  for (const [name, target] of [
    ['host-end', pty.a],
    ['clock-end', pty.b],
  ] as const) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // first cable
    }
    symlinkSync(target, join(dir, name));
  }
  return pty;
}

describe.skipIf(skip !== null)('a cable pull on a real serial line (Debian package `socat`)', () => {
  it('the clock reopens its line with backoff and the presses made while it was out are journaled once (docs/reliability.md)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cable-pull-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let pty = await cable(dir);
    cleanups.push(() => pty.close());
    const { sim, hostClock } = simulatedHall(START);
    const journal = new Journal(join(dir, 'clocks.db'), { outboxTopic: journalOutboxTopic });
    cleanups.push(() => journal.close());
    const host = new Host({ journal, hall: loadSloHall(), clock: hostClock, backoff: { initialMs: 50, maxMs: 400 } }).start();
    cleanups.push(() => host.close());
    host.addLine(join(dir, 'host-end'), openSerialLine(join(dir, 'host-end')), { table: 1 });

    const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid'), time: sim });
    cleanups.push(() => clock.stop());
    const lineEvents: HostLineEvent[] = [];
    const link: ReopeningClockLink = await linkClockOverReopeningLine(clock.firmware, join(dir, 'clock-end'), {
      serialId: 'CLK-01',
      timers: systemTime,
      statusIntervalMs: 200,
      backoff: { initialMs: 50, maxMs: 400 },
      onEvent: (e) => lineEvents.push(e),
    });
    cleanups.push(() => link.close('test over'));
    const moved = () => journal.eventsAfter(0, 1_000).filter((e) => e.type === 'moved');

    // The host configures the clock for board 1's first game, and the game starts.
    await waitFor(
      'the clock configured by the host',
      () => journal.arbiterActions().some((a) => a.action === 'configure-clock' && a.outcome === 'applied'),
      15_000,
      flowing(sim),
    );
    await clock.tap('startPause');
    // What the clock itself shows right after each press: the journal must hold exactly that.
    const atClock: unknown[][] = [];
    const press = async (side: 'white' | 'black') => {
      await clock.tap(side);
      const r = clock.firmware.reading();
      atClock.push([side, r.white, r.black]);
    };
    sim.advanceBy(4_000);
    await press('white');
    await waitFor('the first press journaled', () => moved().length === 1, 15_000, flowing(sim));

    // The cable is pulled: the device is gone under both ends.
    await pty.close();
    await waitFor('the clock to see its device gone', () => lineEvents.some((e) => e.type === 'lost') && !link.line.connected, 15_000);
    sim.advanceBy(3_000);
    await press('black');
    sim.advanceBy(5_000);
    await press('white');
    expect(link.status()).toMatch(/device gone, reopening/);

    // A device appears at the same path: the clock reopens it by itself, the host too.
    pty = await cable(dir);
    await waitFor('both presses made while the cable was out journaled', () => moved().length === 3, 30_000, flowing(sim));
    expect(link.line.opens).toBeGreaterThanOrEqual(2);
    expect(lineEvents.filter((e) => e.type === 'retry').length).toBeGreaterThanOrEqual(1);
    // Each press once, in order, with the times the clock showed at it.
    expect(moved().map((e) => [e.side, e.whiteMs, e.blackMs])).toEqual(atClock);
    expect(moved().map((e) => e.move)).toEqual([1, 1, 2]);
  }, 60_000);
});

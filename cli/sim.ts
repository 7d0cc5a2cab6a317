// `chessclock sim`: a simulated clock in the terminal for a person (the firmware on a
// virtual board, keys for levers and menus), or with --clocks N a fleet of simulated
// clocks with scripted players (simulator/fleet.ts). This file only parses arguments.
import { CLOCK_OPTIONS_HELP, parseClockOptions } from '../firmware-ts/clock-options.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { fileSnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { formatTimeControl } from '../protocol/time-control.ts';
import { runTerminal } from '../simulator/terminal-ui.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';

const HELP = `usage: chessclock sim [options]

A simulated chess clock in the terminal: the clock firmware runs unchanged on a
virtual Arduino; the screen shows what its 16×2 LCD shows.

options:
${CLOCK_OPTIONS_HELP}`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  let options;
  try {
    options = await parseClockOptions(args);
    if (options.rest.length) throw new Error(`unknown option "${options.rest[0]}"`);
  } catch (err) {
    process.stderr.write(`chessclock sim: ${(err as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  const clock = await VirtualClock.boot({
    timeControl: options.timeControl,
    map: options.map,
    time: realTimebase,
    snapshots: options.stateDir ? fileSnapshotStore(options.stateDir) : undefined,
    sound: options.sound ?? options.map.piezo?.enabled ?? true,
  });
  const code = await runTerminal(clock, {
    title: formatTimeControl(clock.firmware.state().timeControl),
    input: process.stdin,
    output: process.stdout,
  });
  clock.stop();
  return code;
}

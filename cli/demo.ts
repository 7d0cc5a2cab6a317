// `chessclock demo`: the terminal clock, under its old name. There is one terminal clock
// (the firmware on a virtual board, simulator/terminal-ui.ts) with one set of keys and the
// options of `chessclock sim` (--preset, --time-control, --default-time, --no-sound, ...);
// `demo` runs exactly that.
import { run as runSim } from './sim.ts';

export async function run(args: string[]): Promise<number> {
  return runSim(args, 'demo');
}

// The command-line options every way of starting a clock shares (`chessclock clock`,
// `chessclock sim`): which control, which wiring, where the state lives, sound.
import { isPresetName, PRESETS, readTimeControlSpec, type TimeControl } from '../protocol/time-control.ts';
import { loadHardwareMapFile, parseHardwareMap, type HardwareMap } from './hardware-map.ts';

export interface ClockOptions {
  timeControl: TimeControl;
  map: HardwareMap;
  stateDir: string | null;
  sound: boolean | null;
  /** Options this parser did not know, for the subcommand to handle. */
  rest: string[];
}

export const CLOCK_OPTIONS_HELP = `  --preset NAME          ${Object.keys(PRESETS).join(', ')} (default: classical)
  --time-control PGN     a PGN TimeControl for both sides, e.g. 40/5400+30:900+30
  --default-time SECONDS FIDE Laws 6.7.1 default time (forfeit on lateness)
  --config FILE          wiring (hardware map) JSON; default: the Arduino Uno wiring
  --state-dir DIR        keep the clock state here (power-cut resume)
  --no-sound             no beep at a flag`;

/** Parses the shared options; throws an Error whose message names the bad option. */
export async function parseClockOptions(args: string[]): Promise<ClockOptions> {
  let preset = 'classical';
  let pgn: string | null = null;
  let defaultTime: number | null = null;
  let config: string | null = null;
  let stateDir: string | null = null;
  let sound: boolean | null = null;
  const rest: string[] = [];
  const value = (i: number, name: string) => {
    const v = args[i];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--preset') preset = value(++i, a);
    else if (a === '--time-control') pgn = value(++i, a);
    else if (a === '--default-time') {
      const v = value(++i, a);
      if (!/^\d+$/.test(v)) throw new Error(`--default-time must be whole seconds, got "${v}"`);
      defaultTime = Number(v);
    } else if (a === '--config') config = value(++i, a);
    else if (a === '--state-dir') stateDir = value(++i, a);
    else if (a === '--no-sound') sound = false;
    else rest.push(a);
  }
  if (!isPresetName(preset)) throw new Error(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
  // The one time-control reader (protocol/time-control.ts readTimeControlSpec): --time-control
  // takes what the host's and the API's specs take (a PGN field, or W<pgn>-B<pgn> for unequal sides).
  const tc: TimeControl = readTimeControlSpec(pgn !== null ? { timeControl: pgn } : { preset }, { defaultTime }).timeControl;
  const map = config ? await loadHardwareMapFile(config) : parseHardwareMap({});
  return { timeControl: tc, map, stateDir, sound, rest };
}

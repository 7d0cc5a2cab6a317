// `chessclock flash --port PATH`: writes StandardFirmata to a real Arduino Uno with
// avrgirl-arduino (STK500v1 through the Uno's bootloader), from the same Intel HEX file the
// emulated Uno runs in the tests (simulator/uno/intel-hex.ts standardFirmataHexPath), so the
// board at the clock runs the binary the tests ran. This file parses arguments and checks the
// file before anything touches the board; avrgirl-arduino does the flashing.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseIntelHex, standardFirmataHexPath } from '../simulator/uno/intel-hex.ts';

const HELP = `usage: chessclock flash --port PATH [--hex FILE] [--board uno]

Writes StandardFirmata 2.4 (the build avrgirl-arduino ships, the one the emulated Uno
runs in the tests) to an Arduino Uno on PATH, e.g. /dev/ttyACM0. Then run the clock on
it: chessclock clock --board PATH (docs/firmware.md, "From the emulated Uno to a real one").

options:
  --port PATH    the Uno's serial port (required; no auto-detection: a wrong board
                 must not be overwritten)
  --hex FILE     another Intel HEX file (default: avrgirl-arduino's junk/hex/uno/StandardFirmata.cpp.hex)
  --board NAME   the avrgirl-arduino board name (only "uno" is supported by the clock)`;

export interface FlashPlan {
  readonly port: string;
  readonly board: 'uno';
  /** Absolute path of the Intel HEX file to write. */
  readonly hex: string;
  /** Bytes of program in the file (checked: valid Intel HEX that fits the ATmega328P's flash). */
  readonly programBytes: number;
}

/** Parses `chessclock flash` arguments and checks the HEX file; throws naming the bad argument. */
export function planFlash(args: readonly string[]): FlashPlan {
  let port: string | null = null;
  let hex: string | null = null;
  let board = 'uno';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[i + 1];
    if (a === '--port' || a === '--hex' || a === '--board') {
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      i++;
      if (a === '--port') port = v;
      else if (a === '--hex') hex = v;
      else board = v;
    } else throw new Error(`unknown option "${a}"`);
  }
  if (port === null) throw new Error('--port PATH is required (e.g. --port /dev/ttyACM0)');
  if (board !== 'uno') throw new Error(`--board must be "uno" (the clock's wiring is the Uno's), got "${board}"`);
  const file = hex ?? standardFirmataHexPath();
  if (!existsSync(file)) throw new Error(`--hex ${file}: no such file`);
  let image: Uint8Array;
  try {
    image = parseIntelHex(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`--hex ${file}: ${(err as Error).message}`);
  }
  let last = image.length - 1;
  while (last >= 0 && image[last] === 0xff) last--;
  return { port, board: 'uno', hex: file, programBytes: last + 1 };
}

interface AvrgirlLike {
  flash(file: string, callback: (err?: Error | null) => void): void;
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  let plan: FlashPlan;
  try {
    plan = planFlash(args);
  } catch (err) {
    process.stderr.write(`chessclock flash: ${(err as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  process.stdout.write(`flashing ${plan.hex} (${plan.programBytes} bytes) to the ${plan.board} on ${plan.port}...\n`);
  const require = createRequire(import.meta.url);
  const Avrgirl = require('avrgirl-arduino') as new (options: { board: string; port: string; debug?: boolean }) => AvrgirlLike;
  const avrgirl = new Avrgirl({ board: plan.board, port: plan.port });
  try {
    await new Promise<void>((resolve, reject) => avrgirl.flash(plan.hex, (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    process.stderr.write(`chessclock flash: ${plan.port}: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`done: StandardFirmata is on ${plan.port}; run the clock with: chessclock clock --board ${plan.port}\n`);
  return 0;
}

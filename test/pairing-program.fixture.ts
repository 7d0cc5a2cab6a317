// The outside pairing program of the organiser's loop (docs/tournament.md "An event with an outside
// pairing program"): the real bbpPairings where test/bbp-pairings.fixture.ts gives it, else the
// stand-in with its command line (host/adapters/exports/fixtures/stand-in-pairing-engine.mjs), and
// the test output says which. Both are run as the organiser runs them: `PROGRAM --dutch IN.trf -p OUT.txt`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bbpPairings } from './bbp-pairings.fixture.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
export const EVENT = 'open-2026';
const STAND_IN = fileURLToPath(new URL('../host/adapters/exports/fixtures/stand-in-pairing-engine.mjs', import.meta.url));

export interface PairingProgram {
  /** The program and its leading arguments (`--dutch`). */
  readonly command: readonly string[];
  /** The real bbpPairings (its checker `-c` can be run too). */
  readonly real: boolean;
  readonly name: string;
}

let chosen: PairingProgram | undefined;

/** bbpPairings where it is built, else the stand-in; says which on stderr once. */
export function pairingProgram(): PairingProgram {
  if (chosen) return chosen;
  const bbp = bbpPairings();
  if (bbp.exe) chosen = { command: [bbp.exe, '--dutch'], real: true, name: `bbpPairings (${bbp.exe})` };
  else {
    chosen = { command: [process.execPath, STAND_IN, '--dutch'], real: false, name: 'the stand-in pairing engine (not bbpPairings)' };
    process.stderr.write(`pairing program: the stand-in with bbpPairings' command line is used: ${bbp.skip}\n`);
  }
  return chosen;
}

export interface ProgramRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the program with `args` after its command (`IN.trf -p OUT.txt`, or bbpPairings' `IN.trf -c`), without blocking the event loop. */
export function runProgram(program: PairingProgram, args: readonly string[]): Promise<ProgramRun> {
  const [exe, ...lead] = program.command;
  return new Promise((resolve) => {
    execFile(exe, [...lead, ...args], { encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** An individual Swiss of 11 players and 5 planned rounds whose file lists no round: an outside program pairs every round. */
export function openSwiss(): Record<string, unknown> {
  const names = [
    'Kovač, Ana',
    'Novak, Bor',
    'Horvat, Cene',
    'Krajnc, Dara',
    'Zupan, Eva',
    'Potočnik, Filip',
    'Mlakar, Gaja',
    'Kos, Hana',
    'Vidmar, Iztok',
    'Golob, Jana',
    'Turk, Klemen',
  ];
  return {
    hall: { name: 'Test hall', site: 'Ljubljana SLO' },
    events: [
      {
        id: EVENT,
        name: 'Open 2026',
        kind: 'individual',
        type: 'Swiss Dutch',
        timeControl: 'rapid',
        plannedRounds: 5,
        players: names.map((name, i) => ({ rank: i + 1, name, rating: 2300 - 25 * i, federation: 'SLO' })),
        rounds: [],
      },
    ],
  };
}

/** Runs the real `chessclock` command without blocking the event loop (a host in this process answers from it). */
export function chessclock(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { CHESSCLOCK_TOKEN: _drop, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...base, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/**
 * The colour by lot a TRF gives the top-ranked player for round 1, as bbpPairings reads it: JaVaFo's
 * `XXC white1|black1`, or TRF-2026's record 152 (`152 W|B`); null when it gives none.
 */
export function lotOf(trf: string): 'white' | 'black' | null {
  const xxc = /^XXC (?:.* )?(white|black)1(?: |$)/m.exec(trf);
  if (xxc) return xxc[1] as 'white' | 'black';
  const r152 = /^152 ([WB])\s*$/m.exec(trf);
  return r152 ? (r152[1] === 'W' ? 'white' : 'black') : null;
}

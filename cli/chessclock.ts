// `chessclock <subcommand>`: parses the subcommand and hands the rest to its module.
// Each subcommand lives in `cli/<name>.ts` and exports `run(args): Promise<number>`
// (the exit status). This file only dispatches; the rooms do the work.

interface Subcommand {
  summary: string;
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>;
}

export const SUBCOMMANDS: Record<string, Subcommand> = {
  demo: { summary: 'the terminal clock of `sim` (same keys and options)', load: () => import('./demo.ts') },
  clock: { summary: 'the clock firmware at the board (Johnny-Five on --board, host on --link; no --board: simulated)', load: () => import('./clock.ts') },
  sim: { summary: 'a simulated clock in the terminal (the firmware on a virtual board); --clocks N: a fleet', load: () => import('./sim.ts') },
  host: { summary: 'the hall PC: clocks on serial ports → journal, director, API, exports (docs/host.md)', load: () => import('./host.ts') },
  hall: {
    summary: 'a simulated tournament hall in the browser: host, simulated clocks, scripted players (the `npm start` job)',
    load: () => import('./hall.ts'),
  },
  flash: { summary: 'write StandardFirmata (the binary the emulated Uno runs) to a real Arduino Uno on --port', load: () => import('./flash.ts') },
  tournament: {
    summary:
      "the tournament file: `init [FILE]` writes a commented one, `validate FILE` checks it (line:column and field path), `import-trf FILE` reads a pairing program's TRF as a tournament file or (`--next-round`) the next round, printed or loaded into a running host, `import-pairs PAIRS --trf FILE` a pairing program's pairs list as the next round, likewise; `entry`, `withdraw`, `bye`, `round-start` an arbiter's entries into a running host",
    load: () => import('./tournament.ts'),
  },
  export: {
    summary:
      "a journal's exports to stdout: --trf (TRF-2026; --trf16 the older form), --pgn (a round), --jsonl (the events), --report (the print report, HTML), --pairings and --cards (before a round, for print) of one event",
    load: () => import('./export.ts'),
  },
  replay: { summary: 'replay a JSON Lines press log through the clock; prints moves, flags, forfeits, state', load: () => import('./replay.ts') },
};

export function usage(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((n) => n.length));
  const lines = Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(width)}  ${s.summary}`);
  return [
    'usage: chessclock <subcommand> [options]',
    '',
    'Digital chess clocks for FIDE-rated tournaments.',
    '',
    'subcommands:',
    ...lines,
    '',
    'Run `chessclock <subcommand> --help` for the options of one subcommand.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name === undefined ? 2 : 0;
  }
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    process.stderr.write(`chessclock: unknown subcommand "${name}"\n\n${usage()}\n`);
    return 2;
  }
  const mod = await sub.load();
  try {
    return await mod.run(rest);
  } catch (err) {
    // A subcommand's own errors are said in its words; anything it did not foresee is still
    // one line, never a stack trace (set CHESSCLOCK_DEBUG=1 for the stack).
    process.stderr.write(`chessclock ${name}: ${(err as Error)?.message ?? String(err)}\n`);
    if (process.env.CHESSCLOCK_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
    return 1;
  }
}

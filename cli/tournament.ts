// `chessclock tournament init [FILE]` and `chessclock tournament validate FILE`: the organiser's
// commands for the tournament file (docs/tournament.md). Exit 0 done, 1 the file has problems
// (each on stderr with its line:column and field path), 2 bad usage.

import { existsSync, writeFileSync } from 'node:fs';
import { loadTournamentFile, TournamentFileError } from '../host/domain/tournament-file.ts';
import { TOURNAMENT_TEMPLATE } from '../host/domain/tournament-template.ts';
import { importTrfCommand } from './import-trf.ts';
import { importPairsCommand } from './import-pairs.ts';
import { ENTRY_COMMANDS, entryCommand } from './entries.ts';

const HELP = `usage: chessclock tournament init [FILE]
       chessclock tournament validate FILE
       chessclock tournament import-trf FILE --id ID [--time-control SPEC] [--default-time SECONDS]
       chessclock tournament import-trf FILE --next-round [--host URL --event ID [--token-file FILE]]
       chessclock tournament import-pairs PAIRS --trf FILE [--host URL --event ID [--token-file FILE]]
       chessclock tournament entry|withdraw|bye|round-start --host URL --event ID [options]

init      writes a commented tournament file (to FILE, never over an existing one; to stdout without FILE)
validate  reads FILE (JSON with comments) and lists every problem with its line:column and field path
import-trf  turns a pairing program's TRF (players, teams, rounds paired so far, tag 222 time
          control, tag 142/XXR rounds) into a tournament file, printed as JSON (event id ID;
          --time-control SPEC: the time control of a TRF with no tag 222; --default-time: the
          allowed lateness in seconds, FIDE Laws 6.7.1); with --next-round
          only its last round: printed as the round to append to the tournament file, or loaded
          into the running host at URL as event ID's next round, proposed until an arbiter
          approves it (the arbiter token from CHESSCLOCK_TOKEN or --token-file FILE);
          chessclock tournament import-trf --help says more
import-pairs  a pairing program's pairs list (bbpPairings/JaVaFo -p) as the next round, read
          against the TRF it was paired from (--trf FILE): printed as the round to append to the
          tournament file, or loaded into the running host at URL as event ID's next round,
          proposed until an arbiter approves it; chessclock tournament import-pairs --help says more
entry, withdraw, bye, round-start
          a late entrant, a withdrawal, a requested bye, a round's start time, into the running
          host at URL (the arbiter token as for import-trf); refused once the round is paired;
          chessclock tournament entry --help (and the others) say more

Exit status: 0 done; 1 the file has problems; 2 bad usage. See docs/tournament.md.`;

export async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(HELP + '\n');
    return command === undefined ? 2 : 0;
  }
  if (command === 'import-trf') return importTrfCommand(rest);
  if (command === 'import-pairs') return importPairsCommand(rest);
  const entry = ENTRY_COMMANDS.find((c) => c === command);
  if (entry) return entryCommand(entry, rest);
  const fileCommand = command === 'init' || command === 'validate';
  if (fileCommand && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  // An option where FILE goes is a mistyped option, not a file to write or read.
  const option = fileCommand ? rest.find((a) => a.startsWith('-')) : undefined;
  if (option !== undefined) {
    process.stderr.write(
      `chessclock tournament ${command}: unknown option ${option} (FILE may not begin with "-"; write ./${option} for such a file)\n\n${HELP}\n`,
    );
    return 2;
  }
  if (rest.length > 1) {
    process.stderr.write(`chessclock tournament ${command}: expected at most one FILE, got ${rest.join(' ')}\n`);
    return 2;
  }
  const file = rest[0];
  if (command === 'init') {
    if (file === undefined) {
      process.stdout.write(TOURNAMENT_TEMPLATE);
      return 0;
    }
    if (existsSync(file)) {
      process.stderr.write(`chessclock tournament init: ${file} exists; not overwritten\n`);
      return 1;
    }
    writeFileSync(file, TOURNAMENT_TEMPLATE, { flag: 'wx' });
    process.stdout.write(`${file}: written; edit it, then: chessclock tournament validate ${file}\n`);
    return 0;
  }
  if (command === 'validate') {
    if (file === undefined) {
      process.stderr.write('chessclock tournament validate: which FILE?\n');
      return 2;
    }
    try {
      const hall = loadTournamentFile(file);
      const events = hall.events.map(
        (e) => `${e.id} (${e.kind}, ${e.kind === 'team' ? `${e.teams.length} teams` : `${e.players.length} players`}, ${e.plannedRounds} rounds)`,
      );
      process.stdout.write(`${file}: ok — ${events.join('; ')}\n`);
      return 0;
    } catch (err) {
      if (err instanceof TournamentFileError) {
        process.stderr.write(`${err.message}\n`);
        return 1;
      }
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') {
        process.stderr.write(`chessclock tournament validate: cannot read ${file}: ${e.message}\n`);
        return 1;
      }
      throw err;
    }
  }
  process.stderr.write(`chessclock tournament: unknown command "${command}"\n\n${HELP}\n`);
  return 2;
}

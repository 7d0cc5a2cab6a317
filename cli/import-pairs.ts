// `chessclock tournament import-pairs PAIRS --trf FILE`: a pairing program's pairs list (the `-p`
// output of bbpPairings and JaVaFo) as the next round, read against the TRF it was paired from (its
// players give the starting ranks a meaning, its rounds played the round number): printed as the
// tournament-file round to append, or loaded into a running host (`--host URL --event ID`, POST
// /api/events/:event/rounds with `{ pairs, trf }`) where it waits for an arbiter's approval, checked
// against the journal (docs/tournament.md "An event with an outside pairing program").
//
// The arbiter token is never taken on the command line: CHESSCLOCK_TOKEN or --token-file FILE
// (docs/host.md "Secrets"), as for import-trf.
import { parseCommandOptions } from './command-options.ts';
import { proposeToHost, readInputFile, TOKEN_ENV } from './import-trf.ts';
import { pairsRound } from '../host/adapters/exports/pairs-import.ts';
import { TrfImportError } from '../host/adapters/exports/trf-import.ts';
import { parseTrf, TrfParseError } from '../host/adapters/exports/trf-parser.ts';

export const IMPORT_PAIRS_HELP = `usage: chessclock tournament import-pairs PAIRS --trf FILE
       chessclock tournament import-pairs PAIRS --trf FILE --host URL --event ID [--token-file FILE]

A pairing program's pairs list (PAIRS: the -p output of bbpPairings or JaVaFo, e.g.
bbpPairings.exe --dutch round3.trf -p round3.txt: the number of pairs, then "white black" by
starting rank, 0 for the bye, board 1 first) as the next round:
  --trf FILE          the TRF the list was paired from (required): its 001 lines are the players the
                      starting ranks name, and the round paired is the one after its rounds played;
                      a player it sets out of that round (0000 - H, 0000 - Z …) keeps that bye
  (no --host)         prints the round to append to the event's "rounds" in the tournament file
  --host URL          load it into the running host at URL (http://127.0.0.1:8080) as event ID's next
                      round, checked against the journal (the TRF must be the host's after its last
                      round: chessclock export --trf --round N), proposed until an arbiter approves
                      it on the dashboard; prints the proposal, or the host's refusal with the line
  --event ID          the host's event (with --host)
  --token-file FILE   the arbiter token: the first line of FILE; else the environment variable
                      ${TOKEN_ENV} (never on the command line: ps shows it)

Exit status: 0 done; 1 the files have problems (the line named), or the host refused them or cannot
be reached; 2 bad usage.`;

const OPTIONS = {
  trf: { type: 'string' },
  host: { type: 'string' },
  event: { type: 'string' },
  'token-file': { type: 'string' },
  help: { type: 'boolean' },
} as const;

const COMMAND = 'tournament import-pairs';

function say(status: number, message: string): number {
  process.stderr.write(`chessclock ${COMMAND}: ${message}\n`);
  return status;
}

export async function importPairsCommand(args: string[]): Promise<number> {
  const tokenArg = args.find((a) => a === '--token' || a.startsWith('--token='));
  if (tokenArg) return say(2, `the arbiter token is never taken on the command line (ps shows it to every user): set ${TOKEN_ENV} or give --token-file FILE`);
  const parsed = parseCommandOptions(COMMAND, args, OPTIONS, IMPORT_PAIRS_HELP, true);
  if ('exit' in parsed) return parsed.exit;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return say(2, `expected one pairs list PAIRS, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  const pairsFile = positionals[0];
  if (!values.trf) return say(2, '--trf FILE is required: the TRF the pairs list was paired from (its players and rounds played)');
  const trfFile = values.trf;
  const read = (): { pairs: string; trf: string } | number => {
    const pairs = readInputFile(pairsFile, COMMAND);
    if (typeof pairs === 'number') return pairs;
    const trf = readInputFile(trfFile, COMMAND);
    return typeof trf === 'number' ? trf : { pairs, trf };
  };
  if (values.host === undefined) {
    for (const o of ['event', 'token-file'] as const) if (values[o] !== undefined) return say(2, `--${o} goes with --host URL`);
    const texts = read();
    return typeof texts === 'number' ? texts : printRound(pairsFile, trfFile, texts);
  }
  if (!values.event) return say(2, '--host needs --event ID: the event whose next round this is');
  return proposeToHost(COMMAND, { file: pairsFile, host: values.host, event: values.event, tokenFile: values['token-file'] }, read);
}

/** The round as the tournament file writes it: its number, its boards in the list's order, its byes. */
function printRound(pairsFile: string, trfFile: string, texts: { pairs: string; trf: string }): number {
  let file;
  try {
    file = parseTrf(texts.trf);
  } catch (err) {
    if (err instanceof TrfParseError) return say(1, `${trfFile}: ${err.message}`);
    throw err;
  }
  try {
    const round = pairsRound(file, texts.pairs);
    const json = {
      number: round.number,
      boards: round.boards.map((b) => ({ board: b.board, white: b.white, black: b.black })),
      byes: round.byes.map((b) => ({ player: b.player, kind: b.kind })),
    };
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof TrfImportError) return say(1, `${pairsFile} (paired from ${trfFile}): ${err.message}`);
    throw err;
  }
}

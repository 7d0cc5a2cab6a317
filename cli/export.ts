// `chessclock export --db FILE --tournament FILE --event ID [--round N] --trf|--trf16|--pgn|--jsonl|--report|--pairings|--cards [--out FILE]`:
// the exports of a journal, written to stdout (or FILE) — the same as the host's API serves
// (docs/exports.md): the TRF-2026 (or, `--trf16`, TRF16) after round N (knockout events: `--category standard|rapid|blitz`),
// the round's PGN (every game of round N, unplayed games left out), the event's journal as
// JSON Lines, or the print report after round N (HTML: round results, crosstable, standings);
// before a round, its pairings list or table cards for print (HTML, docs/exports.md); or the log of
// what left for a lichess broadcast, and when (`--broadcast-log`).
// Exit 0 done, 1 refused (a result not confirmed …: stderr says why), 2 bad usage.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseCommandOptions } from './command-options.ts';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile, TournamentFileError } from '../host/domain/tournament-file.ts';
import { findEvent, type Hall } from '../host/domain/model.ts';
import { Director } from '../host/app/director.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import { eventTrf } from '../host/adapters/exports/trf-event.ts';
import { TrfError } from '../host/adapters/exports/trf.ts';
import { ExportRefusedError } from '../host/app/ports.ts';
import { eventReportHtml } from '../host/adapters/exports/report-html.ts';
import { pairingsListHtml, tableCardsHtml } from '../host/adapters/exports/pairings-html.ts';
import { mergeClockTimes } from '../host/adapters/exports/pgn-merge.ts';
import { PgnSyntaxError } from '../host/app/pgn-movetext.ts';
import { broadcastLogText } from '../host/adapters/exports/broadcast-log.ts';

const HELP = `usage: chessclock export --db FILE --tournament FILE --event ID [--round N] (--trf|--trf16 [--category C] | --pgn | --jsonl | --report) [--out FILE]
       chessclock export --db FILE --tournament FILE --event ID [--round N] (--pairings | --cards [--per-page 2|4]) [--out FILE]
       chessclock export --db FILE --tournament FILE --event ID --pgn --moves GAMES.pgn [--out FILE]
       chessclock export --db FILE --tournament FILE --event ID --broadcast-log [--round N] [--out FILE]

  --db FILE          the host's journal (SQLite); it must exist (left out with --trf --round 0: none yet)
  --tournament FILE  the tournament file the host ran with
  --event ID         the event
  --round N          TRF: the rounds up to N (default: the last in the journal); PGN: round N (default 1); JSON Lines: only round N
                     --trf --round 0 (or --trf16): the registration TRF, before round 1 (players, 142/XXR, 222, XXC), which a
                     pairing program pairs round 1 from, for an event with no games yet too
  --initial-colour white|black
                     with --trf --round 0: the colour drawn by lot for the top-ranked player in round 1
                     (FIDE C.04.3; TRF XXC), when the tournament file and the journal record none
  --trf              FIDE TRF-2026, docs/exports.md; --category standard|rapid|blitz for a knockout
  --trf16            the TRF16 form written before TRF-2026 (no tag 152, no 240 records)
  --pgn              the round's PGN (the broadcast feed's content)
  --moves GAMES.pgn  with --pgn: GAMES.pgn (moves from a DGT board or a score sheet) with each move's
                     [%clk] and [%emt] from the journal's presses; games matched by GameId, else
                     Round + White + Black (docs/exports.md). Warnings on stderr.
  --jsonl            the journal's events of the event, one JSON object per line
  --report           an HTML page for print after round N (default: the last round with every result confirmed):
                     round results, crosstable, standings with the tie-break that decided each tie
  --pairings         an HTML page for print before round N (default: the last round paired): the pairings
                     by board (team events: by match), the byes, and every player alphabetically
  --cards            an HTML page for print of round N's table cards, one per board
  --per-page 2|4     with --cards: cards to an A4 sheet (default 2)
  --broadcast-log    each push to a lichess broadcast (of round N only, with --round), one line each:
                     when it left (UTC), the round, the games and their moves, the instant shown and the
                     newest fact in it, the delay, lichess's answer, and held/EARLY (docs/exports.md)
  --out FILE         write to FILE instead of stdout

Exit status: 0 written; 1 refused (stderr says why; bad GAMES.pgn: its line:column); 2 bad usage;
3 written with warnings (--moves: a game not found, or moves and presses that differ in number).`;

function fail(message: string, code = 2): number {
  process.stderr.write(`chessclock export: ${message}\n`);
  return code;
}

const OPTIONS = {
  db: { type: 'string' },
  tournament: { type: 'string' },
  event: { type: 'string' },
  round: { type: 'string' },
  trf: { type: 'boolean' },
  trf16: { type: 'boolean' },
  pgn: { type: 'boolean' },
  jsonl: { type: 'boolean' },
  report: { type: 'boolean' },
  pairings: { type: 'boolean' },
  cards: { type: 'boolean' },
  'broadcast-log': { type: 'boolean' },
  'per-page': { type: 'string' },
  category: { type: 'string' },
  out: { type: 'string' },
  moves: { type: 'string' },
  'initial-colour': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type ExportValues = Extract<ReturnType<typeof parseCommandOptions<typeof OPTIONS>>, { values: unknown }>['values'];

/** The export the options ask for, of `event`, as text, and the exit status (3: --moves merged with warnings, said on stderr). */
function exportText(
  journal: Journal,
  hall: Hall,
  event: string,
  values: ExportValues,
  round: number | undefined,
  movesText: string | undefined,
): { text: string; status: number } {
  const category = values.category;
  const exports = journalExports(journal, hall, () => Date.now()); // the PGN's live clocks as of now
  let text: string;
  let status = 0;
  if (movesText !== undefined) {
    const merged = mergeClockTimes(journal, hall, event, movesText);
    for (const w of merged.warnings) process.stderr.write(`chessclock export: warning: ${values.moves}:${w.line}: ${w.game}: ${w.message}\n`);
    process.stderr.write(`chessclock export: ${merged.merged} game(s) merged, ${merged.warnings.length} warning(s)\n`);
    text = merged.pgn;
    if (merged.warnings.length) status = 3;
  } else if (values.trf || values.trf16) {
    const format = values.trf16 ? 'trf16' : 'trf26';
    text =
      category !== undefined
        ? eventTrf(journal, hall, event, { upToRound: round, category: category as 'standard' | 'rapid' | 'blitz', format })
        : exports.trf(event, round, { format, ...initialColour(values) });
  } else if (values.pgn) {
    text = exports.pgn(event, round ?? 1);
  } else if (values['broadcast-log']) {
    text = broadcastLogText(journal.broadcastPushes(event), round);
  } else if (values.report) {
    text = eventReportHtml(journal, hall, event, round);
  } else if (values.pairings || values.cards) {
    const r = round ?? findEvent(hall, event).rounds.length; // the last round paired
    text = values.pairings ? pairingsListHtml(hall, event, r) : tableCardsHtml(hall, event, r, values['per-page'] === '4' ? 4 : 2);
  } else {
    text = exports.jsonl!({ event, ...(round !== undefined ? { round } : {}) });
  }
  return { text, status };
}

/** `--initial-colour`, checked by run(): the lot for the TRF before round 1. */
function initialColour(values: ExportValues): { initialColour?: 'white' | 'black' } {
  const colour = values['initial-colour'];
  return colour === 'white' || colour === 'black' ? { initialColour: colour } : {};
}

/** `--round 0` is the TRF before round 1, and `--initial-colour` its lot: a usage error elsewhere, else null. */
function roundZeroUsage(values: ExportValues, round: number | undefined): string | null {
  const colour = values['initial-colour'];
  if (colour !== undefined && colour !== 'white' && colour !== 'black') return `--initial-colour ${colour}: white or black`;
  const trf = values.trf || values.trf16;
  if (colour !== undefined && (round !== 0 || !trf)) return '--initial-colour goes with --trf --round 0 (the TRF before round 1)';
  if (round === 0 && (!trf || values.category !== undefined)) return '--round 0 is the TRF before round 1: only with --trf or --trf16 (and no --category)';
  return null;
}

/** A round asked for that the journal has no game of, said with the rounds there are: nothing is written for it. */
function roundNotInJournal(journal: Journal, hall: Hall, event: string, round: number): string | undefined {
  const rounds = [...new Set(journal.gamesByEvent(event).map((g) => g.round))].sort((a, b) => a - b);
  if (rounds.includes(round)) return undefined;
  const planned = findEvent(hall, event).plannedRounds;
  const held = rounds.length ? `the journal has round${rounds.length > 1 ? 's' : ''} ${rounds.join(', ')}` : 'the journal has no round of it yet';
  return `--round ${round}: event "${event}" has no round ${round} in the journal (${held}; the event has ${planned} round${planned === 1 ? '' : 's'})`;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseCommandOptions('export', args, OPTIONS, HELP);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  const kinds = (['trf', 'trf16', 'pgn', 'jsonl', 'report', 'pairings', 'cards', 'broadcast-log'] as const).filter((k) => values[k]);
  if (kinds.length !== 1) return fail(`choose one of --trf, --trf16, --pgn, --jsonl, --report, --pairings, --cards, --broadcast-log\n\n${HELP}`);
  const perPage = values['per-page'];
  if (perPage !== undefined && (!values.cards || !['2', '4'].includes(perPage))) return fail(`--per-page ${perPage}: 2 or 4, with --cards`);
  const round = values.round === undefined ? undefined : Number(values.round);
  if (round !== undefined && (!Number.isInteger(round) || round < 0))
    return fail(`--round ${values.round}: expected a round number ≥ 1 (0 with --trf: before round 1)`);
  const roundZero = roundZeroUsage(values, round);
  if (roundZero) return fail(roundZero);
  // The TRF before round 1 needs no journal: before the host first starts, the tournament file has it all.
  const beforeRound1 = round === 0;
  if ((!values.db && !beforeRound1) || !values.tournament || !values.event)
    return fail(`--db, --tournament and --event are required (--db may be left out with --trf --round 0)\n\n${HELP}`);
  if (values.db !== undefined && !existsSync(values.db)) return fail(`--db ${values.db}: no such journal`, 1);
  if (values.moves !== undefined && !values.pgn) return fail(`--moves goes with --pgn\n\n${HELP}`);
  if (values.moves !== undefined && values.round !== undefined) return fail("--moves: the games' Round tags give their rounds; leave out --round");
  let movesText: string | undefined;
  if (values.moves !== undefined) {
    try {
      movesText = readFileSync(values.moves, 'utf8');
    } catch (err) {
      return fail(`--moves ${values.moves}: ${(err as Error).message}`, 1);
    }
  }
  const category = values.category;
  if (category !== undefined && (!(values.trf || values.trf16) || !['standard', 'rapid', 'blitz'].includes(category)))
    return fail(`--category ${category}: standard, rapid or blitz, with --trf or --trf16`);

  let hall;
  try {
    hall = loadTournamentFile(values.tournament);
    findEvent(hall, values.event);
  } catch (err) {
    if (err instanceof TournamentFileError) return fail(err.message, 1);
    return fail((err as Error).message, 1);
  }
  const journal = new Journal(values.db ?? ':memory:');
  try {
    new Director(journal, hall); // a round robin's rounds, as the host had them
    // A round's PGN or events would be empty: refused, saying which rounds there are. The TRF and
    // the report refuse such a round with their own reason; a print page reads the round's pairing.
    const listed = values.pgn || values.jsonl;
    const noRound = round !== undefined && round >= 1 && listed ? roundNotInJournal(journal, hall, values.event, round) : undefined;
    if (noRound) return fail(noRound, 1);
    const { text, status } = exportText(journal, hall, values.event, values, round, movesText);
    if (values.out !== undefined) {
      try {
        writeFileSync(values.out, text);
      } catch (err) {
        return fail(`--out ${values.out}: ${(err as Error).message}`, 1);
      }
    } else process.stdout.write(text);
    return status;
  } catch (err) {
    if (err instanceof ExportRefusedError || err instanceof TrfError) return fail(err.message, 1);
    if (err instanceof PgnSyntaxError) return fail(`--moves ${values.moves}:${err.line}:${err.column}: ${err.reason}`, 1);
    throw err;
  } finally {
    journal.close();
  }
}

// Loads the hall's tournament file (JSON with comments; docs/tournament.md) into the model,
// checking every field. Every problem is reported with its line:column and field path, e.g.
// `line 7:7 events[0].rounds[2].boards[1].white: missing`, and all problems are reported at
// once so an organiser fixes the file in one pass.
//
// The parts, in tournament-file/: the reader (reader.ts: the text into a value, with the
// positions of its fields), the field checker that collects problems with their paths
// (field-checker.ts), one module per section of the file (event.ts and the sections it reads:
// players, teams, rounds with their pairings, team matches, knockout, pairing, time control,
// appeal), and the rules across sections (checker.ts).
//
// YAML is not read: no YAML parser is installed and the project adds no dependency for it. A
// `.yaml`/`.yml` file is refused with a message saying so.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Hall, TournamentEvent } from './model.ts';
import { checkHall } from './tournament-file/checker.ts';
import { parseEvent } from './tournament-file/event.ts';
import { FieldChecker } from './tournament-file/field-checker.ts';
import { readJsonc, sortByPosition } from './tournament-file/reader.ts';

export class TournamentFileError extends Error {
  constructor(
    readonly issues: string[],
    readonly file?: string,
  ) {
    const shown = issues.slice(0, 30);
    const more = issues.length > shown.length ? `\n  … and ${issues.length - shown.length} more` : '';
    super(`${file ? `${file}: ` : ''}${issues.length} problem(s) in the tournament file:\n  ${shown.join('\n  ')}${more}`);
    this.name = 'TournamentFileError';
  }
}

/**
 * Reads a tournament file: JSON, with line (`//`) and block comments allowed (JSONC, read by
 * jsonc-parser). Every problem names its line:column in the file and its field path, e.g.
 * `line 12:9 events[0].players[1].name: missing`. TRF pairings come through `importTrf` (trf-import.ts).
 */
export function loadTournamentFile(file: string): Hall {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    throw new TournamentFileError(
      ['YAML is not supported: no YAML parser is installed (it needs a dependency such as the "yaml" package). Write the file as JSON (docs/tournament.md).'],
      file,
    );
  }
  return parseTournamentText(readFileSync(file, 'utf8'), file);
}

/** `parseTournament` over the text of a file (JSON with comments), problems located by line:column. */
export function parseTournamentText(text: string, file?: string): Hall {
  const read = readJsonc(text);
  // A text the parser could not read has no fields to check; keys written twice are said with
  // the problems of the fields (read with the last value of each such key).
  if (read.syntaxErrors.length) throw new TournamentFileError(sortByPosition([...read.syntaxErrors, ...read.duplicateKeys]), file);
  let hall: Hall | undefined;
  let issues: string[] = [];
  try {
    hall = parseTournament(read.value);
  } catch (err) {
    if (!(err instanceof TournamentFileError)) throw err;
    issues = err.issues.map((issue) => read.locate(issue));
  }
  if (issues.length || read.duplicateKeys.length) throw new TournamentFileError(sortByPosition([...read.duplicateKeys, ...issues]), file);
  return hall!;
}

/** Checks a parsed JSON value and builds the model; throws TournamentFileError listing every problem. */
export function parseTournament(value: unknown): Hall {
  const c = new FieldChecker();
  const root = c.object(value, '(file)');
  if (!root) throw new TournamentFileError(c.issues);
  c.unknownKeys(root, ['hall', 'events'], '(file)');
  let hallName: string | null = null;
  let site: string | null = null;
  if (root.hall !== undefined) {
    const h = c.object(root.hall, 'hall');
    if (h) {
      c.unknownKeys(h, ['name', 'site'], 'hall');
      hallName = c.string(h, 'name', 'hall', true) ?? null;
      site = c.string(h, 'site', 'hall', true) ?? null;
    }
  }
  const events: TournamentEvent[] = [];
  const at: number[] = [];
  const rawEvents = c.array(root.events, 'events') ?? [];
  if (root.events !== undefined && rawEvents.length === 0) c.problem('events', 'needs at least one event');
  rawEvents.forEach((raw, i) => {
    const ev = parseEvent(c, raw, `events[${i}]`);
    if (ev) events.push(ev);
    if (ev) at.push(i);
  });
  const rawIds = rawEvents.map((e) => (typeof e === 'object' && e !== null ? (e as Record<string, unknown>).id : undefined));
  checkHall(c, events, at, rawIds);
  if (c.issues.length) throw new TournamentFileError(c.issues);
  return { name: hallName, site, events };
}

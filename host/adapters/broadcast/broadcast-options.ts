// The broadcast's options as `chessclock host` takes them (docs/broadcast.md "From the command
// line"), read into a BroadcastSetup, each mistake said with the option and the value:
//   --broadcast [EVENT/]ROUND=lichess:ROUND_ID   a round pushed to a lichess round (repeatable)
//   --moves [EVENT=]SOURCE                        an event's moves: a PGN file, a folder, an http(s) URL
//   --lichess-url URL                             default https://lichess.org
//   --lichess-token-file FILE                     or the environment's CHESSCLOCK_LICHESS_TOKEN
//   --broadcast-delay [EVENT=]SECONDS             the event's delay (docs/broadcast.md "The delay")
// The token is never taken from the command line (a command line is visible to every user of the
// PC, in `ps`), and no message here repeats it.

import type { Hall } from '../../domain/model.ts';
import type { BroadcastSetup, BroadcastTarget } from './broadcast-runner.ts';
import { checkRoundId } from './lichess-push.ts';
import { type MovesSourceSpec, parseMovesSource } from './moves-source.ts';

export const LICHESS_URL = 'https://lichess.org';
export const TOKEN_ENV = 'CHESSCLOCK_LICHESS_TOKEN';

export interface BroadcastOptionValues {
  broadcast?: readonly string[];
  moves?: readonly string[];
  lichessUrl?: string;
  lichessTokenFile?: string;
}

export interface BroadcastOptionIo {
  env: Readonly<Record<string, string | undefined>>;
  readFile: (path: string) => string;
  isFolder: (path: string) => boolean;
}

export class BroadcastOptionError extends Error {}

/**
 * The setup the options and the tournament file's `broadcast` blocks give (docs/tournament.md "The
 * broadcast block"), or null when neither maps a round. An option overrides the file: `--broadcast`
 * for its event's round, `--moves` for its event. Throws BroadcastOptionError saying which option
 * or field is wrong.
 */
export function readBroadcastOptions(values: BroadcastOptionValues, hall: Hall, io: BroadcastOptionIo): BroadcastSetup | null {
  const given = values.broadcast ?? [];
  const fromFile = fileTargets(hall);
  if (given.length === 0 && fromFile.length === 0) {
    const stray = values.moves?.length ? '--moves' : values.lichessUrl ? '--lichess-url' : values.lichessTokenFile ? '--lichess-token-file' : null;
    if (stray) throw new BroadcastOptionError(`${stray} goes with --broadcast [EVENT/]ROUND=lichess:ROUND_ID (which round to push)`);
    return null;
  }
  const optionTargets = given.map((v) => parseBroadcastTarget(v, hall));
  for (const [i, t] of optionTargets.entries()) {
    const twice = optionTargets.findIndex((u) => u.event === t.event && u.round === t.round);
    if (twice !== i)
      throw new BroadcastOptionError(`--broadcast ${given[i]}: round ${t.round} of ${t.event} is already pushed to lichess:${optionTargets[twice].roundId}`);
  }
  const overridden = (t: BroadcastTarget) => optionTargets.some((u) => u.event === t.event && u.round === t.round);
  const targets = [...fromFile.filter((t) => !overridden(t)), ...optionTargets];
  const moves = fileMoves(hall, io.isFolder);
  const movesGiven = new Set<string>();
  for (const v of values.moves ?? []) {
    const [event, spec] = parseMovesOption(v, hall, io.isFolder);
    if (movesGiven.has(event)) throw new BroadcastOptionError(`--moves ${v}: event ${event} has a moves source already`);
    movesGiven.add(event);
    moves[event] = spec;
  }
  const lichessUrl = values.lichessUrl ?? LICHESS_URL;
  if (!/^https?:\/\/[^/\s]+/.test(lichessUrl)) throw new BroadcastOptionError(`--lichess-url ${lichessUrl}: expected an http(s) URL, e.g. ${LICHESS_URL}`);
  const delays = fileBroadcastDelays(hall);
  return {
    targets,
    lichessUrl,
    token: readToken(values.lichessTokenFile, io, given.length === 0),
    moves,
    ...(Object.keys(delays).length > 0 ? { delays } : {}),
  };
}

/**
 * Each event's delay in seconds from the tournament file's `broadcast` blocks (`delay`), by event id;
 * an event with none, or 0, is not named. The host's `broadcastDelay` and the setup's `delays` take
 * this shape; a delay given on the command line goes over it.
 */
export function fileBroadcastDelays(hall: Hall): Record<string, number> {
  return Object.fromEntries(hall.events.filter((e) => e.broadcast?.delaySeconds).map((e) => [e.id, e.broadcast!.delaySeconds]));
}

/** The rounds the tournament file's `broadcast` blocks map, each (or each board range) to its lichess round. */
function fileTargets(hall: Hall): BroadcastTarget[] {
  return hall.events.flatMap((e) =>
    (e.broadcast?.rounds ?? []).map((r) => ({ event: e.id, round: r.round, roundId: r.roundId, ...(r.boards ? { boards: r.boards } : {}) })),
  );
}

/** The moves sources the tournament file's `broadcast` blocks name, by event. */
function fileMoves(hall: Hall, isFolder: (path: string) => boolean): Record<string, MovesSourceSpec> {
  const moves: Record<string, MovesSourceSpec> = {};
  hall.events.forEach((e, i) => {
    if (!e.broadcast?.moves) return;
    try {
      moves[e.id] = parseMovesSource(e.broadcast.moves, isFolder);
    } catch (err) {
      throw new BroadcastOptionError(`tournament file, events[${i}].broadcast.moves: ${(err as Error).message}`);
    }
  });
  return moves;
}

/** `[EVENT/]ROUND=lichess:ROUND_ID`; EVENT may be left out when the hall has one event. */
export function parseBroadcastTarget(value: string, hall: Hall): BroadcastTarget {
  const m = /^(?:([^/=]+)\/)?([^/=]+)=lichess:(.*)$/.exec(value.trim());
  if (!m) throw new BroadcastOptionError(`--broadcast ${value}: expected [EVENT/]ROUND=lichess:ROUND_ID, e.g. --broadcast 1=lichess:aBcD1234`);
  const [, eventText, roundText, roundId] = m;
  const event = eventText ?? (hall.events.length === 1 ? hall.events[0].id : null);
  if (event === null) throw new BroadcastOptionError(`--broadcast ${value}: the hall has ${hall.events.length} events; write EVENT/ROUND=lichess:ROUND_ID`);
  if (!hall.events.some((e) => e.id === event)) {
    throw new BroadcastOptionError(`--broadcast ${value}: no event "${event}" in the tournament file (events: ${hall.events.map((e) => e.id).join(', ')})`);
  }
  const round = Number(roundText);
  if (!Number.isInteger(round) || round < 1) throw new BroadcastOptionError(`--broadcast ${value}: round "${roundText}" is not a round number 1, 2, …`);
  try {
    checkRoundId(roundId);
  } catch (err) {
    throw new BroadcastOptionError(`--broadcast ${value}: ${(err as Error).message}`);
  }
  return { event, round, roundId };
}

/** `[EVENT=]SOURCE`: the part before `=` is the event when it names one of the hall's events. */
function parseMovesOption(value: string, hall: Hall, isFolder: (path: string) => boolean): [string, MovesSourceSpec] {
  const eq = value.indexOf('=');
  const named = eq > 0 && hall.events.some((e) => e.id === value.slice(0, eq));
  const event = named ? value.slice(0, eq) : hall.events.length === 1 ? hall.events[0].id : null;
  if (event === null) throw new BroadcastOptionError(`--moves ${value}: the hall has ${hall.events.length} events; write EVENT=SOURCE`);
  try {
    return [event, parseMovesSource(named ? value.slice(eq + 1) : value, isFolder)];
  } catch (err) {
    throw new BroadcastOptionError(`--moves ${value}: ${(err as Error).message}`);
  }
}

function readToken(file: string | undefined, io: BroadcastOptionIo, fileOnly: boolean): string {
  const fromEnv = io.env[TOKEN_ENV];
  if (file !== undefined && fromEnv) throw new BroadcastOptionError(`the lichess token is given twice: by ${TOKEN_ENV} and by --lichess-token-file; give one`);
  if (file !== undefined) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (err) {
      throw new BroadcastOptionError(`--lichess-token-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const token = text.trim();
    if (token === '' || /\s/.test(token)) throw new BroadcastOptionError(`--lichess-token-file ${file}: expected the token alone on one line`);
    return token;
  }
  if (fromEnv?.trim()) return fromEnv.trim();
  const asker = fileOnly ? "the tournament file's broadcast block" : '--broadcast';
  throw new BroadcastOptionError(`${asker} needs a lichess token (scope study:write): set ${TOKEN_ENV} or give --lichess-token-file FILE`);
}

/** The longest delay taken: a day. */
const MAX_DELAY_S = 86_400;

/**
 * `--broadcast-delay [EVENT=]SECONDS` (repeatable, one per event): each event's delay in whole
 * seconds; EVENT may be left out when the hall has one event. It holds back the lichess push and
 * the public PGN feed, so it needs no `--broadcast`.
 */
export function readBroadcastDelays(values: readonly string[] | undefined, hall: Hall): Record<string, number> {
  const delays: Record<string, number> = {};
  for (const value of values ?? []) {
    const eq = value.indexOf('=');
    const event = eq >= 0 ? value.slice(0, eq) : hall.events.length === 1 ? hall.events[0].id : null;
    const seconds = eq >= 0 ? value.slice(eq + 1) : value;
    if (event === null) throw new BroadcastOptionError(`--broadcast-delay ${value}: the hall has ${hall.events.length} events; write EVENT=SECONDS`);
    if (!hall.events.some((e) => e.id === event)) {
      throw new BroadcastOptionError(
        `--broadcast-delay ${value}: no event "${event}" in the tournament file (events: ${hall.events.map((e) => e.id).join(', ')})`,
      );
    }
    if (!/^\d+$/.test(seconds.trim()) || Number(seconds) > MAX_DELAY_S) {
      throw new BroadcastOptionError(
        `--broadcast-delay ${value}: "${seconds}" is not a delay in whole seconds from 0 to ${MAX_DELAY_S}, e.g. 900 for 15 minutes`,
      );
    }
    if (delays[event] !== undefined) throw new BroadcastOptionError(`--broadcast-delay ${value}: event ${event} has a delay already (${delays[event]} s)`);
    delays[event] = Number(seconds);
  }
  return delays;
}

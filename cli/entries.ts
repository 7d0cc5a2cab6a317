// `chessclock tournament entry|withdraw|bye|round-start --host URL --event ID …`: an arbiter's
// entry in a running host (docs/tournament.md "Entries"), posted to the host's entries API
// (docs/api.md "Entries") with the arbiter token from CHESSCLOCK_TOKEN or `--token-file FILE`,
// never from the command line (as `import-trf --host`). Prints what the host recorded, or its
// refusal with the reason. Exit 0 done; 1 the host refused it or cannot be reached; 2 bad usage.
import { parseCommandOptions } from './command-options.ts';
import { arbiterToken, hostUrl, loopback, postJson, TOKEN_ENV } from './import-trf.ts';
import type { EntriesView } from '../host/app/ports.ts';

export const ENTRY_COMMANDS = ['entry', 'withdraw', 'bye', 'round-start'] as const;
type EntryCommandName = (typeof ENTRY_COMMANDS)[number];

const COMMON = `  --host URL          the running host (http://127.0.0.1:8080)
  --event ID          the host's event
  --token-file FILE   the arbiter token: the first line of FILE; else the environment
                      variable ${TOKEN_ENV} (never on the command line: ps shows it)`;

const HELP: Record<EntryCommandName, string> = {
  entry: `usage: chessclock tournament entry --host URL --event ID --name "Lastname, Firstname" [options]

A late entrant, from the next round not paired yet (or --from-round N): a new player of the event.
  --name TEXT         "Lastname, Firstname" as FIDE lists it (at most 33 characters)
  --rank N            the starting rank (default: the next free one)
  --rating N  --title T  --federation FED  --fide-id N  --sex m|w  --birth-date YYYY/MM/DD
  --from-round N      the first round the player plays (default: the next round to pair)
${COMMON}`,
  withdraw: `usage: chessclock tournament withdraw --host URL --event ID --player RANK [--from-round N]

A withdrawal: the player is not paired from round N on (default: the next round to pair).
${COMMON}`,
  bye: `usage: chessclock tournament bye --host URL --event ID --player RANK --round N [--points P]

A requested bye in round N: the player is not paired and scores P points: 0, 0.5 or 1
(TRF16 byes Z, H, F; default 0.5, a half-point bye).
${COMMON}`,
  'round-start': `usage: chessclock tournament round-start --host URL --event ID --round N --start TIME

A round's start time: TIME with its offset, 2026-04-05T17:00+02:00 or 2026-04-05T15:00Z.
${COMMON}`,
};

const OPTIONS = {
  host: { type: 'string' },
  event: { type: 'string' },
  'token-file': { type: 'string' },
  name: { type: 'string' },
  rank: { type: 'string' },
  rating: { type: 'string' },
  title: { type: 'string' },
  federation: { type: 'string' },
  'fide-id': { type: 'string' },
  sex: { type: 'string' },
  'birth-date': { type: 'string' },
  'from-round': { type: 'string' },
  player: { type: 'string' },
  round: { type: 'string' },
  points: { type: 'string' },
  start: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean' },
} as const;

/** Which options each command takes (the others are refused, naming them). */
const TAKES: Record<EntryCommandName, readonly string[]> = {
  entry: ['name', 'rank', 'rating', 'title', 'federation', 'fide-id', 'sex', 'birth-date', 'from-round'],
  withdraw: ['player', 'from-round'],
  bye: ['player', 'round', 'points'],
  'round-start': ['round', 'start'],
};

class Usage extends Error {}

function whole(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new Usage(`--${name} ${text}: expected a whole number`);
  return Number(text);
}

function required<T>(name: string, value: T | undefined): T {
  if (value === undefined) throw new Usage(`--${name} is required`);
  return value;
}

type Values = Record<string, string | boolean | undefined>;

/** The API route and body of the command. */
function request(name: EntryCommandName, v: Values, event: string): { path: string; body: Record<string, unknown> } {
  const s = (k: string) => v[k] as string | undefined;
  const base = `/api/events/${encodeURIComponent(event)}`;
  const fromRound = whole('from-round', s('from-round'));
  if (name === 'entry') {
    const player = {
      name: required('name', s('name')),
      rank: whole('rank', s('rank')),
      rating: whole('rating', s('rating')),
      title: s('title'),
      federation: s('federation'),
      fideId: whole('fide-id', s('fide-id')),
      sex: s('sex'),
      birthDate: s('birth-date'),
    };
    return { path: `${base}/entries/late-entry`, body: { player: JSON.parse(JSON.stringify(player)), fromRound } };
  }
  if (name === 'withdraw') return { path: `${base}/entries/withdrawal`, body: { player: required('player', whole('player', s('player'))), fromRound } };
  if (name === 'bye') {
    const points = s('points');
    if (points !== undefined && !/^(0|0\.5|1)$/.test(points)) throw new Usage(`--points ${points}: expected 0, 0.5 or 1`);
    return {
      path: `${base}/entries/bye`,
      body: {
        player: required('player', whole('player', s('player'))),
        round: required('round', whole('round', s('round'))),
        points: points === undefined ? undefined : Number(points),
      },
    };
  }
  return { path: `${base}/rounds/${required('round', whole('round', s('round')))}/start-time`, body: { start: required('start', s('start')) } };
}

/** What the host recorded, in a line the arbiter reads. */
function recorded(name: EntryCommandName, e: EntriesView): string {
  if (name === 'entry') {
    const l = e.lateEntries.at(-1)!;
    return `${e.event}: ${l.player.name} entered as player ${l.player.rank}, from round ${l.fromRound} (by ${l.by}, journal action ${l.id})`;
  }
  if (name === 'withdraw') {
    const w = e.withdrawals.at(-1)!;
    return `${e.event}: player ${w.player.rank} ${w.player.name} withdrawn from round ${w.fromRound} on (by ${w.by}, journal action ${w.id})`;
  }
  if (name === 'bye') {
    const b = e.byes.at(-1)!;
    return `${e.event} round ${b.round}: player ${b.player.rank} ${b.player.name} has a requested bye, ${b.points} point(s), TRF code ${b.kind} (by ${b.by}, journal action ${b.id})`;
  }
  const r = e.roundStarts.at(-1)!;
  return `${e.event} round ${r.round}: starts ${new Date(r.startUtcMs).toISOString()} (by ${r.by}, journal action ${r.id})`;
}

export async function entryCommand(name: EntryCommandName, args: string[]): Promise<number> {
  const command = `tournament ${name}`;
  const parsed = parseCommandOptions(command, args, OPTIONS, HELP[name]);
  if ('exit' in parsed) return parsed.exit;
  const v = parsed.values as Values;
  const usage = (message: string) => {
    process.stderr.write(`chessclock ${command}: ${message}\n`);
    return 2;
  };
  if (v.token !== undefined)
    return usage(`the arbiter token is never taken on the command line (ps shows it to every user): set ${TOKEN_ENV} or give --token-file FILE`);
  for (const k of Object.keys(v))
    if (!['host', 'event', 'token-file', 'help', ...TAKES[name]].includes(k)) return usage(`--${k} does not go with ${name}\n\n${HELP[name]}`);
  let req;
  try {
    req = request(name, v, required('event', v.event as string | undefined));
    required('host', v.host);
  } catch (err) {
    if (err instanceof Usage) return usage(err.message);
    throw err;
  }
  const base = hostUrl(v.host as string);
  if (base instanceof Error) return usage(base.message);
  const token = arbiterToken(v['token-file'] as string | undefined);
  if (token instanceof Error) return usage(token.message);
  if (base.protocol === 'http:' && !loopback(base.hostname))
    process.stderr.write(
      `warning: the arbiter token goes to ${base.host} over plain HTTP, readable on the network (the host's --https-cert, docs/api.md "Security")\n`,
    );
  let response;
  try {
    response = await postJson(new URL(req.path, base), token, req.body);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    process.stderr.write(`chessclock ${command}: cannot reach the host at ${base.origin}: ${e.code ?? e.message}\n`);
    return 1;
  }
  let body: { message?: string; entries?: EntriesView } = {};
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch {
    // not JSON: the status and the text say it
  }
  if (response.status !== 200 || !body.entries) {
    const why = body.message ?? (response.text.slice(0, 500) || response.statusText);
    process.stderr.write(`chessclock ${command}: the host refused it (${response.status} ${response.statusText}): ${why}\n`);
    return 1;
  }
  process.stdout.write(`${recorded(name, body.entries)}\n`);
  return 0;
}

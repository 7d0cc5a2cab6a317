// `chessclock tournament import-trf FILE`: a pairing program's TRF as a whole tournament file, or
// (`--next-round`) as the next round: printed as the tournament-file round to append, or loaded
// into a running host (`--host URL --event ID`, POST /api/events/:event/rounds) where it waits
// for an arbiter's approval (docs/tournament.md "Pairing the next round").
//
// The arbiter token is never taken on the command line (`ps` shows it to every user of the
// machine): it comes from the environment variable CHESSCLOCK_TOKEN or the first line of
// `--token-file FILE` (docs/host.md "Secrets").
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseCommandOptions } from './command-options.ts';
import { readOptionFile } from './security-options.ts';
import { importTrf, parseTag222, tournamentFileOf, TrfImportError } from '../host/adapters/exports/trf-import.ts';
import { formatTimeControl, readTimeControlSpec, TimeControlError, type TimeControl } from '../protocol/time-control.ts';
import { parseTrf, TrfParseError } from '../host/adapters/exports/trf-parser.ts';
import { parseTournament, TournamentFileError } from '../host/domain/tournament-file.ts';
import type { RoundProposalView } from '../host/app/ports.ts';

export const TOKEN_ENV = 'CHESSCLOCK_TOKEN';
/** How long the host may take to check and file a TRF. */
const REQUEST_TIMEOUT_MS = 60_000;

export const IMPORT_TRF_HELP = `usage: chessclock tournament import-trf FILE --id ID [--time-control SPEC] [--default-time SECONDS]
       chessclock tournament import-trf FILE --next-round
       chessclock tournament import-trf FILE --next-round --host URL --event ID [--token-file FILE]

A pairing program's TRF (FILE; TRF16 player lines, 310 team records, tag 222 time control,
tag 142/XXR the planned rounds):
  --id ID             the whole event as a tournament file, printed as JSON (players, teams,
                      the rounds paired so far); --default-time SECONDS: the allowed lateness
                      (FIDE Laws 6.7.1)
  --time-control SPEC with --id: the event's time control when the TRF has no tag 222 (a preset:
                      classical, rapid, blitz …; or a PGN field: 5400+30, 40/5400+30:900+30;
                      W360-B300); refused when it contradicts the TRF's tag 222. A round
                      (--next-round, --host) carries none: the event's own applies, so the TRF
                      needs no tag 222 there
  --next-round        only the TRF's last round, paired and unplayed: printed as the round to
                      append to the event's "rounds" in the tournament file
  --host URL          with --next-round: load it into the running host at URL
                      (http://127.0.0.1:8080) as event ID's next round, proposed until an
                      arbiter approves it on the dashboard; prints the proposal, or the host's
                      refusal with the TRF line and field
  --event ID          the host's event (with --host)
  --token-file FILE   the arbiter token: the first line of FILE; else the environment
                      variable ${TOKEN_ENV} (never on the command line: ps shows it)

Exit status: 0 done; 1 the TRF has problems, or the host refused it or cannot be reached; 2 bad usage.`;

const OPTIONS = {
  id: { type: 'string' },
  'default-time': { type: 'string' },
  'time-control': { type: 'string' },
  'next-round': { type: 'boolean' },
  host: { type: 'string' },
  event: { type: 'string' },
  'token-file': { type: 'string' },
  help: { type: 'boolean' },
} as const;

const COMMAND = 'tournament import-trf';

function usage(message: string): number {
  process.stderr.write(`chessclock ${COMMAND}: ${message}\n`);
  return 2;
}

function problem(message: string): number {
  process.stderr.write(`chessclock ${COMMAND}: ${message}\n`);
  return 1;
}

export async function importTrfCommand(args: string[]): Promise<number> {
  // A secret on the command line is refused before anything else, with where it goes instead.
  const tokenArg = args.find((a) => a === '--token' || a.startsWith('--token='));
  if (tokenArg) return usage(`the arbiter token is never taken on the command line (ps shows it to every user): set ${TOKEN_ENV} or give --token-file FILE`);
  const parsed = parseCommandOptions(COMMAND, args, OPTIONS, IMPORT_TRF_HELP, true);
  if ('exit' in parsed) return parsed.exit;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usage(`expected one TRF FILE, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  const file = positionals[0];
  if (!values['next-round']) {
    for (const o of ['host', 'event', 'token-file'] as const) if (values[o] !== undefined) return usage(`--${o} goes with --next-round`);
    if (!values.id) return usage('expected --id ID (the event id of the tournament file), or --next-round');
    const tc = timeControlOption(values['time-control']);
    if (tc instanceof Error) return usage(tc.message);
    return wholeEvent(file, values.id, values['default-time'], tc);
  }
  for (const o of ['id', 'default-time'] as const) if (values[o] !== undefined) return usage(`--${o} is for the whole tournament file, not --next-round`);
  if (values['time-control'] !== undefined)
    return usage("--time-control goes with --id: a round carries no time control (the event's own applies), so --next-round needs no tag 222");
  if (values.host === undefined) {
    for (const o of ['event', 'token-file'] as const) if (values[o] !== undefined) return usage(`--${o} goes with --host URL`);
    return printNextRound(file);
  }
  if (!values.event) return usage('--host needs --event ID: the event whose next round this is');
  return loadIntoHost(file, values.host, values.event, values['token-file']);
}

/** A file's text, or exit status 1 with why it cannot be read. */
export function readInputFile(file: string, command = COMMAND): string | number {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') {
      process.stderr.write(`chessclock ${command}: cannot read ${file}: ${e.message}\n`);
      return 1;
    }
    throw err;
  }
}

function trfRefusal(file: string, err: unknown): number {
  if (err instanceof TrfImportError || err instanceof TrfParseError || err instanceof TournamentFileError) return problem(`${file}: ${err.message}`);
  throw err;
}

/** `--time-control SPEC` through the one time-control reader, or why it is refused. */
function timeControlOption(spec: string | undefined): TimeControl | undefined | Error {
  if (spec === undefined) return undefined;
  try {
    return readTimeControlSpec(spec).timeControl;
  } catch (err) {
    if (err instanceof TimeControlError) return new Error(`--time-control ${JSON.stringify(spec)}: ${err.message}`);
    throw err;
  }
}

/** The TRF's time control question answered: tag 222, or --time-control, not two that disagree; else why not. */
function timeControlProblem(file: string, text: string, given: TimeControl | undefined): string | null {
  const t222 = parseTrf(text).tags.get('222')?.[0];
  if (!t222 && !given)
    return `${file}: the TRF has no tag 222 (time control): give it with --time-control SPEC (a preset: classical, rapid, blitz …; or a PGN field: 5400+30)`;
  if (t222 && given && formatTimeControl(parseTag222(t222)) !== formatTimeControl(given))
    return `${file}: the TRF's tag 222 "${t222}" and --time-control (${formatTimeControl(given)}) disagree: leave out --time-control, or correct the TRF`;
  return null;
}

function wholeEvent(file: string, id: string, defaultTime: string | undefined, timeControl: TimeControl | undefined): number {
  const seconds = defaultTime === undefined ? undefined : Number(defaultTime);
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 0)) return usage(`--default-time ${defaultTime}: whole seconds ≥ 0`);
  const text = readInputFile(file);
  if (typeof text === 'number') return text;
  try {
    const tcProblem = timeControlProblem(file, text, timeControl);
    if (tcProblem) return problem(tcProblem);
    const event = importTrf(text, { id, ...(timeControl ? { timeControl } : {}), ...(seconds !== undefined ? { defaultTimeMs: seconds * 1000 } : {}) });
    const tournament = tournamentFileOf(event);
    parseTournament(tournament); // what is printed loads as it stands
    process.stdout.write(JSON.stringify(tournament, null, 2) + '\n');
    return 0;
  } catch (err) {
    return trfRefusal(file, err);
  }
}

/**
 * The TRF's last round as a tournament-file round. A next round is paired and unplayed: a result
 * on a paired field of it is refused, naming the line and column (TRF16 92 + 10(r-1) … result at +7).
 */
function printNextRound(file: string): number {
  const text = readInputFile(file);
  if (typeof text === 'number') return text;
  try {
    const trf = parseTrf(text);
    const last = Math.max(0, ...trf.players.map((p) => p.rounds.length));
    if (last === 0) return problem(`${file}: the TRF pairs no round (its player lines have no round fields, TRF16 columns 92-99)`);
    for (const p of trf.players) {
      const r = p.rounds[last - 1];
      if (r && r.opponent !== null && r.code !== ' ') {
        const column = 92 + 10 * (last - 1) + 7;
        return problem(
          `${file}: TRF line ${p.line}, columns ${column} (round ${last} result): player ${p.rank} already has result "${r.code}"; a next round is paired and unplayed`,
        );
      }
    }
    // A round carries no time control: importTrf reads one all the same, so a TRF with no tag 222 gets a stand-in that is never printed.
    const event = importTrf(text, { id: 'next-round', timeControl: readTimeControlSpec('rapid').timeControl });
    const rounds = tournamentFileOf(event).events as { rounds: unknown[] }[];
    process.stdout.write(JSON.stringify(rounds[0].rounds[last - 1], null, 2) + '\n');
    return 0;
  } catch (err) {
    return trfRefusal(file, err);
  }
}

export function arbiterToken(tokenFile: string | undefined): string | Error {
  if (tokenFile !== undefined) {
    let first: string;
    try {
      first = readOptionFile('--token-file', tokenFile).toString('utf8').split(/\r?\n/)[0].trim();
    } catch (err) {
      return err as Error;
    }
    return first === '' ? new Error(`--token-file ${tokenFile}: the first line is empty; it must hold the arbiter token`) : first;
  }
  const env = process.env[TOKEN_ENV]?.trim();
  if (env) return env;
  return new Error(`no arbiter token: set the environment variable ${TOKEN_ENV} or give --token-file FILE`);
}

export function hostUrl(host: string): URL | Error {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    return new Error(`--host ${JSON.stringify(host)}: expected the host's address, e.g. http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new Error(`--host ${host}: expected http:// or https://, got ${url.protocol}`);
  if (url.username || url.password) return new Error(`--host ${host}: no credentials in the address (the token comes from ${TOKEN_ENV} or --token-file)`);
  return url;
}

export const loopback = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);

async function loadIntoHost(file: string, host: string, event: string, tokenFile: string | undefined): Promise<number> {
  return proposeToHost(COMMAND, { file, host, event, tokenFile }, () => {
    const trf = readInputFile(file);
    return typeof trf === 'number' ? trf : { trf };
  });
}

/** Where a next round goes: the file named in messages, the host, the event, the token file. */
export interface HostTarget {
  file: string;
  host: string;
  event: string;
  tokenFile: string | undefined;
}

/**
 * POSTs a next round to the running host (POST /api/events/:event/rounds, `body()`: `{ trf }` or
 * `{ trf, pairs }`, or an exit status when a file cannot be read) and prints the proposal, or the
 * host's refusal with its status (exit 1). Bad usage (the address, no token): exit 2.
 */
export async function proposeToHost(command: string, target: HostTarget, body: () => Record<string, string> | number): Promise<number> {
  const { file, host, event } = target;
  const fail = (status: number, message: string) => {
    process.stderr.write(`chessclock ${command}: ${message}\n`);
    return status;
  };
  const base = hostUrl(host);
  if (base instanceof Error) return fail(2, base.message);
  const token = arbiterToken(target.tokenFile);
  if (token instanceof Error) return fail(2, token.message);
  const payload = body();
  if (typeof payload === 'number') return payload;
  if (base.protocol === 'http:' && !loopback(base.hostname)) {
    process.stderr.write(
      `warning: the arbiter token goes to ${base.host} over plain HTTP, readable on the network (the host's --https-cert, docs/api.md "Security")\n`,
    );
  }
  const url = new URL(`/api/events/${encodeURIComponent(event)}/rounds`, base);
  let response: { status: number; statusText: string; text: string };
  try {
    response = await postJson(url, token, payload);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return fail(1, `cannot reach the host at ${base.origin}: ${e.code ?? e.message}`);
  }
  const { text } = response;
  let answer: { message?: string; proposal?: RoundProposalView } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // not JSON: the status and the text say it
  }
  if (response.status !== 201 || !answer.proposal) {
    const why = answer.message ?? (text.slice(0, 500) || response.statusText);
    return fail(1, `the host refused ${file} as event "${event}"'s next round (${response.status} ${response.statusText}): ${why}`);
  }
  process.stdout.write(proposalText(answer.proposal));
  return 0;
}

/**
 * POSTs JSON with node:http(s) (not fetch, whose list of "bad ports" would refuse some ports a host
 * may use); an https host's certificate is checked against the system's CAs and NODE_EXTRA_CA_CERTS.
 */
export function postJson(url: URL, token: string, body: unknown): Promise<{ status: number; statusText: string; text: string }> {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': payload.length },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The proposal as the arbiter reads it: what waits, where to approve it, the boards and byes. */
export function proposalText(p: RoundProposalView): string {
  const who = (e: { rank: number; name: string }) => `${e.rank} ${e.name}`;
  const lines = [
    `${p.event} round ${p.round}: proposed from ${p.source === 'pairs' ? 'the pairs list' : 'the TRF'} by ${p.by} (journal action ${p.id}); nothing is opened until an arbiter approves it (dashboard, Next round; or POST /api/events/${p.event}/rounds/${p.round}/approve)`,
    ...p.boards.map((b) => `  board ${b.board}: ${who(b.white)} - ${who(b.black)}`),
    ...p.byes.map((b) => `  bye (${b.kind}): ${b.player ? who(b.player) : b.team ? `team ${b.team.id} ${b.team.name}` : '?'}`),
  ];
  return lines.join('\n') + '\n';
}

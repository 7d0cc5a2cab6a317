// The next round of a Swiss event from outside the host (docs/tournament.md "Pairing the next
// round"): a pairing engine run on the event's TRF, or a pairing program's TRF, or its pairs list
// with the TRF it was paired from, loaded by the arbiter. Either gives a round for the app to propose (host/app/next-round.ts); neither opens it.
//
// The engine follows the JaVaFo / bbpPairings command line: the host writes the TRF after the
// last confirmed round (trf-event.ts, with tag 142 and XXR: the planned rounds), runs
// `COMMAND… IN.trf -p OUT.txt` (an argument array, no shell; a time limit), and reads OUT.txt:
// the number of pairs on the first line, then one `white black` pair per line by starting rank,
// `0` for the bye, board 1 first (`parsePairsFile`).

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemTime } from '../../../protocol/monotonic.ts';
import type { Journal } from '../../store/journal.ts';
import type { Bye, BoardPairing, Hall, PairingEngine, Round, TournamentEvent } from '../../domain/model.ts';
import { NextRoundError, type NextRoundPairing } from '../../app/next-round.ts';
import { failedEngineRun, type EngineRun } from '../../app/proposal-records.ts';
import { eventTrf, eventTrfReport } from './trf-event.ts';
import { roundAbsences } from '../../app/entries.ts';
import { TrfError } from './trf.ts';
import { importTrf, parsePairsFile, TrfImportError } from './trf-import.ts';
import { parseTrf, TrfParseError, type TrfFile, type TrfRound } from './trf-parser.ts';
import { pairsRound, roundsPlayed } from './pairs-import.ts';

/** What is kept of an engine's stderr: its end, where the error is. */
const STDERR_KEEP = 8 * 1024;
/** A pairs file is a line per pair; anything near this size is not one. */
const MAX_PAIRS_FILE = 1024 * 1024;

export interface ProcessRun {
  command: string[];
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  durationMs: number;
  /** Why the process did not run to a clean end (could not start, time limit, non-zero exit), else null. */
  failure: string | null;
}

/**
 * Runs `command` with no shell, stdin closed, within `timeoutMs`: then its whole process group is
 * killed (SIGKILL), so an engine started through a wrapper script leaves nothing running. Never
 * throws for the program's faults: they are in the run.
 */
export function runProcess(command: readonly string[], cwd: string, timeoutMs: number, signal?: AbortSignal): Promise<ProcessRun> {
  const started = systemTime.now();
  return new Promise((resolve) => {
    let stderr = '';
    let spawnError: Error | null = null;
    let timedOut = false;
    // Its own process group (detached), so that the time limit reaches the engine's children too.
    const child = spawn(command[0], command.slice(1), { cwd, shell: false, stdio: ['ignore', 'ignore', 'pipe'], detached: true, windowsHide: true });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone already, or this platform has none
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    let aborted = false;
    const abort = () => {
      aborted = true;
      killGroup();
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('error', (err) => {
      spawnError = err;
    });
    let settled = false;
    const settle = (exitCode: number | null, exitSignal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      const durationMs = Math.round(systemTime.now() - started);
      let failure: string | null = null;
      if (spawnError) failure = `could not run "${command[0]}": ${spawnError.message}`;
      else if (aborted) failure = 'stopped: the host is stopping';
      else if (timedOut) failure = `stopped after the time limit of ${timeoutMs / 1000} s (SIGKILL)`;
      else if (exitSignal !== null) failure = `stopped by ${exitSignal}`;
      else if (exitCode !== 0) failure = `exited with code ${exitCode}`;
      resolve({ command: [...command], exitCode, signal: exitSignal, stderr, durationMs, failure });
    };
    child.on('close', settle);
    // A child of the engine that keeps its stderr open must not hold the host: shortly after the
    // engine itself exits, its group is killed and the run ends with what was read.
    child.on('exit', (exitCode, exitSignal) => {
      setTimeout(() => {
        if (settled) return;
        killGroup();
        child.stderr.destroy();
        settle(exitCode, exitSignal);
      }, 1_000).unref();
    });
  });
}

/**
 * Runs a pairing engine on `inputTrf` in a fresh temporary folder (removed after) and returns
 * its run with the pairs file it wrote; `error` says why there are no pairings to read.
 */
export async function runPairingEngine(
  engine: PairingEngine,
  inputTrf: string,
  signal?: AbortSignal,
): Promise<Omit<EngineRun, 'round' | 'error'> & { error: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'chessclock-pairing-'));
  try {
    const input = join(dir, 'in.trf');
    const out = join(dir, 'out.txt');
    await writeFile(input, inputTrf, 'utf8');
    const run = await runProcess([...engine.command, input, '-p', out], dir, engine.timeoutMs, signal);
    let output: string | null = null;
    try {
      const bytes = await readFile(out);
      output = bytes.length > MAX_PAIRS_FILE ? null : bytes.toString('utf8');
      if (output === null && !run.failure) run.failure = `wrote a pairs file of ${bytes.length} bytes, too large to be one`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (!run.failure) run.failure = `wrote no pairs file (${out})`;
    }
    const lastLine = run.stderr.trim().split('\n').at(-1);
    const error = run.failure ? `the pairing engine ${run.failure}${lastLine ? `: ${lastLine}` : ''}` : null;
    return { command: run.command, input: inputTrf, output, stderr: run.stderr, exitCode: run.exitCode, signal: run.signal, durationMs: run.durationMs, error };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The engine's pairs file as the event's round: every starting rank a player of the event, each
 * player paired once, and every player paired or given the bye (the TRF the engine read lists
 * them all, none withdrawn). Boards in the engine's order; the bye (`N 0`) is the pairing-allocated
 * bye (TRF16 `U`). Errors name the pairs file's line.
 */
export function roundFromPairs(event: TournamentEvent, text: string, number: number): Round {
  let pairs;
  try {
    pairs = parsePairsFile(text);
  } catch (err) {
    if (err instanceof TrfImportError) throw new NextRoundError(422, err.message);
    throw err;
  }
  const ranks = new Set(event.players.map((p) => p.rank));
  const boards: BoardPairing[] = [];
  const byes: Bye[] = [];
  pairs.forEach((p, i) => {
    for (const rank of [p.white, p.black]) {
      if (rank !== null && !ranks.has(rank))
        throw new NextRoundError(
          422,
          `pairs file line ${i + 2}: player ${rank} is not in event "${event.id}" (starting ranks ${Math.min(...ranks)}-${Math.max(...ranks)})`,
        );
    }
    if (p.black === p.white) throw new NextRoundError(422, `pairs file line ${i + 2}: player ${p.white} is paired with themselves`);
    if (p.black === null) byes.push({ player: p.white, team: null, kind: 'U' });
    else boards.push({ board: boards.length + 1, white: p.white, black: p.black });
  });
  const paired = new Set(pairs.flatMap((p) => [p.white, p.black]));
  const missing = event.players.filter((p) => !paired.has(p.rank));
  if (missing.length) {
    throw new NextRoundError(
      422,
      `pairs file: ${missing.map((p) => `player ${p.rank} (${p.name})`).join(', ')} not paired; every player of the TRF must be paired or get the bye`,
    );
  }
  return { number, date: null, startUtcMs: null, boards, teamMatches: [], knockout: [], byes };
}

const fieldText = (r: TrfRound | undefined) =>
  r ? `${r.opponent === null ? '0000' : String(r.opponent).padStart(4, '0')} ${r.colour ?? '-'} ${r.code === ' ' ? '(blank)' : r.code}` : '(none)';

/**
 * The round after `after` from a pairing program's TRF: its players and the results of rounds
 * 1..after must be the journal's (the TRF the host writes for those rounds), round after+1 must be
 * paired and unplayed, and no later round may be in it. Refusals name the TRF line and columns.
 */
export function roundFromTrf(journal: Journal, hall: Hall, event: TournamentEvent, after: number, text: string): Round {
  try {
    return checkedRound(journal, hall, event, after, text);
  } catch (err) {
    if (err instanceof TrfParseError || err instanceof TrfImportError || err instanceof TrfError) throw new NextRoundError(422, err.message);
    throw err;
  }
}

function checkedRound(journal: Journal, hall: Hall, event: TournamentEvent, after: number, text: string): Round {
  const file: TrfFile = parseTrf(text);
  checkAgainstJournal(journal, hall, event, after, file);
  // Rounds: exactly the played ones, then the next.
  const rounds = Math.max(...file.players.map((p) => p.rounds.length));
  if (rounds <= after) throw new NextRoundError(422, `the TRF pairs no round ${after + 1}: its player lines end at round ${rounds}`);
  if (rounds > after + 1) {
    const p = file.players.find((x) => x.rounds.length === rounds)!;
    const start = 92 + 10 * (rounds - 1);
    throw new NextRoundError(
      422,
      `${where(p.line, `${start}-${start + 7}`, `round ${rounds}`)}: the host has played ${after} round(s); the TRF must add round ${after + 1} only`,
    );
  }
  for (const p of file.players) {
    const next = p.rounds[after];
    if (next && next.opponent !== null && next.code !== ' ') {
      const start = 92 + 10 * after;
      throw new NextRoundError(
        422,
        `${where(p.line, `${start + 7}`, `round ${after + 1} result`)}: player ${p.rank} already has result "${next.code}"; the next round must be unplayed`,
      );
    }
  }
  const imported = importTrf(text, { id: event.id, timeControl: event.timeControl });
  const round = imported.rounds[after];
  if (!round || round.boards.length === 0) throw new NextRoundError(422, `the TRF pairs nobody in round ${after + 1}`);
  return { ...round, number: after + 1 };
}

const where = (line: number, columns: string, field: string) => `TRF line ${line}, columns ${columns} (${field})`;

/**
 * A pairing program's TRF against the journal: every player of the event with its starting rank and
 * name, nobody else (a team event: its 310 teams and players), and every round field of rounds
 * 1..after equal to what the host's own TRF writes for them. Refusals name the TRF line and columns.
 */
function checkAgainstJournal(journal: Journal, hall: Hall, event: TournamentEvent, after: number, file: TrfFile): void {
  if (file.players.length === 0) throw new NextRoundError(422, 'the TRF has no 001 player lines');
  // Players: the event's, by starting rank and name.
  const byRank = new Map(file.players.map((p) => [p.rank, p]));
  for (const p of file.players) {
    const mine = event.players.find((x) => x.rank === p.rank);
    if (!mine) throw new NextRoundError(422, `${where(p.line, '5-8', 'starting rank')}: player ${p.rank} "${p.name}" is not in event "${event.id}"`);
    if (p.name !== mine.name)
      throw new NextRoundError(422, `${where(p.line, '15-47', 'name')}: player ${p.rank} is "${p.name}" in the TRF, "${mine.name}" in the tournament`);
  }
  const absent = event.players.filter((p) => !byRank.has(p.rank));
  if (absent.length) throw new NextRoundError(422, `the TRF has no 001 line for ${absent.map((p) => `player ${p.rank} (${p.name})`).join(', ')}`);
  if (event.kind === 'team') checkTeams(event, file);
  const journaled = after >= 1 ? eventTrfReport(journal, hall, event.id, { upToRound: after }).players : [];
  for (const p of file.players) {
    const theirs = journaled.find((x) => x.rank === p.rank);
    for (let r = 0; r < after; r++) {
      const got = p.rounds[r] ?? { opponent: null, colour: null, code: ' ' as const };
      const want = theirs!.rounds[r];
      const start = 92 + 10 * r;
      const field =
        got.opponent !== want.opponent
          ? [`${start}-${start + 3}`, `round ${r + 1} opponent`]
          : got.colour !== want.colour
            ? [`${start + 5}`, `round ${r + 1} colour`]
            : got.code !== want.code
              ? [`${start + 7}`, `round ${r + 1} result`]
              : null;
      if (field)
        throw new NextRoundError(
          422,
          `${where(p.line, field[0], field[1])}: player ${p.rank} has "${fieldText(got)}" in the TRF, the journal "${fieldText(want)}"`,
        );
    }
  }
}

function checkTeams(event: TournamentEvent, file: TrfFile): void {
  if (file.teams.length === 0) throw new NextRoundError(422, 'the TRF has no 310 team records: a team round needs them');
  for (const t of file.teams) {
    const mine = event.teams.find((x) => x.id === t.team);
    if (!mine) throw new NextRoundError(422, `${where(t.line, '5-7', 'team number')}: team ${t.team} is not in event "${event.id}"`);
    if (t.players.join(',') !== mine.players.join(','))
      throw new NextRoundError(
        422,
        `${where(t.line, '74-', 'team players')}: team ${t.team} has players ${t.players.join(' ')} in the TRF, ${mine.players.join(' ')} in the tournament`,
      );
  }
}

/**
 * The round after `after` from a pairing program's pairs list (`-p` of bbpPairings and JaVaFo) and
 * the TRF it was paired from: the TRF checked against the journal as a loaded TRF is, written after
 * exactly the rounds the host has played (its next round is the host's), then the list read against
 * it (`pairsRound`). Refusals name the TRF's line and columns or the pairs file's line.
 */
export function roundFromPairsList(journal: Journal, hall: Hall, event: TournamentEvent, after: number, pairsText: string, trfText: string): Round {
  try {
    if (event.kind === 'team') throw new NextRoundError(422, `event "${event.id}" is a team event: a pairs list pairs players, load the team round as a TRF`);
    const file = parseTrf(trfText);
    const { played } = roundsPlayed(file);
    if (played !== after)
      throw new NextRoundError(
        422,
        `the TRF the pairs were made from was written after round ${played}, and event "${event.id}" has played ${after} round(s): pair round ${after + 1} from the TRF after round ${after} (chessclock export --trf --round ${after})`,
      );
    checkAgainstJournal(journal, hall, event, after, file);
    return pairsRound(file, pairsText);
  } catch (err) {
    if (err instanceof TrfParseError || err instanceof TrfImportError || err instanceof TrfError) throw new NextRoundError(422, err.message);
    throw err;
  }
}

/** The adapters' side of pairing the next round, over the journal and the tournament (host/start-host.ts wires it). */
export function journalNextRoundPairing(journal: Journal, hall: Hall): NextRoundPairing {
  return {
    async runEngine(event, after, signal, options = {}) {
      let input: string;
      try {
        input = eventTrf(journal, hall, event.id, {
          upToRound: after,
          ...(after === 0 && options.initialColour ? { initialColour: options.initialColour } : {}),
        });
      } catch (err) {
        if (!(err instanceof TrfError)) throw err;
        return failedEngineRun(event.pairingEngine!.command, `the TRF for the engine could not be written: ${err.message}`);
      }
      const run = await runPairingEngine(event.pairingEngine!, input, signal);
      if (run.error !== null || run.output === null) return { ...run, round: null, error: run.error ?? 'the pairing engine wrote no pairs file' };
      try {
        // The players absent from the round (docs/tournament.md "Entries") are not in the engine's pairs: their byes are added when it is filed.
        const absent = new Set(roundAbsences(journal, event, after + 1).map((a) => a.rank));
        const present = { ...event, players: event.players.filter((p) => !absent.has(p.rank)) };
        return { ...run, round: roundFromPairs(present, run.output, after + 1), error: null };
      } catch (err) {
        if (!(err instanceof NextRoundError)) throw err;
        return { ...run, round: null, error: `the pairing engine's output is not usable: ${err.message}` };
      }
    },
    roundFromTrf: (event, after, text, pairs) =>
      pairs === undefined ? roundFromTrf(journal, hall, event, after, text) : roundFromPairsList(journal, hall, event, after, pairs, text),
  };
}

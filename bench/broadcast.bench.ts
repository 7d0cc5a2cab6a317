// `npm run bench -- broadcast` (docs/benchmarks.md, docs/broadcast.md "Figures"): the live push of
// one round of 756 boards (the 2024 Olympiad's open and women's sections, one round) to a lichess
// stand-in, with a press every 5 s on every board and no delay, through the host's own pieces:
// the journal in memory with the host's JournalPorts (journal-boards.fixture.ts), the broadcast
// runner as `chessclock host` starts it (each journaled event marks its round; changes of 200 ms
// go out as one state; the pusher one request at a time, 100 games a push), and the stand-in in a
// process of its own (bench/support/lichess-stand-in-process.ts), parsing every game with chessops.
//
// Figures:
//  - press → pushed: from the press journaled to lichess's answer to the request that carried the
//    first state merged after it (its board's part of the round), p50/p99;
//  - the host's CPU for the broadcast: the process's CPU with the broadcast, less a window of the
//    same presses without it, in % of one core;
//  - requests per minute (one at a time), and the merge of the round per state.
// The games carry their clocks and results (no moves source): the merge's cost is the journal's
// reading and the clocks of the games pressed since the last state, rebuilt by the rule book (the
// others kept, their running clocks' tags written anew: round-merge-cache.ts).
//   BENCH_BROADCAST_S (default 60): each window's length in seconds; BENCH_BROADCAST_BOARDS (756).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { presetTimeControl } from '../protocol/time-control.ts';
import { journals, playJournaled, type Step } from '../host/clocks/journaled-clock.fixture.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import type { Journal } from '../host/store/journal.ts';
import type { ClockEventRow } from '../host/store/types.ts';
import { startBroadcast } from '../host/adapters/broadcast/broadcast-runner.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BOARDS = Number(process.env.BENCH_BROADCAST_BOARDS ?? 756);
const WINDOW_S = Number(process.env.BENCH_BROADCAST_S ?? 60);
const PRESS_EVERY_MS = 5_000;
const EVENT = 'olympiad-2024';
const ROUND_ID = 'olyR0und';
const TOKEN = 'lip_bench';
const T0 = Date.UTC(2024, 8, 11, 13, 0);

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);

/** One classical game's events as the host journals them, played on the real statechart: a start, then a press every 5 s. */
function gameEvents(presses: number): ClockEventRow[] {
  const steps: Step[] = [{ kind: 'start' }];
  for (let i = 0; i < presses; i++) steps.push({ kind: 'wait', ms: PRESS_EVERY_MS }, { kind: 'press', wrong: false });
  const played = playJournaled(presetTimeControl('classical'), steps, T0);
  return played.journal.eventsByGame(played.game.gameId);
}

function hallOf(boards: number) {
  const players = Array.from({ length: 2 * boards }, (_, i) => ({ rank: i + 1, name: `Player ${i + 1}`, rating: 2700 - i }));
  return parseTournament({
    events: [{ id: EVENT, name: 'Olympiad 2024, open and women', kind: 'individual', timeControl: 'classical', plannedRounds: 11, players }],
  });
}

async function startStandIn(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['bin/run-ts.mjs', 'bench/support/lichess-stand-in-process.ts', JSON.stringify({ token: TOKEN, rounds: [ROUND_ID] })], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const url = String((await lines.next()).value);
  return { url, stop: () => child.stdin!.end() };
}

export async function run(): Promise<void> {
  const template = gameEvents(Math.ceil((2 * WINDOW_S * 1000) / PRESS_EVERY_MS) + 4);
  const hall = hallOf(BOARDS);
  const started = performance.now();
  const nowUtcMs = () => T0 + (performance.now() - started);
  const boards = new JournalBoards({ hall, nowUtcMs });
  for (let b = 1; b <= BOARDS; b++)
    boards.addBoard({ event: EVENT, round: 1, board: b, clockId: `olc-${b}`, white: `Player ${2 * b - 1}`, black: `Player ${2 * b}` });
  const hallPresses = pressDriver(boards, template, started);

  // Window 1: the same presses, no broadcast.
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await hallPresses.play(WINDOW_S * 1000);
  const without = cpuShare(cpu0, wall0);
  hallPresses.presses.length = 0;

  // Window 2: the broadcast, with the merges and the requests watched.
  const standIn = await startStandIn();
  const watch = watchBroadcast(boards.journal);
  const running = startBroadcast(
    { journal: watch.journal, hall, state: boards, notes: boards, nowUtcMs, log: () => undefined },
    { targets: [{ event: EVENT, round: 1, roundId: ROUND_ID }], lichessUrl: standIn.url, token: TOKEN },
  );
  // The merge: from the journal's reading to the state handed to the pusher.
  const push = running.pusher.push.bind(running.pusher);
  running.pusher.push = (roundId, games) => {
    watch.mergeMs.push(performance.now() - watch.merges.at(-1)!);
    push(roundId, games);
  };
  const cpu1 = process.cpuUsage();
  const wall1 = performance.now();
  await hallPresses.play(WINDOW_S * 1000);
  const withBroadcast = cpuShare(cpu1, wall1);
  const windowMs = performance.now() - wall1;
  await running.idle();
  await running.close();
  watch.restore();
  standIn.stop();
  report(hallPresses.presses, watch, windowMs, withBroadcast, without);
  boards.close();
  journals.forEach((j) => j.close());
}

/** The hall's clocks: board b's k-th event at (k·5 s + b's offset), as its clock would send it; each press noted. */
function pressDriver(boards: JournalBoards, template: readonly ClockEventRow[], started: number) {
  const presses: { board: number; at: number }[] = [];
  const next: number[] = Array(BOARDS).fill(0);
  const offsetOf = (b: number) => Math.round(((b - 1) * PRESS_EVERY_MS) / BOARDS);
  const pressUntil = (now: number) => {
    for (let b = 1; b <= BOARDS; b++) {
      while (next[b - 1] < template.length && next[b - 1] * PRESS_EVERY_MS + offsetOf(b) <= now) {
        const e = template[next[b - 1]++];
        const { bootId, seq, type, side, move, whiteMs, blackMs, uncertaintyMs, detail } = e;
        const [utcMs, monoMs] = [e.utcMs + offsetOf(b), e.monoMs + offsetOf(b)];
        boards.report({ clockId: `olc-${b}`, bootId, seq, type, side, move, whiteMs, blackMs, uncertaintyMs, detail, utcMs, monoMs });
        if (e.type === 'moved') presses.push({ board: b, at: performance.now() });
      }
    }
  };
  const play = async (ms: number) => {
    const from = performance.now() - started;
    while (performance.now() - started < from + ms) {
      pressUntil(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { presses, play };
}

interface Watch {
  journal: Journal;
  /** When each merge read the round from the journal. */
  merges: number[];
  mergeMs: number[];
  /** Each state of the round sent: the merge it is, and when each board's request was answered. */
  states: { mergeAt: number; done: Map<number, number> }[];
  requests: () => number;
  restore: () => void;
}

/** The journal's round reads (each a merge) and the requests to lichess (global fetch), watched. */
function watchBroadcast(real: Journal): Watch {
  const merges: number[] = [];
  const states: Watch['states'] = [];
  let requests = 0;
  const journal = new Proxy(real, {
    get(target, key) {
      if (key === 'gamesByRound')
        return (...a: Parameters<Journal['gamesByRound']>) => {
          merges.push(performance.now());
          return target.gamesByRound(...a);
        };
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const body = String(init?.body ?? '');
    const inChunk = [...body.matchAll(/\[GameId "[^:]+:1\.(\d+)\.\d+"\]/g)].map((m) => Number(m[1]));
    // The pusher sends a state's first 100 games first: board 1 opens a state (the latest merge).
    if (inChunk.includes(1)) states.push({ mergeAt: merges.at(-1)!, done: new Map() });
    const state = states.at(-1)!;
    const res = await realFetch(input, init);
    requests++;
    if (res.status === 200) for (const b of inChunk) state.done.set(b, performance.now());
    return res;
  };
  return { journal, merges, mergeMs: [], states, requests: () => requests, restore: () => (globalThis.fetch = realFetch) };
}

function report(presses: readonly { board: number; at: number }[], watch: Watch, windowMs: number, withBroadcast: number, without: number): void {
  const latencies: number[] = [];
  let unpushed = 0;
  for (const p of presses) {
    const state = watch.states.find((s) => s.mergeAt >= p.at && s.done.has(p.board));
    if (state) latencies.push(state.done.get(p.board)! - p.at);
    else unpushed++;
  }
  latencies.sort((a, b) => a - b);
  const mergeMs = [...watch.mergeMs].sort((a, b) => a - b);
  const requests = watch.requests();
  const states = watch.states;
  console.log(
    `broadcast, ${BOARDS} boards, a press every ${PRESS_EVERY_MS / 1000} s per board (${Math.round((BOARDS * 1000) / PRESS_EVERY_MS)} presses/s), no delay, ${WINDOW_S} s windows:`,
  );
  console.log(
    `  press → pushed: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms over ${latencies.length} presses (${unpushed} not yet pushed at the end)`,
  );
  console.log(
    `  ${requests} requests in ${(windowMs / 1000).toFixed(0)} s: ${((requests * 60_000) / windowMs).toFixed(0)} per minute (one at a time); ${states.length} states of the round sent (${Math.ceil(BOARDS / 100)} requests each; states merged while a request was out were replaced by newer ones)`,
  );
  console.log(
    `  ${mergeMs.length} merges of the round (journal read to the state handed to the pusher): p50 ${pct(mergeMs, 50).toFixed(0)} ms, p99 ${pct(mergeMs, 99).toFixed(0)} ms`,
  );
  console.log(
    `  host CPU: ${withBroadcast.toFixed(0)} % of a core with the broadcast, ${without.toFixed(0)} % without (the presses alone): the broadcast ${(withBroadcast - without).toFixed(0)} %`,
  );
}

function cpuShare(from: NodeJS.CpuUsage, wallFrom: number): number {
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1000 / (performance.now() - wallFrom)) * 100;
}

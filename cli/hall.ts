// `chessclock hall` (the `npm start` job): a simulated tournament hall to watch in the
// browser. One Host on a journal, the tournament fixtures (the Slovenian final knockout,
// its open final, and the Ivanovo team Swiss side by side in one hall), one simulated
// clock per table — the unchanged firmware on a virtual board — linked in memory, scripted
// players at accelerated time, and the API + dashboard. A simulated floor arbiter confirms
// the results the players key in, so the director carries the knockout into its rapid
// and armageddon games and the events into their next rounds. See docs/load.md.
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { systemTime } from '../protocol/monotonic.ts';
import { Host } from '../host/host.ts';
import { Journal } from '../host/journal/journal.ts';
import { journalOutboxTopic } from '../host/mqtt/journal-topics.ts';
import { parseTournament } from '../host/tournament/load.ts';
import type { Hall } from '../host/tournament/model.ts';
import { AnchoredClock } from '../host/utc.ts';
import { parseTokenOption } from '../host/api/arbiter-tokens.ts';
import { buildApi } from '../host/api/api.ts';
import { parseListenOption } from '../host/api/listen-option.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { HallClocks, SEATING_MS, type HallClock } from '../simulator/hall.ts';

const FIXTURES = fileURLToPath(new URL('../host/tournament/fixtures/', import.meta.url));

const HELP = `usage: chessclock hall [options]

A simulated tournament hall: the Slovenian final (knockout) and its open final, and the
Ivanovo team Swiss in one hall, one simulated clock per table, scripted players at
accelerated time, a host journaling every press, and the arbiter dashboard in the browser.

options:
  --clocks N             simulated clocks, one per hall table (default: every table, ${hallTables(fixtureHall())})
  --speed X              hall time runs X times faster than real time (default 10)
  --seed N               players' seed (default 1): the same seed, the same decisions
  --http [HOST:]PORT     API and dashboard (default 127.0.0.1:8080; 0 = any free port)
  --db FILE              the journal (default: a temporary file, removed on exit)
  --token NAME:SECRET    the arbiter's token for the dashboard (default: a random one, printed)
  --no-confirm           leave results for the arbiter (no simulated floor arbiter)
  -h, --help             this text

Stop with Ctrl-C.`;

/** Both fixture files as one hall: the Slovenian events at tables 1-3, Ivanovo's boards after them. */
export function fixtureHall(): Hall {
  const slo = JSON.parse(readFileSync(join(FIXTURES, 'slovenian-final-2007.json'), 'utf8'));
  const iva = JSON.parse(readFileSync(join(FIXTURES, 'ivanovo-white-rook-2018.json'), 'utf8'));
  const first = parseTournament(slo);
  const next = hallTables(first) + 1;
  return parseTournament({
    hall: { name: 'Simulated hall', site: 'chessclock hall' },
    events: [...slo.events, ...iva.events.map((e: Record<string, unknown>) => ({ ...e, hallFirstTable: next }))],
  });
}

/** Tables a hall needs: the last table any event's round uses. */
export function hallTables(hall: Hall): number {
  let last = 0;
  for (const e of hall.events) {
    for (const r of e.rounds) {
      const boards = Math.max(0, ...r.boards.map((b) => b.board), ...r.knockout.map((k) => k.board));
      last = Math.max(last, e.hallFirstTable + boards - 1);
    }
  }
  return last;
}

export interface HallOptions {
  readonly clocks?: number;
  readonly speed?: number;
  readonly seed?: number;
  /** Journal file; default a temporary one removed by close(). */
  readonly db?: string;
  readonly listen?: { host: string; port: number };
  readonly token?: { arbiter: string; token: string };
  /** The simulated floor arbiter confirms results (default true). */
  readonly confirm?: boolean;
  /** UTC at hall time 0 (default: now). */
  readonly startUtcMs?: number;
  readonly log?: (line: string) => void;
}

export interface RunningHall {
  readonly url: string;
  readonly token: { arbiter: string; token: string };
  readonly host: Host;
  readonly journal: Journal;
  readonly clocks: HallClocks;
  readonly time: AcceleratedTime;
  readonly hostClock: AnchoredClock;
  readonly api: FastifyInstance;
  close(): Promise<void>;
}

/** The floor arbiter confirms a result this long (hall ms) after the players entered it. */
const CONFIRM_AFTER_MS = 2 * 60_000;
export const FLOOR_ARBITER = 'Floor arbiter (simulated)';

/** Starts a simulated hall; the caller prints where it is and closes it. */
export async function startHall(opts: HallOptions = {}): Promise<RunningHall> {
  const hall = fixtureHall();
  const count = opts.clocks ?? hallTables(hall);
  const speed = opts.speed ?? 10;
  const log = opts.log ?? (() => undefined);
  const tmp = opts.db ? null : mkdtempSync(join(tmpdir(), 'chessclock-hall-'));
  const journal = new Journal(opts.db ?? join(tmp!, 'hall.db'), { outboxTopic: journalOutboxTopic });
  const time = new AcceleratedTime(speed);
  // The host reads hall time (its time sync then sees the clocks with offset 0); its link
  // timers run on real time, like the clocks' (retransmission is about bytes, not games).
  const hostClock = new AnchoredClock({ now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer }, { hostMs: 0, utcMs: opts.startUtcMs ?? Date.now() });
  const host = new Host({ journal, hall, clock: hostClock, log, backoff: { initialMs: 100, maxMs: 2_000 } }).start();

  const boardOf = (c: HallClock) => host.boards().find((b) => b.clockId === c.serialId && b.result === null);
  const clocks = await HallClocks.boot({
    count,
    time,
    seed: opts.seed ?? 1,
    log,
    // A game after a knockout break starts when the break is over.
    startDelayMs: (c) => {
      const starts = boardOf(c)?.startsAtUtcMs ?? null;
      const wait = starts === null ? 0 : starts - hostClock.nowUtcMs();
      return Math.max(SEATING_MS, wait);
    },
  });
  const tables = hallTables(hall);
  for (const c of clocks.clocks) host.addLine(`memory:table-${c.index + 1}`, c.cable.memoryLine(), c.index < tables ? { table: c.index + 1 } : {});

  const timers = new Set<ReturnType<typeof setTimeout>>();
  const token = opts.token ?? { arbiter: 'Chief Arbiter', token: randomBytes(12).toString('hex') };
  if (opts.confirm ?? true) {
    host.subscribe((event, board) => {
      if (event.type !== 'result' || !board) return;
      const confirm = async (attempt: number) => {
        const out = await host.execute({ type: 'confirm-result', boardId: board.id }, { arbiter: FLOOR_ARBITER });
        if (!out.ok && attempt < 5) schedule(() => confirm(attempt + 1));
        else if (!out.ok) log(`board ${board.id}: result not confirmed: ${out.reason}`);
      };
      const schedule = (fn: () => Promise<void>) => {
        const t = setTimeout(() => {
          timers.delete(t);
          fn().catch((err) => log(`board ${board.id}: confirming failed: ${(err as Error).message}`));
        }, time.realMs(CONFIRM_AFTER_MS));
        timers.add(t);
      };
      schedule(() => confirm(1));
    });
  }

  const api = await buildApi({ state: host, commands: host, exports: host, tokens: [token], nowUtcMs: () => hostClock.nowUtcMs(), timeRate: speed });
  const address = await api.listen(opts.listen ?? { host: '127.0.0.1', port: 8080 });
  clocks.play();

  let closed = false;
  return {
    url: address.replace('0.0.0.0', '127.0.0.1'),
    token,
    host,
    journal,
    clocks,
    time,
    hostClock,
    api,
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      await api.close();
      await clocks.stop();
      await host.close();
      journal.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    },
  };
}

function fail(message: string): number {
  process.stderr.write(`chessclock hall: ${message}\n`);
  return 2;
}

function positive(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name} ${text}: expected a ${integer ? 'whole ' : ''}number > 0`);
  return n;
}

export async function run(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        clocks: { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        http: { type: 'string' },
        db: { type: 'string' },
        token: { type: 'string' },
        'no-confirm': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return fail(`${(err as Error).message}\n\n${HELP}`);
  }
  if (values.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  let opts: HallOptions;
  try {
    const token = values.token === undefined ? undefined : parseTokenOption(values.token);
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed ${values.seed}: expected a whole number ≥ 0`);
    opts = {
      clocks: positive('clocks', values.clocks, true),
      speed: positive('speed', values.speed, false),
      seed,
      db: values.db,
      listen: parseListenOption(values.http),
      token,
      confirm: !values['no-confirm'],
      log: (line) => process.stderr.write(`${line}\n`),
    };
  } catch (err) {
    return fail((err as Error).message);
  }

  const hall = await startHall(opts);
  const out = process.stdout;
  out.write(`chessclock hall: ${hall.clocks.clocks.length} simulated clocks, hall time ×${hall.time.speed}, journal ${hall.journal.path}\n`);
  out.write(`dashboard:       ${hall.url}/\n`);
  out.write(`arbiter token:   ${hall.token.token}   (${hall.token.arbiter}; paste it into the dashboard's token field)\n`);
  out.write(`API:             ${hall.url}/api/boards   live feed: ${hall.url.replace(/^http/, 'ws')}/ws\n`);
  out.write('Ctrl-C stops the hall.\n');
  await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
  out.write('stopping the hall…\n');
  await hall.close();
  return 0;
}

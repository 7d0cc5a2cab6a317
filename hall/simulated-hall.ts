// A simulated tournament hall (`chessclock hall`, the `npm start` job): one host started by
// the host's one composition (host/start-host.ts) on a journal, with an embedded MQTT
// broker, plays a tournament — by default the Slovenian women's final 2007 (two semifinal
// mini-matches, tie-breaks when a match is tied), any fixture events side by side, or any
// tournament file — with one simulated clock per table (the unchanged firmware on a
// virtual board, simulator/hall-clocks.ts) linked in memory, real clocks on the serial
// ports given, scripted players at accelerated time, and the API + dashboard. A simulated
// floor arbiter confirms the results the players key in, so the director carries the
// knockout into its rapid and armageddon games and the events into their next rounds.
// cli/hall.ts only parses the command line. See docs/load.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { systemTime } from '../protocol/monotonic.ts';
import type { Host } from '../host/app/host.ts';
import type { Journal } from '../host/store/journal.ts';
import type { HostMqtt } from '../host/adapters/mqtt/host-mqtt.ts';
import type { StartHostOptions } from '../host/start-host.ts';
import { parseMqttOption, type MqttTarget } from '../host/adapters/mqtt/mqtt-target.ts';
import { loadTournamentFile, parseTournament } from '../host/domain/tournament-file.ts';
import type { Hall } from '../host/domain/model.ts';
import type { PortEntry } from '../host/clocks/ports-file.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import { startHost } from '../host/start-host.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { HallClocks, SEATING_MS, type HallClock } from '../simulator/hall-clocks.ts';

const FIXTURES = fileURLToPath(new URL('../host/domain/fixtures/', import.meta.url));
const FIXTURE_FILES = ['slovenian-final-2007.json', 'ivanovo-white-rook-2018.json'];

/** What `npm start` plays: the Slovenian women's final (two semifinal mini-matches, then the final). */
export const DEFAULT_EVENT = 'slo-w-2007';

/**
 * The players' default seed. The results the players agree on follow the seed, the table
 * and the game number alone (simulator/hall.ts gameRng), so a seed fixes how the matches
 * go unless a flag decides a game. With 42 the semifinal at table 1 (Rožič–Četrta) is tied
 * after the two classical games and Rožič wins the rapid tie-break; the one at table 2
 * (Bajt–Tretja) is decided in the classical games for Bajt; the final (Rožič–Bajt) is
 * tied twice and goes to the armageddon. The demo shows every stage of the mini-match, and
 * the top seeds reach the final (the fixture pairs its final 1 v 2, as in 2007).
 * test/hall-cli.test.ts replays this through the director's own knockout rules.
 */
export const DEFAULT_SEED = 42;

/** The embedded broker on any free port: a fresh machine may already run a broker on 1883 (Debian's mosquitto does). */
export const DEFAULT_MQTT = 'embedded:0';

type RawEvent = Record<string, unknown> & { id: string };

function fixtureEvents(): RawEvent[] {
  return FIXTURE_FILES.flatMap((f) => (JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as { events: RawEvent[] }).events);
}

/** The ids of the fixture events, in the order `--event all` lays them out. */
export function fixtureEventIds(): string[] {
  return fixtureEvents().map((e) => e.id);
}

/** `--event` values (repeatable, comma lists) as ids; `all` stands for `all` ids. */
function eventIds(values: readonly string[], all: readonly string[]): string[] {
  const ids: string[] = [];
  for (const v of values) {
    for (const part of v.split(',').map((p) => p.trim())) {
      if (part === '') throw new Error(`--event ${v}: empty event id`);
      for (const id of part === 'all' ? all : [part]) {
        if (!all.includes(id)) throw new Error(`--event ${id}: no such event (events: ${all.join(', ')}, or all)`);
        if (!ids.includes(id)) ids.push(id);
      }
    }
  }
  return ids;
}

/**
 * Fixture events as one hall, laid out in the order given from table 1 (each event's tables
 * follow the previous event's): the default is the Slovenian women's final alone.
 */
export function fixtureHall(ids: readonly string[] = [DEFAULT_EVENT]): Hall {
  const raw = fixtureEvents();
  const events: RawEvent[] = [];
  let next = 1;
  for (const id of eventIds(
    ids,
    raw.map((e) => e.id),
  )) {
    const e = { ...raw.find((r) => r.id === id)!, hallFirstTable: next };
    events.push(e);
    next += hallTables(parseTournament({ events: [{ ...e, hallFirstTable: 1 }] }));
  }
  return parseTournament({ hall: { name: 'Simulated hall', site: 'chessclock hall' }, events });
}

/** The events of a tournament file (all by default), at the tables the file gives them. */
export function fileHall(file: string, ids: readonly string[] = []): Hall {
  const hall = loadTournamentFile(file);
  if (ids.length === 0) return hall;
  const chosen = eventIds(
    ids,
    hall.events.map((e) => e.id),
  );
  return { ...hall, events: hall.events.filter((e) => chosen.includes(e.id)) };
}

/**
 * Tables a hall needs: the last table any event's round uses. An event with rounds still to pair
 * (a Swiss whose file lists fewer rounds than it plans, or none: paired in the host, docs/tournament.md
 * "Pairing the next round") needs a board for every two of its players (teams: every two teams'
 * boards), so the hall has a clock at each table a later round may use.
 */
export function hallTables(hall: Hall): number {
  let last = 0;
  for (const e of hall.events) {
    for (const r of e.rounds) {
      const boards = Math.max(0, ...r.boards.map((b) => b.board), ...r.knockout.map((k) => k.board));
      last = Math.max(last, e.hallFirstTable + boards - 1);
    }
    if (e.kind !== 'knockout' && e.rounds.length < e.plannedRounds) {
      const boards = e.kind === 'team' ? Math.floor(e.teams.length / 2) * (e.boardsPerTeam ?? 4) : Math.floor(e.players.length / 2);
      if (boards > 0) last = Math.max(last, e.hallFirstTable + boards - 1);
    }
  }
  return last;
}

/**
 * Where the real clocks stand: ports-file entries keep their tables; a port without one
 * (`--port`, or a ports-file path with no table) takes the lowest table nobody has.
 */
export function placeRealClocks(
  entries: readonly PortEntry[],
  ports: readonly string[],
): { lines: { path: string; table: number | undefined }[]; bySerial: Map<string, number>; taken: Set<number> } {
  const taken = new Set(entries.flatMap((e) => (e.table === undefined ? [] : [e.table])));
  const free = () => {
    let t = 1;
    while (taken.has(t)) t++;
    taken.add(t);
    return t;
  };
  const lines: { path: string; table: number | undefined }[] = [];
  for (const e of entries) if (e.path !== undefined && !lines.some((l) => l.path === e.path)) lines.push({ path: e.path, table: e.table });
  for (const p of ports) if (!lines.some((l) => l.path === p)) lines.push({ path: p, table: undefined });
  for (const l of lines) l.table ??= free();
  const bySerial = new Map(entries.filter((e) => e.serial !== undefined && e.table !== undefined).map((e) => [e.serial!, e.table!]));
  return { lines, bySerial, taken };
}

/** Hall time per real time when --speed is not given. */
const DEFAULT_SPEED = 60;

export interface SimulatedHallOptions {
  /** The tournament to play (default fixtureHall(): the Slovenian women's final). */
  readonly hall?: Hall;
  readonly clocks?: number;
  readonly speed?: number;
  readonly seed?: number;
  /** Journal file; default a temporary one removed by close(). */
  readonly db?: string;
  readonly listen?: { host: string; port: number };
  readonly token?: { arbiter: string; token: string };
  /** More arbiter tokens (`--tokens FILE`, CHESSCLOCK_TOKENS); the first is the one `token` returns when `token` is not given. */
  readonly tokens?: readonly { readonly arbiter: string; readonly token: string }[];
  /** MQTT access and TLS (readers, anonymous read, certificates: cli/security-options.ts). */
  readonly mqttAccess?: Omit<NonNullable<StartHostOptions['mqtt']>, 'target'>;
  /** HTTPS, allowed hosts, the WebSocket cap. */
  readonly httpSecurity?: Omit<NonNullable<StartHostOptions['http']>, 'listen' | 'tokens'>;
  /** The simulated floor arbiter confirms results (default true). */
  readonly confirm?: boolean;
  /** `--mqtt` value or target (default DEFAULT_MQTT: the embedded broker on a free port). */
  readonly mqtt?: string | MqttTarget;
  /** Serial ports with a real clock each, at the next free table (`--port`). */
  readonly ports?: readonly string[];
  /** Ports-file entries (`--ports`). */
  readonly portEntries?: readonly PortEntry[];
  /** UTC at hall time 0 (default: now). */
  readonly startUtcMs?: number;
  readonly log?: (line: string) => void;
}

export interface SimulatedHall {
  readonly url: string;
  readonly token: { arbiter: string; token: string };
  /** The token was made up here (and may be printed); else it came from a file or the environment. */
  readonly tokenGenerated: boolean;
  readonly host: Host;
  readonly journal: Journal;
  readonly clocks: HallClocks;
  /** Hall table of each simulated clock (by serial id). */
  readonly tableOf: ReadonlyMap<string, number>;
  /** The serial ports opened for real clocks, with their tables. */
  readonly realLines: readonly { path: string; table: number | undefined }[];
  readonly time: AcceleratedTime;
  readonly hostClock: AnchoredClock;
  readonly api: FastifyInstance;
  /** The broker the host publishes to, or null with `--mqtt none`. */
  readonly mqtt: HostMqtt | null;
  close(): Promise<void>;
}

/** The floor arbiter confirms a result this long (hall ms) after the players entered it. */
const CONFIRM_AFTER_MS = 2 * 60_000;
const FLOOR_ARBITER = 'Floor arbiter (simulated)';

/**
 * How many simulated clocks the hall boots; refused before anything starts when there are none: a
 * hall that cannot start serves nothing (cli/hall.ts exits with this).
 */
function clockCount(hall: Hall, count: number, tables: number): number {
  if (count >= 1) return count;
  throw new Error(
    tables === 0
      ? `the tournament has no table to play at: no event lists a round or has players to pair (events: ${hall.events.map((e) => e.id).join(', ')})`
      : `every table (1-${tables}) has a real clock: no simulated clock is needed (--clocks N adds N more)`,
  );
}

/** Removes the temporary journal's folder (if any) of a hall that could not start, and throws why. */
function removeAndThrow(tmp: string | null, err: unknown): never {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  throw err;
}

/** Starts a simulated hall; the caller prints where it is and closes it. */
export async function startSimulatedHall(opts: SimulatedHallOptions = {}): Promise<SimulatedHall> {
  const hall = opts.hall ?? fixtureHall();
  const real = placeRealClocks(opts.portEntries ?? [], opts.ports ?? []);
  // The simulated clocks fill the tables no real clock has, from table 1.
  const tables = hallTables(hall);
  const free = Array.from({ length: tables }, (_, i) => i + 1).filter((t) => !real.taken.has(t));
  const count = clockCount(hall, opts.clocks ?? free.length, tables);
  // 60×: a classical game takes a few real minutes, so the demo reaches the semifinal
  // tie-break in about eight and the final's armageddon in about twenty (docs/load.md).
  const speed = opts.speed ?? DEFAULT_SPEED;
  const log = opts.log ?? (() => undefined);
  const mqttTarget = typeof opts.mqtt === 'object' ? opts.mqtt : parseMqttOption(opts.mqtt ?? DEFAULT_MQTT);
  const tmp = opts.db ? null : mkdtempSync(join(tmpdir(), 'chessclock-hall-'));
  const time = new AcceleratedTime(speed);
  // The host reads hall time (its time sync then sees the clocks with offset 0); its link
  // timers run on real time, like the clocks' (retransmission is about bytes, not games).
  const hostClock = new AnchoredClock(
    { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
    { hostMs: 0, utcMs: opts.startUtcMs ?? Date.now() },
  );
  const token = opts.token ?? opts.tokens?.[0] ?? { arbiter: 'Chief Arbiter', token: randomBytes(12).toString('hex') };
  const tokens = [...(opts.token || !opts.tokens?.length ? [token] : []), ...(opts.tokens ?? [])];
  // The host as `chessclock host` starts it (host/start-host.ts), with the real clocks' ports.
  const running = await startHost({
    journal: opts.db ?? join(tmp!, 'hall.db'),
    hall,
    clock: hostClock,
    tablesBySerial: real.bySerial,
    log,
    backoff: { initialMs: 100, maxMs: 2_000 },
    mqtt: {
      ...opts.mqttAccess,
      target: mqttTarget,
      clientId: `chessclock-hall-${process.pid}`,
      onError: (e) => log(`mqtt: ${e.message}`),
      onRefused: (what) => log(`mqtt: ${what}`),
    },
    http: { ...opts.httpSecurity, listen: opts.listen ?? { host: '127.0.0.1', port: 8080 }, tokens, timeRate: speed },
    lines: real.lines.map((l) => {
      log(`opening ${l.path} (table ${l.table})`);
      return { key: l.path, open: openSerialLine(l.path), table: l.table };
    }),
  }).catch((err: unknown) => removeAndThrow(tmp, err));
  const { host, journal } = running;

  // A hall whose clocks cannot boot stops what it started (the API, the broker, the journal) before it says why.
  const { clocks, tableOf } = await simulatedClocks(host, { time, hostClock, free, tables, count, seed: opts.seed ?? DEFAULT_SEED, log }).catch(
    (err: unknown) => running.close().then(() => removeAndThrow(tmp, err)),
  );
  const stopConfirming = (opts.confirm ?? true) ? confirmResultsAsFloorArbiter(host, time, log) : () => undefined;

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    stopConfirming();
    await clocks.stop();
    await running.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  const address = running.url!;
  clocks.play();

  return {
    url: address.replace('0.0.0.0', '127.0.0.1'),
    token,
    tokenGenerated: !opts.token && !opts.tokens?.length,
    host,
    journal,
    clocks,
    tableOf,
    realLines: real.lines,
    time,
    hostClock,
    api: running.api!,
    mqtt: running.mqtt,
    close,
  };
}

/**
 * The simulated clocks, one per free table from table 1 (clocks beyond the free tables idle
 * after the last table), booted and linked to the host in memory; `tableOf` maps each one's
 * serial id to its table.
 */
async function simulatedClocks(
  host: Host,
  o: { time: AcceleratedTime; hostClock: AnchoredClock; free: readonly number[]; tables: number; count: number; seed: number; log: (line: string) => void },
): Promise<{ clocks: HallClocks; tableOf: Map<string, number> }> {
  const { time, hostClock, free, tables } = o;
  const tableOfIndex = (i: number): number | undefined => free[i];
  const boardOf = (c: HallClock) => host.state.boards().find((b) => b.clockId === c.serialId && b.result === null);
  const clocks = await HallClocks.boot({
    count: o.count,
    time,
    seed: o.seed,
    log: o.log,
    // Named after their table; clocks beyond the free tables after the last table (idle).
    serialId: (i) => `sim-${tableOfIndex(i) ?? tables + 1 + i - free.length}`,
    stream: (i) => (tableOfIndex(i) ?? tables + 1 + i - free.length) - 1,
    // A game after a knockout break starts when the break is over.
    startDelayMs: (c) => {
      const starts = boardOf(c)?.startsAtUtcMs ?? null;
      const wait = starts === null ? 0 : starts - hostClock.nowUtcMs();
      return Math.max(SEATING_MS, wait);
    },
  });
  const tableOf = new Map<string, number>();
  for (const c of clocks.clocks) {
    const table = tableOfIndex(c.index);
    if (table !== undefined) tableOf.set(c.serialId, table);
    host.addLine(`memory:${c.serialId}`, c.cable.memoryLine(), table !== undefined ? { table } : {});
  }
  return { clocks, tableOf };
}

/**
 * The simulated floor arbiter: confirms each result the players keyed in CONFIRM_AFTER_MS
 * (hall time) later, tried up to five times. Returns the function that drops the
 * confirmations still to come.
 */
function confirmResultsAsFloorArbiter(host: Host, time: AcceleratedTime, log: (line: string) => void): () => void {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  host.state.subscribe((event, board) => {
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
  return () => {
    for (const t of timers) clearTimeout(t);
  };
}

// The one composition of a host: the only place that wires the rooms together (README,
// "Architecture"). `chessclock host`, `chessclock hall` and the load run all start a host
// here, so the hall PC, the demo and the measured host are the same program:
//
//   store   the journal (SQLite, synchronous=FULL), with the MQTT outbox hook
//   app     Host: a session per clock line, the director, the arbiter's commands
//   adapters  HTTP API + dashboard + /ws feed; exports (TRF, PGN, JSON Lines); MQTT from
//             the journal's durable outbox; the push to a lichess broadcast
//
// A caller chooses which adapters run; nothing else differs.
import type { FastifyInstance } from 'fastify';
import { hostname, networkInterfaces } from 'node:os';
import { Host, type HostOptions } from './app/host.ts';
import type { ExportSource } from './app/ports.ts';
import type { Line } from './clocks/clock-session.ts';
import { Journal, type CheckpointReport } from './store/journal.ts';
import { journalExports } from './adapters/exports/journal-exports.ts';
import { journalNextRoundPairing } from './adapters/exports/next-round.ts';
import { buildApi, type ApiDeps } from './adapters/http/api.ts';
import type { CaptainToken } from './adapters/http/captain-tokens.ts';
import { TeamMatchProtocols } from './app/captains.ts';
import { registerMetrics } from './adapters/http/metrics.ts';
import { allowedHostsFor } from './adapters/http/listen-option.ts';
import { journalOutboxTopic } from './adapters/mqtt/journal-topics.ts';
import { publishHostToMqtt, startHostMqtt, startHostMqttThread, type HostMqtt, type StartHostMqttOptions } from './adapters/mqtt/host-mqtt.ts';
import { startBroadcast, type BroadcastSetup, type RunningBroadcast } from './adapters/broadcast/broadcast-runner.ts';

export interface StartHostOptions extends Omit<HostOptions, 'journal'> {
  /** The journal file (created if missing; reopening resumes), or an open journal. */
  readonly journal: string | Journal;
  /**
   * Where a journal opened from a file commits the clock events (Journal option `writerThread`):
   * 'thread' (default) on the journal's writer thread, 'loop' on the event loop (the benchmark's baseline).
   */
  readonly journalWriter?: 'thread' | 'loop';
  /** Each WAL checkpoint of a journal opened from a file: its frames and how long it took (benchmarks). */
  readonly onCheckpoint?: (r: CheckpointReport) => void;
  /** The API, dashboard and /ws feed; absent = none. */
  readonly http?: {
    readonly listen: { readonly host: string; readonly port: number };
    readonly tokens: ApiDeps['tokens'];
    /** Team captains' tokens (`--tokens FILE`: docs/api.md "Captains"); each is checked against the hall at start. */
    readonly captains?: readonly CaptainToken[];
    readonly timeRate?: number;
    readonly dashboard?: boolean;
    /** HTTPS with this PEM certificate and key (`--https-cert`, `--https-key`). */
    readonly https?: ApiDeps['https'];
    /** Host names answered besides the defaults when listening beyond loopback (`--allowed-host`). */
    readonly allowedHosts?: readonly string[];
    /** Live-feed WebSocket clients at most (`--ws-max-clients`). */
    readonly wsMaxClients?: number;
    /** Live-feed WebSocket clients from one address at most (`--ws-max-per-address`). */
    readonly wsMaxClientsPerAddress?: number;
    readonly signInLimit?: ApiDeps['signInLimit'];
  };
  /** MQTT from the journal's outbox (docs/mqtt.md); absent or target null = none. */
  readonly mqtt?: Omit<StartHostMqttOptions, 'outbox'>;
  /**
   * Where the MQTT publisher runs for a journal on disk: on a thread of its own (true, the
   * default: docs/mqtt.md "Delivery", 6) or on the event loop (false, the
   * benchmark's baseline). A journal in memory keeps it on the event loop.
   */
  readonly mqttThread?: boolean;
  /** Lines to open at the start (serial ports, in-memory ends), each at its table if given. */
  readonly lines?: readonly { readonly key: string; readonly open: () => Promise<Line>; readonly table?: number }[];
  /** The live push of mapped rounds to lichess broadcast rounds (docs/broadcast.md); absent = none. */
  readonly broadcast?: BroadcastSetup;
  /**
   * Each event's broadcast delay in seconds (docs/broadcast.md "The delay"): the lichess push and
   * the public PGN feed show each game as it stood that long ago. An event not named has none.
   */
  readonly broadcastDelay?: Readonly<Record<string, number>>;
  /** Called between opening the journal and starting the host (e.g. opening a round with its clocks). */
  readonly beforeStart?: (journal: Journal) => void;
}

export interface RunningHost {
  readonly host: Host;
  readonly journal: Journal;
  /** TRF, PGN and JSON Lines over the journal (what the API serves). */
  readonly exports: ExportSource;
  readonly api: FastifyInstance | null;
  /** The API's address once it listens (`http://127.0.0.1:PORT`), else null. */
  readonly url: string | null;
  readonly mqtt: HostMqtt | null;
  readonly broadcast: RunningBroadcast | null;
  /** Stops everything, the adapters first, then the host and the journal. Idempotent. */
  close(): Promise<void>;
}

/** How long an adapter may take to close before it is abandoned (docs/host.md "Stopping"). */
export const ADAPTER_CLOSE_MS = 3_000;

async function bounded(work: Promise<unknown> | undefined, ms: number, what: string, log: (line: string) => void, force?: () => void): Promise<void> {
  if (!work) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      (err: Error) => err,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') {
    log(`stopping: ${what} did not close within ${ms} ms; closed by force`);
    force?.();
  } else if (outcome instanceof Error) log(`stopping: ${what}: ${outcome.message}`);
}

/** The journal a host runs on: the file given (with the MQTT outbox, background checkpoints, the writer chosen), or the one already open. */
function openJournal(opts: StartHostOptions): Journal {
  return typeof opts.journal === 'string'
    ? new Journal(opts.journal, {
        outboxTopic: journalOutboxTopic,
        checkpointInBackground: opts.onCheckpoint ? { onCheckpoint: opts.onCheckpoint } : true,
        writerThread: opts.journalWriter !== 'loop',
      })
    : opts.journal;
}

/** What the API serves: the host's state and commands, the exports and team matches over the journal, and the HTTP options given. */
function hostApiDeps(opts: StartHostOptions, http: NonNullable<StartHostOptions['http']>, host: Host, journal: Journal, exports: ExportSource): ApiDeps {
  const clock = opts.clock;
  return {
    state: host.state,
    commands: host,
    nextRounds: host,
    clockIdentity: host,
    entries: host,
    exports,
    tokens: http.tokens,
    // The team match protocol (captains' and the arbiter's confirmations of team matches).
    teamMatches: new TeamMatchProtocols(journal, opts.hall, () => clock.nowUtcMs()),
    ...(http.captains?.length ? { captains: http.captains } : {}),
    nowUtcMs: () => clock.nowUtcMs(),
    ...(http.timeRate !== undefined ? { timeRate: http.timeRate } : {}),
    ...(http.dashboard !== undefined ? { dashboard: http.dashboard } : {}),
    ...(http.https ? { https: http.https } : {}),
    ...(http.wsMaxClients !== undefined ? { wsMaxClients: http.wsMaxClients } : {}),
    ...(http.wsMaxClientsPerAddress !== undefined ? { wsMaxClientsPerAddress: http.wsMaxClientsPerAddress } : {}),
    ...(http.signInLimit ? { signInLimit: http.signInLimit } : {}),
    allowedHosts: allowedHostsFor(http.listen.host, http.allowedHosts ?? [], {
      hostname: hostname(),
      addresses: Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address)),
    }),
    ...(opts.log ? { log: opts.log } : {}),
  };
}

export async function startHost(opts: StartHostOptions): Promise<RunningHost> {
  const journal = openJournal(opts);
  const clock = opts.clock;
  opts.beforeStart?.(journal);
  // A Swiss event's next round: its pairing engine run on the journal's TRF, or a pairing program's TRF.
  const host = new Host({ pairing: journalNextRoundPairing(journal, opts.hall), ...opts, journal }).start();
  const exports = journalExports(journal, opts.hall, () => clock.nowUtcMs(), opts.broadcastDelay);
  let api: FastifyInstance | null = null;
  let url: string | null = null;
  let mqtt: HostMqtt | null = null;
  let broadcast: RunningBroadcast | null = null;
  let stopPublishing: (() => void) | null = null;
  let closed = false;
  const log = opts.log ?? (() => undefined);
  const close = async () => {
    if (closed) return;
    closed = true;
    stopPublishing?.();
    // Each adapter gets a bounded time to say goodbye, whatever state its peer is in (a broker
    // killed, hung or unreachable; a browser that never answers a close frame): the journal is
    // closed in any case, and what was not acknowledged stays in its outbox for the next start.
    await bounded(api?.close(), ADAPTER_CLOSE_MS, 'the API', log);
    await bounded(broadcast?.close(), ADAPTER_CLOSE_MS, 'the broadcast', log);
    await bounded(mqtt?.close(), ADAPTER_CLOSE_MS, 'MQTT', log, () => mqtt?.forceClose());
    await host.close();
    journal.close();
  };
  try {
    if (opts.mqtt) {
      // Every fact's message is drafted in the fact's own transaction (the durable outbox);
      // events go out as they are journaled, with each board's retained state.
      // The publisher runs on a thread of its own, reading the journal's file; a journal
      // in memory has no file for it to read, and keeps it on the event loop.
      const outbox = journal.outboxStore(() => clock.nowUtcMs());
      const onDisk = journal.path !== ':memory:' && journal.path !== '';
      mqtt =
        onDisk && opts.mqttThread !== false
          ? await startHostMqttThread({ ...opts.mqtt, outbox, journalPath: journal.path })
          : await startHostMqtt({ ...opts.mqtt, outbox });
      if (mqtt) stopPublishing = publishHostToMqtt(host.state, mqtt);
    }
    if (opts.http) {
      api = await buildApi(hostApiDeps(opts, opts.http, host, journal, exports));
      registerMetrics(api, {
        lines: () => host.lineFigures(),
        health: () => host.state.health(),
        outboxBacklog: () => journal.outboxBacklog(),
        mqtt: () => mqtt?.publisher.stats() ?? null,
      });
      url = await api.listen({ host: opts.http.listen.host, port: opts.http.listen.port });
    }
  } catch (err) {
    await close(); // a refused start leaves no broker, journal or host behind
    throw err;
  }
  if (opts.broadcast) {
    const deps = { journal, hall: opts.hall, state: host.state, notes: host.state, nowUtcMs: () => clock.nowUtcMs(), log, timers: clock };
    broadcast = startBroadcast(deps, { ...opts.broadcast, delays: { ...opts.broadcast.delays, ...opts.broadcastDelay } });
  }
  for (const line of delayWarnings(opts.broadcastDelay, mqtt !== null, api !== null)) log(line);
  for (const l of opts.lines ?? []) host.addLine(l.key, l.open, l.table !== undefined ? { table: l.table } : {});
  return { host, journal, exports, api, url, mqtt, broadcast, close };
}

/** What a delay does not yet hold back (docs/broadcast.md "The delay"): MQTT's topics and the API's reads (/public among them) stay live. */
export function delayWarnings(delays: Readonly<Record<string, number>> | undefined, mqtt: boolean, http: boolean): string[] {
  const delayed = Object.entries(delays ?? {}).filter(([, s]) => s > 0);
  if (delayed.length === 0) return [];
  const which = delayed.map(([e, s]) => `${e} ${s} s`).join(', ');
  const live = [mqtt ? 'the MQTT topics' : null, http ? "the API's reads and /public" : null].filter((w) => w !== null);
  if (live.length === 0) return [];
  return [
    `warning: broadcast delay (${which}) holds back the lichess push and /broadcast/round/N/games.pgn only; ${live.join(' and ')} stay live: serve them to the hall's LAN only (docs/broadcast.md "The delay")`,
  ];
}

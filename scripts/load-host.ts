// The host side of a load run (scripts/load.ts) and of the hall benchmark
// (bench/host-hall.bench.ts): the real Host (host/host.ts — one session actor per clock,
// the SQLite journal with synchronous=FULL, the director) with the network side wired as
// `chessclock host` wires it — MQTT from the journal's outbox, the API with its /ws feed —
// and a tap on the journaled events (the host's feed fires after the journal committed).
import type { FastifyInstance } from 'fastify';
import { Host } from '../host/host.ts';
import { Journal } from '../host/journal/journal.ts';
import { journalOutboxTopic } from '../host/mqtt/journal-topics.ts';
import { publishHostToMqtt, startHostMqtt, type HostMqtt } from '../host/mqtt/host-mqtt.ts';
import { buildApi } from '../host/api/api.ts';
import { openSerialLine } from '../host/bridge/serial-lines.ts';
import type { ClockEventRecord } from '../host/api/host-ports.ts';
import type { LinkTuning } from '../host/bridge/clock-session.ts';
import { parseTournament } from '../host/tournament/load.ts';
import { Director } from '../host/director/director.ts';
import type { Hall } from '../host/tournament/model.ts';
import type { HostClock } from '../host/utc.ts';
import type { HostLine } from '../simulator/clock-cable.ts';

/** One individual event with `boards` boards in round 1 (players 2b−1 vs 2b), classical. */
export function loadTournament(boards: number): Hall {
  const players = Array.from({ length: 2 * boards }, (_, i) => ({ rank: i + 1, name: `Player, No${String(i + 1).padStart(4, '0')}`, sex: 'm', rating: 2000, federation: 'FID' }));
  return parseTournament({
    hall: { name: 'Load hall', site: 'loopback' },
    events: [
      {
        id: 'load',
        name: 'Load test open',
        city: 'Loopback',
        federation: 'FID',
        startDate: '2026/01/10',
        endDate: '2026/01/10',
        chiefArbiter: 'Load Arbiter',
        kind: 'individual',
        type: 'Swiss',
        timeControl: 'classical',
        players,
        rounds: [{ number: 1, date: '2026/01/10', start: '2026-01-10T10:00:00Z', boards: Array.from({ length: boards }, (_, i) => ({ board: i + 1, white: 2 * i + 1, black: 2 * i + 2 })) }],
      },
    ],
  });
}

export interface LoadHostOptions {
  readonly dbFile: string;
  readonly hall: Hall;
  readonly clock: HostClock;
  /** Broker to publish to (the journal's outbox drained by the MQTT publisher). */
  readonly mqttUrl?: string;
  /** Serve the API and /ws feed on 127.0.0.1 (any free port). */
  readonly api?: boolean;
  readonly link?: LinkTuning;
  /** Each newly journaled clock event, after its commit. */
  readonly onJournaled?: (event: ClockEventRecord) => void;
  readonly log?: (line: string) => void;
}

export interface LineSpec {
  readonly key: string;
  readonly table: number;
  /** The clock's serial id: the round is opened with this clock on board `table`. */
  readonly clockId: string;
  readonly open: () => Promise<HostLine>;
}

export class LoadHost {
  private stopPublishing: (() => void) | null = null;

  private constructor(
    readonly host: Host,
    readonly journal: Journal,
    readonly mqtt: HostMqtt | null,
    readonly api: FastifyInstance | null,
    readonly url: string | null,
  ) {}

  static async start(opts: LoadHostOptions, lines: readonly LineSpec[]): Promise<LoadHost> {
    const journal = new Journal(opts.dbFile, { outboxTopic: journalOutboxTopic });
    // The arbiter opens round 1 with each board's clock assigned (as the pairing on the
    // hall's clock list would): the host then finds a clock's game by the clock
    // (journal.currentGameForClock) instead of by its table. (By table, Host.gameFor used to
    // read every board of the event per clock — 1,000 clocks took 61 s to come online — until
    // commit 92fce25 made it one board's lookup; the recorded figures used this path.)
    // Idempotent: a restarted host finds the round open.
    for (const event of opts.hall.events) {
      new Director(journal, opts.hall).openRound(event.id, 1, opts.clock.nowUtcMs(), Object.fromEntries(lines.map((l) => [l.table, l.clockId])));
    }
    const host = new Host({ journal, hall: opts.hall, clock: opts.clock, link: opts.link, log: opts.log, backoff: { initialMs: 100, maxMs: 2_000 } }).start();
    const mqtt = opts.mqttUrl
      ? await startHostMqtt({ target: { kind: 'external', url: opts.mqttUrl }, outbox: journal.outboxStore(() => opts.clock.nowUtcMs()), clientId: 'chessclock-load-host', reconnectPeriodMs: 500, onError: () => undefined })
      : null;
    let api: FastifyInstance | null = null;
    let url: string | null = null;
    if (opts.api) {
      api = await buildApi({ state: host, commands: host, exports: host, tokens: [], nowUtcMs: () => opts.clock.nowUtcMs(), dashboard: false });
      url = await api.listen({ host: '127.0.0.1', port: 0 });
    }
    const lh = new LoadHost(host, journal, mqtt, api, url);
    if (opts.onJournaled) host.subscribe((event) => opts.onJournaled!(event));
    // The same wiring as `chessclock host` and `hall`: events as journaled (one outbox read per
    // event-loop turn), each board's retained state, and a drain every second.
    if (mqtt) lh.stopPublishing = publishHostToMqtt(host, mqtt);
    for (const l of lines) host.addLine(l.key, l.open);
    return lh;
  }

  /** Static helper for pty lines: the host opens the path with serialport. */
  static serialLine(path: string): () => Promise<HostLine> {
    return openSerialLine(path) as () => Promise<HostLine>;
  }

  /** Clocks whose session is online. */
  online(): number {
    return this.host.lines().filter((s) => s.online).length;
  }

  async close(): Promise<void> {
    this.stopPublishing?.();
    await this.api?.close();
    await this.mqtt?.close();
    await this.host.close();
    this.journal.close();
  }
}

// The host side of a load run (scripts/load.ts) and of the hall benchmark
// (bench/host-hall.bench.ts): the real Host (host/app/host.ts — one session actor per clock,
// the SQLite journal with synchronous=FULL, the director) with the network side wired as
// `chessclock host` wires it — MQTT from the journal's outbox, the API with its /ws feed —
// and a tap on the journaled events (the host's feed fires after the journal committed).
import type { FastifyInstance } from 'fastify';
import type { Host } from '../host/app/host.ts';
import type { Journal } from '../host/store/journal.ts';
import type { HostMqtt } from '../host/adapters/mqtt/host-mqtt.ts';
import { startHost, type RunningHost, type StartHostOptions } from '../host/start-host.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import type { ClockEventRecord } from '../host/app/ports.ts';
import type { LinkTuning } from '../host/clocks/clock-session.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { Director } from '../host/app/director.ts';
import type { Hall } from '../host/domain/model.ts';
import type { HostClock } from '../host/app/utc.ts';
import type { HostLine } from '../simulator/clock-cable.ts';

/**
 * Boards per event of a load hall: starting ranks have four digits (TRF16; the tournament file
 * refuses 10,000), so a hall of more boards is several events, as a real hall would be.
 */
export const LOAD_EVENT_BOARDS = 4_000;

/**
 * Individual events with `boards` boards in all in round 1 (players 2b−1 vs 2b), classical:
 * one event `load` up to LOAD_EVENT_BOARDS boards, then `load-2`, `load-3`… Hall table t is
 * board ((t − 1) mod LOAD_EVENT_BOARDS) + 1 of event ⌊(t − 1) / LOAD_EVENT_BOARDS⌋ + 1.
 */
export function loadTournament(boards: number): Hall {
  const events = [];
  for (let first = 0, k = 1; first < boards; first += LOAD_EVENT_BOARDS, k++) {
    const n = Math.min(LOAD_EVENT_BOARDS, boards - first);
    const players = Array.from({ length: 2 * n }, (_, i) => ({
      rank: i + 1,
      name: `Player, No${String(first * 2 + i + 1).padStart(4, '0')}`,
      sex: 'm',
      rating: 2000,
      federation: 'FID',
    }));
    events.push({
      id: k === 1 ? 'load' : `load-${k}`,
      hallFirstTable: first + 1,
      name: k === 1 ? 'Load test open' : `Load test open ${k}`,
      city: 'Loopback',
      federation: 'FID',
      startDate: '2026/01/10',
      endDate: '2026/01/10',
      chiefArbiter: 'Load Arbiter',
      kind: 'individual',
      type: 'Swiss',
      timeControl: 'classical',
      players,
      rounds: [
        {
          number: 1,
          date: '2026/01/10',
          start: '2026-01-10T10:00:00Z',
          boards: Array.from({ length: n }, (_, i) => ({ board: i + 1, white: 2 * i + 1, black: 2 * i + 2 })),
        },
      ],
    });
  }
  return parseTournament({ hall: { name: 'Load hall', site: 'loopback' }, events });
}

export interface LoadHostOptions {
  readonly dbFile: string;
  readonly hall: Hall;
  readonly clock: HostClock;
  /** Broker to publish to (the journal's outbox drained by the MQTT publisher). */
  readonly mqttUrl?: string;
  /** Serve the API and /ws feed on 127.0.0.1 (any free port). */
  readonly api?: boolean;
  /** With the API, serve the dashboard too (default false: the load runs measure the host alone). */
  readonly dashboard?: boolean;
  readonly link?: LinkTuning;
  /** How clock events are committed (Host option; default 'turn': group commit). */
  readonly groupCommit?: 'turn' | 'event';
  /** Where the journal commits clock events (startHost option; default 'thread'). */
  readonly journalWriter?: 'thread' | 'loop';
  /** Where the MQTT publisher runs (startHost option `mqttThread`; default: its own thread). */
  readonly mqttThread?: boolean;
  /** Each WAL checkpoint (startHost option). */
  readonly onCheckpoint?: StartHostOptions['onCheckpoint'];
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
  private constructor(
    private readonly running: RunningHost,
    readonly host: Host,
    readonly journal: Journal,
    readonly mqtt: HostMqtt | null,
    readonly api: FastifyInstance | null,
    readonly url: string | null,
  ) {}

  static async start(opts: LoadHostOptions, lines: readonly LineSpec[]): Promise<LoadHost> {
    // The host's one composition (host/start-host.ts), as `chessclock host` and `hall` start it.
    const running = await startHost({
      journal: opts.dbFile,
      hall: opts.hall,
      clock: opts.clock,
      link: opts.link,
      log: opts.log,
      ...(opts.groupCommit ? { groupCommit: opts.groupCommit } : {}),
      ...(opts.journalWriter ? { journalWriter: opts.journalWriter } : {}),
      ...(opts.mqttThread !== undefined ? { mqttThread: opts.mqttThread } : {}),
      ...(opts.onCheckpoint ? { onCheckpoint: opts.onCheckpoint } : {}),
      backoff: { initialMs: 100, maxMs: 2_000 },
      // The arbiter opens round 1 with each board's clock assigned (as the pairing on the
      // hall's clock list would): the host then finds a clock's game by the clock
      // (journal.currentGameForClock) instead of by its table. (By table, Host.gameFor used to
      // read every board of the event per clock — 1,000 clocks took 61 s to come online — until
      // commit 92fce25 made it one board's lookup; the recorded figures used this path.)
      // Idempotent: a restarted host finds the round open.
      beforeStart: (journal) => {
        // Hall table t is board t − offset of the event whose boards cover it (loadTournament).
        let offset = 0;
        for (const event of opts.hall.events) {
          const boards = event.rounds[0]?.boards.length ?? 0;
          const mine = lines.filter((l) => l.table > offset && l.table <= offset + boards);
          new Director(journal, opts.hall).openRound(event.id, 1, opts.clock.nowUtcMs(), Object.fromEntries(mine.map((l) => [l.table - offset, l.clockId])));
          offset += boards;
        }
      },
      ...(opts.mqttUrl
        ? {
            mqtt: {
              target: { kind: 'external' as const, url: opts.mqttUrl },
              clientId: 'chessclock-load-host',
              reconnectPeriodMs: 500,
              onError: () => undefined,
            },
          }
        : {}),
      ...(opts.api ? { http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [], dashboard: opts.dashboard ?? false } } : {}),
    });
    const lh = new LoadHost(running, running.host, running.journal, running.mqtt, running.api, running.url);
    if (opts.onJournaled) running.host.state.subscribe((event) => opts.onJournaled!(event));
    for (const l of lines) running.host.addLine(l.key, l.open);
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
    await this.running.close();
  }
}

// GET /metrics: the host's figures in the Prometheus text format (prom-client), read when
// scraped (docs/reliability.md "Link health"; docs/api.md). Per clock line: frames dropped,
// CRC failures, messages resent, the clock's own resends seen again, round-trip time, whether
// it is online, connections; for the host: whether the journal writes, the journal's
// unpublished outbox rows, and the MQTT publisher's queue. Process figures (memory, CPU, event
// loop lag) come with prom-client's defaults.
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { HostHealth, LinkFigures } from '../../app/ports.ts';

export interface LineMetrics {
  /** The line's key (port path, or a test's label). */
  readonly key: string;
  /** The clock's serial id once it greeted, else null. */
  readonly clockId: string | null;
  readonly online: boolean;
  readonly link: LinkFigures;
}

export interface MetricsSource {
  lines(): readonly LineMetrics[];
  health(): HostHealth;
  /** Journal outbox rows not yet published. */
  outboxBacklog(): number;
  /** The MQTT publisher's queue, when one runs. */
  mqtt?(): { readonly pending: number; readonly inFlight: number; readonly acked: number } | null;
}

export const METRICS_PATH = '/metrics';

/** Adds GET /metrics to `app` (before it listens). Returns the registry (tests read it). */
export function registerMetrics(app: FastifyInstance, source: MetricsSource): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'chessclock_host_' });
  const labelNames = ['clock', 'line'] as const;
  const labels = (l: LineMetrics) => ({ clock: l.clockId ?? '', line: l.key });
  /** A counter read from the source at each scrape (the source keeps the totals). */
  const perLineTotal = (name: string, help: string, value: (f: LinkFigures) => number) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const l of source.lines()) this.inc(labels(l), value(l.link));
      },
    });
  perLineTotal(
    'chessclock_link_frames_dropped_total',
    'Frames from the clock dropped by the host (bad CRC, bad escape, runt, oversized, bad version, undecodable)',
    (f) => f.framesDropped,
  );
  perLineTotal('chessclock_link_crc_failures_total', 'Frames from the clock with a bad CRC', (f) => f.crcFailures);
  perLineTotal('chessclock_link_retransmits_total', 'Messages the host sent to the clock again (no ack in time)', (f) => f.retransmits);
  perLineTotal('chessclock_link_duplicates_received_total', "Messages from the clock received again (the clock's own resends)", (f) => f.duplicatesReceived);
  /** A gauge per line read at each scrape; a line whose value is null is left out. */
  const perLineGauge = (name: string, help: string, value: (l: LineMetrics) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const l of source.lines()) {
          const v = value(l);
          if (v !== null) this.set(labels(l), v);
        }
      },
    });
  perLineGauge(
    'chessclock_link_rtt_seconds',
    "Round-trip time of the current connection (RFC 6298 SRTT, else the time sync's best round trip); absent before a sample or while offline",
    (l) => (l.link.rttMs === null ? null : l.link.rttMs / 1000),
  );
  perLineGauge('chessclock_link_online', '1 while the clock is connected to the host', (l) => (l.online ? 1 : 0));
  perLineGauge('chessclock_link_connections', 'Connections made to the clock since the host started', (l) => l.link.connections);
  new Gauge({
    name: 'chessclock_journal_writable',
    help: '1 while the journal writes; 0 during a storage fault (a full disk): nothing is acknowledged then',
    registers: [registry],
    collect() {
      this.set(source.health().journal.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'chessclock_journal_outbox_backlog',
    help: 'Journal outbox rows not yet published to MQTT',
    registers: [registry],
    collect() {
      this.set(source.outboxBacklog());
    },
  });
  new Gauge({
    name: 'chessclock_mqtt_in_flight',
    help: 'MQTT messages sent and awaiting the broker’s PUBACK',
    registers: [registry],
    collect() {
      const m = source.mqtt?.();
      if (m) this.set(m.inFlight);
    },
  });
  app.get(METRICS_PATH, async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return registry;
}

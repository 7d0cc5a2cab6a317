// Link health (docs/reliability.md "Faults": a noisy line): a clock on a noisy line
// has some of its frames corrupted (one byte each, on the real frame decoder's CRC-16 path). The
// host drops each of them, counts it, and the clock's session resends; the figures reach the
// board's view (the dashboard's card) and GET /metrics in the Prometheus text format, summed
// across reconnects.
import { afterEach, describe, expect, it } from 'vitest';
import { registerMetrics } from '../host/adapters/http/metrics.ts';
import { buildRig, closeRig, configuredFor, boardId, type MatchRig } from './e2e-match.ts';
import { flowing, sleep, waitFor } from './e2e-harness.ts';

/** One sample of the Prometheus text: `name{labels} value`. */
function sample(text: string, name: string, labels: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('link health on the card and at /metrics', () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('frames corrupted on the line are dropped by CRC, counted, resent, and reported the same in the board view and /metrics', async () => {
    rig = await buildRig();
    registerMetrics(rig.api, {
      lines: () => rig!.host.lineFigures(),
      health: () => rig!.host.state.health(),
      outboxBacklog: () => rig!.journal.outboxBacklog(),
    });
    await configuredFor(rig, 1);
    const c = rig.clocks[0];
    c.cable.corruptProbability = 0.35;
    await c.clock.tap('startPause');
    for (let i = 0; i < 12; i++) {
      rig.sim.advanceBy(2_000);
      await c.press(i % 2 === 0 ? 'white' : 'black');
    }
    const moved = () => rig!.journal.eventsAfter(0, 1_000).filter((e) => e.type === 'moved').length;
    await waitFor('every press journaled through the noise', () => moved() === 12, 30_000, flowing(rig.sim, 10));
    c.cable.corruptProbability = 0;
    // A cable pull and back: the figures are summed over both connections.
    const before = rig.host.state.board(boardId(rig))!.link!;
    c.unplugMemory();
    const session = rig.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('offline', () => !session.online, 10_000, flowing(rig.sim, 5));
    c.plugMemory();
    await waitFor('online again', () => session.online && session.connections === 2, 10_000, flowing(rig.sim, 5));

    const view = rig.host.state.board(boardId(rig))!;
    const link = view.link!;
    expect(c.cable.corrupted).toBeGreaterThan(0);
    // CRC-16/CCITT catches every burst of up to 16 bits: each corrupted frame is dropped, none delivered.
    expect(link.crcFailures).toBeGreaterThan(0);
    expect(link.framesDropped).toBeGreaterThanOrEqual(c.cable.corrupted);
    expect(link.framesDropped).toBeGreaterThanOrEqual(link.crcFailures);
    expect(link.framesDropped).toBeGreaterThanOrEqual(before.framesDropped);
    expect(link.connections).toBe(2);
    expect(moved()).toBe(12);

    // The round trip is known once the clock answered a time sync (or acknowledged a host message).
    // One exchange now; syncOnce answers null at once while the link's own sync exchange is out, so try again.
    let exchange = null;
    for (let i = 0; i < 50 && exchange === null; i++) {
      exchange = await session.link!.syncOnce(5_000);
      if (exchange === null) await sleep(20);
    }
    expect(exchange).not.toBeNull();
    expect(rig.host.state.board(boardId(rig))!.link!.rttMs).not.toBeNull();
    const res = await rig.api.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const labels = 'clock="CLK-01",line="memory:table-1"';
    // Read again after the scrape: the figures only grow, so the scrape lies between the two reads.
    const after = rig.host.state.board(boardId(rig))!.link!;
    const scraped = sample(res.body, 'chessclock_link_frames_dropped_total', labels)!;
    expect(scraped).toBeGreaterThanOrEqual(link.framesDropped);
    expect(scraped).toBeLessThanOrEqual(after.framesDropped);
    expect(sample(res.body, 'chessclock_link_crc_failures_total', labels)).toBeGreaterThanOrEqual(link.crcFailures);
    expect(sample(res.body, 'chessclock_link_online', labels)).toBe(1);
    expect(sample(res.body, 'chessclock_link_rtt_seconds', labels)).toBeGreaterThanOrEqual(0);
    expect(sample(res.body, 'chessclock_link_connections', labels)).toBe(2);
    expect(res.body).toMatch(/^chessclock_journal_writable 1$/m);
    expect(res.body).toMatch(/^chessclock_journal_outbox_backlog \d+$/m);
    expect(res.body).toMatch(/^chessclock_host_process_resident_memory_bytes \d+/m);
  }, 60_000);
});

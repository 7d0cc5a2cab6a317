// The shipped catch-up subscriber (docs/mqtt.md "Nothing lost") against a whole host — journal,
// simulated clocks, API, embedded Aedes broker over TCP on 127.0.0.1. The broker is made to lose
// messages on their way to the subscriber (Aedes `authorizeForward` drops them: what a crashed
// broker does to what it had acknowledged), and the host's API fails for a while: the helper must
// end with every journaled event once, in journal order (journalSeq), telling the two roads apart.
// The same against a real Mosquitto killed with SIGKILL: test/mqtt-catch-up.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { systemTime } from '../../../protocol/monotonic.ts';
import { startHost, type RunningHost } from '../../start-host.ts';
import { CatchUpSubscriber, type JournaledEvent } from './catch-up-subscriber.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { AnchoredClock } from '../../app/utc.ts';
import { AcceleratedTime } from '../../../simulator/accelerated-time.ts';
import { HallClocks } from '../../../simulator/hall-clocks.ts';

const FIXTURES = fileURLToPath(new URL('../../domain/fixtures/', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function hall(): Promise<{
  running: RunningHost;
  fleet: HallClocks;
  journaled: (filter?: { event?: string; round?: number; board?: number }) => number[];
}> {
  const dir = mkdtempSync(join(tmpdir(), 'catch-up-'));
  const tournament = parseTournament(JSON.parse(readFileSync(join(FIXTURES, 'ivanovo-white-rook-2018.json'), 'utf8')));
  const time = new AcceleratedTime(400);
  const hostClock = new AnchoredClock(
    { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
    { hostMs: 0, utcMs: 1_780_000_000_000 },
  );
  const fleet = await HallClocks.boot({ count: 3, time, seed: 5, serialId: (i) => `cu-${i + 1}`, statusIntervalMs: 0 });
  const running = await startHost({
    journal: join(dir, 'host.db'),
    hall: tournament,
    clock: hostClock,
    log: () => undefined,
    backoff: { initialMs: 50, maxMs: 500 },
    mqtt: { target: 'embedded:0', anonymousRead: true, clientId: 'catch-up-host', onError: () => undefined },
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [], dashboard: false },
    lines: fleet.clocks.map((c) => ({ key: `memory:${c.serialId}`, open: c.cable.memoryLine(), table: c.index + 1 })),
  });
  fleet.play();
  cleanups.push(async () => {
    await fleet.stop();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const journaled = (filter: { event?: string; round?: number; board?: number } = {}): number[] =>
    running.journal
      .eventsAfter(0, 1_000_000)
      .filter(
        (r) =>
          r.event !== null &&
          r.round !== null &&
          r.board !== null &&
          (filter.event === undefined || r.event === filter.event) &&
          (filter.round === undefined || r.round === filter.round) &&
          (filter.board === undefined || r.board === filter.board),
      )
      .map((r) => r.id);
  return { running, fleet, journaled };
}

function brokerUrl(running: RunningHost): string {
  return `mqtt://127.0.0.1:${(running.mqtt!.broker!.server.address() as { port: number }).port}`;
}

describe('CatchUpSubscriber', () => {
  it('fills what the broker lost from the journal: every event once, in journal order', { timeout: 60_000 }, async () => {
    const { running, fleet, journaled } = await hall();
    // The broker loses every fourth events message on its way to the subscriber.
    let n = 0;
    running.mqtt!.broker!.aedes.authorizeForward = (client, packet) =>
      client.id === 'cu-sub' && packet.topic.endsWith('/events') && ++n % 4 === 0 ? null : packet;
    const client = mqtt.connect(brokerUrl(running), { clientId: 'cu-sub', clean: false });
    cleanups.push(() => client.endAsync(true));
    const got: Array<{ e: JournaledEvent; via: string }> = [];
    const sub = await CatchUpSubscriber.start({ client, apiUrl: running.url!, after: 0, onEvent: (e, via) => got.push({ e, via }) });
    cleanups.push(() => sub.close());
    await waitFor(() => got.length >= 80, '80 events');
    await fleet.stop();
    // What the clocks sent before they stopped may still be on its way into the journal (the
    // writer thread commits off the event loop): wait until a settled journal gains nothing more.
    let last: number | undefined;
    do {
      last = journaled().at(-1);
      await new Promise((r) => setImmediate(r));
      await running.journal.settled();
      await running.mqtt!.publisher.idle();
    } while (journaled().at(-1) !== last);
    await sub.catchUp(); // the tail: a loss after the last message is seen only at the next one, a reconnect, or here
    const expected = journaled();
    expect(got.map((g) => g.e.journalSeq)).toEqual(expected);
    expect(sub.delivered).toBeGreaterThanOrEqual(expected.at(-1)!);
    expect(sub.stats().fromHttp).toBeGreaterThanOrEqual(Math.floor(n / 4) - 1); // the dropped ones came by HTTP
    expect(got.some((g) => g.via === 'mqtt')).toBe(true);
  });

  it("keeps delivering while the host's API fails, and fills the gap once it answers again", { timeout: 60_000 }, async () => {
    const { running, fleet, journaled } = await hall();
    let n = 0;
    running.mqtt!.broker!.aedes.authorizeForward = (client, packet) =>
      client.id === 'cu-sub-2' && packet.topic.endsWith('/events') && ++n % 5 === 0 ? null : packet;
    let failing = true;
    const errors: string[] = [];
    // The network to the host fails (connection refused) until `failing` is cleared.
    const flaky: typeof fetch = (input, init) => (failing ? Promise.reject(new TypeError('fetch failed: ECONNREFUSED')) : fetch(input, init));
    const client = mqtt.connect(brokerUrl(running), { clientId: 'cu-sub-2', clean: false });
    cleanups.push(() => client.endAsync(true));
    const got: JournaledEvent[] = [];
    const start = CatchUpSubscriber.start({
      client,
      apiUrl: running.url!,
      after: 0,
      onEvent: (e) => got.push(e),
      onError: (e) => errors.push(e.message),
      fetch: flaky,
      retryMs: 100,
    });
    const sub = await start;
    cleanups.push(() => sub.close());
    await waitFor(() => got.length >= 20 && errors.length >= 2, '20 events by MQTT while the host does not answer');
    expect(errors[0]).toMatch(/^catch-up from http:\/\/127\.0\.0\.1:\d+ failed \(trying again\): fetch failed/);
    failing = false;
    await fleet.stop();
    await running.mqtt!.publisher.idle();
    const expected = journaled();
    await waitFor(() => got.length >= expected.length, `${expected.length} events (has ${got.length})`);
    await sub.catchUp();
    const seqs = got.map((e) => e.journalSeq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((a, b) => a - b)).toEqual(expected);
  });

  it('with a board filter, only that board, all of it', { timeout: 60_000 }, async () => {
    const { running, fleet, journaled } = await hall();
    const client = mqtt.connect(brokerUrl(running), { clientId: 'cu-sub-3', clean: false });
    cleanups.push(() => client.endAsync(true));
    const got: JournaledEvent[] = [];
    const board = running.host.state.boards()[1];
    const sub = await CatchUpSubscriber.start({
      client,
      apiUrl: running.url!,
      after: 0,
      filter: { event: board.event, round: board.round, board: board.board },
      onEvent: (e) => got.push(e),
    });
    cleanups.push(() => sub.close());
    await waitFor(() => got.length >= 15, '15 events of the board');
    await fleet.stop();
    await running.mqtt!.publisher.idle();
    await sub.catchUp();
    expect(got.map((e) => e.journalSeq)).toEqual(journaled({ event: board.event, round: board.round, board: board.board }));
    expect(new Set(got.map((e) => e.board))).toEqual(new Set([board.board]));
  });
});

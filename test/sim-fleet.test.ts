// The fleet: simulated clocks with scripted players, each linked to a host over an
// in-memory line. Checked: the same seed replays the same games to the millisecond, and
// every event a clock produced reaches its host exactly once, in order.
import { describe, expect, it } from 'vitest';
import { ClockEvent_Kind } from '../protocol/gen/chessclock_pb.ts';
import { createLink, openSerialLink, ptySkipReason, type Link, type ReceivedMessage, type SerialLink } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { Fleet, inMemoryHosts, ptyHosts } from '../simulator/fleet.ts';

const shortGames = { movesMin: 8, movesMax: 15, penaltyProbability: 0.05, pauseProbability: 0.05, lateProbability: 0.3 };
const controls = (i: number) => presetTimeControl(['rapid', 'armageddon', 'sudden-death-60'][i % 3] as 'rapid', { defaultTime: i % 3 === 2 ? 900 : null });

async function playFleet(seed: number) {
  const fleet = await Fleet.create({ clocks: 3, seed, timeControl: controls, players: shortGames });
  const reports = await fleet.run();
  const outputs = fleet.clocks.map((c) => c.outputs.map((o) => ({ ...o })));
  await fleet.stop();
  return { reports, outputs };
}

describe('fleet of simulated clocks (scripted players)', () => {
  it('is deterministic for a seed: the same presses at the same simulated milliseconds', async () => {
    const a = await playFleet(42);
    const b = await playFleet(42);
    expect(b.outputs).toEqual(a.outputs);
    expect(b.reports).toEqual(a.reports);
    // Every game ended with a result, and the clocks' outputs never go back in time.
    for (const r of a.reports) expect(['1-0', '1/2-1/2', '0-1', '--']).toContain(r.result);
    for (const out of a.outputs) {
      const ats = out.map((o) => o.at);
      expect(ats).toEqual([...ats].sort((x, y) => x - y));
      expect(out.filter((o) => o.type === 'move').length).toBeGreaterThan(0);
    }
    const c = await playFleet(43);
    expect(c.outputs).not.toEqual(a.outputs);
  });

  it('each clock’s events reach its host exactly once and in order (in-memory links)', async () => {
    const hosts: Link[] = [];
    const received: ReceivedMessage[][] = [];
    const fleet = await Fleet.create({
      clocks: 3,
      seed: 7,
      timeControl: controls,
      players: shortGames,
      attach: inMemoryHosts(async (end, index) => {
        const host = createLink(end, { role: 'host', autoSync: false });
        received[index] = [];
        host.on('message', (m: ReceivedMessage) => received[index].push(m));
        hosts[index] = host;
        await host.ready;
      }),
    });
    try {
      await fleet.run();
      for (const [i, clock] of fleet.clocks.entries()) {
        // What the host must get: every state change but new-game, plus the result entered at
        // the clock (the statechart's 'result' output and the firmware's 'result' event are one event).
        const expected = clock.outputs.filter((o) => !['rejected', 'new-game', 'result'].includes(o.type)).length + clock.results.length;
        const deadline = Date.now() + 5_000;
        while (received[i].filter((m) => m.body.case === 'clockEvent').length < expected && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 10));
        }
        const evs = received[i].filter((m) => m.body.case === 'clockEvent');
        expect(evs).toHaveLength(expected);
        expect(evs.map((m) => m.seq)).toEqual(evs.map((_, k) => evs[0].seq + k)); // no gap, no duplicate
        const moves = evs.map((m) => m.body.value as { kind: number; atMs: number }).filter((v) => v.kind === ClockEvent_Kind.MOVED);
        expect(moves.map((v) => v.atMs)).toEqual(clock.outputs.filter((o) => o.type === 'move').map((o) => o.at));
      }
    } finally {
      await fleet.stop();
      for (const h of hosts) h.close();
    }
  });
});

describe('scripted players at a default time of 0 (FIDE Laws 6.7.1)', () => {
  it('FIDE Laws 6.7.1: the players’ arbiter answers the clock’s question who is present: the present play, a late player is forfeited, two late ones lose both (--)', async () => {
    const fleet = await Fleet.create({
      clocks: 4,
      seed: 4,
      timeControl: presetTimeControl('rapid', { defaultTime: 0 }),
      players: { movesMin: 4, movesMax: 6, penaltyProbability: 0, pauseProbability: 0, lateProbability: 0.3 },
    });
    try {
      const reports = await fleet.run();
      // The seed gives every kind of board: everyone on time, one player late, both late.
      expect(reports.map((r) => r.lateArrivals).sort()).toEqual([0, 1, 2, 2]);
      for (const [i, report] of reports.entries()) {
        const outputs = fleet.clocks[i].outputs;
        const startedAt = outputs.findIndex((o) => o.type === 'started');
        const arrivedFirst = outputs.slice(0, startedAt).filter((o) => o.type === 'arrived').length;
        // Every player at the board when the clock started was marked present before the START.
        expect(arrivedFirst).toBe(2 - report.lateArrivals);
        if (report.lateArrivals === 0) {
          expect(report.ended).not.toBe('forfeit');
          expect(report.moves).toBeGreaterThanOrEqual(8);
        } else {
          expect(report.ended).toBe('forfeit');
          // Both absent: both lose, which the arbiter records (the players enter only played results).
          expect(report.result === '--').toBe(report.lateArrivals === 2);
          if (report.lateArrivals === 2) expect(fleet.clocks[i].results.at(-1)).toMatchObject({ result: '--', by: 'arbiter' });
        }
      }
    } finally {
      await fleet.stop();
    }
  });
});

const skip = ptySkipReason();
describe.skipIf(skip !== null)(`fleet over real pty pairs (socat + serialport) ${skip ?? ''}`, () => {
  it('two clocks, each on its own pty, deliver their games to hosts on the other ends', async () => {
    const hosts: SerialLink[] = [];
    const moved: number[][] = [];
    const fleet = await Fleet.create({
      clocks: 2,
      seed: 11,
      timeControl: presetTimeControl('armageddon'),
      players: { ...shortGames, lateProbability: 0 },
      attach: ptyHosts(async (path, index) => {
        const host = await openSerialLink(path, { role: 'host', autoSync: false });
        moved[index] = [];
        host.link.on('message', (m: ReceivedMessage) => {
          const v = m.body.value as { kind?: number; atMs?: number };
          if (m.body.case === 'clockEvent' && v.kind === ClockEvent_Kind.MOVED) moved[index].push(v.atMs ?? 0);
        });
        hosts.push(host);
      }),
    });
    try {
      await Promise.all(fleet.clocks.map((c) => c.hostLink!.link.ready));
      await fleet.run();
      await Promise.all(fleet.clocks.map((c) => c.hostLink!.drained()));
      for (const [i, clock] of fleet.clocks.entries()) {
        expect(moved[i]).toEqual(clock.outputs.filter((o) => o.type === 'move').map((o) => o.at));
        expect(moved[i].length).toBeGreaterThan(0);
      }
    } finally {
      await fleet.stop();
      for (const h of hosts) await h.close();
    }
  });
});

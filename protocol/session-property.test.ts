// Property: whatever the line does (seeded drop, corruption, duplication, splits, delays,
// even reordering), both directions deliver every message exactly once, in order, and both
// outboxes drain. fast-check picks the impairments; FakeTime makes each run deterministic.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLink } from './link.ts';
import type { ReceivedMessage } from './link-types.ts';
import { FakeTime } from './testing/fake-time.ts';
import { createLossyPair } from './lossy-line.ts';
import { ClockEvent_Kind, Command_Kind, Side } from './gen/chessclock_pb.ts';

async function exchange(
  seed: number,
  imp: { drop: number; corrupt: number; duplicate: number; split: number; delay: number; reorder: boolean },
  events: number,
  commands: number,
) {
  const time = new FakeTime(1_000);
  const pair = createLossyPair({ seed, time, impairment: { ...imp, maxDelayMs: 30 }, latencyMs: 1 });
  let n = seed;
  const random = () => (n = (Math.imul(n, 1103515245) + 12345) >>> 0);
  const clock = createLink(pair.a, {
    role: 'clock',
    time,
    identity: { serialId: 'P', firmwareVersion: '1', bootId: 0xabc },
    random,
    session: { maxRetransmits: 1_000 },
  });
  const host = createLink(pair.b, {
    role: 'host',
    time,
    random,
    autoSync: { phaseExchanges: 4, phaseIntervalMs: 50, intervalMs: 500 },
    session: { maxRetransmits: 1_000 },
  });
  const atClock: ReceivedMessage[] = [];
  const atHost: ReceivedMessage[] = [];
  clock.on('message', (m: ReceivedMessage) => atClock.push(m));
  host.on('message', (m: ReceivedMessage) => atHost.push(m));
  let acked = 0;
  for (let i = 0; i < events; i++)
    void clock.send({ case: 'clockEvent', value: { kind: ClockEvent_Kind.MOVED, side: Side.WHITE, atMs: i, moveNumber: i + 1 } }).then(() => acked++);
  for (let i = 0; i < commands; i++)
    void host.send({ case: 'command', value: { kind: Command_Kind.SET_MOVES, side: Side.BLACK, moves: i } }).then(() => acked++);
  await time.runUntil(() => acked === events + commands && atHost.length >= events && atClock.length >= commands, 24 * 3_600_000);
  return { atClock, atHost, clock, host };
}

describe('session property: exactly once, in order, outboxes drain (fast-check over line impairments)', () => {
  it('holds for random seeds and impairments, serial-like (FIFO) and reordering lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.record({
          drop: fc.double({ min: 0, max: 0.3, noNaN: true }),
          corrupt: fc.double({ min: 0, max: 0.1, noNaN: true }),
          duplicate: fc.double({ min: 0, max: 0.1, noNaN: true }),
          split: fc.double({ min: 0, max: 0.3, noNaN: true }),
          delay: fc.double({ min: 0, max: 0.3, noNaN: true }),
          reorder: fc.boolean(),
        }),
        async (seed, imp) => {
          const r = await exchange(seed, imp, 60, 15);
          const hostSeqs = r.atHost.filter((m) => m.body.case === 'clockEvent').map((m) => (m.body.value as { atMs: number }).atMs);
          const clockSeqs = r.atClock.filter((m) => m.body.case === 'command').map((m) => (m.body.value as { moves: number }).moves);
          expect(hostSeqs).toEqual(Array.from({ length: 60 }, (_, i) => i));
          expect(clockSeqs).toEqual(Array.from({ length: 15 }, (_, i) => i));
          expect(r.clock.outbox.size).toBe(0);
          expect(r.host.outbox.size).toBe(0);
          r.clock.close();
          r.host.close();
        },
      ),
      {
        numRuns: 40,
        // Found by a newcomer's run (it hung there): a pure Ack from before anything arrived in
        // order, overtaken on a reordering line, was read against a later ack and marked a lost
        // message received, so it was never resent (protocol/session.ts onAck).
        examples: [[2103368145, { drop: 0.3, corrupt: 0, duplicate: 0, split: 0, delay: 0.3, reorder: true }]],
      },
    );
  }, 120_000);
});

// The rounds that wait for the arbiter, over the API (docs/api.md "The next round",
// docs/dashboard.md "Attention"): GET /api/rounds/proposed answers, beside the proposals, the
// Swiss rounds that wait for pairings — every result of the last round confirmed and nothing
// proposed or being paired (docs/tournament.md "Pairing the next round": nothing is opened without
// an arbiter's approval, so a round with no pairings waits for one). A failed engine run or a
// rejected proposal leaves the round waiting; a pending proposal is not waiting for pairings but
// for approval; a knockout never waits (the director pairs its matches from the file).
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../start-host.ts';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissBeforeRound1, swissTournament } from '../../app/next-round.fixture.ts';

const TOKEN = 'waiting-rounds-arbiter-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(raw: unknown): Promise<RunningHost> {
  const host = await startHost({
    journal: new Journal(':memory:'),
    hall: parseTournament(raw),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
    log: () => undefined,
  });
  running.push(host);
  return host;
}

async function listed(r: RunningHost): Promise<{ proposals: { round: number; status: string }[]; waiting: unknown[] }> {
  const res = await r.api!.inject({ url: '/api/rounds/proposed', headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('GET /api/rounds/proposed: the rounds that wait for pairings', () => {
  it('a Swiss round waits once the last round is confirmed and the engine gave nothing; not while a proposal waits for approval; again after a rejection; not once approved', async () => {
    const r = await start(swissTournament(['--mode=exit']));
    expect((await listed(r)).waiting).toEqual([]); // round 1 is being played
    await confirmRound(r.host, 1, ['1-0', '0-1']);
    expect((await listed(r)).waiting).toEqual([]); // board 3 has no result yet
    const board3 = r.host.state.boards().find((b) => b.event === SWISS && b.round === 1 && b.board === 3)!;
    expect((await r.host.execute({ type: 'result', boardId: board3.id, result: '1-0' }, { arbiter: ARBITER })).ok).toBe(true);
    expect((await r.host.execute({ type: 'confirm-result', boardId: board3.id }, { arbiter: ARBITER })).ok).toBe(true);
    await r.host.idle(); // the engine (--mode=exit) fails
    const failed = await listed(r);
    expect(failed.proposals.map((p) => [p.round, p.status])).toEqual([[2, 'failed']]);
    expect(failed.waiting).toEqual([{ event: SWISS, eventName: 'Open Swiss', round: 2 }]);

    const trf = addRoundToTrf(
      r.exports.trf(SWISS, 1),
      1,
      [
        [2, 1],
        [4, 3],
        [5, 6],
      ],
      7,
    );
    expect((await r.api!.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } })).statusCode).toBe(201);
    expect((await listed(r)).waiting).toEqual([]); // proposed: it waits for approval, not for pairings
    expect((await r.api!.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/reject`, headers, payload: {} })).statusCode).toBe(200);
    expect((await listed(r)).waiting).toEqual([{ event: SWISS, eventName: 'Open Swiss', round: 2 }]);
    expect((await r.api!.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } })).statusCode).toBe(201);
    expect((await r.api!.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/approve`, headers })).statusCode).toBe(200);
    expect((await listed(r)).waiting).toEqual([]); // round 2 is in play
  });

  it('round 1 of a Swiss with no round in the file and no engine waits for pairings from the start', async () => {
    const raw = swissBeforeRound1();
    delete (raw.events[0] as { pairingEngine?: unknown }).pairingEngine;
    const r = await start(raw);
    expect((await listed(r)).waiting).toEqual([{ event: SWISS, eventName: 'Open Swiss', round: 1 }]);
  });
});

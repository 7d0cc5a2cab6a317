// An event's entries over the API (docs/api.md "Entries"), on a host composed by host/start-host.ts:
// a late entry, a withdrawal, a requested bye and a round's start time, arbiters only, each answered
// with the event's entries and journaled with the arbiter; kept by a host restarted on the journal
// file; refused with the reason once the round is proposed (409), and for a start time without its
// offset (400, naming the field).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../start-host.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../../app/next-round.fixture.ts';

const TOKEN = 'entries-arbiter-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
const running: RunningHost[] = [];
let dir: string | null = null;
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function start(db: string): Promise<RunningHost> {
  const host = await startHost({
    journal: db,
    hall: parseTournament(swissTournament()),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
    log: () => undefined,
  });
  running.push(host);
  return host;
}

describe('the entries API', () => {
  it('late entry, withdrawal, requested bye and start time: arbiters only, journaled, kept after a restart, refused once the round is proposed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'entries-api-'));
    const db = join(dir, 'hall.db');
    const r = await start(db);
    const api = r.api!;
    await confirmRound(r.host, 1, ['1-0', '0-1']);
    const post = (url: string, payload: unknown, h: Record<string, string> = headers) =>
      api.inject({ method: 'POST', url, headers: h, payload: payload as object });

    expect((await post(`/api/events/${SWISS}/entries/withdrawal`, { player: 3 }, {})).statusCode).toBe(401);
    expect((await api.inject({ url: `/api/events/${SWISS}/entries` })).statusCode).toBe(401);

    const late = await post(`/api/events/${SWISS}/entries/late-entry`, { player: { name: 'Osmi, Igralec', rating: 2050 } });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({
      ok: true,
      arbiter: ARBITER,
      entries: { lateEntries: [{ player: { rank: 8, name: 'Osmi, Igralec' }, fromRound: 2, by: ARBITER }] },
    });
    expect((await post(`/api/events/${SWISS}/entries/withdrawal`, { player: 3 })).statusCode).toBe(200);
    const bye = await post(`/api/events/${SWISS}/entries/bye`, { player: 5, round: 2, points: 0 });
    expect(bye.json().entries.byes).toEqual([
      expect.objectContaining({ player: { rank: 5, name: 'Peti, Igralec' }, round: 2, points: 0, kind: 'Z', by: ARBITER }),
    ]);
    // A time without its offset is refused, naming the field.
    const local = await post(`/api/events/${SWISS}/rounds/2/start-time`, { start: '2026-04-05T17:00' });
    expect(local.statusCode).toBe(400);
    expect(local.json().message).toMatch(/start/);
    const started = await post(`/api/events/${SWISS}/rounds/2/start-time`, { start: '2026-04-05T17:00:00+02:00' });
    expect(started.json().entries.roundStarts).toEqual([expect.objectContaining({ round: 2, startUtcMs: Date.UTC(2026, 3, 5, 15, 0), by: ARBITER })]);
    // A bad field: 422 with the field's path.
    const bad = await post(`/api/events/${SWISS}/entries/late-entry`, { player: { name: 'Deveti, Igralec', sex: 'x' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('player.sex: must be "m" or "w"');

    // Round 1's last result: round 2 is proposed, and an entry for it is refused with the reason.
    const board3 = r.host.state.boards().find((b) => b.event === SWISS && b.round === 1 && b.board === 3)!;
    expect((await r.host.execute({ type: 'result', boardId: board3.id, result: '1/2-1/2' }, { arbiter: ARBITER })).ok).toBe(true);
    expect((await r.host.execute({ type: 'confirm-result', boardId: board3.id }, { arbiter: ARBITER })).ok).toBe(true);
    await r.host.idle();
    const refused = await post(`/api/events/${SWISS}/entries/bye`, { player: 2, round: 2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/round 2 is proposed \(journal action \d+, engine\): reject the proposal first/);

    // A host restarted on the journal file has every entry, with who made it.
    await r.close();
    running.splice(running.indexOf(r), 1);
    const again = await start(db);
    const read = await again.api!.inject({ url: `/api/events/${SWISS}/entries`, headers });
    expect(read.json()).toMatchObject({
      ok: true,
      entries: {
        event: SWISS,
        lateEntries: [{ player: { rank: 8 }, by: ARBITER }],
        withdrawals: [{ player: { rank: 3 }, fromRound: 2, by: ARBITER }],
        byes: [{ player: { rank: 5 }, round: 2, kind: 'Z' }],
        roundStarts: [{ round: 2, startUtcMs: Date.UTC(2026, 3, 5, 15, 0) }],
      },
    });
    expect(again.host.hall.events[0].players.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 30_000);
});

// GET /api/standings over the real journal and the Ivanovo 2018 fixture: team places and board
// prizes with every tie-break value (regulation "Награждение"; definitions in docs/tournament.md).
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Journal } from '../store/journal.ts';
import { loadTournamentFile } from '../domain/tournament-file.ts';
import { Director } from './director.ts';
import { JournalPorts } from './journal-ports.ts';
import { buildApi } from '../adapters/http/api.ts';
import type { BoardView } from './ports.ts';

const TOKEN = 'ivanovo-arbiter-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const START = Date.UTC(2018, 1, 13, 12, 0, 0);
// Round 1: team 1 – team 2 on boards 1-4, team 3 – team 4 on 5-8, team 5 bye; board 6: White (team 4) never came.
const RESULTS: Record<number, string> = { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' };

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(withHall = true): Promise<FastifyInstance> {
  const hall = loadTournamentFile(fileURLToPath(new URL('../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
  const journal = new Journal(':memory:');
  cleanups.push(() => journal.close());
  new Director(journal, hall).openRound('ivanovo-2018', 1, START, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [i + 1, `clk-${i + 1}`])));
  // The standings are journalStandings over the journal and the tournament file (the running host's too).
  const host = new JournalPorts({ journal, ...(withHall ? { hall } : {}), nowUtcMs: () => START });
  const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Glavny Sudya', token: TOKEN }], dashboard: false });
  cleanups.push(() => app.close());
  return app;
}

async function confirmRound1(app: FastifyInstance): Promise<void> {
  const boards: BoardView[] = (await app.inject({ url: '/api/boards?event=ivanovo-2018' })).json().boards;
  for (const b of boards) {
    expect((await app.inject({ method: 'PUT', url: `/api/boards/${b.id}/result`, headers: auth, payload: { result: RESULTS[b.board!] } })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'POST', url: `/api/boards/${b.id}/result/confirm`, headers: auth })).statusCode).toBe(200);
  }
}

describe('GET /api/standings', () => {
  it('before any confirmed result: the standings after round 0; asking for round 1 is refused (409) naming the board', async () => {
    const app = await setup();
    const zero = await app.inject({ url: '/api/standings?event=ivanovo-2018' });
    expect(zero.statusCode).toBe(200);
    expect(zero.json().round).toBe(0);
    expect(zero.json().teams.every((t: { gamePoints: number; rank: number }) => t.gamePoints === 0 && t.rank === 1)).toBe(true);
    const refused = await app.inject({ url: '/api/standings?event=ivanovo-2018&round=1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/no standings after round 1: round 1 board 1 has no result/);
  });

  it('after round 1: team places with match points, direct encounter, Buchholz and board points; board prizes with theirs', async () => {
    const app = await setup();
    await confirmRound1(app);
    const res = await app.inject({ url: '/api/standings?event=ivanovo-2018' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.round).toBe(1);
    // Teams 1, 2, 5 level on 2 board points and 1 match point; 5 met neither (no direct encounter, C.07 6.2);
    // Buchholz 2 each (5: dummy with its own 2, C.07 16.4); board 1: team 1 → 1, team 5 → ½ (bye), team 2 → 0.
    expect(
      body.teams.map((t: Record<string, unknown>) => [t.rank, t.team, t.name, t.gamePoints, t.matchPoints, t.directEncounter, t.buchholz, t.boardPoints]),
    ).toEqual([
      [1, 3, 'Школа № 3', 3.5, 2, null, 0.5, [1, 1, 0.5, 1]],
      [2, 1, 'Школа № 1', 2, 1, null, 2, [1, 0.5, 0, 0.5]],
      [3, 5, 'Школа № 5', 2, 1, null, 2, [0.5, 0.5, 0.5, 0.5]],
      [4, 2, 'Школа № 2', 2, 1, null, 2, [0, 0.5, 1, 0.5]],
      [5, 4, 'Школа № 4', 0.5, 0, null, 3.5, [0, 0, 0.5, 0]],
    ]);
    // Board 1 prize: 1 and 9 won (Buchholz 0 each: their opponents have 0), never met → share 1st.
    const board1 = body.boards[0];
    expect(board1.board).toBe(1);
    expect(board1.players.map((p: Record<string, unknown>) => [p.rank, p.player, p.team, p.points, p.buchholz, p.wins])).toEqual([
      [1, 1, 1, 1, 0, 1],
      [1, 9, 3, 1, 0, 1],
      [3, 17, 5, 0.5, 0.5, 0],
      [4, 5, 2, 0, 1, 0],
      [4, 13, 4, 0, 1, 0],
    ]);
    expect(board1.players[0]).toMatchObject({ name: expect.any(String), directEncounter: null, buchholzCut1: 0, buchholzCut2: 0 });
  });

  it('names what is wrong: unknown event 404, a bad round 400, a host without a tournament file 409', async () => {
    const app = await setup();
    expect((await app.inject({ url: '/api/standings?event=nope' })).statusCode).toBe(404);
    const bad = await app.inject({ url: '/api/standings?event=ivanovo-2018&round=x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/round/);
    expect((await app.inject({ url: '/api/standings' })).statusCode).toBe(400);
    const bare = await setup(false);
    const refused = await bare.inject({ url: '/api/standings?event=ivanovo-2018' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/no tournament file/);
  });
});

// Exports through the API over the real journal, the director and the host core's exporters,
// on the Ivanovo team championship fixture (4 boards per team, 60 min sudden death).
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Journal } from '../../store/journal.ts';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import { Director } from '../../app/director.ts';
import { parsePgnTags } from './pgn-tags.ts';
import { checkTrf, parseTrf } from './trf-parser.ts';
import { JournalPorts } from '../../app/journal-ports.ts';
import { journalExports } from './journal-exports.ts';
import { buildApi } from '../http/api.ts';
import type { BoardView } from '../../app/ports.ts';

const TOKEN = 'ivanovo-arbiter-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const START = Date.UTC(2018, 1, 13, 12, 0, 0);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ app: FastifyInstance; journal: Journal; host: JournalPorts; now: { ms: number } }> {
  const hall = loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
  const journal = new Journal(':memory:');
  cleanups.push(() => journal.close());
  const clocks = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [i + 1, `clk-${i + 1}`]));
  new Director(journal, hall).openRound('ivanovo-2018', 1, START, clocks);
  const now = { ms: START + 600_000 };
  const host = new JournalPorts({ journal, hall, nowUtcMs: () => now.ms });
  const app = await buildApi({ state: host, commands: host, exports: journalExports(journal, hall, () => now.ms), tokens: [{ arbiter: 'Glavny Sudya', token: TOKEN }], dashboard: false });
  cleanups.push(() => app.close());
  return { app, journal, host, now };
}

describe('exports over the journal', () => {
  it('serves the live round PGN for relays with the event name, teams and running clocks', async () => {
    const { app, host } = await setup();
    // Board 1 started at START and White has been thinking for 10 minutes.
    host.append({ clockId: 'clk-1', bootId: 'b', seq: 1, type: 'started', whiteMs: 3_600_000, blackMs: 3_600_000, monoMs: 0, utcMs: START, uncertaintyMs: 2 });
    const res = await app.inject({ url: '/broadcast/round/1/games.pgn?event=ivanovo-2018' });
    expect(res.statusCode).toBe(200);
    const games = parsePgnTags(res.body);
    expect(games).toHaveLength(8);
    expect(games[0].tags).toMatchObject({ Event: 'Белая ладья - первенство г. Иваново', Round: '1.1', TimeControl: '3600', Result: '*' });
    expect(games[0].tags.WhiteTeam).toBeTruthy();
    expect(games[0].tags.WhiteClock).toBe('0:50:00'); // PGN clock tag, live at the request
    // The board list carries the display name too.
    const boards: BoardView[] = (await app.inject({ url: '/api/boards' })).json().boards;
    expect(boards).toHaveLength(8);
    expect(boards[0]).toMatchObject({ event: 'ivanovo-2018', eventName: 'Белая ладья - первенство г. Иваново', clockId: 'clk-1' });
  });

  it('refuses the TRF (409, saying why) until every result is confirmed, then serves it (TRF16)', async () => {
    const { app } = await setup();
    const refused = await app.inject({ url: '/api/export/trf?event=ivanovo-2018&round=1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/cannot write the TRF: round 1 board 1 has no result/);

    const boards: BoardView[] = (await app.inject({ url: '/api/boards?event=ivanovo-2018' })).json().boards;
    for (const b of boards) {
      const put = await app.inject({ method: 'PUT', url: `/api/boards/${b.id}/result`, headers: auth, payload: { result: b.board % 2 ? '1-0' : '1/2-1/2' } });
      expect(put.statusCode).toBe(200);
    }
    expect((await app.inject({ url: '/api/export/trf?event=ivanovo-2018&round=1' })).statusCode).toBe(409); // reported, not confirmed
    for (const b of boards) {
      expect((await app.inject({ method: 'POST', url: `/api/boards/${b.id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    }
    const res = await app.inject({ url: '/api/export/trf?event=ivanovo-2018&round=1' });
    expect(res.statusCode).toBe(200);
    expect(checkTrf(res.body)).toEqual([]);
    const trf = parseTrf(res.body);
    expect(trf.players.length).toBeGreaterThanOrEqual(16);
  });

  it('streams the journal as JSON Lines with the host core\'s field names', async () => {
    const { app, host } = await setup();
    for (let seq = 1; seq <= 3; seq++) {
      host.append({ clockId: 'clk-2', bootId: 'b', seq, type: seq === 1 ? 'started' : 'moved', side: seq === 1 ? null : seq % 2 ? 'black' : 'white', whiteMs: 3_600_000, blackMs: 3_600_000, monoMs: seq, utcMs: START + seq, uncertaintyMs: 2 });
    }
    const res = await app.inject({ url: '/api/export/events.jsonl?board=2' });
    const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.clock, l.seq, l.type])).toEqual([
      ['clk-2', 1, 'started'],
      ['clk-2', 2, 'moved'],
      ['clk-2', 3, 'moved'],
    ]);
  });
});

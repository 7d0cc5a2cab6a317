// Exports through the API over the real journal, the director and the host core's exporters,
// on the Ivanovo team championship fixture (4 boards per team, 60 min sudden death).
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Journal } from '../../store/journal.ts';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import { Director } from '../../app/director.ts';
import { checkTrf, parseTrf } from './trf-parser.ts';
import { JournalPorts } from '../../app/journal-ports.ts';
import { journalExports } from './journal-exports.ts';
import { buildApi } from '../http/api.ts';
import type { BoardView } from '../../app/ports.ts';
import { roundPgn } from './pgn.ts';
import { readPgnWithBoth } from './pgn-readers.fixture.ts';

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
  const app = await buildApi({
    state: host,
    commands: host,
    exports: journalExports(journal, hall, () => now.ms),
    tokens: [{ arbiter: 'Glavny Sudya', token: TOKEN }],
    dashboard: false,
  });
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
    const games = readPgnWithBoth(res.body);
    expect(games).toHaveLength(8);
    expect(games[0].tags).toMatchObject({ Event: 'Белая ладья - первенство г. Иваново', Round: '1.1', TimeControl: '3600', Result: '*' });
    expect(games[0].tags.WhiteTeam).toBeTruthy();
    expect(games[0].tags.WhiteClock).toBe('0:50:00'); // PGN clock tag, live at the request
    // The board list carries the display name too.
    const boards: BoardView[] = (await app.inject({ url: '/api/boards' })).json().boards;
    expect(boards).toHaveLength(8);
    expect(boards[0]).toMatchObject({ event: 'ivanovo-2018', eventName: 'Белая ладья - первенство г. Иваново', clockId: 'clk-1' });
  });

  it('the live feed is read by chessops and pgn-parser: the four results, a double forfeit as 0-0 with "*" and its comment, an unplayed forfeit win (no press) left out, a GameId per game (PGN standard §8.2.6, FIDE Laws 6.7.1)', async () => {
    const { app, host } = await setup();
    const boards: BoardView[] = (await app.inject({ url: '/api/boards?event=ivanovo-2018' })).json().boards;
    const press = (clockId: string, seq: number, type: 'started' | 'moved', side: 'white' | 'black' | null, move: number | null, utcMs: number) =>
      host.append({
        clockId,
        bootId: 'b',
        seq,
        type,
        side,
        move,
        whiteMs: 3_600_000 - seq * 1000,
        blackMs: 3_600_000 - seq * 700,
        monoMs: seq,
        utcMs,
        uncertaintyMs: 2,
      });
    // Board 1 is played: a start and two presses, then 1-0.
    press('clk-1', 1, 'started', null, null, START);
    press('clk-1', 2, 'moved', 'white', 1, START + 1000);
    press('clk-1', 3, 'moved', 'black', 1, START + 2000);
    // Board 2 was started but White never came (FIDE Laws 6.7.1): a forfeit with no press.
    press('clk-2', 1, 'started', null, null, START);
    // Board 3: neither player came; board 4: White won by forfeit after Black's absence.
    const results: Record<number, string> = { 1: '1-0', 2: '-+', 3: '--', 4: '+-' };
    for (const [board, result] of Object.entries(results)) {
      const b = boards.find((x) => x.board === Number(board))!;
      expect((await app.inject({ method: 'PUT', url: `/api/boards/${b.id}/result`, headers: auth, payload: { result } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: `/api/boards/${b.id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    }
    const res = await app.inject({ url: '/broadcast/round/1/games.pgn?event=ivanovo-2018' });
    expect(res.statusCode).toBe(200);
    const games = readPgnWithBoth(res.body);
    // Boards 2 and 4 were forfeit wins without a press: not games. Board 3, where both lost,
    // is the double forfeit 0-0 (docs/exports.md "Forfeits in PGN").
    expect(games.map((g) => g.tags.Round)).toEqual(['1.1', '1.3', '1.5', '1.6', '1.7', '1.8']);
    expect(games.map((g) => g.result)).toEqual(['1-0', '0-0', '*', '*', '*', '*']);
    expect(games[1]).toMatchObject({ sans: [], comments: ['Both players lost by forfeit (0-0).'], tags: { Result: '*', Termination: 'rules infraction' } });
    // Lichess relays keep games apart by GameId when both sides have one.
    expect(games.map((g) => g.tags.GameId)).toEqual([
      'ivanovo-2018:1.1.1',
      'ivanovo-2018:1.3.1',
      'ivanovo-2018:1.5.1',
      'ivanovo-2018:1.6.1',
      'ivanovo-2018:1.7.1',
      'ivanovo-2018:1.8.1',
    ]);
    // The forfeits are in the TRF, as TRF16 codes: board 2's White "-" and Black "+".
    for (const b of boards) {
      if (!(b.board in results)) {
        await app.inject({ method: 'PUT', url: `/api/boards/${b.id}/result`, headers: auth, payload: { result: '1/2-1/2' } });
        await app.inject({ method: 'POST', url: `/api/boards/${b.id}/result/confirm`, headers: auth });
      }
    }
    const trf = parseTrf((await app.inject({ url: '/api/export/trf?event=ivanovo-2018&round=1' })).body);
    const b2 = boards.find((x) => x.board === 2)!;
    const b3 = boards.find((x) => x.board === 3)!;
    const codeOf = (name: string | undefined) => trf.players.find((p) => p.name === name)!.rounds[0].code;
    expect([codeOf(b2.white?.name), codeOf(b2.black?.name)]).toEqual(['-', '+']);
    expect([codeOf(b3.white?.name), codeOf(b3.black?.name)]).toEqual(['-', '-']);
  });

  it("every [%clk] of the round PGN is the journal's time for that press, rounded up to the second as the clock shows it, as both parsers read it", async () => {
    const { journal, host } = await setup();
    // Odd remaining times: 0:59:58.766 must be written 0:59:59, not 0:59:58.
    const times = [
      [3_598_766, 3_600_000],
      [3_598_766, 3_541_001],
      [3_512_000, 3_541_001],
      [3_512_000, 3_500_999],
    ];
    host.append({ clockId: 'clk-3', bootId: 'b', seq: 1, type: 'started', whiteMs: 3_600_000, blackMs: 3_600_000, monoMs: 0, utcMs: START, uncertaintyMs: 2 });
    times.forEach(([whiteMs, blackMs], i) =>
      host.append({
        clockId: 'clk-3',
        bootId: 'b',
        seq: i + 2,
        type: 'moved',
        side: i % 2 ? 'black' : 'white',
        move: Math.floor(i / 2) + 1,
        whiteMs,
        blackMs,
        monoMs: i + 1,
        utcMs: START + (i + 1) * 1000,
        uncertaintyMs: 2,
      }),
    );
    const game = journal.gamesByRound('ivanovo-2018', 1).find((g) => g.board === 3)!;
    const hall = loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    const text = roundPgn(journal, hall, 'ivanovo-2018', 1, { nowUtcMs: START + 60_000, moves: { [game.gameId]: ['e4', 'e5', 'Nf3', 'Nc6'] } });
    const read = readPgnWithBoth(text).find((g) => g.tags.Round === '1.3')!;
    expect(read.sans).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    const presses = journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
    expect(read.clocks).toEqual(presses.map((e) => Math.ceil((e.side === 'white' ? e.whiteMs : e.blackMs) / 1000)));
    expect(read.clocks).toEqual([3599, 3542, 3512, 3501]);
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
    // Tag 142 and XXR: the 7 rounds the Swiss plans, not the 1 played (bbpPairings would refuse to pair round 2 otherwise).
    expect([trf.tags.get('142'), trf.xxr]).toEqual([['7'], 7]);
  });

  it("streams the journal as JSON Lines with the host core's field names", async () => {
    const { app, host } = await setup();
    for (let seq = 1; seq <= 3; seq++) {
      host.append({
        clockId: 'clk-2',
        bootId: 'b',
        seq,
        type: seq === 1 ? 'started' : 'moved',
        side: seq === 1 ? null : seq % 2 ? 'black' : 'white',
        whiteMs: 3_600_000,
        blackMs: 3_600_000,
        monoMs: seq,
        utcMs: START + seq,
        uncertaintyMs: 2,
      });
    }
    const res = await app.inject({ url: '/api/export/events.jsonl?board=2' });
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.clock, l.seq, l.type])).toEqual([
      ['clk-2', 1, 'started'],
      ['clk-2', 2, 'moved'],
      ['clk-2', 3, 'moved'],
    ]);
  });
});

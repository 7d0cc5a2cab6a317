// Colours "by lot" (Slovenian final 2007 art. 3: game 1's colours are drawn, the armageddon's
// colours by lot) drawn when they are due, not from a seed in the tournament file: a fresh
// cryptographic draw at the host (node:crypto randomInt), or the draw made in the hall and
// entered by the arbiter before it is due. Either is journaled (action `draw-lot`), so every later
// step and a host restarted on the journal read the same colours, and nothing draws twice.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type GameRow } from '../store/journal.ts';
import { parseTournament } from '../domain/tournament-file.ts';
import { Director, DirectorError } from './director.ts';
import { Host } from './host.ts';
import { AnchoredClock } from './utc.ts';
import { buildApi } from '../adapters/http/api.ts';

const MIN = 60_000;
const ARBITER = 'Ana Srebrnič';
const EVENT = 'slo-w-2007';
const T0 = Date.UTC(2007, 7, 16, 14, 0);

/** The Slovenian final without its rehearsal seed and with game 1's colours left to the lot. */
function hallWithoutSeed() {
  const raw = JSON.parse(readFileSync(fileURLToPath(new URL('../domain/fixtures/slovenian-final-2007.json', import.meta.url)), 'utf8'));
  const ev = raw.events.find((e: { id: string }) => e.id === EVENT);
  delete ev.knockout.seed;
  for (const k of ev.rounds[0].knockout) delete k.firstWhite;
  return parseTournament(raw);
}

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));
function journal(): Journal {
  const j = new Journal(':memory:');
  journals.push(j);
  return j;
}

function finish(j: Journal, game: GameRow, result: '1-0' | '0-1' | '1/2-1/2', at: number): void {
  j.reportResult(game.gameId, { result, how: 'played', source: 'arbiter', arbiter: ARBITER, utcMs: at, endedUtcMs: at });
  j.confirmResult(game.gameId, ARBITER, at + MIN);
}

const lotActions = (j: Journal) => j.arbiterActions().filter((a) => a.action === 'draw-lot');

describe('colours by lot, drawn when due (Slovenian final 2007 art. 3)', () => {
  it("no seed: game 1's colours are a fresh draw at opening, journaled once; a restarted director reads it and draws nothing", () => {
    const hall = hallWithoutSeed();
    expect(hall.events.find((e) => e.id === EVENT)!.knockout!.seed).toBeNull();
    const j = journal();
    let draws = 0;
    const director = new Director(j, hall, { draw: () => (draws++, 1) });
    const [g1] = director.openRound(EVENT, 1, T0);
    expect(draws).toBe(2); // one per semifinal, at opening
    // Draw 1 = the match's second player (rank 4 in 1 v 4) has White.
    expect([g1.whiteRank, g1.blackRank]).toEqual([4, 1]);
    expect(lotActions(j).map((a) => a.payload)).toEqual([
      { label: `${EVENT}/r1/b1:classical`, matchId: `${EVENT}/r1/b1`, stage: 'classical', whiteRank: 4, white: g1.white, source: 'random' },
      expect.objectContaining({ label: `${EVENT}/r1/b2:classical`, whiteRank: 3, source: 'random' }),
    ]);
    // Game 2 and a restarted host: the journaled draw, no new one.
    const again = new Director(j, hall, {
      draw: () => {
        throw new Error('drew again');
      },
    });
    finish(j, g1, '1/2-1/2', T0 + 4 * 60 * MIN);
    const next = again.afterConfirmedResult(g1.gameId, T0 + 5 * 60 * MIN);
    expect(next.type === 'next-game' && [next.game.whiteRank, next.game.blackRank]).toEqual([1, 4]);
    expect(lotActions(j)).toHaveLength(2);
  });

  it("the armageddon's colours are drawn only once the rapid games are tied, not before", () => {
    const hall = hallWithoutSeed();
    const j = journal();
    const director = new Director(j, hall, { draw: () => 0 });
    let game = director.openRound(EVENT, 1, T0)[0];
    let at = T0;
    for (let n = 1; n <= 4; n++) {
      expect(
        lotActions(j).some((a) => (a.payload as { stage: string }).stage === 'armageddon'),
        `before game ${n}`,
      ).toBe(false);
      at += 5 * 60 * MIN;
      finish(j, game, '1/2-1/2', at);
      const upd = director.afterConfirmedResult(game.gameId, at + MIN);
      if (upd.type !== 'next-game') throw new Error(`expected a next game after game ${n}`);
      game = upd.game;
    }
    expect(game.kind).toBe('armageddon');
    const arm = lotActions(j).find((a) => (a.payload as { stage: string }).stage === 'armageddon')!;
    expect(arm).toMatchObject({ arbiter: 'director', round: 1, board: 1, payload: { stage: 'armageddon', whiteRank: game.whiteRank, source: 'random' } });
    expect(arm.utcMs).toBe(at + MIN); // drawn when due: at the confirmation that tied the rapid games
    // The director's draw-colours action says where the colours came from.
    expect(
      j
        .arbiterActions()
        .filter((a) => a.action === 'draw-colours')
        .at(-1)!.payload,
    ).toMatchObject({ stage: 'armageddon', source: 'random', seed: null });
  });

  it('the arbiter enters the draw made in the hall before it is due; it is used, and a second entry is refused naming the first', () => {
    const hall = hallWithoutSeed();
    const j = journal();
    const director = new Director(j, hall, {
      draw: () => {
        throw new Error('the host must not draw: the arbiter entered it');
      },
    });
    const entered = director.enterLot(EVENT, 1, 1, 'classical', 1, ARBITER, T0 - 10 * MIN);
    director.enterLot(EVENT, 1, 2, 'classical', 3, ARBITER, T0 - 10 * MIN);
    expect(entered).toMatchObject({ whiteRank: 1, source: 'arbiter' });
    const [g1, g2] = director.openRound(EVENT, 1, T0);
    expect([g1.whiteRank, g2.whiteRank]).toEqual([1, 3]);
    expect(lotActions(j).map((a) => [a.arbiter, (a.payload as { whiteRank: number }).whiteRank])).toEqual([
      [ARBITER, 1],
      [ARBITER, 3],
    ]);
    expect(() => director.enterLot(EVENT, 1, 1, 'classical', 4, ARBITER, T0)).toThrow(DirectorError);
    expect(() => director.enterLot(EVENT, 1, 1, 'classical', 4, ARBITER, T0)).toThrow(
      /classical colours were already drawn \(entered by an arbiter: .* has White\)/,
    );
    expect(() => director.enterLot(EVENT, 1, 1, 'armageddon', 2, ARBITER, T0)).toThrow(/player 2 does not play in it \(players 1 and 4\)/);
  });

  it("the host's own draw is crypto.randomInt: over 40 matches both players get White (a constant would fail)", () => {
    const whites = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const j = journal();
      whites.add(new Director(j, hallWithoutSeed()).openRound(EVENT, 1, T0)[0].whiteRank!);
    }
    expect(whites).toEqual(new Set([1, 4]));
  });

  it("over the API: the arbiter enters the hall's draw (POST …/lot), GET /api/matches shows every lot with its source, a second entry is 409", async () => {
    const hall = hallWithoutSeed();
    const j = journal();
    const clock = new AnchoredClock({ now: () => 0, setTimer: () => ({}), clearTimer: () => {} }, { hostMs: 0, utcMs: T0 - 15 * MIN });
    const host = new Host({ journal: j, hall, clock, log: () => undefined });
    const TOKEN = 'lot-test-arbiter-token-0123456789';
    const app = await buildApi({ state: host.state, commands: host, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false });
    try {
      const url = `/api/events/${EVENT}/rounds/1/boards/1/lot`;
      const headers = { authorization: `Bearer ${TOKEN}` };
      expect((await app.inject({ method: 'POST', url, payload: { stage: 'classical', white: 4 } })).statusCode).toBe(401);
      const ok = await app.inject({ method: 'POST', url, headers, payload: { stage: 'classical', white: 4 } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        ok: true,
        arbiter: ARBITER,
        lot: { stage: 'classical', whiteRank: 4, source: 'arbiter', by: ARBITER, atUtcMs: T0 - 15 * MIN },
      });
      const again = await app.inject({ method: 'POST', url, headers, payload: { stage: 'classical', white: 1 } });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already drawn \(entered by an arbiter: .* has White\)/);
      expect(
        (await app.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/boards/9/lot`, headers, payload: { stage: 'classical', white: 1 } }))
          .statusCode,
      ).toBe(404);
      expect((await app.inject({ method: 'POST', url, headers, payload: { stage: 'rapid', white: 1 } })).statusCode).toBe(400);
      // Board 2's game 1 is drawn by the host when the round opens; both lots are shown with the matches.
      const [g1, g2] = host.director.openRound(EVENT, 1, T0 - 10 * MIN);
      expect(g1.whiteRank).toBe(4);
      const matches = (await app.inject({ url: '/api/matches' })).json().matches as { id: string; lots: unknown[] }[];
      expect(matches.find((m) => m.id === `${EVENT}/r1/b1`)!.lots).toEqual([
        { stage: 'classical', white: g1.white, whiteRank: 4, source: 'arbiter', by: ARBITER, atUtcMs: T0 - 15 * MIN },
      ]);
      expect(matches.find((m) => m.id === `${EVENT}/r1/b2`)!.lots).toEqual([
        { stage: 'classical', white: g2.white, whiteRank: g2.whiteRank, source: 'random', by: 'director', atUtcMs: T0 - 10 * MIN },
      ]);
    } finally {
      await app.close();
    }
  });
});

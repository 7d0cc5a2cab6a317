// A knockout's default time (FIDE Laws 6.7.1) and increment timing, from the tournament file to
// the clock: the Slovenian final's event with "defaultTime": 3600 and "incrementTiming":
// "after-move". Every game of a mini-match, in every stage (the classical games, the rapid
// tie-breaks, the armageddon), is created with them, as a Swiss round's games take the event's
// control whole (docs/tournament.md), and the host sends them to the board's clock; a player
// who does not come is forfeited by the clock at the default time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import type { GameRow } from '../host/store/journal.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const FIXTURE = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));

describe("FIDE Laws 6.7.1: a knockout event's default time and increment timing reach every game's clock", () => {
  let rig: MatchRig | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('classical, rapid and armageddon games are set up on the clock with "defaultTime" 3600 and "after-move"; Black does not come to game 1 and the clock forfeits her an hour after the start', async () => {
    // The fixture, with the event's control as an organiser writes it (docs/tournament.md).
    dir = mkdtempSync(join(tmpdir(), 'ko-default-'));
    const file = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    file.events[0].timeControl = { preset: 'classical', defaultTime: 3600, incrementTiming: 'after-move' };
    const path = join(dir, 'tournament.json');
    writeFileSync(path, JSON.stringify(file));
    rig = await buildRig({ hall: loadTournamentFile(path) });
    const r = rig;
    const id = boardId(r, 1);
    const fw = r.clocks[0].clock.firmware;

    /** The game as the journal created it, and as the host set up the board's clock for it. */
    const onTheClock = async (gameNo: number, timeControl: string): Promise<GameRow> => {
      const game = await configuredFor(r, gameNo, 1);
      expect(game).toMatchObject({ gameNo, timeControl });
      expect(game.timeControlValue).toMatchObject({ defaultTimeMs: 3_600_000, incrementTiming: 'after-move' });
      await waitFor(
        `game ${gameNo} on the clock`,
        () => fw.state().timeControl.white.stages[0].baseMs === game.timeControlValue.white.stages[0].baseMs,
        10_000,
        flowing(r.sim),
      );
      expect(fw.state().timeControl).toEqual(game.timeControlValue);
      return game;
    };
    /** The arbiter records a forfeit win for White and confirms it. */
    const whiteWinsByForfeit = async () => {
      expect((await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '+-' } })).statusCode).toBe(200);
      expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    };

    // Game 1 (classical): White is at the board, Black never comes.
    const g1 = await onTheClock(1, '40/5400+30:900+30');
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/arrive`, headers: auth, payload: { side: 'white' } })).statusCode).toBe(200);
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/start`, headers: auth })).statusCode).toBe(200);
    await waitFor('the start journaled', () => r.journal.eventsByGame(g1.gameId).some((e) => e.type === 'started'), 10_000, flowing(r.sim));
    const started = r.journal.eventsByGame(g1.gameId).find((e) => e.type === 'started')!;
    r.sim.advanceBy(60 * MIN);
    const forfeits = () => r.journal.eventsByGame(g1.gameId).filter((e) => e.type === 'forfeit');
    await waitFor('the forfeit at the default time', () => forfeits().length > 0, 10_000, flowing(r.sim));
    expect(forfeits()).toEqual([expect.objectContaining({ side: 'black', monoMs: started.monoMs + 3_600_000 })]);
    expect(r.host.state.board(id)!.live).toMatchObject({ status: 'forfeited', present: { white: true, black: false } });
    await whiteWinsByForfeit();

    // Game 2 (classical, colours swapped): White wins by forfeit again: 1-1, the tie-breaks.
    await onTheClock(2, '40/5400+30:900+30');
    await whiteWinsByForfeit();
    // The rapid games (after the 30-minute break) and the armageddon: the same default time and timing.
    await onTheClock(3, '900+10');
    r.sim.advanceBy(30 * MIN);
    await whiteWinsByForfeit();
    await onTheClock(4, '900+10');
    await whiteWinsByForfeit();
    await onTheClock(5, 'W360-B300');
  }, 60_000);
});

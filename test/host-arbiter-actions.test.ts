// Arbiter actions over the API, through the real Host, to simulated clocks running the real
// firmware on in-memory lines: starting the clocks (FIDE Laws 6.5: the arbiter decides when
// the clocks are started), every start journaled with the arbiter; and a result correction
// refused once the match director has acted on the old result.
import { afterEach, describe, expect, it } from 'vitest';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, playBoard2, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';
import { Command_Kind } from '../protocol/gen/chessclock_pb.ts';
import type { BodyInit } from '../protocol/session-api.ts';
import { ClockRefusedError } from '../host/clocks/clock-session.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const EVENT = 'slo-w-2007';

describe('arbiter start: the host sends START to the clocks of a round', () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('starts every ready clock of the current round, journals each start with the arbiter, and skips them the second time', async () => {
    rig = await buildRig();
    const g1 = await configuredFor(rig, 1, 1);
    const g2 = await configuredFor(rig, 1, 2);
    const r = rig;

    // Only the event's current round can start; unknown events and rounds are 404.
    const later = await r.api.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/2/start`, headers: auth });
    expect(later.statusCode).toBe(409);
    expect(later.json().message).toBe(`round 2 of event "${EVENT}" is not the current round (the current round is 1)`);
    expect((await r.api.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/9/start`, headers: auth })).json()).toMatchObject({
      statusCode: 404,
      message: `event "${EVENT}" has no round 9 (rounds 1-2)`,
    });
    expect((await r.api.inject({ method: 'POST', url: '/api/events/nope/rounds/1/start', headers: auth })).statusCode).toBe(404);
    expect(r.clocks.map((c) => c.clock.firmware.reading().status)).toEqual(['ready', 'ready']);

    const res = await r.api.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/start`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, arbiter: ARBITER, started: [boardId(r, 1), boardId(r, 2)], skipped: [] });
    // The clocks run (White's clock first) and report it; the host journals their 'started'.
    expect(r.clocks.map((c) => c.clock.firmware.reading().status)).toEqual(['running', 'running']);
    expect(r.clocks[0].clock.firmware.reading().turn).toBe('white');
    await waitFor(
      'both starts journaled',
      () => [g1, g2].every((g) => r.journal.eventsByGame(g.gameId).some((e) => e.type === 'started')),
      10_000,
      flowing(r.sim),
    );
    for (const g of [g1, g2]) {
      expect(r.journal.arbiterActions(g.gameId).filter((a) => a.action === 'start')).toEqual([
        expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', clockId: g.clockId }),
      ]);
    }
    const view = r.host.state.board(boardId(r, 1))!;
    expect(view.live).toMatchObject({ status: 'running', turn: 'white', period: { white: 1, black: 1 } });
    expect(view.live!.startedAtUtcMs).toBe(r.journal.eventsByGame(g1.gameId).find((e) => e.type === 'started')!.utcMs);

    // Again: nothing is ready any more; both are skipped with the reason, and journaled as refused.
    const again = await r.api.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/start`, headers: auth });
    expect(again.json()).toMatchObject({
      ok: true,
      started: [],
      skipped: [{ boardId: boardId(r, 1), reason: expect.stringMatching(/is running, not ready/) }, { boardId: boardId(r, 2) }],
    });
    expect(
      r.journal
        .arbiterActions(g1.gameId)
        .filter((a) => a.action === 'start')
        .map((a) => a.outcome),
    ).toEqual(['applied', 'rejected']);
    // The clock itself refuses a START it cannot honour (docs/architecture.md rule 10), should the host's view be stale.
    const err = await r.host
      .sessionOf('CLK-01')!
      .request({ case: 'command', value: { kind: Command_Kind.START } } as BodyInit)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ClockRefusedError);
    expect((err as Error).message).toMatch(/start/i);
  }, 30_000);

  it('one board: a clock that is offline is refused whole (503) and journaled; the clock stays ready', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1, 1);
    const r = rig;
    r.clocks[0].unplugMemory();
    const session = r.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('offline', () => !session.online);
    const res = await r.api.inject({ method: 'POST', url: `/api/boards/${boardId(r, 1)}/start`, headers: auth });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/CLK-01.*offline/);
    expect(r.journal.arbiterActions(game.gameId).at(-1)).toMatchObject({ action: 'start', arbiter: ARBITER, outcome: 'rejected' });
    expect(r.clocks[0].clock.firmware.reading().status).toBe('ready');
  }, 30_000);

  it('a result the arbiter enters or corrects at the host is shown on the board\'s clock (LCD "Result 0-1"), and journaled as the arbiter\'s', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1, 1);
    const r = rig;
    const clock = r.clocks[0].clock;
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${boardId(r, 1)}/start`, headers: auth })).statusCode).toBe(200);
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${boardId(r, 1)}/pause`, headers: auth })).statusCode).toBe(200);
    expect(clock.screen().join('|')).not.toMatch(/Result/);

    const entered = await r.api.inject({ method: 'PUT', url: `/api/boards/${boardId(r, 1)}/result`, headers: auth, payload: { result: '1-0' } });
    expect(entered.statusCode, entered.body).toBe(200);
    await waitFor('the clock to show 1-0', () => clock.screen().some((row) => row.includes('Result 1-0')), 5_000, flowing(r.sim));
    // A correction before confirmation replaces what the clock shows too.
    const corrected = await r.api.inject({ method: 'PUT', url: `/api/boards/${boardId(r, 1)}/result`, headers: auth, payload: { result: '0-1' } });
    expect(corrected.statusCode, corrected.body).toBe(200);
    await waitFor('the clock to show 0-1', () => clock.screen().some((row) => row.includes('Result 0-1')), 5_000, flowing(r.sim));
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '0-1', confirmedBy: null });
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => a.action === 'result')
        .map((a) => a.outcome),
    ).toEqual(['applied', 'applied']);
  }, 30_000);

  it('the arbiter corrects a move counter (FIDE Laws 6.10.2): the clock takes it and reports it, the journal and the board view follow; no time is credited', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1, 1);
    const r = rig;
    const clock = r.clocks[0].clock;
    const url = `/api/boards/${boardId(r, 1)}/moves`;
    // A bad count never reaches the host: the API names the field.
    const bad = await r.api.inject({ method: 'POST', url, headers: auth, payload: { side: 'white', moves: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/moves/);

    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${boardId(r, 1)}/start`, headers: auth })).statusCode).toBe(200);
    await waitFor('the start journaled', () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'started'), 10_000, flowing(r.sim));
    // While the clock runs: refused whole (pause first), journaled as refused.
    const running = await r.api.inject({ method: 'POST', url, headers: auth, payload: { side: 'white', moves: 3 } });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toMatch(/pause the clock before correcting a move counter/);
    expect(r.journal.arbiterActions(game.gameId).at(-1)).toMatchObject({ action: 'set-moves', outcome: 'rejected' });
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${boardId(r, 1)}/pause`, headers: auth })).statusCode).toBe(200);
    const before = clock.firmware.reading();
    const res = await r.api.inject({ method: 'POST', url, headers: auth, payload: { side: 'white', moves: 12 } });
    expect(res.statusCode, res.body).toBe(200);
    const after = clock.firmware.reading();
    expect(after.moves.white).toBe(12);
    expect([after.white, after.black]).toEqual([before.white, before.black]);
    await waitFor("the clock's MOVES_SET journaled", () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'moves-set'), 10_000, flowing(r.sim));
    expect(r.journal.eventsByGame(game.gameId).find((e) => e.type === 'moves-set')).toMatchObject({ side: 'white', move: 12 });
    expect(r.host.state.board(boardId(r, 1))!.live).toMatchObject({ moves: { white: 12, black: 0 }, period: { white: 1, black: 1 } });
    expect(r.journal.arbiterActions(game.gameId).at(-1)).toMatchObject({ action: 'set-moves', arbiter: ARBITER, outcome: 'applied' });
  }, 30_000);

  it('a result correction over the real host: refused (409) once the director decided the match on it; the result stays', async () => {
    rig = await buildRig();
    const r = rig;
    await playBoard2(r); // Bajt wins 1½-½: game 1 1-0, game 2 ½-½ (entered on the clock, confirmed)
    const game2 = r.journal.gamesByMatch('slo-w-2007/r1/b2').find((g) => g.gameNo === 2)!;
    const res = await r.api.inject({ method: 'PUT', url: `/api/boards/${boardId(r, 2)}/result`, headers: auth, payload: { result: '0-1' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'board 2 of slo-w-2007 round 1: game 2 (1/2-1/2) cannot be corrected: the match was already decided on it (Bajt, Indira wins, classical)',
    );
    expect(r.journal.getGame(game2.gameId)).toMatchObject({ result: '1/2-1/2', reportedBy: 'clock', confirmedBy: ARBITER });
    expect(r.journal.arbiterActions(game2.gameId).at(-1)).toMatchObject({ action: 'result', arbiter: ARBITER, outcome: 'rejected' });
    expect(r.host.state.board(boardId(r, 2))!.match).toMatchObject({
      whiteScore: 0.5,
      blackScore: 1.5,
      decided: true,
      winner: 'Bajt, Indira',
      decidedBy: 'classical',
    });
  }, 30_000);
});

// Protocol 1.4, the arbiter's corrections, over the real Host to simulated clocks running the
// real firmware on in-memory lines: a replacement clock set up with its counters and Black on
// move (FIDE Laws 6.10.2), a take-back keeping both clock times (Laws 7.1), a corrected control
// (6.10.2), a quickplay delay (Guidelines III.4), and the arbiter's double forfeit shown by the
// clock (6.7.1). Each goes API → Host → Command → clock → ClockEvent → journal (with the
// arbiter's name), the board view previews the take-back, and `chessclock host --replay`
// (replay-log) run through the clock's statechart (firmware-ts/replay.ts) gives the journaled
// times. A clock of protocol 1.3 is refused the new commands by the host, saying why, and only
// stopped by a double forfeit.
import { afterEach, describe, expect, it } from 'vitest';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { SimClock, flowing, waitFor } from './e2e-harness.ts';
import { replayLines } from '../host/adapters/exports/replay-log.ts';
import { replayText } from '../firmware-ts/replay.ts';
import { presetTimeControl, readTimeControlSpec } from '../protocol/time-control.ts';
import type { ClockEventRow } from '../host/store/journal.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const EVENT = 'slo-w-2007';

type Out = { t: number; type: string; [k: string]: unknown };

function powers(rig: MatchRig, board: number) {
  const id = boardId(rig, board);
  const call = (method: 'POST' | 'PUT', path: string, payload?: object) =>
    rig.api.inject({ method, url: `/api/boards/${id}/${path}`, headers: auth, ...(payload ? { payload } : {}) });
  const post = (path: string, payload?: object) => call('POST', path, payload);
  const events = (gameId: number, type: string): ClockEventRow[] => rig.journal.eventsByGame(gameId).filter((e) => e.type === type);
  /** Waits (simulated time flowing) until the journal holds `n` events of `type` for the game. */
  const journaled = (gameId: number, type: string, n = 1) =>
    waitFor(`${n} ${type} journaled`, () => events(gameId, type).length >= n, 10_000, flowing(rig.sim));
  const actions = (gameId: number, action: string) => rig.journal.arbiterActions(gameId).filter((a) => a.action === action);
  return { id, call, post, events, journaled, actions };
}

describe("the arbiter's corrections through the host to the clock (protocol 1.4)", () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('FIDE Laws 6.10.2 / 7.1 / Guidelines III.4: a replacement clock set up with Black on move, a take-back keeping both times, a corrected control and a delay; journaled with the arbiter; --replay gives the journaled times', async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const clock = r.clocks[0];
    const fw = clock.clock.firmware;
    const { id, call, post, events, journaled, actions } = powers(r, 1);

    // FIDE Laws 6.10.2: a replacement clock is set up where the game stood: White has made 21
    // moves, Black 20, so Black is on move.
    expect((await post('moves', { side: 'white', moves: 21 })).statusCode).toBe(200);
    expect((await post('moves', { side: 'black', moves: 20 })).statusCode).toBe(200);
    const turn = await post('turn', { side: 'black' });
    expect(turn.statusCode, turn.body).toBe(200);
    await journaled(game.gameId, 'turn-set');
    expect(events(game.gameId, 'turn-set')[0]).toMatchObject({ side: 'black', detail: null });
    expect(actions(game.gameId, 'set-turn')).toEqual([expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', payload: { side: 'black' } })]);
    expect((await post('start')).statusCode).toBe(200);
    await journaled(game.gameId, 'started');
    expect(fw.reading()).toMatchObject({ status: 'running', turn: 'black' });
    r.sim.advanceBy(5000);
    await clock.press('black');
    r.sim.advanceBy(4000);
    await clock.press('white'); // the illegal move
    await journaled(game.gameId, 'moved', 2);
    r.sim.advanceBy(2000);
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused');

    // FIDE Laws 7.1: the board view shows both choices; the arbiter keeps the times.
    const shown = fw.reading();
    const preview = r.host.state.board(id)!.live!.takebackPreview!;
    expect(preview).toMatchObject({ side: 'white', move: 22, keep: { white: shown.white, black: shown.black } });
    expect(preview.rewind.black).toBeGreaterThan(shown.black); // Black's 2 s since the press come back when rewound
    const tb = await post('takeback', { times: 'keep' });
    expect(tb.statusCode, tb.body).toBe(200);
    await journaled(game.gameId, 'taken-back');
    expect(fw.reading()).toMatchObject({ status: 'paused', turn: 'white', white: shown.white, black: shown.black, moves: { white: 21, black: 21 } });
    expect(events(game.gameId, 'taken-back')[0]).toMatchObject({
      side: 'white',
      move: 21,
      whiteMs: preview.keep.white,
      blackMs: preview.keep.black,
      detail: { period: 0, illegalMoves: 1, times: 'keep' },
    });
    expect(actions(game.gameId, 'takeback')).toEqual([expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', payload: { times: 'keep' } })]);

    // FIDE Laws 6.10.2: the clock was set to the wrong control; both times stay.
    const corrected = readTimeControlSpec({ timeControl: '40/6000+30:900+30', defaultTime: 900 }).timeControl;
    const put = await call('PUT', 'control', { timeControl: '40/6000+30:900+30', defaultTime: 900 });
    expect(put.statusCode, put.body).toBe(200);
    await journaled(game.gameId, 'control-set');
    expect(fw.state().timeControl).toEqual(corrected);
    expect(fw.reading()).toMatchObject({ white: shown.white, black: shown.black });
    expect(readTimeControlSpec(events(game.gameId, 'control-set')[0].detail!.timeControl).timeControl).toEqual(corrected);
    expect(actions(game.gameId, 'set-control')).toEqual([
      expect.objectContaining({
        arbiter: ARBITER,
        outcome: 'applied',
        payload: { timeControl: expect.objectContaining({ timeControl: '40/6000+30:900+30', defaultTime: 900 }) },
      }),
    ]);
    expect(r.host.state.board(id)!.live!.clock!.control).toEqual(corrected);
    // The PGN names the control the game is played under from now on (docs/exports.md).
    const pgn = await r.api.inject({ method: 'GET', url: `/api/export/pgn?round=1&event=${EVENT}` });
    expect(pgn.body).toContain('[TimeControl "40/6000+30:900+30"]');

    // FIDE Guidelines III.4: a 5 s delay on every turn that begins from now on.
    expect((await post('delay', { ms: 5000 })).statusCode).toBe(200);
    await journaled(game.gameId, 'delay-set');
    expect(events(game.gameId, 'delay-set')[0].detail).toEqual({ ms: 5000 });
    expect(r.host.state.board(id)!.live!.delayMs).toBe(5000);
    expect(actions(game.gameId, 'delay')).toEqual([expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', payload: { ms: 5000 } })]);

    // Play on: White's resumed turn keeps the delay it began with (none); Black's turn is delayed.
    expect((await post('resume')).statusCode).toBe(200);
    await journaled(game.gameId, 'resumed');
    r.sim.advanceBy(6000);
    await clock.press('white');
    await journaled(game.gameId, 'moved', 3);
    const blackBefore = fw.reading().black;
    r.sim.advanceBy(3000);
    await clock.press('black');
    await journaled(game.gameId, 'moved', 4);
    // 3 s within the 5 s delay: nothing charged, the move's 30 s credited.
    expect(fw.reading().black).toBe(blackBefore + 30_000);
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused', 2);

    // The dispute replayed from the journal: every correction is an input line, and the times come out as journaled.
    const lines = replayLines(r.journal, game.gameId).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => ['turn', 'takeback', 'control', 'delay'].includes(l.type as string)).map((l) => l.type)).toEqual([
      'turn',
      'takeback',
      'control',
      'delay',
    ]);
    expect(lines.find((l) => l.type === 'takeback')).toEqual({ t: expect.any(Number), type: 'takeback', times: 'keep' });
    const out = replayText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n').map((l) => JSON.parse(l) as Out);
    expect(out.filter((o) => o.type === 'rejected')).toEqual([]);
    expect(out.filter((o) => o.type === 'move').map((o) => [o.side, o.move, o.white, o.black])).toEqual(
      events(game.gameId, 'moved').map((e) => [e.side, e.move, e.whiteMs, e.blackMs]),
    );
    const taken = events(game.gameId, 'taken-back')[0];
    expect(out.find((o) => o.type === 'takeback')).toMatchObject({ side: 'white', move: 21, times: 'keep', white: taken.whiteMs, black: taken.blackMs });
    const turnSet = events(game.gameId, 'turn-set')[0];
    expect(out.find((o) => o.type === 'turn')).toMatchObject({ side: 'black', white: turnSet.whiteMs, black: turnSet.blackMs });
    const controlSet = events(game.gameId, 'control-set')[0];
    expect(out.find((o) => o.type === 'control')).toMatchObject({ white: controlSet.whiteMs, black: controlSet.blackMs, defaultTime: 900 });
    expect(out.find((o) => o.type === 'delay')).toMatchObject({ ms: 5000 });
    const end = fw.reading();
    expect(out.at(-1)).toMatchObject({
      type: 'state',
      status: 'paused',
      white: end.white,
      black: end.black,
      moves: end.moves,
      illegal: { white: 1, black: 0 },
    });

    // FIDE Laws 6.7.1: the arbiter enters a double forfeit (decided otherwise); the 1.4 clock holds it as its result.
    const dbl = await call('PUT', 'result', { result: '--' });
    expect(dbl.statusCode, dbl.body).toBe(200);
    await waitFor('the clock to hold "--"', () => fw.state().result === '--', 10_000, flowing(r.sim));
    expect(fw.reading().status).toBe('paused');
    expect((await post('resume')).statusCode).toBe(409);
  }, 60_000);

  it("FIDE Guidelines III.2.2: no quickplay delay in blitz: refused by the host with the rule book's reason, journaled as refused, the clock untouched", async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 2);
    const { id, call, post, actions } = powers(r, 2);
    const fw = r.clocks[1].clock.firmware;
    expect((await call('PUT', 'config', { timeControl: '180+2' })).statusCode).toBe(200);
    const before = fw.state();
    const res = await post('delay', { ms: 2000 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`board 2 of ${EVENT} round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only`);
    expect(actions(game.gameId, 'delay')).toEqual([expect.objectContaining({ arbiter: ARBITER, outcome: 'rejected', payload: { ms: 2000 } })]);
    expect(fw.state()).toEqual(before);
    expect(r.host.state.board(id)!.live?.delayMs ?? 0).toBe(0);
  }, 30_000);

  it('a clock whose firmware speaks protocol 1.3 is refused the 1.4 commands by the host, saying why, nothing changes on it; a plain take-back still works; a double forfeit only stops it', async () => {
    rig = await buildRig({
      wire: async (rg, c, table) => {
        if (table !== 1) return void rg.host.addLine(`memory:table-${table}`, c.memoryLine(), { table });
        // The clock at table 1 announces protocol 1.3 in its Hello (an older firmware).
        const old = await SimClock.boot('CLK-13', rg.sim, presetTimeControl('rapid'), { protocolVersion: { major: 1, minor: 3 } });
        rg.clocks[0] = old;
        c.stop();
        rg.host.addLine('memory:table-1', old.memoryLine(), { table: 1 });
      },
    });
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const clock = r.clocks[0];
    const fw = clock.clock.firmware;
    const { call, post, journaled, events } = powers(r, 1);
    expect((await post('start')).statusCode).toBe(200);
    await journaled(game.gameId, 'started');
    r.sim.advanceBy(3000);
    await clock.press('white');
    await journaled(game.gameId, 'moved');
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused');
    const was = fw.state();
    for (const [method, path, payload, what] of [
      ['POST', 'turn', { side: 'white' }, 'setting the side on move'],
      ['PUT', 'control', { preset: 'rapid' }, 'correcting the time control'],
      ['POST', 'delay', { ms: 5000 }, 'the quickplay delay'],
      ['POST', 'takeback', { times: 'keep' }, 'a take-back keeping the clock times'],
    ] as const) {
      const res = await call(method, path, payload);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().message).toBe(
        `clock CLK-13 of board 1 of ${EVENT} round 1: its firmware speaks protocol 1.3: ${what} needs 1.4 (update the clock firmware); nothing was changed`,
      );
    }
    expect(fw.state()).toEqual(was);
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => ['set-turn', 'set-control', 'delay', 'takeback'].includes(a.action))
        .map((a) => [a.action, a.arbiter, a.outcome]),
    ).toEqual([
      ['set-turn', ARBITER, 'rejected'],
      ['set-control', ARBITER, 'rejected'],
      ['delay', ARBITER, 'rejected'],
      ['takeback', ARBITER, 'rejected'],
    ]);
    // A take-back rewinding the times is 1.1's: the older clock takes it.
    expect((await post('takeback')).statusCode).toBe(200);
    await journaled(game.gameId, 'taken-back');
    expect(events(game.gameId, 'taken-back')[0].detail).toMatchObject({ times: 'rewind' });

    // FIDE Laws 6.7.1: a double forfeit has no form on a 1.3 clock: a running one is stopped, and holds no result.
    expect((await post('resume')).statusCode).toBe(200);
    await journaled(game.gameId, 'resumed');
    expect((await call('PUT', 'result', { result: '--' })).statusCode).toBe(200);
    await waitFor('the clock stopped', () => fw.reading().status === 'paused', 10_000, flowing(r.sim));
    expect(fw.state().result).toBeNull();
  }, 30_000);
});

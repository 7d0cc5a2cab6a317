// A double forfeit (FIDE Laws 6.7.1: neither player came within the default time, so both
// lose) from the clock to the exports, over the real Host and a simulated clock running the
// real firmware: the clock's statechart forfeits both absent sides at the default time (one
// FORFEIT event per side, White first), and the host files the game as `--` (both lost, 0
// points each), never as one side's win, and the PGN writes it `0-0`. The arbiter's own entry
// of `--` works the same way.
import { afterEach, describe, expect, it } from 'vitest';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';
import { resultTopic } from '../host/adapters/mqtt/topics.ts';
import { readPgnWithBoth } from '../host/adapters/exports/pgn-readers.fixture.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const EVENT = 'slo-w-2007';

describe('FIDE Laws 6.7.1: both players absent at the default time', () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('the clock forfeits both sides (White first); the host files the game as "--" (both lose, 0 points each), not as a win for Black; confirmed, the director plays on and MQTT publishes "--"', async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const id = boardId(r, 1);
    // One minute of allowed lateness, so the test need not wait an hour of simulated time.
    const cfg = await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/config`, headers: auth, payload: { timeControl: 'classical', defaultTime: 60 } });
    expect(cfg.statusCode, cfg.body).toBe(200);
    const fw = r.clocks[0].clock.firmware;
    expect(fw.state().timeControl.defaultTimeMs).toBe(60_000);

    // The arbiter starts the clock; nobody is at the board.
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/start`, headers: auth })).statusCode).toBe(200);
    const forfeits = () => r.journal.eventsByGame(game.gameId).filter((e) => e.type === 'forfeit');
    await waitFor('both forfeits journaled', () => forfeits().length === 2, 10_000, flowing(r.sim, 200));
    expect(forfeits().map((e) => e.side)).toEqual(['white', 'black']);
    expect(r.host.state.board(id)!.live).toMatchObject({ status: 'forfeited', present: { white: false, black: false } });

    // Someone keys a result in at the clock (the clock preselects none when both are absent):
    // whatever was keyed, both lost by default.
    await r.clocks[0].enterResult('0-1');
    await waitFor('the result filed', () => r.journal.getGame(game.gameId)!.result !== null, 10_000, flowing(r.sim));
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '--', how: 'forfeit-lateness', reportedBy: 'clock', confirmedBy: null });
    expect(r.host.state.board(id)).toMatchObject({ result: '--', resultConfirmed: false });

    const confirm = await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '--', confirmedBy: ARBITER });

    // MQTT: the retained result message says both lost (docs/mqtt.md "result").
    const published = r.journal.pendingOutbox(10_000).filter((m) => m.topic === resultTopic({ event: EVENT, round: 1, board: 1 }));
    expect(JSON.parse(String(published.at(-1)!.payload))).toMatchObject({
      gameNo: 1,
      result: '--',
      forfeit: true,
      points: { white: 0, black: 0 },
      confirmed: true,
    });

    // The PGN feed writes it as FIDE's Olympiad PGNs and lichess broadcasts do: Result "0-0",
    // the marker "*" every reader accepts, and why (docs/exports.md "Forfeits in PGN").
    const pgnText = r.exports.pgn(EVENT, 1);
    const g1 = readPgnWithBoth(pgnText).find((g) => g.tags.GameId === `${EVENT}:1.1.1`)!;
    expect(g1).toMatchObject({ result: '0-0', sans: [], tags: { Result: '*', Termination: 'rules infraction', Round: '1.1.1' } });
    expect(g1.comments).toEqual(['Both players lost by forfeit (0-0): neither was at the board within the default time (FIDE Laws 6.7.1).']);

    // The mini-match goes on: a double forfeit counts 0-0 (docs/tournament.md), game 2 comes next.
    const g2 = await configuredFor(r, 2, 1);
    expect(g2).toMatchObject({ kind: 'classical', white: game.black, black: game.white });
    expect(r.journal.getMatch('slo-w-2007/r1/b1')).toMatchObject({ status: 'playing', score: { classical: { 1: 0, 4: 0 } } });
  }, 30_000);

  it('the arbiter enters "--" over the API on a running board: accepted (the vocabulary\'s result), the clock stops, the board is finished; confirmed, it is listed as "--"', async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 2);
    const id = boardId(r, 2);
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/start`, headers: auth })).statusCode).toBe(200);
    await waitFor('the start journaled', () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'started'), 10_000, flowing(r.sim));
    const fw = r.clocks[1].clock.firmware;
    expect(fw.reading().status).toBe('running');

    const put = await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '--' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().board).toMatchObject({ result: '--', resultConfirmed: false, live: { status: 'finished' } });
    // A clock of protocol 1.4 holds the double forfeit as its result (docs/api.md): it stops and shows it.
    await waitFor('the clock stopped', () => fw.reading().status === 'paused', 10_000, flowing(r.sim));
    expect(fw.state().result).toBe('--');
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '--', reportedBy: `arbiter:${ARBITER}` });

    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    const listed = (await r.api.inject({ url: '/api/results?round=1' })).json();
    expect(listed.results.find((x: { board: number; gameNo?: number }) => x.board === 2)).toMatchObject({ result: '--', confirmed: true });
    // In the PGN: 0-0; no Law is cited, the clock forfeited nobody (an arbiter's decision).
    const g1 = readPgnWithBoth(r.exports.pgn(EVENT, 1)).find((g) => g.tags.GameId === `${EVENT}:1.2.1`)!;
    expect(g1).toMatchObject({ result: '0-0', comments: ['Both players lost by forfeit (0-0).'], tags: { Termination: 'rules infraction' } });
  }, 30_000);
});

// A result closes the game everywhere (docs/api.md "A game with a result"), end to end: the real Host on a real SQLite
// journal, the HTTP API, MQTT through the embedded Aedes broker (publishHostToMqtt, as
// `chessclock host` wires it), and simulated clocks running the real firmware on in-memory
// lines. Each fault once found first, then what the host does about it:
//  - a result entered at the host ended nothing: the live and the retained MQTT state said
//    `running` (FIDE Laws 5.1 / 5.2: the result ends the game);
//  - the result the players keyed in later at a clock that had been offline went to no game,
//    only a console line (FIDE Laws 8.7: the result stands unless the arbiter decides otherwise:
//    the arbiter decides, between both results shown);
//  - a finished or confirmed game took time changes (an adjust answered `ok` and changed the
//    exported clock tags).
// Rules: docs/api.md, "A game with a result". Tests wait for events, not for time
// (docs/architecture.md rule 13): simulated time flows only while a test waits for something.
import { afterEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { SimClock, flowing, playMoves, waitFor } from './e2e-harness.ts';
import { publishHostToMqtt, startHostMqtt, type HostMqtt } from '../host/adapters/mqtt/host-mqtt.ts';
import { stateTopic } from '../host/adapters/mqtt/topics.ts';
import { readPgnWithBoth } from '../host/adapters/exports/pgn-readers.fixture.ts';
import { presetTimeControl } from '../protocol/time-control.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const EVENT = 'slo-w-2007';

/** Board 1's game started by the arbiter, then its clock's cable pulled: the host sees it offline. */
async function startedThenAway(r: MatchRig) {
  const game = await configuredFor(r, 1, 1);
  const clock = r.clocks[0];
  const id = boardId(r, 1);
  expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/start`, headers: auth })).statusCode).toBe(200);
  await waitFor('the start journaled', () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'started'), 10_000, flowing(r.sim));
  clock.unplugMemory();
  const session = r.host.lines().find((s) => s.key === 'memory:table-1')!;
  await waitFor('clock 1 offline', () => !session.online);
  return { game, clock, id };
}

describe('a result closes the game everywhere (docs/api.md "A game with a result")', () => {
  let rig: MatchRig | null = null;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    if (rig) await closeRig(rig);
    rig = null;
  });

  async function withMqtt(r: MatchRig): Promise<{ states: Array<{ seq: number; status: string }>; url: string }> {
    const hostMqtt: HostMqtt = (await startHostMqtt({
      target: 'embedded:0',
      anonymousRead: true,
      outbox: r.journal.outboxStore(() => r.hostClock.nowUtcMs()),
      clientId: 'result-host',
      onError: () => undefined,
    }))!;
    const stop = publishHostToMqtt(r.host.state, hostMqtt, 50);
    cleanups.push(() => hostMqtt.close(), stop);
    const sub = mqtt.connect(hostMqtt.url, { clientId: 'result-sub' });
    cleanups.push(() => sub.endAsync(true));
    const states: Array<{ seq: number; status: string }> = [];
    sub.on('message', (_t, p) => states.push(JSON.parse(p.toString())));
    await sub.subscribeAsync(stateTopic({ event: EVENT, round: 1, board: 1 }), { qos: 1 });
    return { states, url: hostMqtt.url };
  }

  async function retainedState(url: string): Promise<{ seq: number; status: string }> {
    const late: MqttClient = mqtt.connect(url, { clientId: `late-${Date.now()}` });
    cleanups.push(() => late.endAsync(true));
    const got: Array<{ seq: number; status: string }> = [];
    late.on('message', (_t, p) => got.push(JSON.parse(p.toString())));
    await late.subscribeAsync(stateTopic({ event: EVENT, round: 1, board: 1 }), { qos: 1 });
    await waitFor('the retained state', () => got.length > 0);
    return got[0];
  }

  const clockTags = (r: MatchRig) => {
    const game = readPgnWithBoth(r.exports.pgn(EVENT, 1)).find((g) => g.tags.Round === '1.1.1')!;
    return [game.tags.WhiteClock, game.tags.BlackClock];
  };

  it('FIDE Laws 5.1 / 5.2: a result entered at the host while the clock runs stops the clock, which shows it; the live and the retained MQTT state say finished with no clock event after it; time commands are refused (409) and the exported clock tags stay', async () => {
    rig = await buildRig();
    const r = rig;
    const { states, url } = await withMqtt(r);
    const game = await configuredFor(r, 1, 1);
    const clock = r.clocks[0];
    const id = boardId(r, 1);
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/start`, headers: auth })).statusCode).toBe(200);
    await waitFor('the start journaled', () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'started'), 10_000, flowing(r.sim));
    r.sim.advanceBy(5000);
    await clock.press('white');
    await waitFor('the press journaled', () => r.journal.eventsByGame(game.gameId).some((e) => e.type === 'moved'), 10_000, flowing(r.sim));
    const pressSeq = r.journal.eventsByGame(game.gameId).at(-1)!.seq;
    await waitFor('the running state on MQTT', () => states.some((s) => s.seq === pressSeq && s.status === 'running'));
    expect(clock.clock.firmware.reading().status).toBe('running');

    const put = await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1-0' } });
    expect(put.statusCode, put.body).toBe(200);
    // The clock stopped at once and shows the result; it sends no event for it (ENTER_RESULT is not echoed).
    expect(clock.clock.firmware.reading().status).not.toBe('running');
    await waitFor('the clock to show 1-0', () => clock.clock.screen().some((row) => row.includes('Result 1-0')), 5_000, flowing(r.sim));
    const eventsAfterResult = r.journal.eventsByGame(game.gameId).length;
    expect(r.journal.eventsByGame(game.gameId).at(-1)!.seq).toBe(pressSeq);
    // The host's view and the broadcast say finished all the same.
    expect(r.host.state.board(id)!.live).toMatchObject({ status: 'finished', seq: pressSeq });
    await waitFor('the finished state on MQTT', () => states.some((s) => s.status === 'finished'));
    expect(states.at(-1)).toMatchObject({ seq: pressSeq, status: 'finished' });
    expect(await retainedState(url)).toMatchObject({ seq: pressSeq, status: 'finished' });

    // A finished game takes no time change: refused, naming the board, the result and the correction.
    const tags = clockTags(r);
    const before = clock.clock.firmware.reading();
    const adjust = await r.api.inject({ method: 'POST', url: `/api/boards/${id}/adjust`, headers: auth, payload: { side: 'white', ms: 60_000 } });
    expect(adjust.statusCode).toBe(409);
    expect(adjust.json().message).toBe(
      `board 1 of ${EVENT} round 1 has a result: the game is over (1-0, not confirmed yet): a time change changes nothing now; to change it, correct the result (PUT /api/boards/${id}/result)`,
    );
    const resume = await r.api.inject({ method: 'POST', url: `/api/boards/${id}/resume`, headers: auth });
    expect(resume.statusCode).toBe(409);
    const after = clock.clock.firmware.reading();
    expect([after.status, after.white, after.black]).toEqual([before.status, before.white, before.black]);
    // Confirmed: still refused, and the way out is a correction with a reason.
    expect((await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    // The director went on to game 2 of the mini-match: the board is game 2 now, game 1 is behind it.
    await configuredFor(r, 2, 1);
    const g1 = r.journal.getGame(game.gameId)!;
    expect(g1).toMatchObject({ result: '1-0', confirmedBy: ARBITER });
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => a.action === 'adjust' || a.action === 'resume')
        .map((a) => a.outcome),
    ).toEqual(['rejected', 'rejected']);
    expect(r.journal.eventsByGame(game.gameId)).toHaveLength(eventsAfterResult);
    expect(clockTags(r)).toEqual(tags);
  }, 30_000);

  it("FIDE Laws 8.7: a clock offline when the arbiter enters the result runs on; back online, its presses from before the result join the game, the players' different result waits beside the arbiter's (both shown, never only a log line), and the arbiter confirms one; the next game gets nothing of the old one", async () => {
    rig = await buildRig();
    const r = rig;
    const { game, clock, id } = await startedThenAway(r);

    // White moves while the clock is away; then the arbiter enters 1-0 at the host.
    r.sim.advanceBy(5000);
    await clock.press('white');
    r.sim.advanceBy(1000);
    const put = await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1-0' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().board.live.status).toBe('finished');
    expect(clock.clock.firmware.reading().status).toBe('running'); // it never heard of the result
    // The players go on, then stop the clock and key in 0-1, both confirming with their levers.
    r.sim.advanceBy(5000);
    await clock.press('black');
    await clock.enterResult('0-1');
    clock.plugMemory();
    await waitFor("the players' result filed", () => r.journal.resultReports({ pending: true }).length === 1, 10_000, flowing(r.sim));

    // White's press was played before the result: it is the game's. Black's came after the end: not.
    const moved = r.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
    expect(moved.map((e) => e.side)).toEqual(['white']);
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '1-0', reportedBy: `arbiter:${ARBITER}`, confirmedBy: null });
    const results = (await r.api.inject({ url: '/api/results?round=1' })).json();
    const b1 = results.results.find((x: { event: string; board: number }) => x.event === EVENT && x.board === 1);
    expect(b1).toMatchObject({
      result: '1-0',
      by: `arbiter:${ARBITER}`,
      confirmed: false,
      conflicts: [{ result: '0-1', by: 'clock', clockId: 'CLK-01', atUtcMs: expect.any(Number) }],
    });
    expect(results.unassigned).toEqual([]);
    expect(r.host.state.board(id)).toMatchObject({
      result: '1-0',
      pendingResults: [{ result: '0-1', by: 'clock', clockId: 'CLK-01' }],
      live: { status: 'finished' },
    });

    // The arbiter decides for the players' result: adopted and confirmed, journaled as such.
    const confirm = await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { result: '0-1' } });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(r.journal.getGame(game.gameId)).toMatchObject({ result: '0-1', reportedBy: 'clock', confirmedBy: ARBITER });
    expect(r.journal.arbiterActions(game.gameId).at(-1)).toMatchObject({
      action: 'confirm-result',
      arbiter: ARBITER,
      payload: { result: '0-1', adopted: { result: '0-1', reportedBy: 'clock' }, previous: { result: '1-0' } },
    });
    // The mini-match goes on to game 2 on the same clock, which starts clean.
    const g2 = await configuredFor(r, 2, 1);
    expect(r.journal.getGame(g2.gameId)).toMatchObject({ result: null });
    expect(r.journal.eventsByGame(g2.gameId)).toEqual([]);
    expect(r.host.state.board(id)).toMatchObject({ game: { no: 2 }, result: null });
    expect(r.host.state.board(id)).not.toHaveProperty('pendingResults');
  }, 30_000);

  it('FIDE Laws 5.1 / 5.2: a clock away when the arbiter entered the result is told once it is back: it stops and shows the result', async () => {
    rig = await buildRig();
    const r = rig;
    const { clock, id } = await startedThenAway(r);
    const put = await r.api.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1/2-1/2' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(clock.clock.firmware.reading().status).toBe('running'); // it never heard of the result
    clock.plugMemory();
    await waitFor('the clock stopped with the result', () => clock.clock.firmware.reading().result === '1/2-1/2', 10_000, flowing(r.sim));
    expect(clock.clock.firmware.reading().status).toBe('paused');
    expect(clock.clock.firmware.screen().join('\n')).toContain('1/2');
    // The host's own result, not a second one: nothing waits for the arbiter.
    expect(r.journal.resultReports({ pending: true })).toEqual([]);
    expect(r.host.state.board(id)).toMatchObject({ result: '1/2-1/2', live: { status: 'finished' } });
  }, 30_000);

  it('a result from a clock assigned to no game is journaled as unassigned and listed for the arbiter, who adopts it for the board it was played on', async () => {
    rig = await buildRig();
    const r = rig;
    await configuredFor(r, 1, 1);
    // A spare clock on a line with no table: the host assigns it to no game.
    const spare = await SimClock.boot('CLK-09', r.sim, presetTimeControl('rapid'));
    cleanups.push(() => spare.stop());
    r.host.addLine('memory:spare', spare.memoryLine());
    await waitFor('the spare clock online', () => r.host.sessionOf('CLK-09')?.online === true, 10_000, flowing(r.sim));
    await playMoves(spare, r.sim, 2, 10_000);
    await spare.enterResult('1-0');
    await waitFor("the spare clock's result filed", () => r.journal.resultReports({ pending: true }).length === 1, 10_000, flowing(r.sim));
    const listed = (await r.api.inject({ url: '/api/results' })).json();
    expect(listed.unassigned).toEqual([{ id: expect.any(Number), result: '1-0', by: 'clock', clockId: 'CLK-09', atUtcMs: expect.any(Number) }]);
    expect(listed.results.every((x: { conflicts: unknown[] }) => x.conflicts.length === 0)).toBe(true);
    // The arbiter learns the game was board 1's (its clock had failed): adopted there, confirmed.
    const id = boardId(r, 1);
    const res = await r.api.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { report: listed.unassigned[0].id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(r.journal.gamesByBoard(EVENT, 1, 1)[0]).toMatchObject({ result: '1-0', reportedBy: 'clock', confirmedBy: ARBITER });
    expect((await r.api.inject({ url: '/api/results' })).json().unassigned).toEqual([]);
  }, 30_000);
});

// The API and MQTT over the real SQLite journal (host/journal): what `chessclock host` runs.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { Journal } from '../store/journal.ts';
import type { ClockEventInput } from '../store/types.ts';
import { presetTimeControl } from '../../protocol/time-control.ts';
import { JournalPorts, boardIdOf } from './journal-ports.ts';
import { journalInput } from '../clocks/clock-event.ts';
import { Boot } from '../clocks/journaled-clock.fixture.ts';
import { ClockEvent_Kind } from '../../protocol/gen/chessclock_pb.ts';
import { buildApi } from '../adapters/http/api.ts';
import type { ArbiterCommand, ClockEventRecord } from './ports.ts';
import { journalOutboxTopic } from '../adapters/mqtt/journal-topics.ts';
import { MqttPublisher } from '../adapters/mqtt/publisher.ts';
import { startEmbeddedBroker } from '../adapters/mqtt/mqtt-target.ts';
import { subscribeClockEvents } from '../adapters/mqtt/subscriber.ts';
import { resultTopic, stateTopic } from '../adapters/mqtt/topics.ts';
import { bridgeHostFeedToMqtt } from '../adapters/mqtt/host-feed-bridge.ts';
import type { EventPayload } from '../adapters/mqtt/payload.ts';

const FINAL = 'Slovenian Final 2025/26';
const TOKEN = 'chief-arbiter-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function journalFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-host-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'clocks.db');
}

function open(path: string): Journal {
  const j = new Journal(path, { outboxTopic: journalOutboxTopic });
  cleanups.push(() => j.close());
  return j;
}

function seedGames(j: Journal): void {
  const tc = presetTimeControl('classical');
  j.createGame({
    event: FINAL,
    round: 1,
    board: 1,
    kind: 'classical',
    white: 'Tratar, Marko',
    black: 'Sebenik, Matej',
    timeControl: tc,
    clockId: 'clk-1',
    createdUtcMs: 1,
  });
  j.createGame({
    event: FINAL,
    round: 1,
    board: 2,
    kind: 'classical',
    white: 'Borišek, Jure',
    black: 'Lenič, Luka',
    timeControl: tc,
    clockId: 'clk-2',
    createdUtcMs: 1,
  });
}

function ev(clockId: string, seq: number, type: ClockEventInput['type'], extra: Partial<ClockEventInput> = {}): ClockEventInput {
  return {
    clockId,
    bootId: 'boot-1',
    seq,
    type,
    whiteMs: 5_430_000 - seq * 1000,
    blackMs: 5_430_000,
    monoMs: seq * 1000,
    utcMs: 1_750_000_000_000 + seq * 1000,
    uncertaintyMs: 3,
    ...extra,
  };
}

describe('JournalPorts: the host ports over the SQLite journal', () => {
  it('journals each event once, then feeds listeners with the board live state', () => {
    const j = open(journalFile());
    seedGames(j);
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 1_750_000_100_000 });
    const fed: Array<[ClockEventRecord, string | undefined]> = [];
    host.subscribe((e, b) => fed.push([e, b?.live?.status]));
    host.append(ev('clk-1', 1, 'started'));
    host.append(ev('clk-1', 2, 'moved', { side: 'white', move: 1 }));
    expect(host.append(ev('clk-1', 2, 'moved', { side: 'white', move: 1 })).isNew).toBe(false); // retransmission
    expect(fed.map(([e, s]) => [e.seq, e.type, s])).toEqual([
      [1, 'started', 'running'],
      [2, 'moved', 'running'],
    ]);
    expect(fed[1][0]).toMatchObject({ event: FINAL, round: 1, board: 1, uncertaintyMs: 3 });
    const board = host.board(boardIdOf(FINAL, 1))!;
    expect(board).toMatchObject({ id: 'slovenian-final-2025-26-1', clockId: 'clk-1', white: { name: 'Tratar, Marko' }, timeControl: '40/5400+30:900+30' });
    expect(board.live).toMatchObject({ status: 'running', turn: 'black', seq: 2, moves: { white: 1, black: 0 } });
  });

  it('board views carry period (FIDE Laws 6.10.1), presence (6.7.1), flags (6.9), the start and the default time — the same after a restart', () => {
    const path = journalFile();
    const first = open(path);
    const tc = presetTimeControl('classical', { defaultTime: 1800 });
    first.createGame({
      event: FINAL,
      round: 1,
      board: 1,
      kind: 'classical',
      white: 'Tratar, Marko',
      black: 'Sebenik, Matej',
      timeControl: tc,
      clockId: 'clk-1',
      createdUtcMs: 1,
    });
    const host = new JournalPorts({ journal: first, nowUtcMs: () => 0 });
    const id = boardIdOf(FINAL, 1);
    expect(host.board(id)).toMatchObject({ defaultTimeMs: 1_800_000, live: null });
    // The board's clock: the real statechart, each event journaled as the host journals it.
    const clock = new Boot('clk-1', 1, tc, 1_000, (b, e) => {
      host.append(journalInput(b.clockId, b.bootId, ++b.seq, e, { utcMs: 1_750_000_000_000 + e.atMs, uncertaintyMs: 1 }));
    });
    clock.send({ type: 'PRESS', side: 'black', at: 2_000 }); // Black's start press: arrived, then started
    expect(host.board(id)!.live).toMatchObject({ present: { white: false, black: true }, startedAtUtcMs: 1_750_000_002_000, period: { white: 1, black: 1 } });
    for (let m = 1; m <= 40; m++) {
      clock.send({ type: 'PRESS', side: 'white', at: clock.now + 10_000 });
      if (m < 40) clock.send({ type: 'PRESS', side: 'black', at: clock.now + 10_000 });
    }
    // Black, on move 40, lets the flag fall (90 min + 30 s + 39 × 30 s − 39 × 10 s of thinking).
    clock.clock.advanceTo(clock.now + 3 * 3_600_000);
    clock.actor.stop();
    const live = host.board(id)!.live!;
    expect(live).toMatchObject({
      status: 'flagged',
      period: { white: 2, black: 1 },
      present: { white: true, black: true },
      flags: ['black'],
      flag: 'black',
      moves: { white: 40, black: 39 },
      blackMs: 0,
    });
    // Rebuilt from the journal by a restarted host: the same state.
    const again = new JournalPorts({ journal: first, nowUtcMs: () => 0 });
    expect(again.board(id)!.live).toEqual(live);
  });

  it('FIDE Laws 6.7.1: a board set up anew with only another default time shows the new one: presence tracked, the forfeit of both absent players shown (the live state is not kept for the old control)', () => {
    const j = open(journalFile());
    const game = j.createGame({
      event: FINAL,
      round: 1,
      board: 1,
      kind: 'classical',
      white: 'Tratar, Marko',
      black: 'Sebenik, Matej',
      timeControl: presetTimeControl('classical'),
      clockId: 'clk-1',
      createdUtcMs: 1,
    });
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 0 });
    const id = boardIdOf(FINAL, 1);
    expect(host.board(id)).toMatchObject({ defaultTimeMs: null, live: null }); // read once under the old control
    // The same control in its written form ("40/5400+30:900+30"), with one minute of allowed lateness.
    const tc = presetTimeControl('classical', { defaultTime: 60 });
    j.reconfigureGame(game.gameId, { timeControl: tc });
    const clock = new Boot('clk-1', 1, tc, 1_000, (b, e) => {
      host.append(journalInput(b.clockId, b.bootId, ++b.seq, e, { utcMs: 1_750_000_000_000 + e.atMs, uncertaintyMs: 1 }));
    });
    clock.send({ type: 'START', at: 2_000 });
    expect(host.board(id)).toMatchObject({ defaultTimeMs: 60_000, live: { status: 'running', present: { white: false, black: false } } });
    clock.clock.advanceTo(2_000 + 60_000);
    clock.actor.stop();
    expect(
      j
        .eventsByGame(game.gameId)
        .filter((e) => e.type === 'forfeit')
        .map((e) => e.side),
    ).toEqual(['white', 'black']);
    expect(host.board(id)!.live).toMatchObject({ status: 'forfeited', present: { white: false, black: false } });
  });

  it('FIDE Laws 6.7.1: the clock forfeits both absent players (one forfeit event per side): the result keyed at the clock is filed as "--", both lose; one absent player: that player loses; a forfeit the arbiter reinstated: the result keyed', () => {
    const j = open(journalFile());
    const tc = presetTimeControl('classical', { defaultTime: 60 });
    const both = j.createGame({
      event: FINAL,
      round: 1,
      board: 1,
      kind: 'classical',
      white: 'Tratar, Marko',
      black: 'Sebenik, Matej',
      timeControl: tc,
      clockId: 'clk-1',
      createdUtcMs: 1,
    });
    const one = j.createGame({
      event: FINAL,
      round: 1,
      board: 2,
      kind: 'classical',
      white: 'Borišek, Jure',
      black: 'Lenič, Luka',
      timeControl: tc,
      clockId: 'clk-2',
      createdUtcMs: 1,
    });
    const reinstated = j.createGame({
      event: FINAL,
      round: 1,
      board: 3,
      kind: 'classical',
      white: 'Krivec, Jana',
      black: 'Vrhovnik, Ana',
      timeControl: tc,
      clockId: 'clk-3',
      createdUtcMs: 1,
    });
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 0 });
    const keyed: number[] = [];
    const boot = (clockId: string) =>
      new Boot(clockId, 1, tc, 1_000, (b, e) => {
        const row = host.append(journalInput(b.clockId, b.bootId, ++b.seq, e, { utcMs: 1_750_000_000_000 + e.atMs, uncertaintyMs: 1 }));
        if (e.kind === ClockEvent_Kind.RESULT_ENTERED) keyed.push(row.id);
      });
    // Board 1: nobody comes. Board 2: Black comes (his press starts White's clock); White does not.
    const c1 = boot('clk-1');
    c1.send({ type: 'START', at: 2_000 });
    c1.send({ type: 'RESULT', result: '0-1', by: 'players', at: 70_000 });
    const c2 = boot('clk-2');
    c2.send({ type: 'PRESS', side: 'black', at: 2_000 });
    c2.send({ type: 'RESULT', result: '0-1', by: 'players', at: 70_000 });
    // Board 3: nobody comes, the arbiter overrules the forfeit ("unless the arbiter decides
    // otherwise"); the game is then drawn without a move.
    const c3 = boot('clk-3');
    c3.send({ type: 'START', at: 2_000 });
    c3.send({ type: 'REINSTATE', at: 70_000 });
    c3.send({ type: 'RESULT', result: '1/2-1/2', by: 'arbiter', at: 80_000 });
    for (const c of [c1, c2, c3]) c.actor.stop();
    expect(
      j
        .eventsByGame(both.gameId)
        .filter((e) => e.type === 'forfeit')
        .map((e) => e.side),
    ).toEqual(['white', 'black']);
    expect(j.eventsByGame(reinstated.gameId).map((e) => e.type)).toEqual(['started', 'forfeit', 'forfeit', 'reinstated', 'result']);
    expect(keyed).toHaveLength(3);
    for (const id of keyed) expect(host.fileClockResult(id)).toEqual({ outcome: 'recorded', log: null });
    expect(j.getGame(both.gameId)).toMatchObject({ result: '--', how: 'forfeit-lateness', reportedBy: 'clock' });
    expect(j.getGame(one.gameId)).toMatchObject({ result: '-+', how: 'forfeit-lateness', reportedBy: 'clock' });
    expect(j.getGame(reinstated.gameId)).toMatchObject({ result: '1/2-1/2', how: 'played', reportedBy: 'arbiter:at the clock clk-3' });
  });

  it("a knockout board shows its mini-match: score by this game's colours, tie-break stage, decision", () => {
    const j = open(journalFile());
    const matchId = `${FINAL}/r1/b1`;
    const A = 'Muhvič, Anja';
    const B = 'Vrhovnik, Ana';
    j.saveMatch({
      matchId,
      event: FINAL,
      round: 1,
      board: 1,
      playerA: A,
      playerB: B,
      status: 'playing',
      winner: null,
      loser: null,
      decidedBy: null,
      score: null,
      updatedUtcMs: 1,
    });
    const g1 = j.createGame({
      event: FINAL,
      round: 1,
      board: 1,
      gameNo: 1,
      matchId,
      kind: 'classical',
      white: A,
      black: B,
      timeControl: presetTimeControl('classical'),
      createdUtcMs: 1,
    });
    j.reportResult(g1.gameId, { result: '1-0', how: 'played', source: 'arbiter', arbiter: 'Chief', utcMs: 2 });
    j.confirmResult(g1.gameId, 'Chief', 3);
    const g2 = j.createGame({
      event: FINAL,
      round: 1,
      board: 1,
      gameNo: 2,
      matchId,
      kind: 'classical',
      white: B,
      black: A,
      timeControl: presetTimeControl('classical'),
      createdUtcMs: 4,
    });
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 0 });
    const id = boardIdOf(FINAL, 1);
    // Game 2: B has White, A (who won game 1) has Black.
    expect(host.board(id)!.match).toEqual({ id: matchId, whiteScore: 0, blackScore: 1, stage: 'classical', decided: false, winner: null, decidedBy: null });
    j.reportResult(g2.gameId, { result: '1/2-1/2', how: 'played', source: 'arbiter', arbiter: 'Chief', utcMs: 5 });
    expect(host.board(id)!.match).toMatchObject({ whiteScore: 0.5, blackScore: 1.5 }); // the journaled result counts before confirmation
    j.saveMatch({ ...j.getMatch(matchId)!, status: 'decided', winner: A, loser: B, decidedBy: 'classical', updatedUtcMs: 6 });
    expect(host.board(id)!.match).toMatchObject({ decided: true, winner: A, decidedBy: 'classical' });
    // A game outside any match has no match view.
    j.createGame({ event: FINAL, round: 1, board: 2, kind: 'classical', white: 'X', black: 'Y', timeControl: presetTimeControl('classical'), createdUtcMs: 1 });
    expect(host.board(boardIdOf(FINAL, 2))!.match).toBeUndefined();
  });

  it('rebuilds live state from the journal after a restart', () => {
    const path = journalFile();
    const first = new Journal(path);
    seedGames(first);
    new JournalPorts({ journal: first, nowUtcMs: () => 0 }).appendMany([ev('clk-2', 1, 'started'), ev('clk-2', 2, 'paused')]);
    first.close();
    const host = new JournalPorts({ journal: open(path), nowUtcMs: () => 0 });
    expect(host.board(boardIdOf(FINAL, 2))!.live).toMatchObject({ status: 'paused', seq: 2 });
  });

  it('gives ids to names without Latin letters', () => {
    expect(boardIdOf('Первенство Иваново', 3)).toMatch(/^e[0-9a-f]{8}-3$/);
    expect(boardIdOf('Šahovsko prvenstvo 2025', 1)).toBe('sahovsko-prvenstvo-2025-1');
  });
});

describe('API over the journal', () => {
  async function setup(commander?: (c: ArbiterCommand) => Promise<{ ok: true } | { ok: false; status: 409; reason: string }>) {
    const j = open(journalFile());
    seedGames(j);
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 1_750_000_200_000, commander });
    const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Chief Arbiter', token: TOKEN }], dashboard: false });
    cleanups.push(() => app.close());
    return { j, host, app };
  }

  it('pages events by board straight from the journal', async () => {
    const { host, app } = await setup();
    host.append(ev('clk-1', 1, 'started'));
    host.append(ev('clk-2', 1, 'started'));
    for (let s = 2; s <= 120; s++)
      host.appendMany([ev('clk-1', s, 'moved', { side: s % 2 ? 'black' : 'white' }), ev('clk-2', s, 'moved', { side: s % 2 ? 'black' : 'white' })]);
    const seqs: number[] = [];
    let url = `/api/events?board=2&limit=50`;
    for (;;) {
      const page = (await app.inject({ url })).json();
      seqs.push(
        ...page.events.map((e: ClockEventRecord) => {
          expect(e.clockId).toBe('clk-2');
          return e.seq;
        }),
      );
      if (page.next === null) break;
      url = `/api/events?board=2&limit=50&after=${page.next}`;
    }
    expect(seqs).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  });

  it('journals arbiter writes with who did it: results, confirmations, clock commands and refusals', async () => {
    const sent: ArbiterCommand[] = [];
    const { j, host, app } = await setup(async (c) => {
      sent.push(c);
      return { ok: true };
    });
    const id = boardIdOf(FINAL, 1);
    host.append(ev('clk-1', 1, 'started'));
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/resume`, headers: auth })).statusCode).toBe(409);
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/pause`, headers: auth })).statusCode).toBe(200);
    expect(sent).toEqual([{ type: 'pause', boardId: id }]);
    expect((await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '0-1' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    const results = (await app.inject({ url: '/api/results?round=1' })).json().results;
    expect(results[0]).toMatchObject({ board: 1, result: '0-1', confirmed: true, by: 'arbiter:Chief Arbiter' });
    expect(j.results(FINAL, { confirmedOnly: true }).map((g) => g.result)).toEqual(['0-1']);
    const actions = j.arbiterActions().map((a) => [a.action, a.arbiter, a.outcome]);
    expect(actions).toEqual([
      ['resume', 'Chief Arbiter', 'rejected'],
      ['pause', 'Chief Arbiter', 'applied'],
      ['result', 'Chief Arbiter', 'applied'],
      ['confirm-result', 'Chief Arbiter', 'applied'],
    ]);
  });

  it('PUT result corrects a result the players entered on the clock: journaled with the previous one; confirmation is a separate step', async () => {
    const { j, app } = await setup();
    const id = boardIdOf(FINAL, 1);
    const gameId = j.boardStates(FINAL)[0].game.gameId;
    j.reportResult(gameId, { result: '1-0', how: 'played', source: 'clock', bothPlayersConfirmed: true, utcMs: 1 });
    const res = await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '0-1' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().board).toMatchObject({ result: '0-1', resultConfirmed: false });
    expect(j.getGame(gameId)).toMatchObject({ result: '0-1', reportedBy: 'arbiter:Chief Arbiter', confirmedBy: null });
    expect(j.arbiterActions(gameId).at(-1)).toMatchObject({
      action: 'result',
      arbiter: 'Chief Arbiter',
      outcome: 'applied',
      payload: { result: '0-1', previous: { result: '1-0', reportedBy: 'clock', confirmedBy: null } },
    });
    // Confirmed, then corrected again (an appeal before the round goes on): the confirmation is withdrawn.
    // FIDE Laws 8.7: the arbiter's decision over a confirmed result says why (422 without a reason, nothing changed).
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    const unsaid = await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1/2-1/2' } });
    expect(unsaid.statusCode).toBe(422);
    expect(unsaid.json().message).toBe(
      `board 1 of ${FINAL} round 1: 0-1, confirmed by Chief Arbiter: a correction of a confirmed result must say why (send "reason"; it is journaled with the correction)`,
    );
    expect(j.getGame(gameId)).toMatchObject({ result: '0-1', confirmedBy: 'Chief Arbiter' });
    const put = await app.inject({
      method: 'PUT',
      url: `/api/boards/${id}/result`,
      headers: auth,
      payload: { result: '1/2-1/2', reason: 'appeal: the players had agreed a draw' },
    });
    expect(put.statusCode).toBe(200);
    expect(j.getGame(gameId)).toMatchObject({ result: '1/2-1/2', confirmedBy: null });
    expect(j.arbiterActions(gameId).at(-1)!.payload).toMatchObject({
      previous: { result: '0-1', confirmedBy: 'Chief Arbiter' },
      reason: 'appeal: the players had agreed a draw',
    });
  });

  it('refuses (409) to correct a knockout game the match was decided on, and leaves the old result and its confirmation intact', async () => {
    const { j, app } = await setup();
    const matchId = `${FINAL}/r1/b3`;
    j.saveMatch({
      matchId,
      event: FINAL,
      round: 1,
      board: 3,
      playerA: 'A',
      playerB: 'B',
      status: 'playing',
      winner: null,
      loser: null,
      decidedBy: null,
      score: null,
      updatedUtcMs: 1,
    });
    const g = j.createGame({
      event: FINAL,
      round: 1,
      board: 3,
      gameNo: 2,
      matchId,
      kind: 'classical',
      white: 'B',
      black: 'A',
      timeControl: presetTimeControl('classical'),
      createdUtcMs: 1,
    });
    j.reportResult(g.gameId, { result: '0-1', how: 'played', source: 'clock', bothPlayersConfirmed: true, utcMs: 2 });
    j.confirmResult(g.gameId, 'Chief Arbiter', 3);
    const id = boardIdOf(FINAL, 3);
    // Still playing: the result can be corrected (the director has not acted on it), with a reason (it was confirmed).
    expect(
      (await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1/2-1/2', reason: 'scoresheets show a draw' } }))
        .statusCode,
    ).toBe(200);
    j.confirmResult(g.gameId, 'Chief Arbiter', 4);
    j.saveMatch({ ...j.getMatch(matchId)!, status: 'decided', winner: 'A', loser: 'B', decidedBy: 'classical', updatedUtcMs: 5 });
    const res = await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1-0' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `board 3 of ${FINAL} round 1: game 2 (1/2-1/2) cannot be corrected: the match was already decided on it (A wins, classical)`,
    );
    expect(j.getGame(g.gameId)).toMatchObject({ result: '1/2-1/2', confirmedBy: 'Chief Arbiter' });
    expect(j.arbiterActions(g.gameId).at(-1)).toMatchObject({ action: 'result', outcome: 'rejected', payload: { result: '1-0' } });
  });

  it("FIDE Laws 6.10.2 / Guidelines III.4: the corrections are journaled with the arbiter (a control in the journal's form of a control); a delay is refused in blitz by the control in force, a corrected one included, before it reaches the clock", async () => {
    const sent: ArbiterCommand[] = [];
    const { j, host, app } = await setup(async (c) => (sent.push(c), { ok: true }));
    const id = boardIdOf(FINAL, 1);
    const gameId = j.boardStates(FINAL)[0].game.gameId;
    // The clock plays the configured classical control; the arbiter finds it should have been blitz 5 min + 3 s.
    const clock = new Boot('clk-1', 1, presetTimeControl('classical'), 1_000, (b, e) => {
      host.append(journalInput(b.clockId, b.bootId, ++b.seq, e, { utcMs: 1_750_000_000_000 + e.atMs, uncertaintyMs: 1 }));
    });
    const put = await app.inject({ method: 'PUT', url: `/api/boards/${id}/control`, headers: auth, payload: { timeControl: '300+3' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(j.arbiterActions(gameId).at(-1)).toMatchObject({
      action: 'set-control',
      arbiter: 'Chief Arbiter',
      outcome: 'applied',
      payload: { timeControl: { timeControl: '300+3', defaultTime: null, incrementTiming: 'before-move' } },
    });
    // The clock took it (as the commander said) and reported it: the control in force is blitz now.
    clock.send({ type: 'SET_CONTROL', timeControl: (sent[0] as Extract<ArbiterCommand, { type: 'set-control' }>).timeControl, at: 2_000 });
    expect(host.board(id)!.live!.clock!.control.white.stages[0]).toMatchObject({ baseMs: 300_000, incrementMs: 3_000 });
    const delay = await app.inject({ method: 'POST', url: `/api/boards/${id}/delay`, headers: auth, payload: { ms: 2000 } });
    expect(delay.statusCode).toBe(409);
    expect(delay.json().message).toBe(`board 1 of ${FINAL} round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only`);
    expect(j.arbiterActions(gameId).at(-1)).toMatchObject({ action: 'delay', arbiter: 'Chief Arbiter', outcome: 'rejected', payload: { ms: 2000 } });
    // Board 2 (still classical) takes it; the side on move and a take-back keeping the times are journaled as sent.
    const id2 = boardIdOf(FINAL, 2);
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id2}/delay`, headers: auth, payload: { ms: 2000 } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id2}/turn`, headers: auth, payload: { side: 'black' } })).statusCode).toBe(200);
    expect(sent.slice(1)).toEqual([
      { type: 'delay', boardId: id2, ms: 2000 },
      { type: 'set-turn', boardId: id2, side: 'black' },
    ]);
    expect(j.arbiterActions(j.boardStates(FINAL)[1].game.gameId).map((a) => [a.action, a.payload, a.outcome])).toEqual([
      ['delay', { ms: 2000 }, 'applied'],
      ['set-turn', { side: 'black' }, 'applied'],
    ]);
    clock.actor.stop();
  });

  it("passes the clock's refusal on and journals it as rejected", async () => {
    const { j, host, app } = await setup(async () => ({ ok: false, status: 409, reason: 'clock NACK: busy' }));
    host.append(ev('clk-1', 1, 'started'));
    const res = await app.inject({ method: 'POST', url: `/api/boards/${boardIdOf(FINAL, 1)}/adjust`, headers: auth, payload: { side: 'white', ms: 60000 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('clock NACK: busy');
    expect(j.arbiterActions().at(-1)).toMatchObject({
      action: 'adjust',
      outcome: 'rejected',
      reason: 'clock NACK: busy',
      payload: { side: 'white', ms: 60000 },
    });
  });
});

describe('MQTT from the journal outbox', () => {
  it('publishes journaled events and results drafted in the journal transaction', async () => {
    const broker = await startEmbeddedBroker('127.0.0.1', 0);
    cleanups.push(() => broker.close());
    const sub = mqtt.connect(broker.url, { clientId: 'sub' });
    cleanups.push(() => sub.endAsync(true));
    const seen: EventPayload[] = [];
    await subscribeClockEvents(sub, (e) => seen.push(e));
    const results: unknown[] = [];
    sub.on('message', (t, p) => t.endsWith('/result') && results.push(JSON.parse(p.toString())));
    await sub.subscribeAsync(resultTopic({ event: FINAL, round: 1, board: 1 }), { qos: 1 });

    const j = open(journalFile());
    seedGames(j);
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 1 });
    const publisher = new MqttPublisher({ client: mqtt.connect(broker.url, { clientId: 'host' }), outbox: j.outboxStore(() => 1) });
    cleanups.push(() => publisher.close());
    bridgeHostFeedToMqtt(host, publisher);
    for (let s = 1; s <= 30; s++) host.append(ev('clk-1', s, s === 1 ? 'started' : 'moved', s === 1 ? {} : { side: s % 2 ? 'black' : 'white' }));
    j.reportResult(j.boardStates(FINAL)[0].game.gameId, { result: '1-0', how: 'flag', source: 'arbiter', arbiter: 'Chief Arbiter', utcMs: 2 });
    publisher.publishPending();
    await publisher.idle();
    expect(j.outboxStore(() => 1).pendingCount()).toBe(0);
    const until = performance.now() + 5000;
    while ((seen.length < 30 || results.length < 1) && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(seen[0]).toMatchObject({ clockId: 'clk-1', event: FINAL, round: 1, board: 1, uncertaintyMs: 3 });
    expect(results).toEqual([expect.objectContaining({ result: '1-0', how: 'flag', reportedBy: 'arbiter:Chief Arbiter', confirmed: false })]);

    // The board's retained state, coalesced over the burst of 30 presses, ends at the last one.
    const late = mqtt.connect(broker.url, { clientId: 'late' });
    cleanups.push(() => late.endAsync(true));
    const states: Array<{ seq: number; status: string }> = [];
    late.on('message', (_t, p) => states.push(JSON.parse(p.toString())));
    await late.subscribeAsync(stateTopic({ event: FINAL, round: 1, board: 1 }), { qos: 1 });
    while (states.length < 1 && performance.now() < until + 5000) await new Promise((r) => setTimeout(r, 10));
    expect(states).toEqual([expect.objectContaining({ seq: 30, status: 'running', event: FINAL, board: 1 })]);
  });
});

// A result closes the game everywhere (docs/api.md, "A game with a result").
describe('a result closes the game (the journal-backed host)', () => {
  async function setup() {
    const j = open(journalFile());
    seedGames(j);
    const sent: ArbiterCommand[] = [];
    const logs: string[] = [];
    const host = new JournalPorts({ journal: j, nowUtcMs: () => 1_750_000_200_000, commander: async (c) => (sent.push(c), { ok: true }) });
    const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Chief Arbiter', token: TOKEN }], dashboard: false });
    cleanups.push(() => app.close());
    return { j, host, app, sent, logs };
  }
  const id = boardIdOf(FINAL, 1);
  /** Every command that reaches a board's clock, as the API takes it. */
  const CLOCK_COMMANDS: Array<[string, 'POST' | 'PUT', string, object | undefined]> = [
    ['start', 'POST', 'start', undefined],
    ['pause', 'POST', 'pause', undefined],
    ['resume', 'POST', 'resume', undefined],
    ['adjust', 'POST', 'adjust', { side: 'white', ms: 60_000 }],
    ['penalty', 'POST', 'penalty', { side: 'black' }],
    ['set-moves', 'POST', 'moves', { side: 'white', moves: 3 }],
    ['increment', 'POST', 'increment', { ms: 5000 }],
    ['takeback', 'POST', 'takeback', undefined],
    ['reinstate', 'POST', 'reinstate', undefined],
    ['arrive', 'POST', 'arrive', { side: 'black' }],
    ['configure', 'PUT', 'config', { timeControl: 'rapid' }],
    ['delay', 'POST', 'delay', { ms: 5000 }],
    ['set-turn', 'POST', 'turn', { side: 'black' }],
    ['set-control', 'PUT', 'control', { preset: 'rapid' }],
  ];

  it('FIDE Laws 5.1 / 5.2: a result entered at the host while the clock runs ends the game: live and retained MQTT state say finished with no clock event after it; every clock command is refused (409, naming the board, the result and the correction) and never reaches the clock', async () => {
    const { j, host, app, sent } = await setup();
    host.append(ev('clk-1', 1, 'started'));
    host.append(ev('clk-1', 2, 'moved', { side: 'white', move: 1 }));
    expect(host.board(id)!.live!.status).toBe('running');
    const put = await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1-0' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().board.live).toMatchObject({ status: 'finished', seq: 2 });
    expect(host.board(id)!.live!.status).toBe('finished');
    // The retained state is drafted in the result's own transaction (the MQTT outbox): finished.
    const drafted = j
      .outboxStore(() => 0)
      .pending(100)
      .filter((m) => m.topic === stateTopic({ event: FINAL, round: 1, board: 1 }));
    expect(drafted.map((m) => JSON.parse(m.payload))).toEqual([expect.objectContaining({ status: 'finished', seq: 2, event: FINAL, board: 1 })]);

    for (const [type, method, path, payload] of CLOCK_COMMANDS) {
      const res = await app.inject({ method, url: `/api/boards/${id}/${path}`, headers: auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(409);
      expect(res.json().message, type).toMatch(
        new RegExp(
          `^board 1 of ${FINAL.replace(/[/]/g, '\\/')} round 1 has a result: the game is over \\(1-0, not confirmed yet\\): .* correct the result \\(PUT /api/boards/${id}/result\\)$`,
        ),
      );
      expect(j.arbiterActions().at(-1), type).toMatchObject({ action: type, arbiter: 'Chief Arbiter', outcome: 'rejected' });
    }
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/adjust`, headers: auth, payload: { side: 'white', ms: 60_000 } })).json().message).toBe(
      `board 1 of ${FINAL} round 1 has a result: the game is over (1-0, not confirmed yet): a time change changes nothing now; to change it, correct the result (PUT /api/boards/${id}/result)`,
    );
    // Confirmed: the same, and the correction needs a reason.
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth })).statusCode).toBe(200);
    for (const [type, method, path, payload] of CLOCK_COMMANDS) {
      const res = await app.inject({ method, url: `/api/boards/${id}/${path}`, headers: auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, type).toBe(409);
      expect(res.json().message, type).toContain(`(1-0, confirmed by Chief Arbiter)`);
      expect(res.json().message, type).toContain(`correct the result with a reason (PUT /api/boards/${id}/result with "result" and "reason")`);
    }
    expect(sent).toEqual([]);
    expect(j.eventsByGame(j.boardStates(FINAL)[0].game.gameId).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("FIDE Laws 8.7: a clock's result that differs from the recorded one waits beside it (both shown, who and when), never only in a log; the arbiter confirms one", async () => {
    const { j, host, app } = await setup();
    const gameId = j.boardStates(FINAL)[0].game.gameId;
    host.append(ev('clk-1', 1, 'started'));
    expect((await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: auth, payload: { result: '1-0' } })).statusCode).toBe(200);
    // The clock was offline: what the players keyed in (0-1, before the host's entry) arrives now.
    const keyed = host.append(ev('clk-1', 2, 'result', { detail: { result: '0-1', confirmedBy: 'players' } }));
    const filed = host.fileClockResult(keyed.id);
    expect(filed).toEqual({
      outcome: 'pending',
      log: `clock clk-1: result 0-1 for board 1 of ${FINAL} round 1 differs from the recorded 1-0 (arbiter:Chief Arbiter, not confirmed yet): pending result 1 waits for the arbiter`,
    });
    expect(host.fileClockResult(keyed.id).outcome).toBe('duplicate'); // filed once per clock event
    expect(j.getGame(gameId)).toMatchObject({ result: '1-0', reportedBy: 'arbiter:Chief Arbiter' });
    const listed = (await app.inject({ url: '/api/results?round=1' })).json();
    expect(listed.results[0]).toMatchObject({
      board: 1,
      result: '1-0',
      by: 'arbiter:Chief Arbiter',
      confirmed: false,
      reportedUtcMs: 1_750_000_200_000,
      conflicts: [{ id: 1, result: '0-1', by: 'clock', clockId: 'clk-1', atUtcMs: 1_750_000_002_000 }],
    });
    expect(listed.results[1]).toMatchObject({ board: 2, conflicts: [] });
    expect(listed.unassigned).toEqual([]);
    expect(host.board(id)).toMatchObject({ result: '1-0', pendingResults: [{ id: 1, result: '0-1', by: 'clock' }], live: { status: 'finished' } });
    // The same result from the clock adds nothing to decide.
    expect(host.fileClockResult(host.append(ev('clk-1', 3, 'result', { detail: { result: '1-0', confirmedBy: 'arbiter' } })).id)).toEqual({
      outcome: 'agreed',
      log: null,
    });

    // The arbiter decides: only a result someone reported can be adopted; a bad body names the field.
    const none = await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { result: '1/2-1/2' } });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(
      `board 1 of ${FINAL} round 1: no clock reported 1/2-1/2 for this game (the result is 1-0): to record 1/2-1/2, correct the result (PUT /api/boards/${id}/result)`,
    );
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { winner: 'black' } })).json()).toMatchObject({
      statusCode: 400,
      field: 'winner',
    });
    expect((await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { report: 'one' } })).json()).toMatchObject({
      statusCode: 400,
      field: 'report',
    });
    const confirm = await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: auth, payload: { result: '0-1' } });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json().board).toMatchObject({ result: '0-1', resultConfirmed: true });
    expect(confirm.json().board).not.toHaveProperty('pendingResults');
    expect(j.getGame(gameId)).toMatchObject({ result: '0-1', reportedBy: 'clock', confirmedBy: 'Chief Arbiter' });
    expect(j.arbiterActions(gameId).at(-1)).toMatchObject({
      action: 'confirm-result',
      arbiter: 'Chief Arbiter',
      payload: { result: '0-1', adopted: { id: 1, result: '0-1', reportedBy: 'clock' }, previous: { result: '1-0', reportedBy: 'arbiter:Chief Arbiter' } },
    });
    expect((await app.inject({ url: '/api/results?round=1' })).json().results[0]).toMatchObject({ result: '0-1', confirmed: true, conflicts: [] });
  });

  it('a result from a clock assigned to no game is kept as unassigned, listed for the arbiter apart from the games (and logged); the arbiter can adopt it for a board', async () => {
    const { j, host, app } = await setup();
    const stray = host.append(ev('clk-9', 5, 'result', { detail: { result: '1-0', confirmedBy: 'players' } }));
    const filed = host.fileClockResult(stray.id);
    expect(filed).toEqual({
      outcome: 'pending',
      log: 'clock clk-9: result 1-0 for no game (the clock is assigned to none): kept as unassigned result 1 for the arbiter (GET /api/results)',
    });
    const listed = (await app.inject({ url: '/api/results' })).json();
    expect(listed.unassigned).toEqual([{ id: 1, result: '1-0', by: 'clock', clockId: 'clk-9', atUtcMs: 1_750_000_005_000 }]);
    expect(listed.results.map((r: { board: number }) => r.board)).toEqual([1, 2]);
    // The arbiter finds where clk-9 stood: board 2. It becomes board 2's result, confirmed.
    const id2 = boardIdOf(FINAL, 2);
    const res = await app.inject({ method: 'POST', url: `/api/boards/${id2}/result/confirm`, headers: auth, payload: { report: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(j.boardStates(FINAL)[1].game).toMatchObject({ result: '1-0', reportedBy: 'clock', confirmedBy: 'Chief Arbiter' });
    expect((await app.inject({ url: '/api/results' })).json().unassigned).toEqual([]);
  });
});

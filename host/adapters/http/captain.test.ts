// The team match protocol over the API (docs/api.md "Captains"), on a real journal (SQLite) with
// round 1 of the Ivanovo "White Rook" 2018 team Swiss (docs/regulations.md: the captains sign the
// match protocol; the arbiter's confirmation is final). Round 1: Школа № 1 – Школа № 2 on boards
// 1-4 (match 1), Школа № 3 – Школа № 4 on boards 5-8 (match 2), Школа № 5 has the bye.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApi } from './api.ts';
import { parseTokenEntries, type CaptainToken } from './captain-tokens.ts';
import { Journal } from '../../store/journal.ts';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import type { Hall } from '../../domain/model.ts';
import { Director } from '../../app/director.ts';
import { boardIdOf, JournalPorts } from '../../app/journal-ports.ts';
import { TeamMatchProtocols } from '../../app/captains.ts';

const EVENT = 'ivanovo-2018';
const START = Date.UTC(2018, 1, 13, 12, 0);
const ARBITER = { arbiter: 'Главный судья', token: 'arbiter-token-0123456789abcdef' };
const CAPTAINS: CaptainToken[] = [
  { captain: 'Капитан Первой', event: EVENT, team: 1, token: 'captain-one-0123456789abcdef' },
  { captain: 'Капитан Второй', event: EVENT, team: 2, token: 'captain-two-0123456789abcdef' },
  { captain: 'Капитан Третьей', event: EVENT, team: 3, token: 'captain-three-0123456789abcdef' },
  { captain: 'Капитан Пятой', event: EVENT, team: 5, token: 'captain-five-0123456789abcdef' },
];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const [ONE, TWO, THREE, FIVE] = CAPTAINS.map((c) => bearer(c.token));
const ARB = bearer(ARBITER.token);
const RESULTS = ['1-0', '1/2-1/2', '0-1', '1/2-1/2'] as const;

let dir: string;
let journal: Journal;
let hall: Hall;
let now: number;
let app: FastifyInstance;

function loadHall(): Hall {
  return loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'captains-'));
  journal = new Journal(join(dir, 'clocks.db'));
  hall = loadHall();
  now = START - 10 * 60_000;
  new Director(journal, hall).openRound(EVENT, 1, now);
  const ports = new JournalPorts({ journal, hall, nowUtcMs: () => now });
  app = await buildApi({
    state: ports,
    commands: ports,
    tokens: [ARBITER],
    captains: CAPTAINS,
    teamMatches: new TeamMatchProtocols(journal, hall, () => now),
    nowUtcMs: () => now,
    dashboard: false,
  });
});
afterEach(async () => {
  await app.close();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const marks = () => journal.arbiterActions().filter((a) => a.action.startsWith('captain-') || a.action === 'match-confirm');
async function enterResults(results: readonly string[] = RESULTS): Promise<void> {
  for (const [i, result] of results.entries()) {
    const res = await app.inject({ method: 'PUT', url: `/api/boards/${boardIdOf(EVENT, i + 1)}/result`, headers: ARB, payload: { result } });
    expect(res.statusCode, res.body).toBe(200);
  }
}
const confirm = (headers: Record<string, string>, payload: object) => app.inject({ method: 'POST', url: '/api/captain/match/confirm', headers, payload });

describe('captains: their own team only (Ivanovo 2018: each captain signs the match protocol)', () => {
  it("GET /api/captain/match shows the captain's team's match of the open round; the bye team sees its bye; no token or a wrong one is 401", async () => {
    const res = await app.inject({ url: '/api/captain/match', headers: ONE });
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({ captain: 'Капитан Первой', event: EVENT, team: { id: 1, name: 'Школа № 1' }, round: 1, openedRounds: [1], bye: null });
    expect(view.match).toMatchObject({ id: `${EVENT}/r1/m1`, round: 1, match: 1, resultsIn: false, arbiter: null });
    expect(view.match.teams.map((t: { name: string; captain: unknown }) => [t.name, t.captain])).toEqual([
      ['Школа № 1', null],
      ['Школа № 2', null],
    ]);
    // FIDE team colours: Школа № 1 has White on boards 1 and 3.
    expect(view.match.boards.map((b: { board: number; white: { team: number } }) => [b.board, b.white.team])).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 2],
    ]);
    expect((await app.inject({ url: '/api/captain/match', headers: THREE })).json().match.teams.map((t: { id: number }) => t.id)).toEqual([3, 4]);
    expect((await app.inject({ url: '/api/captain/match', headers: FIVE })).json()).toMatchObject({
      team: { id: 5 },
      round: 1,
      match: null,
      bye: { kind: 'H' },
    });
    expect((await app.inject({ url: '/api/captain/match' })).statusCode).toBe(401);
    const wrong = await app.inject({ url: '/api/captain/match', headers: bearer('not-a-captain-0123456789') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('unknown captain token');
    expect((await app.inject({ url: '/api/captain/match?round=2', headers: ONE })).statusCode).toBe(404);
  });

  it('409 while a result of the match is not in, naming the boards; nothing is journaled', async () => {
    await enterResults(RESULTS.slice(0, 2));
    const res = await confirm(ONE, { round: 1, match: 1, results: ['1-0', '1/2-1/2'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/not every result is in \(boards 3, 4 still without a result\)/);
    expect(marks()).toEqual([]);
  });

  it("confirms its own team's match, journaled with the captain and the time; another team's match is 403; a captain's confirmation changes no result", async () => {
    await enterResults();
    const before = journal.gamesByRound(EVENT, 1);
    now = START + 3 * 3_600_000;
    const res = await confirm(ONE, { round: 1, match: 1, results: RESULTS });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, captain: 'Капитан Первой' });
    expect(res.json().match.teams[0]).toMatchObject({
      id: 1,
      points: 2,
      captain: { state: 'confirmed', captain: 'Капитан Первой', atUtcMs: now, results: RESULTS },
    });
    expect(res.json().match.teams[1]).toMatchObject({ id: 2, points: 2, captain: null });
    expect(marks()).toMatchObject([
      {
        action: 'captain-confirm',
        arbiter: 'captain:Капитан Первой',
        utcMs: now,
        event: EVENT,
        round: 1,
        outcome: 'applied',
        payload: { matchId: `${EVENT}/r1/m1`, team: 1, teamName: 'Школа № 1', results: RESULTS },
      },
    ]);
    // A result the captain signed is still the arbiter's: unchanged and still unconfirmed.
    expect(journal.gamesByRound(EVENT, 1)).toEqual(before);
    // The same confirmation again: nothing new to journal.
    expect((await confirm(ONE, { round: 1, match: 1, results: RESULTS })).json().unchanged).toBe(true);
    expect(marks()).toHaveLength(1);
    // Школа № 3's captain on match 1 (Школа № 1 – Школа № 2): 403, nothing journaled.
    const other = await confirm(THREE, { round: 1, match: 1, results: RESULTS });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toMatch(/not your team's match \(Школа № 3\)/);
    const dispute = await app.inject({ method: 'POST', url: '/api/captain/match/dispute', headers: THREE, payload: { round: 1, match: 1, reason: 'board 2' } });
    expect(dispute.statusCode).toBe(403);
    expect(marks()).toHaveLength(1);
    expect((await confirm(ONE, { round: 1, match: 9, results: RESULTS })).statusCode).toBe(404);
  });

  it('a dispute is taken while games are in play, and a later first result of a board does not void it', async () => {
    await enterResults(RESULTS.slice(0, 3));
    const res = await app.inject({
      method: 'POST',
      url: '/api/captain/match/dispute',
      headers: TWO,
      payload: { round: 1, match: 1, reason: 'Board 3: the clock was started before the round' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().match.teams[1].captain).toMatchObject({ state: 'disputed', results: ['1-0', '1/2-1/2', '0-1', null] });
    expect(
      (await app.inject({ method: 'POST', url: '/api/captain/match/dispute', headers: TWO, payload: { round: 1, match: 1, reason: '   ' } })).statusCode,
    ).toBe(422);
    expect(
      (await app.inject({ method: 'POST', url: '/api/captain/match/dispute', headers: TWO, payload: { round: 1, match: 1, reason: 'two\nlines' } })).json(),
    ).toMatchObject({ statusCode: 400, field: 'reason' });
    await enterResults(RESULTS);
    const [m] = (await app.inject({ url: `/api/team-matches?event=${EVENT}&round=1` })).json().matches;
    expect(m.teams[1].captain.state).toBe('disputed');
    expect(m.teams[1].captain.void).toBeUndefined();
    expect(marks().map((a) => a.action)).toEqual(['captain-dispute']);
  });

  it('a captain signs what they saw: results that changed since are a 409 naming the board', async () => {
    await enterResults();
    const res = await confirm(TWO, { round: 1, match: 1, results: ['1-0', '1-0', '0-1', '1/2-1/2'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/board 2 is 1\/2-1\/2 \(you saw 1-0\)/);
    expect((await confirm(TWO, { round: 1, match: 1, results: ['1-0'] })).statusCode).toBe(409);
    // A result that is not one of the vocabulary's, or a number sent as text: 400 naming the field.
    expect((await confirm(TWO, { round: 1, match: 1, results: ['1:0', '1-0', '0-1', '1-0'] })).json()).toMatchObject({ statusCode: 400, field: 'results.0' });
    expect((await confirm(TWO, { round: '1', match: 1, results: RESULTS })).json()).toMatchObject({ statusCode: 400, field: 'round' });
    expect(marks()).toEqual([]);
  });

  it("a captain's token never does an arbiter's action (403, not journaled); an arbiter's token is not a captain's (403)", async () => {
    await enterResults();
    const id = boardIdOf(EVENT, 1);
    const tries = [
      await app.inject({ method: 'PUT', url: `/api/boards/${id}/result`, headers: ONE, payload: { result: '0-1' } }),
      await app.inject({ method: 'POST', url: `/api/boards/${id}/result/confirm`, headers: ONE }),
      await app.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/matches/1/confirm`, headers: ONE }),
      await app.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/start`, headers: ONE }),
      await app.inject({ url: '/api/arbiter', headers: ONE }),
    ];
    for (const res of tries) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/captain Капитан Первой's token is a captain's: it cannot do arbiter actions/);
    }
    expect(journal.gamesByRound(EVENT, 1)[0]).toMatchObject({ result: '1-0', confirmedBy: null });
    expect(journal.arbiterActions().filter((a) => a.arbiter !== ARBITER.arbiter)).toEqual([]);
    const asArbiter = await confirm(ARB, { round: 1, match: 1, results: RESULTS });
    expect(asArbiter.statusCode).toBe(403);
    expect(marks()).toEqual([]);
  });
});

describe("the arbiter's confirmation of a team match is final", () => {
  async function confirmBoards(): Promise<void> {
    for (let b = 1; b <= 4; b++)
      expect((await app.inject({ method: 'POST', url: `/api/boards/${boardIdOf(EVENT, b)}/result/confirm`, headers: ARB })).statusCode).toBe(200);
  }
  const confirmMatch = (payload?: object) =>
    app.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/matches/1/confirm`, headers: ARB, ...(payload ? { payload } : {}) });

  it('taken without the captains (the journal records who had not confirmed); over a dispute only with a reason; after it a dispute is 409', async () => {
    await enterResults();
    const early = await confirmMatch();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/confirm the result of boards 1, 2, 3, 4 first/);
    await confirmBoards();
    await confirm(ONE, { round: 1, match: 1, results: RESULTS });
    const dispute = await app.inject({
      method: 'POST',
      url: '/api/captain/match/dispute',
      headers: TWO,
      payload: { round: 1, match: 1, reason: 'Board 2: the draw was offered after the flag fell' },
    });
    expect(dispute.statusCode, dispute.body).toBe(200);
    expect(dispute.json().match.teams[1].captain).toMatchObject({
      state: 'disputed',
      captain: 'Капитан Второй',
      reason: 'Board 2: the draw was offered after the flag fell',
    });
    // The dispute changes no result either.
    expect(
      journal
        .gamesByRound(EVENT, 1)
        .slice(0, 4)
        .map((g) => g.result),
    ).toEqual(RESULTS);
    const noReason = await confirmMatch();
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toMatch(/Школа № 2's captain Капитан Второй disputes it/);
    now += 60_000;
    const ok = await confirmMatch({ reason: 'Board 2: the flag fell after the draw was agreed (witness: deputy arbiter)' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().match.arbiter).toMatchObject({ arbiter: ARBITER.arbiter, atUtcMs: now, captainsConfirmed: { 1: true, 2: false } });
    expect(marks().at(-1)).toMatchObject({
      action: 'match-confirm',
      arbiter: ARBITER.arbiter,
      utcMs: now,
      payload: { captainsConfirmed: { 1: true, 2: false }, reason: expect.stringMatching(/^Board 2/) },
    });
    expect((await confirmMatch()).statusCode).toBe(409);
    const late = await app.inject({ method: 'POST', url: '/api/captain/match/dispute', headers: TWO, payload: { round: 1, match: 1, reason: 'again' } });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/confirmed the match at .* the result is final here/);
    // The dashboard's read: every open match with its protocol.
    const all = (await app.inject({ url: `/api/team-matches?event=${EVENT}` })).json().matches;
    expect(all.map((m: { id: string; arbiter: unknown }) => [m.id, m.arbiter !== null])).toEqual([
      [`${EVENT}/r1/m1`, true],
      [`${EVENT}/r1/m2`, false],
    ]);
  });

  it("after the arbiter corrects a result, the captains' earlier confirmations and the match confirmation are void, naming the correction", async () => {
    await enterResults();
    await confirmBoards();
    await confirm(ONE, { round: 1, match: 1, results: RESULTS });
    await confirm(TWO, { round: 1, match: 1, results: RESULTS });
    expect((await confirmMatch()).json().match.arbiter.captainsConfirmed).toEqual({ 1: true, 2: true });
    now += 5 * 60_000;
    const corrected = await app.inject({
      method: 'PUT',
      url: `/api/boards/${boardIdOf(EVENT, 2)}/result`,
      headers: ARB,
      payload: { result: '1-0', reason: 'score sheets: Black resigned' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const [m] = (await app.inject({ url: `/api/team-matches?event=${EVENT}&round=1` })).json().matches;
    const voided = { board: 2, from: '1/2-1/2', to: '1-0', arbiter: ARBITER.arbiter, atUtcMs: now };
    expect(m.teams[0].captain).toMatchObject({ state: 'confirmed', void: voided });
    expect(m.teams[1].captain).toMatchObject({ state: 'confirmed', void: voided });
    expect(m.arbiter).toBeNull();
    expect(m.arbiterVoid).toMatchObject({ arbiter: ARBITER.arbiter, void: voided });
    expect(m.teams.map((t: { points: number }) => t.points)).toEqual([1.5, 2.5]);
    // The captain confirms again what stands now.
    const again = await confirm(ONE, { round: 1, match: 1, results: ['1-0', '1-0', '0-1', '1/2-1/2'] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().match.teams[0].captain.void).toBeUndefined();
    // Everything is in the journal: a host restarted on the same file shows the same protocol.
    const before = (await app.inject({ url: `/api/team-matches?event=${EVENT}` })).json().matches;
    journal.close();
    journal = new Journal(join(dir, 'clocks.db'));
    expect(new TeamMatchProtocols(journal, loadHall(), () => now).matches({ event: EVENT })).toEqual(before);
  });
});

describe('captain tokens in the tokens file', () => {
  it('reads both roles, naming a bad entry and its field', () => {
    const text = JSON.stringify([ARBITER, CAPTAINS[0]]);
    expect(parseTokenEntries(text, 'tokens.json')).toEqual({ arbiters: [ARBITER], captains: [CAPTAINS[0]] });
    expect(() => parseTokenEntries('[{"captain":"A","event":"e","token":"x"}]', 'tokens.json')).toThrow(
      'tokens.json: entry 1 (A): "team" must be the team\'s id in the tournament file (a whole number ≥ 1)',
    );
    expect(() => parseTokenEntries('[{"captain":"A","arbiter":"B","token":"x"}]', 'tokens.json')).toThrow(/entry 1: "arbiter" and "captain" together/);
    expect(() => parseTokenEntries('[{"captain":"A","event":"e","team":1,"token":"x","role":"arbiter"}]', 'tokens.json')).toThrow(
      /entry 1: unknown field "role"/,
    );
  });

  it('the host refuses to start with a captain token of a team or event it does not have, or the same secret as an arbiter', async () => {
    const ports = new JournalPorts({ journal, hall, nowUtcMs: () => now });
    const protocols = new TeamMatchProtocols(journal, hall, () => now);
    const build = (captains: CaptainToken[]) =>
      buildApi({ state: ports, commands: ports, tokens: [ARBITER], captains, teamMatches: protocols, dashboard: false });
    await expect(build([{ ...CAPTAINS[0], team: 9 }])).rejects.toThrow(/captain Капитан Первой: event "ivanovo-2018" has no team 9/);
    await expect(build([{ ...CAPTAINS[0], event: 'slo-2007' }])).rejects.toThrow(/no event "slo-2007"/);
    await expect(build([{ ...CAPTAINS[0], token: ARBITER.token }])).rejects.toThrow(/the same token as arbiter Главный судья/);
  });
});

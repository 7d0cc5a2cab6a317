// Entries without a restart (docs/tournament.md "Entries"): a late entry, a withdrawal, a
// requested bye and a round's start time, made by an arbiter in a running host, each journaled
// with who made it; they reach the TRF the pairing engine reads (the absent players' field of the
// round to pair: TRF16 `0000 - Z` / `0000 - H`), the proposal and the round opened (their byes,
// its start), the TRF after the round (FIDE C.04 Annex 2, TRF16 codes Z and H with their points),
// and a host restarted on the journal. Each is refused, saying why, once its round is paired
// (proposed or opened), and leaves the journal and the tournament as they were.
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../store/journal.ts';
import { parseTournament } from '../domain/tournament-file.ts';
import type { TournamentEvent } from '../domain/model.ts';
import { Host } from './host.ts';
import { PROPOSE_ROUND, type RoundProposal } from './proposal-records.ts';
import { LATE_ENTRY, REQUESTED_BYE, ROUND_START, WITHDRAW } from './entries.ts';
import { journalNextRoundPairing } from '../adapters/exports/next-round.ts';
import { eventTrf } from '../adapters/exports/trf-event.ts';
import { ARBITER, addRoundToTrf, confirmRound, SWISS, stoppedClock, swissTournament } from './next-round.fixture.ts';

const journals: Journal[] = [];
const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  journals.splice(0).forEach((j) => j.close());
});

function startSwissHost(raw: unknown, journal = new Journal(':memory:')): { host: Host; journal: Journal; event: TournamentEvent } {
  if (!journals.includes(journal)) journals.push(journal);
  const hall = parseTournament(raw);
  const host = new Host({ journal, hall, clock: stoppedClock(), pairing: journalNextRoundPairing(journal, hall), log: () => undefined }).start();
  hosts.push(host);
  return { host, journal, event: hall.events[0] };
}

const by = { arbiter: ARBITER };
const ROUND2_START = Date.UTC(2026, 3, 5, 15, 0);
const playerLine = (trf: string, rank: number) => trf.split('\r\n').find((l) => l.startsWith('001') && Number(l.slice(4, 8)) === rank)!;
const entryActions = (j: Journal) => j.arbiterActions().filter((a) => [LATE_ENTRY, WITHDRAW, REQUESTED_BYE, ROUND_START].includes(a.action));

/** Round 1 of the fixture Swiss confirmed but for board 3 (1-5 1-0, 6-2 0-1; 3-7 still open): round 2 is not paired yet. */
async function beforeRound2(raw: unknown = swissTournament()) {
  const started = startSwissHost(raw);
  await confirmRound(started.host, 1, ['1-0', '0-1']);
  return started;
}

async function confirmBoard3(host: Host): Promise<void> {
  const b = host.state.boards().find((x) => x.event === SWISS && x.round === 1 && x.board === 3)!;
  expect((await host.execute({ type: 'result', boardId: b.id, result: '1/2-1/2' }, by)).ok).toBe(true);
  expect((await host.execute({ type: 'confirm-result', boardId: b.id }, by)).ok).toBe(true);
  await host.idle();
}

describe('entries in a running host reach the engine, the round, the TRF and a restarted host', () => {
  it('a late entrant, a withdrawal and a requested bye for round 2, and its start: journaled with the arbiter, in the TRF the engine pairs, in the round opened', async () => {
    const { host, journal, event } = await beforeRound2();
    const late = await host.enterEntry(SWISS, { type: 'late-entry', player: { name: 'Osmi, Igralec', rating: 2050, federation: 'SLO' } }, by);
    expect(late).toMatchObject({
      ok: true,
      entries: { nextRound: 2, lateEntries: [{ by: ARBITER, fromRound: 2, player: { rank: 8, name: 'Osmi, Igralec', rating: 2050 } }] },
    });
    expect(event.players.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await host.enterEntry(SWISS, { type: 'withdraw', player: 3 }, by)).toMatchObject({ ok: true });
    // No points given: the documented default, ½ (TRF16 H).
    expect(await host.enterEntry(SWISS, { type: 'bye', player: 5, round: 2 }, by)).toMatchObject({
      ok: true,
      entries: { byes: [{ player: { rank: 5, name: 'Peti, Igralec' }, round: 2, points: 0.5, kind: 'H', by: ARBITER }] },
    });
    expect(await host.enterEntry(SWISS, { type: 'round-start', round: 2, startUtcMs: ROUND2_START }, by)).toMatchObject({ ok: true });
    expect(entryActions(journal).map((a) => [a.action, a.arbiter, a.round])).toEqual([
      [LATE_ENTRY, ARBITER, 2],
      [WITHDRAW, ARBITER, 2],
      [REQUESTED_BYE, ARBITER, 2],
      [ROUND_START, ARBITER, 2],
    ]);

    // Round 1's last result: the engine pairs round 2 from a TRF that knows all of it.
    await confirmBoard3(host);
    const proposed = journal.arbiterActions().filter((a) => a.action === PROPOSE_ROUND)[0];
    const payload = proposed.payload as RoundProposal;
    const input = payload.engine!.input!;
    // The late entrant is a player, not paired in round 1 (a blank result); the absent players have round 2's field.
    expect(playerLine(input, 8)).toMatch(/^001 {4}8 .*Osmi, Igralec.* 2050 SLO.* 0000 - {2}$/);
    expect(playerLine(input, 3).slice(91)).toBe('   7 w =  0000 - Z');
    expect(playerLine(input, 5).slice(91)).toBe('   1 b 0  0000 - H');
    expect(playerLine(input, 1).slice(91)).toBe('   5 w 1'); // a present player: no round 2 field
    // The stand-in pairs the six present (scores 1: 1 2 4; ½: 7; 0: 6 8) and the absent players get their byes.
    expect(payload.round!.boards).toEqual([
      { board: 1, white: 2, black: 1 },
      { board: 2, white: 4, black: 7 },
      { board: 3, white: 8, black: 6 },
    ]);
    expect(payload.round!.byes).toEqual([
      { player: 3, team: null, kind: 'Z' },
      { player: 5, team: null, kind: 'H' },
    ]);
    expect(payload.round!.startUtcMs).toBe(ROUND2_START);

    expect(await host.approveRound(SWISS, 2, by)).toMatchObject({ ok: true });
    expect(event.rounds[1]).toMatchObject({ number: 2, startUtcMs: ROUND2_START, byes: payload.round!.byes });
    // The start reaches the boards: each of round 2's games may start from it (the board view's startsAtUtcMs).
    const round2 = host.state.boards().filter((b) => b.event === SWISS && b.round === 2);
    expect(round2.map((b) => b.startsAtUtcMs)).toEqual([ROUND2_START, ROUND2_START, ROUND2_START]);
    await confirmRound(host, 2, ['1-0', '1/2-1/2', '0-1']);
    await host.idle();
    // The TRF after round 2 (FIDE C.04 Annex 2): Z 0 points, H ½ (5: 0 + ½), the late entrant's loss (board 3, 0-1) after a round 1 not paired (blank).
    const trf = eventTrf(journal, host.hall, SWISS, { upToRound: 2 });
    expect(playerLine(trf, 3).slice(80, 84)).toBe(' 0.5');
    // Round 2's Z, and round 3's: the TRF of the last round paired tells the pairing program who is out of the next.
    expect(playerLine(trf, 3).slice(91)).toBe('   7 w =  0000 - Z  0000 - Z');
    expect(playerLine(trf, 5).slice(80, 84)).toBe(' 0.5');
    expect(playerLine(trf, 5).slice(91)).toBe('   1 b 0  0000 - H');
    expect(playerLine(trf, 8).slice(80, 84)).toBe(' 0.0');
    expect(playerLine(trf, 8).slice(91)).toBe('0000 -       6 w 0');

    // A host restarted on the journal: the late entrant, the round's byes and start, every entry with who made it.
    const again = startSwissHost(swissTournament(), journal);
    expect(again.event.players.find((p) => p.rank === 8)).toMatchObject({ name: 'Osmi, Igralec', rating: 2050 });
    expect(again.event.rounds[1]).toMatchObject({ startUtcMs: ROUND2_START, byes: payload.round!.byes });
    const view = again.host.entries(SWISS);
    expect(view).toMatchObject({
      ok: true,
      entries: {
        nextRound: 3,
        withdrawals: [{ player: { rank: 3 }, fromRound: 2, by: ARBITER }],
        roundStarts: [{ round: 2, startUtcMs: ROUND2_START, by: ARBITER }],
      },
    });
    // The withdrawn player stays out of round 3 too: the TRF for its pairing marks the absence.
    expect(playerLine(eventTrf(journal, again.host.hall, SWISS, { upToRound: 2 }), 3)).toMatch(/0000 - Z {2}0000 - Z$/);
  });

  it("a pairing program's TRF that pairs a withdrawn player is refused, naming the player and the withdrawal", async () => {
    const { host, journal } = await beforeRound2(swissTournament([], {}));
    expect(await host.enterEntry(SWISS, { type: 'withdraw', player: 3, fromRound: 2 }, by)).toMatchObject({ ok: true });
    await confirmBoard3(host);
    // Set the engine's proposal aside, then load a TRF that pairs player 3.
    expect(await host.rejectRound(SWISS, 2, 'pairing by hand', by)).toMatchObject({ ok: true });
    const before = eventTrf(journal, host.hall, SWISS, { upToRound: 1 });
    const stripped = before.replace(/(001 {4}3 .*?)0000 - Z$/m, '$1').replace(/ +(\r?)$/m, '$1');
    const trf = addRoundToTrf(
      stripped,
      1,
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      7,
    );
    const out = await host.proposeRoundFromTrf(SWISS, trf, by);
    expect(out).toMatchObject({ ok: false, status: 422 });
    expect(!out.ok && out.reason).toBe(`round 2 board 2 pairs player 3, who is absent: withdrew from round 2 on (${ARBITER})`);
  });
});

describe('an entry is refused once its round is paired, and a refusal changes nothing', () => {
  it('while round 2 is proposed: reject the proposal first; once it is opened: already paired', async () => {
    const { host, journal, event } = await beforeRound2();
    await confirmBoard3(host);
    const proposal = journal.arbiterActions().find((a) => a.action === PROPOSE_ROUND)!;
    const players = event.players.length;
    const actions = journal.arbiterActions().length;
    const proposed = `event "${SWISS}" round 2 is proposed (journal action ${proposal.id}, engine): reject the proposal first, then pair the round again`;
    for (const [command, what] of [
      [{ type: 'withdraw', player: 2 }, 'the withdrawal of player 2'],
      [{ type: 'bye', player: 2, round: 2, points: 0 }, 'the requested bye of player 2 in round 2'],
      [{ type: 'late-entry', player: { name: 'Osmi, Igralec' } }, 'the late entry of "Osmi, Igralec"'],
      [{ type: 'round-start', round: 2, startUtcMs: ROUND2_START }, 'the start of round 2'],
    ] as const)
      expect(await host.enterEntry(SWISS, command, by)).toEqual({ ok: false, status: 409, reason: `${what}: ${proposed}` });
    expect(event.players).toHaveLength(players);
    expect(journal.arbiterActions()).toHaveLength(actions);

    expect(await host.approveRound(SWISS, 2, by)).toMatchObject({ ok: true });
    expect(await host.enterEntry(SWISS, { type: 'bye', player: 2, round: 2 }, by)).toEqual({
      ok: false,
      status: 409,
      reason: `the requested bye of player 2 in round 2: event "${SWISS}" round 2 is already paired; an entry changes only rounds not paired yet`,
    });
    // Round 3 is not paired: a bye for it is taken.
    expect(await host.enterEntry(SWISS, { type: 'bye', player: 2, round: 3, points: 0 }, by)).toMatchObject({
      ok: true,
      entries: { byes: [{ round: 3, points: 0, kind: 'Z' }] },
    });
  });

  it('bad entries say what is wrong: the field, the player, the points, the round', async () => {
    const { host, journal } = await beforeRound2();
    const actions = journal.arbiterActions().length;
    const cases: [Parameters<Host['enterEntry']>[1], number, string][] = [
      [
        { type: 'late-entry', player: { name: 'A'.repeat(34), federation: 'Slovenia' } },
        422,
        `the late entry of "${'A'.repeat(34)}": player.name: longer than the 33 characters TRF16 allows (positions 15-47); player.federation: must be a 3-letter FIDE code, got "Slovenia"`,
      ],
      [
        { type: 'late-entry', player: { rank: 4, name: 'Osmi, Igralec' } },
        409,
        'the late entry of "Osmi, Igralec": starting rank 4 is Četrti, Igralec\'s (leave "rank" out for the next free one)',
      ],
      [{ type: 'withdraw', player: 9 }, 422, `the withdrawal of player 9: event "${SWISS}" has no player with starting rank 9`],
      [
        { type: 'bye', player: 2, round: 2, points: 0.25 },
        422,
        'the requested bye of player 2 in round 2: points must be 0, 0.5 or 1 (TRF16 byes Z, H, F), got 0.25',
      ],
      [{ type: 'bye', player: 2, round: 4 }, 422, `the requested bye of player 2 in round 4: event "${SWISS}" has rounds 1-3 (plannedRounds), not 4`],
      [
        { type: 'withdraw', player: 2, fromRound: 1 },
        409,
        `the withdrawal of player 2: event "${SWISS}" round 1 is already paired; an entry changes only rounds not paired yet`,
      ],
    ];
    for (const [command, status, reason] of cases) expect(await host.enterEntry(SWISS, command, by)).toEqual({ ok: false, status, reason });
    expect(await host.enterEntry('no-such', { type: 'withdraw', player: 1 }, by)).toMatchObject({ ok: false, status: 404 });
    expect(journal.arbiterActions()).toHaveLength(actions);
    // A player withdrawn cannot be withdrawn again, nor given a bye in a round after.
    expect(await host.enterEntry(SWISS, { type: 'withdraw', player: 2, fromRound: 2 }, by)).toMatchObject({ ok: true });
    expect(await host.enterEntry(SWISS, { type: 'withdraw', player: 2, fromRound: 3 }, by)).toEqual({
      ok: false,
      status: 409,
      reason: `the withdrawal of player 2: already withdrawn from round 2 on (by ${ARBITER})`,
    });
    expect(await host.enterEntry(SWISS, { type: 'bye', player: 2, round: 3 }, by)).toEqual({
      ok: false,
      status: 409,
      reason: `the requested bye of player 2 in round 3: player 2 is already absent from round 3: withdrew from round 2 on (${ARBITER})`,
    });
  });
});

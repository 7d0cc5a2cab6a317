// Pairing the next round of a Swiss event through an existing engine (docs/tournament.md "Pairing
// the next round"): after a round's last result is confirmed the host writes the event's TRF (tag
// 142 and XXR: the planned rounds), runs the engine with the JaVaFo / bbpPairings command line
// (`ENGINE --dutch in.trf -p out.txt`), files its pairings as PROPOSED and opens nothing until an
// arbiter approves them; every step is journaled (command, input TRF, output; the approval with the
// arbiter's name).
//
// The engine is a stand-in Node script (host/adapters/exports/fixtures/stand-in-pairing-engine.mjs)
// that follows bbpPairings' command line and files, refuses a TRF as bbpPairings does (no XXR/142,
// fewer planned rounds than played, a round field cut short) and has modes to fail on demand
// (non-zero exit, malformed output, a player paired twice, an unknown rank, a player left out, no
// end). The real bbpPairings pairs a Swiss through the host in test/trf-bbp-pairings.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../store/journal.ts';
import { parseTournament } from '../domain/tournament-file.ts';
import type { TournamentEvent } from '../domain/model.ts';
import { Host } from './host.ts';
import { NextRounds } from './next-round.ts';
import { APPROVE_ROUND, PROPOSE_ROUND, REJECT_ROUND, type RoundProposal } from './proposal-records.ts';
import { Director, DirectorError } from './director.ts';
import { journalNextRoundPairing } from '../adapters/exports/next-round.ts';
import { ARBITER, confirmRound, SWISS, STAND_IN_ENGINE, stoppedClock, swissBeforeRound1, swissTournament } from './next-round.fixture.ts';
import { runPairingEngine } from '../adapters/exports/next-round.ts';
import { eventTrf } from '../adapters/exports/trf-event.ts';

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

const proposals = (j: Journal) => j.arbiterActions().filter((a) => a.action === PROPOSE_ROUND);

describe("the next Swiss round through a pairing engine (stand-in following bbpPairings' command line)", () => {
  it("runs the engine once the round's last result is confirmed, files its pairings as proposed, and opens the round only on an arbiter's approval", async () => {
    const { host, journal, event } = startSwissHost(swissTournament());
    await confirmRound(host, 1, ['1-0', '0-1']);
    await host.idle();
    // Two of three boards confirmed: the round is not finished, the engine has not run.
    expect(proposals(journal)).toEqual([]);
    await confirmRound3(host);
    await host.idle();

    const [proposed] = proposals(journal);
    expect(proposed).toMatchObject({ arbiter: 'host', event: SWISS, round: 2, outcome: 'applied' });
    const payload = proposed.payload as RoundProposal;
    // The journal keeps the engine's command (as run), its input TRF and its output.
    expect(payload.engine!.command.slice(0, 3)).toEqual([process.execPath, STAND_IN_ENGINE, '--dutch']);
    expect(payload.engine!.command[3]).toMatch(/in\.trf$/);
    expect(payload.engine!.command.slice(4, 5)).toEqual(['-p']);
    expect(payload.engine!.exitCode).toBe(0);
    // TRF-2026 tag 142 / JaVaFo XXR: the planned total the engine checks the played rounds against.
    expect(payload.engine!.input).toMatch(/\r\n142 3\r\n/);
    expect(payload.engine!.input).toMatch(/\r\nXXR 3\r\n/);
    expect(payload.engine!.input).toMatch(/^001 {4}4 .* 0000 - U\r$/m);
    // Scores after round 1: 1, 2, 3 (won), 4 (bye) 1 point; the stand-in pairs 1-2, 3-4 (colours to fewer whites), 5-6, 7 the bye.
    expect(payload.engine!.output).toBe('4\n2 1\n4 3\n5 6\n7 0\n');
    expect(payload.round!.boards).toEqual([
      { board: 1, white: 2, black: 1 },
      { board: 2, white: 4, black: 3 },
      { board: 3, white: 5, black: 6 },
    ]);
    expect(payload.round!.byes).toEqual([{ player: 7, team: null, kind: 'U' }]);

    // Nothing opened without approval.
    expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
    expect(event.rounds).toHaveLength(1);
    const [view] = host.proposedRounds();
    expect(view).toMatchObject({ event: SWISS, round: 2, status: 'proposed', source: 'engine', by: 'host', canRunEngine: true });
    expect(view.boards[0]).toEqual({ board: 1, white: { rank: 2, name: 'Drugi, Igralec' }, black: { rank: 1, name: 'Prvi, Igralec' } });
    expect(view.byes).toEqual([{ kind: 'U', player: { rank: 7, name: 'Sedmi, Igralec' } }]);

    const approved = await host.approveRound(SWISS, 2, { arbiter: ARBITER });
    expect(approved).toMatchObject({ ok: true, round: 2 });
    expect(approved.ok && approved.boards).toHaveLength(3);
    expect(journal.arbiterActions().filter((a) => a.action === APPROVE_ROUND)).toEqual([
      expect.objectContaining({ arbiter: ARBITER, event: SWISS, round: 2, payload: { proposal: proposed.id }, outcome: 'applied' }),
    ]);
    // The engine's board order is kept: board 1 is its first pair.
    expect(journal.gamesByRound(SWISS, 2).map((g) => [g.board, g.whiteRank, g.blackRank])).toEqual([
      [1, 2, 1],
      [2, 4, 3],
      [3, 5, 6],
    ]);
    expect(event.rounds.map((r) => r.number)).toEqual([1, 2]);
    expect(host.proposedRounds()).toEqual([]);
    // A second approval has nothing to approve.
    expect(await host.approveRound(SWISS, 2, { arbiter: ARBITER })).toMatchObject({ ok: false, status: 409 });

    // A host restarted on the journal has the approved round, and runs no engine for it again.
    const again = startSwissHost(swissTournament(), journal);
    expect(again.event.rounds.map((r) => r.number)).toEqual([1, 2]);
    expect(again.event.rounds[1].boards).toEqual(event.rounds[1].boards);
    await again.host.idle();
    expect(proposals(journal)).toHaveLength(1);
  });

  describe('round 1 through the engine: no round in the tournament file', () => {
    /** FIDE C.04.3 round 1 of 7 players: 7 has the bye; 1 v 4, 2 v 5, 3 v 6, board 1's top player with the initial colour, alternating. */
    const dutchRound1 = (initial: string) =>
      initial === 'white'
        ? [
            { board: 1, white: 1, black: 4 },
            { board: 2, white: 5, black: 2 },
            { board: 3, white: 3, black: 6 },
          ]
        : [
            { board: 1, white: 4, black: 1 },
            { board: 2, white: 2, black: 5 },
            { board: 3, white: 6, black: 3 },
          ];

    it('the host pairs round 1 when it starts, from the TRF before round 1 (players, no round columns, XXR, the initial colour by lot in XXC), and opens it on approval', async () => {
      const { host, journal, event } = startSwissHost(swissBeforeRound1());
      await host.idle();
      const [proposed] = proposals(journal);
      expect(proposed).toMatchObject({ arbiter: 'host', event: SWISS, round: 1, outcome: 'applied' });
      const payload = proposed.payload as RoundProposal;
      // The lot is journaled with the run, and it is the XXC line the engine read.
      expect(['white', 'black']).toContain(payload.initialColour);
      expect(payload.initialColourDrawnBy).toBe('host');
      const input = payload.engine!.input!;
      expect(input.split('\r\n')).toEqual(expect.arrayContaining(['142 3', 'XXR 3'])); // the planned total: 3 rounds
      expect(input.split('\r\n')).toContain(`XXC ${payload.initialColour}1`);
      // TRF16 player records with no round field: they end at the rank column, 89.
      expect(
        input
          .split('\r\n')
          .filter((l) => l.startsWith('001'))
          .map((l) => l.length),
      ).toEqual([89, 89, 89, 89, 89, 89, 89]);
      expect(payload.round!.boards).toEqual(dutchRound1(payload.initialColour!));
      expect(payload.round!.byes).toEqual([{ player: 7, team: null, kind: 'U' }]);
      expect(payload.basis).toEqual([]);
      expect(host.proposedRounds()).toEqual([expect.objectContaining({ round: 1, status: 'proposed', initialColour: payload.initialColour })]);
      // Nothing opened before the approval.
      expect(event.rounds).toEqual([]);
      expect(journal.gamesByEvent(SWISS)).toEqual([]);

      expect(await host.approveRound(SWISS, 1, { arbiter: ARBITER })).toMatchObject({ ok: true, round: 1 });
      expect(journal.gamesByRound(SWISS, 1).map((g) => ({ board: g.board, white: g.whiteRank, black: g.blackRank }))).toEqual(
        dutchRound1(payload.initialColour!),
      );
      expect(event.rounds.map((r) => r.number)).toEqual([1]);
      expect(host.state.boards().filter((b) => b.event === SWISS && b.round === 1)).toHaveLength(3);

      // After round 1 the engine pairs round 2 from its results, as before (and the TRF has no XXC: round 1's colours say it).
      await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
      await host.idle();
      const round2 = proposals(journal).at(-1)!;
      expect(round2).toMatchObject({ round: 2, outcome: 'applied' });
      expect((round2.payload as RoundProposal).engine!.input).not.toMatch(/XXC/);

      // A host restarted on the journal has round 1 from it, and does not pair it again.
      const again = startSwissHost(swissBeforeRound1(), journal);
      await again.host.idle();
      expect(again.event.rounds[0].boards).toEqual(dutchRound1(payload.initialColour!));
      expect(proposals(journal)).toHaveLength(2);
    });

    it('a re-run of round 1 keeps the lot drawn for the first run (no drawing again until the colours suit someone)', async () => {
      const { host, journal } = startSwissHost(swissBeforeRound1());
      await host.idle();
      const first = (proposals(journal)[0].payload as RoundProposal).initialColour;
      for (let i = 0; i < 3; i++)
        expect(await host.runPairingEngine(SWISS, { arbiter: ARBITER })).toMatchObject({
          ok: true,
          proposal: { round: 1, status: 'proposed', initialColour: first },
        });
      expect(proposals(journal).map((p) => (p.payload as RoundProposal).initialColour)).toEqual([first, first, first, first]);
    });

    it("the lot is drawn by the host (injected here: 0 White, 1 Black) and decides board 1's colours", async () => {
      for (const [lot, colour] of [
        [0, 'white'],
        [1, 'black'],
      ] as const) {
        const journal = new Journal(':memory:');
        journals.push(journal);
        const hall = parseTournament(swissBeforeRound1());
        const next = new NextRounds({
          journal,
          hall,
          pairing: journalNextRoundPairing(journal, hall),
          openRound: () => undefined,
          nowUtcMs: () => 0,
          log: () => undefined,
          drawLot: () => lot,
        });
        const view = await next.runEngine(SWISS, 'host');
        expect(view).toMatchObject({ round: 1, status: 'proposed', initialColour: colour });
        expect(view.boards.map((b) => [b.white.rank, b.black.rank])).toEqual(dutchRound1(colour).map((b) => [b.white, b.black]));
      }
    });

    it("the arbiter's own draw (pairingEngine.initialColour in the tournament file) is used instead of the host's, and journaled as the arbiter's", async () => {
      const { host, journal } = startSwissHost(swissBeforeRound1([], { initialColour: 'black' }));
      await host.idle();
      const payload = proposals(journal)[0].payload as RoundProposal;
      expect([payload.initialColour, payload.initialColourDrawnBy]).toEqual(['black', 'arbiter']);
      expect(payload.engine!.input!.split('\r\n')).toContain('XXC black1');
      expect(payload.round!.boards).toEqual(dutchRound1('black'));
      expect(host.proposedRounds()).toEqual([expect.objectContaining({ initialColour: 'black', initialColourDrawnBy: 'arbiter' })]);
    });

    it('the stand-in refuses the file before round 1 without an initial colour, as bbpPairings does ("Please configure the initial piece colors", exit 3)', async () => {
      const journal = new Journal(':memory:');
      journals.push(journal);
      const hall = parseTournament(swissBeforeRound1());
      const run = await runPairingEngine(hall.events[0].pairingEngine!, eventTrf(journal, hall, SWISS, { upToRound: 0 }));
      expect(run).toMatchObject({ exitCode: 3, output: null });
      expect(run.error).toMatch(/Please configure the initial piece colors/);
    });
  });

  it('a host started on a journal whose last round is confirmed and nothing proposed runs the engine (it stopped before it could)', async () => {
    const journal = new Journal(':memory:');
    const hall = parseTournament(swissTournament());
    // Round 1 played and confirmed by a host without the pairing side (as if it stopped there).
    const bare = new Host({ journal, hall, clock: stoppedClock(), log: () => undefined }).start();
    hosts.push(bare);
    await confirmRound(bare, 1, ['1-0', '0-1', '1/2-1/2']);
    await bare.idle();
    expect(proposals(journal)).toEqual([]);
    const { host } = startSwissHost(swissTournament(), journal);
    await host.idle();
    expect(proposals(journal)).toEqual([expect.objectContaining({ arbiter: 'host', round: 2, outcome: 'applied' })]);
  });

  it('an approval the director refuses rolls back whole: no approval journaled, no round added, no game', async () => {
    const { host, journal, event } = startSwissHost(swissTournament(['--mode=exit']));
    await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
    await host.idle();
    const round2 = {
      number: 2,
      date: null,
      startUtcMs: null,
      boards: [
        { board: 1, white: 2, black: 1 },
        { board: 2, white: 4, black: 3 },
        { board: 3, white: 5, black: 6 },
      ],
      teamMatches: [],
      knockout: [],
      byes: [{ player: 7, team: null, kind: 'U' as const }],
    };
    const director = new Director(journal, host.hall);
    const next = new NextRounds({
      journal,
      hall: host.hall,
      nowUtcMs: () => 0,
      log: () => undefined,
      pairing: { runEngine: () => Promise.reject(new Error('not used')), roundFromTrf: () => round2 },
      openRound: (eventId, round, now) => {
        director.openRound(eventId, round, now); // the games are created …
        throw new DirectorError('refused after the games were written'); // … and the director refuses after all
      },
    });
    next.proposeFromTrf(SWISS, 'TRF', ARBITER);
    expect(() => next.approve(SWISS, 2, ARBITER)).toThrow(/refused after the games were written/);
    expect(event.rounds.map((r) => r.number)).toEqual([1]);
    expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
    expect(journal.arbiterActions().filter((a) => a.action === APPROVE_ROUND)).toEqual([]);
    expect(next.views()).toEqual([expect.objectContaining({ status: 'proposed', source: 'trf' })]);
  });

  it('a host stopped while its engine runs kills the engine at once, files nothing, and the next host runs it again', async () => {
    const journal = new Journal(':memory:');
    const hall = parseTournament(swissTournament(['--mode=hang'], { timeoutSeconds: 600 }));
    const host = new Host({ journal, hall, clock: stoppedClock(), pairing: journalNextRoundPairing(journal, hall), log: () => undefined }).start();
    await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
    expect(host.proposedRounds()).toEqual([expect.objectContaining({ status: 'running', round: 2 })]);
    await host.close(); // bounded by the test's timeout, far below the engine's 600 s limit
    expect(proposals(journal)).toEqual([]);
    const { host: next } = startSwissHost(swissTournament(), journal);
    await next.idle();
    expect(proposals(journal)).toEqual([expect.objectContaining({ outcome: 'applied', round: 2 })]);
  }, 20_000);

  it('the arbiter rejects the proposal (journaled with why); Re-run runs the engine again and files new pairings', async () => {
    const { host, journal } = startSwissHost(swissTournament());
    await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
    await host.idle();
    expect(await host.rejectRound(SWISS, 2, 'player 3 withdrew', { arbiter: ARBITER })).toMatchObject({ ok: true });
    expect(journal.arbiterActions().filter((a) => a.action === REJECT_ROUND)).toEqual([
      expect.objectContaining({ arbiter: ARBITER, round: 2, reason: 'player 3 withdrew' }),
    ]);
    expect(host.proposedRounds()).toEqual([
      expect.objectContaining({ status: 'rejected', rejected: expect.objectContaining({ by: ARBITER, reason: 'player 3 withdrew' }) }),
    ]);
    expect(await host.approveRound(SWISS, 2, { arbiter: ARBITER })).toMatchObject({
      ok: false,
      status: 409,
      reason: expect.stringMatching(/no proposed pairings for round 2/),
    });
    const rerun = await host.runPairingEngine(SWISS, { arbiter: ARBITER });
    expect(rerun).toMatchObject({ ok: true, proposal: { status: 'proposed', by: ARBITER } });
    expect(proposals(journal)).toHaveLength(2);
    // A Re-run over a pending proposal rejects it first, journaled.
    expect(await host.runPairingEngine(SWISS, { arbiter: ARBITER })).toMatchObject({ ok: true });
    expect(
      journal
        .arbiterActions()
        .filter((a) => a.action === REJECT_ROUND)
        .at(-1),
    ).toMatchObject({ reason: `re-run of the pairing engine by ${ARBITER}` });
    expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
  });

  it('refuses to approve pairings made from results that changed since (FIDE Laws 8.7: a corrected result changes the scores the pairing used)', async () => {
    const { host, journal } = startSwissHost(swissTournament());
    await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
    await host.idle();
    const board3 = host.state.boards().find((b) => b.event === SWISS && b.round === 1 && b.board === 3)!;
    expect((await host.execute({ type: 'result', boardId: board3.id, result: '1-0', reason: 'scoresheet checked' }, { arbiter: ARBITER })).ok).toBe(true);
    expect((await host.execute({ type: 'confirm-result', boardId: board3.id }, { arbiter: ARBITER })).ok).toBe(true);
    const refused = await host.approveRound(SWISS, 2, { arbiter: ARBITER });
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      reason: expect.stringMatching(/results changed since round 2 was proposed \(round 1 board 3: 1\/2-1\/2, now 1-0\)/),
    });
    expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
  });

  describe('a failing engine leaves the previous state intact and says why (its exit code and stderr journaled)', () => {
    const cases: [string, string[], Record<string, unknown>, RegExp][] = [
      ['a non-zero exit', ['--mode=exit'], {}, /the pairing engine exited with code 3: Error: no valid pairing exists/],
      ['malformed output', ['--mode=garbage'], {}, /pairs file: line 1 announces 4 pairs, 1 follow/],
      ['a player paired twice', ['--mode=twice'], {}, /pairs file line 3: player 2 is paired twice/],
      ['an unknown starting rank', ['--mode=unknown'], {}, /pairs file line 2: player 99 is not in event "open-swiss" \(starting ranks 1-7\)/],
      [
        'a player left out',
        ['--mode=missing'],
        {},
        /pairs file: player 6 \(Šesti, Igralec\) not paired; every player of the TRF must be paired or get the bye/,
      ],
      ['no pairs file', ['--mode=none'], {}, /the pairing engine wrote no pairs file/],
      ['no end within the time limit', ['--mode=hang'], { timeoutSeconds: 1 }, /the pairing engine stopped after the time limit of 1 s \(SIGKILL\)/],
    ];
    it('an engine that cannot be started (no such program)', async () => {
      const raw = swissTournament();
      raw.events[0].pairingEngine.command = ['/nonexistent/bbpPairings.exe', '--dutch'];
      const { host, journal } = startSwissHost(raw);
      await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
      await host.idle();
      expect(proposals(journal)).toEqual([
        expect.objectContaining({
          outcome: 'rejected',
          reason: 'the pairing engine could not run "/nonexistent/bbpPairings.exe": spawn /nonexistent/bbpPairings.exe ENOENT',
        }),
      ]);
      expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
    });

    for (const [what, args, extra, message] of cases) {
      it(what, async () => {
        const { host, journal, event } = startSwissHost(swissTournament(args, extra));
        await confirmRound(host, 1, ['1-0', '0-1', '1/2-1/2']);
        await host.idle();
        const [failed] = proposals(journal);
        expect(failed).toMatchObject({ outcome: 'rejected', round: 2, reason: expect.stringMatching(message) });
        const payload = failed.payload as RoundProposal;
        expect(payload.round).toBeNull();
        expect(payload.engine!.input).toMatch(/XXR 3/);
        if (what === 'a non-zero exit')
          expect(payload.engine).toMatchObject({ exitCode: 3, stderr: 'Error: no valid pairing exists (stand-in --mode=exit)\n' });
        expect(host.proposedRounds()).toEqual([expect.objectContaining({ status: 'failed', reason: failed.reason })]);
        // Nothing changed: no round 2, and nothing to approve.
        expect(event.rounds).toHaveLength(1);
        expect(journal.gamesByRound(SWISS, 2)).toEqual([]);
        expect(await host.approveRound(SWISS, 2, { arbiter: ARBITER })).toMatchObject({ ok: false, status: 409 });
        // Not run again by itself (a restart neither): the arbiter fixes the cause and presses Re-run.
        await startSwissHost(swissTournament(args, extra), journal).host.idle();
        expect(proposals(journal)).toHaveLength(1);
      }, 20_000);
    }
  });
});

/** Board 3 of round 1, the round's last result. */
async function confirmRound3(host: Host): Promise<void> {
  const b = host.state.boards().find((x) => x.event === SWISS && x.round === 1 && x.board === 3)!;
  await host.execute({ type: 'result', boardId: b.id, result: '1-0' }, { arbiter: ARBITER });
  await host.execute({ type: 'confirm-result', boardId: b.id }, { arbiter: ARBITER });
}

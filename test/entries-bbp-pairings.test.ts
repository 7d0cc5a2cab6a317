// Entries through the real pairing engine (docs/tournament.md "Entries"): bbpPairings (FIDE-endorsed,
// built from its source tarball by test/bbp-pairings.fixture.ts, or skipped saying why; never under
// CI) pairs round 2 from the TRF the host writes after a late entry, a withdrawal and a requested
// half-point bye: it reads the absent players' `0000 - Z` / `0000 - H` field of the round it pairs as
// "not to be paired" (the TRF convention bbpPairings and JaVaFo share), pairs the late entrant, and
// the host files the absent players' byes with its pairs.
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { Host } from '../host/app/host.ts';
import { journalNextRoundPairing } from '../host/adapters/exports/next-round.ts';
import { ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { bbpPairings } from './bbp-pairings.fixture.ts';

const bbp = bbpPairings();
if (bbp.skip) console.warn(`skipping the entries test with bbpPairings: ${bbp.skip}`);

const hosts: Host[] = [];
const journals: Journal[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  journals.splice(0).forEach((j) => j.close());
});

describe.skipIf(bbp.skip !== undefined)('entries through bbpPairings (built from its source)', () => {
  it('pairs round 2 without the withdrawn player and the one with a requested bye, and with the late entrant', async () => {
    const raw = swissTournament();
    raw.events[0].pairingEngine = { command: [bbp.exe!, '--dutch'] } as (typeof raw.events)[0]['pairingEngine'];
    const journal = new Journal(':memory:');
    journals.push(journal);
    const hall = parseTournament(raw);
    const host = new Host({ journal, hall, clock: stoppedClock(), pairing: journalNextRoundPairing(journal, hall), log: () => undefined }).start();
    hosts.push(host);
    const by = { arbiter: ARBITER };
    await confirmRound(host, 1, ['1-0', '0-1']);
    expect(await host.enterEntry(SWISS, { type: 'late-entry', player: { name: 'Osmi, Igralec', rating: 2050 } }, by)).toMatchObject({ ok: true });
    expect(await host.enterEntry(SWISS, { type: 'withdraw', player: 3 }, by)).toMatchObject({ ok: true });
    expect(await host.enterEntry(SWISS, { type: 'bye', player: 5, round: 2 }, by)).toMatchObject({ ok: true });
    const board3 = host.state.boards().find((b) => b.event === SWISS && b.round === 1 && b.board === 3)!;
    expect((await host.execute({ type: 'result', boardId: board3.id, result: '1/2-1/2' }, by)).ok).toBe(true);
    expect((await host.execute({ type: 'confirm-result', boardId: board3.id }, by)).ok).toBe(true);
    await host.idle();

    const [proposal] = host.proposedRounds();
    expect(proposal, JSON.stringify(proposal)).toMatchObject({ round: 2, status: 'proposed', source: 'engine' });
    const paired = proposal.boards.flatMap((b) => [b.white.rank, b.black.rank]).sort((a, b) => a - b);
    // Six present players, three boards: the late entrant in, the absent players out.
    expect(paired).toEqual([1, 2, 4, 6, 7, 8]);
    expect(proposal.byes.map((b) => [b.player?.rank, b.kind])).toEqual([
      [3, 'Z'],
      [5, 'H'],
    ]);
  }, 60_000);
});

// The next round of a Swiss event on the arbiter dashboard, in a real Chromium (Debian package
// `chromium`, driven by playwright-core) against a host composed by host/start-host.ts on a SQLite
// journal: after round 1's last confirmation the pairing engine's proposal appears for a signed-in
// arbiter (and not on the public view), Approve opens the round (its boards appear, the approval
// journaled with the arbiter's name); after round 2 the arbiter rejects the engine's proposal with
// a reason and loads a pairing program's TRF through the file picker instead, then approves it.
// The engine is a stand-in script following bbpPairings' command line, failing on demand
// (host/adapters/exports/fixtures/stand-in-pairing-engine.mjs; the real bbpPairings:
// test/trf-bbp-pairings.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { APPROVE_ROUND, PROPOSE_ROUND, REJECT_ROUND, type RoundProposal } from '../host/app/proposal-records.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { ARTIFACTS, launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the next-round dashboard test');

const TOKEN = 'next-round-browser-arbiter-token';
/** Generous bounds for what the page shows after the host answers (a loaded 2-core machine; the page asks every 5 s). */
const WAIT = { timeout: 15_000 };

describe.skipIf(SKIP_BROWSER)('the next round on the dashboard in Chromium (Debian package `chromium`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessclock-next-round-'));
  let browser: Browser;
  let running: RunningHost;
  const errors: string[] = [];

  beforeAll(async () => {
    running = await startHost({
      journal: join(dir, 'journal.sqlite'),
      hall: parseTournament(swissTournament()),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }] },
      log: () => undefined,
    });
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(path: string): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    p.setDefaultTimeout(10_000);
    p.on('pageerror', (err) => errors.push(err.message));
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await p.goto(running.url + path);
    await p.locator('#connection[data-state="live"]').waitFor();
    return p;
  }

  it("shows the engine's proposal to the signed-in arbiter only; Approve opens the round; Reject and a TRF from the file picker replace the next one", async () => {
    const { host, journal } = running;
    await confirmRound(host, 1, ['1-0', '0-1', '1-0']);
    await host.idle();

    const publicPage = await openPage('/public');
    expect(await publicPage.locator('#next-round').count()).toBe(0);

    const page = await openPage('/');
    // Not signed in: nothing of the next round shows.
    expect(await page.locator('#next-round').isHidden()).toBe(true);
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    const proposal = page.locator(`#next-round .proposal[data-event="${SWISS}"]`);
    await expect.poll(() => proposal.getAttribute('data-status'), WAIT).toBe('proposed');
    expect(await proposal.locator('h3').innerText()).toBe(`${SWISS} round 2: proposed by the pairing engine, waiting for approval`);
    // The engine's pairs, board 1 first (as host/app/next-round.test.ts): 2-1, 4-3, 5-6, 7 the bye.
    expect(await proposal.locator('tr').allInnerTexts()).toEqual([
      'Board\tWhite\tBlack',
      '1\tDrugi, Igralec (2)\tPrvi, Igralec (1)',
      '2\tČetrti, Igralec (4)\tTretji, Igralec (3)',
      '3\tPeti, Igralec (5)\tŠesti, Igralec (6)',
    ]);
    expect(await proposal.innerText()).toContain('bye (U): Sedmi, Igralec (7)');
    expect(journal.gamesByRound(SWISS, 2)).toEqual([]);

    await proposal.locator('button[data-action="approve-round"]').click();
    await expect.poll(() => journal.gamesByRound(SWISS, 2).length, WAIT).toBe(3);
    expect(journal.arbiterActions().filter((a) => a.action === APPROVE_ROUND)).toEqual([expect.objectContaining({ arbiter: ARBITER, round: 2 })]);
    // The round's boards reach the page over the live feed; the card is gone.
    await expect.poll(() => page.locator('#events .event-round').allInnerTexts(), WAIT).toEqual(['round 2']);
    await expect.poll(() => page.locator('#next-round .proposal').count(), WAIT).toBe(0);

    // Round 2 played: the engine proposes round 3; the arbiter rejects it, saying why.
    await confirmRound(host, 2, ['1/2-1/2', '1-0', '0-1']);
    await host.idle();
    await expect.poll(() => proposal.getAttribute('data-status'), WAIT).toBe('proposed');
    await proposal.locator('input').fill('player 7 asked for a bye');
    await proposal.locator('button[data-action="reject-round"]').click();
    await expect.poll(() => proposal.getAttribute('data-status'), WAIT).toBe('rejected');
    expect(await proposal.locator('h3').innerText()).toBe(
      `${SWISS} round 3: pairings from the pairing engine rejected by ${ARBITER} (player 7 asked for a bye)`,
    );
    expect(journal.arbiterActions().filter((a) => a.action === REJECT_ROUND)).toEqual([
      expect.objectContaining({ arbiter: ARBITER, round: 3, reason: 'player 7 asked for a bye' }),
    ]);

    // The arbiter's own pairing program: its TRF through the file picker (the engine's boards, player 7 out with a bye).
    const engine = (
      journal
        .arbiterActions()
        .filter((a) => a.action === PROPOSE_ROUND)
        .at(-1)!.payload as RoundProposal
    ).round!;
    const pairs = engine.boards.map((b) => [b.white, b.black] as const);
    const trf = addRoundToTrf(running.exports.trf(SWISS, 2), 2, pairs, engine.byes[0].player);
    await page.selectOption('#next-round select[name="event"]', SWISS);
    await page.setInputFiles('#next-round input[type="file"]', { name: 'round3.trf', mimeType: 'text/plain', buffer: Buffer.from(trf, 'utf8') });
    await page.click('#next-round .load-trf button[type="submit"]');
    await expect
      .poll(() => page.locator('#next-round .load-trf .message').innerText(), WAIT)
      .toBe(`round 3 loaded by ${ARBITER}: check the pairings, then approve`);
    await expect.poll(() => proposal.locator('h3').innerText(), WAIT).toBe(`${SWISS} round 3: proposed by a TRF loaded by ${ARBITER}, waiting for approval`);
    await proposal.locator('button[data-action="approve-round"]').click();
    await expect.poll(() => journal.gamesByRound(SWISS, 3).length, WAIT).toBe(pairs.length);
    expect(
      journal
        .arbiterActions()
        .filter((a) => a.action === PROPOSE_ROUND)
        .at(-1),
    ).toMatchObject({ arbiter: ARBITER, payload: expect.objectContaining({ source: 'trf', trf }) });
    await page.screenshot({ path: join(ARTIFACTS, 'next-round.png') });
    expect(errors).toEqual([]);
  }, 60_000);

  it('a pairs list (bbpPairings/JaVaFo -p) through its file picker, with the TRF it was paired from: proposed as "a pairs list", then approved (docs/tournament.md "An event with an outside pairing program")', async () => {
    const other = await startHost({
      journal: join(dir, 'pairs-journal.sqlite'),
      hall: parseTournament(swissTournament(['--mode=exit'])),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }] },
      log: () => undefined,
    });
    try {
      await confirmRound(other.host, 1, ['1-0', '0-1', '1-0']);
      await other.host.idle(); // the engine fails (--mode=exit): the organiser's own program pairs round 2
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(10_000);
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(other.url + '/');
      await page.locator('#connection[data-state="live"]').waitFor();
      await page.fill('#token', TOKEN);
      await page.click('#token-form button[type="submit"]');
      await page.locator('#next-round').waitFor();
      await page.selectOption('#next-round select[name="event"]', SWISS);
      const text = (t: string) => ({ mimeType: 'text/plain', buffer: Buffer.from(t, 'utf8') });
      await page.setInputFiles('#next-round input[name="file"]', { name: 'after-round-1.trf', ...text(other.exports.trf(SWISS, 1)) });
      await page.setInputFiles('#next-round input[name="pairs"]', { name: 'round2.txt', ...text('4\n2 1\n4 3\n5 6\n7 0\n') });
      await page.click('#next-round .load-trf button[type="submit"]');
      await expect
        .poll(() => page.locator('#next-round .load-trf .message').innerText(), WAIT)
        .toBe(`round 2 loaded by ${ARBITER}: check the pairings, then approve`);
      const proposal = page.locator(`#next-round .proposal[data-event="${SWISS}"]`);
      await expect
        .poll(() => proposal.locator('h3').innerText(), WAIT)
        .toBe(`${SWISS} round 2: proposed by a pairs list loaded by ${ARBITER}, waiting for approval`);
      expect(await proposal.locator('tr').allInnerTexts()).toEqual([
        'Board\tWhite\tBlack',
        '1\tDrugi, Igralec (2)\tPrvi, Igralec (1)',
        '2\tČetrti, Igralec (4)\tTretji, Igralec (3)',
        '3\tPeti, Igralec (5)\tŠesti, Igralec (6)',
      ]);
      await proposal.locator('button[data-action="approve-round"]').click();
      await expect.poll(() => other.journal.gamesByRound(SWISS, 2).length, WAIT).toBe(3);
      expect(other.journal.arbiterActions().filter((a) => a.action === PROPOSE_ROUND && a.outcome === 'applied')).toEqual([
        expect.objectContaining({ arbiter: ARBITER, round: 2, payload: expect.objectContaining({ source: 'pairs', pairs: '4\n2 1\n4 3\n5 6\n7 0\n' }) }),
      ]);
      expect(errors).toEqual([]);
    } finally {
      await other.close();
    }
  }, 60_000);
});

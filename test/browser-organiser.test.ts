// The dashboard for the organiser between rounds, in a real Chromium (Debian package `chromium`,
// playwright-core) against hosts composed by host/start-host.ts (docs/dashboard.md "Attention",
// "The next round", "Pending results"):
// - the attention strip lists a Swiss round that waits for pairings, then the proposal that waits
//   for approval ("No board needs the arbiter" was all it said before); a click on the item closes
//   an open board panel and brings the next-round box into view;
// - an open board panel does not cover the box's Approve (1280×900);
// - the box links the round in play's pairings list and table cards for print;
// - a hall of knockouts gets no next-round box, and a mixed hall does not offer a knockout in it;
// - in the 200-board hall with 45 results waiting, the pending box is folded to one line and the
//   first board is on a phone's first screen (390×844).
// The engine is the stand-in script with bbpPairings' command line (no real engine can be installed here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { GENERATED, HALL_ARBITER, startDashboardHall } from './dashboard-hall.ts';

skipMessage('the organiser dashboard browser test');

const TOKEN = 'organiser-browser-arbiter-token-0123';
const WAIT = { timeout: 15_000 };
const SLOVENIAN = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));

describe.skipIf(SKIP_BROWSER)('the organiser on the dashboard in Chromium (Debian package `chromium`)', () => {
  let browser: Browser;
  const hosts: RunningHost[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const h of hosts) await h.close();
  });

  async function host(raw: unknown): Promise<RunningHost> {
    const r = await startHost({
      journal: new Journal(':memory:'),
      hall: parseTournament(raw),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }] },
      log: () => undefined,
    });
    hosts.push(r);
    return r;
  }

  async function signedIn(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);
    await page.locator('#connection[data-state="live"]').waitFor();
    const asked = page.waitForResponse((res) => res.url().endsWith('/api/rounds/proposed') && res.status() === 200);
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await asked;
    return page;
  }

  const strip = (page: Page) =>
    page.$$eval('#attention li', (lis) => lis.map((li) => [li.getAttribute('data-kind'), li.querySelector('.attention-text')?.textContent]));

  it('the strip lists the round that waits for pairings, then the proposal to approve; the panel never covers Approve; the box links the pages for print', async () => {
    const r = await host(swissTournament(['--mode=exit']));
    const page = await signedIn(r.url!);
    // Round 1 in play: its pages for print are linked from the box.
    const links = page.locator('#next-round .print-links a');
    await expect
      .poll(() => links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), WAIT)
      .toEqual([`/events/${SWISS}/pairings.html?round=1`, `/events/${SWISS}/cards.html?round=1`]);
    expect((await page.request.get(r.url! + `/events/${SWISS}/pairings.html?round=1`)).status()).toBe(200);

    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle(); // the engine (--mode=exit) gives no pairings: round 2 waits for them
    await expect.poll(() => strip(page), WAIT).toEqual([['round', 'Round 2 waits for pairings']]);
    expect(await page.locator('#attention .attention-count').innerText()).toBe('1 round needs the arbiter');
    expect(await page.locator('#attention li[data-kind="round"] button').getAttribute('title')).toBe(
      'Open Swiss · round 2: every result of round 1 is confirmed; load the pairings',
    );

    const trf = addRoundToTrf(
      r.exports.trf(SWISS, 1),
      1,
      [
        [2, 1],
        [4, 3],
        [5, 6],
      ],
      7,
    );
    expect((await r.host.proposeRoundFromTrf(SWISS, trf, { arbiter: ARBITER })).ok).toBe(true);
    await expect.poll(() => strip(page), WAIT).toEqual([['round', 'Round 2 proposed: approve or reject']]);

    // A board's panel open beside the box: the box's Approve is not under it.
    await page.locator('#boards [data-board-id]').first().click();
    await page.locator('#panel:not([hidden])').waitFor();
    const approve = page.locator('#next-round button[data-action="approve-round"]');
    await approve.scrollIntoViewIfNeeded();
    expect(
      await approve.evaluate((b) => {
        const box = b.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit === b || b.contains(hit);
      }),
    ).toBe(true);
    // The strip's round item closes the panel and brings the box into view.
    await page.locator('#attention li[data-kind="round"] button').click();
    await page.locator('#panel').waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('#next-round h2').evaluate((h) => h.getBoundingClientRect().top < innerHeight), WAIT).toBe(true);
    await approve.click();
    // Round 2 opened: no round waits; its boards (this host has no clock lines) need their clocks.
    await expect.poll(() => strip(page), WAIT).toEqual([1, 2, 3].map((n) => ['clock', `Board ${n} · no clock`]));
    expect(await page.locator('#attention .attention-count').innerText()).toBe('3 boards need the arbiter');
    expect(errors).toEqual([]);
  }, 60_000);

  it('a hall of knockouts gets no next-round box; a mixed hall offers only its Swiss', async () => {
    const file = JSON.parse(readFileSync(SLOVENIAN, 'utf8'));
    const knockouts = await host({ ...file, events: [file.events[0]] });
    const page = await signedIn(knockouts.url!);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await page.locator('#next-round').isHidden()).toBe(true);

    const swiss = swissTournament(['--mode=exit']).events[0];
    const mixed = await host({ ...file, events: [file.events[0], { ...swiss, hallFirstTable: 10 }] });
    const both = await signedIn(mixed.url!);
    await expect
      .poll(() => both.locator('#next-round select[name="event"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), WAIT)
      .toEqual([SWISS]);
    expect(await both.locator('#next-round .print-links li').allInnerTexts()).toEqual(['Open Swiss · round 1: pairings · table cards']);
    // Each event's name once, as the heading of its lines; each line only its round and board; the figures explained.
    expect(await both.locator('#boards > .event-head').allInnerTexts()).toEqual(['Open Swiss', file.events[0].name].sort((a, b) => a.localeCompare(b))); // the hall's order
    const lines = await both.$$eval('#boards > *', (els) =>
      els.map((e) => (e.matches('.event-head') ? `# ${e.textContent}` : e.querySelector('.label')?.textContent)),
    );
    expect(lines.filter((l) => l?.startsWith('#'))).toHaveLength(2);
    expect(lines.filter((l) => !l?.startsWith('#')).every((l) => /^R\d+ · B\d+( · G\d+ \w+)?$/.test(l ?? ''))).toBe(true);
    expect(await both.locator('#legend').innerText()).toBe('#11 moves played · P1 period of the time control (P2 after the first control)');
    expect(await both.locator('#boards .side.white .moves').first().getAttribute('title')).toBe('moves played');
    expect(errors).toEqual([]);
  }, 60_000);

  it('200 boards, 45 results waiting: the pending box is one folded line and the first board is on the first screen of a phone (390×844)', async () => {
    const hall = await startDashboardHall({ boards: 200 });
    try {
      const games = hall.journal.gamesByRound(GENERATED, 1).slice(0, 45);
      for (const g of games)
        hall.journal.reportResult(g.gameId, { result: '1-0', how: 'arbiter', source: 'arbiter', arbiter: HALL_ARBITER, utcMs: Date.now() });
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(hall.url + '/');
      await page.locator('#connection[data-state="live"]').waitFor();
      await expect.poll(() => page.locator('#pending .pending-count').innerText(), WAIT).toBe('45 to confirm · each also in the attention strip');
      expect(await page.locator('#pending').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      const first = await page.locator('#boards [data-board-id]').first().boundingBox();
      expect(first!.y + first!.height).toBeLessThanOrEqual(844);
      // Unfolded on a click, with every result and its line.
      await page.locator('#pending summary').click();
      expect(await page.locator('#pending li').count()).toBe(45);
      await page.close();
    } finally {
      await hall.close();
    }
  }, 120_000);
});

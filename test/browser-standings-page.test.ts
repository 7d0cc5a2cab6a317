// The standings and crosstable page of an event (GET /events/:event/standings, docs/dashboard.md "Standings page"),
// in a real Chromium (Debian package `chromium`, playwright-core) against the real API and journal
// (test/dashboard-hall.ts): every figure the page shows is the standings module's
// (host/domain/standings.ts teamStandings, board-standings.ts fieldStandings and boardStandings
// over journal-standings.ts confirmedRecords), nothing re-ranked; the page is styled under its
// hash-only CSP (no CSP violation, the sheet applies), and at 390 px (a floor arbiter's phone)
// the page has no page-wide sideways scroll: the tables scroll inside themselves (WCAG 2.1
// 1.4.10 Reflow, with the exception for data tables; 2.1.1 Keyboard: each region is focusable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { confirmedRecords } from '../host/app/journal-standings.ts';
import { teamStandings } from '../host/domain/standings.ts';
import { boardStandings, fieldStandings } from '../host/domain/board-standings.ts';
import { findEvent, playerByRank, teamById } from '../host/domain/model.ts';
import { formatPoints } from '../host/adapters/exports/report-html.ts';
import { launchChromium, SKIP_BROWSER, skipMessage, tableRows } from './browser-harness.ts';
import { EVIL, INDIVIDUAL, startDashboardHall, TEAM, type DashboardHall } from './dashboard-hall.ts';

skipMessage('the standings page browser test');

interface Row {
  attrs: Record<string, string>;
  cells: string[];
  fields: Record<string, string>;
}

describe.skipIf(SKIP_BROWSER)('the standings page in Chromium (Debian package `chromium`)', () => {
  let hall: DashboardHall;
  let browser: Browser;
  beforeAll(async () => {
    hall = await startDashboardHall({ boards: 4, evil: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hall?.close();
  });

  /** The page at `width`, failing on any console error (a CSP violation is one) or page error. */
  async function open(path: string, width: number, height: number): Promise<{ page: Page; rows: (selector: string) => Promise<Row[]>; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const res = await page.goto(hall.url + path);
    expect(res?.status()).toBe(200);
    const rows = (selector: string) => tableRows(page, selector);
    return { page, rows, errors };
  }

  /** No page-wide sideways scroll; at least one table region wider than the screen scrolls inside itself. */
  async function reflows(page: Page): Promise<void> {
    const m = await page.evaluate(() => {
      const regions = Array.from(document.querySelectorAll<HTMLElement>('div.scroll'));
      const wide = regions.filter((r) => r.scrollWidth > r.clientWidth + 1);
      const first = wide[0];
      if (first) first.scrollLeft = 60;
      return {
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        regions: regions.length,
        wide: wide.length,
        scrolled: first ? first.scrollLeft : 0,
        overflowX: regions.map((r) => getComputedStyle(r).overflowX),
        outside: regions.filter((r) => r.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length,
      };
    });
    expect(m.page).toBeLessThanOrEqual(m.viewport);
    expect(m.outside).toBe(0);
    expect(m.wide).toBeGreaterThan(0);
    expect(m.scrolled).toBeGreaterThan(0);
    // The sheet applied under the CSP's hash: every region scrolls (the browser's default is visible).
    expect(new Set(m.overflowX)).toEqual(new Set(['auto']));
  }

  it('team event (Ivanovo 2018 after round 2): team places, board prizes and crosstable equal the standings module; 1400 px and 390 px, the page never scrolls sideways', {
    timeout: 60_000,
  }, async () => {
    const event = findEvent(hall.hall, TEAM);
    const records = confirmedRecords(hall.journal, event, 2);
    const teams = teamStandings(event, records, 2);
    for (const [width, height] of [
      [1400, 900],
      [390, 844],
    ] as const) {
      const { page, rows, errors } = await open(`/events/${TEAM}/standings`, width, height);
      try {
        expect(await page.title()).toBe(`${event.name} — standings after round 2`);
        const standing = await rows('table.standings.teams tbody tr');
        expect(
          standing.map((x) => [
            Number(x.attrs['data-rank']),
            Number(x.attrs['data-team']),
            x.cells[1],
            x.fields.gamePoints,
            x.fields.matchPoints,
            x.fields.directEncounter,
            x.fields.buchholz,
            [1, 2, 3, 4].map((k) => x.fields[`board${k}`]),
          ]),
        ).toEqual(
          teams.map((t) => [
            t.rank,
            t.team,
            teamById(event, t.team).name,
            formatPoints(t.gamePoints),
            String(t.matchPoints),
            t.directEncounter === null ? '' : formatPoints(t.directEncounter),
            formatPoints(t.buchholz),
            t.boardPoints.map(formatPoints),
          ]),
        );
        // A name that is markup is shown as the text it is.
        expect(standing.find((x) => x.attrs['data-team'] === '1')!.cells[1]).toBe('Школа <b>1</b><img src=x>');
        for (const b of boardStandings(event, records)) {
          const shown = await rows(`#standings-board-${b.board} tbody tr`);
          expect(shown.map((x) => [Number(x.attrs['data-rank']), Number(x.attrs['data-player']), x.fields.points, x.fields.buchholz, x.fields.wins])).toEqual(
            b.players.map((p) => [p.rank, p.player, formatPoints(p.points), formatPoints(p.buchholz), String(p.wins)]),
          );
        }
        const cross = await rows('table.crosstable tbody tr');
        expect(cross.map((x) => [Number(x.attrs['data-team']), x.fields.gamePoints, x.fields.matchPoints])).toEqual(
          teams.map((t) => [t.team, formatPoints(t.gamePoints), String(t.matchPoints)]),
        );
        // The print view of each round is linked, and opens (GET /events/:event/report.html?round=N).
        expect(await page.locator('a.print').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual(
          [1, 2].map((r) => `${hall.url}/events/${TEAM}/report.html?round=${r}`),
        );
        if (width === 390) await reflows(page);
        else expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        expect(await page.evaluate(() => [document.scripts.length, document.querySelectorAll('[style]').length])).toEqual([0, 0]);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it('individual event after round 3 and after round 1: places and every tie-break from fieldStandings (FIDE C.07: Buchholz, wins, direct encounter, cuts), crosstable rows in the same order; 390 px reflows', {
    timeout: 60_000,
  }, async () => {
    const event = findEvent(hall.hall, INDIVIDUAL);
    for (const round of [3, 1]) {
      const ranked = fieldStandings(event, confirmedRecords(hall.journal, event, round));
      const { page, rows, errors } = await open(`/events/${INDIVIDUAL}/standings${round === 3 ? '' : `?round=${round}`}`, 390, 844);
      try {
        expect(await page.locator('#after-round').getAttribute('data-round')).toBe(String(round));
        const standing = await rows('#standings-players tbody tr');
        expect(
          standing.map((x) => [
            Number(x.attrs['data-rank']),
            Number(x.attrs['data-player']),
            x.cells[1],
            x.fields.points,
            x.fields.buchholz,
            x.fields.wins,
            x.fields.directEncounter,
            x.fields.buchholzCut1,
            x.fields.buchholzCut2,
          ]),
        ).toEqual(
          ranked.map((p) => [
            p.rank,
            p.player,
            playerByRank(event, p.player).name,
            formatPoints(p.points),
            formatPoints(p.buchholz),
            String(p.wins),
            p.directEncounter === null ? '' : formatPoints(p.directEncounter),
            formatPoints(p.buchholzCut1),
            formatPoints(p.buchholzCut2),
          ]),
        );
        expect(standing.some((x) => x.cells[1] === EVIL)).toBe(true);
        const cross = await rows('table.crosstable tbody tr');
        expect(cross.map((x) => [Number(x.attrs['data-player']), x.fields.points])).toEqual(ranked.map((p) => [p.player, formatPoints(p.points)]));
        expect(await page.locator('nav.rounds a[aria-current="page"]').textContent()).toBe(String(round));
        await reflows(page);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it('an event with no complete round (the generated one, round 1 under way) says so instead of a table', { timeout: 30_000 }, async () => {
    const { page, errors } = await open('/events/load/standings', 390, 844);
    try {
      await expect.poll(() => page.locator('#notice').textContent()).toMatch(/^No round has every result confirmed yet/);
      expect(await page.locator('table').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("on `/` and `/public` each event's name in its event row opens its standings page", { timeout: 60_000 }, async () => {
    for (const path of ['/', '/public']) {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      try {
        await page.goto(hall.url + path);
        await page.locator('#connection[data-state="live"]').waitFor({ timeout: 15_000 });
        await page.locator('#events a.standings-link').first().waitFor({ timeout: 15_000 });
        const links = await page
          .locator('#events a.standings-link')
          .evaluateAll((as) =>
            as.map((a) => [a.closest('[data-event]')?.getAttribute('data-event'), (a as HTMLAnchorElement).pathname, a.getAttribute('aria-label')]),
          );
        expect(new Set(links.map((l) => l[0]))).toEqual(new Set(hall.hall.events.map((e) => e.id)));
        for (const [event, href, name] of links) {
          expect(href).toBe(`/events/${event}/standings`);
          expect(name).toMatch(/: standings & crosstable$/);
        }
        await page.locator(`#events [data-event="${TEAM}"] a.standings-link`).click();
        await page.waitForURL(`${hall.url}/events/${TEAM}/standings`);
        expect(await page.title()).toBe(`${findEvent(hall.hall, TEAM).name} — standings after round 2`);
      } finally {
        await page.close();
      }
    }
  });
});

// Accessibility of the dashboard's pages (docs/dashboard.md "Proof: accessibility, screenshots, the 200-board hall": axe-core run in the page
// finds no serious or critical violations): axe-core (@axe-core/playwright) in a real Chromium
// (Debian package `chromium`, playwright-core) on the real API and journal (test/dashboard-hall.ts),
// with the WCAG 2.0, 2.1 and 2.2 A and AA rules (tags wcag2a, wcag2aa, wcag21a, wcag21aa,
// wcag22aa). Pages: `/` signed out and signed in with a board opened (1400×900 and 390×844),
// `/public` (390×844), and the standings page (GET /events/:event/standings) of a team event
// (390×844) and of an individual event (1400×900). A failure prints each violation's rule id, impact, help and targets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { HALL_TOKEN, INDIVIDUAL, openFirstBoard, startDashboardHall, TEAM, type DashboardHall } from './dashboard-hall.ts';

skipMessage('the axe-core accessibility test');

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const VIEWPORTS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Serious and critical violations as lines: rule id, impact, help, and each target's selector. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

describe.skipIf(SKIP_BROWSER)('axe-core on the dashboard pages (WCAG 2.x A/AA, Debian package `chromium`)', () => {
  let hall: DashboardHall;
  let browser: Browser;
  beforeAll(async () => {
    hall = await startDashboardHall({ boards: 4 });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hall?.close();
  });

  async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
    // A context of its own: axe-core's playwright runner opens a helper page beside it.
    const page = await (await browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(hall.url + path);
    return page;
  }

  /** The live pages: wait for the feed and the boards before axe reads them. */
  async function live(page: Page): Promise<void> {
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.locator('#boards [data-board-id]').first().waitFor();
  }

  // Each axe run reads every node's contrast (several seconds on a loaded machine): each page at
  // the sizes where its layout differs, not every page at every size.
  it('`/` signed out at 1400×900 and 390×844, `/public` at 390×844: no serious or critical violation', { timeout: 180_000 }, async () => {
    const found: string[] = [];
    for (const viewport of VIEWPORTS) {
      for (const path of viewport.width === 390 ? ['/', '/public'] : ['/']) {
        const page = await open(path, viewport);
        try {
          await live(page);
          found.push(...(await seriousViolations(page)).map((v) => `${path} ${viewport.width}px: ${v}`));
        } finally {
          await page.context().close();
        }
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('`/` signed in as the arbiter with a board opened (its controls shown), at 1400×900 and 390×844: no serious or critical violation', {
    timeout: 180_000,
  }, async () => {
    const found: string[] = [];
    for (const viewport of VIEWPORTS) {
      const page = await open('/', viewport);
      try {
        await live(page);
        await page.fill('#token', HALL_TOKEN);
        await page.click('#token-form button[type="submit"]');
        await page.locator('#sign-out:not([hidden])').waitFor();
        await openFirstBoard(page);
        found.push(...(await seriousViolations(page)).map((v) => `/ signed in ${viewport.width}px: ${v}`));
      } finally {
        await page.context().close();
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('the standings page of a team event at 390×844 and of an individual event at 1400×900: no serious or critical violation', {
    timeout: 180_000,
  }, async () => {
    const found: string[] = [];
    for (const viewport of VIEWPORTS) {
      for (const event of viewport.width === 390 ? [TEAM] : [INDIVIDUAL]) {
        const page = await open(`/events/${event}/standings`, viewport);
        try {
          await page.locator('#standings table').first().waitFor();
          found.push(...(await seriousViolations(page)).map((v) => `${event} standings ${viewport.width}px: ${v}`));
        } finally {
          await page.context().close();
        }
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});

// Pictures of the pages for docs/dashboard.md "Proof: accessibility, screenshots, the 200-board hall" (screenshots
// at 1400×900 and 390×844 saved by the tests): `/` signed out, `/` signed in as the arbiter,
// `/public`, and the standings page of a team event, in a real Chromium (Debian package
// `chromium`, playwright-core) on the real API and journal (test/dashboard-hall.ts: 24 generated
// boards with running clocks beside two played events). Saved to artifacts/ (not committed).
// At 390×844, a floor arbiter's phone (docs/dashboard.md "Proof: accessibility, screenshots, the 200-board hall"), the first board must show on the first
// screen without scrolling: its top lies inside the viewport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { GENERATED, HALL_TOKEN, openFirstBoard, startDashboardHall, TEAM, type DashboardHall } from './dashboard-hall.ts';

skipMessage('the dashboard screenshots test');

const SIZES = [
  { name: 'wide', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.skipIf(SKIP_BROWSER)('screenshots of the dashboard pages (Debian package `chromium`)', () => {
  let hall: DashboardHall;
  let browser: Browser;
  beforeAll(async () => {
    hall = await startDashboardHall({ boards: 24 });
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hall?.close();
  });

  async function live(path: string, size: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
    page.setDefaultTimeout(15_000);
    await page.goto(hall.url + path);
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.locator('#boards [data-board-id]').first().waitFor();
    return page;
  }

  async function save(page: Page, file: string): Promise<void> {
    const path = join(ARTIFACTS, file);
    await page.screenshot({ path });
    expect(existsSync(path) && statSync(path).size > 1000).toBe(true);
  }

  it('`/` signed out and signed in, `/public`, the standings page: saved at 1400×900 and 390×844', { timeout: 120_000 }, async () => {
    for (const size of SIZES) {
      const page = await live('/', size);
      try {
        await save(page, `dashboard-${size.name}.png`);
        await page.fill('#token', HALL_TOKEN);
        await page.click('#token-form button[type="submit"]');
        await page.locator('#sign-out:not([hidden])').waitFor();
        await openFirstBoard(page);
        await save(page, `dashboard-signed-in-${size.name}.png`);
      } finally {
        await page.close();
      }
      const pub = await live('/public', size);
      try {
        await save(pub, `public-${size.name}.png`);
      } finally {
        await pub.close();
      }
      const standings = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      try {
        await standings.goto(`${hall.url}/events/${TEAM}/standings`);
        await standings.locator('#standings table').first().waitFor();
        await save(standings, `standings-${size.name}.png`);
      } finally {
        await standings.close();
      }
    }
  });

  it("at 390×844 a floor arbiter sees the first board whole on the first screen, on `/` and `/public`, with one event and with the whole hall (a team event's standings included)", {
    timeout: 90_000,
  }, async () => {
    const where: string[] = [];
    for (const path of [`/?event=${GENERATED}`, `/public?event=${GENERATED}`, '/', '/public']) {
      const page = await live(path, { width: 390, height: 844 });
      try {
        const box = (await page.locator('#boards [data-board-id]').first().boundingBox())!;
        where.push(`${path}: first board at ${Math.round(box.y)}–${Math.round(box.y + box.height)} px`);
        expect(box.y, where.at(-1)).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, where.at(-1)).toBeLessThanOrEqual(844);
        // No page-wide sideways scroll on the phone either.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        // The whole hall's shots are the first test's `*-phone.png`; this one saves the one-event view.
        if (path.includes('?event=')) await save(page, `${path.startsWith('/public') ? 'public' : 'dashboard'}-one-event-phone.png`);
        else
          expect(
            await page.locator('#standings').evaluate((s) => !(s as HTMLElement).hidden && s.getBoundingClientRect().height > 0),
            `${path}: the hall has a team event's standings, below the boards`,
          ).toBe(true);
      } finally {
        await page.close();
      }
    }
    console.log(where.join('; '));
  });

  it('on a wide screen the attention strip stays in sight below the header while the hall scrolls, and a line brought into view is not hidden under them', {
    timeout: 60_000,
  }, async () => {
    const page = await live('/', { width: 1400, height: 900 });
    try {
      await page.locator('#attention .attention-count').waitFor();
      // Scroll to the hall's end: the header and the strip stay at the top of the screen.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => window.scrollY > 300);
      const header = (await page.locator('header.top').boundingBox())!;
      const strip = (await page.locator('#attention').boundingBox())!;
      expect(header.y).toBeCloseTo(0, 0);
      expect(strip.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
      expect(strip.y).toBeLessThanOrEqual(header.y + header.height + 1);
      // A board near the top, brought back into view by the jump box, starts below the strip, not under it.
      await page.fill('#jump', '1');
      await page.press('#jump', 'Enter');
      await page.locator('#boards [data-board-id].open').waitFor();
      await page.waitForFunction(() => window.scrollY < document.documentElement.scrollHeight - window.innerHeight - 1);
      const opened = (await page.locator('#boards [data-board-id].open').boundingBox())!;
      expect(opened.y).toBeGreaterThanOrEqual(strip.y + strip.height - 1);
      expect(opened.y).toBeLessThan(900);
    } finally {
      await page.close();
    }
  });
});

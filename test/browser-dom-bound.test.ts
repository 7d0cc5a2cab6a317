// The 200-board hall stays small in the DOM (docs/dashboard.md "Proof: accessibility, screenshots, the 200-board hall": the DOM nodes per board
// are bounded). A structural bound, not a timing: the arbiter's page `/` in a real Chromium
// (Debian package `chromium`, playwright-core) on the real API and journal (test/dashboard-hall.ts:
// the generated tournament of the load runs, with running clocks, beside two played events), at
// 100 and at 200 generated boards. Every node of the document is counted (elements, text,
// comments). The speed of the same hall is measured by `npm run bench -- dashboard`
// (docs/benchmarks.md "Dashboard").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { startDashboardHall } from './dashboard-hall.ts';

skipMessage('the DOM bound browser test');

/**
 * DOM nodes per board at most, over the whole page and per board added from 100 to 200: the
 * figure docs/dashboard.md states. The compact hall view's line (label, status, both players with
 * their times, period and moves, the control) takes 42 (2026-12-02); a page that builds every
 * control of every board on every card takes more than a hundred (the cards before the compact line: 115
 * per board, 21 buttons each). 60 leaves room for a line to say a little more, not for controls.
 */
export const DOM_NODES_PER_BOARD_BOUND = 60;

describe.skipIf(SKIP_BROWSER)('DOM nodes per board in the 200-board hall (Debian package `chromium`)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** The page's node count once every board of the hall is on it. */
  async function nodesWith(boards: number): Promise<{ nodes: number; boards: number; buttons: number }> {
    const hall = await startDashboardHall({ boards });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      const total = hall.ports.boards().length;
      await page.goto(hall.url + '/');
      await page.locator('#connection[data-state="live"]').waitFor({ timeout: 30_000 });
      // Every board is on the page (a card or a row per board; boards counted by distinct id).
      await page.waitForFunction(
        (n) => {
          const ids = new Set<string>();
          document.querySelectorAll('#boards [data-board-id]').forEach((e) => ids.add(e.getAttribute('data-board-id') ?? ''));
          return ids.size >= n;
        },
        total,
        { timeout: 60_000, polling: 200 },
      );
      const nodes = await page.evaluate(() => {
        let n = 0;
        const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
        while (walker.nextNode()) n++;
        return n;
      });
      return { nodes, boards: total, buttons: await page.locator('button').count() };
    } finally {
      await page.close();
      await hall.close();
    }
  }

  it(`at 200 generated boards the page holds fewer than ${DOM_NODES_PER_BOARD_BOUND} DOM nodes per board, and each board added from 100 to 200 adds fewer`, {
    timeout: 180_000,
  }, async () => {
    const at100 = await nodesWith(100);
    const at200 = await nodesWith(200);
    const perBoard = at200.nodes / at200.boards;
    const growth = (at200.nodes - at100.nodes) / (at200.boards - at100.boards);
    console.log(
      `DOM: ${at100.nodes} nodes for ${at100.boards} boards, ${at200.nodes} for ${at200.boards} (${perBoard.toFixed(1)} per board, ${growth.toFixed(1)} per added board; ${at200.buttons} buttons)`,
    );
    expect(at200.boards - at100.boards).toBe(100);
    expect(perBoard).toBeLessThan(DOM_NODES_PER_BOARD_BOUND);
    expect(growth).toBeLessThan(DOM_NODES_PER_BOARD_BOUND);
  });
});

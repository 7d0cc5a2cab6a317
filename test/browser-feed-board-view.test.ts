// One board view for every path (host/app/board-views.ts), in a real Chromium (Debian package
// `chromium`, driven by playwright-core) against the real API over a real Host, SQLite journal
// and simulated clocks on in-memory lines (e2e-match.ts).
//
// A board's view reaches the dashboard by three paths: the `hello` of /ws (and GET), a `board`
// message when its clock connects or is lost, and an `event` message with every journaled clock
// event. The page keeps whichever came last (src/store.ts), so all three must carry the same
// view: a clock's line goes down on one board, then a press arrives on the other board of the
// page, and the first board still says offline while the pressed board keeps what its clock's
// line says (`clockOnline`, `link`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../host/adapters/http/api.ts';
import type { BoardView } from '../host/app/ports.ts';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';

skipMessage('the feed board view browser test');

const WAIT = { timeout: 15_000, interval: 50 };

describe.skipIf(SKIP_BROWSER)('one board view on every path of the live feed (Chromium, a real Host)', () => {
  let rig: MatchRig;
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  /** Every board the page received over /ws, in order, by the message's type. */
  const received: { type: string; board: BoardView }[] = [];

  beforeAll(async () => {
    rig = await buildRig();
    app = await buildApi({
      state: rig.host.state,
      commands: rig.host,
      exports: rig.exports,
      tokens: [{ arbiter: ARBITER, token: TOKEN }],
      nowUtcMs: () => rig.hostClock.nowUtcMs(),
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    await configuredFor(rig, 1, 1);
    await configuredFor(rig, 1, 2);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('websocket', (ws) =>
      ws.on('framereceived', (frame) => {
        const m = JSON.parse(String(frame.payload)) as { type: string; board?: BoardView; boards?: BoardView[] };
        if (m.board) received.push({ type: m.type, board: m.board });
        for (const b of m.boards ?? []) received.push({ type: m.type, board: b });
      }),
    );
    await page.goto(url);
    await page.waitForSelector(`[data-board-id="${boardId(rig, 1)}"]`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (rig) await closeRig(rig);
  });

  const clockOf = (id: string) => page.locator(`[data-board-id="${id}"]`).getAttribute('data-clock');

  it('a clock goes offline, a press arrives on another board: the first board still says offline, the pressed one keeps its line', async () => {
    const [board1, board2] = [boardId(rig, 1), boardId(rig, 2)];
    // The arbiter has the pressed board's panel open: it shows the board's line health.
    await page.click(`[data-board-id="${board1}"]`);
    await page.waitForSelector(`#panel[data-board="${board1}"]:not([hidden])`);
    await expect.poll(() => page.locator('#panel .link-health').innerText(), WAIT).toMatch(/^link: /);

    // Table 2's cable is pulled: its board says offline without a reload.
    const line2 = rig.host.lines().find((s) => s.key === 'memory:table-2')!;
    rig.clocks[1].unplugMemory();
    await waitFor('the line of table 2 down', () => !line2.online, 10_000, flowing(rig.sim, 5));
    await expect.poll(() => clockOf(board2), WAIT).toBe('offline');

    // A press on board 1: its clock starts, White presses (clock events journaled and fed).
    const clock1 = rig.clocks[0];
    await clock1.clock.tap('startPause');
    rig.sim.advanceBy(3_000);
    await clock1.press('white');
    await waitFor('the press journaled', () => rig.host.state.board(board1)?.live?.moves.white === 1, 10_000, flowing(rig.sim, 5));
    await expect.poll(() => received.some((m) => m.type === 'event' && m.board.id === board1 && m.board.live?.moves.white === 1), WAIT).toBe(true);
    await page.waitForTimeout(300); // the page's next frames: it painted what came

    // The first board still says offline.
    expect(await clockOf(board2)).toBe('offline');
    // The pressed board's view on the feed is the one GET gives (clockOnline, link), so the panel keeps its line health.
    const fed = received.filter((m) => m.type === 'event' && m.board.id === board1).at(-1)!.board;
    expect(fed).toMatchObject({ clockOnline: true, link: expect.objectContaining({ connections: 1 }) });
    const got = (await app.inject({ method: 'GET', url: `/api/boards/${board1}` })).json().board as BoardView;
    expect(Object.keys(fed).sort()).toEqual(Object.keys(got).sort());
    expect(await page.locator('#panel .link-health').innerText()).toMatch(/^link: /);
    expect(await clockOf(board1)).toBe('');

    rig.clocks[1].plugMemory();
    await waitFor('the line of table 2 up again', () => line2.online, 10_000, flowing(rig.sim, 5));
    await expect.poll(() => clockOf(board2), WAIT).toBe('');
    expect(errors).toEqual([]);
  });
});

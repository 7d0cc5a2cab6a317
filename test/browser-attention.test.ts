// Attention first (docs/dashboard.md "Attention"), in a real Chromium (Debian
// package `chromium`, driven by playwright-core) against the real API. Each kind of the strip
// appears because the test CAUSES it, never because a board was written that way:
//
// - on boards whose clocks are the unchanged statechart on one SimulatedClock (browser-harness.ts),
//   with the page's clock pinned to the same hall time: a flag falls when a side's time runs out
//   (FIDE Laws 6.9), an absent player's default time runs down and forfeits (6.7.1), a paused
//   board (6.11), a board with no clock, low time amber under 2 minutes and red under 20 s;
// - on a real Host over a real SQLite journal with simulated clocks on in-memory lines
//   (e2e-match.ts): the players key a result into their clock that no arbiter has confirmed yet
//   (FIDE Laws 8.7), and a clock's cable is pulled so its line goes down (the host's `clockOnline`).
//
// The order follows urgency, each board once; a click on an item opens that board.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { AxeBuilder } from '@axe-core/playwright';
import { presetTimeControl, type TimeControl } from '../protocol/time-control.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import { boardIdOf } from '../host/app/board-views.ts';
import { ARTIFACTS, launchChromium, SimulatedBoard, SKIP_BROWSER, skipMessage } from './browser-harness.ts';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, playMoves, waitFor } from './e2e-harness.ts';

skipMessage('the attention strip browser test');

/** Hall time 0 = this UTC instant (2026-03-14 09:00 UTC). */
const T0_UTC = Date.UTC(2026, 2, 14, 9, 0, 0);
const EVENT = 'Ljubljana Open 2026';
/** The boards (ids as the host gives them: boardIdOf). */
const [B4, B5, B7, B9, B12] = [4, 5, 7, 9, 12].map((n) => boardIdOf(EVENT, n));

type Row = [board: string, kind: string, severity: string, text: string];

/**
 * A bounded wait for the strip to show something (docs/architecture.md rule 13): the strip reads
 * the list again within a second of a change of hall time (docs/dashboard.md "Attention"), and
 * a loaded 2-core machine may take much longer to paint it.
 */
const WAIT = { timeout: 15_000, interval: 50 };

/** The strip as the arbiter sees it, in order: board id, kind, colour and the text. */
async function strip(page: Page): Promise<Row[]> {
  return page.$$eval('#attention li[data-attention-board]', (lis) =>
    lis.map(
      (li) =>
        [
          li.getAttribute('data-attention-board')!,
          li.getAttribute('data-kind')!,
          li.getAttribute('data-severity')!,
          li.querySelector('.attention-text')!.textContent!,
        ] as Row,
    ),
  );
}

function watchErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
}

describe.skipIf(SKIP_BROWSER)('the attention strip in Chromium: clocks on the statechart, page clock pinned (Debian package `chromium`)', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let url: string;
  const errors: string[] = [];
  const hall = new SimulatedClock();
  const host = new JournalBoards({ nowUtcMs: () => T0_UTC + hall.now() });
  const clocks = new Map<string, SimulatedBoard>();

  function addBoard(board: number, control: TimeControl | null): SimulatedBoard | null {
    const id = boardIdOf(EVENT, board);
    const clockId = control ? `clk-${board}` : null;
    host.addBoard({
      id,
      event: EVENT,
      round: 1,
      board,
      clockId,
      white: { name: `White ${board}` },
      black: { name: `Black ${board}` },
      ...(control ? { control } : { timeControl: '900+10' }),
    });
    if (!control) return null;
    const clock = new SimulatedBoard(host, hall, T0_UTC, clockId!, { event: EVENT, round: 1, board }, control);
    clocks.set(id, clock);
    return clock;
  }

  /** Moves hall time to `ms` for the clocks (timers due fire: flags, forfeits) and for the page. */
  async function hallAt(ms: number): Promise<void> {
    hall.set(ms);
    await page.clock.setFixedTime(T0_UTC + ms);
  }

  beforeAll(async () => {
    addBoard(7, presetTimeControl('armageddon')); // White 6:00, Black 5:00
    addBoard(4, presetTimeControl('classical', { defaultTime: 420 })); // FIDE Laws 6.7.1: 7 minutes' default time
    addBoard(12, presetTimeControl('armageddon'));
    addBoard(5, presetTimeControl('classical'));
    addBoard(9, null); // no clock at the table
    app = await buildApi({
      state: host,
      commands: host,
      tokens: [{ arbiter: 'Chief Arbiter', token: 'arbiter-token-for-the-attention-test' }],
      nowUtcMs: () => T0_UTC + hall.now(),
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    // A page of its own context: axe-core's runner opens a page beside it (@axe-core/playwright).
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    watchErrors(page, errors);
    await page.clock.setFixedTime(T0_UTC);
    await page.goto(url);
    await page.waitForSelector('#attention .attention-count');
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    host.close();
  });

  it('a board with no clock is listed before any game starts', async () => {
    await expect.poll(() => strip(page), WAIT).toEqual([[B9, 'clock', 'amber', 'Board 9 · no clock']]);
    expect(await page.locator('#attention .attention-count').innerText()).toBe('1 board needs the arbiter');
  });

  it('FIDE Laws 6.7.1 and 6.11: an absent player (amber) and a paused board', async () => {
    for (const c of clocks.values()) c.send({ type: 'START', at: 0 });
    clocks.get(B7)!.send({ type: 'PRESS', side: 'white', at: 0 }); // Black's 5:00 runs
    clocks.get(B4)!.send({ type: 'ARRIVE', side: 'black', at: 0 }); // White is late
    await hallAt(1_000);
    clocks.get(B5)!.send({ type: 'PAUSE', at: 1_000 });
    await expect
      .poll(() => strip(page), WAIT)
      .toEqual([
        [B4, 'forfeit', 'amber', 'Board 4 · White absent · default in 6:59'],
        [B5, 'paused', 'amber', 'Board 5 · paused'],
        [B9, 'clock', 'amber', 'Board 9 · no clock'],
      ]);
  });

  it("low time under 2 minutes is amber, least time first; the strip follows the hall's time on its own", async () => {
    // No clock event happens here: only time passes. The strip re-reads the list when it changes.
    await hallAt(250_000);
    await expect
      .poll(() => strip(page), WAIT)
      .toEqual([
        [B4, 'forfeit', 'amber', 'Board 4 · White absent · default in 2:50'],
        [B5, 'paused', 'amber', 'Board 5 · paused'],
        [B9, 'clock', 'amber', 'Board 9 · no clock'],
        [B7, 'time', 'amber', 'Board 7 · Black 0:50'],
        [B12, 'time', 'amber', 'Board 12 · White 1:50'],
      ]);
  });

  it("FIDE Laws 6.9: a flag falls when Black's time runs out (red, first); a forfeit due within 2 minutes turns red", async () => {
    await hallAt(300_000); // Black's 5:00 on board 7 runs out now: the statechart's flag timer fires
    expect(clocks.get(B7)!.actor.getSnapshot().matches('flagged')).toBe(true);
    await expect
      .poll(() => strip(page), WAIT)
      .toEqual([
        [B7, 'flag', 'red', 'Board 7 · Black flag fell'],
        [B4, 'forfeit', 'red', 'Board 4 · White absent · forfeit in 2:00'],
        [B5, 'paused', 'amber', 'Board 5 · paused'],
        [B9, 'clock', 'amber', 'Board 9 · no clock'],
        [B12, 'time', 'amber', 'Board 12 · White 1:00'],
      ]);
    // Not colour alone (WCAG 1.4.1): the symbol, "!" for red, and the kind in words.
    const flag = page.locator(`#attention li[data-attention-board="${B7}"] button`);
    expect(await flag.locator('.attention-symbol').innerText()).toBe('⚑!');
    expect(await flag.locator('.attention-kind').textContent()).toBe('urgent flag: ');
    expect(await flag.locator('.attention-event').textContent()).toBe(''); // one event: no need to name it
    expect(await page.locator(`#attention li[data-attention-board="${B5}"] .attention-symbol`).innerText()).toBe('‖');
  });

  it("low time under 20 s is red, in the clock's tenths", async () => {
    await hallAt(345_000);
    await expect.poll(() => strip(page), WAIT).toContainEqual([B12, 'time', 'red', 'Board 12 · White 15.0']);
    expect((await strip(page)).map((r) => r[0])).toEqual([B7, B4, B5, B9, B12]);
  });

  it("FIDE Laws 6.7.1: the default time elapses with White absent: lost by default; board 12's flag falls too (order: flags by board, then the forfeit)", async () => {
    // Keyed updates: board 12's item is moved (from last to second), not rebuilt.
    await page.$eval(`#attention li[data-attention-board="${B12}"]`, (li) => ((li as HTMLElement & { probe?: string }).probe = 'same node'));
    await hallAt(420_000);
    expect(clocks.get(B4)!.actor.getSnapshot().matches('forfeited')).toBe(true);
    await expect
      .poll(() => strip(page), WAIT)
      .toEqual([
        [B7, 'flag', 'red', 'Board 7 · Black flag fell'],
        [B12, 'flag', 'red', 'Board 12 · White flag fell'],
        [B4, 'forfeit', 'red', 'Board 4 · White lost by default'],
        [B5, 'paused', 'amber', 'Board 5 · paused'],
        [B9, 'clock', 'amber', 'Board 9 · no clock'],
      ]);
    expect(await page.locator('#attention .attention-count').innerText()).toBe('5 boards need the arbiter');
    expect(await page.$eval(`#attention li[data-attention-board="${B12}"]`, (li) => (li as HTMLElement & { probe?: string }).probe)).toBe('same node');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'attention-strip.png'), clip: { x: 0, y: 0, width: 1400, height: 200 } });
  });

  it("on a floor arbiter's phone (390×844) the full strip is one row: the first board is still on the first screen, nothing scrolls sideways", async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    watchErrors(phone, errors);
    await phone.clock.setFixedTime(T0_UTC + hall.now());
    await phone.goto(url);
    await expect.poll(() => strip(phone), WAIT).toHaveLength(5);
    const rows = await phone.$$eval('#attention li', (lis) => new Set(lis.map((li) => Math.round(li.getBoundingClientRect().top))).size);
    expect(rows).toBe(1);
    const first = await phone.locator('[data-board-id]').first().boundingBox();
    expect(first).not.toBeNull();
    expect(first!.y + first!.height).toBeLessThanOrEqual(844);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await phone.screenshot({ path: join(ARTIFACTS, 'attention-strip-phone.png') });
    await phone.close();
  });

  it('the strip with red and amber items passes axe-core: no serious or critical violation (WCAG 1.4.3 contrast, 4.1.2 name and role)', async () => {
    const result = await new AxeBuilder({ page }).include('#attention').analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(result.passes.some((p) => p.id === 'color-contrast')).toBe(true); // the contrast rule did run on the items
  });

  it('one click on an item opens its board (docs/dashboard.md "Attention")', async () => {
    await page.click(`#attention li[data-attention-board="${B12}"] button`);
    // The board's side panel opens on it (src/panel.ts), its line marked open.
    await page.waitForSelector(`#panel[data-board="${B12}"]:not([hidden])`);
    expect(await page.locator(`[data-board-id="${B12}"]`).getAttribute('class')).toContain('open');
    // Another item opens another board in the same panel.
    await page.click(`#attention li[data-attention-board="${B4}"] button`);
    await page.waitForSelector(`#panel[data-board="${B4}"]:not([hidden])`);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(SKIP_BROWSER)('the attention strip in Chromium: a real Host, journal and clock lines (Debian package `chromium`)', () => {
  let rig: MatchRig;
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    rig = await buildRig();
    // The rig's own API serves no pages; this one serves the dashboard over the same host.
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
    watchErrors(page, errors);
    await page.goto(url);
    await page.waitForSelector('#attention .attention-count');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (rig) await closeRig(rig);
  });

  it("both clocks connected and ready: only the open event's board, which has no clock in this hall, is listed", async () => {
    // The tournament file's hall has two tables with clocks (the women's final); the open event's board has none.
    expect(
      rig.host.state
        .boards()
        .filter((b) => b.clockId === null)
        .map((b) => b.id),
    ).toEqual(['slo-open-2007-1']);
    await expect.poll(() => strip(page), WAIT).toEqual([['slo-open-2007-1', 'clock', 'amber', 'Board 1 · no clock']]);
    expect(await page.locator('#attention .attention-count').innerText()).toBe('1 board needs the arbiter');
  });

  it('FIDE Laws 8.7: the players key 1-0 into their clock; until an arbiter confirms it, it is listed; confirmed, it goes', async () => {
    const board1 = boardId(rig, 1);
    const clock = rig.clocks[0];
    await playMoves(clock, rig.sim, 2, 5_000);
    await clock.enterResult('1-0');
    await waitFor("the clock's result journaled", () => rig.host.state.board(board1)?.result === '1-0', 10_000, flowing(rig.sim));
    expect(rig.host.state.board(board1)).toMatchObject({ result: '1-0', resultConfirmed: false });
    // Before the board with no clock: a result to confirm is more urgent (the round's standings wait for it).
    await expect
      .poll(() => strip(page), WAIT)
      .toEqual([
        [board1, 'result', 'amber', 'Board 1 · 1-0 to confirm'],
        ['slo-open-2007-1', 'clock', 'amber', 'Board 1 · no clock'],
      ]);
    // Two boards numbered 1: with items from two events, each names its event.
    const eventOf = (id: string) => page.locator(`#attention li[data-attention-board="${id}"] .attention-event`).innerText();
    expect(await eventOf(board1)).toBe(rig.host.state.board(board1)!.eventName ?? rig.host.state.board(board1)!.event);
    expect(await eventOf('slo-open-2007-1')).toBe('Državno prvenstvo - finale (absolutno)');
    const res = await app.inject({ method: 'POST', url: `/api/boards/${board1}/result/confirm`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => strip(page).then((rows) => rows.filter((r) => r[0] === board1 && r[1] === 'result')), WAIT).toEqual([]);
  });

  it('a clock\'s cable is pulled: its line goes down and the board shows "offline" without a reload; plugged back, it goes', async () => {
    const board2 = boardId(rig, 2);
    const session = rig.host.lines().find((s) => s.key === 'memory:table-2')!;
    expect(session.online).toBe(true);
    rig.clocks[1].unplugMemory();
    await waitFor('the line of table 2 down', () => !session.online, 10_000, flowing(rig.sim, 5));
    expect(rig.host.state.board(board2)!.clockOnline).toBe(false);
    await expect
      .poll(() => strip(page).then((rows) => rows.filter((r) => r[0] === board2)), WAIT)
      .toEqual([[board2, 'clock', 'amber', 'Board 2 · clock CLK-02 offline']]);
    rig.clocks[1].plugMemory();
    await waitFor('the line of table 2 up again', () => session.online, 10_000, flowing(rig.sim, 5));
    await expect.poll(() => strip(page).then((rows) => rows.filter((r) => r[0] === board2)), WAIT).toEqual([]);
    expect(errors).toEqual([]);
  });
});

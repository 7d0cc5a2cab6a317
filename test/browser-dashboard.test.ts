// The arbiter dashboard in a real Chromium (Debian package `chromium`, driven by
// playwright-core) against the real API (Fastify on 127.0.0.1) fed by simulated clocks:
// the unchanged clock statechart (rules/clock.machine.ts) on one shared
// SimulatedClock, its outputs journaled in a JournalPorts on a journal in memory (JournalBoards)
// and pushed over /ws.
//
// Time is exact: the page's Date.now() is pinned with Playwright's clock to the same hall
// time the simulated clocks and the API use, so the running side's time the page computes
// (remaining − (now − event time)) can be compared with what the clock itself would show
// at that instant: formatClockTime(readClock(state, now)) from rules/display-format.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { presetTimeControl } from '../protocol/time-control.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import { StorageHealthTracker } from '../host/store/storage-health.ts';
import Database from 'better-sqlite3';
import { ARTIFACTS, launchChromium, SimulatedBoard, SKIP_BROWSER as SKIP, skipMessage } from './browser-harness.ts';

skipMessage('the dashboard browser test');

const TOKEN = 'arbiter-token-for-the-browser-test';
/** Hall time 0 = this UTC instant (2025-06-15 12:00 UTC). */
const T0_UTC = Date.UTC(2025, 5, 15, 12, 0, 0);
/** The events' keys (their boards' ids: `final-1`, …, `ivanovo-1`). */
const FINAL = 'Final';
const IVANOVO = 'Ivanovo';

describe.skipIf(SKIP)('arbiter dashboard in Chromium (Debian package `chromium`)', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let url: string;
  const hall = new SimulatedClock();
  const boards = new Map<string, SimulatedBoard>();
  // Accepted arbiter commands reach the board's clock as its inputs, stamped with hall time.
  const host = new JournalBoards({
    nowUtcMs: () => T0_UTC + hall.now(),
    clock: async (command) => {
      const b = boards.get(command.boardId)!;
      const at = hall.now();
      if (command.type === 'pause') b.send({ type: 'PAUSE', at });
      if (command.type === 'resume') b.send({ type: 'RESUME', at });
      if (command.type === 'adjust') b.send({ type: 'ADJUST', side: command.side, ms: command.ms, at });
      if (command.type === 'penalty') b.send({ type: 'PENALTY', side: command.side, at });
      return { ok: true };
    },
  });
  const forwarded = host.forwarded;

  beforeAll(async () => {
    host.addBoard({
      id: 'final-1',
      event: FINAL,
      round: 1,
      board: 1,
      clockId: 'clk-1',
      white: { name: 'Tratar, Marko' },
      black: { name: 'Sebenik, Matej' },
      timeControl: '40/5400+30:900+30',
    });
    host.addBoard({
      id: 'final-2',
      event: FINAL,
      round: 1,
      board: 2,
      clockId: 'clk-2',
      white: { name: 'Borišek, Jure' },
      black: { name: 'Lenič, Luka' },
      timeControl: 'W360-B300',
    });
    host.addBoard({
      id: 'ivanovo-1',
      event: IVANOVO,
      round: 3,
      board: 1,
      clockId: 'clk-3',
      white: { name: 'Ivanova, Anna', team: 'White Rook' },
      black: { name: 'Petrova, Olga', team: 'Shuya' },
      timeControl: '3600',
    });
    // A knockout tie-break game waiting for the end of its 30-minute break (no clock yet).
    host.addBoard({
      id: 'final-3',
      event: FINAL,
      round: 1,
      board: 3,
      white: { name: 'Muhvič, Anja' },
      black: { name: 'Vrhovnik, Ana' },
      timeControl: '900+10',
      startsAtUtcMs: T0_UTC + 30 * 60_000,
      gameNo: 3,
      kind: 'rapid',
      matchId: 'final-r1-b3',
    });
    boards.set('final-1', new SimulatedBoard(host, hall, T0_UTC, 'clk-1', { event: FINAL, round: 1, board: 1 }, presetTimeControl('classical')));
    boards.set('final-2', new SimulatedBoard(host, hall, T0_UTC, 'clk-2', { event: FINAL, round: 1, board: 2 }, presetTimeControl('armageddon')));
    boards.set('ivanovo-1', new SimulatedBoard(host, hall, T0_UTC, 'clk-3', { event: IVANOVO, round: 3, board: 1 }, presetTimeControl('sudden-death-60')));
    app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Chief Arbiter', token: TOKEN }], nowUtcMs: () => T0_UTC + hall.now() });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(8000);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.clock.setFixedTime(T0_UTC);
    await page.goto(url);
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    host.close();
  });

  /** Moves hall time to `ms` for the clocks (timers due fire: flags) and for the page. */
  async function hallAt(ms: number): Promise<void> {
    hall.set(ms);
    await page.clock.setFixedTime(T0_UTC + ms);
  }

  async function text(boardId: string, selector: string): Promise<string> {
    return page.locator(`[data-board-id="${boardId}"] ${selector}`).innerText();
  }

  /** Waits until the page shows what the simulated clock shows, for both sides. */
  async function expectTimes(boardId: string): Promise<void> {
    const b = boards.get(boardId)!;
    for (const side of ['white', 'black'] as const) {
      await expect.poll(() => text(boardId, `.side.${side} .time`), { timeout: 5000 }).toBe(b.shows(side));
    }
  }

  it('shows each board, who is on move, and both times as the clocks advance', async () => {
    await expect.poll(() => page.locator('article.board').count()).toBe(4);
    // The knockout break counts down to the tie-break game (docs/architecture.md rule 3: computed, repainted).
    // Each line says its round, board and game under its event's heading (docs/dashboard.md "The hall view").
    expect(await text('final-3', '.label')).toBe('R1 · B3 · G3 rapid');
    expect(await page.locator('#boards [data-board-id="final-1"]').evaluate((row) => row.previousElementSibling?.textContent)).toBe(FINAL);
    await expect.poll(() => text('final-3', '.result')).toBe('break: 30:00 until the start · 900+10');
    expect(await page.locator('[data-board-id="final-3"]').getAttribute('data-status')).toBe('break');
    expect(await text('final-1', '.label')).toBe('R1 · B1');
    expect(await text('ivanovo-1', '.side.white .name')).toBe('Ivanova, Anna (White Rook)');

    // All three games start at hall time 0.
    for (const b of boards.values()) b.send({ type: 'START', at: 0 });
    await expectTimes('final-1');
    // Slovenian final: 30 s per move from move 1, credited before the move (FIDE practice): 90:30.
    expect(await text('final-1', '.side.white .time')).toBe('1:30:30'); // h:mm:ss from one hour

    // 12.3 s later White is still thinking on every board: the page computes it between events.
    await hallAt(12_300);
    for (const id of boards.keys()) await expectTimes(id);
    expect(await text('final-1', '.side.white .time')).toBe('1:30:18'); // 5430 − 12.3 s, rounded up
    expect(await text('final-2', '.side.white .time')).toBe('5:48');
    await expect.poll(() => text('final-3', '.result')).toBe('break: 29:48 until the start · 900+10');
    expect(await page.locator('[data-board-id="final-1"] .side.white').getAttribute('class')).toContain('running');

    // White moves on the final's board 1; Black's clock runs.
    boards.get('final-1')!.send({ type: 'PRESS', side: 'white', at: 12_300 });
    await expect.poll(() => page.locator('[data-board-id="final-1"]').getAttribute('data-turn')).toBe('black');
    await hallAt(20_000);
    await expectTimes('final-1');
    // White's increment for its next move is credited at the press: 5430 − 12.3 + 30 s.
    expect(await text('final-1', '.side.white .time')).toBe('1:30:48');
    expect(await text('final-1', '.side.black .time')).toBe('1:30:23'); // 5430 − 7.7 s, rounded up
    expect(await text('final-1', '.side.white .moves')).toBe('#1');

    // Armageddon: White moves, Black thinks until fewer than 20 s remain: tenths appear.
    boards.get('final-2')!.send({ type: 'PRESS', side: 'white', at: 20_000 });
    await hallAt(20_000 + 300_000 - 12_345);
    await expectTimes('final-2');
    expect(await text('final-2', '.side.black .time')).toBe('12.4'); // 12.345 s rounded up to the tenth
  });

  it("shows the flag when Black's time runs out (FIDE Laws 6.9)", async () => {
    await hallAt(20_000 + 300_000 + 50); // the flag timer fires at exactly 320 000
    await expect.poll(() => page.locator('[data-board-id="final-2"]').getAttribute('data-status')).toBe('flagged');
    expect(await page.locator('[data-board-id="final-2"] .side.black .flag').isVisible()).toBe(true);
    expect(await page.locator('[data-board-id="final-2"] .side.white .flag').isVisible()).toBe(false);
    expect(await text('final-2', '.side.black .time')).toBe('0.0');
  });

  /** Opens a board's side panel from its line (the controls live in the panel, not in the line: docs/dashboard.md "The hall view (`/`) and its side panel"). */
  async function openPanel(boardId: string) {
    await page.click(`article[data-board-id="${boardId}"] .label`);
    await page.locator(`#panel[data-board="${boardId}"]`).waitFor({ state: 'visible', timeout: 5000 });
    return page.locator('#panel');
  }

  it('lets a signed-in arbiter pause a clock and add time; the clock and the page follow', async () => {
    // Controls are hidden until an arbiter signs in with a valid token, even in an open panel.
    let panel = await openPanel('final-1');
    expect(await panel.locator('button[data-action="pause"]').isVisible()).toBe(false);
    expect(await page.locator('article[data-board-id="final-1"] button').count()).toBe(0); // no control in a line
    await page.fill('#token', 'not-a-valid-token-at-all');
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.locator('#arbiter').innerText()).toBe('unknown arbiter token');
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.locator('#arbiter').innerText()).toBe('arbiter: Chief Arbiter');

    await hallAt(330_000);
    await panel.locator('button[data-action="pause"]').click();
    await expect.poll(() => page.locator('[data-board-id="final-1"]').getAttribute('data-status')).toBe('paused');
    expect(forwarded).toEqual([{ type: 'pause', boardId: 'final-1' }]);
    expect(host.actions().at(-1)).toMatchObject({ action: 'pause', boardId: 'final-1', arbiter: 'Chief Arbiter', outcome: 'applied' });
    expect(boards.get('final-1')!.actor.getSnapshot().matches('paused')).toBe(true);
    await expectTimes('final-1');
    const blackPaused = await text('final-1', '.side.black .time');
    // Paused: hall time passes, the page's times stand still.
    await hallAt(345_000);
    await page.waitForTimeout(150);
    expect(await text('final-1', '.side.black .time')).toBe(blackPaused);

    // +1 min for White (an arbiter correction, FIDE Laws 6.10.2) asks first, saying exactly
    // what changes (docs/dashboard.md: careful actions ask first): White's time before → after, from the rule book.
    const white = panel.locator('.group[data-side="white"]');
    await white.locator('button[data-ms="60000"]').click();
    const dialog = page.locator('dialog#confirm');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('.confirm-changes li').allInnerTexts()).toEqual(['Board 1, White (Tratar, Marko): 1:30:48 → 1:31:48']);
    expect(await dialog.locator('button.ok').innerText()).toBe('Add time');
    await dialog.locator('button.ok').click();
    await expect.poll(() => text('final-1', '.side.white .time')).toBe('1:31:48');
    expect(forwarded.at(-1)).toEqual({ type: 'adjust', boardId: 'final-1', side: 'white', ms: 60_000 });
    await expectTimes('final-1');
    expect(await panel.locator('.message').innerText()).toBe('+1 min (white): done by Chief Arbiter');

    // Resume from the page. Pausing a clock that is not running is not offered: the button is
    // disabled and says why in the host's own words (the rule book's rules/command-rules.ts,
    // docs/architecture.md "The rule book"), in the panel itself, not only in a tooltip; sent
    // anyway, the host refuses it with that reason.
    await panel.locator('button[data-action="resume"]').click();
    await expect.poll(() => page.locator('[data-board-id="final-1"]').getAttribute('data-status')).toBe('running');
    expect(await panel.locator('button[data-action="pause"]').isDisabled()).toBe(false);
    const reason = `board 2 of ${FINAL} round 1 is flagged, not running`;
    panel = await openPanel('final-2');
    const pauseFlagged = panel.locator('button[data-action="pause"]');
    await expect.poll(() => pauseFlagged.getAttribute('title')).toBe(reason);
    expect(await pauseFlagged.isDisabled()).toBe(true);
    // The reason's line names the controls it disables (other lines may say "paused" in their reasons).
    expect(await panel.locator('.refusals li', { hasText: reason }).locator('b').innerText()).toMatch(/^Pause\b/);
    expect(await panel.locator('.refusals').isVisible()).toBe(true);
    const refused = await page.evaluate(
      async ([id, token]) => (await fetch(`/api/boards/${id}/pause`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json(),
      ['final-2', TOKEN],
    );
    expect(refused.message).toBe(reason);
    expect(host.actions().at(-1)).toMatchObject({ outcome: 'rejected', arbiter: 'Chief Arbiter', reason });

    await hallAt(346_000);
    for (const id of boards.keys()) await expectTimes(id);
    await expect.poll(() => text('final-3', '.result')).toBe('break: 24:14 until the start · 900+10');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
  });

  it("a confirmation's Cancel (or Escape) changes nothing; Confirm applies exactly what it said (careful actions ask first; FIDE Laws 7.5.5)", async () => {
    const panel = await openPanel('final-1');
    const dialog = page.locator('dialog#confirm');
    const before = forwarded.length;
    const timesBefore = await page.evaluate(async () => (await (await fetch('/api/boards/final-1')).json()).board.live);
    // −1 min for Black: Cancel is focused first, so a stray Enter cancels.
    await panel.locator('.group[data-side="black"] button[data-ms="-60000"]').click();
    await dialog.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => panel.locator('.message').innerText()).toBe('−1 min (black): cancelled, nothing was sent');
    // Escape cancels as well.
    await panel.locator('.group[data-side="black"] button[data-ms="-60000"]').click();
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(forwarded.length).toBe(before);
    const timesAfter = await page.evaluate(async () => (await (await fetch('/api/boards/final-1')).json()).board.live);
    expect(timesAfter.seq).toBe(timesBefore.seq); // nothing reached the clock: no new event

    // A penalty for White's illegal move (FIDE Laws 7.5.5): Black, the opponent, gets 2 min in a
    // standard game. Paused, so the figures stand still while the dialog is open.
    await panel.locator('button[data-action="pause"]').click();
    await expect.poll(() => page.locator('[data-board-id="final-1"]').getAttribute('data-status')).toBe('paused');
    const blackBefore = boards.get('final-1')!.shows('black');
    await panel.locator('.group[data-side="white"] button[data-action="penalty"]').click();
    await dialog.waitFor({ state: 'visible' });
    const said = await dialog.locator('.confirm-changes li').allInnerTexts();
    const m = /^Board 1, Black \(Sebenik, Matej\): (\S+) → (\S+) \(\+2:00\)$/.exec(said[0]);
    expect(m, said[0]).not.toBeNull();
    expect(m![1]).toBe(blackBefore);
    await dialog.locator('button.ok').click();
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'penalty', boardId: 'final-1', side: 'white' });
    // What the dialog said is what the clock now shows, and what the API reports.
    await expect.poll(() => boards.get('final-1')!.shows('black')).toBe(m![2]);
    await expect.poll(() => text('final-1', '.side.black .time')).toBe(m![2]);
    await panel.locator('button[data-action="resume"]').click();
    await expect.poll(() => page.locator('[data-board-id="final-1"]').getAttribute('data-status')).toBe('running');
  });

  it('sign-in state: the token field is gone once signed in; Sign out brings it back', async () => {
    expect(await page.locator('#token').isVisible()).toBe(false);
    expect(await page.locator('#sign-out').isVisible()).toBe(true);
    expect(await page.locator('#arbiter').innerText()).toBe('arbiter: Chief Arbiter');
    await page.click('#sign-out');
    expect(await page.locator('#token').isVisible()).toBe(true);
    expect(await page.locator('#sign-out').isVisible()).toBe(false);
    expect(await page.locator('#panel button[data-action="pause"]').isVisible()).toBe(false);
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.locator('#arbiter').innerText()).toBe('arbiter: Chief Arbiter');
  });

  it('shows a journal storage fault above the boards until it clears (docs/reliability.md: disk full)', async () => {
    // A real SQLITE_FULL from the real engine: a database capped at its size refuses to grow.
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (b BLOB)');
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
    let full: unknown = null;
    for (let i = 0; i < 100 && full === null; i++) {
      try {
        db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(4096));
      } catch (err) {
        full = err;
      }
    }
    db.close();
    const storage = new StorageHealthTracker('/srv/hall/clocks.db', () => T0_UTC);
    host.health = () => ({ ok: storage.current.ok, journal: storage.current });
    const alert = page.locator('#health');
    expect(await alert.isHidden()).toBe(true);
    expect(storage.failed(full)).toBe(true);
    await expect.poll(() => alert.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await alert.innerText()).toMatch(
      /^Journal fault: the journal's disk is full \(SQLITE_FULL: .*\) at \/srv\/hall\/clocks\.db: clock events are not acknowledged/,
    );
    storage.succeeded();
    await expect.poll(() => alert.isHidden(), { timeout: 15_000 }).toBe(true);
  });
});

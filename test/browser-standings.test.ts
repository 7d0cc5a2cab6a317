// Standings of a team event on the arbiter dashboard and the public hall view, in a real
// Chromium (Debian package `chromium`, driven by playwright-core) against the real API over a
// JournalPorts on a SQLite journal in a temp file, the Ivanovo 2018 tournament file and the real
// standings (host/app/journal-standings.ts → host/domain/standings.ts, board-standings.ts).
// Results are entered and confirmed through the API and the page, as an arbiter does; the page
// asks GET /api/standings again only when a confirmation changes or the round moves on.
// A knockout-only hall (Slovenian final 2007) shows no standings and asks for none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalPorts } from '../host/app/journal-ports.ts';
import type { BoardView, StandingsView } from '../host/app/ports.ts';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { Director } from '../host/app/director.ts';
import { ARTIFACTS, launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the standings browser test');

const TOKEN = 'arbiter-token-for-the-standings-test';
const IVANOVO = 'ivanovo-2018';
const KNOCKOUT = 'slo-w-2007';
const START = Date.UTC(2018, 1, 13, 12, 0, 0);
// Round 1 (as host/app/journal-standings.test.ts): team 1 – team 2 on boards 1-4, team 3 – team 4
// on 5-8, team 5 has the bye; board 6: White (team 4) never came (FIDE Laws 6.7.1, a forfeit).
const RESULTS: Record<number, string> = { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' };

interface Hall {
  app: FastifyInstance;
  url: string;
  host: JournalPorts;
  journal: Journal;
}

describe.skipIf(SKIP_BROWSER)('standings of a team event in Chromium (Debian package `chromium`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessclock-standings-'));
  let browser: Browser;
  let team: Hall;
  let knockout: Hall;
  const errors: string[] = [];
  /** Every GET /api/standings a page made, by event. */
  const asked: string[] = [];

  /** A real host over a SQLite file: the tournament file, round 1 opened by the director. */
  async function openHall(fixture: string, eventId: string): Promise<Hall> {
    const hall = loadTournamentFile(fileURLToPath(new URL(`../host/domain/fixtures/${fixture}`, import.meta.url)));
    const journal = new Journal(join(dir, `${eventId}.sqlite`));
    new Director(journal, hall).openRound(eventId, 1, START, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [i + 1, `${eventId}-clk-${i + 1}`])));
    const host = new JournalPorts({ journal, hall, nowUtcMs: () => START });
    // As the Host does (host/app/host.ts): standings from the journal and the tournament file.
    const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Glavny Sudya', token: TOKEN }], nowUtcMs: () => START });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url, host, journal };
  }

  beforeAll(async () => {
    team = await openHall('ivanovo-white-rook-2018.json', IVANOVO);
    knockout = await openHall('slovenian-final-2007.json', KNOCKOUT);
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await team?.app.close();
    await knockout?.app.close();
    team?.journal.close();
    knockout?.journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(hall: Hall, path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const p = await browser.newPage({ viewport });
    p.setDefaultTimeout(5000);
    p.on('pageerror', (err) => errors.push(err.message));
    // Any console error fails the test, a refused request ("Failed to load resource: … 409") included.
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    p.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/standings') asked.push(u.searchParams.get('event') ?? '');
    });
    await p.goto(hall.url + path);
    await p.locator('#connection[data-state="live"]').waitFor();
    return p;
  }

  async function call(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fetch(team.url + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${method} ${path}`).toBe(200);
  }

  const cells = (p: Page, team: number) => p.locator(`#standings tr[data-team="${team}"] td`).allInnerTexts();
  const heads = (p: Page) => p.locator('#standings thead th').allInnerTexts();

  it('arbiter page: after round 1, the team order with every value; the tie decided on board 1 points is marked; refreshed on confirmation, not on clock events', async () => {
    const page = await openPage(team, '/');
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.locator('#arbiter').innerText()).toBe('arbiter: Glavny Sudya');
    const block = page.locator(`#standings .standing[data-event="${IVANOVO}"]`);
    // Before any confirmed result: the section is there, with no table yet.
    await expect.poll(() => block.locator('.standing-round').innerText()).toBe('no round complete yet');
    expect(await block.locator('table').count()).toBe(0);
    expect(asked).toEqual([IVANOVO]); // once on connect

    // A clock event (board 1's clock starts the game) changes the card but not the standings: no request.
    const board1 = (await (await fetch(`${team.url}/api/boards?event=${IVANOVO}`)).json()).boards.find((b: BoardView) => b.board === 1) as BoardView;
    team.host.append({
      clockId: `${IVANOVO}-clk-1`,
      bootId: 'boot-1',
      seq: 1,
      type: 'started',
      side: null,
      whiteMs: 3_600_000,
      blackMs: 3_600_000,
      monoMs: 0,
      utcMs: START,
      uncertaintyMs: 1,
    });
    const card1 = page.locator(`article[data-board-id="${board1.id}"]`);
    await expect.poll(() => card1.getAttribute('data-status')).toBe('running');
    // Default time tracked (Ivanovo: 15 min, FIDE Laws 6.7.1) and nobody has pressed: both shown absent, White on move.
    expect(await card1.locator('.side .absent:not([hidden])').count()).toBe(2);
    expect(await card1.locator('.side.white.on-move').count()).toBe(1);

    // Results entered (unconfirmed) change nothing in the standings: no request either.
    const boards = (await (await fetch(`${team.url}/api/boards?event=${IVANOVO}`)).json()).boards as BoardView[];
    for (const b of boards) await call('PUT', `/api/boards/${b.id}/result`, { result: RESULTS[b.board!] });
    await expect.poll(() => page.locator('#pending li').count()).toBe(8);
    expect(asked).toEqual([IVANOVO]);
    // A forfeit is shown in the vocabulary's words (rules/vocabulary.ts RESULT_MEANING label), not as a bare code.
    const board6 = boards.find((b) => b.board === 6)!;
    await expect.poll(() => page.locator(`article[data-board-id="${board6.id}"] .result`).innerText()).toBe('−+ (White forfeits) (unconfirmed)');
    expect(await page.locator('#pending li .pending-value').allInnerTexts()).toContain('−+ (White forfeits)');

    // A game with a result is over, though its clock was left running: nobody on move, no default-time countdown.
    await expect.poll(() => card1.locator('.side .absent:not([hidden])').count()).toBe(0);
    expect(await card1.locator('.side.on-move').count()).toBe(0);

    // Seven confirmed over the API; the last from the page's pending list (the page's own write).
    for (const b of boards.filter((x) => x.board !== 8)) await call('POST', `/api/boards/${b.id}/result/confirm`);
    await expect.poll(() => page.locator('#pending li').count()).toBe(1);
    expect(await block.locator('.standing-round').innerText()).toBe('no round complete yet'); // round 1 not complete
    await page.locator('#pending li button[data-action="confirm"]').click();
    await expect.poll(() => block.locator('.standing-round').innerText()).toBe('after round 1');
    // Ivanovo: appeals within 15 minutes after the round ends (docs/regulations.md); every result was in at 12:00.
    await expect.poll(() => card1.locator('.result').innerText()).toBe('1-0 ✓ confirmed · appeal until 12:15 UTC');
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.length).toBeLessThanOrEqual(1 + 8); // at most one per confirmation
    expect(new Set(asked)).toEqual(new Set([IVANOVO]));

    // Every column on the arbiter page, in the regulation's order (docs/tournament.md).
    expect(await heads(page)).toEqual(['#', 'Team', 'Board pts', 'Match pts', 'Direct', 'Buchholz', 'B1', 'B2', 'B3', 'B4']);
    const order = await page.locator('#standings tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.team));
    expect(order).toEqual(['3', '1', '5', '2', '4']);
    // Values as GET /api/standings computes them (team 3: 3½ board points, 2 match points; direct
    // encounter "—": teams 1, 2 and 5 did not all meet, C.07 6.2; team 5's bye: ½ on every board).
    expect(await cells(page, 3)).toEqual(['1', 'Школа № 3', '3½', '2', '—', '½', '1', '1', '½', '1']);
    expect(await cells(page, 1)).toEqual(['2', 'Школа № 1', '2', '1', '—', '2', '1', '½', '0', '½']);
    expect(await cells(page, 5)).toEqual(['3', 'Школа № 5', '2', '1', '—', '2', '½', '½', '½', '½']);
    expect(await cells(page, 2)).toEqual(['4', 'Школа № 2', '2', '1', '—', '2', '0', '½', '1', '½']);
    expect(await cells(page, 4)).toEqual(['5', 'Школа № 4', '½', '0', '—', '3½', '0', '0', '½', '0']);
    const api = await (await fetch(`${team.url}/api/standings?event=${IVANOVO}`)).json();
    expect(api.teams.map((t: { team: number }) => String(t.team))).toEqual(order);

    // Teams 1, 5, 2: level on board points, match points and Buchholz; board 1 points decided
    // (regulation "Награждение": then the points on board 1). Marked on those three only.
    const deciders = await page
      .locator('#standings td.decider')
      .evaluateAll((tds) => tds.map((td) => [(td.parentElement as HTMLElement).dataset.team, (td as HTMLElement).dataset.col, td.textContent]));
    expect(deciders).toEqual([
      ['1', 'board1', '1'],
      ['5', 'board1', '½'],
      ['2', 'board1', '0'],
    ]);
    expect(await block.locator('.tie-notes li').allInnerTexts()).toEqual([
      'Школа № 1 ahead of Школа № 5 on board 1 points (1 – ½)',
      'Школа № 5 ahead of Школа № 2 on board 1 points (½ – 0)',
    ]);

    // Board prizes: board 1's winners 1 and 9 never met and are level on Buchholz and wins: shared.
    const leader1 = block.locator('.board-leaders li[data-board="1"]');
    expect(await leader1.locator('.leader').innerText()).toBe('Shkola1, Igrok1 (Школа № 1), Shkola3, Igrok1 (Школа № 3)');
    expect(await leader1.locator('.leader-points').innerText()).toBe('1');
    expect(await leader1.locator('.shared').count()).toBe(1);
    expect(await block.locator('.board-leaders li').count()).toBe(4);
    const view = api as StandingsView;
    const teamName = (id: number) => view.teams.find((t) => t.team === id)!.name;
    for (const b of view.boards) {
      const top = b.players.filter((p) => p.rank === 1);
      expect(await block.locator(`.board-leaders li[data-board="${b.board}"] .leader`).innerText()).toBe(
        top.map((p) => `${p.name} (${teamName(p.team!)})`).join(', '),
      );
      expect(await block.locator(`.board-leaders li[data-board="${b.board}"] .leader-points`).innerText()).toBe(String(top[0].points));
    }
    await page.screenshot({ path: join(ARTIFACTS, 'standings-arbiter.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('public page: the main columns and the deciding board 1 column in a large font, no controls', async () => {
    const pub = await openPage(team, `/public?event=${IVANOVO}`);
    const block = pub.locator(`#standings .standing[data-event="${IVANOVO}"]`);
    await expect.poll(() => block.locator('.standing-round').innerText()).toBe('after round 1');
    expect(await block.locator('h2 .standing-title').innerText()).toBe('Standings · Белая ладья - первенство г. Иваново');
    // Buchholz and direct encounter decided nothing here: not shown to the hall; board 1 did.
    expect(await heads(pub)).toEqual(['#', 'Team', 'Board pts', 'Match pts', 'B1']);
    expect(await cells(pub, 1)).toEqual(['2', 'Школа № 1', '2', '1', '1']);
    expect(await cells(pub, 5)).toEqual(['3', 'Школа № 5', '2', '1', '½']);
    expect(await pub.locator('#standings td.decider').count()).toBe(3);
    expect(await pub.locator('button, input, select:not(#event-filter):not(#round-filter), textarea, .controls').count()).toBe(0);
    expect(await block.locator('.board-leaders .why').count()).toBe(0); // the arbiter's detail only
    const fontPx = await pub
      .locator('#standings td.team')
      .first()
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(fontPx).toBeGreaterThanOrEqual(24); // legible from the back of the hall
    expect(await pub.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await pub.screenshot({ path: join(ARTIFACTS, 'standings-public.png'), fullPage: true });

    // On a phone (390 px): the standings are not cut off: the page does not scroll
    // sideways, and the table scrolls inside its own box until its last column is in view.
    const phone = await openPage(team, `/public?event=${IVANOVO}`, { width: 390, height: 844 });
    const scroller = phone.locator(`#standings .standing[data-event="${IVANOVO}"] .table-scroll`);
    await scroller.waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await scroller.evaluate((e) => (e.scrollLeft = e.scrollWidth));
    const box = (await scroller.boundingBox())!;
    const lastHead = (await phone.locator('#standings thead th').last().boundingBox())!;
    expect(lastHead.x).toBeGreaterThanOrEqual(box.x - 1);
    expect(lastHead.x + lastHead.width).toBeLessThanOrEqual(box.x + box.width + 1);
    const firstCell = (await phone.locator('#standings tbody tr').first().locator('td').first().boundingBox())!;
    await scroller.evaluate((e) => (e.scrollLeft = 0));
    expect((await phone.locator('#standings tbody tr').first().locator('td').first().boundingBox())!.x).toBeGreaterThanOrEqual(box.x - 1);
    expect(firstCell.width).toBeGreaterThan(0);
    await phone.screenshot({ path: join(ARTIFACTS, 'standings-public-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('a knockout-only hall: no standings section, no request for them, no console error', async () => {
    const before = asked.length;
    for (const path of ['/', '/public']) {
      const p = await openPage(knockout, path);
      await expect.poll(() => p.locator('article.board').count()).toBeGreaterThan(0);
      await p.waitForTimeout(200); // room for a request the page should not make
      expect(await p.locator('#standings').isVisible()).toBe(false);
      expect(await p.locator('#standings .standing').count()).toBe(0);
    }
    expect(asked.length).toBe(before);
    expect(errors).toEqual([]);
  });
});

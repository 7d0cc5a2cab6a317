// The captain's view (/captain) and the dashboard's match panels (dashboard/src/match-panels.ts) in a real Chromium
// (Debian package `chromium`, driven by playwright-core) against the real API over a JournalPorts
// on SQLite journals in temp files:
//  - Ivanovo 2018 team Swiss (docs/regulations.md: the captains sign the match protocol): a
//    captain signs in on a phone-sized page, confirms the results shown, and sees the
//    confirmation voided when the arbiter corrects a result; the arbiter dashboard shows each
//    captain's state per match.
//  - Slovenian final 2007 art. 3 (colours by lot): /public shows per board who has White, how the
//    lot was drawn (the host's cryptographic draw, or the hall's draw entered by an arbiter), and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../host/adapters/http/api.ts';
import { boardIdOf, JournalPorts } from '../host/app/journal-ports.ts';
import { TeamMatchProtocols } from '../host/app/captains.ts';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile, parseTournament } from '../host/domain/tournament-file.ts';
import type { Hall as TournamentHall } from '../host/domain/model.ts';
import { Director } from '../host/app/director.ts';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the captain view browser test');

const ARBITER = { arbiter: 'Glavny Sudya', token: 'arbiter-token-for-the-captain-test' };
const CAPTAIN = { captain: 'Kapitan Pervoy', event: 'ivanovo-2018', team: 1, token: 'captain-token-of-school-one-0123' };
const IVANOVO = 'ivanovo-2018';
const KNOCKOUT = 'slo-w-2007';
const START = Date.UTC(2018, 1, 13, 12, 0, 0);
const T0 = Date.UTC(2007, 7, 16, 14, 0);

interface Running {
  app: FastifyInstance;
  url: string;
  journal: Journal;
}

describe.skipIf(SKIP_BROWSER)('captain view and match panels in Chromium (Debian package `chromium`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessclock-captain-'));
  let browser: Browser;
  let team: Running;
  let knockout: Running;
  let now = START;
  const errors: string[] = [];

  async function serve(hall: TournamentHall, file: string, open: (journal: Journal) => void, clock: () => number, captains = [CAPTAIN]): Promise<Running> {
    const journal = new Journal(join(dir, file));
    open(journal);
    const ports = new JournalPorts({ journal, hall, nowUtcMs: clock });
    // As the Host does (host/app/host.ts): standings from the journal and the tournament file.
    const app = await buildApi({
      state: ports,
      commands: ports,
      tokens: [ARBITER],
      captains,
      teamMatches: new TeamMatchProtocols(journal, hall, clock),
      nowUtcMs: clock,
    });
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }), journal };
  }

  beforeAll(async () => {
    const ivanovo = loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    team = await serve(
      ivanovo,
      'ivanovo.sqlite',
      (j) => new Director(j, ivanovo).openRound(IVANOVO, 1, START),
      () => now,
    );
    // The Slovenian final without its rehearsal seed, game 1's colours left to the lot: board 1's
    // drawn in the hall and entered by an arbiter, board 2's drawn by the host when the round opens.
    const raw = JSON.parse(readFileSync(fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url)), 'utf8'));
    const ev = raw.events.find((e: { id: string }) => e.id === KNOCKOUT);
    delete ev.knockout.seed;
    for (const k of ev.rounds[0].knockout) delete k.firstWhite;
    const slo = parseTournament(raw);
    knockout = await serve(
      slo,
      'slo.sqlite',
      (j) => {
        const director = new Director(j, slo);
        director.enterLot(KNOCKOUT, 1, 1, 'classical', 4, 'Ana Srebrnič', T0 - 15 * 60_000);
        director.openRound(KNOCKOUT, 1, T0 - 10 * 60_000);
      },
      () => T0,
      [],
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const r of [team, knockout]) {
      await r?.app.close();
      r?.journal.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const p = await browser.newPage({ viewport });
    p.setDefaultTimeout(5000);
    p.on('pageerror', (err) => errors.push(err.message));
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    p.on('dialog', (d) => void d.accept());
    await p.goto(url);
    return p;
  }

  async function arbiter(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fetch(team.url + path, {
      method,
      headers: { authorization: `Bearer ${ARBITER.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(200);
  }

  it("a captain confirms on a phone; the dashboard shows it per match; the arbiter's correction voids it on both pages", async () => {
    const phone = await openPage(`${team.url}/captain`, { width: 390, height: 844 });
    await phone.fill('#captain-token', CAPTAIN.token);
    await phone.click('#captain-form button[type="submit"]');
    await expect.poll(() => phone.locator('#match-title').innerText()).toBe('Round 1, match 1: Школа № 1 – Школа № 2');
    expect(await phone.locator('#who').innerText()).toMatch(/^Kapitan Pervoy · captain of Школа № 1/);
    // No result yet: Confirm is not offered.
    expect(await phone.locator('#confirm').isDisabled()).toBe(true);
    // Phone-friendly: nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const dash = await openPage(`${team.url}/`);
    await dash.fill('#token', ARBITER.token);
    await dash.click('#token-form button[type="submit"]');
    await expect.poll(() => dash.locator('#arbiter').innerText()).toBe('arbiter: Glavny Sudya');

    for (const [board, result] of [
      [1, '1-0'],
      [2, '1/2-1/2'],
      [3, '0-1'],
      [4, '1/2-1/2'],
    ] as const) {
      await arbiter('PUT', `/api/boards/${boardIdOf(IVANOVO, board)}/result`, { result });
    }
    await phone.click('#refresh');
    await expect.poll(() => phone.locator('#confirm').isDisabled()).toBe(false);
    expect(await phone.locator('#match-boards tbody tr td.result').allInnerTexts()).toEqual(['1-0', '½-½', '0-1', '½-½']);
    expect(await phone.locator('#match-score').innerText()).toBe('2 – 2');
    now = START + 3 * 3_600_000;
    await phone.click('#confirm');
    await expect.poll(() => phone.locator('#captain-message').innerText()).toBe('Confirmed by Kapitan Pervoy.');
    expect(await phone.locator('#marks li[data-state="confirmed"]').innerText()).toBe('You (Kapitan Pervoy) confirmed at 15:00 UTC');
    expect(await phone.locator('#confirm').isDisabled()).toBe(true);

    // The dashboard: the match's protocol with the captain's confirmation and the other's absence.
    const match = dash.locator(`#team-matches li.team-match[data-match="${IVANOVO}/r1/m1"]`);
    // Over the live feed (a `team-match` message), not the 30 s poll: well within the 5 s wait.
    await expect.poll(() => match.locator('.captain-mark[data-team="1"]').innerText()).toBe('Школа № 1: ✓ confirmed by Kapitan Pervoy at 15:00 UTC');
    expect(await match.locator('.captain-mark[data-team="2"]').innerText()).toBe('Школа № 2: captain has not confirmed');

    // The arbiter corrects board 2: the captain's confirmation is void, on both pages.
    now += 10 * 60_000;
    await arbiter('PUT', `/api/boards/${boardIdOf(IVANOVO, 2)}/result`, { result: '1-0' });
    await expect.poll(() => match.locator('.captain-mark[data-team="1"]').getAttribute('data-state'), { timeout: 15_000 }).toBe('void');
    expect(await match.locator('.captain-mark[data-team="1"]').innerText()).toBe(
      'Школа № 1: confirmed by Kapitan Pervoy at 15:00 UTC — void: board 2 corrected ½-½ → 1-0 by Glavny Sudya at 15:10 UTC',
    );
    await phone.click('#refresh');
    await expect
      .poll(() => phone.locator('#marks li[data-state="void"]').first().innerText())
      .toMatch(/^Your confirmation \(confirmed by Kapitan Pervoy at 15:00 UTC\) is void: the arbiter corrected board 2 \(½-½ → 1-0\) at 15:10 UTC/);
    expect(await phone.locator('#confirm').isDisabled()).toBe(false);

    // The arbiter confirms every board, then the match from the dashboard: final, taken without
    // the captains (the line says whose confirmation it lacked); the captain can no longer dispute.
    for (let board = 1; board <= 4; board++) await arbiter('POST', `/api/boards/${boardIdOf(IVANOVO, board)}/result/confirm`);
    now += 5 * 60_000;
    await match.locator('button.confirm-match').click({ timeout: 15_000 });
    await expect
      .poll(() => match.locator('.arbiter-mark').innerText())
      .toBe('match confirmed by Glavny Sudya at 15:15 UTC (final), without the confirmation of Школа № 1 and Школа № 2');
    expect(await match.locator('button.confirm-match').count()).toBe(0);
    await phone.click('#refresh');
    await expect.poll(() => phone.locator('#marks li[data-state="final"]').innerText()).toMatch(/^Confirmed by the arbiter Glavny Sudya at 15:15 UTC: final/);
    expect(await phone.locator('#dispute').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await phone.close();
    await dash.close();
  });

  it('Slovenian final art. 3: /public shows on each board who drew White by lot, how and when', async () => {
    const page = await openPage(`${knockout.url}/public`);
    const line = (board: number) => page.locator(`article[data-board-id="${boardIdOf(KNOCKOUT, board)}"] .lot li`);
    await expect
      .poll(() => line(1).allInnerTexts())
      .toEqual([expect.stringMatching(/^Colours by lot \(game 1\): .+ has White — drawn in the hall, entered by arbiter Ana Srebrnič at 13:45 UTC$/)]);
    await expect
      .poll(() => line(2).allInnerTexts())
      .toEqual([expect.stringMatching(/^Colours by lot \(game 1\): .+ has White — drawn by the host \(cryptographic random draw\) at 13:50 UTC$/)]);
    // The name is the journal's: the player the lot gave White is White on the board.
    const board1 = (await (await fetch(`${knockout.url}/api/boards/${boardIdOf(KNOCKOUT, 1)}`)).json()).board;
    expect(await line(1).innerText()).toContain(`${board1.white.name} has White`);
    expect(errors).toEqual([]);
    await page.close();
  });
});

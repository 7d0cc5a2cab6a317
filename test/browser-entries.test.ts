// An event's entries on the arbiter dashboard (docs/dashboard.md "Next round", docs/tournament.md
// "Entries"), in a real Chromium (Debian package `chromium`, driven by playwright-core) against a
// host composed by host/start-host.ts: the signed-in arbiter enters a withdrawal and a requested
// bye from the next-round section's form; the host journals each with the arbiter's name and the
// form says what it recorded; an entry for a round already paired shows the host's reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { REQUESTED_BYE, WITHDRAW } from '../host/app/entries.ts';
import { ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the entries dashboard test');

const TOKEN = 'entries-browser-arbiter-token-0123';
const WAIT = { timeout: 15_000 };

describe.skipIf(SKIP_BROWSER)('entries on the dashboard in Chromium (Debian package `chromium`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessclock-entries-'));
  let browser: Browser;
  let running: RunningHost;

  beforeAll(async () => {
    running = await startHost({
      journal: join(dir, 'journal.sqlite'),
      hall: parseTournament(swissTournament()),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }] },
      log: () => undefined,
    });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a withdrawal and a requested bye from the form, journaled with the arbiter; a round already paired is refused with the reason', async () => {
    const { host, journal } = running;
    await confirmRound(host, 1, ['1-0', '0-1']); // round 2 is not paired yet
    const errors: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(running.url + '/');
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    const form = page.locator('#next-round form.entries');
    await form.waitFor({ state: 'visible', ...WAIT });
    await expect.poll(() => form.locator('select[name="entry-event"] option').allInnerTexts(), WAIT).toContain(SWISS);
    const message = form.locator('.message');

    await form.locator('select[name="kind"]').selectOption('withdrawal');
    // Only the fields of a withdrawal show.
    expect(await form.locator('[data-field="name"]').isHidden()).toBe(true);
    await form.locator('input[name="player"]').fill('3');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => message.innerText(), WAIT).toBe(`Tretji, Igralec withdrawn from round 2 on by ${ARBITER}`);

    await form.locator('select[name="kind"]').selectOption('bye');
    await form.locator('input[name="player"]').fill('5');
    await form.locator('input[name="round"]').fill('2');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => message.innerText(), WAIT).toBe(`Peti, Igralec: requested bye in round 2, 0.5 point(s) (H), entered by ${ARBITER}`);
    expect(journal.arbiterActions().filter((a) => a.action === WITHDRAW || a.action === REQUESTED_BYE)).toEqual([
      expect.objectContaining({ action: WITHDRAW, arbiter: ARBITER, round: 2 }),
      expect.objectContaining({ action: REQUESTED_BYE, arbiter: ARBITER, round: 2, payload: { player: 5, round: 2, points: 0.5, kind: 'H' } }),
    ]);

    // Round 1 is in the tournament file: already paired, the host says so, nothing is journaled.
    await form.locator('input[name="round"]').fill('1');
    await form.locator('button[type="submit"]').click();
    await expect
      .poll(() => message.innerText(), WAIT)
      .toBe(`the requested bye of player 5 in round 1: event "${SWISS}" round 1 is already paired; an entry changes only rounds not paired yet`);
    expect(await message.getAttribute('data-kind')).toBe('error');
    expect(journal.arbiterActions().filter((a) => a.action === REQUESTED_BYE)).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 60_000);
});

// The arbiter's corrections on the dashboard, in a real Chromium (Debian package `chromium`,
// driven by playwright-core) against the real API over a JournalPorts on a journal in memory
// (JournalBoards) fed by simulated clocks
// (the unchanged clock statechart on one SimulatedClock; see browser-harness.ts): the take-back
// with its choice of the clock times and their preview (FIDE Laws 7.5.1, 7.1), the second illegal
// move (7.5.5), the side on move and a corrected control (6.10.2), the quickplay delay
// (Guidelines III.4), and a start at a default time of 0 that asks who is at the board (6.7.1),
// for one board and for a round. docs/dashboard.md "The arbiter's corrections" and "Default time
// 0: who is present?". Every command the page sends reaches the board's statechart, and what the
// page promised is read back from the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { formatTimeControl, parseSideControl, presetTimeControl, timeControl, type TimeControl } from '../protocol/time-control.ts';
import { formatClockTime } from '../rules/display-format.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import { boardIdOf } from '../host/app/board-views.ts';
import type { ArbiterCommand } from '../host/app/ports.ts';
import { ARTIFACTS, launchChromium, SimulatedBoard, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the arbiter corrections browser test');

const TOKEN = 'arbiter-token-for-the-corrections-test';
/** Hall time 0 = this UTC instant (2026-03-14 09:00 UTC). */
const T0_UTC = Date.UTC(2026, 2, 14, 9, 0, 0);
const FINAL = 'Slovenian Women Final 2026';
const ZERO = 'Blitz-free Open 2026';
/** The boards (ids as the host gives them: boardIdOf): the final's three, the open's three. */
const [K1, K2, K3] = [1, 2, 3].map((n) => boardIdOf(FINAL, n));
const [Z1, Z2, Z3] = [1, 2, 3].map((n) => boardIdOf(ZERO, n));

describe.skipIf(SKIP_BROWSER)("the arbiter's corrections in Chromium (Debian package `chromium`)", () => {
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  const hall = new SimulatedClock();
  const clocks = new Map<string, SimulatedBoard>();
  const host = new JournalBoards({
    nowUtcMs: () => T0_UTC + hall.now(),
    clock: async (command) => {
      toTheClock(command);
      return { ok: true };
    },
  });
  const forwarded = host.forwarded;

  function addBoard(id: string, event: string, board: number, white: string, black: string, control: TimeControl): void {
    host.addBoard({ id, event, round: 1, board, clockId: `clk-${id}`, white: { name: white }, black: { name: black }, control });
    clocks.set(id, new SimulatedBoard(host, hall, T0_UTC, `clk-${id}`, { event, round: 1, board }, control));
  }

  /** Accepted arbiter commands reach the board's clock as its inputs, stamped with hall time. */
  function toTheClock(command: ArbiterCommand): void {
    const clock = clocks.get(command.boardId);
    if (!clock) return;
    const at = hall.now();
    switch (command.type) {
      case 'start':
        return clock.send({ type: 'START', at });
      case 'pause':
        return clock.send({ type: 'PAUSE', at });
      case 'resume':
        return clock.send({ type: 'RESUME', at });
      case 'arrive':
        return clock.send({ type: 'ARRIVE', side: command.side, at });
      case 'penalty':
        return clock.send({ type: 'PENALTY', side: command.side, at });
      case 'takeback':
        return clock.send({ type: 'TAKEBACK', times: command.times, at });
      case 'set-turn':
        return clock.send({ type: 'SET_TURN', side: command.side, at });
      case 'set-control':
        return clock.send({ type: 'SET_CONTROL', timeControl: command.timeControl, at });
      case 'delay':
        return clock.send({ type: 'DELAY', ms: command.ms, at });
      case 'increment':
        return clock.send({ type: 'INCREMENT', ms: command.ms, at });
      default:
        return;
    }
  }

  beforeAll(async () => {
    addBoard(K1, FINAL, 1, 'Tratar, Mira', 'Sebenik, Maja', presetTimeControl('classical'));
    addBoard(K2, FINAL, 2, 'Borišek, Jana', 'Lenič, Lara', presetTimeControl('rapid'));
    addBoard(K3, FINAL, 3, 'Novak, Eva', 'Kos, Nina', timeControl(parseSideControl('300'), parseSideControl('300'))); // blitz (FIDE Laws A.1)
    // FIDE Laws 6.7.1: the event sets a default time of 0.
    const zero = presetTimeControl('sudden-death-60', { defaultTime: 0 });
    addBoard(Z1, ZERO, 1, 'Ivanova, Anna', 'Petrova, Olga', zero);
    addBoard(Z2, ZERO, 2, 'Smirnova, Daria', 'Orlova, Vera', zero);
    addBoard(Z3, ZERO, 3, 'Volkova, Irina', 'Sokolova, Yana', zero);
    app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Chief Arbiter', token: TOKEN }], nowUtcMs: () => T0_UTC + hall.now() });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(8000);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.clock.setFixedTime(T0_UTC);
    await page.goto(url);
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await page.locator('#sign-out:not([hidden])').waitFor();
    expect(errors).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    host.close();
  });

  /** Moves hall time to `ms` for the clocks and the page. */
  async function hallAt(ms: number): Promise<number> {
    hall.set(ms);
    await page.clock.setFixedTime(T0_UTC + ms);
    return ms;
  }
  const card = (id: string) => page.locator(`article[data-board-id="${id}"]`);
  const dialog = () => page.locator('dialog#confirm');
  async function panel(id: string) {
    const open = page.locator(`#panel[data-board="${id}"]`);
    if (!(await open.isVisible())) {
      await card(id).locator('.label').click();
      await open.waitFor({ state: 'visible' });
    }
    return page.locator('#panel');
  }
  /** The confirmation's words: title, changes, and each answer of its choice with its lines. */
  async function confirmation() {
    const d = dialog();
    await d.waitFor({ state: 'visible' });
    const options = await d.locator('.confirm-choice .choice-option').evaluateAll((labels) =>
      labels.map((l) => ({
        value: l.querySelector('input')!.value,
        type: l.querySelector('input')!.type,
        checked: l.querySelector('input')!.checked,
        label: l.querySelector('.choice-label')!.textContent!,
        lines: Array.from(l.querySelectorAll('.choice-line')).map((x) => x.textContent!),
      })),
    );
    return {
      title: await d.locator('.confirm-title').innerText(),
      changes: await d.locator('.confirm-changes li').allInnerTexts(),
      note: await d.locator('.confirm-note').innerText(),
      options,
    };
  }
  async function answer(ok: boolean): Promise<void> {
    await dialog()
      .locator(ok ? 'button.ok' : 'button.cancel')
      .click();
    await dialog().waitFor({ state: 'hidden' });
  }
  const status = (id: string) => card(id).getAttribute('data-status');

  it("take-back (FIDE Laws 7.5.1, 7.1): the confirmation offers Rewind and Keep, each with both clocks as the host's preview says; Keep is sent and the clock keeps its times", async () => {
    const clock = clocks.get(K1)!;
    clock.send({ type: 'START', at: 0 });
    clock.send({ type: 'PRESS', side: 'white', at: await hallAt(10_000) });
    clock.send({ type: 'PRESS', side: 'black', at: await hallAt(30_000) });
    clock.send({ type: 'PRESS', side: 'white', at: await hallAt(45_000) });
    await hallAt(70_000);
    const p = await panel(K1);
    await p.locator('button[data-action="pause"]').click();
    await expect.poll(() => status(K1)).toBe('paused');

    await p.locator('button[data-action="takeback"]').click();
    const asked = await confirmation();
    expect(asked.title).toBe("Take back White's last move (#2) on board 1?");
    expect(asked.changes[0]).toBe('Board 1, White (Tratar, Mira): moves #2 → #1, on move again');
    expect(asked.options.map((o) => [o.type, o.value, o.label, o.checked])).toEqual([
      ['radio', 'rewind', 'Rewind the times', true],
      ['radio', 'keep', 'Keep the times', false],
    ]);
    // Each answer says what both clocks will show: the host's preview (the rule book's takeBack, both ways).
    const preview = host.board(K1)!.live!.takebackPreview!;
    const now = { white: clock.shows('white'), black: clock.shows('black') };
    expect(asked.options[0].lines).toEqual([
      `Board 1, White (Tratar, Mira): ${now.white} → ${formatClockTime(preview.rewind.white)}`,
      `Board 1, Black (Sebenik, Maja): ${now.black} → ${formatClockTime(preview.rewind.black)}`,
    ]);
    expect(asked.options[1].lines).toEqual([
      `Board 1, White (Tratar, Mira): ${now.white} → ${now.white} (kept)`,
      `Board 1, Black (Sebenik, Maja): ${now.black} → ${now.black} (kept)`,
    ]);
    // Black's clock ran 25 s after the annulled press: the two answers differ (Laws 7.1 matters here).
    expect(formatClockTime(preview.rewind.black)).not.toBe(now.black);
    // Accessible with the choice open: axe-core, WCAG 2.x A/AA, no serious or critical violation.
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).include('dialog#confirm').analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    expect(serious, serious.join('\n')).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-takeback-choice.png') });

    await dialog().locator('.choice-option', { hasText: 'Keep the times' }).click();
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'takeback', boardId: K1, times: 'keep' });
    expect({ white: clock.shows('white'), black: clock.shows('black') }).toEqual(now);
    await expect.poll(() => card(K1).locator('.side.white .moves').innerText()).toBe('#1');
    await expect.poll(() => card(K1).locator('.side.white .illegal').innerText()).toBe('1 illegal');
    expect(await p.locator('.message').innerText()).toBe('Take back move (keep the times): done by Chief Arbiter');
  });

  it('a second illegal move (FIDE Laws 7.5.5): the panel and the attention strip say the game is lost unless the opponent cannot checkmate; the result entry is preselected, nothing is entered', async () => {
    const clock = clocks.get(K1)!;
    const p = await panel(K1);
    expect(await p.locator('.panel-illegal').isVisible()).toBe(false);
    expect(await p.locator('select.result-select').inputValue()).toBe('');
    // White plays the illegal move again; the arbiter takes it back (rewinding the times, the answer preselected).
    await p.locator('button[data-action="resume"]').click();
    await expect.poll(() => status(K1)).toBe('running');
    clock.send({ type: 'PRESS', side: 'white', at: await hallAt(80_000) });
    await p.locator('button[data-action="pause"]').click();
    await expect.poll(() => status(K1)).toBe('paused');
    await p.locator('button[data-action="takeback"]').click();
    await confirmation();
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'takeback', boardId: K1, times: 'rewind' });

    const notice = p.locator('.panel-illegal');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toBe(
      "White has made a second illegal move: under FIDE Laws 7.5.5 the game is lost for White, unless Black cannot checkmate by any series of legal moves (then it is a draw). Record the result: the result entry below is set to Black's win.",
    );
    expect(await card(K1).locator('.side.white .illegal').innerText()).toBe('2 illegal (7.5.5)');
    const item = page.locator(`#attention li[data-attention-board="${K1}"]`);
    await expect.poll(() => item.getAttribute('data-kind')).toBe('illegal');
    expect(await item.getAttribute('data-severity')).toBe('red');
    expect(await item.locator('.attention-text').innerText()).toBe(
      "Board 1 · White's second illegal move · lost unless Black cannot checkmate (FIDE Laws 7.5.5) · record the result",
    );
    // Asked, not decided: the entry is set to Black's win, and the board has no result until the arbiter enters it.
    expect(await p.locator('select.result-select').inputValue()).toBe('0-1');
    expect(host.board(K1)!.result).toBeNull();
    await p.locator('button[data-action="result"]').click();
    await expect.poll(() => host.board(K1)!.result).toBe('0-1');
    await expect.poll(() => notice.isVisible()).toBe(false);
    await expect.poll(() => item.getAttribute('data-kind')).toBe('result');
  });

  it("the side on move (FIDE Laws 6.10.2): a replacement clock set up with Black on move; refused while running in the rule book's words", async () => {
    const clock = clocks.get(K2)!;
    const p = await panel(K2);
    await p.locator('button[data-action="set-turn"][data-to="black"]').click();
    const asked = await confirmation();
    expect(asked.title).toBe('Set Black on move on board 2?');
    expect(asked.changes).toEqual(['Board 2: on move not reported yet → Black']);
    expect(asked.note).toContain('no time moves and no move is counted');
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'set-turn', boardId: K2, side: 'black' });
    expect(clock.actor.getSnapshot().context.clock.turn).toBe('black');
    // Black is on move now: that button says so; White's stays offered.
    const black = p.locator('button[data-action="set-turn"][data-to="black"]');
    await expect.poll(() => black.isDisabled()).toBe(true);
    expect(await p.locator('.refusals li', { hasText: 'Black is on move already' }).locator('b').innerText()).toBe('Black on move: ');
    expect(await p.locator('button[data-action="set-turn"][data-to="white"]').isDisabled()).toBe(false);

    await p.locator('button[data-action="start"]').click(); // no default time: sent at once
    await expect.poll(() => card(K2).getAttribute('data-turn')).toBe('black');
    expect(clock.actor.getSnapshot().matches({ running: 'black' })).toBe(true);
    const white = p.locator('button[data-action="set-turn"][data-to="white"]');
    const running = `board 2 of ${FINAL} round 1 is running: only a ready or paused clock can be given the side on move`;
    await expect.poll(() => white.getAttribute('title')).toBe(running);
    expect(await white.isDisabled()).toBe(true);
  });

  it('a corrected control (FIDE Laws 6.10.2): a bad token is named before anything is sent; the confirmation says the times stay; the clock takes it and keeps them', async () => {
    const clock = clocks.get(K2)!;
    const p = await panel(K2);
    await hallAt(100_000);
    await p.locator('button[data-action="pause"]').click();
    await expect.poll(() => status(K2)).toBe('paused');
    const before = forwarded.length;
    await p.locator('input.control-spec').fill('1500+x');
    await p.locator('button[data-action="set-control"]').click();
    await expect.poll(() => p.locator('.message').innerText()).toMatch(/^corrected control: bad increment "x" in time control "1500\+x"/);
    expect(forwarded.length).toBe(before);

    // The event plays 25 min + 10 s, not 15 min + 10 s.
    const shown = { white: clock.shows('white'), black: clock.shows('black') };
    await p.locator('input.control-spec').fill('1500+10');
    await p.locator('button[data-action="set-control"]').click();
    const asked = await confirmation();
    expect(asked.title).toBe('Correct the time control on board 2?');
    expect(asked.changes).toEqual([
      'Board 2: control 15 min, +10 s from move 1 → 25 min, +10 s from move 1',
      `Board 2, White (Borišek, Jana): time stays ${shown.white} · moves #0 · period 1`,
      `Board 2, Black (Lenič, Lara): time stays ${shown.black} · moves #0 · period 1`,
    ]);
    expect(asked.note).toContain('keeps both times as they are');
    expect(asked.note).toContain('Set the times themselves with the time adjustments');
    await answer(true);
    await expect.poll(() => forwarded.length).toBe(before + 1);
    const sent = forwarded.at(-1)!;
    expect(sent.type === 'set-control' && formatTimeControl(sent.timeControl)).toBe('1500+10');
    expect({ white: clock.shows('white'), black: clock.shows('black') }).toEqual(shown);
    await expect.poll(() => p.locator('.panel-control').innerText()).toBe('Control in force: 25 min, +10 s from move 1');
  });

  it("the quickplay delay (Guidelines III.4) beside the increment: asked, sent, shown in force; both refused in blitz with the rule book's reason", async () => {
    const p = await panel(K2);
    await p.locator('button[data-action="delay"]').click();
    const asked = await confirmation();
    expect(asked.changes).toEqual(['Board 2: quickplay delay none → 5 s per turn']);
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'delay', boardId: K2, ms: 5000 });
    await expect.poll(() => p.locator('.panel-control').innerText()).toBe('Control in force: 25 min, +10 s from move 1 · quickplay finish: 5 s delay per turn');
    expect(clocks.get(K2)!.actor.getSnapshot().context.clock.extraDelayMs).toBe(5000);

    const blitz = clocks.get(K3)!;
    blitz.send({ type: 'START', at: await hallAt(110_000) });
    blitz.send({ type: 'PAUSE', at: await hallAt(111_000) });
    const q = await panel(K3);
    const reason = `board 3 of ${FINAL} round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only`;
    for (const action of ['increment', 'delay']) {
      await expect.poll(() => q.locator(`button[data-action="${action}"]`).getAttribute('title')).toBe(reason);
      expect(await q.locator(`button[data-action="${action}"]`).isDisabled()).toBe(true);
    }
    expect(await q.locator('.refusals li', { hasText: reason }).locator('b').innerText()).toBe('+5 s increment, +5 s delay: ');
  });

  it('Start at a default time of 0 (FIDE Laws 6.7.1) asks who is at the board, both preselected; Cancel sends nothing; the arrivals go before the start, so no seated player is forfeited', async () => {
    const p = await panel(Z1);
    const before = forwarded.length;
    await p.locator('button[data-action="start"]').click();
    let asked = await confirmation();
    expect(asked.title).toBe('Start board 1: who is at the board?');
    expect(asked.options.map((o) => [o.type, o.label, o.checked])).toEqual([
      ['radio', 'Both players are at the board', true],
      ['radio', 'White only', false],
      ['radio', 'Black only', false],
      ['radio', 'Neither player', false],
    ]);
    expect(asked.options[2].lines).toEqual([
      'Black (Petrova, Olga) is marked present, then the clock starts',
      'White (Ivanova, Anna) loses by default at the start (FIDE Laws 6.7.1)',
    ]);
    await answer(false);
    expect(forwarded.length).toBe(before);
    expect(await status(Z1)).toBe('ready');

    await p.locator('button[data-action="start"]').click();
    asked = await confirmation();
    await answer(true);
    await expect.poll(() => status(Z1)).toBe('running');
    expect(forwarded.slice(before)).toEqual([
      { type: 'arrive', boardId: Z1, side: 'white' },
      { type: 'arrive', boardId: Z1, side: 'black' },
      { type: 'start', boardId: Z1 },
    ]);
    expect(host.board(Z1)!.live!.present).toEqual({ white: true, black: true });
    expect(await p.locator('.message').innerText()).toBe('Start: done by Chief Arbiter (White and Black marked present first)');
  });

  it('Start round at a default time of 0 asks once for the round, every player not marked present ticked; an unticked player loses by default as chosen, the ticked ones play', async () => {
    // Black of board 3 already pressed the lever while the clock stood ready: marked present.
    clocks.get(Z3)!.send({ type: 'ARRIVE', side: 'black', at: hall.now() });
    await expect.poll(() => host.board(Z3)!.live?.present.black).toBe(true);
    const row = page.locator(`#events .event[data-event="${ZERO}"]`);
    const before = forwarded.length;
    await row.locator('button[data-action="start-round"]').click();
    const asked = await confirmation();
    expect(asked.title).toBe(`Start round 1 of ${ZERO}: is everyone seated?`);
    expect(asked.changes).toEqual(['2 boards with a default time of 0: 3 players not yet marked present']);
    expect(asked.options.map((o) => [o.type, o.label, o.checked])).toEqual([
      ['checkbox', 'Board 2 · White (Smirnova, Daria)', true],
      ['checkbox', 'Board 2 · Black (Orlova, Vera)', true],
      ['checkbox', 'Board 3 · White (Volkova, Irina)', true],
    ]);
    // Orlova is not at the board: the arbiter unticks her.
    await dialog().locator('.choice-option', { hasText: 'Orlova, Vera' }).locator('input').uncheck();
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-presence-round.png') });
    await answer(true);
    // Board 1 was started on its own (above): the round start skips it, saying why.
    await expect
      .poll(() => row.locator('.message').innerText())
      .toBe(
        `round 1: 2 started by Chief Arbiter; 2 players marked present first; skipped ${Z1}: board 1 of ${ZERO} round 1 is running, not ready: only a clock that has not started can be started`,
      );
    const sent = forwarded.slice(before);
    // The arrivals first (in parallel), then the round's starts.
    expect(sent.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { type: 'arrive', boardId: Z2, side: 'white' },
        { type: 'arrive', boardId: Z3, side: 'white' },
      ]),
    );
    expect(sent.slice(2).map((c) => [c.type, c.boardId])).toEqual([
      ['start', Z2],
      ['start', Z3],
    ]);
    await expect.poll(() => status(Z3)).toBe('running');
    await expect.poll(() => status(Z2)).toBe('forfeited');
    expect(host.board(Z2)!.live!.present).toEqual({ white: true, black: false });
  });
});

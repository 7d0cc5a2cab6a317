// The hall on the day, in a real Chromium (Debian package `chromium`, driven by
// playwright-core) against the real API over a JournalPorts on a journal in memory (JournalBoards)
// fed by simulated clocks (the
// unchanged clock statechart on one SimulatedClock; see browser-harness.ts): what an arbiter
// reads on a board card (period, who flagged first, a late player's default time, the knockout
// match score and stage, pending results), what the arbiter does (confirm/correct a result,
// adjust by a typed amount, start a board and a round), the public projection page (/public)
// with its PGN broadcast link, and a tablet's viewport. Screenshots go to artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { presetTimeControl, type TimeControl } from '../protocol/time-control.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import { boardIdOf } from '../host/app/board-views.ts';
import type { BoardView, ExportSource } from '../host/app/ports.ts';
import type { GameKind } from '../host/store/types.ts';
import { formatPgnGame } from '../host/app/pgn-game.ts';
import { ARTIFACTS, launchChromium, SimulatedBoard, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the hall view browser test');

const TOKEN = 'arbiter-token-for-the-hall-view-test';
/** Hall time 0 = this UTC instant (2026-03-14 09:00 UTC). */
const T0_UTC = Date.UTC(2026, 2, 14, 9, 0, 0);
const FINAL = 'Slovenian Women Final 2026';
const IVANOVO = 'Ivanovo Team Ch. 2018';

/** The boards: the final's six, the Ivanovo event's two (ids as the host gives them: boardIdOf). */
const [PERIOD, LATE, FLAGS, KO, DECIDED, START] = [1, 2, 3, 4, 5, 6].map((n) => boardIdOf(FINAL, n));
const [IV1, IV2] = [1, 2].map((n) => boardIdOf(IVANOVO, n));

describe.skipIf(SKIP_BROWSER)('the hall in Chromium: board cards, arbiter actions, public view (Debian package `chromium`)', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let url: string;
  const hall = new SimulatedClock();
  const clocks = new Map<string, SimulatedBoard>();
  const controls = new Map<string, TimeControl>();
  // Accepted arbiter commands reach the board's clock as its inputs, stamped with hall time.
  const host = new JournalBoards({
    nowUtcMs: () => T0_UTC + hall.now(),
    clock: async (command) => {
      const clock = clocks.get(command.boardId);
      const at = hall.now();
      if (command.type === 'start') clock?.send({ type: 'START', at });
      if (command.type === 'pause') clock?.send({ type: 'PAUSE', at });
      if (command.type === 'resume') clock?.send({ type: 'RESUME', at });
      if (command.type === 'adjust') clock?.send({ type: 'ADJUST', side: command.side, ms: command.ms, at });
      if (command.type === 'penalty') clock?.send({ type: 'PENALTY', side: command.side, at });
      if (command.type === 'set-moves') clock?.send({ type: 'SET_MOVES', side: command.side, moves: command.moves, at });
      if (command.type === 'takeback') clock?.send({ type: 'TAKEBACK', at });
      return { ok: true };
    },
  });
  const forwarded = host.forwarded;

  function addBoard(
    id: string,
    event: string,
    round: number,
    board: number,
    white: string,
    black: string,
    control: TimeControl,
    extra: { clock?: boolean; kind?: GameKind; matchId?: string } = {},
  ): void {
    const clockId = extra.clock === false ? null : `clk-${id}`;
    host.addBoard({
      id,
      event,
      round,
      board,
      clockId,
      white,
      black,
      control,
      ...(extra.kind ? { kind: extra.kind } : {}),
      ...(extra.matchId ? { matchId: extra.matchId } : {}),
    });
    controls.set(id, control);
    if (clockId) clocks.set(id, new SimulatedBoard(host, hall, T0_UTC, clockId, { event, round, board }, control));
  }

  /** A knockout mini-match's earlier games on a board of the final, drawn and confirmed (the director's part in the host). */
  function drawnGames(matchId: string, board: number, white: string, black: string, games: number): void {
    host.journal.saveMatch({
      matchId,
      event: FINAL,
      round: 1,
      board,
      playerA: white,
      playerB: black,
      status: 'playing',
      winner: null,
      loser: null,
      decidedBy: null,
      score: null,
      updatedUtcMs: 0,
    });
    for (let no = 1; no <= games; no++) {
      const [w, b] = no % 2 === 1 ? [white, black] : [black, white];
      const game = host.journal.createGame({
        event: FINAL,
        round: 1,
        board,
        gameNo: no,
        matchId,
        kind: 'classical',
        white: w,
        black: b,
        timeControl: presetTimeControl('classical'),
        createdUtcMs: 0,
      });
      host.journal.reportResult(game.gameId, { result: '1/2-1/2', how: 'played', source: 'arbiter', arbiter: 'Floor Arbiter', utcMs: T0_UTC - 86_400_000 });
      host.journal.confirmResult(game.gameId, 'Chief Arbiter', T0_UTC - 86_400_000);
    }
  }

  /** The broadcast PGN of a round, by the host's own PGN formatter (PGN standard §8). */
  const exportsOf: ExportSource = {
    trf: () => {
      throw new Error('no TRF in this test');
    },
    pgn: (event, round) =>
      host
        .boards()
        .filter((b) => (event === undefined || b.event === event) && b.round === round)
        .map((b) =>
          formatPgnGame({
            event: b.event,
            site: 'Ljubljana SLO',
            date: '2026.03.14',
            round: `${b.round}.${b.board}`,
            white: b.white?.name ?? '?',
            black: b.black?.name ?? '?',
            result: b.resultConfirmed ? (b.result as '1-0') : null,
            timeControl: controls.get(b.id)!,
            clock: b.live ? { whiteMs: b.live.whiteMs, blackMs: b.live.blackMs, running: b.live.status === 'running' ? b.live.turn : null } : null,
          }),
        )
        .join('\n'),
  };

  beforeAll(async () => {
    const classical = presetTimeControl('classical');
    addBoard(PERIOD, FINAL, 1, 1, 'Tratar, Marko', 'Sebenik, Matej', classical);
    // FIDE Laws 6.7.1: the event sets a default time of 30 minutes.
    addBoard(LATE, FINAL, 1, 2, 'Borišek, Jure', 'Lenič, Luka', presetTimeControl('classical', { defaultTime: 1800 }));
    addBoard(FLAGS, FINAL, 1, 3, 'Novak, Eva', 'Kos, Nina', presetTimeControl('armageddon'));
    // Semifinal 2: tied 1–1 after the classical games, its first rapid game next.
    drawnGames('sf-2', 4, 'Muhvič, Anja', 'Zupan, Lara', 2);
    addBoard(KO, FINAL, 1, 4, 'Muhvič, Anja', 'Zupan, Lara', presetTimeControl('rapid'), { clock: false, kind: 'rapid', matchId: 'sf-2' });
    // Semifinal 1: tied 2–2 after the classical and rapid games: the regulation's golden game, where a draw decides the match for Black.
    drawnGames('sf-1', 5, 'Krivec, Jana', 'Vrhovnik, Ana', 4);
    addBoard(DECIDED, FINAL, 1, 5, 'Krivec, Jana', 'Vrhovnik, Ana', presetTimeControl('armageddon'), { clock: false, kind: 'armageddon', matchId: 'sf-1' });
    addBoard(START, FINAL, 1, 6, 'Bogataj, Mia', 'Golob, Tina', presetTimeControl('rapid'));
    addBoard(IV1, IVANOVO, 3, 1, 'Ivanova, Anna', 'Petrova, Olga', presetTimeControl('sudden-death-60'));
    addBoard(IV2, IVANOVO, 3, 2, 'Smirnova, Daria', 'Orlova, Vera', presetTimeControl('sudden-death-60'));
    // The floor arbiter entered the golden game's draw; the chief arbiter has not confirmed it yet.
    expect(await host.execute({ type: 'result', boardId: DECIDED, result: '1/2-1/2' }, { arbiter: 'Floor Arbiter' })).toMatchObject({ ok: true });

    app = await buildApi({
      state: host,
      commands: host,
      exports: exportsOf,
      tokens: [{ arbiter: 'Chief Arbiter', token: TOKEN }],
      nowUtcMs: () => T0_UTC + hall.now(),
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await openPage('/', { width: 1280, height: 900 });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    host.close();
  });

  const pages: Page[] = [];
  /** A page with its clock pinned to hall time; fails the test on any page error. */
  async function openPage(path: string, viewport: { width: number; height: number }): Promise<Page> {
    const p = await browser.newPage({ viewport });
    p.setDefaultTimeout(5000); // a missing control fails fast instead of at the test timeout
    const errors: string[] = [];
    p.on('pageerror', (err) => errors.push(err.message));
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await p.clock.setFixedTime(T0_UTC + hall.now());
    await p.goto(url + path);
    await p.locator('#connection[data-state="live"]').waitFor({ timeout: 5000 });
    expect(errors).toEqual([]);
    pages.push(p);
    return p;
  }

  /** Moves hall time to `ms` for the clocks (timers due fire: flags) and every page. */
  async function hallAt(ms: number): Promise<void> {
    hall.set(ms);
    for (const p of pages) await p.clock.setFixedTime(T0_UTC + ms);
  }

  const card = (id: string, p = page) => p.locator(`article[data-board-id="${id}"]`);
  const text = (id: string, selector: string, p = page) => card(id, p).locator(selector).innerText();
  /**
   * The board's side panel, opened from its line (docs/dashboard.md "The hall view (`/`) and its side panel": the controls are in the panel, none
   * in a line): a click on the line's label.
   */
  async function panel(id: string, p = page) {
    const open = p.locator(`#panel[data-board="${id}"]`);
    if (!(await open.isVisible())) {
      await card(id, p).locator('.label').click();
      await open.waitFor({ state: 'visible' });
    }
    return p.locator('#panel');
  }
  const panelText = async (id: string, selector: string) => (await panel(id)).locator(selector).innerText();
  /** The confirmation dialog (docs/dashboard.md: careful actions ask first): what it says will change, then Cancel or Confirm. */
  async function confirmation(p = page): Promise<{ title: string; changes: string[]; note: string; dialog: ReturnType<Page['locator']> }> {
    const dialog = p.locator('dialog#confirm');
    await dialog.waitFor({ state: 'visible' });
    return {
      title: await dialog.locator('.confirm-title').innerText(),
      changes: await dialog.locator('.confirm-changes li').allInnerTexts(),
      note: await dialog.locator('.confirm-note').innerText(),
      dialog,
    };
  }
  async function answer(ok: boolean, p = page): Promise<void> {
    const dialog = p.locator('dialog#confirm');
    await dialog.locator(ok ? 'button.ok' : 'button.cancel').click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async function expectTimes(id: string, p = page): Promise<void> {
    for (const side of ['white', 'black'] as const) {
      await expect.poll(() => text(id, `.side.${side} .time`, p), { timeout: 5000 }).toBe(clocks.get(id)!.shows(side));
    }
  }

  async function signIn(p: Page): Promise<void> {
    await p.fill('#token', TOKEN);
    await p.click('#token-form button[type="submit"]');
    await expect.poll(() => p.locator('#arbiter').innerText()).toBe('arbiter: Chief Arbiter');
  }

  it("shows the period, a late player's default time going down, the match score and stage, and who flagged first", async () => {
    await expect.poll(() => page.locator('article.board').count()).toBe(8);
    for (const id of [PERIOD, LATE, FLAGS]) clocks.get(id)!.send({ type: 'START', at: 0 });
    await hallAt(500);
    clocks.get(FLAGS)!.send({ type: 'PRESS', side: 'white', at: 500 }); // Black's 5 minutes run
    await hallAt(1000);
    clocks.get(LATE)!.send({ type: 'PRESS', side: 'white', at: 1000 }); // White is there; Black is not

    // 41 moves by White, 40 by Black: both have completed the first period's 40 moves (classical
    // 90 min/40 moves + 15 min): period 2 (FIDE Laws 6.10 / the regulation's "+15 min after move 40").
    for (let i = 0; i <= 80; i++) {
      const at = 1000 + i * 100;
      hall.set(at);
      clocks.get(PERIOD)!.send({ type: 'PRESS', side: i % 2 === 0 ? 'white' : 'black', at });
    }
    await hallAt(9000);
    await expect.poll(() => text(PERIOD, '.side.white .moves')).toBe('#41');
    expect(await text(PERIOD, '.side.white .period')).toBe('P2');
    expect(await text(PERIOD, '.side.black .moves')).toBe('#40');
    expect(await text(PERIOD, '.side.black .period')).toBe('P2');
    await expectTimes(PERIOD);

    // FIDE Laws 6.7.1: Black has until start + 30 min; the page computes it from host time.
    await hallAt(60_000);
    await expect.poll(() => text(LATE, '.side.black .absent')).toBe('not arrived · default time 29:00');
    expect(await card(LATE).locator('.side.white .absent').isVisible()).toBe(false);
    await hallAt(90_400);
    await expect.poll(() => text(LATE, '.side.black .absent')).toBe('not arrived · default time 28:30'); // 1709.6 s, rounded up
    await expectTimes(LATE);
    clocks.get(LATE)!.send({ type: 'ARRIVE', side: 'black', at: 90_400 });
    await expect.poll(() => card(LATE).locator('.side.black .absent').isVisible()).toBe(false);
    expect(await card(LATE).locator('.side.black').getAttribute('class')).not.toContain('not-arrived');

    // The knockout: the score of the mini-match and the tie-break stage of this game.
    expect(await text(KO, '.match')).toBe('Match 1–1 · rapid tie-break, game 3');
    // The golden game's draw counts once entered; the match is decided when the arbiter confirms it.
    expect(await text(DECIDED, '.match')).toBe('Match 2½–2½ · armageddon tie-break, game 5');
    expect(await card(PERIOD).locator('.match').isVisible()).toBe(false);

    // FIDE Laws 6.9: Black's flag falls (the clock's own deadline, 300 s after White's press).
    await hallAt(300_600);
    await expect.poll(() => card(FLAGS).getAttribute('data-status')).toBe('flagged');
    expect(await text(FLAGS, '.flags')).toBe("Black's flag fell first");
    expect(await card(FLAGS).locator('.side.black .flag').getAttribute('data-first')).toBe('true');
    expect(await card(FLAGS).locator('.side.white .flag').isVisible()).toBe(false);
    // FIDE Laws III.3.1: when both flags have fallen, which fell first matters. A clock that keeps
    // counting the other side after the first flag reports White's later.
    await hallAt(660_500);
    clocks.get(FLAGS)!.report({ type: 'flag', side: 'white', move: null, whiteMs: 0, blackMs: 0, monoMs: 660_500 });
    await expect.poll(() => text(FLAGS, '.flags')).toBe("Black's flag fell first, then White's");
    expect(await card(FLAGS).locator('.side.white .flag').isVisible()).toBe(true);
    expect(await card(FLAGS).locator('.side.white .flag').getAttribute('data-first')).toBe('false');
    await page.screenshot({ path: join(ARTIFACTS, 'hall-cards.png'), fullPage: true });
  });

  it('lists the pending result; Confirm and a correction from the page reach the host', async () => {
    // Everyone sees the pending result; only a signed-in arbiter gets Confirm.
    const pending = page.locator(`#pending li[data-board-id="${DECIDED}"]`);
    await expect.poll(() => pending.innerText()).toContain('1/2-1/2');
    expect(await pending.locator('button').isVisible()).toBe(false);
    expect(await card(DECIDED).getAttribute('data-status')).toBe('pending');
    expect(await text(DECIDED, '.result')).toBe('1/2-1/2 (unconfirmed)');
    await signIn(page);

    await pending.locator('button[data-action="confirm"]').click();
    await expect.poll(() => host.board(DECIDED)!.resultConfirmed).toBe(true);
    const results = (await (await fetch(`${url}/api/results?round=1`)).json()) as {
      results: { board: number; result: string; confirmed: boolean; by: string }[];
    };
    expect(results.results.find((r) => r.board === 5)).toMatchObject({ result: '1/2-1/2', confirmed: true, by: 'arbiter:Chief Arbiter' });
    await expect.poll(() => page.locator('#pending').isVisible()).toBe(false);
    await expect.poll(() => card(DECIDED).getAttribute('data-status')).toBe('finished');

    // A correction: the arbiter enters a different result over the confirmed one.
    expect(await (await panel(DECIDED)).locator('button[data-action="result"]').innerText()).toBe('Correct result');
    await (await panel(DECIDED)).locator('select.result-select').selectOption('0-1');
    // A confirmed result is corrected only with a reason: the page asks for it, saying what changes (cancelled: nothing sent).
    await (await panel(DECIDED)).locator('button[data-action="result"]').click();
    const asked = await confirmation();
    expect(asked.changes).toEqual(['Board 5: ½-½ (confirmed) → 0-1 (unconfirmed)']); // the vocabulary's words (rules/vocabulary.ts RESULT_MEANING)
    expect(await asked.dialog.locator('.confirm-reason').isVisible()).toBe(true);
    await answer(false);
    await expect.poll(() => panelText(DECIDED, '.message')).toContain('cancelled, nothing was sent');
    expect(host.board(DECIDED)!.result).toBe('1/2-1/2');
    // Confirm without a reason is refused in the dialog itself; with one, it is sent.
    await (await panel(DECIDED)).locator('button[data-action="result"]').click();
    const again = await confirmation();
    await again.dialog.locator('button.ok').click();
    expect(await again.dialog.locator('.confirm-problem').innerText()).toContain('say why');
    expect(host.board(DECIDED)!.result).toBe('1/2-1/2');
    await again.dialog.locator('input[name="reason"]').fill('the scoresheets show 0-1');
    await answer(true);
    await expect.poll(() => panelText(DECIDED, '.message')).toBe('Correct result 0-1: done by Chief Arbiter');
    const board = (await (await fetch(`${url}/api/boards/${DECIDED}`)).json()) as { board: BoardView };
    expect(board.board).toMatchObject({ result: '0-1', resultConfirmed: false });
    expect(host.actions().at(-1)).toMatchObject({
      action: 'result',
      boardId: DECIDED,
      payload: { result: '0-1', reason: 'the scoresheets show 0-1' },
      arbiter: 'Chief Arbiter',
      outcome: 'applied',
    });
    await expect.poll(() => pending.innerText()).toContain('0-1');
    // The director decides the match on the armageddon (Black wins it): a page opened now shows it decided.
    host.journal.saveMatch({
      matchId: 'sf-1',
      event: FINAL,
      round: 1,
      board: 5,
      playerA: 'Krivec, Jana',
      playerB: 'Vrhovnik, Ana',
      status: 'decided',
      winner: 'Vrhovnik, Ana',
      loser: 'Krivec, Jana',
      decidedBy: 'armageddon',
      score: null,
      updatedUtcMs: T0_UTC,
    });
    const later = await openPage('/', { width: 1280, height: 900 });
    await expect.poll(() => text(DECIDED, '.match', later)).toBe('Match 2–3 · decided: Vrhovnik, Ana wins (armageddon)');
    pages.splice(pages.indexOf(later), 1);
    await later.close();
  });

  it('adjusts by a typed number of seconds; a bad amount is refused on the card', async () => {
    const group = (await panel(PERIOD)).locator('.group[data-side="white"]');
    await group.locator('input.seconds').fill('0');
    await group.locator('button[data-action="adjust-seconds"]').click();
    await expect.poll(() => panelText(PERIOD, '.message')).toContain('type a whole number of seconds other than 0');
    const before = forwarded.length;
    await group.locator('input.seconds').fill('-90');
    await group.locator('button[data-action="adjust-seconds"]').click();
    // The confirmation says the figures before → after (the rule book's adjustTime on the board's clock basis).
    const shownBefore = clocks.get(PERIOD)!.shows('white');
    const said = await confirmation();
    expect(said.changes).toHaveLength(1);
    expect(said.changes[0]).toMatch(new RegExp(`^Board 1, White \\(Tratar, Marko\\): ${shownBefore.replace(/[.:]/g, '\\$&')} → \\S+$`));
    const promised = said.changes[0].split(' → ')[1];
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'adjust', boardId: PERIOD, side: 'white', ms: -90_000 });
    expect(forwarded.length).toBe(before + 1); // the refused "0" never reached the host
    await expectTimes(PERIOD);
    // The page's clock is pinned: what the dialog promised is what the clock shows now.
    expect(clocks.get(PERIOD)!.shows('white')).toBe(promised);
  });

  it('corrects a move counter (FIDE Laws 6.10.2): the clock takes it, the card shows it, no time is credited; a bad count is refused on the card', async () => {
    const group = (await panel(PERIOD)).locator('.group[data-side="black"]');
    const clock = clocks.get(PERIOD)!;
    // A counter is corrected with the clock stopped (it may credit a period's time): pause first.
    await (await panel(PERIOD)).locator('button[data-action="pause"]').click();
    await expect.poll(() => card(PERIOD).getAttribute('data-status')).toBe('paused');
    const blackBefore = clock.shows('black');
    await group.locator('input.moves-count').fill('-1');
    await group.locator('button[data-action="set-moves"]').click();
    await expect.poll(() => panelText(PERIOD, '.message')).toContain('type the number of moves completed');
    const before = forwarded.length;
    await group.locator('input.moves-count').fill('38');
    await group.locator('button[data-action="set-moves"]').click();
    expect((await confirmation()).changes[0]).toBe('Board 1, Black (Sebenik, Matej): moves #40 → #38');
    await answer(true);
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'set-moves', boardId: PERIOD, side: 'black', moves: 38 });
    expect(forwarded.length).toBe(before + 1); // the refused "-1" never reached the host
    expect(clock.actor.getSnapshot().context.clock.black.moves).toBe(38);
    await expect.poll(() => text(PERIOD, '.side.black .moves')).toBe('#38');
    expect(clock.shows('black')).toBe(blackBefore);
    await expectTimes(PERIOD);
    await (await panel(PERIOD)).locator('button[data-action="resume"]').click();
    await expect.poll(() => card(PERIOD).getAttribute('data-status')).toBe('running');
  });

  it('takes back an illegal move (FIDE Laws 7.5.1 with 6.10.2): the page asks first and says what changes; the clock annuls it, the card follows', async () => {
    const clock = clocks.get(PERIOD)!;
    await hallAt(hall.now() + 7_000);
    const mover = clock.actor.getSnapshot().context.clock.turn;
    clock.send({ type: 'PRESS', side: mover, at: hall.now() });
    const movesAfterPress = clock.actor.getSnapshot().context.clock[mover].moves;
    await (await panel(PERIOD)).locator('button[data-action="pause"]').click();
    await expect.poll(() => card(PERIOD).getAttribute('data-status')).toBe('paused');
    const before = forwarded.length;
    // Declining the question sends nothing (checked below: only the accepted one reached the host).
    await (await panel(PERIOD)).locator('button[data-action="takeback"]').click();
    await confirmation();
    await answer(false);
    await (await panel(PERIOD)).locator('button[data-action="takeback"]').click();
    const asked = await confirmation();
    const question = `${asked.title}\n${asked.changes.join('\n')}\n${asked.note}`;
    await answer(true);
    // No body: a take-back rewinding both times (FIDE Laws 7.1's "keep" is asked for by name).
    await expect.poll(() => forwarded.at(-1)).toEqual({ type: 'takeback', boardId: PERIOD, times: 'rewind' });
    expect(forwarded.length).toBe(before + 1);
    expect(question).toContain('Laws 7.5.1');
    expect(question).toContain('stays paused');
    expect(clock.actor.getSnapshot().context.clock[mover].moves).toBe(movesAfterPress - 1);
    await expect.poll(() => text(PERIOD, `.side.${mover} .moves`)).toBe(`#${movesAfterPress - 1}`);
    await expect.poll(() => text(PERIOD, `.side.${mover} .illegal`)).toBe('1 illegal');
    await expectTimes(PERIOD);
    await (await panel(PERIOD)).locator('button[data-action="resume"]').click();
    await expect.poll(() => card(PERIOD).getAttribute('data-status')).toBe('running');
  });

  it('shows on the card what a clock brought to the journal had differently, and that it waits to be resumed (docs/protocol.md "Restore")', async () => {
    const clock = clocks.get(PERIOD)!;
    // A spare clock replaced the board's clock (FIDE Laws 6.10.1); the host restored the journal's game to it.
    host.setRestore(PERIOD, {
      utcMs: T0_UTC + 3_600_000,
      clockId: 'clk-spare',
      outcome: 'restored',
      differences: ['the clock held no game from this host, not game 7'],
      mismatches: [],
    });
    await hallAt(hall.now() + 2_000);
    clock.send({ type: 'PAUSE', at: hall.now() }); // the restored clock stands paused
    const note = (await panel(PERIOD)).locator('.restore');
    await expect
      .poll(() => note.innerText())
      .toBe(
        'clock clk-spare restored from the journal at 10:00:00 UTC; it differed from the journal: the clock held no game from this host, not game 7 — paused: resume when play goes on',
      );
    expect(await note.getAttribute('data-kind')).toBe('warning');
    await (await panel(PERIOD)).locator('button[data-action="resume"]').click();
    await expect.poll(() => card(PERIOD).getAttribute('data-status')).toBe('running');
    // What differed stays on the card for the arbiter; the "resume" hint goes.
    await expect
      .poll(() => note.innerText())
      .toBe('clock clk-spare restored from the journal at 10:00:00 UTC; it differed from the journal: the clock held no game from this host, not game 7');
    // A clock that held exactly the journal's game is mentioned only while it waits, paused.
    host.setRestore(PERIOD, { utcMs: T0_UTC + 3_700_000, clockId: `clk-${PERIOD}`, outcome: 'in-step', differences: [], mismatches: [] });
    await hallAt(hall.now() + 1_000);
    clock.send({ type: 'PAUSE', at: hall.now() });
    await expect.poll(() => note.innerText()).toContain(`clock clk-${PERIOD} held, matching the journal at 10:01:40 UTC — paused: resume when play goes on`);
    expect(await note.getAttribute('data-kind')).toBe('ok');
    await (await panel(PERIOD)).locator('button[data-action="resume"]').click();
    await expect.poll(() => note.isVisible()).toBe(false);
  });

  it('starts one board and a whole round from the page; an API refusal shows on the card', async () => {
    await hallAt(700_000);
    await (await panel(START)).locator('button[data-action="start"]').click();
    await expect.poll(() => card(START).getAttribute('data-status')).toBe('running');
    expect(clocks.get(START)!.actor.getSnapshot().matches('running')).toBe(true);
    expect(forwarded.at(-1)).toEqual({ type: 'start', boardId: START });

    // Start round: every board of the Ivanovo event's current round (3) starts.
    const row = page.locator(`#events .event[data-event="${IVANOVO}"]`);
    await row.locator('button[data-action="start-round"]').click();
    for (const id of [IV1, IV2]) {
      await expect.poll(() => card(id).getAttribute('data-status')).toBe('running');
      expect(clocks.get(id)!.actor.getSnapshot().matches('running')).toBe(true);
    }
    await expect.poll(() => row.locator('.message').innerText()).toBe('round 3: 2 started by Chief Arbiter');
    // Round 3 under way, and the event's last round here: Start round is no longer offered (once,
    // "Start round 2" was offered after the last round); the round's message stays.
    await expect.poll(() => row.locator('button[data-action="start-round"]').count()).toBe(0);
    expect(await row.locator('.message').innerText()).toBe('round 3: 2 started by Chief Arbiter');
    await hallAt(712_300);
    for (const id of [START, IV1, IV2]) await expectTimes(id);

    // Starting a game that is already running is not offered: the button is disabled and says
    // why, in the host's words (the rule book's rules/command-rules.ts, docs/architecture.md "The rule book").
    const start = (await panel(PERIOD)).locator('button[data-action="start"]');
    const reason = `board 1 of ${FINAL} round 1 is running, not ready: only a clock that has not started can be started`;
    await expect.poll(() => start.getAttribute('title')).toBe(reason);
    expect(await start.isDisabled()).toBe(true);
    // A page whose view is behind the host's (its last render offered Start) sends it anyway:
    // the host refuses, and its reason appears on the card.
    await start.evaluate((b) => ((b as HTMLButtonElement).disabled = false));
    await start.click();
    await expect.poll(async () => (await panel(PERIOD)).locator('.message').getAttribute('data-kind')).toBe('error');
    expect(await panelText(PERIOD, '.message')).toBe(reason);
    expect(host.actions().at(-1)).toMatchObject({ action: 'start', boardId: PERIOD, outcome: 'rejected', reason });
    // The card's next render follows the rule book again.
    expect(await start.isDisabled()).toBe(true);
  });

  it('serves a public page without controls: large times, the event filter, a working PGN broadcast link', async () => {
    expect(await page.locator('#public-link').getAttribute('href')).toBe('public');
    const pub = await openPage(`/public?event=${encodeURIComponent(FINAL)}`, { width: 1280, height: 900 });
    await expect.poll(() => pub.locator('article.board:visible').count()).toBe(6); // the final's boards only
    expect(await pub.locator('button, input, textarea, #token, .controls, .restore').count()).toBe(0);
    expect(await pub.locator('#event-filter').inputValue()).toBe(FINAL);
    await expectTimes(PERIOD, pub);
    await expectTimes(START, pub);
    const fontPx = await card(PERIOD, pub)
      .locator('.side.white .time')
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(fontPx).toBeGreaterThanOrEqual(48); // legible from the back of the hall
    expect(await text(KO, '.match', pub)).toBe('Match 1–1 · rapid tie-break, game 3');

    const link = pub.locator(`#events .event[data-event="${FINAL}"] a.pgn`);
    const href = await link.getAttribute('href');
    expect(href).toBe(`/broadcast/round/1/games.pgn?event=${encodeURIComponent(FINAL)}`);
    const res = await pub.request.get(new URL(href!, pub.url()).href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/x-chess-pgn; charset=utf-8');
    const pgn = await res.text();
    // PGN standard §8.1.1: the Seven Tag Roster opens every game; one game per board of the round.
    expect(pgn.startsWith(`[Event "${FINAL}"]`)).toBe(true);
    expect(pgn.match(/^\[Event /gm)).toHaveLength(6);
    expect(pgn).toContain('[White "Tratar, Marko"]');
    // The arbiter page links the same feed.
    expect(await page.locator(`#events .event[data-event="${FINAL}"] a.pgn`).getAttribute('href')).toBe(href);
    await pub.screenshot({ path: join(ARTIFACTS, 'hall-public.png'), fullPage: true });
  });

  it('fits a 768×1024 tablet: no horizontal scroll, touch-size buttons, no control in a line', async () => {
    const tablet = await openPage('/', { width: 768, height: 1024 });
    await signIn(tablet);
    await expect.poll(() => tablet.locator('article.board').count()).toBe(8);
    const overflow = () => tablet.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    // The lines carry no control (a control per board made 3,003 buttons for 200 boards); a line opens the panel.
    expect(await tablet.locator('article.board button, article.board input, article.board select').count()).toBe(0);
    await panel(PERIOD, tablet);
    const small = await tablet
      .locator('button:visible')
      .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()).filter((r) => r.height < 40 || r.width < 40).length);
    expect(small).toBe(0);
    expect(await tablet.locator('#panel button:visible').count()).toBeGreaterThan(10);
    expect(await overflow()).toBe(0);
    await tablet.screenshot({ path: join(ARTIFACTS, 'hall-tablet.png'), fullPage: true });
    const pubTablet = await openPage('/public', { width: 768, height: 1024 });
    expect(await pubTablet.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });

  it('finds a board: the status and round filters are kept in the URL; a number or a player jumps to the board and opens its panel; Enter on a line opens it', async () => {
    const p = await openPage('/', { width: 1280, height: 900 });
    await expect.poll(() => p.locator('article.board').count()).toBe(8);
    // Status filter: only the boards in play (running or paused).
    await p.selectOption('#status-filter', 'playing');
    expect(new URL(p.url()).searchParams.get('status')).toBe('playing');
    const visibleIds = () => p.locator('article.board:visible').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.boardId).sort());
    const playing = (await (await fetch(`${url}/api/boards`)).json()).boards
      .filter((b: BoardView) => !b.result && (b.live?.status === 'running' || b.live?.status === 'paused'))
      .map((b: BoardView) => b.id)
      .sort();
    expect(playing.length).toBeGreaterThan(0);
    expect(await visibleIds()).toEqual(playing);
    // Round 3 (Ivanovo only), in the URL too; a reload keeps the filter.
    await p.selectOption('#status-filter', '');
    await p.selectOption('#round-filter', '3');
    expect(new URL(p.url()).searchParams.get('round')).toBe('3');
    await expect.poll(visibleIds).toEqual([IV1, IV2]);
    await p.reload();
    await p.locator('#connection[data-state="live"]').waitFor();
    await expect.poll(visibleIds).toEqual([IV1, IV2]);
    expect(await p.locator('#round-filter').inputValue()).toBe('3');
    // Jump by a player's name (accents ignored): the board is shown (the filter gives way) and its panel opens.
    await p.fill('#jump', 'lenic');
    await p.press('#jump', 'Enter');
    await p.locator(`#panel[data-board="${LATE}"]`).waitFor({ state: 'visible' });
    expect(await p.locator(`article[data-board-id="${LATE}"]`).isVisible()).toBe(true);
    // Jump by board number: board 3 of the first event in the hall's order.
    await p.fill('#jump', '3');
    await p.press('#jump', 'Enter');
    await p.locator(`#panel[data-board="${FLAGS}"]`).waitFor({ state: 'visible' });
    // Keyboard: Enter on a focused line opens its panel; Escape closes it.
    await p.locator(`article[data-board-id="${START}"]`).focus();
    await p.keyboard.press('Enter');
    await p.locator(`#panel[data-board="${START}"]`).waitFor({ state: 'visible' });
    await p.keyboard.press('Escape');
    await p.locator('#panel').waitFor({ state: 'hidden' });
    await p.close();
  });

  it('marks a board with no clock: "no clock" on its line, and no Start that would answer 503, the reason written in the panel', async () => {
    expect(await card(KO).locator('.status').textContent()).toBe('no clock');
    const p = await panel(KO);
    const start = p.locator('button[data-action="start"]');
    expect(await start.isDisabled()).toBe(true);
    const reason = `board 4 of ${FINAL} round 1 has no clock assigned`;
    expect(await start.getAttribute('title')).toBe(reason);
    expect(await p.locator('.refusals li', { hasText: 'Start' }).innerText()).toContain(reason);
    // (The journal host answers a Start there with 503 and these words: host/app/clock-fleet.ts, ClockFleet.command.)
  });

  it('shows the full time chart in the panel and the small one on each public card (docs/dashboard.md "Time chart")', async () => {
    const p = await panel(PERIOD);
    const full = p.locator('img.chart-full');
    await expect.poll(() => full.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(720);
    expect(await full.getAttribute('src')).toMatch(new RegExp(`^/api/boards/${PERIOD}/chart\\.svg\\?size=full&v=`));
    expect(await full.getAttribute('alt')).toContain('time chart');
    const pub = await openPage('/public', { width: 1280, height: 900 });
    const small = card(PERIOD, pub).locator('img.chart-small');
    await expect.poll(() => small.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(160);
    // A board with no game journaled yet asks for no chart (the host would answer 404).
    expect(await card(KO, pub).locator('img.chart-small').isVisible()).toBe(false);
    await pub.close();
  });

  it('a phone at 390×844: the header is compact, the first board is on the first screen, nothing scrolls the page sideways (/ and /public)', async () => {
    for (const path of ['/', '/public']) {
      const phone = await openPage(path, { width: 390, height: 844 });
      await expect.poll(() => phone.locator('article.board').count()).toBe(8);
      const first = await phone.locator('article.board').first().boundingBox();
      expect(first, path).not.toBeNull();
      expect(first!.y, `${path}: the first board starts on the first screen`).toBeLessThan(844 - 60);
      const header = await phone.locator('header.top').boundingBox();
      // A header of 210 px would take a quarter of an 844 px phone screen.
      expect(header!.height, `${path}: header height`).toBeLessThanOrEqual(150);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBe(0);
      if (path === '/') {
        // The filters fold behind one button.
        expect(await phone.locator('#event-filter').isVisible()).toBe(false);
        await phone.click('#filters-toggle');
        expect(await phone.locator('#event-filter').isVisible()).toBe(true);
        expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      }
      await phone.screenshot({ path: join(ARTIFACTS, `hall-phone${path === '/' ? '' : '-public'}.png`) });
      await phone.close();
    }
  });

  it('a 401 (a token the host no longer knows) signs the page out, saying why (sign-in state)', async () => {
    const p = await openPage('/', { width: 1280, height: 900 });
    await signIn(p);
    expect(await p.locator('#token').isVisible()).toBe(false);
    // The host's own answer to an unknown token, then served for the page's next call (as after a
    // restart with other tokens: this host cannot drop a token while it runs).
    const refused = await fetch(`${url}/api/boards/${PERIOD}/pause`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token-the-host-knows-at-all' },
    });
    expect(refused.status).toBe(401);
    const body = await refused.text();
    await p.route('**/api/boards/*/pause', (route) => route.fulfill({ status: 401, contentType: 'application/json', body }));
    const pnl = await panel(PERIOD, p);
    await pnl.locator('button[data-action="pause"]').click();
    await expect.poll(() => p.locator('#arbiter').innerText()).toBe(`signed out: ${JSON.parse(body).message}`);
    expect(await p.locator('#token').isVisible()).toBe(true);
    expect(await p.locator('#sign-out').isVisible()).toBe(false);
    expect(await pnl.locator('button[data-action="pause"]').isVisible()).toBe(false);
    await p.close();
  });
});

// A hall for the dashboard's page tests (docs/dashboard.md "Proof: accessibility, screenshots, the 200-board hall": axe-core, screenshots, the DOM bound, the
// standings page): the real API with the dashboard (buildApi, listening on 127.0.0.1) over a
// JournalPorts on a real SQLite journal, opened by the real director, with
// - `load`: the generated tournament of the load runs and benches (scripts/load-host.ts
//   loadTournament: N boards, round 1), each board's clock the real statechart (the Boot of
//   host/clocks/journaled-clock.fixture.ts) journaled as the host journals it, started and a few
//   moves played, a few boards paused;
// - `ivanovo-2018`: the Ivanovo 2018 team event (host/domain/fixtures), both rounds played and
//   confirmed by the arbiter, so it has standings, a crosstable and board prizes;
// - `open`: a 6-player individual event, 3 rounds played and confirmed (the tie decided by
//   Buchholz of test/one-ranking.test.ts).
// Names may carry markup (`evil: true`) to check the pages escape them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { presetTimeControl } from '../protocol/time-control.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import { JournalPorts } from '../host/app/journal-ports.ts';
import { Director } from '../host/app/director.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import type { Hall } from '../host/domain/model.ts';
import { journalInput } from '../host/clocks/clock-event.ts';
import { Boot } from '../host/clocks/journaled-clock.fixture.ts';
import { loadTournament } from '../scripts/load-host.ts';
import type { GameResult } from '../rules/vocabulary.ts';

export const HALL_TOKEN = 'arbiter-token-for-the-dashboard-hall-0123';
export const HALL_ARBITER = 'Chief Arbiter';
export const GENERATED = 'load';
export const TEAM = 'ivanovo-2018';
export const INDIVIDUAL = 'open';
export const EVIL = `<script>x()</script> O'N & "C"`;

/** Ivanovo, as test/export-report.test.ts: round 1 with a forfeit on board 6, round 2 with a double forfeit on board 3. */
const TEAM_RESULTS: Record<number, GameResult[]> = {
  1: ['1-0', '1/2-1/2', '0-1', '1/2-1/2', '1-0', '-+', '1/2-1/2', '0-1'],
  2: ['0-1', '1/2-1/2', '--', '1-0', '1/2-1/2', '1-0', '0-1', '1/2-1/2'],
};
/** test/one-ranking.test.ts: 4 first on Buchholz, 2 and 3 share place 2, 5 and 6 place 4. */
const OPEN_PAIRS: [number, number, GameResult][][] = [
  [
    [1, 4, '0-1'],
    [2, 5, '1-0'],
    [3, 6, '1-0'],
  ],
  [
    [5, 1, '1-0'],
    [6, 2, '1-0'],
    [4, 3, '1-0'],
  ],
  [
    [1, 6, '1-0'],
    [2, 4, '1-0'],
    [3, 5, '1-0'],
  ],
];

export interface DashboardHall {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly journal: Journal;
  readonly ports: JournalPorts;
  readonly hall: Hall;
  /** Boards of the generated event. */
  readonly boards: number;
  close(): Promise<void>;
}

export interface DashboardHallOptions {
  /** Boards of the generated event `load` (round 1, running clocks). */
  readonly boards: number;
  /** A player and a team with markup in their names. */
  readonly evil?: boolean;
}

function fixtureEvents(evil: boolean, firstTable: number): Hall['events'] {
  const file = JSON.parse(readFileSync(fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)), 'utf8'));
  if (evil) {
    file.events[0].players[0].name = EVIL;
    file.events[0].teams[0].name = 'Школа <b>1</b><img src=x>';
  }
  file.events[0].hallFirstTable = firstTable;
  const open = {
    id: INDIVIDUAL,
    name: 'Open <i>A</i>',
    kind: 'individual',
    timeControl: 'classical',
    plannedRounds: 3,
    hallFirstTable: firstTable + 10,
    players: Array.from({ length: 6 }, (_, i) => ({ rank: i + 1, name: i === 0 && evil ? EVIL : `Player, ${i + 1}` })),
    rounds: OPEN_PAIRS.map((games, r) => ({ number: r + 1, boards: games.map(([white, black], b) => ({ board: b + 1, white, black })) })),
  };
  return parseTournament({ hall: file.hall, events: [file.events[0], open] }).events;
}

/** Starts the hall; `close()` stops the server and closes the journal. */
export async function startDashboardHall(opts: DashboardHallOptions): Promise<DashboardHall> {
  const generated = loadTournament(opts.boards);
  const hall: Hall = { ...generated, events: [...generated.events, ...fixtureEvents(opts.evil ?? false, opts.boards + 1)] };
  const startUtc = Date.now() - 45 * 60_000;
  const journal = new Journal(':memory:');
  const director = new Director(journal, hall);
  const confirm = (gameId: number, result: GameResult, utcMs: number) => {
    journal.reportResult(gameId, { result, how: 'arbiter', source: 'arbiter', arbiter: HALL_ARBITER, utcMs });
    journal.confirmResult(gameId, HALL_ARBITER, utcMs + 60_000);
  };
  for (const r of [1, 2])
    for (const g of director.openRound(TEAM, r, startUtc - (3 - r) * 86_400_000))
      confirm(g.gameId, TEAM_RESULTS[r][g.board - 1], startUtc - (3 - r) * 86_400_000 + 3_600_000);
  OPEN_PAIRS.forEach((games, r) => {
    for (const g of director.openRound(INDIVIDUAL, r + 1, startUtc - (4 - r) * 86_400_000))
      confirm(g.gameId, games[g.board - 1][2], startUtc - (4 - r) * 86_400_000 + 3_600_000);
  });
  const clocks = Object.fromEntries(Array.from({ length: opts.boards }, (_, i) => [i + 1, `clk-${i + 1}`]));
  const games = director.openRound(GENERATED, 1, startUtc, clocks);

  const ports = new JournalPorts({ journal, hall, nowUtcMs: () => Date.now() });
  // The clocks: the real statechart, each output journaled as the host journals it.
  const control = presetTimeControl('classical');
  for (const g of games) {
    const boot = new Boot(g.clockId!, 1, control, 0, (b, ev) => {
      ports.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: startUtc + b.now, uncertaintyMs: 1 }), gameId: g.gameId });
    });
    boot.send({ type: 'START', at: 1_000 });
    // Board k has played (k mod 23) moves of 20 to 90 s each; every 17th board is paused by the arbiter.
    for (let m = 0; m < g.board % 23; m++) boot.send({ type: 'PRESS', side: boot.state().turn, at: boot.now + 20_000 + ((g.board * 7 + m * 13) % 70) * 1_000 });
    if (g.board % 17 === 0) boot.send({ type: 'PAUSE', at: boot.now + 5_000 });
  }
  const app = await buildApi({
    state: ports,
    commands: ports,
    exports: journalExports(journal, hall, () => Date.now()),
    tokens: [{ arbiter: HALL_ARBITER, token: HALL_TOKEN }],
    nowUtcMs: () => Date.now(),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    journal,
    ports,
    hall,
    boards: opts.boards,
    async close() {
      await app.close();
      journal.close();
    },
  };
}

/** Opens the first board of the hall as an arbiter does: a click on its line opens its side panel with the controls. */
export async function openFirstBoard(page: Page): Promise<void> {
  const first = page.locator('#boards [data-board-id]').first();
  const id = await first.getAttribute('data-board-id');
  await first.locator('.label').click();
  await page.locator(`#panel[data-board="${id}"]`).waitFor({ state: 'visible' });
  await page.locator('#panel button').first().waitFor({ state: 'visible' });
}

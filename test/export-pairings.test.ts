// `chessclock export --pairings` and `--cards` (docs/exports.md "Print before the round"): the
// pages printed before a round, made by the real command, and printed by real Chromium
// (playwright-core, Debian `chromium`) as a printer's browser prints them:
// - a team event (Ivanovo 2018, round 1 from the tournament file): the pairings by match, the
//   team bye, every player alphabetically with team, board and colour; the table cards two or four
//   to an A4 sheet, so 8 boards print on 4 or 2 pages;
// - a Swiss whose round 2 was proposed from a pairing program's TRF and approved in a running
//   host: the command, on the host's journal, prints the approved round;
// - a knockout is refused with the reason, and a round not paired names the rounds that are.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { startHost } from '../host/start-host.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../host/app/next-round.fixture.ts';
import { launchChromium, SKIP_BROWSER, skipMessage, tableRows } from './browser-harness.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const IVANOVO = fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url));
const SLOVENIAN = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));

let browser: Browser | null = null;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-pairings-'));
  skipMessage('the pairings list and table cards printed by Chromium');
  if (!SKIP_BROWSER) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

function exportCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BIN, 'export', ...args], { encoding: 'utf8' });
}

function emptyJournal(name: string): string {
  const db = join(dir, name);
  new Journal(db).close();
  return db;
}

/** The number of pages Chromium prints `html` on (A4 from the page's own @page rule). */
async function printedPages(html: string): Promise<number> {
  const page = await browser!.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    return pdf.match(/\/Type\s*\/Page\b/g)?.length ?? 0;
  } finally {
    await page.close();
  }
}

describe('chessclock export --pairings / --cards', () => {
  it.skipIf(SKIP_BROWSER)(
    'team event (Ivanovo round 1 from the file): pairings by match with the team bye, players alphabetically with their team; cards 2 or 4 to an A4 page',
    { timeout: 120_000 },
    async () => {
      const db = emptyJournal('team.db');
      const base = ['--db', db, '--tournament', IVANOVO, '--event', 'ivanovo-2018', '--round', '1'];
      const run = exportCli([...base, '--pairings']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const page = await browser!.newPage();
      try {
        await page.setContent(run.stdout, { waitUntil: 'load' });
        // The fixture's round 1: Школа № 1 – Школа № 2 on boards 1-4, № 3 – № 4 on 5-8, № 5 has the bye.
        const byBoard = await tableRows(page, 'table.by-board tbody tr');
        expect(byBoard.filter((r) => r.attrs.class === 'match').map((r) => r.cells[0])).toEqual(['Школа № 1 – Школа № 2', 'Школа № 3 – Школа № 4']);
        expect(byBoard.filter((r) => r.attrs['data-board']).map((r) => [r.cells[0], r.cells[2], r.cells[7]])).toEqual([
          ['1', '1', '5'],
          ['2', '6', '2'],
          ['3', '3', '7'],
          ['4', '8', '4'],
          ['5', '9', '13'],
          ['6', '14', '10'],
          ['7', '11', '15'],
          ['8', '16', '12'],
        ]);
        expect(await page.$$eval('ul.byes li', (li) => li.map((x) => x.textContent))).toEqual(['Школа № 5: no opponent (bye): 1 match point, 0.5 per player']);
        // Every one of the 20 players once: 16 at a board, the bye team's 4 without one; in name order.
        const alpha = await tableRows(page, 'table.alphabetical tbody tr');
        expect(alpha).toHaveLength(20);
        const names = alpha.map((r) => r.cells[0]);
        expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
        const bye = alpha.filter((r) => r.cells[1] === 'Школа № 5');
        expect(bye.map((r) => [r.cells[2], r.cells[4], r.cells[5]])).toEqual(Array(4).fill(['', '', 'team bye']));
        const first = alpha.find((r) => r.attrs['data-player'] === '1')!;
        expect(first.cells.slice(1)).toEqual(['Школа № 1', '1', '1', 'White', byBoardName(byBoard, 0, 8)]);
      } finally {
        await page.close();
      }

      const two = exportCli([...base, '--cards']);
      expect(two.status).toBe(0);
      expect(await printedPages(two.stdout)).toBe(4);
      const four = exportCli([...base, '--cards', '--per-page', '4']);
      expect(four.status).toBe(0);
      expect(await printedPages(four.stdout)).toBe(2);
      expect(exportCli([...base, '--pairings', '--per-page', '4']).status).toBe(2);
    },
  );

  it("a Swiss's round proposed from a TRF and approved in the host: the command prints it from the host's journal", { timeout: 60_000 }, async () => {
    const raw = swissTournament(['--mode=exit']);
    const tournament = join(dir, 'swiss.json');
    writeFileSync(tournament, JSON.stringify(raw));
    const db = join(dir, 'swiss.db');
    const host = await startHost({ journal: new Journal(db), hall: parseTournament(raw), clock: stoppedClock(), log: () => undefined });
    try {
      await confirmRound(host.host, 1, ['1-0', '0-1', '1-0']);
      await host.host.idle();
      const trf = addRoundToTrf(
        host.exports.trf(SWISS, 1),
        1,
        [
          [2, 1],
          [4, 3],
          [5, 6],
        ],
        7,
      );
      expect((await host.host.proposeRoundFromTrf(SWISS, trf, { arbiter: ARBITER })).ok).toBe(true);
      expect((await host.host.approveRound(SWISS, 2, { arbiter: ARBITER })).ok).toBe(true);
    } finally {
      await host.close();
    }
    const run = exportCli(['--db', db, '--tournament', tournament, '--event', SWISS, '--pairings']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('<p class="meta" id="round" data-round="2">Pairings: round 2 of 3');
    expect(
      [
        ...run.stdout.matchAll(
          /<tr data-board="(\d)"><td class="num">\d<\/td><td class="num">\d<\/td><td class="num">(\d)<\/td>.*?<td class="num">(\d)<\/td><td class="name">/g,
        ),
      ].map((m) => m.slice(1)),
    ).toEqual([
      ['1', '2', '1'],
      ['2', '4', '3'],
      ['3', '5', '6'],
    ]);
    const missing = exportCli(['--db', db, '--tournament', tournament, '--event', SWISS, '--round', '3', '--cards']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`chessclock export: event "${SWISS}" has no pairings for round 3 (rounds 1-2 are paired)\n`);
  });

  it('a knockout is refused with the reason', () => {
    const db = emptyJournal('ko.db');
    const run = exportCli([
      '--db',
      db,
      '--tournament',
      SLOVENIAN,
      '--event',
      JSON.parse(readFileSync(SLOVENIAN, 'utf8')).events[0].id,
      '--round',
      '1',
      '--pairings',
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/is a knockout: its mini-matches and their games are on the dashboard/);
  });
});

/** Black's name on the `i`-th board row of a by-board table (its 9th cell). */
function byBoardName(rows: Awaited<ReturnType<typeof tableRows>>, i: number, cell: number): string {
  return rows.filter((r) => r.attrs['data-board'])[i].cells[cell];
}

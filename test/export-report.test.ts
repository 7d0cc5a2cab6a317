// `chessclock export --report` (docs/exports.md "Print report"): the HTML page for print, made by
// the real command over a real SQLite journal the director and the arbiter's results wrote, and
// read back in real Chromium (playwright-core, Debian `chromium`) as a printer's browser reads it.
// Every figure on the page is checked against the standings module (host/domain/standings.ts,
// board-standings.ts over journal-standings.ts confirmedRecords), and the tie-break named for each
// tie against the ranking's own separatedBy; a name holding `<script>` must be text, not markup
// (HTML Living Standard §13.1.2.6 escaping), and the page must load nothing and run nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { Director } from '../host/app/director.ts';
import { confirmedRecords } from '../host/app/journal-standings.ts';
import { teamStandings } from '../host/domain/standings.ts';
import { boardStandings, individualStandings } from '../host/domain/board-standings.ts';
import { findEvent, playerByRank, teamById, type Hall } from '../host/domain/model.ts';
import { eventReportHtml, formatPoints } from '../host/adapters/exports/report-html.ts';
import { RESULT_MEANING, type GameResult } from '../rules/vocabulary.ts';
import { launchChromium, SKIP_BROWSER, skipMessage, tableRows, type ShownRow } from './browser-harness.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url));
const START = Date.UTC(2018, 1, 13, 12, 0);
const ARBITER = 'Главный судья';
// At most 33 characters: the TRF16 name field (the tournament file refuses longer names).
const EVIL = `<script>x()</script> O'N & "C"`;
const EVIL_TEAM = 'Школа <b>1</b><img src=x>';

let browser: Browser | null = null;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-report-'));
  skipMessage('the print report read in Chromium');
  if (!SKIP_BROWSER) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page in Chromium: every request it tries is recorded (there must be none), then its tables as text. */
async function openReport(html: string): Promise<{ page: Page; requests: string[]; rows: (selector: string) => Promise<ShownRow[]> }> {
  const page = await browser!.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.setContent(html, { waitUntil: 'load' });
  const rows = (selector: string) => tableRows(page, selector);
  return { page, requests, rows };
}

/** The Ivanovo fixture with a player and a team whose names are markup. */
function evilTournament(): string {
  const file = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  file.events[0].players[0].name = EVIL; // rank 1: team 1, board 1
  file.events[0].teams[0].name = EVIL_TEAM;
  const path = join(dir, 'hall.json');
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** Round 1 as in journal-standings.test.ts (board 6: White never came), round 2 with a double forfeit on board 3. */
const RESULTS: Record<number, Record<number, GameResult>> = {
  1: { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' },
  2: { 1: '0-1', 2: '1/2-1/2', 3: '--', 4: '1-0', 5: '1/2-1/2', 6: '1-0', 7: '0-1', 8: '1/2-1/2' },
};

function playRounds(db: string, hall: Hall, rounds: number): void {
  const journal = new Journal(db);
  const director = new Director(journal, hall);
  for (let r = 1; r <= rounds; r++) {
    const games = director.openRound('ivanovo-2018', r, START + (r - 1) * 3 * 3_600_000);
    for (const g of games) {
      journal.reportResult(g.gameId, { result: RESULTS[r][g.board], how: 'arbiter', source: 'arbiter', arbiter: ARBITER, utcMs: START + r * 3_600_000 });
      journal.confirmResult(g.gameId, ARBITER, START + r * 3_600_000 + 60_000);
    }
  }
  journal.close();
}

describe('chessclock export --report', () => {
  it.skipIf(SKIP_BROWSER)(
    'team event (Ivanovo): round results with forfeits as such, crosstable and standings equal to the standings module, each tie named by its deciding tie-break; markup in names stays text',
    { timeout: 120_000 },
    async () => {
      const tournament = evilTournament();
      const hall = loadTournamentFile(tournament);
      const event = findEvent(hall, 'ivanovo-2018');
      const db = join(dir, 'team.db');
      playRounds(db, hall, 2);
      const out = join(dir, 'report.html');
      const run = spawnSync(process.execPath, [BIN, 'export', '--db', db, '--tournament', tournament, '--event', 'ivanovo-2018', '--report', '--out', out], {
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const html = readFileSync(out, 'utf8');
      // Escaped in the source: no tag from a name reaches the markup.
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<b>');
      expect(html).toContain('&lt;script&gt;x()&lt;/script&gt; O&#39;N &amp; &quot;C&quot;');
      expect(html).toContain('Школа &lt;b&gt;1&lt;/b&gt;&lt;img src=x&gt;');

      const { page, requests, rows } = await openReport(html);
      try {
        // Self-contained and inert: nothing fetched, no script, the name shown as the text it is.
        expect(requests).toEqual([]);
        expect(
          await page.evaluate(() => [
            document.scripts.length,
            document.images.length,
            document.querySelectorAll('link, iframe, object, embed, [src], [href]').length,
          ]),
        ).toEqual([0, 0, 0]);
        expect(await page.title()).toBe(`${event.name} — after round 2`);
        expect(await page.locator('td', { hasText: "O'N &" }).first().textContent()).toBe(EVIL);
        expect(await page.locator('#after-round').getAttribute('data-round')).toBe('2');
        // Print rules are there for the printer: A4 pages, headers repeated (CSS Paged Media).
        expect(html).toMatch(/@media print \{\s*@page \{ size: A4;/);

        // Round results: every board with the journal's result in the vocabulary's words.
        for (const r of [1, 2]) {
          const shown = await rows(`#round-${r} tr[data-board]`);
          expect(shown.map((x) => [Number(x.attrs['data-board']), x.cells[2]])).toEqual(
            Object.entries(RESULTS[r]).map(([b, res]) => [Number(b), RESULT_MEANING[res].label]),
          );
          for (const x of shown) {
            const pairing = event.rounds[r - 1].boards.find((b) => b.board === Number(x.attrs['data-board']))!;
            expect([x.cells[1], x.cells[3]]).toEqual([playerByRank(event, pairing.white).name, playerByRank(event, pairing.black).name]);
          }
        }
        expect((await rows('#round-1 tr[data-board="6"]'))[0].cells[2]).toBe('−+ (White forfeits)');
        expect((await rows('#round-2 tr[data-board="3"]'))[0].cells[2]).toBe('−− (both forfeit)');
        expect(await page.locator('#round-1 ul.byes').textContent()).toBe('Школа № 5: no opponent (bye): 1 match point, 2.0 board points');

        // Standings and crosstable: the standings module's figures, row for row.
        const journal = new Journal(db);
        const records = confirmedRecords(journal, event, 2);
        journal.close();
        const teams = teamStandings(event, records, 2);
        const standing = await rows('table.standings.teams tbody tr');
        expect(
          standing.map((x) => [
            Number(x.attrs['data-rank']),
            Number(x.attrs['data-team']),
            x.cells[1],
            x.fields.gamePoints,
            x.fields.matchPoints,
            x.fields.directEncounter,
            x.fields.buchholz,
            [1, 2, 3, 4].map((k) => x.fields[`board${k}`]),
          ]),
        ).toEqual(
          teams.map((t) => [
            t.rank,
            t.team,
            teamById(event, t.team).name,
            formatPoints(t.gamePoints),
            String(t.matchPoints),
            t.directEncounter === null ? '' : formatPoints(t.directEncounter),
            formatPoints(t.buchholz),
            t.boardPoints.map(formatPoints),
          ]),
        );
        // The tie-break named for each tie is the one that separated the two in the ranking.
        teams.forEach((t, i) => {
          const next = teams[i + 1];
          const s = next?.separatedBy;
          if (next && s && s.criterion !== 'board points') {
            expect(standing[i].fields.tieBreak).toBe(
              `ahead of ${teamById(event, next.team).name} on ${s.criterion} ${formatPoints(s.above)} vs ${formatPoints(s.value)}`,
            );
          } else if (!teams.some((o) => o !== t && o.rank === t.rank)) expect(standing[i].fields.tieBreak).toBe('');
        });
        const cross = await rows('table.crosstable tbody tr');
        expect(cross.map((x) => Number(x.attrs['data-team']))).toEqual(teams.map((t) => t.team));
        cross.forEach((x, i) => {
          const t = teams[i];
          expect(x.cells.slice(3, 5)).toEqual(
            t.rounds.map((r) =>
              r.opponent === null
                ? `bye ${formatPoints(r.gamePoints)}`
                : `${r.opponent}${r.colour} ${formatPoints(r.gamePoints)}${r.forfeited ? ' (forfeit)' : ''}`,
            ),
          );
          expect([x.fields.gamePoints, x.fields.matchPoints]).toEqual([formatPoints(t.gamePoints), String(t.matchPoints)]);
        });
        // Board prizes: each board's ranking with its tie-break values.
        for (const b of boardStandings(event, records)) {
          const shown = await rows(`#standings-board-${b.board} tbody tr`);
          expect(
            shown.map((x) => [
              Number(x.attrs['data-rank']),
              Number(x.attrs['data-player']),
              x.fields.points,
              x.fields.buchholz,
              x.fields.wins,
              x.fields.buchholzCut1,
              x.fields.buchholzCut2,
            ]),
          ).toEqual(
            b.players.map((p) => [
              p.rank,
              p.player,
              formatPoints(p.points),
              formatPoints(p.buchholz),
              String(p.wins),
              formatPoints(p.buchholzCut1),
              formatPoints(p.buchholzCut2),
            ]),
          );
        }
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(SKIP_BROWSER)(
    'after round 1 the tie on board and match points is named: board 1 points (Ivanovo: boards after team Buchholz), worked out by hand',
    { timeout: 120_000 },
    async () => {
      // Round 1 (journal-standings.test.ts): teams 1, 5, 2 on 2 board points and 1 match point; 5
      // met neither (no direct encounter, C.07 6.2); Buchholz 2 each; board 1: team 1 → 1, team 5 → ½ (bye), team 2 → 0.
      const hall = loadTournamentFile(FIXTURE);
      const db = join(dir, 'round1.db');
      playRounds(db, hall, 1);
      const run = spawnSync(process.execPath, [BIN, 'export', '--db', db, '--tournament', FIXTURE, '--event', 'ivanovo-2018', '--report', '--round', '1'], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      const { page, rows } = await openReport(run.stdout);
      try {
        const standing = await rows('table.standings.teams tbody tr');
        expect(standing.map((x) => [x.cells[0], x.cells[1], x.fields.gamePoints, x.fields.tieBreak])).toEqual([
          ['1', 'Школа № 3', '3.5', ''],
          ['2', 'Школа № 1', '2.0', 'ahead of Школа № 5 on board 1 1.0 vs 0.5'],
          ['3', 'Школа № 5', '2.0', 'ahead of Школа № 2 on board 1 0.5 vs 0.0'],
          ['4', 'Школа № 2', '2.0', ''],
          ['5', 'Школа № 4', '0.5', ''],
        ]);
      } finally {
        await page.close();
      }
      // Round 2 has no result yet: the report after it is refused, naming the boards (exit 1).
      const refused = spawnSync(process.execPath, [BIN, 'export', '--db', db, '--tournament', FIXTURE, '--event', 'ivanovo-2018', '--report', '--round', '2'], {
        encoding: 'utf8',
      });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/no standings after round 2: round 2 board 1; .* not in the journal/);
    },
  );

  it.skipIf(SKIP_BROWSER)(
    'individual event: crosstable of TRF records and standings by points, Buchholz, wins, direct encounter; the tie decided by direct encounter is named',
    { timeout: 120_000 },
    async () => {
      // board-standings.test.ts "в)": R1 1-4 ½, 2-6 ½, 3-5 0-1; R2 2-1 1-0, 3-6 1-0, 4-5 1-0; R3 1-6 0-1, 2-5 1-0, 3-4 ½.
      // 3 and 6: 1½ points, Buchholz 4½, one win each; 3 beat 6 → 3 first on direct encounter 1 vs 0.
      const pairs: [number, number, GameResult][][] = [
        [
          [1, 4, '1/2-1/2'],
          [2, 6, '1/2-1/2'],
          [3, 5, '0-1'],
        ],
        [
          [2, 1, '1-0'],
          [3, 6, '1-0'],
          [4, 5, '1-0'],
        ],
        [
          [1, 6, '0-1'],
          [2, 5, '1-0'],
          [3, 4, '1/2-1/2'],
        ],
      ];
      const file = {
        hall: { name: 'Hall', site: 'Ljubljana SLO' },
        events: [
          {
            id: 'open',
            name: 'Open <i>A</i>',
            kind: 'individual',
            timeControl: 'classical',
            plannedRounds: 3,
            players: Array.from({ length: 6 }, (_, i) => ({ rank: i + 1, name: i === 0 ? EVIL : `Player, ${i + 1}` })),
            rounds: pairs.map((games, r) => ({ number: r + 1, boards: games.map(([white, black], b) => ({ board: b + 1, white, black })) })),
          },
        ],
      };
      const path = join(dir, 'open.json');
      writeFileSync(path, JSON.stringify(file));
      const hall = loadTournamentFile(path);
      const event = findEvent(hall, 'open');
      const journal = new Journal(':memory:');
      try {
        const director = new Director(journal, hall);
        pairs.forEach((games, r) => {
          for (const g of director.openRound('open', r + 1, START + r * 3_600_000)) {
            journal.reportResult(g.gameId, { result: games[g.board - 1][2], how: 'arbiter', source: 'arbiter', arbiter: ARBITER, utcMs: START });
            journal.confirmResult(g.gameId, ARBITER, START + 1);
          }
        });
        const html = eventReportHtml(journal, hall, 'open');
        const records = confirmedRecords(journal, event, 3);
        const ranked = individualStandings(
          records,
          event.players.map((p) => p.rank),
        );
        const { page, requests, rows } = await openReport(html);
        try {
          expect(requests).toEqual([]);
          expect(await page.evaluate(() => document.scripts.length)).toBe(0);
          expect(await page.locator('h1').textContent()).toBe('Open <i>A</i>');
          const standing = await rows('#standings-players tbody tr');
          expect(
            standing.map((x) => [
              Number(x.attrs['data-rank']),
              Number(x.attrs['data-player']),
              x.fields.points,
              x.fields.buchholz,
              x.fields.wins,
              x.fields.directEncounter,
              x.fields.buchholzCut1,
            ]),
          ).toEqual(
            ranked.map((p) => [
              p.rank,
              p.player,
              formatPoints(p.points),
              formatPoints(p.buchholz),
              String(p.wins),
              p.directEncounter === null ? '' : formatPoints(p.directEncounter),
              formatPoints(p.buchholzCut1),
            ]),
          );
          expect(standing.map((x) => Number(x.attrs['data-player']))).toEqual([2, 4, 3, 6, 5, 1]);
          expect(standing[2].fields.tieBreak).toBe('ahead of Player, 6 on direct encounter 1.0 vs 0.0');
          const cross = await rows('table.crosstable tbody tr');
          // Player 3: R1 White against 5, lost; R2 White against 6, won; R3 White against 4, drew.
          expect(cross.find((x) => x.attrs['data-player'] === '3')!.cells.slice(3, 7)).toEqual(['5w 0', '6w 1', '4w ½', '1.5']);
          expect(cross.find((x) => x.attrs['data-player'] === '1')!.cells[2]).toBe(EVIL);
        } finally {
          await page.close();
        }
      } finally {
        journal.close();
      }
    },
  );

  it.skipIf(SKIP_BROWSER)(
    'knockout event (Slovenian final 2007): each mini-match with its games and results, who advanced; no tie-break table',
    { timeout: 120_000 },
    async () => {
      const hall = loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url)));
      const journal = new Journal(':memory:');
      try {
        const director = new Director(journal, hall);
        const t0 = Date.UTC(2007, 7, 16, 13, 0);
        const opened = director.openRound('slo-w-2007', 1, t0);
        // Board 2: Black did not come to game 1 (FIDE Laws 6.7.1), then game 2 is drawn: 1½-½, decided in the classical games.
        journal.reportResult(opened[1].gameId, { result: '+-', how: 'forfeit-lateness', source: 'arbiter', arbiter: ARBITER, utcMs: t0 + 3_600_000 });
        journal.confirmResult(opened[1].gameId, ARBITER, t0 + 3_600_000);
        const next = director.afterConfirmedResult(opened[1].gameId, t0 + 3_600_000);
        if (next.type !== 'next-game') throw new Error(`expected the second classical game, got ${next.type}`);
        journal.reportResult(next.game.gameId, { result: '1/2-1/2', how: 'played', source: 'arbiter', arbiter: ARBITER, utcMs: t0 + 90_000_000 });
        journal.confirmResult(next.game.gameId, ARBITER, t0 + 90_000_000);
        director.afterConfirmedResult(next.game.gameId, t0 + 90_000_000);
        const { page, rows } = await openReport(eventReportHtml(journal, hall, 'slo-w-2007'));
        try {
          const board2 = await rows('#round-1 tr[data-board="2"]');
          expect(board2.map((x) => x.cells)).toEqual([
            [expect.stringMatching(/^Board 2: .+ advances \(decided by the classical games\)$/)],
            ['Game 1 (classical)', opened[1].white, '+− (Black forfeits)', opened[1].black],
            ['Game 2 (classical)', next.game.white, '½-½', next.game.black],
          ]);
          expect(board2[0].cells[0]).toContain(`${opened[1].white} advances`);
          expect((await rows('#round-1 tr[data-board="1"]'))[0].cells).toEqual(['Board 1: match not decided yet']);
          expect(await page.locator('#crosstable').count()).toBe(0);
        } finally {
          await page.close();
        }
      } finally {
        journal.close();
      }
    },
  );
});

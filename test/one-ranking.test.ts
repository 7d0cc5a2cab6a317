// One official ranking in every output (docs/exports.md "TRF rank"): the TRF's 001 rank (FIDE
// Handbook C.04 Annex 2, TRF16, columns 86-89) and 310 team rank (TRF-2026, columns 69-71), GET
// /api/standings and the print report (`chessclock export --report`) must give the same places, all
// from the one ranking of host/domain (board-standings.ts fieldStandings, standings.ts teamStandings).
// Real parts: a SQLite journal written by the director and the arbiter's confirmed results, the
// Fastify API with the host core's exporters, and the report page (read in Chromium by
// test/export-report.test.ts; here only its data attributes are read).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import type { Hall } from '../host/domain/model.ts';
import { Director } from '../host/app/director.ts';
import { JournalPorts } from '../host/app/journal-ports.ts';
import type { PlayerStandingView, TeamStandingView } from '../host/app/ports.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import { eventReportHtml } from '../host/adapters/exports/report-html.ts';
import { parseTrf } from '../host/adapters/exports/trf-parser.ts';
import type { GameResult } from '../rules/vocabulary.ts';

const TOKEN = 'one-ranking-arbiter-token-0123456789';
const ARBITER = 'Главный судья';
const START = Date.UTC(2018, 1, 13, 12, 0);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A host over a SQLite journal: the director opens every round, the arbiter enters and confirms each result. */
async function hallWithResults(
  hall: Hall,
  eventId: string,
  results: (round: number, board: number) => GameResult,
  rounds: number,
): Promise<{ app: FastifyInstance; journal: Journal }> {
  const journal = new Journal(':memory:');
  cleanups.push(() => journal.close());
  const director = new Director(journal, hall);
  for (let r = 1; r <= rounds; r++) {
    for (const g of director.openRound(eventId, r, START + (r - 1) * 3_600_000)) {
      journal.reportResult(g.gameId, { result: results(r, g.board), how: 'arbiter', source: 'arbiter', arbiter: ARBITER, utcMs: START + r * 3_600_000 });
      journal.confirmResult(g.gameId, ARBITER, START + r * 3_600_000 + 60_000);
    }
  }
  const host = new JournalPorts({ journal, hall, nowUtcMs: () => START + rounds * 3_600_000 });
  // As the Host does (host/app/host.ts): standings from the journal and the tournament file.
  const app = await buildApi({
    state: host,
    commands: host,
    exports: journalExports(journal, hall, () => START),
    tokens: [{ arbiter: ARBITER, token: TOKEN }],
    dashboard: false,
  });
  cleanups.push(() => app.close());
  return { app, journal };
}

/** The rows of one report table as [player or team, place], in the page's order (`data-*` attributes). */
function reportRows(html: string, tableClass: string, key: 'player' | 'team'): [number, number][] {
  const table = new RegExp(`<table class="${tableClass}"[^>]*>([\\s\\S]*?)</table>`).exec(html);
  if (!table) throw new Error(`no <table class="${tableClass}"> in the report`);
  return [...table[1].matchAll(new RegExp(`<tr data-${key}="(\\d+)" data-rank="(\\d+)"`, 'g'))].map((m) => [Number(m[1]), Number(m[2])]);
}

describe('one ranking in the TRF, GET /api/standings and the print report', () => {
  it('individual event where points tie and Buchholz separates (Ivanovo board-prize order, docs/regulations.md: points, then а) Buchholz, FIDE C.07 4.2 and 8.1); a tie on every criterion shares the place in all three', async () => {
    // R1 1-4 0-1, 2-5 1-0, 3-6 1-0; R2 5-1 1-0, 6-2 1-0, 4-3 1-0; R3 1-6 1-0, 2-4 1-0, 3-5 1-0.
    // Points: 2, 3, 4 → 2; 1, 5, 6 → 1. Buchholz (opponents' points, C.07 8.1): 4 → 1+2+2 = 5,
    // 2 → 1+1+2 = 4, 3 → 1+2+1 = 4; 5 → 2+1+2 = 5, 6 → 2+2+1 = 5, 1 → 2+1+1 = 4. So 4 is first on
    // Buchholz (points alone would give 2, 3, 4 a shared first place). 2 and 3: 2 wins each, never
    // met (direct encounter skipped, C.07 6.2), cut 1 3, cut 2 2 each: level on every criterion, they
    // share place 2. 5 and 6 likewise share place 4; 1 is sixth (Buchholz 4 against 5).
    const pairs: [number, number, GameResult][][] = [
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
    const dir = mkdtempSync(join(tmpdir(), 'one-ranking-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'open.json');
    writeFileSync(
      path,
      JSON.stringify({
        hall: { name: 'Hall', site: 'Ljubljana SLO' },
        events: [
          {
            id: 'open',
            name: 'Open',
            kind: 'individual',
            timeControl: 'classical',
            plannedRounds: 3,
            players: Array.from({ length: 6 }, (_, i) => ({ rank: i + 1, name: `Player, ${i + 1}` })),
            rounds: pairs.map((games, r) => ({ number: r + 1, boards: games.map(([white, black], b) => ({ board: b + 1, white, black })) })),
          },
        ],
      }),
    );
    const hall = loadTournamentFile(path);
    const { app, journal } = await hallWithResults(hall, 'open', (r, b) => pairs[r - 1][b - 1][2], 3);
    const expected: [number, number][] = [
      [4, 1],
      [2, 2],
      [3, 2],
      [5, 4],
      [6, 4],
      [1, 6],
    ];
    const byPlayer = (rows: readonly [number, number][]) => new Map(rows);

    const trfRes = await app.inject({ url: '/api/export/trf?event=open' });
    expect(trfRes.statusCode).toBe(200);
    const trf = parseTrf(trfRes.body);
    expect(byPlayer(trf.players.map((p) => [p.rank, p.placement!]))).toEqual(byPlayer(expected));

    const api = await app.inject({ url: '/api/standings?event=open' });
    expect(api.statusCode).toBe(200);
    const body = api.json();
    expect(body).toMatchObject({ event: 'open', kind: 'individual', round: 3, teams: [], boards: [] });
    const players: PlayerStandingView[] = body.players;
    expect(players.map((p) => [p.player, p.rank])).toEqual(expected); // best first; a shared place in starting-rank order
    // What decided 4 over 2 is the ranking's own record, the same the report and the dashboard print.
    expect(players.find((p) => p.player === 2)!.separatedBy).toEqual({ criterion: 'Buchholz', above: 5, value: 4 });
    expect(players.find((p) => p.player === 3)!.separatedBy).toBeNull(); // shares place 2 with player 2

    const report = reportRows(eventReportHtml(journal, hall, 'open'), 'standings players', 'player');
    expect(report).toEqual(players.map((p) => [p.player, p.rank]));
    expect(byPlayer(report)).toEqual(byPlayer(expected));
  });

  it('team event (Ivanovo 2018 after round 1): the TRF 310 team ranks and 001 ranks equal GET /api/standings and the report (regulation "Награждение": board points, match points, direct encounter, team Buchholz, boards 1-4)', async () => {
    const hall = loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    // As host/app/journal-standings.test.ts: teams 1, 5 and 2 level on board and match points and
    // on Buchholz, told apart by board 1 points; board 6 a forfeit (FIDE Laws 6.7.1).
    const RESULTS: Record<number, GameResult> = { 1: '1-0', 2: '1/2-1/2', 3: '0-1', 4: '1/2-1/2', 5: '1-0', 6: '-+', 7: '1/2-1/2', 8: '0-1' };
    const { app, journal } = await hallWithResults(hall, 'ivanovo-2018', (_, b) => RESULTS[b], 1);
    const trf = parseTrf((await app.inject({ url: '/api/export/trf?event=ivanovo-2018' })).body);
    const body = (await app.inject({ url: '/api/standings?event=ivanovo-2018' })).json();
    const teams: TeamStandingView[] = body.teams;
    expect(teams.map((t) => t.team)).toEqual([3, 1, 5, 2, 4]);
    expect(new Map(trf.teams.map((t) => [t.team, t.placement]))).toEqual(new Map(teams.map((t) => [t.team, t.rank])));
    const players: PlayerStandingView[] = body.players;
    expect(players).toHaveLength(hall.events[0].players.length);
    expect(new Map(trf.players.map((p) => [p.rank, p.placement]))).toEqual(new Map(players.map((p) => [p.player, p.rank])));
    const report = eventReportHtml(journal, hall, 'ivanovo-2018');
    expect(reportRows(report, 'standings teams', 'team')).toEqual(teams.map((t) => [t.team, t.rank]));
  });

  it('a knockout has no tie-break ranking, its matches decide (docs/regulations.md, Slovenian final 2007): GET /api/standings refuses it with 409 saying so', async () => {
    const hall = loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url)));
    const journal = new Journal(':memory:');
    cleanups.push(() => journal.close());
    new Director(journal, hall).openRound('slo-w-2007', 1, START, { 1: 'clk-1', 2: 'clk-2' });
    const host = new JournalPorts({ journal, hall, nowUtcMs: () => START });
    const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false });
    cleanups.push(() => app.close());
    const res = await app.inject({ url: '/api/standings?event=slo-w-2007' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/knockout event: its matches decide/);
  });
});

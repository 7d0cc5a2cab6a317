// GET /events/:event/standings (docs/api.md "Pictures and print views", docs/dashboard.md "Standings page": a
// standings and crosstable page per event) through Fastify's inject, over JournalPorts on a real
// SQLite journal: the Ivanovo 2018 team event opened by the director, its results entered and
// confirmed by an arbiter, with a player and a team whose names are markup. What is checked: the
// status, the content type, the CSP (its one inline sheet allowed by hash, CSP Level 3 §2.3.1, and
// nothing else), HTML escaping (HTML Living Standard §13.1.2.6), that the places are the one
// ranking's (GET /api/standings), and the links to each round's print view.
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { journals } from '../../clocks/journaled-clock.fixture.ts';
import { JournalPorts } from '../../app/journal-ports.ts';
import { journalStandings } from '../../app/journal-standings.ts';
import { Director } from '../../app/director.ts';
import type { HostState } from '../../app/ports.ts';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { journalExports } from '../exports/journal-exports.ts';
import type { GameResult } from '../../../rules/vocabulary.ts';
import { buildApi, standingsPageCsp } from './api.ts';

afterAll(() => journals.forEach((j) => j.close()));

const TOKENS = [{ arbiter: 'Chief', token: 'standings-page-token-0123456789' }];
const NOW = 1_750_000_000_000;
const EVENT = 'ivanovo-2018';
const EVIL = `<script>x()</script> O'N & "C"`;
const EVIL_TEAM = 'Школа <b>1</b><img src=x>';
/** Round 1 as in journal-standings.test.ts (board 6: White never came, FIDE Laws 6.7.1), round 2 with a double forfeit on board 3. */
const RESULTS: Record<number, GameResult[]> = {
  1: ['1-0', '1/2-1/2', '0-1', '1/2-1/2', '1-0', '-+', '1/2-1/2', '0-1'],
  2: ['0-1', '1/2-1/2', '--', '1-0', '1/2-1/2', '1-0', '0-1', '1/2-1/2'],
};

describe('GET /events/:event/standings', async () => {
  const file = JSON.parse(readFileSync(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)), 'utf8'));
  file.events[0].players[0].name = EVIL;
  file.events[0].teams[0].name = EVIL_TEAM;
  const hall = parseTournament(file);
  const journal = new Journal(':memory:');
  journals.push(journal);
  const director = new Director(journal, hall);
  const ports = new JournalPorts({ journal, hall, nowUtcMs: () => NOW });
  const state: HostState = Object.assign(ports, { standings: (e: string, r?: number) => journalStandings(journal, hall, e, r) });
  const app = await buildApi({
    state,
    commands: ports,
    exports: journalExports(journal, hall, () => NOW),
    tokens: TOKENS,
    dashboard: false,
    nowUtcMs: () => NOW,
  });
  afterAll(() => app.close());
  const play = (round: number) => {
    for (const g of director.openRound(EVENT, round, NOW + round * 10_000_000)) {
      journal.reportResult(g.gameId, {
        result: RESULTS[round][g.board - 1],
        how: 'arbiter',
        source: 'arbiter',
        arbiter: 'Chief',
        utcMs: NOW + round * 10_000_000 + 1000,
      });
      journal.confirmResult(g.gameId, 'Chief', NOW + round * 10_000_000 + 2000);
    }
  };

  it('before any round is complete: 200 with a page that says so, and no print-view link (the print view would answer 409)', async () => {
    director.openRound(EVENT, 1, NOW);
    const res = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<p class="notice" id="notice">No round has every result confirmed yet');
    expect(res.body).not.toContain('report.html');
    expect(res.body).not.toContain('<table');
    // Asked for by number, a round with results missing is refused, naming them.
    const open = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings?round=1` });
    expect(open.statusCode).toBe(409);
    expect(open.json().message).toMatch(/^no standings after round 1: round 1 board 1/);
  });

  it("after two rounds: the tables of the one ranking, escaped names, links to each round's print view; CSP allows exactly its one inline sheet by SHA-256, no script", async () => {
    // The round opened in the test above gets its results; then round 2.
    for (const g of journal.gamesByRound(EVENT, 1)) {
      journal.reportResult(g.gameId, { result: RESULTS[1][g.board - 1], how: 'arbiter', source: 'arbiter', arbiter: 'Chief', utcMs: NOW + 1000 });
      journal.confirmResult(g.gameId, 'Chief', NOW + 2000);
    }
    play(2);
    const res = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;

    // CSP Level 3 hash source: the header names the SHA-256 of the page's one <style>, and nothing runs.
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect(styles).toHaveLength(1);
    const sha = createHash('sha256').update(styles[0]).digest('base64');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toBe(standingsPageCsp(sha));
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${sha}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('script-src');
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    // The rest of helmet's headers stay (docs/api.md "Security headers").
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    // HTML escaping: no tag from a name reaches the markup.
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>1');
    expect(html).toContain('&lt;script&gt;x()&lt;/script&gt; O&#39;N &amp; &quot;C&quot;');
    expect(html).toContain('Школа &lt;b&gt;1&lt;/b&gt;&lt;img src=x&gt;');

    // The places are the one ranking's: the same order and places as GET /api/standings.
    const api = (await app.inject({ method: 'GET', url: `/api/standings?event=${EVENT}` })).json();
    expect(api.round).toBe(2);
    const teamRows = [...html.matchAll(/<tr data-team="(\d+)" data-rank="(\d+)">/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(teamRows).toEqual(api.teams.map((t: { team: number; rank: number }) => [t.team, t.rank]));
    for (const b of api.boards as { board: number; players: { player: number; rank: number }[] }[]) {
      const table = new RegExp(`<table class="standings players" id="standings-board-${b.board}">([\\s\\S]*?)</table>`).exec(html)![1];
      expect([...table.matchAll(/<tr data-player="(\d+)" data-rank="(\d+)"/g)].map((m) => [Number(m[1]), Number(m[2])])).toEqual(
        b.players.map((p) => [p.player, p.rank]),
      );
    }

    // Each table scrolls inside a named, focusable region (WCAG 2.1.1, 1.4.10).
    const tables = html.match(/<table/g)!.length;
    expect(html.match(/<div class="scroll" role="region" tabindex="0" aria-label="[^"]+"><table/g)).toHaveLength(tables);
    // Each complete round: standings after it, and its print view (GET /events/:event/report.html?round=N).
    expect([...html.matchAll(/<a class="print" data-round="(\d)" href="report.html\?round=(\d)">/g)].map((m) => [m[1], m[2]])).toEqual([
      ['1', '1'],
      ['2', '2'],
    ]);
    expect(html).toContain('<a href="standings?round=2" aria-current="page">2</a>');
    for (const r of [1, 2]) expect((await app.inject({ method: 'GET', url: `/events/${EVENT}/report.html?round=${r}` })).statusCode).toBe(200);
  });

  it('?round=1: the standings after round 1 (the same places as GET /api/standings?round=1)', async () => {
    const res = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings?round=1` });
    expect(res.statusCode).toBe(200);
    const api = (await app.inject({ method: 'GET', url: `/api/standings?event=${EVENT}&round=1` })).json();
    expect([...res.body.matchAll(/<tr data-team="(\d+)" data-rank="(\d+)">/g)].map((m) => [Number(m[1]), Number(m[2])])).toEqual(
      api.teams.map((t: { team: number; rank: number }) => [t.team, t.rank]),
    );
    expect(res.body).toContain('<p class="meta" id="after-round" data-round="1">After round 1 of');
  });

  it('bad requests change nothing and say what: 404 unknown event, 400 round below 1 naming `round`, 409 beyond the rounds', async () => {
    expect((await app.inject({ method: 'GET', url: '/events/no-such-event/standings' })).statusCode).toBe(404);
    const zero = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings?round=0` });
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toMatchObject({ field: 'round' });
    const beyond = await app.inject({ method: 'GET', url: `/events/${EVENT}/standings?round=99` });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().message).toMatch(/has \d+ rounds, not 99/);
  });
});

describe("GET /events/:event/standings of a knockout (Slovenian women's final 2007, docs/regulations.md: the matches decide)", async () => {
  const hall = parseTournament(JSON.parse(readFileSync(fileURLToPath(new URL('../../domain/fixtures/slovenian-final-2007.json', import.meta.url)), 'utf8')));
  const journal = new Journal(':memory:');
  journals.push(journal);
  const ports = new JournalPorts({ journal, hall, nowUtcMs: () => NOW });
  const app = await buildApi({
    state: ports,
    commands: ports,
    exports: journalExports(journal, hall, () => NOW),
    tokens: TOKENS,
    dashboard: false,
    nowUtcMs: () => NOW,
  });
  afterAll(() => app.close());

  it('each mini-match with its games and who advanced, no crosstable and no tie-break table; the same CSP', async () => {
    const opened = new Director(journal, hall).openRound('slo-w-2007', 1, NOW, { 1: 'clk-1', 2: 'clk-2' });
    // FIDE Laws 6.7.1: Black did not come to game 1 of board 2.
    journal.reportResult(opened[1].gameId, { result: '+-', how: 'forfeit-lateness', source: 'arbiter', arbiter: 'Chief', utcMs: NOW + 1000 });
    journal.confirmResult(opened[1].gameId, 'Chief', NOW + 2000);
    const res = await app.inject({ method: 'GET', url: '/events/slo-w-2007/standings' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<tr class="match" data-board="2"><th colspan="4">Board 2: match not decided yet</th></tr>');
    expect(res.body).toContain('+− (Black forfeits)');
    expect(res.body).not.toContain('class="crosstable"');
    expect(res.body).not.toContain('class="standings');
    const sha = createHash('sha256')
      .update(/<style>([\s\S]*?)<\/style>/.exec(res.body)![1])
      .digest('base64');
    expect(res.headers['content-security-policy']).toBe(standingsPageCsp(sha));
  });
});

// GET /api/boards/:id/chart.svg and GET /events/:event/report.html (docs/api.md "Pictures and
// print views") through Fastify's inject, over JournalPorts on real SQLite journals: a game
// played on the real statechart and journaled as the host journals it, and the Ivanovo 2018
// tournament opened by the director with results confirmed by an arbiter.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { presetTimeControl } from '../../../protocol/time-control.ts';
import { journals, playJournaled, type Step } from '../../clocks/journaled-clock.fixture.ts';
import { boardIdOf, JournalPorts } from '../../app/journal-ports.ts';
import { Director } from '../../app/director.ts';
import { JournalBoards } from '../../app/journal-boards.fixture.ts';
import { recordFromJournalRow } from '../../app/journal-records.ts';
import { Journal } from '../../store/journal.ts';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import { journalExports } from '../exports/journal-exports.ts';
import { eventReportHtml } from '../exports/report-html.ts';
import { timeChartOf, timeChartSvg } from '../../../rules/time-chart.ts';
import { buildApi, etagMatches } from './api.ts';

afterAll(() => journals.forEach((j) => j.close()));

const TOKENS = [{ arbiter: 'Chief', token: 'chart-test-token-0123456789' }];
const NOW = 1_750_000_000_000;

function moves(n: number): Step[] {
  return Array.from({ length: 2 * n }, () => [{ kind: 'wait', ms: 45_000 } as Step, { kind: 'press', wrong: false } as Step]).flat();
}

describe('GET /api/boards/:id/chart.svg', async () => {
  const played = playJournaled(
    presetTimeControl('classical'),
    [{ kind: 'start' }, ...moves(6), { kind: 'pause' }, { kind: 'penalty', side: 'white' }, { kind: 'resume' }, ...moves(2)],
    5_000,
  );
  const ports = new JournalPorts({ journal: played.journal, nowUtcMs: () => NOW });
  const app = await buildApi({ state: ports, commands: ports, tokens: TOKENS, dashboard: false, nowUtcMs: () => NOW });
  afterAll(() => app.close());
  const id = boardIdOf(played.game.event, played.game.board);
  const url = `/api/boards/${id}/chart.svg`;

  it('public (no token), image/svg+xml, the chart of the journal: the same SVG the rule book draws from the game events', async () => {
    const res = await app.inject({ method: 'GET', url: `${url}?size=full` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const events = played.journal.eventsByGame(played.game.gameId);
    expect(res.body).toBe(
      timeChartSvg(timeChartOf(played.game.timeControlValue, events), { size: 'full', white: 'W', black: 'B', caption: `Round 1, board ${played.game.board}` }),
    );
    expect(res.body).toContain('data-kind="penalty"');
    // The dashboard's CSP stays on (helmet): an image needs nothing it forbids.
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // No size: the full chart.
    expect((await app.inject({ method: 'GET', url })).body).toBe(res.body);
  });

  it("RFC 9110 §13.1.2 / §15.4.5: the ETag is the game's last journal event; If-None-Match answers 304 until a press changes it", async () => {
    const first = await app.inject({ method: 'GET', url: `${url}?size=small` });
    const etag = first.headers.etag as string;
    const lastId = played.journal.eventsByGame(played.game.gameId).at(-1)!.id;
    expect(etag).toMatch(new RegExp(`^"chart-${played.game.gameId}-${lastId}-small-[0-9a-f]{12}"$`));
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.body).toContain('data-size="small"');
    const again = await app.inject({ method: 'GET', url: `${url}?size=small`, headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another size is another picture.
    const full = await app.inject({ method: 'GET', url: `${url}?size=full`, headers: { 'if-none-match': etag } });
    expect(full.statusCode).toBe(200);
    // The next press is journaled: a new version, with the new point.
    played.boot.clock.advanceTo(played.boot.now + 30_000);
    played.boot.send({ type: 'PRESS', side: played.boot.state().turn, at: played.boot.now });
    const after = await app.inject({ method: 'GET', url: `${url}?size=small`, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const press = played.journal.eventsByGame(played.game.gameId).at(-1)!;
    expect(press.type).toBe('moved');
    expect(after.body).toContain(`${press.whiteMs}"`);
  });

  it('a wrong size is a 400 naming the field; an unknown board a 404', async () => {
    const bad = await app.inject({ method: 'GET', url: `${url}?size=huge` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'size' });
    const none = await app.inject({ method: 'GET', url: '/api/boards/no-such-board-9/chart.svg' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('no board "no-such-board-9"');
  });

  it("a journal in memory with the same events (the benchmarks' and browser tests' JournalBoards) serves the same chart, and the board's next game starts an empty one", async () => {
    const memory = new JournalBoards({ nowUtcMs: () => NOW });
    memory.addBoard({
      id,
      event: played.game.event,
      round: 1,
      board: played.game.board,
      clockId: 'A',
      white: 'W',
      black: 'B',
      control: played.game.timeControlValue,
    });
    const memApp = await buildApi({ state: memory, commands: memory, tokens: TOKENS, dashboard: false, nowUtcMs: () => NOW });
    try {
      for (const row of played.journal.eventsByGame(played.game.gameId)) memory.ingest(recordFromJournalRow(row)!);
      const fromMemory = await memApp.inject({ method: 'GET', url: `${url}?size=full` });
      expect(fromMemory.statusCode).toBe(200);
      expect(fromMemory.body).toBe((await app.inject({ method: 'GET', url: `${url}?size=full` })).body);
      // The game ends (FIDE Laws 5.1: a result ends it), and the board's next game is set up.
      expect((await memory.execute({ type: 'result', boardId: id, result: '1-0' }, { arbiter: 'Chief' })).ok).toBe(true);
      memory.addBoard({
        event: played.game.event,
        round: 1,
        board: played.game.board,
        clockId: 'A',
        white: 'Next, White',
        black: 'Next, Black',
        timeControl: 'rapid',
      });
      const next = await memApp.inject({ method: 'GET', url: `${url}?size=small` });
      expect(next.body).not.toContain('<polyline');
      expect(next.body).toContain('Next, White');
      expect(next.headers.etag).not.toBe(fromMemory.headers.etag);
    } finally {
      await memApp.close();
      memory.close();
    }
  });

  it('?game=N: an earlier game on the same board (as in a knockout mini-match: game 2 journaled after game 1) has its own chart, the current game without it; an unknown game is a 404 naming `game`', async () => {
    const first = playJournaled(presetTimeControl('classical'), [{ kind: 'start' }, ...moves(3)], 9_000);
    const second = first.journal.createGame({
      event: first.game.event,
      round: 1,
      board: first.game.board,
      gameNo: 2,
      kind: 'rapid',
      white: 'B',
      black: 'W',
      timeControl: presetTimeControl('rapid'),
      clockId: 'A',
      createdUtcMs: 10,
    });
    const mini = new JournalPorts({ journal: first.journal, nowUtcMs: () => NOW });
    const miniApp = await buildApi({ state: mini, commands: mini, tokens: TOKENS, dashboard: false, nowUtcMs: () => NOW });
    try {
      const boardUrl = `/api/boards/${boardIdOf(first.game.event, first.game.board)}/chart.svg`;
      const current = await miniApp.inject({ method: 'GET', url: boardUrl });
      expect(current.body).toContain('no moves yet');
      expect(current.headers.etag).toContain(`"chart-${second.gameId}-0-full-`);
      const game1 = await miniApp.inject({ method: 'GET', url: `${boardUrl}?game=1` });
      expect(game1.statusCode).toBe(200);
      expect(game1.body).toBe(
        timeChartSvg(timeChartOf(first.game.timeControlValue, first.journal.eventsByGame(first.game.gameId)), {
          size: 'full',
          white: 'W',
          black: 'B',
          caption: `Round 1, board ${first.game.board}, game 1`,
        }),
      );
      const none = await miniApp.inject({ method: 'GET', url: `${boardUrl}?game=3` });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ field: 'game' });
    } finally {
      await miniApp.close();
    }
  });

  it('weak comparison of If-None-Match (RFC 9110 §13.1.2): a list, W/, *', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"bb"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('GET /events/:event/report.html', async () => {
  const hall = loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
  const journal = new Journal(':memory:');
  journals.push(journal);
  const EVENT = 'ivanovo-2018';
  const games = new Director(journal, hall).openRound(EVENT, 1, NOW);
  const RESULTS = ['1-0', '1/2-1/2', '0-1', '1/2-1/2', '1-0', '-+', '1/2-1/2', '0-1'] as const;
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

  it('409 while the round has unconfirmed results (the report needs confirmed results); 404 for an unknown event', async () => {
    const early = await app.inject({ method: 'GET', url: `/events/${EVENT}/report.html` });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('no round has every result confirmed yet');
    expect((await app.inject({ method: 'GET', url: '/events/no-such-event/report.html' })).statusCode).toBe(404);
  });

  it('the print report of `chessclock export --report`, public, served with a CSP that lets its inline style sheet in and nothing else', async () => {
    for (const g of games) {
      journal.reportResult(g.gameId, { result: RESULTS[g.board - 1], how: 'arbiter', source: 'arbiter', arbiter: 'Chief', utcMs: NOW + 1000 });
      journal.confirmResult(g.gameId, 'Chief', NOW + 2000);
    }
    const res = await app.inject({ method: 'GET', url: `/events/${EVENT}/report.html?round=1` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(eventReportHtml(journal, hall, EVENT, 1));
    expect(res.body).toContain('data-round="1"');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).not.toContain('script-src');
    // Without a round: after the last round with every result confirmed.
    expect((await app.inject({ method: 'GET', url: `/events/${EVENT}/report.html` })).body).toBe(res.body);
    const bad = await app.inject({ method: 'GET', url: `/events/${EVENT}/report.html?round=0` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'round' });
    // The dashboard's own CSP is unchanged for its other routes.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']).toContain("style-src 'self'");
  });
});

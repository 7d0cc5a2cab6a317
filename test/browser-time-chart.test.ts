// The time chart in a real Chromium (Debian package `chromium`, driven by playwright-core),
// served by the real API over JournalPorts on a SQLite journal in a temp file: a classical game
// (90/40 + 15 min, 30 s per move) played on the real statechart past move 40, with a penalty
// (FIDE Laws 7.5.5), an arbiter's adjustment and a take-back (7.5.1), journaled as the host
// journals it (host/clocks/journaled-clock.fixture.ts). The charts are loaded as <img> in a page
// under the dashboard's own CSP (helmet), as a board card or /public would load them, and opened
// directly; no console error is allowed. Screenshots go to artifacts/ (docs/dashboard.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { presetTimeControl } from '../protocol/time-control.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { boardIdOf, JournalPorts } from '../host/app/journal-ports.ts';
import { Director } from '../host/app/director.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import { fileURLToPath } from 'node:url';
import { playJournaled, type Step } from '../host/clocks/journaled-clock.fixture.ts';
import { Journal } from '../host/store/journal.ts';
import { journalSql } from '../host/store/journal-sql.fixture.ts';
import { ARTIFACTS, launchChromium, SKIP_BROWSER, skipMessage } from './browser-harness.ts';

skipMessage('the time chart browser test');

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);

function moves(n: number, thinkMs: number): Step[] {
  return Array.from({ length: 2 * n }, () => [{ kind: 'wait', ms: thinkMs } as Step, { kind: 'press', wrong: false } as Step]).flat();
}

describe.skipIf(SKIP_BROWSER)('time chart in Chromium (Debian package `chromium`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessclock-chart-'));
  let browser: Browser;
  let app: FastifyInstance;
  let url: string;
  let boardId: string;
  let journal: Journal;
  const errors: string[] = [];

  beforeAll(async () => {
    const played = playJournaled(
      presetTimeControl('classical'),
      [
        { kind: 'start' },
        ...moves(12, 150_000),
        { kind: 'pause' },
        { kind: 'penalty', side: 'black' },
        { kind: 'adjust', side: 'black', ms: -60_000 },
        { kind: 'resume' },
        ...moves(8, 60_000),
        { kind: 'pause' },
        { kind: 'takeback' },
        { kind: 'resume' },
        { kind: 'press', wrong: false },
        ...moves(22, 75_000),
      ],
      3_000,
    );
    // The journal to a file, as the host keeps it: the API reads it through JournalPorts.
    const file = join(dir, 'hall.sqlite');
    await journalSql(played.journal).backup(file);
    journal = new Journal(file);
    const ports = new JournalPorts({ journal, nowUtcMs: () => NOW });
    app = await buildApi({ state: ports, commands: ports, tokens: [{ arbiter: 'Chief', token: 'chart-browser-token-0123456789' }], nowUtcMs: () => NOW });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    boardId = boardIdOf(played.game.event, played.game.board);
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    journal?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(path: string, viewport: { width: number; height: number }): Promise<Page> {
    const p = await browser.newPage({ viewport });
    p.on('pageerror', (err) => errors.push(err.message));
    // A console error fails the test, save the browser's own /favicon.ico request for a
    // top-level JSON or SVG document (the dashboard pages carry a data: icon): its 404 is
    // checked by URL below instead, so a refused chart still fails.
    p.on('console', (m) => m.type() === 'error' && !(m.location().url ?? '').endsWith('/favicon.ico') && errors.push(m.text()));
    p.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`));
    await p.goto(url + path);
    return p;
  }

  it("both sizes load as <img> under the dashboard CSP (img-src 'self'), at their declared sizes, with their text alternative; no console error", {
    timeout: 60_000,
  }, async () => {
    // A page of the host's own origin with the dashboard's CSP headers (helmet): the health read.
    const page = await openPage('/api/health', { width: 900, height: 700 });
    const loaded = await page.evaluate(async (id) => {
      document.documentElement.innerHTML = '<body></body>';
      const load = (size: string) =>
        new Promise<{ size: string; width: number; height: number }>((resolve, reject) => {
          const img = document.createElement('img');
          img.alt = `time chart (${size})`;
          img.addEventListener('load', () => resolve({ size, width: img.naturalWidth, height: img.naturalHeight }));
          img.addEventListener('error', () => reject(new Error(`the ${size} chart did not load as an image`)));
          img.src = `/api/boards/${id}/chart.svg?size=${size}`;
          document.body.append(img, document.createElement('br'));
        });
      return Promise.all([load('small'), load('full')]);
    }, boardId);
    // The sizes the SVGs declare (the full one grows by a legend line per marker kind).
    const declared = async (size: string) => {
      const svg = (await app.inject({ method: 'GET', url: `/api/boards/${boardId}/chart.svg?size=${size}` })).body;
      const root = /<svg[^>]*>/.exec(svg)![0];
      return { size, width: Number(/ width="(\d+)"/.exec(root)![1]), height: Number(/ height="(\d+)"/.exec(root)![1]) };
    };
    expect(loaded).toEqual([await declared('small'), await declared('full')]);
    expect(loaded[0]).toEqual({ size: 'small', width: 160, height: 40 });
    expect(loaded[1].width).toBe(720);
    await page.screenshot({ path: join(ARTIFACTS, 'time-chart-img.png') });
    await page.close();
    expect(errors).toEqual([]);
  });

  it('opened on its own, the full chart shows both lines, the move-40 control (FIDE Laws 6.10.2) and every marker with its letter and words, all text inside the picture', {
    timeout: 60_000,
  }, async () => {
    const page = await openPage(`/api/boards/${boardId}/chart.svg?size=full`, { width: 760, height: 460 });
    const seen = await page.evaluate(() => ({
      title: document.querySelector('title')?.textContent,
      lines: Array.from(document.querySelectorAll('polyline')).map((l) => [l.getAttribute('data-side'), l.getAttribute('stroke-dasharray')]),
      kinds: Array.from(document.querySelectorAll('g[data-kind]')).map((g) => `${g.getAttribute('data-kind')}:${g.querySelector('text')?.textContent}`),
      control: document.querySelector('[data-period-end] text')?.textContent,
      // Laid out by the browser: every marker sits inside the picture.
      // As drawn (transforms included: the rotated axis title), in the picture's own pixels.
      outside: Array.from(document.querySelectorAll('g[data-kind] circle, text'))
        .filter((c) => {
          const b = c.getBoundingClientRect();
          const root = document.documentElement;
          return b.left < 0 || b.top < 0 || b.right > Number(root.getAttribute('width')) || b.bottom > Number(root.getAttribute('height'));
        })
        .map((c) => c.textContent),
    }));
    expect(seen.title).toBe('Time chart: W (White) – B (Black)');
    expect(seen.lines).toEqual([
      ['white', null],
      ['black', '6 4'],
    ]);
    expect(new Set(seen.kinds)).toEqual(new Set(['penalty:P', 'adjustment:A', 'takeback:T', 'period-bonus:B']));
    expect(seen.control).toBe('time control: move 40');
    expect(seen.outside).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'time-chart-full.png') });
    await page.close();
    expect(errors).toEqual([]);
  });

  it('the print view served by the host (GET /events/:event/report.html) is styled by its inline sheet under its own CSP, runs and fetches nothing, and prints on A4', {
    timeout: 60_000,
  }, async () => {
    const hall = loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    const reportJournal = new Journal(join(dir, 'report.sqlite'));
    const EVENT = 'ivanovo-2018';
    const RESULTS = ['1-0', '1/2-1/2', '0-1', '1/2-1/2', '1-0', '-+', '1/2-1/2', '0-1'] as const;
    for (const g of new Director(reportJournal, hall).openRound(EVENT, 1, NOW)) {
      reportJournal.reportResult(g.gameId, { result: RESULTS[g.board - 1], how: 'arbiter', source: 'arbiter', arbiter: 'Chief', utcMs: NOW + 1000 });
      reportJournal.confirmResult(g.gameId, 'Chief', NOW + 2000);
    }
    const ports = new JournalPorts({ journal: reportJournal, hall, nowUtcMs: () => NOW });
    const reportApp = await buildApi({
      state: ports,
      commands: ports,
      exports: journalExports(reportJournal, hall, () => NOW),
      tokens: [{ arbiter: 'Chief', token: 'chart-browser-token-0123456789' }],
      dashboard: false,
      nowUtcMs: () => NOW,
    });
    const reportUrl = await reportApp.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => m.type() === 'error' && !(m.location().url ?? '').endsWith('/favicon.ico') && errors.push(m.text()));
    try {
      const res = await page.goto(`${reportUrl}/events/${EVENT}/report.html?round=1`);
      expect(res?.status()).toBe(200);
      // The inline sheet applied (a CSP refusing it would leave the browser's default borders and log an error).
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('th')!).borderTopStyle)).toBe('solid');
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
      expect(await page.locator('#round-1 tr[data-board]').count()).toBe(8);
      expect(requests.filter((u) => !u.endsWith('/favicon.ico'))).toEqual([`${reportUrl}/events/${EVENT}/report.html?round=1`]);
      await page.screenshot({ path: join(ARTIFACTS, 'report-round-1.png'), fullPage: true });
      // The printer's view: the same page as a PDF, on A4 (CSS Paged Media `@page { size: A4 }`).
      const pdf = await page.pdf({ preferCSSPageSize: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // A4 is 210 × 297 mm = 595.3 × 841.9 pt; Chromium rounds the width to its pixel grid.
      const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'));
      expect(box).not.toBeNull();
      expect(Math.abs(Number(box![1]) - 595.3)).toBeLessThan(1);
      expect(Math.abs(Number(box![2]) - 841.9)).toBeLessThan(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await reportApp.close();
      reportJournal.close();
    }
  });
});

// The dashboard's rule book (docs/architecture.md "The rule book"; docs/dashboard.md): the server
// bundles the page (src/main.ts, with its match panels, at /app.js) and the captains' page
// (src/captain.ts, at /captain.js) at start, each carrying the rule book's own modules from rules/;
// what the pages compute with them is what the rule book computes (the same modules the firmware
// and the host run), and the pages' sources (src/) keep no copy of the display rules, the result
// vocabulary or the command rules (docs/architecture.md, "The rule book", and rule 5: one
// machine, many bodies — the browser is one more body). No plain script is served any more.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseSideControl, timeControl } from '../../../../protocol/time-control.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../api.ts';
import { JournalBoards } from '../../../app/journal-boards.fixture.ts';
import { buildCaptainPage, buildPage, CAPTAIN_PATH, captainBundle, PAGE_PATH, pageBundle, RuleBookBuildError } from './rule-book-bundle.ts';
import * as display from '../../../../rules/display-format.ts';
import * as vocabulary from '../../../../rules/vocabulary.ts';
import * as commandRules from '../../../../rules/command-rules.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The pages' own code: every module under src/ (tests aside), as one text. */
const SRC = join(HERE, 'src');
const PAGE_SOURCES = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const PAGE_TS = PAGE_SOURCES.map((f) => readFileSync(join(SRC, f), 'utf8')).join('\n');
const TOKENS = [{ arbiter: 'Anna', token: 'tok-anna-0123456789abcdef' }];

/** A host with no boards (the pages are built whatever it holds), closed after the file's tests. */
const opened: JournalBoards[] = [];
afterAll(() => opened.forEach((p) => p.close()));
function bare(): { state: JournalBoards; commands: JournalBoards } {
  const ports = new JournalBoards();
  opened.push(ports);
  return { state: ports, commands: ports };
}

/**
 * The rule book inside a served bundle, run as the browser runs it: esbuild heads each bundled
 * module with its path (`// rules/display-format.ts`); the sections of rules/ and protocol/ (pure,
 * no DOM) are taken from the served text as they are and evaluated, and `names` read from them
 * (undefined: the bundle does not carry that name — esbuild keeps only what the page reaches).
 */
function ruleBookIn(bundle: string, names: readonly string[]): Record<string, unknown> {
  const parts = bundle.split(/^\/\/ (\S+\.ts)$/m); // [before, path, code, path, code, …]
  const code = [];
  for (let i = 1; i < parts.length; i += 2) if (/^(rules|protocol)\//.test(parts[i])) code.push(parts[i + 1]);
  const pick = names.map((n) => `${JSON.stringify(n)}: typeof ${n} === 'undefined' ? undefined : ${n}`).join(', ');
  return new Function(`${code.join('\n')}\nreturn { ${pick} };`)() as Record<string, unknown>;
}

/** Remaining times around every unit boundary of the display, and a sweep of a long game. */
function sampleMs(): number[] {
  const out = new Set<number>([-5000, -1, 0, 1, 99, 100, 101]);
  for (const edge of [19_900, 20_000, 59_000, 60_000, 3_599_000, 3_600_000, 36_000_000 - 1000, 36_000_000]) {
    for (let d = -120; d <= 120; d++) out.add(edge + d);
  }
  for (let ms = 0; ms <= 25_000; ms += 37) out.add(ms); // tenths and seconds
  for (let ms = 0; ms <= 11 * 3_600_000; ms += 997) out.add(ms); // up to 11 h: h:mm:ss and `10h00`
  return [...out];
}

const VOCABULARY = ['GAME_RESULTS', 'FORFEIT_RESULTS', 'RESULT_MEANING', 'SIDES', 'SIDE_NAME', 'BOARD_STATUSES', 'CLOCK_COMMANDS'] as const;

describe('the served bundles (/app.js, /captain.js) carry the rule book itself', () => {
  let app: FastifyInstance;
  const served: Record<string, Awaited<ReturnType<FastifyInstance['inject']>>> = {};
  let page: Record<string, unknown>;
  let captain: Record<string, unknown>;

  beforeAll(async () => {
    app = await buildApi({ ...bare(), tokens: TOKENS });
    for (const path of [PAGE_PATH, CAPTAIN_PATH]) served[path] = await app.inject({ method: 'GET', url: path });
    const names = ['formatClockTime', 'msUntilDisplayChange', 'boardCommandRefusal', 'basisRemainingMs', ...VOCABULARY];
    page = ruleBookIn(served[PAGE_PATH].body, names);
    captain = ruleBookIn(served[CAPTAIN_PATH].body, names);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('each is served at a stable path as JavaScript, never cached stale, one self-contained ES module', () => {
    expect([PAGE_PATH, CAPTAIN_PATH]).toEqual(['/app.js', '/captain.js']);
    for (const [path, res] of Object.entries(served)) {
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control'], path).toBe('no-cache');
      // It imports nothing, so the page needs no other file of rules/ (nor a /rule-book.js).
      expect(res.body, path).not.toMatch(/^\s*import\s/m);
      expect(res.body, path).not.toMatch(/\brequire\(/);
    }
  });

  it('the plain scripts and the separate rule book are gone: nothing but the bundles is served as script', async () => {
    for (const url of ['/rule-book.js', '/match-panels.js', '/page-kit.js']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    expect(readdirSync(HERE).filter((f) => f.endsWith('.js'))).toEqual([]);
  });

  it("the page's display formats every time as the clock's does (rules/display-format.ts; FIDE equipment standard: rounded up)", () => {
    const format = page.formatClockTime as (ms: number) => string;
    const untilChange = page.msUntilDisplayChange as (ms: number) => number;
    const differences = sampleMs()
      .filter((ms) => format(ms) !== display.formatClockTime(ms) || untilChange(ms) !== display.msUntilDisplayChange(ms))
      .map((ms) => `${ms}: bundle ${format(ms)}, rule book ${display.formatClockTime(ms)}`);
    expect(differences).toEqual([]);
    // The cases a copy got wrong or could: 0.4 s left is not 0.0; from 10 h the LCD's `10h00`.
    expect(format(400)).toBe('0.4');
    expect(format(399)).toBe('0.4');
    expect(format(36_000_000)).toBe('10h00');
  });

  it('both carry the vocabulary itself: results with the forfeit codes, sides, statuses, commands', () => {
    // The page writes results, sides and statuses; the captains' page results (RESULT_MEANING's labels).
    for (const name of ['RESULT_MEANING', 'SIDES', 'SIDE_NAME']) expect(page[name], `/app.js ${name}`).toBeDefined();
    expect(captain.RESULT_MEANING, '/captain.js RESULT_MEANING').toBeDefined();
    const differences: string[] = [];
    for (const [path, bundle] of [
      [PAGE_PATH, page],
      [CAPTAIN_PATH, captain],
    ] as const) {
      for (const name of VOCABULARY) {
        // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks every name the vocabulary exports
        if (bundle[name] !== undefined && JSON.stringify(bundle[name]) !== JSON.stringify(vocabulary[name])) differences.push(`${path} ${name}`);
      }
    }
    expect(differences).toEqual([]);
    expect((captain.RESULT_MEANING as typeof vocabulary.RESULT_MEANING)['--'].label).toBe('−− (both forfeit)');
  });

  it('the page refuses each command in each status with the reason the hosts give (rules/command-rules.ts)', () => {
    const refusal = page.boardCommandRefusal as typeof commandRules.boardCommandRefusal;
    const differences: string[] = [];
    for (const status of vocabulary.BOARD_STATUSES) {
      for (const command of vocabulary.ARBITER_COMMANDS) {
        for (const movesCompleted of [0, 3]) {
          const board = {
            event: 'Slovenian Final',
            round: 1,
            board: 2,
            result: status === 'finished' ? '1-0' : null,
            live: { status, moves: { white: movesCompleted, black: 0 } },
          };
          const inPage = refusal(command, board, { movesCompleted });
          const host = commandRules.boardCommandRefusal(command, board, { movesCompleted });
          if (inPage !== host) differences.push(`${command} when ${status}: page ${inPage}, rule book ${host}`);
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('the page’s basisRemainingMs runs a simple delay and a sandclock as the clock does', () => {
    const basis = page.basisRemainingMs as (b: unknown, side: string, elapsedMs: number) => number;
    const snapshot = (creditedMs: number) => ({
      creditedMs,
      chargedMs: 0,
      moves: 0,
      period: 0,
      creditedPeriod: 0,
      present: true,
      forfeited: false,
      illegalMoves: 0,
      illegalOpen: null,
      arbiterMs: 0,
    });
    const base = {
      status: 'paused',
      turn: 'white',
      white: snapshot(60_000),
      black: snapshot(60_000),
      turnActiveMs: 0,
      turnPeriod: 0,
      turnExtraDelayMs: 0,
      flag: null,
      started: true,
      sinceStartMs: 0,
      extraIncrementMs: 0,
      extraDelayMs: 0,
      result: null,
      control: null,
      undo: [],
    };
    const delayed = parseSideControl([{ seconds: 60, delay: 5, delayMode: 'simple' }]);
    const delay = timeControl(delayed, delayed);
    // FIDE Laws 6.2 with a simple (US) delay of 5 s: the first 5 s of the turn cost nothing.
    expect(basis({ control: delay, snapshot: base, running: true }, 'white', 3_000)).toBe(60_000);
    expect(basis({ control: delay, snapshot: base, running: true }, 'white', 8_000)).toBe(57_000);
    expect(basis({ control: delay, snapshot: base, running: false }, 'white', 8_000)).toBe(60_000);
    const sand = timeControl(parseSideControl('*60'), parseSideControl('*60'));
    expect(basis({ control: sand, snapshot: base, running: true }, 'black', 10_000)).toBe(70_000);
  });
});

describe('the pages are typed modules bundled from src/, with the rule book they import from rules/', () => {
  it('/app.js carries the rule book’s own display rule (bundled from rules/display-format.ts, not copied in src/)', async () => {
    expect(await pageBundle()).toMatch(/^\/\/ rules\/display-format\.ts\nvar SECOND = 1e3;$/m);
    expect(await pageBundle()).toMatch(/function formatClockTime\(/);
  });

  it('the match panels are part of the page: /app.js carries src/match-panels.ts, /captain.js src/captain.ts (and not the page)', async () => {
    const [pageJs, captainJs] = [await pageBundle(), await captainBundle()];
    expect(pageJs).toMatch(/^\/\/ host\/adapters\/http\/dashboard\/src\/match-panels\.ts$/m);
    expect(captainJs).toMatch(/^\/\/ host\/adapters\/http\/dashboard\/src\/captain\.ts$/m);
    expect(captainJs).not.toMatch(/^\/\/ host\/adapters\/http\/dashboard\/src\/main\.ts$/m);
  });

  it('import the rule book from rules/ and the host types from host/app/ (types only: nothing of the host runs in a page)', () => {
    const fromRules = [...PAGE_TS.matchAll(/from '((?:\.\.\/)+rules\/[^']+)'/g)].map((m) => m[1]);
    expect(fromRules.length).toBeGreaterThan(3);
    const fromHost = [...PAGE_TS.matchAll(/^import (type )?\{[^}]*\} from '((?:\.\.\/)+app\/[^']+)'/gm)];
    // ports.ts (BoardView, LotView …) and captains.ts (TeamMatchView, CaptainMatchView): the API's own shapes.
    const modules = new Set(fromHost.map((m) => m[2].replace(/^(\.\.\/)+/, '')));
    expect(modules.has('app/ports.ts') && modules.has('app/captains.ts'), [...modules].join(', ')).toBe(true);
    for (const m of fromHost) expect(m[1], `${m[2]} imported for its types only`).toBe('type ');
  });
});

describe('the page keeps no copy of the rule book', () => {
  const APP_JS = PAGE_TS;
  // A copy shows itself by its working parts: the display's unit arithmetic, a result token,
  // a list of sides or statuses written out.
  it.each<[string, RegExp]>([
    ['its own formatClockTime', /function\s+formatClockTime\b|formatClockTime\s*=/],
    ['the display rounding (ceil to tenths or seconds)', /Math\.ceil\(/],
    ['the display layout (two-digit padding)', /padStart\(2/],
    ['a result token', /'1-0'|'0-1'|'1\/2-1\/2'|'\+-'|'-\+'|'--'/],
    ['the list of sides', /\[\s*'white'\s*,\s*'black'\s*\]/],
    ['a side-name table', /white:\s*'White'/],
    ['a status rule written out', /status\s*===\s*'(ready|paused|flagged|forfeited|finished)'\s*\|\|/],
  ])('no %s', (_what, copy) => {
    expect(APP_JS).not.toMatch(copy);
  });

  it('the pages load their bundle as a module, and nothing else as script', () => {
    for (const [page, script] of [
      ['index.html', 'app'],
      ['public.html', 'app'],
      ['captain.html', 'captain'],
    ]) {
      const html = readFileSync(join(HERE, page), 'utf8');
      expect(html, page).toMatch(new RegExp(`<script src="${script}\\.js" type="module"></script>`));
      expect(html.match(/<script\b/g), page).toHaveLength(1);
    }
  });

  it('computes a running clock only with the rule book: basisRemainingMs, and no time arithmetic of its own', () => {
    // The rule book's running time (delays, sandclock) over the live state's clock basis.
    expect(APP_JS).toMatch(/basisRemainingMs\(live\.clock, side, elapsed\)/);
    // A copy would subtract the time since the last event from a reported time.
    expect(APP_JS).not.toMatch(/(whiteMs|blackMs|atEvent)\s*-\s*(Math\.max\(0,\s*)?\(?\s*(nowUtcMs|hostNowMs\(\))/);
  });
});

describe('building the pages', () => {
  it('is done once per process: every server start shares the one build', () => {
    expect(pageBundle()).toBe(pageBundle());
    expect(captainBundle()).toBe(captainBundle());
  });

  it('a page that does not build fails the server start, naming the file, line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'main.ts');
    writeFileSync(bad, "import { formatClockTime } from './nowhere.ts';\nconsole.log(formatClockTime(1));\n");
    const err = await buildPage(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleBookBuildError);
    expect((err as Error).message).toMatch(/^the dashboard's page \(.*main\.ts\) did not build:\n {2}.*main\.ts:1:33: Could not resolve "\.\/nowhere\.ts"$/);
    await expect(buildApi({ ...bare(), tokens: TOKENS, page: () => buildPage(bad) })).rejects.toThrow(/main\.ts:1:33/);
  });

  it("a captains' page that does not build fails the server start, naming the file, line and column", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'captain-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'captain.ts');
    writeFileSync(bad, "import { RESULT_MEANING } from '../../../../../rules/vocabulary.ts';\nconst broken = ;\n");
    const err = await buildCaptainPage(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleBookBuildError);
    expect((err as Error).message).toMatch(/^the captains' page \(.*captain\.ts\) did not build:\n {2}.*captain\.ts:2:16: Unexpected ";"$/);
    // A module moved away names the import that no longer resolves.
    const moved = join(dir, 'moved.ts');
    writeFileSync(moved, "import { points } from './nowhere.ts';\nconsole.log(points(1));\n");
    await expect(buildCaptainPage(moved)).rejects.toThrow(/moved\.ts:1:\d+: Could not resolve "\.\/nowhere\.ts"/);
    await expect(buildApi({ ...bare(), tokens: TOKENS, captainPage: () => buildCaptainPage(bad) })).rejects.toThrow(/captain\.ts:2:16/);
  });

  it('without the dashboard nothing is built and nothing is served', async () => {
    const built: string[] = [];
    const app = await buildApi({
      ...bare(),
      tokens: TOKENS,
      dashboard: false,
      page: async () => (built.push('page'), ''),
      captainPage: async () => (built.push('captain'), ''),
    });
    for (const url of [PAGE_PATH, CAPTAIN_PATH, '/captain', '/']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    expect(built).toEqual([]);
    await app.close();
  });
});

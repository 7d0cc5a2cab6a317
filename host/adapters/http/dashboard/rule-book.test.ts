// The dashboard's rule book (issue 11, one rule book): the server bundles rule-book.entry.ts at
// start and serves it at /rule-book.js as an ES module; what the page computes with it is what
// the rule book computes (the same modules the firmware and the host run), and the page (src/) keeps no
// copy of the display rules, the result vocabulary or the command rules (docs/architecture.md,
// "The rule book", and rule 5: one machine, many bodies — the browser is one more body).
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseSideControl, timeControl } from '../../../../protocol/time-control.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../api.ts';
import { MemoryPorts } from '../../../app/memory-ports.ts';
import { buildPage, buildRuleBook, PAGE_PATH, pageBundle, RULE_BOOK_PATH, RuleBookBuildError, ruleBookBundle } from './rule-book-bundle.ts';
import * as display from '../../../../rules/display-format.ts';
import * as vocabulary from '../../../../rules/vocabulary.ts';
import * as commandRules from '../../../../rules/command-rules.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The page's own code: every module under src/ (tests aside), as one text. */
const SRC = join(HERE, 'src');
const PAGE_SOURCES = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const PAGE_TS = PAGE_SOURCES.map((f) => readFileSync(join(SRC, f), 'utf8')).join('\n');
/** The scripts the server serves as they are (not bundled): they import the rule book from /rule-book.js. */
const PLAIN_SCRIPTS = ['match-panels.js', 'page-kit.js', 'captain.js'].map((f) => [f, readFileSync(join(HERE, f), 'utf8')] as const);
const TOKENS = [{ arbiter: 'Anna', token: 'tok-anna-0123456789abcdef' }];

/** Loads an ES module from its text, as the browser does with the served bundle. */
async function importText(js: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
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

describe('GET /rule-book.js: the rule book as the browser loads it', () => {
  let app: FastifyInstance;
  let res: Awaited<ReturnType<FastifyInstance['inject']>>;
  let bundle: Record<string, unknown>;

  beforeAll(async () => {
    app = await buildApi({ state: new MemoryPorts(), commands: new MemoryPorts(), tokens: TOKENS });
    res = await app.inject({ method: 'GET', url: RULE_BOOK_PATH });
    bundle = await importText(res.body);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is served at a stable path as JavaScript, never cached stale', () => {
    expect(RULE_BOOK_PATH).toBe('/rule-book.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('is one self-contained ES module: it imports nothing, so the page needs no other file of rules/', () => {
    expect(res.body).toMatch(/^export \{/m);
    expect(res.body).not.toMatch(/^\s*import\s/m);
    expect(res.body).not.toMatch(/\brequire\(/);
  });

  it("formats every time as the clock's display does (rules/display-format.ts; FIDE equipment standard: rounded up)", () => {
    const format = bundle.formatClockTime as (ms: number) => string;
    const untilChange = bundle.msUntilDisplayChange as (ms: number) => number;
    const differences = sampleMs()
      .filter((ms) => format(ms) !== display.formatClockTime(ms) || untilChange(ms) !== display.msUntilDisplayChange(ms))
      .map((ms) => `${ms}: bundle ${format(ms)}, rule book ${display.formatClockTime(ms)}`);
    expect(differences).toEqual([]);
    // The cases a copy got wrong or could: 0.4 s left is not 0.0; from 10 h the LCD's `10h00`.
    expect(format(400)).toBe('0.4');
    expect(format(399)).toBe('0.4');
    expect(format(36_000_000)).toBe('10h00');
  });

  it('carries the vocabulary itself: results with the forfeit codes, sides, statuses, commands', () => {
    expect(bundle.GAME_RESULTS).toEqual(vocabulary.GAME_RESULTS);
    expect(bundle.FORFEIT_RESULTS).toEqual(['+-', '-+', '--']);
    expect(bundle.RESULT_MEANING).toEqual(vocabulary.RESULT_MEANING);
    expect(bundle.SIDES).toEqual(vocabulary.SIDES);
    expect(bundle.SIDE_NAME).toEqual(vocabulary.SIDE_NAME);
    expect(bundle.CLOCK_STATUSES).toEqual(vocabulary.CLOCK_STATUSES);
    expect(bundle.CLOCK_COMMANDS).toEqual(vocabulary.CLOCK_COMMANDS);
  });

  it('refuses each command in each status with the reason the hosts give (rules/command-rules.ts)', () => {
    const refusal = bundle.boardCommandRefusal as typeof commandRules.boardCommandRefusal;
    const differences: string[] = [];
    for (const status of vocabulary.CLOCK_STATUSES) {
      for (const command of vocabulary.ARBITER_COMMANDS) {
        for (const movesCompleted of [0, 3]) {
          const board = { event: 'Slovenian Final', round: 1, board: 2, result: status === 'finished' ? '1-0' : null, live: { status, moves: { white: movesCompleted, black: 0 } } };
          const page = refusal(command, board, { movesCompleted });
          const host = commandRules.boardCommandRefusal(command, board, { movesCompleted });
          if (page !== host) differences.push(`${command} when ${status}: page ${page}, rule book ${host}`);
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('the bundle’s basisRemainingMs runs a simple delay and a sandclock as the clock does', () => {
    const basis = bundle.basisRemainingMs as (b: unknown, side: string, elapsedMs: number) => number;
    const snapshot = (creditedMs: number) => ({ creditedMs, chargedMs: 0, moves: 0, period: 0, creditedPeriod: 0, present: true, forfeited: false, illegalMoves: 0, arbiterMs: 0 });
    const base = { status: 'paused', turn: 'white', white: snapshot(60_000), black: snapshot(60_000), turnActiveMs: 0, flag: null, started: true, sinceStartMs: 0, extraIncrementMs: 0, result: null, undo: [] };
    const delayed = parseSideControl([{ seconds: 60, delay: 5, delayMode: 'simple' }]);
    const delay = timeControl(delayed, delayed);
    // FIDE Laws 6.2 with a simple (US) delay of 5 s: the first 5 s of the turn cost nothing.
    expect(basis({ control: delay, snapshot: base, running: true }, 'white', 3_000)).toBe(60_000);
    expect(basis({ control: delay, snapshot: base, running: true }, 'white', 8_000)).toBe(57_000);
    expect(basis({ control: delay, snapshot: base, running: false }, 'white', 8_000)).toBe(60_000);
    const sand = timeControl(parseSideControl('*60'), parseSideControl('*60'));
    expect(basis({ control: sand, snapshot: base, running: true }, 'black', 10_000)).toBe(70_000);
  });
  it('exports every name the plain scripts import from it (a missing one would stop the page in the hall)', () => {
    const missing: string[] = [];
    let imported = 0;
    for (const [file, text] of PLAIN_SCRIPTS) {
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/rule-book\.js'/g)) {
        const names = m[1].split(',').map((n) => n.trim()).filter(Boolean);
        imported += names.length;
        missing.push(...names.filter((n) => !(n in bundle)).map((n) => `${file}: ${n}`));
      }
    }
    expect(imported).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});

describe('GET /app.js: the page, bundled from src/main.ts with the rule book it imports from rules/', () => {
  it('is served as one self-contained ES module, never cached stale', async () => {
    const app = await buildApi({ state: new MemoryPorts(), commands: new MemoryPorts(), tokens: TOKENS });
    onTestFinished(() => app.close());
    const res = await app.inject({ method: 'GET', url: PAGE_PATH });
    expect(PAGE_PATH).toBe('/app.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).not.toMatch(/^\s*import\s/m);
    // The rule book's own display rule is inside (bundled from rules/display-format.ts, not copied in src/).
    expect(res.body).toMatch(/function formatClockTime\(/);
  });

  it('imports the rule book from rules/ and the host types from host/app/ports.ts (types only: nothing of the host runs in the page)', () => {
    const fromRules = [...PAGE_TS.matchAll(/from '((?:\.\.\/)+rules\/[^']+)'/g)].map((m) => m[1]);
    expect(fromRules.length).toBeGreaterThan(3);
    for (const m of PAGE_TS.matchAll(/^import (type )?\{[^}]*\} from '((?:\.\.\/)+app\/[^']+)'/gm)) expect(m[1], `${m[2]} imported for its types only`).toBe('type ');
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

  it('the pages load the bundled page (app.js) as a module', () => {
    for (const page of ['index.html', 'public.html']) {
      expect(readFileSync(join(HERE, page), 'utf8')).toMatch(/<script src="app\.js" type="module"><\/script>/);
    }
  });

  it('computes a running clock only with the rule book: basisRemainingMs, and no time arithmetic of its own', () => {
    // The rule book's running time (delays, sandclock) over the live state's clock basis.
    expect(APP_JS).toMatch(/basisRemainingMs\(live\.clock, side, elapsed\)/);
    // A copy would subtract the time since the last event from a reported time.
    expect(APP_JS).not.toMatch(/(whiteMs|blackMs|atEvent)\s*-\s*(Math\.max\(0,\s*)?\(?\s*(nowUtcMs|hostNowMs\(\))/);
  });

});

describe('building the rule book', () => {
  it('is done once per process: every server start shares the one build', () => {
    expect(ruleBookBundle()).toBe(ruleBookBundle());
    expect(pageBundle()).toBe(pageBundle());
  });

  it('a page that does not build fails the server start, naming the file, line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'main.ts');
    writeFileSync(bad, "import { formatClockTime } from './nowhere.ts';\nconsole.log(formatClockTime(1));\n");
    const err = await buildPage(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleBookBuildError);
    expect((err as Error).message).toMatch(/^the dashboard's page \(.*main\.ts\) did not build:\n {2}.*main\.ts:1:33: Could not resolve "\.\/nowhere\.ts"$/);
    await expect(buildApi({ state: new MemoryPorts(), commands: new MemoryPorts(), tokens: TOKENS, page: () => buildPage(bad) })).rejects.toThrow(/main\.ts:1:33/);
  });

  it('a rule book that does not build fails the server start, naming the file and the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rule-book-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'bad.entry.ts');
    writeFileSync(bad, "export { formatClockTime } from '../../../../rules/display-format.ts';\nexport const broken = ;\n");
    const err = await buildRuleBook(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleBookBuildError);
    expect((err as Error).message).toMatch(/^the dashboard's rule book \(.*bad\.entry\.ts\) did not build:\n {2}.*bad\.entry\.ts:2:23: Unexpected ";"$/);
    // A module moved away names the import that no longer resolves.
    const moved = join(dir, 'moved.entry.ts');
    writeFileSync(moved, "export { formatClockTime } from './nowhere.ts';\n");
    await expect(buildRuleBook(moved)).rejects.toThrow(/moved\.entry\.ts:1:\d+: Could not resolve "\.\/nowhere\.ts"/);
    await expect(buildApi({ state: new MemoryPorts(), commands: new MemoryPorts(), tokens: TOKENS, ruleBook: () => buildRuleBook(bad) })).rejects.toThrow(RuleBookBuildError);
  });

  it('without the dashboard nothing is built and nothing is served', async () => {
    let built = false;
    const app = await buildApi({ state: new MemoryPorts(), commands: new MemoryPorts(), tokens: TOKENS, dashboard: false, ruleBook: async () => ((built = true), '') });
    expect((await app.inject({ method: 'GET', url: RULE_BOOK_PATH })).statusCode).toBe(404);
    expect(built).toBe(false);
    await app.close();
  });
});

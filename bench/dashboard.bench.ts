// Dashboard — the 200-board hall in the arbiter's page (docs/benchmarks.md "Dashboard"): first render,
// the main thread's busy fraction at 500 clock events/s, and DOM nodes per board, measured IN THE
// PAGE with the Performance API (docs/benchmarks-history.md "Dashboard" explains the method).
//
// The host runs in a process of its own (bench/support/host-process.ts: startHost through
// LoadHost, the journal on disk with synchronous=FULL, the director, the API with its /ws feed and
// the dashboard) over the generated tournament of the load runs (scripts/load-host.ts
// loadTournament: N boards of one individual event, round 1); N light clocks
// (bench/support/wire-clock.ts: the real link and the rule book's clock core) connect over
// loopback TCP, are configured by the director's round and started. Debian Chromium
// (playwright-core) opens `/` at 1400×900, signed out.
//
// 1. First render, N = 100 and 200, the hall quiet (clocks running, nobody pressing): navigation
//    start (performance.timeOrigin) → the frame that paints the last of the N boards, the median
//    of 3 loads; and the DOM nodes then (every node: elements, text, comments) per board, with the
//    growth per board from 100 to 200.
// 2. N = 200 at DASHBOARD_BENCH_RATE (default 500) presses/s round the clocks: each press is a
//    journaled `moved` event the host sends on /ws. The page is loaded again under the feed (first
//    render under load), then for DASHBOARD_BENCH_MS (default 12 s) the page records its idle time
//    (requestIdleCallback deadlines, each cut at the next task the page is seen to start) and its
//    long animation frames (PerformanceObserver 'long-animation-frame'); the renderer's own main-
//    thread task time and CPU time (CDP Performance.getMetrics TaskDuration, ThreadTime) are read
//    as a cross-check, the CPU time being what a loaded machine does not inflate. Then, still under
//    the feed, the availability probe (a MessageChannel ping-pong in the page) counts its turns for
//    DASHBOARD_BENCH_SPIN_MS (default 8 s), and again alone on a blank page: busy = 1 − the ratio
//    of the two rates (docs/benchmarks-history.md "Dashboard": why this, and not the idle probe,
//    settles the target of 50%).
//
//   npm run bench -- dashboard
//   DASHBOARD_BENCH_BOARDS=200 DASHBOARD_BENCH_RATE=500 DASHBOARD_BENCH_MS=12000 npm run bench -- dashboard
import { loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, CHROMIUM } from '../test/browser-harness.ts';
import { connectTo, HostProcess } from './support/host-process-client.ts';
import { WireClock } from './support/wire-clock.ts';
import { existsSync } from 'node:fs';

const SYNC_PHASE_MS = Number(process.env.DASHBOARD_BENCH_SYNC_MS ?? 33_000);
const RATE = Number(process.env.DASHBOARD_BENCH_RATE ?? 500);
const MEASURE_MS = Number(process.env.DASHBOARD_BENCH_MS ?? 12_000);
const BOARD_COUNTS = (process.env.DASHBOARD_BENCH_BOARDS ?? '100,200')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** A board on the page: any element carrying its id (a card, a row); boards are counted by distinct id. */
const BOARD_SELECTOR = '[data-board-id]';
/** How long the availability probe runs under the feed, and alone (ms). */
const SPIN_MS = Number(process.env.DASHBOARD_BENCH_SPIN_MS ?? 8_000);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const f1 = (x: number) => x.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** What the page records (window.__bench), set up before the page's own scripts run. */
interface PageProbe {
  boards: number;
  /** performance.now() when the DOM first held `boards` boards, and when the frame after it was done. */
  domAt: number | null;
  paintedAt: number | null;
  measuring: boolean;
  from: number;
  to: number;
  wsMessages: number;
  wsOpened: number;
  taskStarts: number[];
  idle: Array<[number, number]>;
  loaf: Array<{ start: number; duration: number; blocking: number }>;
  /** The availability probe: a MessageChannel ping-pong counting its turns while `spinOn`. */
  spinOn: boolean;
  spinTurns: number;
  spinFrom: number;
}

/**
 * The in-page probe, three functions run by Chromium before the page's scripts in this order
 * (each must not close over anything: they share `window.__bench`). This one makes the probe's
 * state and the availability probe.
 */
function installProbe(args: { boards: number }): void {
  const w = window as unknown as { __bench: PageProbe };
  const S: PageProbe = {
    boards: args.boards,
    domAt: null,
    paintedAt: null,
    measuring: false,
    from: 0,
    to: 0,
    wsMessages: 0,
    wsOpened: 0,
    taskStarts: [],
    idle: [],
    loaf: [],
    spinOn: false,
    spinTurns: 0,
    spinFrom: 0,
  };
  w.__bench = S;
  // The availability probe: while on, a message to itself each turn; its turns per ms fall by the
  // share of the main thread something else takes (the page's tasks, style, layout, paint).
  const spin = new MessageChannel();
  spin.port1.onmessage = () => {
    if (!S.spinOn) return;
    S.spinTurns++;
    spin.port2.postMessage(0);
  };
  (w as unknown as { __spin: (on: boolean) => { turns: number; ms: number } }).__spin = (on) => {
    const now = performance.now();
    const out = { turns: S.spinTurns, ms: now - S.spinFrom };
    S.spinOn = on;
    S.spinTurns = 0;
    S.spinFrom = now;
    if (on) spin.port2.postMessage(0);
    return out;
  };
}

/**
 * Task starts: each /ws message the page receives (a listener added before the page's own) and
 * each timer callback; idle: every requestIdleCallback's [start, start + timeRemaining()] while
 * measuring; the long animation frames.
 */
function installTaskProbe(): void {
  const S = (window as unknown as { __bench: PageProbe }).__bench;
  const task = () => {
    if (S.measuring) S.taskStarts.push(performance.now());
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      S.wsOpened++;
      this.addEventListener('message', () => {
        task();
        if (S.measuring) S.wsMessages++;
      });
    }
  };
  const nativeSetTimeout = window.setTimeout.bind(window);
  const nativeSetInterval = window.setInterval.bind(window);
  const wrap = (fn: TimerHandler) => (typeof fn === 'function' ? (...a: unknown[]) => (task(), (fn as (...x: unknown[]) => unknown)(...a)) : fn);
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...a: unknown[]) => nativeSetTimeout(wrap(fn), ms, ...a)) as typeof window.setTimeout;
  window.setInterval = ((fn: TimerHandler, ms?: number, ...a: unknown[]) => nativeSetInterval(wrap(fn), ms, ...a)) as typeof window.setInterval;
  const idle = (deadline: IdleDeadline) => {
    if (S.measuring) {
      const t = performance.now();
      S.idle.push([t, t + deadline.timeRemaining()]);
    }
    requestIdleCallback(idle);
  };
  requestIdleCallback(idle);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { blockingDuration?: number }>)
        S.loaf.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration ?? 0 });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // No Long Animation Frames API: the idle probe and the CDP figure remain.
  }
}

/** First render: when the DOM holds every board (`selector`), and when the frame that paints them is done. */
function installRenderProbe(args: { selector: string }): void {
  const S = (window as unknown as { __bench: PageProbe }).__bench;
  // First render: the DOM holds every board, then the frame that paints them is done.
  let pending = false;
  const check = () => {
    pending = false;
    if (S.domAt !== null) return;
    const ids = new Set<string>();
    document.querySelectorAll(args.selector).forEach((el) => ids.add(el.getAttribute('data-board-id') ?? ''));
    if (ids.size < S.boards) return;
    S.domAt = performance.now();
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        S.paintedAt = performance.now();
        performance.mark('bench:boards-painted');
        observer.disconnect();
      };
      ch.port2.postMessage(0);
    });
  };
  const observer = new MutationObserver(() => {
    if (!pending) {
      pending = true;
      queueMicrotask(check);
    }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
}

/** Every node of the document (elements, text, comments): the DOM's size. */
function domNodes(): number {
  let n = 0;
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  while (walker.nextNode()) n++;
  return n;
}

/** The page loaded from scratch; resolves when its boards are painted. */
async function firstRender(page: Page, url: string): Promise<{ paintedMs: number; domMs: number; nodes: number; marks: string[] }> {
  await page.goto(url + '/', { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __bench: PageProbe }).__bench.paintedAt !== null, undefined, { timeout: 120_000, polling: 100 });
  const probe = await page.evaluate(() => {
    const S = (window as unknown as { __bench: PageProbe }).__bench;
    return { paintedMs: S.paintedAt!, domMs: S.domAt!, marks: performance.getEntriesByType('mark').map((m) => `${m.name}@${m.startTime.toFixed(0)}`) };
  });
  return { ...probe, nodes: await page.evaluate(domNodes) };
}

async function hallOf(n: number): Promise<{ host: HostProcess; clocks: WireClock[] }> {
  const host = await HostProcess.start({ n, dashboard: true, stamps: false });
  const clocks: WireClock[] = [];
  for (let i = 0; i < n; i++) clocks.push(new WireClock(`load-${i + 1}`, await connectTo(host.port), 1000 + i));
  const t0 = Date.now();
  while (!clocks.every((c) => c.gameId !== null)) {
    if (Date.now() - t0 > 120_000) throw new Error(`${n} clocks not configured within 120 s`);
    await sleep(200);
  }
  for (const c of clocks) c.start();
  while (!clocks.every((c) => c.acked >= 2)) {
    if (Date.now() - t0 > 180_000) throw new Error('every start not acknowledged within 180 s');
    await sleep(200);
  }
  return { host, clocks };
}

/** Presses round the clocks at `rate` per second until stopped (every 2 ms, the presses due by then). */
function feed(clocks: WireClock[], rate: number): { stop: () => number } {
  let made = 0;
  let next = 0;
  let stopped = false;
  const from = performance.now();
  const tick = () => {
    if (stopped) return;
    const due = Math.floor(((performance.now() - from) / 1000) * rate);
    for (; made < due; made++) {
      clocks[next].press();
      next = (next + 1) % clocks.length;
    }
    setTimeout(tick, 2);
  };
  tick();
  return {
    stop: () => {
      stopped = true;
      return made / ((performance.now() - from) / 1000);
    },
  };
}

/** Idle time inside [from, to]: each idle callback's deadline cut at the next task the page started. */
function idleMs(idle: Array<[number, number]>, starts: number[], from: number, to: number): number {
  const s = [...starts].sort((a, b) => a - b);
  let total = 0;
  let j = 0;
  let covered = from;
  for (const [a0, b0] of [...idle].sort((x, y) => x[0] - y[0])) {
    while (j < s.length && s[j] <= a0) j++;
    const end = Math.min(b0, j < s.length ? s[j] : Infinity, to);
    const start = Math.max(a0, covered);
    if (end > start) {
      total += end - start;
      covered = end;
    }
  }
  return total;
}

/** Three loads of the page in a quiet hall: the first render's times and the DOM's size, printed; returns the DOM's nodes. */
async function measureQuiet(page: Page, url: string, n: number): Promise<number> {
  const loads = [];
  for (let k = 0; k < 3; k++) loads.push(await firstRender(page, url));
  const nodes = median(loads.map((l) => l.nodes));
  console.log(
    `  N = ${n} boards, quiet hall: first render (navigation start → the frame painting all ${n} boards) median ${f1(median(loads.map((l) => l.paintedMs)))} ms of ${loads.map((l) => f1(l.paintedMs)).join(' / ')} ms` +
      ` (DOM complete ${f1(median(loads.map((l) => l.domMs)))} ms); DOM ${nodes} nodes = ${f1(nodes / n)} per board; page marks: ${loads[0].marks.filter((m) => !m.startsWith('bench:')).join(', ') || 'none'}; load avg ${loadavg()[0].toFixed(2)}`,
  );
  return nodes;
}

/**
 * The page under presses at RATE per second: a first render under the feed, then over
 * MEASURE_MS the /ws messages received, the main thread's idle time, long animation frames, the
 * renderer's task time (CDP) and the host's CPU, and the availability probe against a blank page.
 */
async function measureUnderFeed(context: BrowserContext, page: Page, host: HostProcess, clocks: WireClock[], n: number): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return { task: m.TaskDuration, script: m.ScriptDuration, layout: m.LayoutDuration + m.RecalcStyleDuration, cpu: m.ThreadTime, at: m.Timestamp };
  };
  const presses = feed(clocks, RATE);
  await sleep(2_000);
  const underLoad = await firstRender(page, host.url);
  await sleep(2_000);
  const cpu0 = await host.ask<{ us: number }>('cpu');
  const m0 = await metric();
  await page.evaluate(() => {
    const S = (window as unknown as { __bench: PageProbe }).__bench;
    S.measuring = true;
    S.from = performance.now();
  });
  await sleep(MEASURE_MS);
  const probe = await page.evaluate(() => {
    const S = (window as unknown as { __bench: PageProbe }).__bench;
    S.measuring = false;
    S.to = performance.now();
    return {
      from: S.from,
      to: S.to,
      idle: S.idle,
      starts: S.taskStarts,
      ws: S.wsMessages,
      opened: S.wsOpened,
      loaf: S.loaf.filter((l) => l.start >= S.from && l.start < S.to),
    };
  });
  const m1 = await metric();
  const cpu1 = await host.ask<{ us: number }>('cpu');
  // The availability probe (in the page, Performance API clock): its turns per ms under the
  // feed, against the same probe alone on a blank page in the same renderer afterwards.
  // busy = 1 − rate under the feed / rate alone: everything that is not the probe counts as
  // busy (the page's work, rendering, and a core taken by another process), so it is an
  // upper bound; it needs no timestamps finer than Chromium's coarsened clock.
  type SpinWindow = { turns: number; ms: number };
  const spinFor = async (ms: number): Promise<SpinWindow> => {
    await page.evaluate(() => (window as unknown as { __spin: (on: boolean) => SpinWindow }).__spin(true));
    await sleep(ms);
    return page.evaluate(() => (window as unknown as { __spin: (on: boolean) => SpinWindow }).__spin(false));
  };
  const spinFeed = await spinFor(SPIN_MS);
  const nodesAfter = await page.evaluate(domNodes);
  const offered = presses.stop();
  await page.goto('about:blank');
  const spinAlone = await spinFor(SPIN_MS);
  const spinBusy = 1 - spinFeed.turns / spinFeed.ms / (spinAlone.turns / spinAlone.ms);
  const windowMs = probe.to - probe.from;
  const idle = idleMs(probe.idle, probe.starts, probe.from, probe.to);
  const loafMs = probe.loaf.reduce((s, l) => s + l.duration, 0);
  const blockingMs = probe.loaf.reduce((s, l) => s + l.blocking, 0);
  const cdpS = m1.at - m0.at;
  console.log(
    `  N = ${n} boards at ${RATE} presses/s (${f1(offered)} made): the page received ${f1(probe.ws / (windowMs / 1000))} /ws messages/s over ${f1(windowMs / 1000)} s (${probe.opened} socket${probe.opened === 1 ? '' : 's'} opened);` +
      ` first render under the feed ${f1(underLoad.paintedMs)} ms;` +
      ` main thread busy ${f1(100 * (1 - idle / windowMs))}% (idle probe: ${probe.idle.length} idle callbacks, ${probe.starts.length} tasks seen),` +
      ` long animation frames ${probe.loaf.length} totalling ${f1(100 * (loafMs / windowMs))}% of the time (blocking ${f1(blockingMs)} ms),` +
      ` renderer main-thread task time (CDP) ${f1(100 * ((m1.task - m0.task) / cdpS))}% (script ${f1(100 * ((m1.script - m0.script) / cdpS))}%, style+layout ${f1(100 * ((m1.layout - m0.layout) / cdpS))}%),` +
      ` its CPU time ${f1(100 * ((m1.cpu - m0.cpu) / cdpS))}% of a core = ${f1(((m1.cpu - m0.cpu) * 1000) / Math.max(1, probe.ws))} ms per message;` +
      ` availability probe: busy ${f1(100 * spinBusy)}% (${f1(spinFeed.turns / spinFeed.ms)} turns/ms over ${f1(spinFeed.ms / 1000)} s under the feed, ${f1(spinAlone.turns / spinAlone.ms)} alone);` +
      ` DOM ${nodesAfter} nodes after (${f1(nodesAfter / n)} per board); host CPU ${f1(((cpu1.us - cpu0.us) / 1e6 / (windowMs / 1000)) * 100)}% of a core; load avg ${loadavg()[0].toFixed(2)}`,
  );
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log('  no Chromium (apt-get install chromium): nothing measured');
    return;
  }
  const browser = await launchChromium();
  const nodesAt = new Map<number, number>();
  try {
    for (const n of BOARD_COUNTS) {
      const { host, clocks } = await hallOf(n);
      try {
        if (SYNC_PHASE_MS > 0) await sleep(SYNC_PHASE_MS); // the clocks' connect-time time sync, as in the host benches
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        // tsx keeps function names with a `__name` helper the page does not have: give it one.
        await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
        await context.addInitScript(installProbe, { boards: n });
        await context.addInitScript(installTaskProbe);
        await context.addInitScript(installRenderProbe, { selector: BOARD_SELECTOR });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        nodesAt.set(n, await measureQuiet(page, host.url, n));
        if (n === Math.max(...BOARD_COUNTS) && RATE > 0) {
          await measureUnderFeed(context, page, host, clocks, n);
        }
        if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
        await context.close();
      } finally {
        for (const c of clocks) c.close();
        await host.stop();
      }
    }
    const [a, b] = [Math.min(...nodesAt.keys()), Math.max(...nodesAt.keys())];
    if (a !== b) console.log(`  DOM growth from ${a} to ${b} boards: ${f1((nodesAt.get(b)! - nodesAt.get(a)!) / (b - a))} nodes per added board`);
  } finally {
    await browser.close();
  }
}

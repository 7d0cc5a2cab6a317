// `npm run load`: a simulated hall of many clocks into ONE host, then the same under faults.
//
//   --clocks N   clocks on in-memory lines (default 1000): the firmware without its
//                Johnny-Five board (simulator/headless-clock.ts)
//   --pty P      clocks on socat pty pairs through serialport (default 64): full simulated
//                clocks, the firmware on a virtual board through Johnny-Five
//   --minutes M  bound on the run (default 8; the drain may take 2 more); steady window = M/4
//   --speed X    hall time per real time (default 10); --think S median think, hall s (20)
//   --outage S   broker outage, real seconds (default 30); --no-faults; --seed N
//
// One process: clocks, host (Host + SQLite journal, synchronous=FULL), an embedded Aedes
// broker and an MQTT subscriber, loopback only. Every press a clock accepted is stamped
// with the real monotonic time (protocol/monotonic.ts) and compared, at the end, with the
// journal (each press exactly once) and with what the subscriber received. After the host
// restart (fault 1) the host holds every board in play (docs/protocol.md "Restore"); a
// scripted floor arbiter resumes each one once the host has brought it to the journal, and
// the run reports how many came back and how long it took. See docs/load.md.
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { SerialPort } from 'serialport';
import { monotonicNowMs, systemTime } from '../protocol/monotonic.ts';
import { openPtyPair, type PtyPair } from '../protocol/session-api.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import { decodeEvent } from '../host/adapters/mqtt/payload.ts';
import { topicFilter } from '../host/adapters/mqtt/topics.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { bootLoadClock, PressLoad, pressKey, type LoadClock, type Press } from '../simulator/load-clocks.ts';
import { LoadHost, loadTournament, type LineSpec } from './load-host.ts';
import { SUBSCRIBER_ID, startBroker, stopBroker } from './load-broker.ts';
import { ARBITER, RestartArbiter } from './load-restart-arbiter.ts';

// ─── options ─────────────────────────────────────────────────────────────────────────

const USAGE = `usage: npm run load -- [options]

A thousand clocks into one host, with faults (docs/load.md): in-memory clocks plus full
simulated clocks over socat ptys, at accelerated time, then a host kill and restart, cable
pulls, corrupted bytes and a broker outage; exits 0 only if no press is lost or doubled.

options:
  --clocks N     clocks on in-memory lines (default 1000)
  --pty N        full simulated clocks over socat ptys (default 64)
  --minutes M    bound on the run, real minutes (default 8; the drain may take 2 more)
  --speed X      hall time per real time (default 10)
  --think S      median thinking time, hall seconds (default 20)
  --outage S     the broker outage, real seconds (default 30)
  --seed N       the players' seed (default 1)
  --no-faults    no faults: measure the steady state only
  -h, --help     this text`;

/** A bad option ends the run with the usage, not a stack trace. */
function usageError(message: string): never {
  process.stderr.write(`npm run load: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      clocks: { type: 'string', default: '1000' },
      pty: { type: 'string', default: '64' },
      minutes: { type: 'string', default: '8' },
      speed: { type: 'string', default: '10' },
      think: { type: 'string', default: '20' },
      outage: { type: 'string', default: '30' },
      seed: { type: 'string', default: '1' },
      'no-faults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
} catch (err) {
  usageError((err as Error).message);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
const num = (name: 'clocks' | 'pty' | 'minutes' | 'speed' | 'think' | 'outage' | 'seed', min: number): number => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < min) usageError(`--${name} ${values[name]}: expected a number ≥ ${min}`);
  return n;
};
const N_MEM = num('clocks', 0);
const N_PTY = num('pty', 0);
const MINUTES = num('minutes', 1);
const SPEED = num('speed', 0.1);
const THINK_MS = num('think', 1) * 1000;
const OUTAGE_MS = num('outage', 0) * 1000;
const SEED = num('seed', 0);
const FAULTS = !values['no-faults'];
const TOTAL = N_MEM + N_PTY;
if (TOTAL < 1) usageError('no clocks: give --clocks and/or --pty');

const startedReal = monotonicNowMs();
const deadlineReal = startedReal + MINUTES * 60_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`[${((monotonicNowMs() - startedReal) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// ─── what happened to every press ────────────────────────────────────────────────────

interface PressFate {
  readonly press: Press;
  readonly window: string;
  journalAtMs: number | null;
  journalCount: number;
  subAtMs: number | null;
}
const fates = new Map<string, PressFate>();
let window = 'boot';
let journaledEvents = 0;
const journaledIn = new Map<string, number>();
const subSeqs = new Set<string>();
let subRaw = 0;
let subRedelivered = 0;
const subPressSeqs = new Map<string, Set<string>>();

let pressKeysRepeated = 0;
function onPress(p: Press): void {
  // Each clock plays one game: a key made twice means a clock's move counter went back (a
  // restore to a journal that lacked presses): the first press would be hidden, so count it.
  if (fates.has(pressKey(p.clockId, p.side, p.move))) pressKeysRepeated++;
  fates.set(pressKey(p.clockId, p.side, p.move), { press: p, window, journalAtMs: null, journalCount: 0, subAtMs: null });
}

// ─── the subscriber (the broker: load-broker.ts) ─────────────────────────────────────

function subscribe(url: string): MqttClient {
  const client = mqtt.connect(url, { clientId: SUBSCRIBER_ID, clean: true, reconnectPeriod: 250 });
  client.on('connect', () => void client.subscribeAsync(topicFilter('events'), { qos: 1 }).catch(() => undefined));
  client.on('error', () => undefined);
  client.on('message', (_topic, payload) => {
    const at = monotonicNowMs();
    subRaw++;
    const e = decodeEvent(payload);
    const id = `${e.clockId}/${e.bootId}/${e.seq}`;
    if (subSeqs.has(id)) {
      subRedelivered++; // QoS 1 at-least-once: the same journal row again (deduplicated)
      return;
    }
    subSeqs.add(id);
    if (e.type !== 'moved' || e.side === null || e.move === null) return;
    const key = pressKey(e.clockId, e.side, e.move);
    let seqs = subPressSeqs.get(key);
    if (!seqs) subPressSeqs.set(key, (seqs = new Set()));
    seqs.add(id);
    const f = fates.get(key);
    if (f && f.subAtMs === null) f.subAtMs = at;
  });
  return client;
}

// ─── figures ─────────────────────────────────────────────────────────────────────────

let peakRssMb = 0;
let peakHeapMb = 0;
const memTimer = setInterval(() => {
  const m = process.memoryUsage();
  peakRssMb = Math.max(peakRssMb, m.rss / 2 ** 20);
  peakHeapMb = Math.max(peakHeapMb, m.heapUsed / 2 ** 20);
}, 500);

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const ms = (x: number) => (Number.isNaN(x) ? '—' : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(1)} ms`);

interface WindowMark {
  name: string;
  fromMs: number;
  toMs: number;
  journaled: number;
  loadBefore: string;
  loadAfter: string;
}
function report(w: WindowMark): string {
  const seconds = (w.toMs - w.fromMs) / 1000;
  const presses = [...fates.values()].filter((f) => f.window === w.name);
  const toJournal = presses
    .filter((f) => f.journalAtMs !== null)
    .map((f) => f.journalAtMs! - f.press.atRealMs)
    .sort((a, b) => a - b);
  const toSub = presses
    .filter((f) => f.subAtMs !== null)
    .map((f) => f.subAtMs! - f.press.atRealMs)
    .sort((a, b) => a - b);
  return [
    `── ${w.name}: ${seconds.toFixed(0)} s real, load average ${w.loadBefore} → ${w.loadAfter}`,
    `   presses ${presses.length} (${(presses.length / seconds).toFixed(0)}/s), journaled events ${w.journaled} (${(w.journaled / seconds).toFixed(0)}/s)`,
    `   press → journal     p50 ${ms(pct(toJournal, 50))}  p99 ${ms(pct(toJournal, 99))}  max ${ms(toJournal.at(-1) ?? NaN)}  (${toJournal.length} of ${presses.length})`,
    `   press → subscriber  p50 ${ms(pct(toSub, 50))}  p99 ${ms(pct(toSub, 99))}  max ${ms(toSub.at(-1) ?? NaN)}  (${toSub.length} of ${presses.length})`,
    `   peak memory: rss ${peakRssMb.toFixed(0)} MB, heap ${peakHeapMb.toFixed(0)} MB`,
  ].join('\n');
}

// ─── the run ─────────────────────────────────────────────────────────────────────────

const dir = mkdtempSync(join(tmpdir(), 'chessclock-load-'));
const dbFile = join(dir, 'load.db');
const time = new AcceleratedTime(SPEED);
const hostClock = new AnchoredClock(
  { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
  { hostMs: 0, utcMs: Date.UTC(2026, 0, 10, 10, 0) },
);
const hall = loadTournament(TOTAL);

log(
  `load: ${N_MEM} in-memory clocks (firmware, headless) + ${N_PTY} pty clocks (firmware on Johnny-Five virtual boards) → one host; hall time ×${SPEED}, median think ${THINK_MS / 1000} s hall; load average ${load()}`,
);
let broker = await startBroker(0);
const brokerUrl = `mqtt://127.0.0.1:${broker.port}`;
const subscriber = subscribe(brokerUrl);
await new Promise<void>((r) => subscriber.once('connect', () => r()));
await sleep(200);

const clocks: LoadClock[] = [];
for (let i = 0; i < N_MEM; i++) clocks.push(await bootLoadClock(i, 'headless', { time, seed: SEED, onPress }));

// pty clocks: the host opens a stable name (as /dev/serial/by-id/… for a USB clock).
interface PtyPlug {
  clock: LoadClock;
  path: string;
  pty: PtyPair | null;
  port: SerialPort | null;
}
const plugs: PtyPlug[] = [];
async function plugPty(p: PtyPlug): Promise<void> {
  p.pty = await openPtyPair();
  try {
    unlinkSync(p.path);
  } catch {
    /* first plug */
  }
  symlinkSync(p.pty.a, p.path);
  const port = new SerialPort({ path: p.pty.b, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
  p.port = port;
  p.clock.cable.attach(port);
}
async function unplugPty(p: PtyPlug): Promise<void> {
  p.clock.cable.detach();
  const port = p.port;
  p.port = null;
  if (port?.isOpen) await new Promise<void>((r) => port.close(() => r()));
  await p.pty?.close();
  p.pty = null;
  try {
    unlinkSync(p.path);
  } catch {
    /* gone */
  }
}
for (let j = 0; j < N_PTY; j++) {
  const clock = await bootLoadClock(N_MEM + j, 'board', { time, seed: SEED, onPress });
  clocks.push(clock);
  const p: PtyPlug = { clock, path: join(dir, `clock-${j + 1}`), pty: null, port: null };
  await plugPty(p);
  plugs.push(p);
}
const lines: LineSpec[] = [
  ...clocks.slice(0, N_MEM).map((c) => ({ key: `memory:${c.serialId}`, table: c.index + 1, clockId: c.serialId, open: c.cable.memoryLine() })),
  ...plugs.map((p) => ({ key: p.path, table: p.clock.index + 1, clockId: p.clock.serialId, open: LoadHost.serialLine(p.path) })),
];
log(`${clocks.length} clocks booted; starting the host`);

/** The floor arbiter after the host restart (fault 1), and what stood at the kill (below). */
let restartArbiter = null as RestartArbiter | null;
const notInPlayAtKill = new Map<string, number>();

const onJournaled = (e: { clockId: string; type: string; side: string | null; move: number | null }) => {
  journaledEvents++;
  restartArbiter?.sawEvent(e.clockId, e.type);
  journaledIn.set(window, (journaledIn.get(window) ?? 0) + 1);
  if (e.type !== 'moved' || e.side === null || e.move === null) return;
  const f = fates.get(pressKey(e.clockId, e.side, e.move));
  if (!f) return;
  f.journalCount++;
  f.journalAtMs ??= monotonicNowMs();
};
// The host's log, kept only where a restore went wrong (host/app/host.ts "restore of game …",
// host/clocks/restore-clock.ts "not restored", an old firmware that cannot be restored).
const hostTrouble: string[] = [];
const hostLog = (line: string) => {
  if (/^restore of game|not restored|speaks protocol/.test(line)) hostTrouble.push(`[${((monotonicNowMs() - startedReal) / 1000).toFixed(1)} s] ${line}`);
};
const hostOpts = { dbFile, hall, clock: hostClock, mqttUrl: brokerUrl, onJournaled, log: hostLog };
let host = await LoadHost.start(hostOpts, lines);

/** Waits for `cond`, at most `timeoutMs` and (unless `pastDeadline`) not past the run's bound. */
async function waitUntil(what: string, cond: () => boolean, timeoutMs: number, pastDeadline = false): Promise<boolean> {
  const until = monotonicNowMs() + timeoutMs;
  while (!cond()) {
    if (monotonicNowMs() > until || (!pastDeadline && monotonicNowMs() > deadlineReal)) {
      log(`gave up waiting for ${what}`);
      return false;
    }
    await sleep(100);
  }
  return true;
}

await waitUntil('every clock online and configured', () => clocks.every((c) => c.configured > 0), 120_000);
log(`${host.online()} clocks online and configured; load average ${load()}`);

// A hall's clocks are connected before the round starts: let the connect-time time-sync
// phase pass (128 exchanges at 4/s per clock, protocol/link.ts AUTO_SYNC_DEFAULTS: ~4,000
// exchanges/s for 1,000 clocks during 32 s). After the host restart below it runs again,
// inside the faults window, as it would in a hall.
await sleep(33_000);
log(`time-sync phase over; players start; load average ${load()}`);
const players = new PressLoad({ time, thinkMedianMs: THINK_MS, thinkSigma: 0.5, seed: SEED });
players.start(clocks);
// The starts are spread over one hall minute: let them all begin before measuring.
await sleep(time.realMs(60_000) + 2_000);

const windows: WindowMark[] = [];
async function measure(name: string, body: () => Promise<void>): Promise<void> {
  window = name;
  const w: WindowMark = { name, fromMs: monotonicNowMs(), toMs: 0, journaled: 0, loadBefore: load(), loadAfter: '' };
  await body();
  w.toMs = monotonicNowMs();
  w.journaled = journaledIn.get(name) ?? 0;
  w.loadAfter = load();
  windows.push(w);
}

// (fault 1 includes the arbiter's resumes after the restart: ~5 s for 208 clocks, ~20 s for 1,064)
const faultsBudgetMs = FAULTS ? 5_000 + 30_000 + 10_000 + 20_000 + OUTAGE_MS + 4 * 5_000 : 0;
const steadyMs = Math.max(20_000, Math.min(MINUTES * 60_000 * 0.25, deadlineReal - monotonicNowMs() - faultsBudgetMs - 60_000));
await measure('steady', () => sleep(steadyMs));
log(report(windows.at(-1)!));

const faultLog: string[] = [];

/** Fault 1: the host killed and started again on the same journal; the floor arbiter resumes each board in play. */
async function restartHostFault(): Promise<void> {
  // Boards in play = a game running at the kill (not finished, not unstarted): the restarted host holds them all.
  const atKill = host.host.state.boards();
  const inPlay = atKill.filter((b) => b.result === null && b.live?.status === 'running');
  for (const b of atKill) {
    if (inPlay.includes(b)) continue;
    const what = b.result !== null ? 'finished' : (b.live?.status ?? 'not started');
    notInPlayAtKill.set(what, (notInPlayAtKill.get(what) ?? 0) + 1);
  }
  log(`fault 1: host stopped (sessions, journal, MQTT, all dropped) with ${inPlay.length} boards in play …`);
  await host.close();
  await sleep(5_000);
  const restartMs = monotonicNowMs();
  const restartUtcMs = hostClock.nowUtcMs();
  const restartHallMs = time.now();
  // Watching from the restart on: the clocks' first events may come while the host starts.
  restartArbiter = new RestartArbiter(
    () => host,
    () => time.now(),
    (what, cond, timeoutMs) => waitUntil(what, cond, timeoutMs, true),
    inPlay,
    restartMs,
    restartUtcMs,
    restartHallMs,
  );
  host = await LoadHost.start(hostOpts, lines);
  log('         … and restarted on the same journal; the floor arbiter resumes each board the host brings back');
  restartArbiter.start();
  faultLog.push('host stopped for 5 s and restarted on the same journal file');
  // The next fault waits until every board in play is resumed (bounded): the figure is the
  // restart's alone, not an unplugged clock's.
  const arb = restartArbiter;
  if (await waitUntil('every board in play resumed after the restart', () => arb.pending === 0, 180_000)) {
    log(`         all ${inPlay.length} boards in play resumed ${((monotonicNowMs() - restartMs) / 1000).toFixed(1)} s after the restart`);
  } else log(`         ${arb.pending} of ${inPlay.length} boards in play not resumed yet; the arbiter keeps watching`);
  await sleep(5_000);
}

/** Fault 2: every tenth clock unplugged for 10 s, then plugged back. */
async function unplugClocksFault(): Promise<void> {
  const out = clocks.filter((c) => c.index % 10 === 0);
  log(`fault 2: unplugging ${out.length} clocks (${out.filter((c) => c.kind === 'board').length} on ptys) for 10 s`);
  for (const c of out) {
    const p = plugs.find((x) => x.clock === c);
    if (p) await unplugPty(p);
    else c.cable.unplug();
  }
  await sleep(10_000);
  for (const c of out) {
    const p = plugs.find((x) => x.clock === c);
    if (p) await plugPty(p);
    else c.cable.plug();
  }
  faultLog.push(`${out.length} clocks unplugged for 10 s (pty pairs closed and new ones made behind the same name) and plugged back`);
  await sleep(5_000);
}

/** Fault 3: 1% of the bytes corrupted on every line, both ways, for 20 s. */
async function corruptBytesFault(): Promise<void> {
  log('fault 3: corrupting 1% of the bytes on every line for 20 s');
  const before = clocks.reduce((s, c) => s + c.cable.corruptedBytes, 0);
  for (const c of clocks) c.cable.corruptByteProbability = 0.01;
  await sleep(20_000);
  for (const c of clocks) c.cable.corruptByteProbability = 0;
  const corrupted = clocks.reduce((s, c) => s + c.cable.corruptedBytes, 0) - before;
  faultLog.push(`1% of bytes corrupted on every line for 20 s: ${corrupted} bytes flipped`);
  await sleep(5_000);
}

/** Fault 4: the broker stopped for OUTAGE_MS of real (wall) time, then restarted empty. */
async function brokerOutageFault(): Promise<void> {
  log(`fault 4: broker stopped for ${OUTAGE_MS / 1000} s (real time)`);
  // The broker goes down as a broker process stops on SIGTERM: it drops the host's
  // connection, finishes handing the subscriber what it had accepted, then closes. (An
  // abrupt crash of this in-memory broker loses what it acknowledged to the host but had
  // not yet delivered: docs/load.md.)
  // (Aedes keeps its connected clients in `clients`, missing from its type declarations.)
  const connected = (broker.aedes as unknown as { clients: Record<string, { id: string; close(): void }> }).clients;
  for (const client of Object.values(connected)) if (client.id !== SUBSCRIBER_ID) client.close();
  await sleep(2_000);
  await stopBroker(broker);
  await sleep(OUTAGE_MS);
  broker = await startBroker(broker.port);
  faultLog.push(`broker stopped for ${OUTAGE_MS / 1000} s of real time (${((OUTAGE_MS * SPEED) / 60_000).toFixed(1)} hall minutes) and restarted empty`);
  await sleep(5_000);
}

if (FAULTS) {
  await measure('faults', async () => {
    await restartHostFault();
    await unplugClocksFault();
    await corruptBytesFault();
    await brokerOutageFault();
  });
  log(report(windows.at(-1)!));
}

// ─── drain and account for every press ───────────────────────────────────────────────

window = 'drain';
await restartArbiter?.stop();
log("players stop; draining the clocks' outboxes and the MQTT outbox");
const stillPressing = await players.stop();
if (stillPressing.length > 0) {
  log(
    `${stillPressing.length} players did not stop within 20 s (their clocks: ${stillPressing.slice(0, 10).join(', ')}${stillPressing.length > 10 ? ', …' : ''}); accounting what was pressed`,
  );
}
const pressesMade = clocks.reduce((s, c) => s + c.presses, 0);
// Drained = nothing left in any clock's outbox (every event acknowledged, i.e. journaled),
// then every press at the subscriber. Bounded: two more minutes at most past --minutes.
const drainBound = Math.max(30_000, deadlineReal + 120_000 - monotonicNowMs());
await waitUntil('every clock outbox drained', () => clocks.every((c) => c.link.link.outbox.size === 0), drainBound, true);
await waitUntil(
  'the subscriber to receive every press',
  () => [...fates.values()].every((f) => f.subAtMs !== null),
  Math.max(10_000, deadlineReal + 120_000 - monotonicNowMs()),
  true,
);

// The journal itself, read back: each press exactly once.
const inJournal = new Map<string, number>();
for (let after = 0; ; ) {
  const page = host.journal.eventsAfter(after, 5_000);
  if (page.length === 0) break;
  for (const e of page) {
    after = e.id;
    if (e.type === 'moved' && e.side !== null && e.move !== null) {
      const key = pressKey(e.clockId, e.side, e.move);
      inJournal.set(key, (inJournal.get(key) ?? 0) + 1);
    }
  }
}
let lostJournal = 0;
let dupJournal = 0;
let lostSub = 0;
let dupSub = 0;
for (const key of fates.keys()) {
  const n = inJournal.get(key) ?? 0;
  if (n === 0) lostJournal++;
  if (n > 1) dupJournal += n - 1;
  const s = subPressSeqs.get(key)?.size ?? 0;
  if (s === 0) lostSub++;
  if (s > 1) dupSub += s - 1;
}
const unknownInJournal = [...inJournal.keys()].filter((k) => !fates.has(k)).length;

// The restart, from the journal: every restore-clock (by 'host') and resume (by this arbiter)
// since the restart, per board in play.
const restartLines: string[] = [];
let restartOk = true;
if (restartArbiter) {
  const arb = restartArbiter;
  const since = arb.restartUtcMs;
  const actions = host.journal.arbiterActions().filter((a) => a.utcMs >= since);
  const key = (event: string | null, board: number | null) => `${event}/${board}`;
  const inPlayKeys = new Set(arb.boards.map((b) => key(b.event, b.board)));
  const restores = actions.filter((a) => a.action === 'restore-clock');
  const restoresInPlay = restores.filter((a) => inPlayKeys.has(key(a.event, a.board)));
  const broughtBack = new Set(restoresInPlay.map((a) => key(a.event, a.board)));
  const outcomeOf = (a: (typeof restores)[number]) => ((a.payload ?? {}) as { outcome?: string }).outcome ?? a.outcome;
  const byOutcome = new Map<string, number>();
  for (const a of restoresInPlay) byOutcome.set(outcomeOf(a), (byOutcome.get(outcomeOf(a)) ?? 0) + 1);
  const notOk = restoresInPlay.filter((a) => outcomeOf(a) !== 'in-step' && outcomeOf(a) !== 'restored');
  const withDiffs = restores.filter((a) => {
    const p = (a.payload ?? {}) as { differences?: string[]; mismatches?: string[] };
    return (p.differences?.length ?? 0) > 0 || (p.mismatches?.length ?? 0) > 0;
  });
  const resumes = actions.filter((a) => a.action === 'resume' && a.arbiter === ARBITER);
  const resumedBoards = arb.boards.filter((b) => b.resumedAtMs !== null);
  const notResumed = arb.boards.filter((b) => b.resumedAtMs === null);
  const lastResumed = resumedBoards.reduce((m, b) => Math.max(m, b.resumedAtMs!), arb.restartMs);
  const lastResumedHall = resumedBoards.reduce((m, b) => Math.max(m, b.resumedAtHallMs!), arb.restartHallMs);
  const afterRestart = resumedBoards.map((b) => b.resumedAtMs! - arb.restartMs).sort((a, b) => a - b);
  const noteToResumed = resumedBoards.map((b) => b.resumedAtMs! - b.noteSeenAtMs!).sort((a, b) => a - b);
  const firstNote = arb.boards.reduce((m, b) => (b.noteSeenAtMs === null ? m : Math.min(m, b.noteSeenAtMs)), Infinity);
  const lastNote = arb.boards.reduce((m, b) => (b.noteSeenAtMs === null ? m : Math.max(m, b.noteSeenAtMs)), -Infinity);
  const sec = (x: number) => `${(x / 1000).toFixed(1)} s`;
  const notInPlay = [...notInPlayAtKill].map(([what, n]) => `${n} ${what}`).join(', ') || 'none';
  restartOk = notResumed.length === 0;
  restartLines.push(
    `── host restart: boards in play at the kill ${arb.boards.length} (not in play, not resumed: ${notInPlay})`,
    `   brought back (a restore note since the restart): ${broughtBack.size} of ${arb.boards.length}; restores ${restoresInPlay.length}: ${[...byOutcome].map(([o, n]) => `${o} ${n}`).join(', ') || 'none'}` +
      (restores.length > restoresInPlay.length ? `; ${restores.length - restoresInPlay.length} on boards not in play` : ''),
    `   resumed by the arbiter: ${resumedBoards.length} of ${arb.boards.length} (${resumes.filter((a) => a.outcome === 'applied').length} resumes journaled applied, ${resumes.filter((a) => a.outcome !== 'applied').length} rejected; ${arb.boards.reduce((n, b) => n + b.attempts, 0)} sent; ${arb.resumedUnanswered} found running after an unanswered resume)`,
    `   restart → ${notResumed.length ? `last of ${resumedBoards.length} resumed (NOT all)` : 'all resumed'}: ${sec(lastResumed - arb.restartMs)} real = ${((lastResumedHall - arb.restartHallMs) / 1000).toFixed(0)} hall s at ×${SPEED}` +
      `; restart → resumed p50 ${afterRestart.length ? sec(pct(afterRestart, 50)) : '—'}; first / last note seen ${Number.isFinite(firstNote) ? sec(firstNote - arb.restartMs) : '—'} / ${Number.isFinite(lastNote) ? sec(lastNote - arb.restartMs) : '—'}` +
      `; note → resumed p50 ${ms(pct(noteToResumed, 50))} max ${ms(noteToResumed.at(-1) ?? NaN)}`,
    `   restores not in-step/restored: ${notOk.length}${
      notOk.length
        ? ' — ' +
          notOk
            .slice(0, 10)
            .map((a) => `board ${a.board} clock ${a.clockId} ${outcomeOf(a)}: ${a.reason ?? ''}`)
            .join('; ')
        : ''
    }`,
    `   differences or mismatches: ${withDiffs.length}${
      withDiffs.length
        ? ' — ' +
          withDiffs
            .slice(0, 10)
            .map(
              (a) =>
                `board ${a.board}: ${JSON.stringify({ d: (a.payload as { differences?: string[] }).differences, m: (a.payload as { mismatches?: string[] }).mismatches })}`,
            )
            .join('; ')
        : ''
    }`,
    `   presses on a paused clock ${players.pausedPresses}: taken as a move by a paused clock ${players.pausedPressesAccepted}, moves because the clock was resumed while the key went down ${players.pausedPressesResumedMeanwhile}; press keys made twice ${pressKeysRepeated}`,
    `   the arbiter's reading of board views: ${arb.viewsRead} views in ${arb.polls} passes, ${arb.pollMs.toFixed(0)} ms on the event loop (longest pass ${arb.longestPassMs.toFixed(0)} ms)`,
    ...(notResumed.length
      ? [
          `   NOT resumed: ${notResumed
            .slice(0, 10)
            .map(
              (b) =>
                `${b.id} (${b.note ? `note ${b.note.outcome}` : 'no note since the restart'}${b.lastRefusal ? `; last refusal ${b.lastRefusal}` : ''}; online ${host.host.state.board(b.id)?.clockOnline})`,
            )
            .join('; ')}${notResumed.length > 10 ? '; …' : ''}`,
        ]
      : []),
    ...(hostTrouble.length ? [`   host log on restores (${hostTrouble.length}): ${hostTrouble.slice(0, 10).join(' | ')}`] : []),
  );
}
const missingAnywhere = [...fates.keys()].filter((k) => !inJournal.has(k) || !subPressSeqs.has(k)).length;

log(
  [
    `── accounting (every press the clocks made, against the journal file and the subscriber)`,
    `   presses made ${pressesMade} (${fates.size} distinct), journaled events ${journaledEvents}`,
    `   journal:    lost ${lostJournal}, duplicated ${dupJournal}, not made by any clock ${unknownInJournal}`,
    `   subscriber: lost ${lostSub}, duplicated ${dupSub} (after removing ${subRedelivered} QoS 1 redeliveries of ${subRaw} messages)`,
    `   presses missing anywhere: ${missingAnywhere}`,
    ...(FAULTS ? ['   faults: ' + faultLog.join('; ')] : []),
    ...restartLines,
    `   peak memory rss ${peakRssMb.toFixed(0)} MB, heap ${peakHeapMb.toFixed(0)} MB; load average ${load()}; ${((monotonicNowMs() - startedReal) / 60_000).toFixed(1)} min`,
  ].join('\n'),
);

clearInterval(memTimer);
await host.close();
subscriber.end(true);
await stopBroker(broker);
for (const p of plugs) await unplugPty(p);
for (const c of clocks) await c.stop();
rmSync(dir, { recursive: true, force: true });
const pressesOk =
  lostJournal === 0 && dupJournal === 0 && lostSub === 0 && dupSub === 0 && unknownInJournal === 0 && pressesMade === fates.size && pressKeysRepeated === 0;
const ok = pressesOk && restartOk;
log(
  ok
    ? `OK: every press journaled once and received once${restartArbiter ? `; every board in play resumed after the restart` : ''}`
    : `FAILED: ${[!pressesOk ? 'presses lost or duplicated' : '', !restartOk ? 'boards in play not resumed after the restart' : ''].filter(Boolean).join('; ')} (see above)`,
);
process.exit(ok ? 0 : 1);

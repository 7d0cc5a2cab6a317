// `chessclock hall` (what `npm start` runs, docs/load.md: the main job, on an embedded broker by
// default) as a person starts it: a process that plays the Slovenian women's final on
// simulated clocks, prints the dashboard URL, an arbiter token and the embedded MQTT broker,
// publishes the games' clock events there (docs/mqtt.md topics and payload), accepts the
// printed token, and stops cleanly on Ctrl-C (SIGINT), removing its temporary journal. Bad
// options are refused with the option named (exit status 2). A real clock on a serial port
// (a socat pty pair) takes its table in the hall and its presses are journaled.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT, DEFAULT_SEED, fixtureHall, hallTables, placeRealClocks, startSimulatedHall, type SimulatedHall } from '../hall/simulated-hall.ts';
import { agreedResult } from '../simulator/hall-clocks.ts';
import { knockoutStep, seededLot, type FinishedGame } from '../host/domain/knockout.ts';
import { loadPortsFile } from '../host/clocks/ports-file.ts';
import type { KnockoutPairing } from '../host/domain/model.ts';
import { formatTimeControl, presetTimeControl } from '../protocol/time-control.ts';
import { SimulatedTime } from '../simulator/simulated-time.ts';
import { openPtyPair, ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { SimClock } from './e2e-harness.ts';

const BIN = 'bin/chessclock.mjs';

function linesOf(child: ChildProcess): { out: string[]; waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray> } {
  const out: string[] = [];
  let buf = '';
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    out.push(...parts);
  });
  return {
    out,
    waitFor: (re, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const until = Date.now() + timeoutMs;
        const poll = () => {
          for (const l of out) {
            const m = l.match(re);
            if (m) return resolve(m);
          }
          if (Date.now() > until) return reject(new Error(`no line matching ${re} in:\n${out.join('\n')}`));
          setTimeout(poll, 50);
        };
        poll();
      }),
  };
}

interface EventMessage {
  v: number;
  clockId: string;
  bootId: string;
  seq: number;
  event: string;
  round: number;
  board: number;
  type: string;
}

describe('chessclock hall (npm start)', () => {
  let child: ChildProcess | null = null;
  let sub: mqtt.MqttClient | null = null;
  afterEach(async () => {
    await sub?.endAsync();
    sub = null;
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = null;
  });

  it("plays the Slovenian women's final by default: prints the dashboard, a token and the embedded MQTT broker, publishes the clocks' events there, stops on SIGINT", async () => {
    child = spawn(process.execPath, [BIN, 'hall', '--http', '0', '--speed', '100', '--mqtt-anonymous-read'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const io = linesOf(child);
    const url = (await io.waitFor(/^dashboard:\s+(http:\/\/127\.0\.0\.1:\d+)\/$/))[1];
    const token = (await io.waitFor(/^arbiter token:\s+(\S+)/))[1];
    const journal = (await io.waitFor(/journal (\S+)$/))[1];
    const broker = (await io.waitFor(/^MQTT:\s+(mqtt:\/\/127\.0\.0\.1:\d+)\s+topics chessclock\/v1\/#/))[1];
    expect(existsSync(journal)).toBe(true);

    // Subscribe at once (docs/mqtt.md: chessclock/v1/<event>/<round>/<board>/events, QoS 1).
    const received: EventMessage[] = [];
    sub = await mqtt.connectAsync(broker, { clientId: `hall-cli-test-${process.pid}` });
    sub.on('message', (topic, payload) => {
      if (topic.endsWith('/events')) received.push({ ...(JSON.parse(payload.toString()) as EventMessage), topic } as EventMessage & { topic: string });
    });
    await sub.subscribeAsync('chessclock/v1/+/+/+/events', { qos: 1 });

    // The page and the two semifinal boards of the women's final (tables 1-2), one simulated clock each.
    expect((await fetch(`${url}/`)).status).toBe(200);
    let boards: Array<{ id: string; event: string; board: number; clockId: string | null; clockOnline?: boolean }> = [];
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      boards = ((await (await fetch(`${url}/api/boards`)).json()) as { boards: typeof boards }).boards;
      if (boards.filter((b) => b.clockOnline).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(boards.map((b) => [b.event, b.board, b.clockId, b.clockOnline])).toEqual([
      [DEFAULT_EVENT, 1, 'sim-1', true],
      [DEFAULT_EVENT, 2, 'sim-2', true],
    ]);
    // The printed token is an arbiter's (writes need it: docs/api.md).
    expect((await fetch(`${url}/api/arbiter`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/api/arbiter`, { headers: { authorization: 'Bearer not-the-token-0000000' } })).status).toBe(401);

    // Both games start and the players press: their events arrive at the subscriber, on the
    // board's topic, with the journal's key (clockId, bootId, seq).
    const arrived = () => new Set(received.filter((m) => m.type === 'moved').map((m) => m.clockId));
    const deadline = Date.now() + 30_000;
    while (arrived().size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect([...arrived()].sort()).toEqual(['sim-1', 'sim-2']);
    for (const m of received) {
      expect(m).toMatchObject({ v: 1, event: DEFAULT_EVENT, round: 1 });
      expect((m as EventMessage & { topic: string }).topic).toBe(`chessclock/v1/${DEFAULT_EVENT}/1/${m.board}/events`);
      expect(m.clockId).toBe(`sim-${m.board}`);
    }
    const journaled = ((await (await fetch(`${url}/api/events?limit=1000`)).json()) as { events: Array<{ clockId: string; bootId: string; seq: number }> })
      .events;
    const keys = new Set(journaled.map((e) => `${e.clockId}/${e.bootId}/${e.seq}`));
    for (const m of received) expect(keys.has(`${m.clockId}/${m.bootId}/${m.seq}`)).toBe(true);

    await sub.endAsync();
    sub = null;
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(dirname(journal))).toBe(false); // the temporary journal is gone
  }, 60_000);

  it('refuses bad options, naming them', () => {
    const cases: Array<[string[], string]> = [
      [['--speed', 'fast'], '--speed fast: expected a number > 0'],
      [['--token', 'nosecret'], '--token'],
      [['--event', 'slo-w-2008'], '--event slo-w-2008: no such event (events: slo-w-2007, slo-open-2007, ivanovo-2018, or all)'],
      [['--mqtt', 'ftp://broker'], '--mqtt "ftp://broker": unsupported scheme'],
      [['--ports', '/nonexistent/ports.json'], '/nonexistent/ports.json: cannot read'],
      [['--tournament', '/nonexistent/hall.json'], '/nonexistent/hall.json'],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [BIN, 'hall', ...args], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // Six processes in a row, each loading the TypeScript sources: ~3-5 s apiece on a loaded 2-core machine.
  }, 120_000);
});

describe("the hall's tournament and tables", () => {
  it("default: the Slovenian women's final alone (2 semifinal tables); --event all: every fixture event side by side (11 tables)", () => {
    const def = fixtureHall();
    expect(def.events.map((e) => e.id)).toEqual(['slo-w-2007']);
    expect(hallTables(def)).toBe(2);
    const all = fixtureHall(['all']);
    expect(all.events.map((e) => [e.id, e.hallFirstTable])).toEqual([
      ['slo-w-2007', 1],
      ['slo-open-2007', 3],
      ['ivanovo-2018', 4],
    ]);
    expect(hallTables(all)).toBe(11);
    // A comma list in the order given, laid out from table 1.
    const two = fixtureHall(['ivanovo-2018,slo-open-2007']);
    expect(two.events.map((e) => [e.id, e.hallFirstTable])).toEqual([
      ['ivanovo-2018', 1],
      ['slo-open-2007', 9],
    ]);
    expect(hallTables(two)).toBe(9);
  });

  it('the default seed sends a semifinal and the final to the tie-breaks (Slovenian final art. 3: tied after 2 classical games → 2 rapid games → armageddon), top seeds through', () => {
    // Replays the results the players agree on (stream = table − 1, game by game at the
    // table) through the director's own knockout rules and the event's lot.
    const event = fixtureHall().events[0];
    const lot = seededLot(event.knockout!.seed!);
    const play = (table: number, matchId: string, players: [number, number], firstWhite: number | null, firstGame: number) => {
      const done: FinishedGame[] = [];
      for (;;) {
        const step = knockoutStep({ matchId, players, firstWhite, rules: event.knockout!, eventTimeControl: event.timeControl }, done, lot);
        if (step.status === 'decided') return { winner: step.winner, decidedBy: step.decidedBy, games: done.length };
        const n = step.next;
        done.push({
          gameNo: n.gameNo,
          stage: n.stage,
          white: n.white,
          black: n.black,
          result: agreedResult(DEFAULT_SEED, table - 1, firstGame + done.length),
          endedUtcMs: 0,
        });
      }
    };
    const [r1, r2] = event.rounds;
    const ranks = (k: KnockoutPairing): [number, number] => {
      const [a, b] = k.players;
      if (!('rank' in a) || !('rank' in b)) throw new Error(`semifinal board ${k.board} should be paired by starting rank`);
      return [a.rank, b.rank];
    };
    const semi = (board: number) => r1.knockout.find((k) => k.board === board)!;
    const s1 = play(1, `${DEFAULT_EVENT}/r1/b1`, ranks(semi(1)), semi(1).firstWhite, 1);
    const s2 = play(2, `${DEFAULT_EVENT}/r1/b2`, ranks(semi(2)), semi(2).firstWhite, 1);
    expect(s1).toEqual({ winner: 1, decidedBy: 'rapid', games: 4 });
    expect(s2).toEqual({ winner: 2, decidedBy: 'classical', games: 2 });
    // The fixture's final is the winners of the semifinals (art. 3, knockout); the director
    // resolves the references in this order. Table 1's clock plays it.
    const fin = r2.knockout[0];
    expect(fin.players).toEqual([{ winnerOf: { round: 1, board: 1 } }, { winnerOf: { round: 1, board: 2 } }]);
    expect(play(1, `${DEFAULT_EVENT}/r2/b1`, [s1.winner, s2.winner], fin.firstWhite, 1 + s1.games).decidedBy).toBe('armageddon');
  });

  it('real clocks: a ports-file entry keeps its table; --port takes the lowest free one; the simulated clocks get the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hall-ports-'));
    try {
      const file = join(dir, 'ports.json');
      writeFileSync(
        file,
        JSON.stringify([
          { path: '/dev/ttyUSB0', table: 1 },
          { serial: 'CLK-7', table: 3 },
        ]),
      );
      const placed = placeRealClocks(loadPortsFile(file), ['/dev/ttyACM0', '/dev/ttyACM1']);
      expect(placed.lines).toEqual([
        { path: '/dev/ttyUSB0', table: 1 },
        { path: '/dev/ttyACM0', table: 2 },
        { path: '/dev/ttyACM1', table: 4 },
      ]);
      expect([...placed.bySerial]).toEqual([['CLK-7', 3]]);
      expect([...placed.taken].sort()).toEqual([1, 2, 3, 4]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const ptySkip = ptySkipReason();
if (ptySkip) console.warn(ptySkip);

describe.skipIf(ptySkip !== null)('chessclock hall with a real clock on a serial port (socat pty pair)', () => {
  let hall: SimulatedHall | null = null;
  let pty: PtyPair | null = null;
  let far: SimClock | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await hall?.close();
    far?.stop();
    await pty?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    hall = pty = far = dir = null;
  });

  it('the clock on the port (ports file, table 2) plays board 2, the simulated clock board 1; its presses are journaled', async () => {
    pty = await openPtyPair();
    // The far end: a simulated clock (firmware on a virtual board) opening its end with serialport.
    const sim = new SimulatedTime(0);
    far = await SimClock.boot('CLK-PTY-1', sim, presetTimeControl('rapid'));
    await far.connectPty(pty.b);
    dir = mkdtempSync(join(tmpdir(), 'hall-pty-'));
    writeFileSync(join(dir, 'ports.json'), JSON.stringify([{ path: pty.a, table: 2 }]));
    hall = await startSimulatedHall({ portEntries: loadPortsFile(join(dir, 'ports.json')), mqtt: 'none', listen: { host: '127.0.0.1', port: 0 }, speed: 20 });

    expect(hall.clocks.clocks.map((c) => [c.serialId, hall!.tableOf.get(c.serialId)])).toEqual([['sim-1', 1]]);
    const boardAt = (n: number) => hall!.host.state.boards().find((b) => b.event === DEFAULT_EVENT && b.board === n);
    const deadline = Date.now() + 15_000;
    while (!(boardAt(2)?.clockOnline && boardAt(1)?.clockOnline) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect([boardAt(1)?.clockId, boardAt(2)?.clockId]).toEqual(['sim-1', 'CLK-PTY-1']);
    // The host configured the real clock for its semifinal game (classical, Slovenian final art. 3).
    while (formatTimeControl(far.clock.firmware.state().timeControl) !== formatTimeControl(presetTimeControl('classical')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(formatTimeControl(far.clock.firmware.state().timeControl)).toBe(formatTimeControl(presetTimeControl('classical')));

    // The arbiter starts it; the players press three times each.
    await far.clock.tap('startPause');
    for (let i = 0; i < 3; i++) {
      for (const side of ['white', 'black'] as const) {
        sim.advanceBy(30_000);
        await far.press(side);
      }
    }
    const game = hall.journal.gamesByBoard(DEFAULT_EVENT, 1, 2)[0];
    expect(game.clockId).toBe('CLK-PTY-1');
    const moved = () => hall!.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
    while (moved().length < 6 && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(moved().map((e) => [e.clockId, e.side, e.move])).toEqual([
      ['CLK-PTY-1', 'white', 1],
      ['CLK-PTY-1', 'black', 1],
      ['CLK-PTY-1', 'white', 2],
      ['CLK-PTY-1', 'black', 2],
      ['CLK-PTY-1', 'white', 3],
      ['CLK-PTY-1', 'black', 3],
    ]);
  }, 40_000);
});

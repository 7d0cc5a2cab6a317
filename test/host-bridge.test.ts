// The host's serial bridge: acknowledgement only after the journal write (docs/host.md "What is journaled,
// and when"), arbiter commands refused whole when the clock is offline or says no, the
// clock-time → UTC mapping and its bound, the backoff, the ports file.
import { afterEach, describe, expect, it } from 'vitest';
import { TimeSyncEstimator, type MemoryOutboxStore } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { backoffDelayMs } from '../host/clocks/session.machine.ts';
import { clockInstantToUtc, UNSYNCED_UNCERTAINTY_MS } from '../host/clocks/clock-event.ts';
import { ClockRefusedError } from '../host/clocks/clock-session.ts';
import { parsePortsFile } from '../host/clocks/ports-file.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import { ARBITER, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, sleep, waitFor } from './e2e-harness.ts';
import { journalSql } from '../host/store/journal-sql.fixture.ts';

const moved = (rig: MatchRig) => rig.journal.eventsAfter(0, 10_000).filter((e) => e.type === 'moved');

describe('bridge: a clock event is acknowledged only after it is durable in the journal', () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('a failed journal write closes the line unacknowledged; the clock keeps the press and it is journaled once later (commit on the event loop)', async () => {
    rig = await buildRig({ writerThread: false });
    await configuredFor(rig, 1);
    const c = rig.clocks[0];
    await c.clock.tap('startPause');
    await waitFor('the start journaled', () => rig!.journal.eventsAfter(0, 100).some((e) => e.type === 'started'), 10_000, flowing(rig.sim));
    // The disk refuses writes (a real SQLite failure: the connection is read-only).
    journalSql(rig.journal).pragma('query_only = ON');
    rig.sim.advanceBy(5_000);
    await c.press('white');
    const session = rig.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('the host to drop the line', () => !session.online || session.connections > 1, 10_000, flowing(rig.sim, 5));
    // Not journaled, so not acknowledged: still in the clock's persisted outbox.
    expect(moved(rig)).toHaveLength(0);
    expect(JSON.stringify((c.outbox as MemoryOutboxStore).saved?.entries ?? [])).not.toBe('[]');
    journalSql(rig.journal).pragma('query_only = OFF');
    await waitFor('the press journaled after the reconnect', () => moved(rig!).length === 1, 15_000, flowing(rig.sim, 5));
    await sleep(300);
    expect(moved(rig)).toHaveLength(1);
    expect(session.connections).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('writer thread: a commit that fails on the writer thread acknowledges nothing, closes the line, reports it, and the press is journaled once after the reconnect', async () => {
    rig = await buildRig({ writerThread: true });
    await configuredFor(rig, 1);
    const c = rig.clocks[0];
    await c.clock.tap('startPause');
    await waitFor('the start journaled', () => rig!.journal.eventsAfter(0, 100).some((e) => e.type === 'started'), 10_000, flowing(rig.sim));
    // The writer thread's own connection meets a real SQLite failure at its next insert (a trigger
    // that aborts it, made here: the schema change reaches the writer's connection).
    journalSql(rig.journal).exec(`CREATE TRIGGER refuse_events BEFORE INSERT ON clock_events BEGIN SELECT RAISE(ABORT, 'the writer refuses'); END`);
    const failures: string[] = [];
    const appendInBackground = rig.host.state.appendInBackground.bind(rig.host.state);
    rig.host.state.appendInBackground = (items) => {
      const out = appendInBackground(items);
      out.durable.catch((err: Error) => failures.push(err.message));
      return out;
    };
    rig.sim.advanceBy(5_000);
    await c.press('white');
    const session = rig.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('the host to drop the line', () => !session.online || session.connections > 1, 10_000, flowing(rig.sim, 5));
    expect(failures.join()).toMatch(/the writer refuses/);
    // Not journaled, so not acknowledged: still in the clock's persisted outbox; the game as it was.
    expect(moved(rig)).toHaveLength(0);
    expect(JSON.stringify((c.outbox as MemoryOutboxStore).saved?.entries ?? [])).not.toBe('[]');
    journalSql(rig.journal).exec('DROP TRIGGER refuse_events');
    await waitFor('the press journaled after the reconnect', () => moved(rig!).length === 1, 15_000, flowing(rig.sim, 5));
    await waitFor('acknowledged', () => c.clockLink.pending() === 0, 10_000, flowing(rig.sim, 5));
    expect(moved(rig)).toHaveLength(1);
    expect(session.connections).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('group commit: events of several clocks that arrive in one event-loop turn are journaled in one transaction, and each is acknowledged only after it', async () => {
    rig = await buildRig();
    await configuredFor(rig, 1, 1);
    await configuredFor(rig, 1, 2);
    const batches: { size: number; unackedAtCommit: number[] }[] = [];
    const appendInBackground = rig.journal.appendInBackground.bind(rig.journal);
    rig.journal.appendInBackground = (items) => {
      const out = appendInBackground(items);
      return {
        results: out.results,
        // Durable here (the writer thread's commit answered): what the clocks still wait an ack for, at this instant.
        durable: out.durable.then(() => void batches.push({ size: items.length, unackedAtCommit: rig!.clocks.map((c) => c.clockLink.pending()) })),
      };
    };
    await Promise.all(rig.clocks.map((c) => c.clock.tap('startPause')));
    await waitFor('both starts journaled', () => rig!.journal.eventsAfter(0, 100).filter((e) => e.type === 'started').length === 2, 10_000, flowing(rig.sim));
    rig.sim.advanceBy(2_000);
    // Both clocks press in the same turn: their frames reach the host in one turn.
    await Promise.all(rig.clocks.map((c) => c.press('white')));
    await waitFor('both presses journaled', () => moved(rig!).length === 2, 10_000, flowing(rig.sim));
    await waitFor('both acknowledged', () => rig!.clocks.every((c) => c.clockLink.pending() === 0), 10_000, flowing(rig.sim));
    // One transaction held both presses, and neither clock had its ack before it committed.
    const both = batches.filter((b) => b.size === 2);
    expect(both.length).toBeGreaterThanOrEqual(1);
    for (const b of both) expect(b.unackedAtCommit.every((n) => n > 0)).toBe(true);
    expect(
      moved(rig)
        .map((e) => e.clockId)
        .sort(),
    ).toEqual(['CLK-01', 'CLK-02']);
  }, 30_000);

  it('an arbiter command to an offline clock is refused whole (503), journaled with who asked, nothing changed', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1);
    const c = rig.clocks[0];
    await c.clock.tap('startPause');
    rig.sim.advanceBy(3_000);
    await c.press('white');
    await waitFor('the press journaled', () => moved(rig!).length === 1, 10_000, flowing(rig.sim));
    c.unplugMemory();
    const session = rig.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('offline', () => !session.online);
    const out = await rig.host.execute({ type: 'pause', boardId: boardId(rig) }, { arbiter: ARBITER });
    expect(out).toMatchObject({ ok: false, status: 503 });
    expect(out.ok ? '' : out.reason).toMatch(/CLK-01.*offline/);
    expect(rig.journal.arbiterActions(game.gameId).at(-1)).toMatchObject({ action: 'pause', arbiter: ARBITER, outcome: 'rejected' });
    expect(c.clock.firmware.reading().status).toBe('running'); // the clock was not paused
  }, 30_000);

  it('docs/architecture.md rule 10: a Configure the clock refuses (running) is a ClockRefusedError with its reason; the clock keeps its game', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1);
    const c = rig.clocks[0];
    await c.clock.tap('startPause');
    const session = rig.host.sessionOf('CLK-01')!;
    const err = await session.request(rig.host.configureBody(game)).catch((e) => e);
    expect(err).toBeInstanceOf(ClockRefusedError);
    expect((err as Error).message).toMatch(/running/);
    expect(c.clock.firmware.reading().status).toBe('running');
  }, 30_000);

  it('an arbiter Configure before the start changes the clock and the journaled game alike; after the start it is refused whole', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1);
    const c = rig.clocks[0];
    const rapid = presetTimeControl('rapid');
    const out = await rig.host.execute({ type: 'configure', boardId: boardId(rig), timeControl: rapid }, { arbiter: ARBITER });
    expect(out).toMatchObject({ ok: true });
    // The journal describes what the clock now plays: exports and replays use it.
    expect(rig.journal.getGame(game.gameId)).toMatchObject({ timeControl: '900+10' });
    expect(c.clock.firmware.state().timeControl).toEqual(rapid);
    await c.clock.tap('startPause');
    await waitFor('the start journaled', () => rig!.journal.eventsAfter(0, 100).some((e) => e.type === 'started'), 10_000, flowing(rig.sim));
    const again = await rig.host.execute({ type: 'configure', boardId: boardId(rig), timeControl: presetTimeControl('classical') }, { arbiter: ARBITER });
    expect(again).toMatchObject({ ok: false, status: 409 });
    expect(rig.journal.getGame(game.gameId)).toMatchObject({ timeControl: '900+10' });
    expect(c.clock.firmware.state().timeControl).toEqual(rapid);
  }, 30_000);
});

describe('bridge: clock time → UTC', () => {
  it('maps a clock instant through the sync estimate within the bound it journals (offset 5 s, 40 ppm drift)', () => {
    const est = new TimeSyncEstimator();
    const ref = { hostMs: 0, utcMs: Date.UTC(2018, 3, 20, 9, 0) };
    const clockOf = (h: number) => h + 5_000 + h * 40e-6;
    for (let h = 0; h <= 60_000; h += 250) {
      const d = 3 + (h % 7); // one-way delay ms
      est.addSample({ t1: h, t2: Math.floor(clockOf(h + d)), t3: Math.floor(clockOf(h + d)), t4: h + 2 * d });
    }
    for (const hostMs of [10_000, 45_123, 90_000 /* 30 s past the fitted span */]) {
      const at = clockInstantToUtc(est, Math.round(clockOf(hostMs)), ref, hostMs + 20);
      expect(Math.abs(at.utcMs - (ref.utcMs + hostMs))).toBeLessThanOrEqual(at.uncertaintyMs);
      expect(at.uncertaintyMs).toBeLessThan(50);
    }
  });

  it('without any exchange with that boot: the arrival time (an upper bound) and the "unsynced" marker', () => {
    const ref = { hostMs: 1_000, utcMs: Date.UTC(2007, 7, 16) };
    expect(clockInstantToUtc(null, 123, ref, 4_000)).toEqual({ utcMs: Date.UTC(2007, 7, 16) + 3_000, uncertaintyMs: UNSYNCED_UNCERTAINTY_MS });
  });

  it('host UTC is one anchored line: monotonic time plus the wall clock read once', () => {
    let mono = 500;
    const clock = new AnchoredClock({ now: () => mono, setTimer: () => ({}), clearTimer: () => {} }, { hostMs: 500, utcMs: 1_000_000 });
    mono = 2_750;
    expect(clock.nowUtcMs()).toBe(1_002_250);
    expect(clock.reanchor({ hostMs: 2_750, utcMs: 1_002_300 })).toBe(50);
    expect(clock.nowUtcMs()).toBe(1_002_300);
  });
});

describe('bridge: reconnect backoff and the ports file', () => {
  it('reconnect delays double from the first and stop at the ceiling', () => {
    const b = { initialMs: 250, maxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelayMs(b, n))).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('ports file entries by path or by clock serial; errors name the entry and field', () => {
    expect(parsePortsFile('[{"path":"/dev/ttyUSB0","table":1},{"serial":"CLK-7","table":2}]')).toEqual([
      { path: '/dev/ttyUSB0', serial: undefined, table: 1 },
      { path: undefined, serial: 'CLK-7', table: 2 },
    ]);
    expect(() => parsePortsFile('[{"path":"/dev/ttyUSB0","table":0}]', 'ports.json')).toThrow(
      'ports.json: entry [0].table: expected a whole number ≥ 1, got 0',
    );
    expect(() => parsePortsFile('[{"table":3}]', 'ports.json')).toThrow('ports.json: entry [0]: needs "path" or "serial"');
    expect(() => parsePortsFile('[{"path":"a","table":1},{"path":"b","table":1}]', 'p')).toThrow('p: entry [1].table: table 1 is already given to a');
    expect(() => parsePortsFile('{"path":"a"}', 'p')).toThrow(/expected a JSON array/);
    expect(() => parsePortsFile('[{"path":"a","tabel":1}]', 'p')).toThrow('p: entry [0]: unknown field "tabel" (known: path, serial, table)');
  });
});

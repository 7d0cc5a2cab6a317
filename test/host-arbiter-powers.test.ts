// The arbiter's powers over the real Host, to simulated clocks running the real firmware on
// in-memory lines (protocol 1.1): a take-back (FIDE Laws 7.5.1 with 6.10.2), the quickplay
// increment (Guidelines III.4), an arrival and a reinstated forfeit (Laws 6.7.1) with the
// default time counted from the round's start. Each goes API → Host → Command → clock →
// ClockEvent → journal (with the arbiter's name), and `chessclock host --replay` (replay-log)
// run through the clock's statechart (firmware-ts/replay.ts) gives the clock's own times.
// An older clock (protocol 1.0) is refused the new commands by the host, saying why.
import { afterEach, describe, expect, it } from 'vitest';
import { ARBITER, TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { Cable, flowing, waitFor } from './e2e-harness.ts';
import { replayLines } from '../host/adapters/exports/replay-log.ts';
import { replayText } from '../firmware-ts/replay.ts';
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { MemoryOutboxStore, systemTime } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import type { ClockEventRow } from '../host/store/journal.ts';

const auth = { authorization: `Bearer ${TOKEN}` };
const EVENT = 'slo-w-2007';

type Out = { t: number; type: string; [k: string]: unknown };
const replayOf = (rig: MatchRig, gameId: number): Out[] => replayText(replayLines(rig.journal, gameId).join('\n') + '\n').map((l) => JSON.parse(l) as Out);

function powers(rig: MatchRig, board: number) {
  const id = boardId(rig, board);
  const post = (path: string, payload?: object) =>
    rig.api.inject({ method: 'POST', url: `/api/boards/${id}/${path}`, headers: auth, ...(payload ? { payload } : {}) });
  const events = (gameId: number, type: string): ClockEventRow[] => rig.journal.eventsByGame(gameId).filter((e) => e.type === type);
  /** Waits (simulated time flowing) until the journal holds `n` events of `type` for the game. */
  const journaled = (gameId: number, type: string, n = 1) =>
    waitFor(`${n} ${type} journaled`, () => events(gameId, type).length >= n, 10_000, flowing(rig.sim));
  return { id, post, events, journaled };
}

describe("the arbiter's powers through the host to the clock (protocol 1.1)", () => {
  let rig: MatchRig | null = null;
  const extra: Array<{ stop(): void }> = [];
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    for (const x of extra.splice(0)) x.stop();
  });

  it("FIDE Laws 7.5.1 with 6.10.2 and Guidelines III.4: the arbiter takes a move back and sets a quickplay increment; journaled with the arbiter; --replay gives the clock's times", async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const clock = r.clocks[0];
    const fw = clock.clock.firmware;
    const { post, events, journaled } = powers(r, 1);

    expect((await post('start')).statusCode).toBe(200);
    await journaled(game.gameId, 'started');
    r.sim.advanceBy(5000);
    await clock.press('white');
    r.sim.advanceBy(4000);
    await clock.press('black');
    r.sim.advanceBy(3000);
    await clock.press('white'); // the illegal move
    await journaled(game.gameId, 'moved', 3);

    // Corrections are made with the clock stopped: refused while it runs, journaled as refused.
    const running = await post('takeback');
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toMatch(/is running: only a paused or flagged clock can take a move back/);
    expect((await post('increment', { ms: 5000 })).statusCode).toBe(409);
    expect(r.journal.arbiterActions(game.gameId).filter((a) => a.action === 'takeback')).toEqual([
      expect.objectContaining({ arbiter: ARBITER, outcome: 'rejected' }),
    ]);

    r.sim.advanceBy(2000);
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused');
    const tb = await post('takeback');
    expect(tb.statusCode, tb.body).toBe(200);
    await journaled(game.gameId, 'taken-back');
    const after = fw.reading();
    // White's second move is annulled: White is on move again with the times of that press (docs/replay.md "Take-back").
    expect(after).toMatchObject({ status: 'paused', turn: 'white', moves: { white: 1, black: 1 } });
    expect(events(game.gameId, 'taken-back')[0]).toMatchObject({
      side: 'white',
      move: 1,
      whiteMs: after.white,
      blackMs: after.black,
      detail: { period: 0, illegalMoves: 1 },
    });
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => a.action === 'takeback')
        .at(-1),
    ).toMatchObject({ arbiter: ARBITER, outcome: 'applied', clockId: 'CLK-01' });
    expect(r.host.state.board(boardId(r, 1))!.live).toMatchObject({
      status: 'paused',
      turn: 'white',
      moves: { white: 1, black: 1 },
      illegalMoves: { white: 1, black: 0 },
      whiteMs: after.white,
      blackMs: after.black,
    });

    // FIDE Guidelines III.4: 5 s for both after every later move.
    const inc = await post('increment', { ms: 5000 });
    expect(inc.statusCode, inc.body).toBe(200);
    await journaled(game.gameId, 'increment-set');
    expect(fw.state().extraIncrementMs).toBe(5000);
    expect(events(game.gameId, 'increment-set')[0].detail).toEqual({ ms: 5000 });
    expect(r.journal.arbiterActions(game.gameId).filter((a) => a.action === 'increment')).toEqual([
      expect.objectContaining({ outcome: 'rejected' }),
      expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', payload: { ms: 5000 } }),
    ]);
    expect(r.host.state.board(boardId(r, 1))!.live!.incrementMs).toBe(5000);

    // Play goes on; then the dispute is replayed from the journal.
    expect((await post('resume')).statusCode).toBe(200);
    await journaled(game.gameId, 'resumed');
    r.sim.advanceBy(6000);
    await clock.press('white');
    r.sim.advanceBy(7000);
    await clock.press('black');
    await journaled(game.gameId, 'moved', 5);
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused', 2);

    const lines = replayLines(r.journal, game.gameId).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.type === 'takeback' || l.type === 'increment')).toEqual([
      { t: expect.any(Number), type: 'takeback' },
      { t: expect.any(Number), type: 'increment', ms: 5000 },
    ]);
    const out = replayOf(r, game.gameId);
    expect(out.filter((o) => o.type === 'rejected')).toEqual([]);
    // Every press, the take-back and the end state: the clock's own figures.
    expect(out.filter((o) => o.type === 'move').map((o) => [o.side, o.move, o.white, o.black])).toEqual(
      events(game.gameId, 'moved').map((e) => [e.side, e.move, e.whiteMs, e.blackMs]),
    );
    const taken = events(game.gameId, 'taken-back')[0];
    expect(out.find((o) => o.type === 'takeback')).toMatchObject({ side: 'white', move: 1, white: taken.whiteMs, black: taken.blackMs });
    const end = fw.reading();
    expect(out.at(-1)).toMatchObject({ type: 'state', status: 'paused', white: end.white, black: end.black, moves: end.moves });
  }, 30_000);

  it("FIDE Laws 6.7.1: default time from the round's start for a board started late, an arrival marked by the arbiter, a forfeit reinstated; --replay gives the same forfeit and times", async () => {
    rig = await buildRig();
    const r = rig;
    await configuredFor(r, 1, 1);
    const game = await configuredFor(r, 1, 2);
    const b2 = powers(r, 2);
    // Board 2 plays 15 min + 10 s with one minute of allowed lateness.
    const cfg = await r.api.inject({ method: 'PUT', url: `/api/boards/${b2.id}/config`, headers: auth, payload: { timeControl: '900+10', defaultTime: 60 } });
    expect(cfg.statusCode, cfg.body).toBe(200);
    const fw = r.clocks[1].clock.firmware;
    expect(fw.state().timeControl.defaultTimeMs).toBe(60_000);

    // Board 2's clock is away when the round starts: it is skipped; board 1 starts the session.
    const session2 = r.host.lines().find((s) => s.key === 'memory:table-2')!;
    r.clocks[1].unplugMemory();
    await waitFor('clock 2 offline', () => !session2.online);
    const sessionUtcMs = r.hostClock.nowUtcMs();
    const round = await r.api.inject({ method: 'POST', url: `/api/events/${EVENT}/rounds/1/start`, headers: auth });
    expect(round.json()).toMatchObject({ started: [boardId(r, 1)], skipped: [{ boardId: b2.id }] });
    const g1 = r.journal.gamesByBoard(EVENT, 1, 1)[0];
    expect(r.journal.arbiterActions(g1.gameId).find((a) => a.action === 'start' && a.outcome === 'applied')!.payload).toEqual({ sessionUtcMs });

    // 20 s later it is back (the host sets it up again for the game), and White is there.
    r.sim.advanceBy(20_000);
    const configured = () => r.journal.arbiterActions(game.gameId).filter((a) => a.action === 'configure-clock' && a.outcome === 'applied').length;
    const before = configured();
    r.clocks[1].plugMemory();
    await waitFor('clock 2 set up again', () => session2.online && configured() > before, 10_000);
    const arrive = await b2.post('arrive', { side: 'white' });
    expect(arrive.statusCode, arrive.body).toBe(200);
    await b2.journaled(game.gameId, 'arrived');
    expect(b2.events(game.gameId, 'arrived')[0].side).toBe('white');
    expect(r.journal.arbiterActions(game.gameId).filter((a) => a.action === 'arrive')).toEqual([
      expect.objectContaining({ arbiter: ARBITER, outcome: 'applied', payload: { side: 'white' } }),
    ]);

    // The board starts now, but its default time counts from the round's start (journaled with it).
    const start = await b2.post('start');
    expect(start.statusCode, start.body).toBe(200);
    await b2.journaled(game.gameId, 'started');
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => a.action === 'start')
        .at(-1),
    ).toMatchObject({ arbiter: ARBITER, outcome: 'applied', payload: { sessionUtcMs } });
    const started = b2.events(game.gameId, 'started')[0];
    const elapsed = started.detail!.sessionElapsedMs as number;
    expect(elapsed).toBeGreaterThanOrEqual(20_000);
    expect(fw.state().startedAt).toBe(started.monoMs - elapsed);
    expect(Math.abs(r.host.state.board(b2.id)!.live!.sessionAtUtcMs! - sessionUtcMs)).toBeLessThanOrEqual(50);

    // Black never comes: lost by default one minute after the round's start, not after the board's.
    await waitFor('the forfeit', () => b2.events(game.gameId, 'forfeit').length > 0, 10_000, flowing(r.sim, 200));
    const forfeit = b2.events(game.gameId, 'forfeit')[0];
    expect(forfeit).toMatchObject({ side: 'black', monoMs: started.monoMs - elapsed + 60_000 });
    expect(r.host.state.board(b2.id)!.live!.status).toBe('forfeited');

    // The arbiter decides otherwise: reinstated, paused, everyone present.
    const re = await b2.post('reinstate');
    expect(re.statusCode, re.body).toBe(200);
    await b2.journaled(game.gameId, 'reinstated');
    expect(fw.reading().status).toBe('paused');
    expect(r.journal.arbiterActions(game.gameId).filter((a) => a.action === 'reinstate')).toEqual([
      expect.objectContaining({ arbiter: ARBITER, outcome: 'applied' }),
    ]);
    expect(r.host.state.board(b2.id)!.live).toMatchObject({ status: 'paused', present: { white: true, black: true } });
    expect((await b2.post('reinstate')).statusCode).toBe(409); // nothing left to reinstate

    const lines = replayLines(r.journal, game.gameId).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.type === 'start')).toEqual({ t: elapsed, type: 'start', session: 0 });
    const out = replayOf(r, game.gameId);
    const origin = started.monoMs - elapsed;
    expect(out.find((o) => o.type === 'forfeit')).toEqual({ t: forfeit.monoMs - origin, type: 'forfeit', side: 'black' });
    const reinstated = b2.events(game.gameId, 'reinstated')[0];
    expect(out.find((o) => o.type === 'reinstated')).toEqual({
      t: reinstated.monoMs - origin,
      type: 'reinstated',
      white: reinstated.whiteMs,
      black: reinstated.blackMs,
    });
    expect(out.at(-1)).toMatchObject({ type: 'state', status: 'paused', white: fw.reading().white, black: fw.reading().black });
  }, 30_000);

  it('a clock whose firmware speaks protocol 1.0 is refused the new commands by the host, saying why; nothing changes on it', async () => {
    let old: { clock: VirtualClock; link: ClockLink; cable: Cable } | null = null;
    rig = await buildRig({
      wire: async (rg, c, table) => {
        if (table !== 1) return void rg.host.addLine(`memory:table-${table}`, c.memoryLine(), { table });
        // The clock at table 1 announces protocol 1.0 in its Hello (an older firmware).
        const clock = await VirtualClock.boot({ timeControl: presetTimeControl('rapid'), time: rg.sim, snapshots: memorySnapshotStore() });
        const cable = new Cable('CLK-OLD');
        const link = linkClockToHost(clock.firmware, cable, {
          serialId: 'CLK-OLD',
          bootId: 0x01d,
          outboxStore: new MemoryOutboxStore(),
          timers: systemTime,
          statusIntervalMs: 200,
          protocolVersion: { major: 1, minor: 0 },
        });
        old = { clock, link, cable };
        extra.push({ stop: () => (link.close('test over'), cable.detach(), clock.stop()) });
        rg.host.addLine('memory:table-1', cable.memoryLine(), { table: 1 });
      },
    });
    const r = rig;
    let game = r.journal.gamesByBoard(EVENT, 1, 1)[0];
    await waitFor('the old clock set up', () => {
      game = r.journal.gamesByBoard(EVENT, 1, 1)[0];
      return !!game && r.journal.arbiterActions(game.gameId).some((a) => a.action === 'configure-clock' && a.outcome === 'applied');
    });
    const fw = old!.clock.firmware;
    const { post, journaled } = powers(r, 1);
    expect((await post('start')).statusCode).toBe(200);
    await journaled(game.gameId, 'started');
    expect((await post('pause')).statusCode).toBe(200);
    await journaled(game.gameId, 'paused');
    const was = fw.reading();
    for (const [path, payload, what] of [
      ['takeback', undefined, 'take-back'],
      ['increment', { ms: 5000 }, 'the quickplay increment'],
      ['arrive', { side: 'black' }, 'marking an arrival'],
    ] as const) {
      const res = await post(path, payload);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().message).toBe(
        `clock CLK-OLD of board 1 of ${EVENT} round 1: its firmware speaks protocol 1.0: ${what} needs 1.1 (update the clock firmware); nothing was changed`,
      );
    }
    expect(fw.reading()).toEqual(was);
    expect(fw.state().extraIncrementMs).toBe(0);
    expect(
      r.journal
        .arbiterActions(game.gameId)
        .filter((a) => ['takeback', 'increment', 'arrive'].includes(a.action))
        .map((a) => [a.action, a.arbiter, a.outcome]),
    ).toEqual([
      ['takeback', ARBITER, 'rejected'],
      ['increment', ARBITER, 'rejected'],
      ['arrive', ARBITER, 'rejected'],
    ]);
  }, 30_000);
});

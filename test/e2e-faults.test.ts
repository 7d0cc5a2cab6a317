// End to end, faults (docs/reliability.md "Faults"): a clock unplugged mid-game (its pty closed) and plugged back;
// the host killed mid-round and restarted on the same journal file; corrupt bytes and
// noise on a line. In every case each press appears in the journal exactly once, in order
// (journal key (clock, boot, seq); the clock's outbox resends what was not acknowledged).
import { symlinkSync, unlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPtyPair, ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { Host } from '../host/app/host.ts';
import { Journal, type GameRow } from '../host/store/journal.ts';
import { journalOutboxTopic } from '../host/adapters/mqtt/journal-topics.ts';
import { buildRig, closeRig, configuredFor, ptyWiring, ARBITER, MIN, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';

const skip = ptySkipReason();

/** Each side's moves 1..n exactly once, and no (clock, boot, seq) twice in the whole journal. */
function expectEveryPressOnce(rig: MatchRig, game: GameRow, presses: number): void {
  const moved = rig.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
  expect(moved).toHaveLength(presses);
  for (const side of ['white', 'black'] as const) {
    expect(moved.filter((e) => e.side === side).map((e) => e.move)).toEqual(Array.from({ length: presses / 2 }, (_, k) => k + 1));
  }
  const keys = rig.journal.eventsAfter(0, 100_000).map((e) => `${e.clockId}/${e.bootId}/${e.seq}`);
  expect(new Set(keys).size).toBe(keys.length);
}

async function pressPairs(rig: MatchRig, pairs: number, thinkMs = MIN): Promise<void> {
  const c = rig.clocks[0];
  for (let i = 0; i < pairs; i++) {
    for (const side of ['white', 'black'] as const) {
      rig.sim.advanceBy(thinkMs);
      await c.press(side);
    }
  }
}

const movedCount = (rig: MatchRig, game: GameRow) => rig.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved').length;

describe('faults: every press is journaled exactly once', () => {
  let rig: MatchRig | null = null;
  const ptys: PtyPair[] = [];
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    await Promise.all(ptys.splice(0).map((p) => p.close()));
  });

  it.skipIf(skip !== null)(
    'a clock unplugged mid-game (pty closed) and plugged back resends its missed presses from its outbox, once each',
    async () => {
      const paths = new Map<number, string>();
      rig = await buildRig({ wire: ptyWiring(ptys, paths) });
      const linkPath = paths.get(1)!;
      const game = await configuredFor(rig, 1);
      const c = rig.clocks[0];
      await c.clock.tap('startPause');
      await pressPairs(rig, 5);
      await waitFor('10 presses journaled', () => movedCount(rig!, game) === 10);

      // Pull the cable: the pty pair disappears; the host's session backs off and retries.
      await c.closePty();
      await ptys[0].close();
      unlinkSync(linkPath);
      const session = rig.host.lines().find((s) => s.key === linkPath)!;
      await waitFor('the host to see the clock gone', () => !session.online);
      await pressPairs(rig, 4); // played while unplugged: only in the clock's outbox
      expect(movedCount(rig, game)).toBe(10);

      // Plug it back (a new pty behind the same name).
      const again = await openPtyPair();
      ptys[0] = again;
      symlinkSync(again.a, linkPath);
      await c.connectPty(again.b);
      await waitFor('the clock back online', () => session.online, 15_000);
      await pressPairs(rig, 3);
      await waitFor('all 24 presses journaled', () => movedCount(rig!, game) === 24, 15_000, flowing(rig.sim));
      expectEveryPressOnce(rig, game, 24);
      expect(session.connections).toBeGreaterThanOrEqual(2);
    },
    30_000,
  );

  it('the host killed mid-round and restarted on the same journal file continues the game: no press lost or doubled', async () => {
    rig = await buildRig();
    const file = rig.journal.path;
    const game = await configuredFor(rig, 1);
    const c = rig.clocks[0];
    await c.clock.tap('startPause');
    await pressPairs(rig, 5);
    await waitFor('10 presses journaled', () => movedCount(rig!, game) === 10);

    // Kill: the host and its lines go; the clocks keep playing into their outboxes.
    await rig.api.close();
    await rig.host.close();
    rig.journal.close();
    await pressPairs(rig, 5);

    // Restart on the same file: the same game, the clock re-greets, its outbox drains.
    const journal = new Journal(file, { outboxTopic: journalOutboxTopic });
    const host = new Host({ journal, hall: rig.hall, clock: rig.hostClock, backoff: { initialMs: 20, maxMs: 200 } }).start();
    rig.journal = journal;
    rig.host = host;
    rig.api = { close: async () => {} } as MatchRig['api'];
    rig.clocks.forEach((clock, i) => {
      clock.plugMemory();
      host.addLine(`memory:table-${i + 1}`, clock.memoryLine(), { table: i + 1 });
    });
    await waitFor('the presses made while the host was down', () => movedCount(rig!, game) === 20, 15_000, flowing(rig.sim));
    // The restarted host brings the clock to the journal (docs/protocol.md "Restore"): held,
    // paused at exactly the journaled times; the arbiter resumes (FIDE Laws 6.11).
    const boardOne = () => host.state.boards().find((b) => b.event === 'slo-w-2007' && b.board === 1)!;
    await waitFor('the clock brought to the journal', () => boardOne().restore !== undefined, 15_000, flowing(rig.sim));
    expect(boardOne().restore).toMatchObject({ outcome: 'in-step', differences: [], mismatches: [] });
    const last = journal.eventsByGame(game.gameId).at(-1)!;
    expect(last.type).toBe('paused');
    expect(c.clock.firmware.reading()).toMatchObject({ status: 'paused', white: last.whiteMs, black: last.blackMs });
    expect(await host.execute({ type: 'resume', boardId: boardOne().id }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await pressPairs(rig, 2);
    await c.enterResult('1-0');
    await waitFor('the result', () => journal.getGame(game.gameId)!.result === '1-0');
    expectEveryPressOnce(rig, game, 24);
    // The restarted host did not reconfigure the running game (it has events).
    expect(journal.arbiterActions(game.gameId).filter((a) => a.action === 'configure-clock')).toHaveLength(1);
    const boardId = host.state.boards().find((b) => b.event === 'slo-w-2007' && b.board === 1)!.id;
    const confirmed = await host.execute({ type: 'confirm-result', boardId }, { arbiter: ARBITER });
    expect(confirmed, JSON.stringify(confirmed)).toMatchObject({ ok: true });
    await configuredFor(rig, 2); // the director goes on from the journal
  }, 30_000);

  it('corrupt bytes and noise on the line (RFC 1055 framing + CRC): frames dropped, resent, journaled once', async () => {
    rig = await buildRig();
    const game = await configuredFor(rig, 1);
    const c = rig.clocks[0];
    c.cable.corruptProbability = 0.15;
    c.cable.garbageProbability = 0.15;
    await c.clock.tap('startPause');
    await pressPairs(rig, 15, 30_000);
    await waitFor('all 30 presses journaled', () => movedCount(rig!, game) === 30, 20_000, flowing(rig.sim));
    expectEveryPressOnce(rig, game, 30);
    const counters = rig.host.lines().find((s) => s.key === 'memory:table-1')!.link!.counters;
    expect(c.cable.corrupted).toBeGreaterThan(0);
    expect(counters.badCrc + counters.undecodable + counters.invalid + counters.runt + counters.badEscape).toBeGreaterThan(0);
  }, 30_000);
});

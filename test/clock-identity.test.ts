// End to end on real serial lines (socat ptys): a clock is who it says it is
// (docs/reliability.md "A second clock claims an online clock's id"; docs/protocol.md
// "Handshake and versioning"). While CLK-01 plays board 1, a second clock greets as CLK-01 (another
// boot) on an unassigned line: the host refuses that line, and the board, its journal and
// its commands stay with the real clock.
import { join } from 'node:path';
import { symlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPtyPair, ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import { buildRig, closeRig, configuredFor, ptyWiring, boardId, ARBITER, MIN, type MatchRig } from './e2e-match.ts';
import { SimClock, flowing, waitFor } from './e2e-harness.ts';

const skip = ptySkipReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('a clock is who it says it is (real ptys)', () => {
  let rig: MatchRig | null = null;
  const ptys: PtyPair[] = [];
  const others: SimClock[] = [];
  afterEach(async () => {
    for (const c of others.splice(0)) c.stop();
    if (rig) await closeRig(rig);
    rig = null;
    await Promise.all(ptys.splice(0).map((p) => p.close()));
  });

  it("a second clock greeting as an online clock's id is refused: its presses never reach the board, the real clock's do", async () => {
    const logs: string[] = [];
    rig = await buildRig({ wire: ptyWiring(ptys), log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1);
    const real = r.clocks[0];
    const moved = () => r.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
    await real.clock.tap('startPause');
    for (const side of ['white', 'black', 'white', 'black'] as const) {
      r.sim.advanceBy(MIN);
      await real.press(side);
    }
    await waitFor("the real clock's 4 presses journaled", () => moved().length === 4);

    // The impostor: CLK-01 again, another boot, on a line with no table.
    const impostor = await SimClock.boot('CLK-01', r.sim, presetTimeControl('rapid'), { bootId: 0xbad01 });
    others.push(impostor);
    const pty = await openPtyPair();
    ptys.push(pty);
    const path = join(r.dir, 'unassigned-line');
    symlinkSync(pty.a, path);
    await impostor.connectPty(pty.b);
    r.host.addLine(path, openSerialLine(path));
    // The clock shows why: the host's Nack (docs/protocol.md "Handshake and versioning"); it greets again later.
    await waitFor('the impostor refused', () => /already online/.test(impostor.clockLink.link.refusedBecause?.message ?? ''), 10_000, flowing(r.sim));
    // The board the id serves shows both lines, for the arbiter to decide (docs/api.md "Clock identity").
    expect(r.host.state.boards().find((b) => b.id === boardId(r))?.identityClaim).toMatchObject({
      clockId: 'CLK-01',
      onlineLine: join(r.dir, 'clock-table-1'),
      line: path,
      boot: '000bad01',
    });
    await impostor.clock.tap('startPause');
    for (const side of ['white', 'black', 'white'] as const) {
      r.sim.advanceBy(MIN);
      await impostor.press(side);
    }
    for (const side of ['white', 'black'] as const) {
      r.sim.advanceBy(MIN);
      await real.press(side);
    }
    await waitFor("the real clock's 6 presses journaled", () => moved().length === 6, 10_000, flowing(r.sim));
    expect(new Set(moved().map((e) => e.bootId))).toEqual(new Set([real.bootId.toString(16).padStart(8, '0')]));
    expect(r.journal.eventsByGame(game.gameId).map((e) => e.type)).not.toContain('paused');

    // One log line names both lines; the host's retries of the refused line add none.
    const refusals = logs.filter((l) => l.includes('refused'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(path);
    expect(refusals[0]).toContain(join(r.dir, 'clock-table-1'));

    // The board's commands go to the real clock: a pause is applied and journaled from its boot.
    expect(await r.host.execute({ type: 'pause', boardId: boardId(r) }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await waitFor('the pause journaled', () => r.journal.eventsByGame(game.gameId).at(-1)?.type === 'paused');
    expect(real.clock.firmware.reading().status).toBe('paused');
    expect(impostor.clock.firmware.reading().status).toBe('running');
  }, 30_000);

  it('a clock back with its old boot id and an empty outbox (its seq 1 again) is taken as a new boot: held, restored, and the pause after it is journaled', async () => {
    const logs: string[] = [];
    rig = await buildRig({ wire: ptyWiring(ptys), log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1);
    const first = r.clocks[0];
    const events = () => r.journal.eventsByGame(game.gameId);
    await first.clock.tap('startPause');
    // More presses than the clock's send window (32): the host has acknowledged seqs the clock can only send after seq 1 was acknowledged.
    for (let i = 0; i < 20; i++) {
      for (const side of ['white', 'black'] as const) {
        r.sim.advanceBy(MIN / 4);
        await first.press(side);
      }
    }
    await waitFor('40 presses journaled', () => events().filter((e) => e.type === 'moved').length === 40, 15_000, flowing(r.sim));

    // The clock restarts with its old boot id and nothing in its outbox, on the same live line.
    const port = (first as unknown as { ptyPort: unknown }).ptyPort;
    first.clockLink.close('restarted');
    first.clock.stop();
    first.cable.detach();
    const again = await SimClock.boot('CLK-01', r.sim, presetTimeControl('rapid'), { bootId: first.bootId });
    others.push(again);
    again.cable.attach(port as never);
    const boardOne = () => r.host.state.boards().find((b) => b.id === boardId(r))!;
    await waitFor('the clock restored from the journal', () => boardOne().restore?.outcome === 'restored', 15_000, flowing(r.sim));
    expect(logs.some((l) => l.includes('taken as a new boot'))).toBe(true);
    expect(again.clock.firmware.reading().status).toBe('paused');

    // The board follows the clock again: resume, presses journaled, and a pause is journaled.
    expect(await r.host.execute({ type: 'resume', boardId: boardId(r) }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    for (const side of ['white', 'black'] as const) {
      r.sim.advanceBy(MIN / 4);
      await again.press(side);
    }
    await waitFor('42 presses journaled', () => events().filter((e) => e.type === 'moved').length === 42, 15_000, flowing(r.sim));
    expect(await r.host.execute({ type: 'pause', boardId: boardId(r) }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await waitFor('the pause journaled', () => events().at(-1)?.type === 'paused', 15_000, flowing(r.sim));
    expect(again.clock.firmware.reading().status).toBe('paused');
    expect(boardOne().live?.status).toBe('paused');
  }, 40_000);

  it("a clock moved to another line while its old line stays open but silent: the board's commands follow it to its current line", async () => {
    const logs: string[] = [];
    rig = await buildRig({ wire: ptyWiring(ptys), log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1);
    const c = r.clocks[0];
    const events = () => r.journal.eventsByGame(game.gameId);
    await c.clock.tap('startPause');
    for (const side of ['white', 'black'] as const) {
      r.sim.advanceBy(MIN);
      await c.press(side);
    }
    await waitFor('2 presses journaled', () => events().filter((e) => e.type === 'moved').length === 2);
    const oldLine = r.host.lines().find((s) => s.key === join(r.dir, 'clock-table-1'))!;

    // The clock's cable leaves the old line's port (which stays open, saying nothing) for a new line.
    c.cable.detach();
    r.sim.advanceBy(11_000);
    expect(oldLine.online).toBe(true);
    const pty = await openPtyPair();
    ptys.push(pty);
    const path = join(r.dir, 'another-port');
    symlinkSync(pty.a, path);
    await c.connectPty(pty.b);
    r.host.addLine(path, openSerialLine(path));
    const newLine = () => r.host.lines().find((s) => s.key === path)!;
    await waitFor('the clock online on its new line', () => newLine().online && !oldLine.online, 10_000, flowing(r.sim));
    expect(logs.some((l) => l.includes('taken as dead'))).toBe(true);

    // The board's commands go to the new line: a pause is applied at once and journaled.
    expect(await r.host.execute({ type: 'pause', boardId: boardId(r) }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await waitFor('the pause journaled', () => events().at(-1)?.type === 'paused', 10_000, flowing(r.sim));
    expect(c.clock.firmware.reading().status).toBe('paused');
  }, 30_000);

  /** CLK-01 plays board 1 with 4 presses; a second clock greets as CLK-01 on a line of its own and is refused. */
  async function claimedBoard(logs: string[], bootId: number) {
    rig = await buildRig({ wire: ptyWiring(ptys), log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1);
    const real = r.clocks[0];
    await real.clock.tap('startPause');
    for (const side of ['white', 'black', 'white', 'black'] as const) {
      r.sim.advanceBy(MIN);
      await real.press(side);
    }
    const moved = () => r.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
    await waitFor("the real clock's 4 presses journaled", () => moved().length === 4);
    const newcomer = await SimClock.boot('CLK-01', r.sim, presetTimeControl('rapid'), { bootId, greetAgainAfterRefusal: { initialMs: 50, maxMs: 200 } });
    others.push(newcomer);
    const refusals: string[] = [];
    newcomer.clockLink.link.on('refused', (err: Error) => refusals.push(err.message));
    const pty = await openPtyPair();
    ptys.push(pty);
    const line = join(r.dir, 'spare-line');
    symlinkSync(pty.a, line);
    await newcomer.connectPty(pty.b);
    r.host.addLine(line, openSerialLine(line));
    const board = () => r.host.state.boards().find((b) => b.id === boardId(r))!;
    await waitFor('the claim on the board', () => board().identityClaim?.line === line, 10_000, flowing(r.sim));
    return { r, game, real, newcomer, refusals, line, board, moved };
  }

  it('the arbiter keeps the online clock: the claim leaves the board, the claimant stays refused, the choice is journaled', async () => {
    const logs: string[] = [];
    const { r, real, newcomer, refusals, line, board, moved } = await claimedBoard(logs, 0xbad02);
    expect(r.host.decideClockIdentity('CLK-01', line, 'online', { arbiter: ARBITER })).toMatchObject({ ok: true });
    expect(board().identityClaim).toBeUndefined();
    expect(r.journal.arbiterActions().at(-1)).toMatchObject({
      action: 'clock-identity',
      arbiter: ARBITER,
      clockId: 'CLK-01',
      outcome: 'applied',
      payload: { keep: 'online', line },
    });
    // The same choice again has no claim to act on: refused with the reason, journaled as rejected.
    expect(r.host.decideClockIdentity('CLK-01', line, 'online', { arbiter: ARBITER })).toMatchObject({ ok: false, status: 409 });
    // The claimant greets again and is refused by the choice, even once the online clock goes away.
    const before = refusals.length;
    await waitFor('the claimant refused by the choice', () => refusals.slice(before).some((m) => /the arbiter kept CLK-01/.test(m)), 10_000, flowing(r.sim));
    real.cable.detach();
    const after = refusals.length;
    await waitFor('refused again with the online clock gone', () => refusals.length > after, 10_000, flowing(r.sim));
    expect(refusals.at(-1)).toMatch(/the arbiter kept CLK-01/);
    await newcomer.clock.tap('startPause');
    r.sim.advanceBy(MIN);
    await newcomer.press('white');
    expect(moved()).toHaveLength(4);
    expect(board().identityClaim).toBeUndefined();
  }, 30_000);

  it('the arbiter takes the newcomer as the replacement: the old line is dropped and refused, the newcomer restored from the journal and journaled', async () => {
    const logs: string[] = [];
    const { r, real, newcomer, line, board, moved } = await claimedBoard(logs, 0x5ba7e);
    const oldLine = join(r.dir, 'clock-table-1');
    expect(r.host.decideClockIdentity('CLK-01', line, 'newcomer', { arbiter: ARBITER })).toMatchObject({ ok: true, claim: { onlineLine: oldLine } });
    // FIDE Laws 6.11.1 (a defective clock replaced): the spare is held and the game restored onto it.
    await waitFor('the spare restored from the journal', () => board().restore?.outcome === 'restored', 15_000, flowing(r.sim));
    expect(r.host.lines().find((s) => s.key === line)?.online).toBe(true);
    expect(newcomer.clock.firmware.reading().status).toBe('paused');
    await waitFor(
      'the old line refused by the choice',
      () => logs.some((l) => l.includes(`greeted on ${oldLine}: refused, the arbiter took`)),
      15_000,
      flowing(r.sim),
    );
    expect(await r.host.execute({ type: 'resume', boardId: boardId(r) }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await waitFor('the spare running', () => newcomer.clock.firmware.reading().status === 'running', 10_000, flowing(r.sim));
    for (const side of ['white', 'black'] as const) {
      r.sim.advanceBy(MIN / 4);
      await newcomer.press(side);
    }
    r.sim.advanceBy(MIN / 4);
    await real.press('white').catch(() => undefined);
    await waitFor("the spare's presses journaled", () => moved().length === 6, 15_000, flowing(r.sim));
    const spareBoot = newcomer.bootId.toString(16).padStart(8, '0');
    expect(
      moved()
        .slice(4)
        .map((e) => e.bootId),
    ).toEqual([spareBoot, spareBoot]);
    expect(r.journal.arbiterActions().filter((a) => a.action === 'clock-identity')).toMatchObject([
      { arbiter: ARBITER, clockId: 'CLK-01', outcome: 'applied', payload: { keep: 'newcomer', line, onlineLine: oldLine } },
    ]);
  }, 40_000);
});

// The journal is the truth, and any clock can be brought to it (docs/protocol.md
// "Restore"): a clock that connects to a board whose game is under way — after the host was
// killed and restarted on the same journal, a spare swapped in for a broken clock (FIDE Laws
// 6.10.1), a clock power-cut and restarted from its state directory — is held, compared with
// the game rebuilt from the journal through the one statechart, and restored to it. It stands
// paused at exactly the journal's times; the arbiter resumes (Laws 6.11) and the game is played
// on to a result. Real parts: a real Host on a real SQLite file, the unchanged firmware on
// virtual boards, in-memory lines and real ptys (socat) with the serialport package.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { presetTimeControl, readTimeControlSpec } from '../protocol/time-control.ts';
import { readClock } from '../rules/clock-reading.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { journalGameState } from '../host/clocks/restore-clock.ts';
import { Host } from '../host/app/host.ts';
import { Journal, type GameRow } from '../host/store/journal.ts';
import { journalOutboxTopic } from '../host/adapters/mqtt/journal-topics.ts';
import { replayText } from '../firmware-ts/replay.ts';
import { buildRig, closeRig, configuredFor, playBoard2, ptyWiring, ARBITER, MIN, type MatchRig } from './e2e-match.ts';
import { SimClock, flowing, waitFor } from './e2e-harness.ts';

const skipPty = ptySkipReason();

const boardOf = (host: Host, board: number) => host.state.boards().find((b) => b.event === 'slo-w-2007' && b.board === board)!;
const moved = (rig: MatchRig, game: GameRow) => rig.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved').length;

async function presses(rig: MatchRig, clock: SimClock, n: number, thinkMs = MIN): Promise<void> {
  for (let i = 0; i < n; i++) {
    rig.sim.advanceBy(thinkMs);
    await clock.press(clock.clock.firmware.state().turn);
  }
}

/**
 * The board's clock stands paused at exactly the journal's times: the clock's own reading,
 * the journal's last event and the game rebuilt from the journal agree to the millisecond.
 */
function expectAtJournalTimes(rig: MatchRig, host: Host, game: GameRow, clock: SimClock): void {
  const view = boardOf(host, game.board);
  expect(view.live?.status, 'the board is shown paused').toBe('paused');
  const own = clock.clock.firmware.reading();
  expect(own.status).toBe('paused');
  const last = rig.journal.eventsByGame(game.gameId).at(-1)!;
  expect([own.white, own.black], `clock vs the journal's last event (${last.type})`).toEqual([last.whiteMs, last.blackMs]);
  const { rebuilt } = journalGameState(rig.journal, rig.journal.getGame(game.gameId)!);
  expect(rebuilt.mismatches).toEqual([]);
  const r = readClock(rebuilt.state, rebuilt.at);
  expect([own.white, own.black, own.moves], 'clock vs the game rebuilt from the journal').toEqual([r.white, r.black, r.moves]);
  expect([view.live!.whiteMs, view.live!.blackMs]).toEqual([own.white, own.black]);
}

/** The arbiter resumes, the players play on and key in a result; the arbiter confirms it. */
async function playOnToResult(rig: MatchRig, host: Host, game: GameRow, clock: SimClock, n: number): Promise<void> {
  const id = boardOf(host, game.board).id;
  expect(await host.execute({ type: 'resume', boardId: id }, { arbiter: ARBITER })).toMatchObject({ ok: true });
  const before = moved(rig, game);
  await presses(rig, clock, n);
  await waitFor(`${n} more presses on board ${game.board}`, () => moved(rig, game) === before + n, 15_000, flowing(rig.sim)).catch((err) => {
    if (process.env.E2E_LOG)
      console.log(
        JSON.stringify(rig.journal.eventsAfter(0, 1000).map((e) => [e.id, e.clockId, e.bootId, e.seq, e.gameId, e.type, e.side])),
        JSON.stringify(clock.clock.firmware.reading()),
      );
    throw err;
  });
  await clock.enterResult('0-1');
  await waitFor(`the result of board ${game.board}`, () => rig.journal.getGame(game.gameId)!.result === '0-1', 15_000, flowing(rig.sim));
  expect(await host.execute({ type: 'confirm-result', boardId: id }, { arbiter: ARBITER })).toMatchObject({ ok: true });
  // Every press once, in order, across the restart: each side's moves 1..n.
  const events = rig.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
  for (const side of ['white', 'black'] as const) {
    const mine = events.filter((e) => e.side === side).map((e) => e.move);
    expect(mine).toEqual(Array.from({ length: mine.length }, (_, k) => k + 1));
  }
}

async function reopen(rig: MatchRig, file: string, addLines: (host: Host) => void): Promise<Host> {
  const journal = new Journal(file, { outboxTopic: journalOutboxTopic });
  const host = new Host({ journal, hall: rig.hall, clock: rig.hostClock, backoff: { initialMs: 20, maxMs: 200 } }).start();
  rig.journal = journal;
  rig.host = host;
  rig.api = { close: async () => {} } as MatchRig['api'];
  addLines(host);
  return host;
}

describe('a restarted host brings every board back to the journal (docs/protocol.md "Restore: Held and Restore")', () => {
  let rig: MatchRig | null = null;
  const ptys: PtyPair[] = [];
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    await Promise.all(ptys.splice(0).map((p) => p.close()));
  });

  async function killAndRestart(wirePty: boolean): Promise<void> {
    const paths = new Map<number, string>();
    rig = await buildRig(wirePty ? { wire: ptyWiring(ptys, paths) } : {});
    const r = rig;
    const games = [await configuredFor(r, 1, 1), await configuredFor(r, 1, 2)];
    const [c1, c2] = r.clocks;
    // Board 1 runs mid-turn at the kill; board 2 was paused by the arbiter, with a time adjustment.
    await c1.clock.tap('startPause');
    await c2.clock.tap('startPause');
    await presses(r, c1, 7);
    await presses(r, c2, 4);
    await waitFor('11 presses journaled', () => moved(r, games[0]) === 7 && moved(r, games[1]) === 4, 15_000, flowing(r.sim));
    const b2 = boardOf(r.host, 2).id;
    expect(await r.host.execute({ type: 'pause', boardId: b2 }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    expect(await r.host.execute({ type: 'adjust', boardId: b2, side: 'black', ms: 60_000 }, { arbiter: ARBITER })).toMatchObject({ ok: true });

    // The host goes down. Board 1 plays on into its clock's outbox; 7 minutes pass.
    const file = r.journal.path;
    await r.api.close();
    await r.host.close();
    r.journal.close();
    await presses(r, c1, 3);
    r.sim.advanceBy(7 * MIN);

    const host = await reopen(r, file, (h) =>
      r.clocks.forEach((clock, i) => {
        const table = i + 1;
        if (wirePty) h.addLine(paths.get(table)!, openSerialLine(paths.get(table)!), { table });
        else {
          clock.plugMemory();
          h.addLine(`memory:table-${table}`, clock.memoryLine(), { table });
        }
      }),
    );
    // Outbox first: the presses made while the host was down are journaled, then each board is held.
    await waitFor(
      'both boards brought to the journal',
      () => boardOf(host, 1).restore !== undefined && boardOf(host, 2).restore !== undefined,
      20_000,
      flowing(r.sim),
    );
    expect(moved(r, games[0])).toBe(10);
    for (const b of [1, 2]) expect(boardOf(host, b).restore, `board ${b}`).toMatchObject({ outcome: 'in-step', differences: [], mismatches: [] });
    // Board 1 was running: the hold paused it, and the pause is journaled with the clock's exact times.
    expect(r.journal.eventsByGame(games[0].gameId).at(-1)!.type).toBe('paused');
    expectAtJournalTimes(r, host, games[0], c1);
    expectAtJournalTimes(r, host, games[1], c2);
    await playOnToResult(r, host, games[0], c1, 4);
    await playOnToResult(r, host, games[1], c2, 2);
  }

  it('with in-memory lines: every board comes back paused at exactly the journal’s times and plays on to a result', async () => {
    await killAndRestart(false);
  }, 60_000);

  it.skipIf(skipPty !== null)(
    'with clocks on real ptys (socat): the same',
    async () => {
      await killAndRestart(true);
    },
    60_000,
  );
});

describe('a clock replaced or power-cut mid-game is restored from the journal (FIDE Laws 6.10.1)', () => {
  let rig: MatchRig | null = null;
  const extra: SimClock[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const c of extra.splice(0)) c.stop();
    if (rig) await closeRig(rig);
    rig = null;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a spare clock swapped in for a broken one takes the journal’s game, paused, and the game goes on', async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const broken = r.clocks[0];
    await broken.clock.tap('startPause');
    await presses(r, broken, 9);
    await waitFor('9 presses journaled', () => moved(r, game) === 9, 15_000, flowing(r.sim));
    // The clock breaks mid-turn (its cable and its power gone); the arbiter fetches a spare.
    broken.unplugMemory();
    const session = r.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('the host to see the clock gone', () => !session.online, 10_000);
    r.sim.advanceBy(2 * MIN);
    const spare = await SimClock.boot('CLK-SPARE', r.sim, presetTimeControl('rapid'));
    extra.push(spare);
    await r.host.removeLine('memory:table-1');
    r.host.addLine('memory:table-1-spare', spare.memoryLine(), { table: 1 });
    await waitFor('the spare brought to the journal', () => boardOf(r.host, 1).restore?.clockId === 'CLK-SPARE', 20_000, flowing(r.sim));
    const note = boardOf(r.host, 1).restore!;
    expect(note.outcome).toBe('restored');
    // The card says what the spare held: no game of this host.
    expect(note.differences).toEqual([`the clock held no game from this host, not game ${game.gameId}`]);
    expect(spare.clock.firmware.state().timeControl).toEqual(game.timeControlValue);
    const restored = r.journal.eventsByGame(game.gameId).at(-1)!;
    expect(restored).toMatchObject({ type: 'restored', clockId: 'CLK-SPARE', detail: { status: 'paused' } });
    // The running side is charged up to the broken clock's last report (the arbiter judges the rest: Laws 6.10.1).
    const lastPress = r.journal
      .eventsByGame(game.gameId)
      .filter((e) => e.type === 'moved')
      .at(-1)!;
    expect([restored.whiteMs, restored.blackMs]).toEqual([lastPress.whiteMs, lastPress.blackMs]);
    expectAtJournalTimes(r, r.host, game, spare);
    await playOnToResult(r, r.host, game, spare, 4);
    expect(r.journal.getGame(game.gameId)!.clockId).toBe('CLK-SPARE');
  }, 60_000);

  it('a spare whose firmware cannot be restored (protocol 1.1) is left as it is, the log says so, and the game under way refuses time commands sent to it (409, nothing changed)', async () => {
    const logs: string[] = [];
    rig = await buildRig({ log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const broken = r.clocks[0];
    await broken.clock.tap('startPause');
    await presses(r, broken, 4);
    await waitFor('4 presses journaled', () => moved(r, game) === 4, 15_000, flowing(r.sim));
    broken.unplugMemory();
    await r.host.removeLine('memory:table-1');
    const old = await SimClock.boot('CLK-OLD', r.sim, presetTimeControl('rapid'), { protocolVersion: { major: 1, minor: 1 } });
    extra.push(old);
    r.host.addLine('memory:table-1-old', old.memoryLine(), { table: 1 });
    await waitFor(
      'the log to say the clock cannot be restored',
      () => logs.some((l) => l.includes('clock CLK-OLD speaks protocol 1.1')),
      15_000,
      flowing(r.sim),
    );
    const before = old.clock.firmware.reading();
    const out = await r.host.execute({ type: 'adjust', boardId: boardOf(r.host, 1).id, side: 'white', ms: 60_000 }, { arbiter: ARBITER });
    expect(out).toMatchObject({ ok: false, status: 409 });
    expect(out.ok ? '' : out.reason).toContain("has not been brought to the journal's game yet");
    expect(old.clock.firmware.reading()).toEqual(before);
    // The journal still holds the broken clock's game, not the spare's blank times.
    expect(r.journal.eventsByGame(game.gameId).every((e) => e.clockId === 'CLK-01')).toBe(true);
  }, 60_000);

  /** Board 1 plays 4 moves, then the arbiter corrects its control and sets a quickplay delay (protocol 1.4); the clock breaks. */
  async function correctedThenBroken(r: MatchRig, game: GameRow) {
    const broken = r.clocks[0];
    const id = boardOf(r.host, 1).id;
    await broken.clock.tap('startPause');
    await presses(r, broken, 4);
    await waitFor('4 presses journaled', () => moved(r, game) === 4, 15_000, flowing(r.sim));
    expect(await r.host.execute({ type: 'pause', boardId: id }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    // FIDE Laws 6.10.2: the clock was set wrongly; Guidelines III.4: a delay for the finish.
    const corrected = readTimeControlSpec({ timeControl: '40/6000+30:900+30', defaultTime: 900 }).timeControl;
    expect(await r.host.execute({ type: 'set-control', boardId: id, timeControl: corrected }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    expect(await r.host.execute({ type: 'delay', boardId: id, ms: 5000 }, { arbiter: ARBITER })).toMatchObject({ ok: true });
    await waitFor(
      'the corrections journaled',
      () => ['control-set', 'delay-set'].every((t) => r.journal.eventsByGame(game.gameId).some((e) => e.type === t)),
      10_000,
      flowing(r.sim),
    );
    broken.unplugMemory();
    const session = r.host.lines().find((s) => s.key === 'memory:table-1')!;
    await waitFor('the host to see the clock gone', () => !session.online, 10_000);
    await r.host.removeLine('memory:table-1');
    return { corrected, id };
  }

  it('FIDE Laws 6.10.2 / 6.10.1: a game whose control was corrected is restored onto a spare with the corrected control and the delay; the game goes on under them', async () => {
    rig = await buildRig();
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const { corrected } = await correctedThenBroken(r, game);
    // The spare comes configured with nothing of this game; it speaks 1.4.
    const spare = await SimClock.boot('CLK-SPARE', r.sim, presetTimeControl('rapid'));
    extra.push(spare);
    r.host.addLine('memory:table-1-spare', spare.memoryLine(), { table: 1 });
    await waitFor('the spare brought to the journal', () => boardOf(r.host, 1).restore?.clockId === 'CLK-SPARE', 20_000, flowing(r.sim));
    expect(boardOf(r.host, 1).restore!.outcome).toBe('restored');
    // The snapshot carried the corrected control: the spare runs it, not the game's configured one.
    expect(spare.clock.firmware.state()).toMatchObject({ timeControl: corrected, controlCorrected: true, extraDelayMs: 5000 });
    expect(game.timeControlValue).not.toEqual(corrected);
    expectAtJournalTimes(r, r.host, game, spare);
    // Two presses a snapshot with a control carries (docs/protocol.md "Restore", Size): the arbiter can still take the last move back.
    expect(spare.clock.firmware.state().undo).not.toBeNull();
    await playOnToResult(r, r.host, game, spare, 4);
    expect(journalGameState(r.journal, r.journal.getGame(game.gameId)!).rebuilt.mismatches).toEqual([]);
  }, 60_000);

  it('FIDE Laws 6.10.2: a spare of protocol 1.3 would run the game without its corrected control: it is not restored, the card and the log say why, and time commands to it are refused (409)', async () => {
    const logs: string[] = [];
    rig = await buildRig({ log: (l) => logs.push(l) });
    const r = rig;
    const game = await configuredFor(r, 1, 1);
    const { id } = await correctedThenBroken(r, game);
    const old = await SimClock.boot('CLK-13', r.sim, presetTimeControl('rapid'), { protocolVersion: { major: 1, minor: 3 } });
    extra.push(old);
    r.host.addLine('memory:table-1-old', old.memoryLine(), { table: 1 });
    await waitFor('the card to say why', () => boardOf(r.host, 1).restore?.clockId === 'CLK-13', 20_000, flowing(r.sim));
    const note = boardOf(r.host, 1).restore!;
    expect(note.outcome).toBe('refused');
    expect(note.reason).toBe(
      'its firmware speaks protocol 1.3, which cannot hold the corrected time control 40/6000+30:900+30 (it would run 40/5400+30:900+30) and the quickplay delay of 5 s: restoring this game needs 1.4 (update the clock firmware, or set the clock by hand)',
    );
    expect(logs.some((l) => l.includes('clock CLK-13: not restored') && l.includes('needs 1.4'))).toBe(true);
    // The clock was held (paused) and left as it was: no Restore reached it.
    expect(old.clock.firmware.state()).toMatchObject({ status: 'ready', controlCorrected: false });
    expect(r.journal.eventsByGame(game.gameId).some((e) => e.clockId === 'CLK-13' && e.type === 'restored')).toBe(false);
    const before = old.clock.firmware.reading();
    const out = await r.host.execute({ type: 'adjust', boardId: id, side: 'white', ms: 60_000 }, { arbiter: ARBITER });
    expect(out).toMatchObject({ ok: false, status: 409 });
    expect(out.ok ? '' : out.reason).toContain("has not been brought to the journal's game yet");
    expect(old.clock.firmware.reading()).toEqual(before);
  }, 60_000);

  it('a clock power-cut and restarted from its state directory comes back paused, and so does the board', async () => {
    rig = await buildRig();
    const r = rig;
    const stateDir = mkdtempSync(join(tmpdir(), 'clock-state-'));
    dirs.push(stateDir);
    // Board 2 gets a clock that keeps its state and outbox on disk (`chessclock sim --state-dir`).
    await r.host.removeLine('memory:table-2');
    r.clocks[1].stop();
    const before = await SimClock.boot('CLK-02', r.sim, presetTimeControl('rapid'), { stateDir, bootId: 0x2001 });
    r.clocks[1] = before;
    r.host.addLine('memory:table-2-disk', before.memoryLine(), { table: 2 });
    const game = await waitForConfigured(r, 2, before);
    await before.clock.tap('startPause');
    await presses(r, before, 6);
    await waitFor('6 presses journaled', () => moved(r, game) === 6, 15_000, flowing(r.sim));
    // Power cut: the process dies with the cable; two presses were made just before, unacknowledged.
    before.unplugMemory();
    await presses(r, before, 2);
    before.stop();
    r.sim.advanceBy(90_000);
    const after = await SimClock.boot('CLK-02', r.sim, presetTimeControl('rapid'), { stateDir, bootId: 0x2002 });
    r.clocks[1] = after;
    expect(after.clock.firmware.restored).toBe(true);
    expect(after.clock.firmware.reading().status).toBe('paused');
    await r.host.removeLine('memory:table-2-disk');
    r.host.addLine('memory:table-2-disk-again', after.memoryLine(), { table: 2 });
    await waitFor('the restarted clock brought to the journal', () => boardOf(r.host, 2).restore?.clockId === 'CLK-02', 20_000, flowing(r.sim));
    // Its outbox came first: the two presses made before the cut are journaled once.
    expect(moved(r, game)).toBe(8);
    // The host said running; the journal now says what the clock shows: paused.
    expect(boardOf(r.host, 2).restore).toMatchObject({ differences: [], mismatches: [] });
    expectAtJournalTimes(r, r.host, game, after);
    await playOnToResult(r, r.host, game, after, 2);
  }, 60_000);
});

async function waitForConfigured(r: MatchRig, board: number, clock: SimClock): Promise<GameRow> {
  let game: GameRow | undefined;
  await waitFor(`board ${board} configured on ${clock.serialId}`, () => {
    game = r.journal.gamesByBoard('slo-w-2007', 1, board).find((g) => g.gameNo === 1);
    return !!game && clock.clock.firmware.gameId === String(game.gameId);
  });
  return game!;
}

describe('`chessclock host --replay BOARD --game N`: the appeal committee’s view of any game of a match', () => {
  let rig: MatchRig | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
  });

  it('prints the chosen game as replay input that replays to the journal’s times, with its result and who reported and confirmed it', async () => {
    rig = await buildRig();
    await playBoard2(rig); // board 2: two classical games, 1-0 and ½-½, both confirmed by the arbiter
    const games = rig.journal.gamesByBoard('slo-w-2007', 1, 2);
    const file = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));
    const cli = (args: string[]) =>
      spawnSync(
        process.execPath,
        [fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url)), 'host', '--db', rig!.journal.path, '--tournament', file, ...args],
        { encoding: 'utf8' },
      );
    const one = cli(['--replay', 'slo-w-2007/1/2', '--game', '1']);
    expect(one.status, one.stderr).toBe(0);
    const g1 = games.find((g) => g.gameNo === 1)!;
    expect(one.stderr.trim()).toMatch(
      new RegExp(
        `^slo-w-2007 round 1 game 1 of 2 \\(classical\\) on board 2, 40/5400\\+30:900\\+30: Bajt, Indira – Tretja, Igralka: 1-0 \\(played\\), reported by clock at .+, confirmed by ${ARBITER} at .+$`,
      ),
    );
    const lines = one.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ type: 'end', result: '1-0', how: 'played', reportedBy: 'clock', confirmedBy: ARBITER });
    // Replayed through the statechart, the game's presses give the journal's own times.
    const replayed = replayText(one.stdout).map((l) => JSON.parse(l) as { type: string; white?: number; black?: number });
    const journaled = rig.journal.eventsByGame(g1.gameId).filter((e) => e.type === 'moved');
    expect(replayed.filter((o) => o.type === 'move').map((o) => [o.white, o.black])).toEqual(journaled.map((e) => [e.whiteMs, e.blackMs]));
    const two = cli(['--replay', 'slo-w-2007/1/2', '--game', '2']);
    expect(two.stderr).toContain(': 1/2-1/2 (played), reported by clock');
    expect(JSON.parse(two.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'end', result: '1/2-1/2', confirmedBy: ARBITER });
    const none = cli(['--replay', 'slo-w-2007/1/2', '--game', '3']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('board 2 of slo-w-2007 round 1 has games 1, 2, not game 3');
  }, 60_000);
});

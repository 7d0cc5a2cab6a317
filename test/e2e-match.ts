// The Slovenian final mini-match rig shared by the in-memory and pty end-to-end tests:
// a real Host on a real SQLite journal, the HTTP API on it, one simulated clock per board.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { presetTimeControl } from '../protocol/time-control.ts';
import { openPtyPair, type PtyPair } from '../protocol/session-api.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { buildApi } from '../host/adapters/http/api.ts';
import { journalExports } from '../host/adapters/exports/journal-exports.ts';
import type { ExportSource } from '../host/app/ports.ts';
import { Host } from '../host/app/host.ts';
import { Journal, type GameRow } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import type { Hall } from '../host/domain/model.ts';
import { col, parseTrf } from '../host/adapters/exports/trf-parser.ts';
import { readPgnWithBoth } from '../host/adapters/exports/pgn-readers.fixture.ts';
import { journalOutboxTopic } from '../host/adapters/mqtt/journal-topics.ts';
import { eventTrf } from '../host/adapters/exports/trf-event.ts';
import { UNSYNCED_UNCERTAINTY_MS } from '../host/clocks/clock-event.ts';
import { SimClock, simulatedHall, playMoves, waitFor, flowing } from './e2e-harness.ts';
import type { AnchoredClock } from '../host/app/utc.ts';
import type { ClockResult } from '../rules/vocabulary.ts';
import type { SimulatedTime } from '../simulator/simulated-time.ts';

export const MIN = 60_000;
export const TOKEN = 'arbiter-token-0123456789';
export const ARBITER = 'Ana Srebrnič';
export const START = Date.UTC(2007, 7, 16, 14, 0);

export interface MatchRig {
  dir: string;
  journal: Journal;
  hall: Hall;
  host: Host;
  sim: SimulatedTime;
  api: FastifyInstance;
  /** The clock of board b is clocks[b - 1] (hall table b). */
  clocks: SimClock[];
  hostClock: AnchoredClock;
  /** TRF, PGN and JSON Lines over the rig's journal (what the API serves). */
  exports: ExportSource;
}

export function loadSloHall(): Hall {
  return loadTournamentFile(fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url)));
}

/** Waits until the host configured `clock` for the board's game number `gameNo` (journaled, and on the clock). */
export async function configuredFor(rig: MatchRig, gameNo: number, board = 1): Promise<GameRow> {
  let game: GameRow | undefined;
  await waitFor(`game ${gameNo} configured on board ${board}`, () => {
    game = rig.journal.gamesByBoard('slo-w-2007', 1, board).find((g) => g.gameNo === gameNo);
    return !!game && rig.journal.arbiterActions(game.gameId).some((a) => a.action === 'configure-clock' && a.outcome === 'applied');
  });
  return game!;
}

/** The players play a game and key the result in; the arbiter confirms it over the API. */
export async function playAndConfirm(rig: MatchRig, game: GameRow, moves: number, thinkMs: number, result: ClockResult): Promise<void> {
  const clock = rig.clocks[game.board - 1];
  // The clock shows the game the host configured: its control is the game's.
  expect(clock.clock.firmware.state().timeControl).toEqual(game.timeControlValue);
  await playMoves(clock, rig.sim, moves, thinkMs);
  await clock.enterResult(result);
  await waitFor(`result of game ${game.gameNo} journaled`, () => rig.journal.getGame(game.gameId)!.result !== null, 10_000, flowing(rig.sim));
  expect(rig.journal.getGame(game.gameId)).toMatchObject({ result, reportedBy: 'clock', confirmedBy: null });
  const res = await rig.api.inject({
    method: 'POST',
    url: `/api/boards/${boardId(rig, game.board)}/result/confirm`,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(rig.journal.getGame(game.gameId)!.confirmedBy).toBe(ARBITER);
}

export const boardId = (rig: MatchRig, board = 1): string => rig.host.state.boards().find((b) => b.event === 'slo-w-2007' && b.board === board)!.id;

/** Board 2 (hall table 2) is decided in the classical games: Bajt 1½-½ (art. 3). */
export async function playBoard2(rig: MatchRig): Promise<void> {
  const g1 = await configuredFor(rig, 1, 2);
  expect(g1).toMatchObject({ white: 'Bajt, Indira', black: 'Tretja, Igralka' });
  await playAndConfirm(rig, g1, 10, 3 * MIN, '1-0');
  const g2 = await configuredFor(rig, 2, 2);
  await playAndConfirm(rig, g2, 10, 3 * MIN, '1/2-1/2');
  expect(rig.journal.getMatch('slo-w-2007/r1/b2')).toMatchObject({ status: 'decided', winner: 'Bajt, Indira', decidedBy: 'classical' });
}

/** The whole mini-match on board 1 (hall table 1). */
export async function playSlovenianMatch(rig: MatchRig): Promise<void> {
  const g1 = await configuredFor(rig, 1);
  expect(g1).toMatchObject({ white: 'Rožič, Vesna', black: 'Četrta, Igralka', kind: 'classical', clockId: rig.clocks[0].serialId });
  await playAndConfirm(rig, g1, 20, 2 * MIN, '1/2-1/2');
  const g2 = await configuredFor(rig, 2);
  expect(g2).toMatchObject({ white: 'Četrta, Igralka', black: 'Rožič, Vesna', kind: 'classical' });
  await playAndConfirm(rig, g2, 20, 2 * MIN, '1/2-1/2');

  // Tied 1-1: rapid after a 30-minute break; the board shows the countdown.
  const g3 = await configuredFor(rig, 3);
  expect(g3).toMatchObject({ kind: 'rapid', timeControl: '900+10', white: 'Rožič, Vesna' });
  const view = (await rig.api.inject({ method: 'GET', url: `/api/boards/${boardId(rig)}` })).json().board;
  expect(view.break).toMatchObject({ nextGameNo: 3, nextStage: 'rapid' });
  expect(view.break.remainingMs).toBeGreaterThan(25 * MIN);
  expect(view.break.remainingMs).toBeLessThanOrEqual(30 * MIN);
  rig.sim.advanceBy(30 * MIN); // the break
  expect(rig.host.state.board(boardId(rig))!).not.toHaveProperty('break');
  await playAndConfirm(rig, g3, 15, 20_000, '1-0');
  const g4 = await configuredFor(rig, 4);
  expect(g4).toMatchObject({ kind: 'rapid', white: 'Četrta, Igralka' });
  await playAndConfirm(rig, g4, 15, 20_000, '1-0'); // 1-1 in the rapid games

  // Still tied: armageddon, colours by lot, White 6 min / Black 5 min; a draw sends Black on.
  const g5 = await configuredFor(rig, 5);
  expect(g5).toMatchObject({ kind: 'armageddon', timeControl: 'W360-B300' });
  await playAndConfirm(rig, g5, 12, 10_000, '1/2-1/2');
}

/** What the journal, TRF and PGN must show after the match (shared by the in-memory and pty runs). */
export function checkMatchRecords(rig: MatchRig, pressesPerGame: number[]): void {
  const { journal } = rig;
  const games = journal.gamesByMatch('slo-w-2007/r1/b1');
  expect(games.map((g) => [g.gameNo, g.kind, g.result, g.confirmedBy])).toEqual([
    [1, 'classical', '1/2-1/2', ARBITER],
    [2, 'classical', '1/2-1/2', ARBITER],
    [3, 'rapid', '1-0', ARBITER],
    [4, 'rapid', '1-0', ARBITER],
    [5, 'armageddon', '1/2-1/2', ARBITER],
  ]);
  const arm = games[4];
  // Slovenian final art. 3: a drawn armageddon is a win for Black.
  expect(journal.getMatch('slo-w-2007/r1/b1')).toMatchObject({ status: 'decided', winner: arm.black, loser: arm.white, decidedBy: 'armageddon' });

  // Every press exactly once: per game, moves 1..n for each side, each (clock, boot, seq) once.
  games.forEach((g, i) => {
    const moved = journal.eventsByGame(g.gameId).filter((e) => e.type === 'moved');
    expect(moved).toHaveLength(pressesPerGame[i]);
    for (const side of ['white', 'black'] as const) {
      expect(moved.filter((e) => e.side === side).map((e) => e.move)).toEqual(Array.from({ length: pressesPerGame[i] / 2 }, (_, k) => k + 1));
    }
    // Mapped to UTC through the time sync: in press order. (Simulated time jumps during sync
    // exchanges here, so the bound itself is checked in host-bridge.test.ts on flowing time.)
    for (let k = 1; k < moved.length; k++) expect(moved[k].utcMs).toBeGreaterThanOrEqual(moved[k - 1].utcMs);
    expect(moved.every((e) => e.uncertaintyMs < UNSYNCED_UNCERTAINTY_MS)).toBe(true);
  });
  const keys = journal.eventsAfter(0, 100_000).map((e) => `${e.clockId}/${e.bootId}/${e.seq}`);
  expect(new Set(keys).size).toBe(keys.length);

  // TRF16 (standard): the two classical draws; round fields at columns 92-95 / 97 / 99 and 102-105 / 107 / 109.
  const trf = rig.exports.trf('slo-w-2007', 1);
  const rozic = trf.split('\r\n').find((l) => l.startsWith('001') && col(l, 15, 47).trim() === 'Rožič, Vesna')!;
  expect([col(rozic, 92, 95), col(rozic, 97, 97), col(rozic, 99, 99)]).toEqual(['   4', 'w', '=']);
  expect([col(rozic, 102, 105), col(rozic, 107, 107), col(rozic, 109, 109)]).toEqual(['   4', 'b', '=']);
  // Tag 222: the classical control; the armageddon in the blitz TRF as `W360-B300`.
  expect(parseTrf(trf).tags.get('222')).toEqual(['40/5400+30:900+30']);
  const blitz = parseTrf(trfCategory(rig, 'blitz'));
  expect(blitz.tags.get('222')).toEqual(['W360-B300']);

  // PGN of round 1 from the broadcast URL's source: the mini-match games `1.1.g` with their tags.
  const pgnText = rig.exports.pgn('slo-w-2007', 1);
  // The feed as a relay reads it: chessops and pgn-parser, every game.
  const pgn = readPgnWithBoth(pgnText).filter((x) => x.tags.Round.startsWith('1.1.'));
  // Unequal controls (the armageddon's W360-B300) are TimeControl `?` with each side's own tag (docs/exports.md).
  expect(pgn.map((x) => [x.tags.Round, x.tags.Result, x.tags.TimeControl, x.tags.White, x.tags.GameId])).toEqual(
    games.map((g) => [`1.1.${g.gameNo}`, g.result, g.timeControl.startsWith('W') ? '?' : g.timeControl, g.white, `slo-w-2007:1.1.${g.gameNo}`]),
  );
  // Live clock tags come from the clock's own reported times: 12 moves of 10 s from 6:00 / 5:00.
  expect([pgn[4].tags.WhiteClock, pgn[4].tags.BlackClock]).toEqual(['0:04:00', '0:03:00']);
}

// The rapid and blitz TRFs (tie-break games) are not on the ExportSource; read them from the exporter.
export const trfCategory = (rig: MatchRig, category: 'blitz' | 'rapid') => eventTrf(rig.journal, rig.hall, 'slo-w-2007', { upToRound: 1, category });

export interface RigOptions {
  /** The tournament (default: the Slovenian final fixture, loadSloHall). */
  readonly hall?: Hall;
  /** How the host reaches clock b: returns the host's line key after wiring it. */
  readonly wire?: (rig: MatchRig, clock: SimClock, table: number) => Promise<void>;
  readonly journalFile?: string;
  /**
   * Commit clock events on the journal's writer thread (default true, as `chessclock host`
   * runs: host/start-host.ts); false commits them on the event loop.
   */
  readonly writerThread?: boolean;
  /** The host's log lines (default: printed with E2E_LOG=1). */
  readonly log?: (line: string) => void;
}

/**
 * Wires each clock to the host over a real pty pair (socat): the clock opens one end with
 * serialport, the host opens the other by a stable name in the rig's directory (as
 * /dev/serial/by-id/… is for a USB clock), recorded in `paths` by table. The pairs go to
 * `ptys` for the test to close.
 */
export function ptyWiring(ptys: PtyPair[], paths = new Map<number, string>()): NonNullable<RigOptions['wire']> {
  return async (r, clock, table) => {
    const pty = await openPtyPair();
    ptys.push(pty);
    await clock.connectPty(pty.b);
    const path = join(r.dir, `clock-table-${table}`);
    symlinkSync(pty.a, path);
    paths.set(table, path);
    r.host.addLine(path, openSerialLine(path), { table });
  };
}

export async function buildRig(opts: RigOptions = {}): Promise<MatchRig> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-ko-'));
  const journal = new Journal(opts.journalFile ?? join(dir, 'clocks.db'), { outboxTopic: journalOutboxTopic, writerThread: opts.writerThread ?? true });
  const hall = opts.hall ?? loadSloHall();
  const { sim, hostClock } = simulatedHall(START);
  const host = new Host({
    journal,
    hall,
    clock: hostClock,
    backoff: { initialMs: 20, maxMs: 200 },
    log: opts.log ?? (process.env.E2E_LOG ? (l) => console.log(`[host] ${l}`) : undefined),
  }).start();
  const exports = journalExports(journal, hall, () => hostClock.nowUtcMs());
  const api = await buildApi({
    state: host.state,
    commands: host,
    exports,
    tokens: [{ arbiter: ARBITER, token: TOKEN }],
    nowUtcMs: () => hostClock.nowUtcMs(),
    dashboard: false,
  });
  const clocks = [await SimClock.boot('CLK-01', sim, presetTimeControl('rapid')), await SimClock.boot('CLK-02', sim, presetTimeControl('rapid'))];
  const rig: MatchRig = { dir, journal, hall, host, sim, api, clocks, hostClock, exports };
  for (const [i, c] of clocks.entries()) {
    if (opts.wire) await opts.wire(rig, c, i + 1);
    else host.addLine(`memory:table-${i + 1}`, c.memoryLine(), { table: i + 1 });
  }
  return rig;
}

export async function closeRig(rig: MatchRig): Promise<void> {
  await rig.api.close();
  await rig.host.close();
  for (const c of rig.clocks) c.stop();
  rig.journal.close();
  rmSync(rig.dir, { recursive: true, force: true });
}

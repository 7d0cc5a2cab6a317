// A Swiss from nothing (docs/tournament.md "Pairing the next round", round 1 through the engine):
// a tournament file with players and no round starts a hall — `chessclock hall` and the host it
// composes (host/start-host.ts) — with a simulated clock at every table a round of its players can
// use; the round the pairing engine proposes opens on the arbiter's approval, its boards get the
// clocks at their tables and the players' presses reach the journal; a host restarted on that
// journal brings the clocks back to the approved round in play. A hall that cannot start says why
// and exits non-zero, leaving nothing serving.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hallTables, startSimulatedHall, type SimulatedHall } from '../hall/simulated-hall.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { ARBITER, SWISS, swissBeforeRound1 } from '../host/app/next-round.fixture.ts';

const BIN = 'bin/chessclock.mjs';

/** Polls `probe` (every 50 ms) until it returns a value, or fails naming what it waited for. */
async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a Swiss whose file lists no round, in the simulated hall', () => {
  let hall: SimulatedHall | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await hall?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    hall = dir = null;
  });

  it('needs a table for every two players: 7 players, 3 boards (FIDE C.04.3: the odd one has the bye)', () => {
    expect(hallTables(parseTournament(swissBeforeRound1()))).toBe(3);
  });

  it('starts with a clock per table; the approved round 1 gets them and their presses are journaled; a restart brings them back to it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hall-swiss-'));
    const db = join(dir, 'hall.db');
    const start = () =>
      startSimulatedHall({ hall: parseTournament(swissBeforeRound1()), db, mqtt: 'none', listen: { host: '127.0.0.1', port: 0 }, speed: 200, confirm: false });
    hall = await start();
    expect([...hall.tableOf.values()].sort()).toEqual([1, 2, 3]);
    // The engine pairs round 1 when the host starts (the file lists none); nothing opens before approval.
    const h = hall;
    await until('the engine to propose round 1', () => h.host.proposedRounds().find((p) => p.round === 1 && p.status === 'proposed'));
    expect(h.host.state.boards().filter((b) => b.event === SWISS)).toEqual([]);

    expect(await h.host.approveRound(SWISS, 1, { arbiter: ARBITER })).toMatchObject({ ok: true, round: 1 });
    const games = h.journal.gamesByRound(SWISS, 1);
    expect(games).toHaveLength(3);
    // Every board of the round has the simulated clock of its table (event board b at hall table b).
    const assigned = await until('the clocks at the round 1 tables', () => {
      const rows = h.journal.gamesByRound(SWISS, 1);
      return rows.every((g) => g.clockId !== null) && rows;
    });
    expect(assigned.map((g) => [g.board, g.clockId])).toEqual([
      [1, 'sim-1'],
      [2, 'sim-2'],
      [3, 'sim-3'],
    ]);
    // The players start and press: a move reaches the journal on every board.
    await until('a press on every board of round 1', () => assigned.every((g) => h.journal.eventsByGame(g.gameId).some((e) => e.type === 'moved')));

    // A host restarted on the journal has the approved round (restoreApprovedRounds) and its clocks at their boards.
    await h.close();
    hall = await start();
    const again = hall;
    expect(again.host.hall.events[0].rounds.map((r) => r.number)).toEqual([1]);
    await until('the clocks online at the round 1 boards after the restart', () => {
      const boards = again.host.state.boards().filter((b) => b.event === SWISS && b.round === 1);
      return boards.length === 3 && boards.every((b) => b.clockOnline && b.clockId === `sim-${b.board}`);
    });
  }, 90_000);
});

describe('chessclock hall that cannot start', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('exits non-zero with its error and leaves nothing serving (a Swiss of one player has no board)', () => {
    dir = mkdtempSync(join(tmpdir(), 'hall-none-'));
    const raw = swissBeforeRound1();
    raw.events[0].players = raw.events[0].players.slice(0, 1);
    const file = join(dir, 'one.json');
    writeFileSync(file, JSON.stringify(raw));
    // spawnSync returns only once the process has ended: a hall still serving would hit the timeout (status null).
    const r = spawnSync(process.execPath, [BIN, 'hall', '--tournament', file, '--http', '0', '--mqtt', 'none'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('chessclock hall: cannot start: the tournament has no table to play at');
    expect(r.stdout).not.toContain('dashboard:');
  }, 90_000);
});

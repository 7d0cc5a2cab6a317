// End to end (docs/broadcast.md "Running it"): a whole host — journal, simulated clocks whose
// players press at accelerated time, the director — broadcasting round 1 to a lichess stand-in on
// loopback (host/adapters/broadcast/lichess-stand-in.fixture.ts, parsing every game with chessops),
// with the moves from a folder a board system rewrites. Every game reaches the stand-in with every
// move, every %clk equal to the journal's figure of its press, and no game refused.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemTime } from '../protocol/monotonic.ts';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import type { GameRow } from '../host/store/journal.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { HallClocks } from '../simulator/hall-clocks.ts';
import { LichessStandIn } from '../host/adapters/broadcast/lichess-stand-in.fixture.ts';

const FIXTURES = fileURLToPath(new URL('../host/domain/fixtures/', import.meta.url));
const EVENT = 'ivanovo-2018';
const ROUND_ID = 'ivaR0und';
const TOKEN = 'lip_hallOrganiser';

const work = mkdtempSync(join(tmpdir(), 'broadcast-e2e-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Each game's presses (`white:1` → the mover's time after it), the later press of a move winning. */
function pressFigures(running: RunningHost, game: GameRow): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of running.journal.eventsByGame(game.gameId)) if (e.type === 'moved') out.set(`${e.side}:${e.move}`, e.side === 'white' ? e.whiteMs : e.blackMs);
  return out;
}

/** Legal moves for any number of plies: the knights go out and back (White Nf3/Ng1, Black Nf6/Ng8). */
const knightMoves = (plies: number) =>
  Array.from(
    { length: plies },
    (_, i) =>
      [
        ['Nf3', 'Nf6'],
        ['Ng1', 'Ng8'],
      ][Math.floor(i / 2) % 2][i % 2],
  );

function movetext(sans: string[]): string {
  return sans.map((san, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${san}` : san)).join(' ');
}

describe('the host pushes a round to a lichess broadcast (stand-in on loopback)', () => {
  it('every game reaches lichess with every move, every %clk equal to the journal, and no game refused', { timeout: 120_000 }, async () => {
    const standIn = new LichessStandIn({ [TOKEN]: { user: 'organiser', scopes: ['study:write'] } }, { [ROUND_ID]: { contributors: ['organiser'] } });
    const lichess = await standIn.start();
    cleanups.push(() => standIn.stop());
    const movesDir = join(work, 'livechess-round-1');
    mkdirSync(movesDir);

    const hall = parseTournament(JSON.parse(readFileSync(join(FIXTURES, 'ivanovo-white-rook-2018.json'), 'utf8')));
    const time = new AcceleratedTime(200);
    const hostClock = new AnchoredClock(
      { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
      { hostMs: 0, utcMs: 1_780_000_000_000 },
    );
    const fleet = await HallClocks.boot({ count: 4, time, seed: 11, serialId: (i) => `bc-clk-${i + 1}`, statusIntervalMs: 0 });
    const hostLog: string[] = [];
    const running = await startHost({
      journal: join(work, 'host.db'),
      hall,
      clock: hostClock,
      log: (l) => hostLog.push(l),
      lines: fleet.clocks.map((c) => ({ key: `memory:${c.serialId}`, open: c.cable.memoryLine(), table: c.index + 1 })),
      broadcast: {
        targets: [{ event: EVENT, round: 1, roundId: ROUND_ID }],
        lichessUrl: lichess,
        token: TOKEN,
        moves: { [EVENT]: { kind: 'folder', path: movesDir } },
        settleMs: 50,
        movesDebounceMs: 50,
      },
    });
    cleanups.push(async () => {
      await fleet.stop();
      await running.close();
    });
    fleet.play();

    // The players press; once each of the round's games has a few presses, the hall stops, and the
    // journal is read as it stands.
    const games = () => running.journal.gamesByRound(EVENT, 1).filter((g) => g.clockId !== null);
    await waitFor(() => games().length === 4 && games().every((g) => pressFigures(running, g).size >= 6), 'six presses on every board');
    await fleet.stop();
    await running.host.idle();
    let count = -1;
    await waitFor(() => {
      const now = running.journal.eventsAfter(0, 100_000).length;
      const stable = now === count;
      count = now;
      return stable;
    }, 'the last presses journaled');

    // The board system writes the round's moves, as many as each game has presses, to its folder.
    const round = games();
    const text = round
      .map((g) => {
        const sans = knightMoves(pressFigures(running, g).size);
        return `[Event "?"]\n[Round "1.${g.board}"]\n[White "${g.white}"]\n[Black "${g.black}"]\n[Result "*"]\n\n${movetext(sans)} *\n`;
      })
      .join('\n');
    writeFileSync(join(movesDir, 'games.pgn'), text);
    // A board the system also saw that is no board of this round: reported with its file and line, never guessed.
    writeFileSync(join(movesDir, 'other.pgn'), '[Event "?"]\n[Round "1.9"]\n[White "Nobody"]\n[Black "Else"]\n[Result "*"]\n\n1. e4 *\n');

    // lichess holds every game with every move and its time: the journal's figure, as the clock showed it.
    const matches = () =>
      round.every((g) => {
        const kept = standIn.games.get(ROUND_ID)?.get(`${EVENT}:1.${g.board}.${g.gameNo}`);
        const figures = pressFigures(running, g);
        if (!kept || kept.sans.length !== figures.size) return false;
        const keys = kept.sans.map((_, i) => `${i % 2 === 0 ? 'white' : 'black'}:${Math.floor(i / 2) + 1}`);
        return kept.clocks.every(
          (c, i) => c === (figures.get(keys[i])! < 60_000 ? Math.ceil(figures.get(keys[i])! / 100) / 10 : Math.ceil(figures.get(keys[i])! / 1000)),
        );
      });
    await waitFor(matches, "every game at lichess with its moves and the journal's times").catch((err) => {
      throw new Error(`${(err as Error).message}\n${hostLog.join('\n')}\n${standIn.pushes.map((p) => `${p.status} ${p.games}`).join(', ')}`);
    });
    const answered = standIn.pushes.filter((p) => p.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    expect(standIn.pushes.filter((p) => p.status !== 200)).toEqual([]);
    expect(standIn.concurrentRefusals).toBe(0);
    // The arbiter enters and confirms board 1's result: it reaches lichess with no press on the clock.
    const first = round[0];
    const boardId = running.host.state.boards().find((b) => b.event === EVENT && b.round === 1 && b.board === first.board)!.id;
    const arbiter = { arbiter: 'Glavni sodnik' };
    expect((await running.host.execute({ type: 'result', boardId, result: '1-0' }, arbiter)).ok).toBe(true);
    expect((await running.host.execute({ type: 'confirm-result', boardId }, arbiter)).ok).toBe(true);
    await waitFor(
      () => standIn.games.get(ROUND_ID)?.get(`${EVENT}:1.${first.board}.${first.gameNo}`)?.tags.Result === '1-0',
      'the confirmed result at lichess',
    );
    const decided = standIn.games.get(ROUND_ID)!.get(`${EVENT}:1.${first.board}.${first.gameNo}`)!;
    expect([decided.tags.Termination, decided.sans.length, decided.tags.Clock]).toEqual(['normal', pressFigures(running, first).size, undefined]);
    await waitFor(() => running.broadcast!.status()[0].unmatched.length > 0, 'the game of no board reported');
    await running.broadcast!.idle();
    const [status] = running.broadcast!.status();
    expect(status.lastPush!.games.filter((g) => g.error !== null)).toEqual([]);
    expect(status.warnings).toEqual([]);
    expect(status.unmatched.map((u) => u.game)).toEqual(['1.9 Nobody – Else']);
    expect(hostLog.join('\n')).toContain(`broadcast: moves game "1.9 Nobody – Else" (${join(movesDir, 'other.pgn')}:1) is no board of round 1 of ${EVENT}`);
    expect(hostLog.join('\n')).not.toContain(TOKEN);
  });
});

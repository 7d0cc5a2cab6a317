// End to end (docs/broadcast.md "The delay"; European rule Q.2.4, a 15-minute delay): a whole host
// with simulated clocks pressing at accelerated time, a delay of 900 s for the event, a lichess
// stand-in on loopback and the public PGN feed. Nothing of a game reaches the stand-in or the feed
// before its time plus the delay — checked at each push as it arrives and at each read of the feed,
// against the journal — and after the delay every move arrives with every %clk equal to the
// journal; a result arrives only with the delayed moves; the journal's broadcast log shows each push.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { systemTime } from '../protocol/monotonic.ts';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import type { GameRow } from '../host/store/journal.ts';
import { AcceleratedTime } from '../simulator/accelerated-time.ts';
import { HallClocks } from '../simulator/hall-clocks.ts';
import { LichessStandIn } from '../host/adapters/broadcast/lichess-stand-in.fixture.ts';
import { readWithChessops } from '../host/adapters/broadcast/chessops-reader.fixture.ts';

const FIXTURES = fileURLToPath(new URL('../host/domain/fixtures/', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const EVENT = 'ivanovo-2018';
const ROUND_ID = 'ivaDelay';
const TOKEN = 'lip_hallOrganiser';
const DELAY_MS = 900_000;

const work = mkdtempSync(join(tmpdir(), 'broadcast-delay-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await check())) {
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

/** Presses journaled at or before `utcMs`. */
const pressesBy = (running: RunningHost, game: GameRow, utcMs: number) =>
  running.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved' && e.utcMs <= utcMs).length;

/** Legal moves for any number of plies: the knights go out and back. */
const knightMoves = (plies: number) =>
  Array.from(
    { length: plies },
    (_, i) =>
      [
        ['Nf3', 'Nf6'],
        ['Ng1', 'Ng8'],
      ][Math.floor(i / 2) % 2][i % 2],
  );
const movetext = (sans: string[]) => sans.map((san, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${san}` : san)).join(' ');
const shown = (ms: number) => (ms < 60_000 ? Math.ceil(ms / 100) / 10 : Math.ceil(ms / 1000));

describe('the broadcast delay, kept in the hall (docs/broadcast.md "The delay")', () => {
  it('with 900 s, nothing reaches lichess or the public feed before its time plus the delay; then every move with its %clk; the log shows each push', {
    timeout: 180_000,
  }, async () => {
    const standIn = new LichessStandIn({ [TOKEN]: { user: 'organiser', scopes: ['study:write'] } }, { [ROUND_ID]: { contributors: ['organiser'] } });
    const lichess = await standIn.start();
    cleanups.push(() => standIn.stop());
    const movesDir = join(work, 'livechess-round-1');
    mkdirSync(movesDir);
    const hall = parseTournament(JSON.parse(readFileSync(join(FIXTURES, 'ivanovo-white-rook-2018.json'), 'utf8')));
    const time = new AcceleratedTime(250);
    const hostClock = new AnchoredClock(
      { now: () => time.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer },
      { hostMs: 0, utcMs: 1_780_000_000_000 },
    );
    const fleet = await HallClocks.boot({ count: 4, time, seed: 11, serialId: (i) => `bd-clk-${i + 1}`, statusIntervalMs: 0 });
    const hostLog: string[] = [];
    const running = await startHost({
      journal: join(work, 'host.db'),
      hall,
      clock: hostClock,
      log: (l) => hostLog.push(l),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [] },
      lines: fleet.clocks.map((c) => ({ key: `memory:${c.serialId}`, open: c.cable.memoryLine(), table: c.index + 1 })),
      broadcast: {
        targets: [{ event: EVENT, round: 1, roundId: ROUND_ID }],
        lichessUrl: lichess,
        token: TOKEN,
        moves: { [EVENT]: { kind: 'folder', path: movesDir } },
        settleMs: 50,
        movesDebounceMs: 50,
        // The host's timers run on real time here (its links' timeouts); the delay's on the hall's accelerated time.
        releaseTimers: { setTimer: (fn, ms) => time.setTimer(fn, ms), clearTimer: (h) => time.clearTimer(h) },
      },
      broadcastDelay: { [EVENT]: DELAY_MS / 1000 },
    });
    cleanups.push(async () => {
      await fleet.stop();
      await running.close();
    });
    const games = () => running.journal.gamesByRound(EVENT, 1).filter((g) => g.clockId !== null);
    const gameOf = (gameId: string | undefined) => games().find((g) => `${EVENT}:1.${g.board}.${g.gameNo}` === gameId);

    // Each push, as it arrives at lichess: nothing in it newer than now − delay, by the journal.
    const early: string[] = [];
    let arrived = 0;
    standIn.on('push', (push) => {
      const cutoff = hostClock.nowUtcMs() - DELAY_MS;
      arrived++;
      for (const g of readWithChessops(push.body)) {
        const game = gameOf(g.tags.GameId);
        if (!game) continue;
        if (game.createdUtcMs > cutoff) early.push(`${g.tags.GameId} pushed ${game.createdUtcMs - cutoff} ms before its time`);
        if (g.tags.Result !== '*' && !(game.confirmedUtcMs !== null && game.confirmedUtcMs <= cutoff))
          early.push(`${g.tags.GameId}: result ${g.tags.Result} early`);
        if (g.tags.Result === '*' && g.sans.length > pressesBy(running, game, cutoff))
          early.push(`${g.tags.GameId}: ${g.sans.length} moves, ${pressesBy(running, game, cutoff)} pressed by now − delay`);
      }
    });
    // The public feed, read: a game shows only once it was in the journal the delay ago; a result once confirmed the delay ago.
    const feed = async () => {
      const before = hostClock.nowUtcMs();
      const text = await (await fetch(`${running.url}/broadcast/round/1/games.pgn?event=${EVENT}`)).text();
      const after = hostClock.nowUtcMs();
      const read = text.trim() === '' ? [] : readWithChessops(text);
      for (const g of games()) {
        const shownGame = read.find((r) => r.tags.GameId === `${EVENT}:1.${g.board}.${g.gameNo}`);
        if (shownGame && g.createdUtcMs > after - DELAY_MS) early.push(`feed: ${shownGame.tags.GameId} before its time`);
        if (!shownGame && g.createdUtcMs <= before - DELAY_MS) early.push(`feed: ${g.board} missing after its time`);
        const confirmed = g.confirmedUtcMs;
        if (shownGame && shownGame.tags.Result !== '*' && !(confirmed !== null && confirmed <= after - DELAY_MS))
          early.push(`feed: result of board ${g.board} early`);
      }
      return read;
    };

    // At the start the round's games, just paired, are in the journal; the public feed has none of them yet.
    expect(running.journal.gamesByRound(EVENT, 1).length).toBeGreaterThan(0);
    fleet.play();
    expect(await feed()).toEqual([]);
    // The players press; the feed is read while they do.
    await waitFor(async () => (await feed()).length > 0, 'the games in the public feed, after the delay');
    await waitFor(() => games().length === 4 && games().every((g) => pressFigures(running, g).size >= 6), 'six presses on every board').catch((err) => {
      const figures = running.journal.gamesByRound(EVENT, 1).map((g) => `${g.board}:${g.clockId}:${pressFigures(running, g).size}:${g.result}`);
      throw new Error(`${(err as Error).message}: ${figures.join(' ')} at ${hostClock.nowUtcMs() - 1_780_000_000_000}\n${hostLog.slice(-20).join('\n')}`);
    });
    await waitFor(() => arrived > 0, 'a push at lichess, after the delay');
    await fleet.stop();
    await running.host.idle();
    let count = -1;
    await waitFor(() => {
      const now = running.journal.eventsAfter(0, 100_000).length;
      const stable = now === count;
      count = now;
      return stable;
    }, 'the last presses journaled');

    // The board system writes every move made so far: they leave the hall only as their presses come due.
    const round = games();
    writeFileSync(
      join(movesDir, 'games.pgn'),
      round
        .map(
          (g) =>
            `[Event "?"]\n[Round "1.${g.board}"]\n[White "${g.white}"]\n[Black "${g.black}"]\n[Result "*"]\n\n${movetext(knightMoves(pressFigures(running, g).size))} *\n`,
        )
        .join('\n'),
    );
    const matches = () =>
      round.every((g) => {
        const kept = standIn.games.get(ROUND_ID)?.get(`${EVENT}:1.${g.board}.${g.gameNo}`);
        const figures = pressFigures(running, g);
        if (!kept || kept.sans.length !== figures.size) return false;
        const keys = kept.sans.map((_, i) => `${i % 2 === 0 ? 'white' : 'black'}:${Math.floor(i / 2) + 1}`);
        return kept.clocks.every((c, i) => c === shown(figures.get(keys[i])!));
      });
    await waitFor(matches, "every game at lichess with its moves and the journal's times, after the delay").catch((err) => {
      throw new Error(`${(err as Error).message}\n${hostLog.join('\n')}`);
    });
    const lastPress = Math.max(...round.flatMap((g) => running.journal.eventsByGame(g.gameId).map((e) => e.utcMs)));
    expect(hostClock.nowUtcMs()).toBeGreaterThanOrEqual(lastPress + DELAY_MS);
    expect((await feed()).length).toBe(running.journal.gamesByRound(EVENT, 1).length);

    // The arbiter confirms board 1's result: at once on the dashboard, at lichess and in the feed only after the delay.
    const first = round[0];
    const board = running.host.state.boards().find((b) => b.event === EVENT && b.round === 1 && b.board === first.board)!;
    const arbiter = { arbiter: 'Glavni sodnik' };
    expect((await running.host.execute({ type: 'result', boardId: board.id, result: '1-0' }, arbiter)).ok).toBe(true);
    expect((await running.host.execute({ type: 'confirm-result', boardId: board.id }, arbiter)).ok).toBe(true);
    const confirmedAt = running.journal.gamesByRound(EVENT, 1).find((g) => g.gameId === first.gameId)!.confirmedUtcMs!;
    const inFeed = async () => (await feed()).find((g) => g.tags.GameId === `${EVENT}:1.${first.board}.${first.gameNo}`)?.tags.Result;
    expect(await inFeed()).toBe('*');
    await waitFor(async () => (await inFeed()) === '1-0', 'the result in the public feed');
    expect(hostClock.nowUtcMs()).toBeGreaterThanOrEqual(confirmedAt + DELAY_MS);
    await waitFor(() => standIn.games.get(ROUND_ID)?.get(`${EVENT}:1.${first.board}.${first.gameNo}`)?.tags.Result === '1-0', 'the result at lichess');
    const decided = standIn.games.get(ROUND_ID)!.get(`${EVENT}:1.${first.board}.${first.gameNo}`)!;
    expect(decided.sans.length).toBe(pressFigures(running, first).size);
    await running.broadcast!.idle();
    expect(early).toEqual([]);

    // The journal's broadcast log: every request that left, none holding anything newer than its time minus the delay.
    const log = running.journal.broadcastPushes(EVENT);
    expect(log.length).toBe(standIn.pushes.length);
    for (const p of log) {
      expect([p.round, p.lichessRound, p.delayMs, p.status]).toEqual([1, ROUND_ID, DELAY_MS, 200]);
      expect(p.asOfUtcMs).toBeLessThanOrEqual(p.sentUtcMs - DELAY_MS);
      expect(p.newestUtcMs!).toBeLessThanOrEqual(p.asOfUtcMs);
      expect(p.games.every((g) => g.error === null && g.moves === g.plies)).toBe(true);
    }
    const lastPlies = new Map(log.at(-1)!.games.map((g) => [g.gameId, g.plies]));
    expect(round.map((g) => lastPlies.get(`${EVENT}:1.${g.board}.${g.gameNo}`))).toEqual(round.map((g) => pressFigures(running, g).size));
    expect(hostLog.join('\n')).not.toContain(TOKEN);
    // What the delay does not hold back is said at the start.
    expect(hostLog).toContain(
      `warning: broadcast delay (${EVENT} 900 s) holds back the lichess push and /broadcast/round/N/games.pgn only; the API's reads and /public stay live: serve them to the hall's LAN only (docs/broadcast.md "The delay")`,
    );

    // `chessclock export --broadcast-log`: the same, one line per push, each checked `held`.
    const exported = spawnSync(
      process.execPath,
      [BIN, 'export', '--db', join(work, 'host.db'), '--tournament', join(FIXTURES, 'ivanovo-white-rook-2018.json'), '--event', EVENT, '--broadcast-log'],
      { encoding: 'utf8' },
    );
    expect([exported.status, exported.stderr]).toEqual([0, '']);
    const [header, ...lines] = exported.stdout.trimEnd().split('\n');
    expect(header.split('\t')).toEqual([
      'sent (UTC)',
      'round',
      'lichess round',
      'games (moves)',
      'as of (UTC)',
      'newest fact (UTC)',
      'delay',
      'answer',
      'check',
    ]);
    expect(lines.length).toBe(log.length);
    lines.forEach((line, i) => {
      const cells = line.split('\t');
      expect([cells[0], cells[1], cells[2], cells[4], cells[6], cells[8]]).toEqual([
        new Date(log[i].sentUtcMs).toISOString(),
        '1',
        ROUND_ID,
        new Date(log[i].asOfUtcMs).toISOString(),
        '900 s',
        'held',
      ]);
    });
  });
});

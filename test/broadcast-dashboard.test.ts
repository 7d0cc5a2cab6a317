// End to end (docs/broadcast.md "On the dashboard"; docs/tournament.md "The broadcast block"): a
// host started from a tournament file whose broadcast block splits round 1 over two lichess rounds
// by board ranges, pushing to a lichess stand-in on loopback that parses every game with chessops.
// A board whose moves hold an illegal move is refused by lichess for that game: the board's view
// (as the dashboard receives it through watchBoards) carries lichess's error, the journal records
// it once with the board, and the other boards go to their own lichess round, unrefused.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost } from '../host/start-host.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { AnchoredClock } from '../host/app/utc.ts';
import { systemTime } from '../protocol/monotonic.ts';
import type { BoardView } from '../host/app/ports.ts';
import { readBroadcastOptions } from '../host/adapters/broadcast/broadcast-options.ts';
import { LichessStandIn } from '../host/adapters/broadcast/lichess-stand-in.fixture.ts';

const FIXTURES = fileURLToPath(new URL('../host/domain/fixtures/', import.meta.url));
const EVENT = 'ivanovo-2018';
const TOKEN = 'lip_hallOrganiser';

const work = mkdtempSync(join(tmpdir(), 'broadcast-dash-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the broadcast on the arbiter's dashboard", () => {
  it("lichess's error for a game is on its board's view and journaled once; the file's board ranges go to their own lichess rounds", async () => {
    const standIn = new LichessStandIn(
      { [TOKEN]: { user: 'organiser', scopes: ['study:write'] } },
      { boardOne: { contributors: ['organiser'] }, boardsUp: { contributors: ['organiser'] } },
    );
    const lichess = await standIn.start();
    cleanups.push(() => standIn.stop());
    const movesDir = join(work, 'livechess');
    mkdirSync(movesDir);

    const raw = JSON.parse(readFileSync(join(FIXTURES, 'ivanovo-white-rook-2018.json'), 'utf8'));
    raw.events[0].broadcast = {
      moves: `${movesDir}/`,
      rounds: {
        '1': [
          { boards: '1-1', lichess: 'boardOne' },
          { boards: '2-99', lichess: 'boardsUp' },
        ],
      },
    };
    const hall = parseTournament(raw);
    // As `chessclock host` reads it: the file's block, the token from the environment.
    const setup = readBroadcastOptions({ lichessUrl: lichess }, hall, {
      env: { CHESSCLOCK_LICHESS_TOKEN: TOKEN },
      readFile: () => '',
      isFolder: () => true,
    })!;
    const hostLog: string[] = [];
    const running = await startHost({
      journal: join(work, 'host.db'),
      hall,
      clock: new AnchoredClock(systemTime, { hostMs: systemTime.now(), utcMs: 1_780_000_000_000 }),
      log: (l) => hostLog.push(l),
      lines: [],
      broadcast: { ...setup, settleMs: 50, movesDebounceMs: 50 },
    });
    cleanups.push(() => running.close());
    const seen: BoardView[] = [];
    running.host.state.watchBoards((b) => seen.push(b));
    const round = running.journal.gamesByRound(EVENT, 1);
    expect(round.length).toBeGreaterThan(1);

    // The board system's moves: board 1's game holds an illegal first move (a pawn e2-e5).
    const [one, ...rest] = round;
    const game = (g: (typeof round)[number], moves: string) =>
      `[Event "?"]\n[Round "1.${g.board}"]\n[White "${g.white}"]\n[Black "${g.black}"]\n[Result "*"]\n\n${moves} *\n`;
    writeFileSync(join(movesDir, 'round-1.pgn'), [game(one, '1. e5'), ...rest.map((g) => game(g, '1. Nf3 Nf6'))].join('\n'));

    const viewOf = () => running.host.state.boards().find((b) => b.event === EVENT && b.round === 1 && b.board === one.board)!;
    await waitFor(() => viewOf().broadcast?.lichessError !== undefined, "lichess's error on board 1's view").catch((err) => {
      throw new Error(`${(err as Error).message}\n${hostLog.join('\n')}`);
    });
    const view = viewOf();
    expect(view.broadcast).toMatchObject({ lichessRound: 'boardOne', lichessError: expect.stringMatching(/e5/) });
    // The dashboard heard of it through watchBoards, with no clock event.
    expect(seen.some((b) => b.id === view.id && b.broadcast?.lichessError === view.broadcast!.lichessError)).toBe(true);
    await running.broadcast!.idle();
    // The other boards went to the second lichess round, read there, none refused.
    const upper = standIn.games.get('boardsUp')!;
    expect([...upper.keys()].sort()).toEqual(rest.map((g) => `${EVENT}:1.${g.board}.${g.gameNo}`).sort());
    expect([...upper.values()].map((g) => g.sans)).toEqual(rest.map(() => ['Nf3', 'Nf6']));
    // No clock pressed on this hall: each board says its moves have no presses (docs/broadcast.md "The merged games").
    for (const g of rest) {
      const bc = running.host.state.boards().find((b) => b.event === EVENT && b.board === g.board)!.broadcast!;
      expect(bc).toMatchObject({ lichessRound: 'boardsUp', warning: expect.stringMatching(/^Moves and clock presses differ: White 1 moves \/ 0 presses/) });
      expect(bc.lichessError).toBeUndefined();
    }
    // Journaled once, with its board, however often the round was pushed since.
    const refused = running.journal.arbiterActions().filter((a) => a.action === 'broadcast-refused');
    expect(refused.map((a) => [a.event, a.round, a.board, a.gameId, a.payload])).toEqual([
      [EVENT, 1, one.board, one.gameId, { lichessRound: 'boardOne', game: `${EVENT}:1.${one.board}.${one.gameNo}` }],
    ]);
    expect(refused[0].reason).toBe(view.broadcast!.lichessError);
  });
});

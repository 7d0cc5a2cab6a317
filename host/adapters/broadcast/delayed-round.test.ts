// docs/broadcast.md "The delay": a delayed broadcast shows each game as the journal held it at
// now − delay (host/app/journal-as-of.ts `gameAsOf`): its presses up to then, the running clock
// read by the rule book at that instant, a result only once it was reported and confirmed by
// then, and (live-pgn.ts `pressedMovesOnly`) only the moves pressed by then — until the result,
// which goes out with every move that led to it. European rule Q.2.4: nothing of a game leaves
// the hall before its time plus the delay.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { factTimesAfter, gameAsOf, newestFactUtcMs } from '../../app/journal-as-of.ts';
import { BroadcastHall, CLASSICAL, press } from './broadcast-hall.fixture.ts';
import { readWithChessops } from './chessops-reader.fixture.ts';
import { broadcastRound, joinGames } from './live-pgn.ts';
import type { RoundState } from './live-pgn.ts';

let hall: BroadcastHall;
beforeEach(() => {
  hall = new BroadcastHall();
});
afterEach(() => hall.journal.close());

/** What the clock's display shows of `ms` (rounded up): whole seconds, tenths under a minute. */
const shown = (ms: number) => (ms < 60_000 ? Math.ceil(ms / 100) / 10 : Math.ceil(ms / 1000));
const seconds = (text: string) => {
  const [h, m, s] = text.split(':');
  return (Number(h) * 60 + Number(m)) * 60 + Number(s);
};

/** The round as the journal held it at `instant`. */
function roundAsOf(instant: number): RoundState {
  const round = hall.round(CLASSICAL);
  return { ...round, games: round.games.flatMap(({ game, events }) => gameAsOf(game, events, instant) ?? []) };
}

const SIX_PLIES = (white: string, black: string) => `[Round "1.1"]\n[White "${white}"]\n[Black "${black}"]\n[Result "*"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 *\n`;

describe('a game as it stood at an instant (docs/broadcast.md "The delay")', () => {
  it('keeps the events up to the instant; the running clock at the instant is the rule book’s, each %clk the journal’s', () => {
    const [b1] = hall.games[CLASSICAL];
    const clock = hall.clock(b1);
    const pressAt: number[] = [];
    for (const ms of [20_000, 30_000, 40_000, 50_000]) {
      press(clock, ms);
      pressAt.push(hall.utc(clock.now));
    }
    const figures = hall.pressFigures(b1);
    const all = hall.journal.eventsByGame(b1.gameId);
    // 10 s after White's second press (Black to move, Black's clock running).
    const instant = pressAt[2] + 10_000;
    const asOf = gameAsOf(b1, all, instant)!;
    expect(asOf.events.every((e) => e.utcMs <= instant)).toBe(true);
    expect(asOf.events.filter((e) => e.type === 'moved').map((e) => `${e.side}:${e.move}`)).toEqual(['white:1', 'black:1', 'white:2']);
    expect(newestFactUtcMs(asOf)).toBe(pressAt[2]);

    const round = broadcastRound(roundAsOf(instant), instant, SIX_PLIES(b1.white, b1.black), { pressedMovesOnly: true });
    const [game] = readWithChessops(joinGames(round.games));
    // Only the moves pressed by the instant: White's 2nd move is in, Black's 2nd (pressed later) is not.
    expect(game.sans).toEqual(['e4', 'e5', 'Qh5']);
    expect(round.games[0]).toMatchObject({ plies: 3, newestUtcMs: pressAt[2], asOfUtcMs: instant });
    expect(game.clocks).toEqual([shown(figures.get('white:1')!), shown(figures.get('black:1')!), shown(figures.get('white:2')!)]);
    // The clocks as they stood: White's after its press, Black's running 10 s since then.
    expect(seconds(game.tags.WhiteClock)).toBe(shown(figures.get('white:2')!));
    expect(seconds(game.tags.BlackClock)).toBe(shown(figures.get('black:1')! - 10_000));
    expect(game.tags.Clock).toMatch(/^B\//);
    expect(round.warnings).toEqual([]);
    // Nothing of the game before it was in the journal.
    expect(gameAsOf(b1, all, b1.createdUtcMs - 1)).toBeNull();
    // The facts still to show after the instant: the press after it.
    expect(factTimesAfter([{ game: b1, events: all }], instant)).toEqual([pressAt[3]]);
  });

  it('a result shows only from the instant it was confirmed, with every move that led to it, the mate with no press too', () => {
    const [b1] = hall.games[CLASSICAL];
    const clock = hall.clock(b1);
    for (const ms of [5_000, 6_000, 7_000, 8_000, 9_000]) press(clock, ms);
    // 3... Nf6?? 4. Qxf7#: Black's third move is pressed; White mates and does not press.
    const lastPress = hall.utc(clock.now);
    const reported = lastPress + 30_000;
    const confirmed = reported + 60_000;
    hall.journal.reportResult(b1.gameId, { result: '1-0', how: 'played', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: reported });
    hall.journal.confirmResult(b1.gameId, 'Ana Srebrnič', confirmed);
    const mate = `[Round "1.1"]\n[White "${b1.white}"]\n[Black "${b1.black}"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n`;
    const at = (instant: number) => readWithChessops(joinGames(broadcastRound(roundAsOf(instant), instant, mate, { pressedMovesOnly: true }).games))[0];

    const beforeReport = at(reported - 1);
    expect([beforeReport.tags.Result, beforeReport.sans.length]).toEqual(['*', 5]);
    // Reported but not yet confirmed: still `*` (docs/exports.md: a result shows once an arbiter confirmed it).
    const reportedOnly = at(confirmed - 1);
    expect([reportedOnly.tags.Result, reportedOnly.sans.length]).toEqual(['*', 5]);
    const released = at(confirmed);
    expect([released.tags.Result, released.tags.Termination, released.sans.at(-1), released.error]).toEqual(['1-0', 'normal', 'Qxf7#', null]);
    expect(gameAsOf(hall.journal.gamesByRound(CLASSICAL, 1)[0], [], confirmed - 1)!.game).toMatchObject({ result: '1-0', confirmedBy: null });
  });

  it('without a delay the moves source is shown whole, as before', () => {
    const [b1] = hall.games[CLASSICAL];
    const clock = hall.clock(b1);
    press(clock, 5_000);
    const now = hall.utc(clock.now);
    const [game] = readWithChessops(joinGames(broadcastRound(hall.round(CLASSICAL), now, SIX_PLIES(b1.white, b1.black)).games));
    expect(game.sans.length).toBe(6);
  });
});

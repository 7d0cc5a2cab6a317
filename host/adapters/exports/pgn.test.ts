import { afterAll, describe, expect, it } from 'vitest';
import { parseSideControl, presetTimeControl, timeControl } from '../../../protocol/time-control.ts';
import { journals, playJournaled } from '../../clocks/journaled-clock.fixture.ts';
import { formatPgnClock } from '../../../rules/display-format.ts';
import { Journal } from '../../store/journal.ts';
import { formatPgnGame, liveClock, pgnGameId, PgnWriteError, unplayedGame, type PgnGame } from '../../app/pgn-game.ts';
import { readPgnWithBoth, timeControlFieldIsValid } from './pgn-readers.fixture.ts';
import { eventJson, gameJsonl, journalJsonl } from './jsonl.ts';
import { replayLines, setupLine } from './replay-log.ts';

afterAll(() => journals.forEach((j) => j.close()));

/** The tag names of a PGN we wrote, in the order written (the readers hand tags over as a map). */
const tagNames = (text: string) => [...text.matchAll(/^\[(\w+) /gm)].map((m) => m[1]);

const base: PgnGame = {
  event: 'Finale "A" \\ 2007',
  site: 'Ljubljana SLO',
  date: '2007.08.16',
  round: '1.1',
  white: 'Rožič, Vesna',
  black: 'Bajt, Indira',
  result: null,
  timeControl: presetTimeControl('classical'),
};

describe('PGN', () => {
  it("h:mm:ss as the PGN supplement and broadcast relays read it, rounded up like the clock's display (FIDE equipment standard (b): the time available)", () => {
    expect(formatPgnClock(5_400_000)).toBe('1:30:00');
    expect(formatPgnClock(59_999)).toBe('0:01:00');
    expect(formatPgnClock(59_000)).toBe('0:00:59');
    expect(formatPgnClock(400)).toBe('0:00:01'); // still time left: never 0:00:00 before the flag
    expect(formatPgnClock(0)).toBe('0:00:00');
    expect(formatPgnClock(-5)).toBe('0:00:00');
  });

  it('Seven Tag Roster first (PGN §8.1.1), strings escaped (§7), unknown result `*` while the game runs', () => {
    const text = formatPgnGame({ ...base, clock: { whiteMs: 5_000_000, blackMs: 5_100_000, running: 'black' } });
    expect(tagNames(text).slice(0, 7)).toEqual(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result']);
    const games = readPgnWithBoth(text);
    expect(games).toHaveLength(1);
    expect(games[0].tags).toMatchObject({
      Event: 'Finale "A" \\ 2007',
      Result: '*',
      TimeControl: '40/5400+30:900+30',
      WhiteClock: '1:23:20',
      BlackClock: '1:25:00',
      Clock: 'B/1:25:00',
    });
    expect([games[0].sans, games[0].comments]).toEqual([[], []]); // the movetext is the result alone
  });

  it('live clock: the rule book’s time since the last event — a simple delay is free, a sandclock fills the other glass, a result stops it', () => {
    // A simple delay of 5 s (US delay): White's first 5 s of a turn cost nothing.
    const delay = timeControl(
      parseSideControl([{ seconds: 60, delay: 5, delayMode: 'simple' }]),
      parseSideControl([{ seconds: 60, delay: 5, delayMode: 'simple' }]),
    );
    const d = playJournaled(delay, [{ kind: 'start' }], 1_000);
    const dEvents = d.journal.eventsByGame(d.game.gameId);
    const at = dEvents.at(-1)!.utcMs;
    expect(liveClock(d.game, dEvents, at + 3_000, false)).toEqual({ whiteMs: 60_000, blackMs: 60_000, running: 'white' });
    expect(liveClock(d.game, dEvents, at + 8_000, false)).toEqual({ whiteMs: 57_000, blackMs: 60_000, running: 'white' });
    expect(liveClock(d.game, dEvents, at + 999_000, false)).toMatchObject({ whiteMs: 0 });
    // A game with a result: nobody's clock runs in the broadcast.
    expect(liveClock(d.game, dEvents, at + 8_000, true)).toEqual({ whiteMs: 60_000, blackMs: 60_000, running: null });
    // Sandclock 90 s: what runs out of White's glass runs into Black's.
    const sand = timeControl(parseSideControl('*90'), parseSideControl('*90'));
    const g = playJournaled(sand, [{ kind: 'start' }], 1_000);
    const gEvents = g.journal.eventsByGame(g.game.gameId);
    expect(liveClock(g.game, gEvents, gEvents.at(-1)!.utcMs + 10_000, false)).toEqual({ whiteMs: 80_000, blackMs: 100_000, running: 'white' });
  });

  it('moves with {[%clk]} when known; the movetext stays within 79 columns (§8.2.5)', () => {
    // The knights out and back: legal moves, so that both readers play them.
    const moves = Array.from({ length: 30 }, (_, i) => ({ san: ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4], clockMs: 5_400_000 - i * 1000 }));
    const text = formatPgnGame({ ...base, result: '1/2-1/2', moves });
    expect(text).toContain('\n\n1. Nf3 {[%clk 1:30:00]} Nf6 {[%clk 1:29:59]} 2. Ng1');
    const [g] = readPgnWithBoth(text);
    expect(g.sans).toEqual(moves.map((m) => m.san));
    expect(g.clocks).toEqual(moves.map((m) => m.clockMs / 1000));
    expect(g.result).toBe('1/2-1/2');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(79);
  });

  it("armageddon: TimeControl `?` (PGN §9.6.1: no single field gives unequal controls), each side's §9.6.1 field in WhiteTimeControl/BlackTimeControl (Cute Chess's tags)", () => {
    const text = formatPgnGame({ ...base, timeControl: presetTimeControl('armageddon') });
    expect(text).not.toContain('W360-B300');
    const [read] = readPgnWithBoth(text); // pgn-parser checks TimeControl and each side's field
    expect(read.tags).toMatchObject({ TimeControl: '?', WhiteTimeControl: '360', BlackTimeControl: '300' });
    expect(timeControlFieldIsValid('W360-B300')).toBe(false); // what was written before: pgn-parser refuses it
    // Equal controls keep the one TimeControl tag.
    expect(readPgnWithBoth(formatPgnGame(base))[0].tags.WhiteTimeControl).toBeUndefined();
  });

  it('chessops and pgn-parser read every game: escaped strings, moves with [%clk], a forfeit counted as a win, GameId (PGN standard §7, §8.2.6, §9.6.1)', () => {
    const moves = ['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4'].map((san, i) => ({ san, clockMs: 5_400_000 - i * 61_500 }));
    const text = [
      formatPgnGame({ ...base, gameId: 'slo-w-2007:1.1.1', result: '1/2-1/2', moves, clock: { whiteMs: 5_000_000, blackMs: 5_100_000, running: null } }),
      formatPgnGame({ ...base, round: '1.1.2', gameId: 'slo-w-2007:1.1.2', result: '+-', moves: moves.slice(0, 2), termination: 'rules infraction' }),
      formatPgnGame({
        ...base,
        round: '1.1.5',
        gameId: 'slo-w-2007:1.1.5',
        result: null,
        timeControl: presetTimeControl('armageddon'),
        clock: { whiteMs: 300_000, blackMs: 290_000, running: 'white' },
      }),
    ].join('\n');
    const games = readPgnWithBoth(text);
    expect(games.map((g) => [g.tags.Round, g.tags.Result, g.tags.GameId])).toEqual([
      ['1.1', '1/2-1/2', 'slo-w-2007:1.1.1'],
      ['1.1.2', '1-0', 'slo-w-2007:1.1.2'],
      ['1.1.5', '*', 'slo-w-2007:1.1.5'],
    ]);
    expect(games[0].tags.Event).toBe('Finale "A" \\ 2007');
    expect(games[0].sans).toEqual(['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4']);
    // [%clk] rounded up to whole seconds: 5_338_500 ms is 1:28:59 (5339 s).
    expect(games[0].clocks).toEqual(moves.map((m) => Math.ceil(m.clockMs / 1000)));
  });

  it('FIDE Laws 6.7.1, both players lost by forfeit: Result tag "0-0" (no §8.2.6 result says it), Termination, a comment saying so, and the marker "*" — read by chessops and pgn-parser, as "*", never as castling or a win', () => {
    const text = formatPgnGame({ ...base, gameId: 'ivanovo-2018:2.3.1', result: '--', termination: 'rules infraction' });
    expect(text).toMatch(/\[Result "0-0"\][\s\S]*\n\n\{Both players lost by forfeit \(0-0\)\.\} \*\n$/);
    // Between two other games: both readers read all three, the double forfeit without moves.
    const three = [formatPgnGame({ ...base, result: '1-0' }), text, formatPgnGame({ ...base, round: '1.2', result: '0-1' })].join('\n');
    const read = readPgnWithBoth(three);
    expect(read.map((r) => [r.result, r.tags.Result, r.sans])).toEqual([
      ['1-0', '1-0', []],
      ['0-0', '*', []],
      ['0-1', '0-1', []],
    ]);
    expect(read[1].comments).toEqual(['Both players lost by forfeit (0-0).']);
    expect(read[1].tags).toMatchObject({ Termination: 'rules infraction', GameId: 'ivanovo-2018:2.3.1' });
    // The caller's own comment (the round PGN's cites the Law) replaces the default one.
    const cited = formatPgnGame({ ...base, result: '--', comment: 'Both lost (FIDE Laws 6.7.1).' });
    expect(readPgnWithBoth(cited)[0].comments).toEqual(['Both lost (FIDE Laws 6.7.1).']);
  });

  it('refuses to write a name with a control character (§7)', () => {
    expect(() => formatPgnGame({ ...base, white: 'Rožič,\nVesna' })).toThrow(PgnWriteError);
    expect(() => formatPgnGame({ ...base, white: 'Rožič,\nVesna' })).toThrow(/PGN tag White: .* holds the control character U\+000A at position 7/);
  });

  it('unplayed games are left out: a confirmed forfeit win with no press; a forfeit after presses and a double forfeit (0-0) stay games', () => {
    const started = [{ type: 'started' }] as never[];
    const pressed = [{ type: 'started' }, { type: 'moved' }] as never[];
    expect(unplayedGame('-+', started)).toBe(true);
    expect(unplayedGame('+-', [])).toBe(true);
    expect(unplayedGame('--', pressed)).toBe(false);
    expect(unplayedGame('--', [])).toBe(false);
    expect(unplayedGame('+-', pressed)).toBe(false);
    expect(unplayedGame('1-0', [])).toBe(false);
    expect(unplayedGame(null, [])).toBe(false);
    expect(pgnGameId('slo-w-2007', 1, 1, 3)).toBe('slo-w-2007:1.1.3');
  });
});

describe('JSON Lines and replay export', () => {
  function journalWithGame() {
    const j = new Journal(':memory:');
    const g = j.createGame({
      event: 'e',
      round: 1,
      board: 2,
      kind: 'standard',
      white: 'W',
      black: 'B',
      timeControl: presetTimeControl('sudden-death-60', { defaultTime: 900 }),
      clockId: 'C',
      createdUtcMs: 0,
    });
    const T = Date.UTC(2018, 1, 13, 12, 0);
    // Boot b1: monotonic 1000 is T. Boot b2 (after a power cut) starts its monotonic count again; its 100 is T + 9000.
    const ev = (
      seq: number,
      type: never | string,
      side: 'white' | 'black' | null,
      monoMs: number,
      detail: Record<string, unknown> | null = null,
      bootId = 'b1',
    ) =>
      j.append({
        clockId: 'C',
        bootId,
        seq,
        type: type as never,
        side,
        move: type === 'moved' ? 1 : null,
        whiteMs: 3_600_000,
        blackMs: 3_600_000,
        monoMs,
        utcMs: bootId === 'b1' ? T + monoMs - 1000 : T + 8900 + monoMs,
        uncertaintyMs: 2,
        detail,
      });
    ev(1, 'arrived', 'black', 500);
    ev(2, 'started', null, 1000);
    ev(3, 'moved', 'white', 4000);
    ev(4, 'adjusted', 'white', 5000, { ms: 120_000, reason: 'penalty' }); // Black's illegal move credits White
    ev(5, 'paused', null, 6000);
    ev(6, 'adjusted', 'black', 7000, { ms: -30_000, reason: 'arbiter' });
    // Power cut: the clock comes back with a new boot and a new monotonic base.
    ev(1, 'resumed', null, 100, null, 'b2');
    ev(2, 'moved', 'black', 1100, null, 'b2');
    return { j, g, T };
  }

  it('one event per line with seq, clock, event, round, board, type, side, move, both times, monotonic and UTC time', () => {
    const { j, g, T } = journalWithGame();
    const lines = gameJsonl(j, g.gameId)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(8);
    expect(lines[2]).toEqual({
      id: 3,
      seq: 3,
      clock: 'C',
      boot: 'b1',
      event: 'e',
      round: 1,
      board: 2,
      game: g.gameId,
      type: 'moved',
      side: 'white',
      move: 1,
      whiteMs: 3_600_000,
      blackMs: 3_600_000,
      monoMs: 4000,
      utcMs: T + 3000,
      utc: '2018-02-13T12:00:03.000Z',
      uncertaintyMs: 2,
      detail: null,
    });
    expect([...journalJsonl(j, 6, 1)].map((l) => JSON.parse(l).id)).toEqual([7, 8]); // resumes from a cursor, page by page
    expect(eventJson(j.eventsByGame(g.gameId)[0])).not.toContain('\n');
    j.close();
  });

  it("replay input: setup from the game's control, t relative to the start, penalty named by the offender, a reboot goes on where the last boot stopped", () => {
    const { j, g } = journalWithGame();
    const lines = replayLines(j, g.gameId).map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { type: 'setup', timeControl: '3600', defaultTime: 900, incrementTiming: 'before-move' },
      { t: 0, type: 'arrive', side: 'black' }, // before the start: replayed at 0
      { t: 0, type: 'start' },
      { t: 3000, type: 'press', side: 'white' },
      { t: 4000, type: 'penalty', side: 'black' },
      { t: 5000, type: 'pause' },
      { t: 6000, type: 'adjust', side: 'black', ms: -30_000 },
      // Boot b2 began stopped where b1 left off (docs/protocol.md "Restore"): its first event
      // is at b1's last instant, its later ones that much later on its own time line.
      { t: 6000, type: 'resume' },
      { t: 7000, type: 'press', side: 'black' },
      { t: 7000, type: 'end' },
    ]);
    expect(setupLine(presetTimeControl('armageddon'))).toBe('{"type":"setup","white":"360","black":"300","incrementTiming":"before-move"}');
    j.close();
  });
});

// Attention first (docs/dashboard.md "Attention"): the boards that need the arbiter, most urgent first.
// The boards are the host's own views: a JournalPorts over a journal in memory (JournalBoards), fed by the unchanged clock statechart
// (rules/clock.machine.ts) on a SimulatedClock (test/browser-harness.ts SimulatedBoard), so
// flags and forfeits fall when the statechart says, and every time is the rule book's.
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { presetTimeControl, type TimeControl } from '../../../../../protocol/time-control.ts';
import { basisDefaultTimeLeftMs, basisRemainingMs } from '../../../../../rules/clock-snapshot.ts';
import { JournalBoards, type BoardSetup } from '../../../../app/journal-boards.fixture.ts';
import { boardIdOf } from '../../../../app/board-views.ts';
import type { BoardView } from '../../../../app/ports.ts';
import { SimulatedBoard } from '../../../../../test/browser-harness.ts';
import { attentionItems, attentionNextChange, nextAttentionUpdateAtMs, type AttentionItem } from './attention.ts';

const T0 = Date.UTC(2026, 2, 14, 9, 0, 0);
const EVENT = 'Slovenian Women Final 2026';

/** Board `n`'s id. */
const id = (n: number) => boardIdOf(EVENT, n);

const halls: Hall[] = [];
afterEach(() => halls.splice(0).forEach((h) => h.host.close()));

/** A hall of boards on the real statechart: hall time `ms` is host UTC `T0 + ms`. */
class Hall {
  readonly host = new JournalBoards({ nowUtcMs: () => T0 + this.time.now() });
  readonly time: SimulatedClock = new SimulatedClock();
  readonly clocks = new Map<string, SimulatedBoard>();
  constructor() {
    halls.push(this);
  }
  add(board: number, control: TimeControl, extra: Partial<BoardSetup> = {}): SimulatedBoard {
    this.host.addBoard({
      event: EVENT,
      round: 1,
      board,
      clockId: `clk-${board}`,
      white: { name: `White ${board}` },
      black: { name: `Black ${board}` },
      control,
      ...extra,
    });
    const clock = new SimulatedBoard(this.host, this.time, T0, `clk-${board}`, { event: EVENT, round: 1, board }, control);
    this.clocks.set(id(board), clock);
    return clock;
  }
  at(ms: number): this {
    this.time.set(ms);
    return this;
  }
  items(): AttentionItem[] {
    return attentionItems(this.host.boards(), T0 + this.time.now());
  }
  board(id: string): BoardView {
    return this.host.board(id)!;
  }
}

const brief = (items: readonly AttentionItem[]) => items.map((i) => [i.boardId, i.kind, i.severity, i.text]);

describe('attention: which boards need the arbiter (docs/dashboard.md "Attention")', () => {
  it('a quiet hall needs nothing: running games with time, a confirmed result', async () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    hall.add(2, presetTimeControl('classical'));
    await hall.host.execute({ type: 'result', boardId: id(2), result: '1-0' }, { arbiter: 'A' });
    await hall.host.execute({ type: 'confirm-result', boardId: id(2) }, { arbiter: 'A' });
    expect(hall.at(60_000).items()).toEqual([]);
  });

  it('FIDE Laws 6.9: a flag that fell is red and names the side; once the arbiter resumes after adding time it goes (6.10.2)', () => {
    const hall = new Hall();
    const clock = hall.add(7, presetTimeControl('armageddon')); // White 6 min, Black 5 min
    clock.send({ type: 'START', at: 0 });
    clock.send({ type: 'PRESS', side: 'white', at: 1_000 });
    hall.at(1_000 + 300_000); // the statechart's flag timer fires at exactly 301 000
    expect(hall.board(id(7)).live?.status).toBe('flagged');
    const [item] = hall.items();
    expect(item).toMatchObject({ boardId: id(7), kind: 'flag', severity: 'red', text: 'Board 7 · Black flag fell', eventName: EVENT });
    expect(item.title).toBe(`${EVENT} · round 1 · board 7 · White 7 – Black 7: Black flag fell`);
    // The arbiter adds a minute and lets the game go on: the flag is dealt with; Black's 1:00 is low time.
    clock.send({ type: 'ADJUST', side: 'black', ms: 60_000, at: 302_000 });
    clock.send({ type: 'RESUME', at: 302_000 });
    expect(brief(hall.at(302_000).items())).toEqual([[id(7), 'time', 'amber', 'Board 7 · Black 1:00']]);
  });

  it('FIDE Laws 6.7.1: an absent player is amber, red once the forfeit is due within 2 minutes, then lost by default until the arbiter confirms', async () => {
    const hall = new Hall();
    const clock = hall.add(4, presetTimeControl('classical', { defaultTime: 1800 }));
    clock.send({ type: 'START', at: 0 });
    clock.send({ type: 'ARRIVE', side: 'black', at: 0 });
    const left = () => basisDefaultTimeLeftMs(hall.board(id(4)).live!.clock!, T0 + hall.time.now() - hall.board(id(4)).live!.atUtcMs);
    expect(brief(hall.at(27 * 60_000).items())).toEqual([[id(4), 'forfeit', 'amber', 'Board 4 · White absent · default in 3:00']]);
    expect(left()).toBe(3 * 60_000);
    // Due within 2 minutes (inclusive): red.
    expect(brief(hall.at(28 * 60_000 - 1).items())[0][2]).toBe('amber');
    expect(brief(hall.at(28 * 60_000).items())).toEqual([[id(4), 'forfeit', 'red', 'Board 4 · White absent · forfeit in 2:00']]);
    // The statechart forfeits White at exactly 30:00; the host turns it into −+ once journaled.
    hall.at(30 * 60_000);
    expect(hall.board(id(4)).live?.status).toBe('forfeited');
    expect(brief(hall.items())).toEqual([[id(4), 'forfeit', 'red', 'Board 4 · White lost by default']]);
    // The result recorded (not yet confirmed): still a forfeit to confirm, not a mere result.
    await hall.host.execute({ type: 'result', boardId: id(4), result: '-+' }, { arbiter: 'Floor' });
    expect(brief(hall.items())).toEqual([[id(4), 'forfeit', 'red', 'Board 4 · White lost by default · confirm −+ (White forfeits)']]);
    // Both absent (a double forfeit, −−): both named.
    const double: BoardView = { ...hall.board(id(4)), result: '--' };
    expect(brief(attentionItems([double], T0))).toEqual([[id(4), 'forfeit', 'red', 'Board 4 · Both players lost by default · confirm −− (both forfeit)']]);
    await hall.host.execute({ type: 'confirm-result', boardId: id(4) }, { arbiter: 'Chief' });
    expect(hall.items()).toEqual([]);
  });

  it('FIDE Laws 6.7.1: a player who arrives is no longer listed', () => {
    const hall = new Hall();
    const clock = hall.add(5, presetTimeControl('classical', { defaultTime: 1800 }));
    clock.send({ type: 'START', at: 0 });
    expect(brief(hall.at(10 * 60_000).items())).toEqual([[id(5), 'forfeit', 'amber', 'Board 5 · Both players absent · default in 20:00']]);
    clock.send({ type: 'ARRIVE', side: 'white', at: 10 * 60_000 });
    clock.send({ type: 'ARRIVE', side: 'black', at: 10 * 60_000 });
    expect(hall.items()).toEqual([]);
  });

  it('FIDE Laws 8.7: a result not yet confirmed is amber; clocks that reported another are red with both results', async () => {
    const hall = new Hall();
    hall.add(2, presetTimeControl('rapid'));
    await hall.host.execute({ type: 'result', boardId: id(2), result: '1/2-1/2' }, { arbiter: 'Floor' });
    expect(brief(hall.items())).toEqual([[id(2), 'result', 'amber', 'Board 2 · ½-½ to confirm']]);
    // A conflict as the journal-backed host lists it (BoardView.pendingResults).
    const conflict: BoardView = {
      ...hall.board(id(2)),
      resultConfirmed: true,
      pendingResults: [{ id: 9, result: '1-0', by: 'clock', clockId: 'clk-2', atUtcMs: T0 }],
    };
    expect(brief(attentionItems([conflict], T0))).toEqual([[id(2), 'result', 'red', 'Board 2 · results differ: ½-½ or 1-0']]);
  });

  it('FIDE Laws 6.11: a paused board is amber; its low time is listed with it, not apart', () => {
    const hall = new Hall();
    const clock = hall.add(3, presetTimeControl('armageddon'));
    clock.send({ type: 'START', at: 0 });
    clock.send({ type: 'PAUSE', at: 250_000 }); // White has 1:50 left
    const items = hall.at(400_000).items();
    expect(brief(items)).toEqual([[id(3), 'paused', 'amber', 'Board 3 · paused']]);
    expect(items[0].reasons).toEqual(['paused', 'White 1:50']);
  });

  it('a clock the current round needs: none, or offline (red while its game runs); not for an earlier round or a game over', () => {
    const base: BoardView = {
      id: 'x',
      event: EVENT,
      round: 2,
      board: 1,
      clockId: 'clk-1',
      white: { name: 'W' },
      black: { name: 'B' },
      timeControl: '900+10',
      live: null,
      result: null,
      resultConfirmed: false,
    };
    const boards: BoardView[] = [
      { ...base, id: 'none', board: 9, clockId: null },
      { ...base, id: 'offline', board: 8, clockOnline: false },
      { ...base, id: 'online', board: 6, clockOnline: true },
      { ...base, id: 'unknown', board: 5 }, // the host cannot tell (absent): not listed
      { ...base, id: 'old-round', round: 1, board: 3, clockId: null },
      { ...base, id: 'over', board: 2, clockOnline: false, result: '1-0', resultConfirmed: true },
      { ...base, id: 'empty', board: 4, clockId: null, white: null, black: null },
    ];
    expect(brief(attentionItems(boards, T0))).toEqual([
      ['offline', 'clock', 'amber', 'Board 8 · clock clk-1 offline'],
      ['none', 'clock', 'amber', 'Board 9 · no clock'],
    ]);
  });

  it('two lines claiming the board clock id are red, before the clock is offline (docs/dashboard.md "Clock identity")', () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    const claim = { clockId: 'clk-1', onlineLine: '/dev/ttyUSB0', onlineBoot: '00001001', line: '/dev/ttyUSB7', boot: '000bad01', sinceUtcMs: T0 };
    const claimed = { ...hall.board(id(1)), clockOnline: true, identityClaim: claim };
    expect(brief(attentionItems([claimed], T0 + 1_000))).toEqual([[id(1), 'clock', 'red', 'Board 1 · two clocks claim clk-1']]);
    expect(brief(attentionItems([{ ...hall.board(id(1)), clockOnline: true }], T0 + 1_000))).toEqual([]);
  });

  it('an offline clock with a game running is red (no press, flag or forfeit reaches the host)', () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    const offline = { ...hall.board(id(1)), clockOnline: false };
    expect(brief(attentionItems([offline], T0 + 1_000))).toEqual([[id(1), 'clock', 'red', 'Board 1 · clock clk-1 offline']]);
  });

  it('low time: under 2 minutes amber, under 20 s red, as the clock shows it (rule book basisRemainingMs, formatClockTime)', () => {
    const hall = new Hall();
    const clock = hall.add(12, presetTimeControl('armageddon'));
    clock.send({ type: 'START', at: 0 });
    const white = () => basisRemainingMs(hall.board(id(12)).live!.clock!, 'white', T0 + hall.time.now() - hall.board(id(12)).live!.atUtcMs);
    hall.at(240_000);
    expect(white()).toBe(120_000);
    expect(hall.items()).toEqual([]); // exactly 2:00 is not under 2 minutes
    expect(brief(hall.at(240_001).items())).toEqual([[id(12), 'time', 'amber', 'Board 12 · White 2:00']]); // the clock rounds up
    expect(brief(hall.at(300_000).items())).toEqual([[id(12), 'time', 'amber', 'Board 12 · White 1:00']]);
    expect(brief(hall.at(340_000).items())).toEqual([[id(12), 'time', 'amber', 'Board 12 · White 0:20']]);
    expect(brief(hall.at(346_000).items())).toEqual([[id(12), 'time', 'red', 'Board 12 · White 14.0']]);
    // The waiting side's trouble counts too: White moves with 14 s left; Black (5:00) runs.
    clock.send({ type: 'PRESS', side: 'white', at: 346_000 });
    expect(brief(hall.items())).toEqual([[id(12), 'time', 'red', 'Board 12 · White 14.0']]);
  });

  it('orders by urgency: kind, red before amber, least time, board number; each board once, with its other reasons', async () => {
    const hall = new Hall();
    const arm = presetTimeControl('armageddon'); // White 6:00, Black 5:00
    // Board 30 and 34 flag (Black) at 301 000; board 31 paused with White at 1:50; board 32 an unconfirmed result.
    for (const board of [30, 34]) {
      const c = hall.add(board, arm);
      c.send({ type: 'START', at: 0 });
      c.send({ type: 'PRESS', side: 'white', at: 0 });
    }
    const paused = hall.add(31, arm);
    paused.send({ type: 'START', at: 0 });
    hall.add(32, arm);
    await hall.host.execute({ type: 'result', boardId: id(32), result: '0-1' }, { arbiter: 'Floor' });
    // Board 33: forfeit due (default time 7 min, White absent). Board 3: no clock.
    const late = hall.add(33, presetTimeControl('rapid', { defaultTime: 420 }));
    late.send({ type: 'START', at: 0 });
    late.send({ type: 'ARRIVE', side: 'black', at: 0 });
    hall.host.addBoard({ event: EVENT, round: 1, board: 3, clockId: null, white: { name: 'W' }, black: { name: 'B' }, timeControl: '900+10' });
    // Low time at 301 000: board 21 White 1:00, board 20 White 1:30, board 22 Black 15.0 (red).
    const low = [
      [21, 1_000],
      [22, 16_000],
      [20, 31_000],
    ] as const;
    for (const [board, start] of low) {
      hall.at(start);
      const c = hall.add(board, arm);
      c.send({ type: 'START', at: start });
      if (board === 22) c.send({ type: 'PRESS', side: 'white', at: start });
    }
    hall.at(250_000);
    paused.send({ type: 'PAUSE', at: 250_000 });
    const items = hall.at(301_000).items();
    expect(brief(items)).toEqual([
      [id(30), 'flag', 'red', 'Board 30 · Black flag fell'],
      [id(34), 'flag', 'red', 'Board 34 · Black flag fell'],
      [id(33), 'forfeit', 'red', 'Board 33 · White absent · forfeit in 1:59'],
      [id(32), 'result', 'amber', 'Board 32 · 0-1 to confirm'],
      [id(31), 'paused', 'amber', 'Board 31 · paused'],
      [id(3), 'clock', 'amber', 'Board 3 · no clock'],
      [id(22), 'time', 'red', 'Board 22 · Black 15.0'],
      [id(21), 'time', 'amber', 'Board 21 · White 1:00'],
      [id(20), 'time', 'amber', 'Board 20 · White 1:30'],
    ]);
    // Once: the paused board's low time is its second reason, not a second item.
    expect(items.find((i) => i.boardId === id(31))!.reasons).toEqual(['paused', 'White 1:50']);
    expect(new Set(items.map((i) => i.boardId)).size).toBe(items.length);
  });
});

describe('attention: the live broadcast (docs/broadcast.md "On the dashboard"; docs/dashboard.md "Attention")', () => {
  it("lichess's error for a game is amber at once; moves and presses that differ once it lasted 30 s, or at once after the result", async () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    hall.add(2, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    hall.add(3, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    // What the broadcast runner tells the host after a merge and a push (BroadcastNoteSink).
    const notes = {
      event: EVENT,
      round: 1,
      lichessRound: 'AbCd1234',
      boards: [1, 2, 3],
      warnings: [{ board: 2, message: 'Moves and clock presses differ: White 3 moves / 2 presses' }],
      errors: [{ board: 1, gameId: 'x:1.1.1', error: 'Illegal move Ke9' }],
      unmatched: [],
    };
    hall.host.broadcastNotes(notes);
    expect(brief(hall.items())).toEqual([[id(1), 'broadcast', 'amber', 'Board 1 · lichess refused the game: Illegal move Ke9']]);
    // The same difference 30 s later (no new warning: the one that lasted).
    hall.at(30_000);
    hall.host.broadcastNotes(notes);
    expect(brief(hall.items())).toEqual([
      [id(1), 'broadcast', 'amber', 'Board 1 · lichess refused the game: Illegal move Ke9'],
      [id(2), 'broadcast', 'amber', 'Board 2 · Moves and clock presses differ: White 3 moves / 2 presses'],
    ]);
    // Gone from the strip once the broadcast says nothing of the board.
    hall.host.broadcastNotes({ ...notes, warnings: [], errors: [] });
    expect(hall.items()).toEqual([]);
    // A finished game's difference is listed at once, even with its result confirmed.
    await hall.host.execute({ type: 'result', boardId: id(3), result: '1-0' }, { arbiter: 'A' });
    await hall.host.execute({ type: 'confirm-result', boardId: id(3) }, { arbiter: 'A' });
    hall.host.broadcastNotes({ ...notes, errors: [], warnings: [{ board: 3, message: 'Moves and clock presses differ: Black 30 moves / 31 presses' }] });
    expect(brief(hall.items())).toEqual([[id(3), 'broadcast', 'amber', 'Board 3 · Moves and clock presses differ: Black 30 moves / 31 presses']]);
  });

  it('the moves games that match no board are listed once per round, on its first broadcast board', () => {
    const hall = new Hall();
    for (const b of [4, 5]) hall.add(b, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    hall.host.broadcastNotes({
      event: EVENT,
      round: 1,
      lichessRound: 'AbCd1234',
      boards: [4, 5],
      warnings: [],
      errors: [],
      unmatched: ['"1.9 X - Y" (round-1.pgn:1): no board of round 1 has these players', '"1.10 Z - W" (round-1.pgn:14): no board of round 1 has these players'],
    });
    expect(brief(hall.items())).toEqual([[id(4), 'broadcast', 'amber', 'Board 4 · 2 moves games match no board of round 1']]);
    expect(hall.board(id(5)).broadcast).toMatchObject({ unmatchedCount: 2, unmatchedOnBoard: false });
  });

  it('each new lichess error is journaled once, with its board', () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical')).send({ type: 'START', at: 0 });
    const notes = (error: string | null) => ({
      event: EVENT,
      round: 1,
      lichessRound: 'AbCd1234',
      boards: [1],
      warnings: [],
      errors: error ? [{ board: 1, gameId: 'x:1.1.1', error }] : [],
      unmatched: [],
    });
    for (const e of ['Illegal move Ke9', 'Illegal move Ke9', 'Illegal move Ke9', null, 'Illegal move Ke9']) hall.host.broadcastNotes(notes(e));
    const refused = hall.host.journal.arbiterActions().filter((a) => a.action === 'broadcast-refused');
    expect(refused.map((a) => [a.event, a.round, a.board, a.reason, a.outcome])).toEqual([
      [EVENT, 1, 1, 'Illegal move Ke9', 'rejected'],
      [EVENT, 1, 1, 'Illegal move Ke9', 'rejected'],
    ]);
    expect(refused[0].gameId).toBe(hall.host.journal.currentGameOfBoard(EVENT, 1)!.gameId);
  });
});

describe('attention: when the list next changes by time alone (docs/dashboard.md "Attention": re-read then, not every frame)', () => {
  it('the 2-minute and 20-second crossings of a running side, to the millisecond', () => {
    const hall = new Hall();
    hall.add(12, presetTimeControl('armageddon')).send({ type: 'START', at: 0 });
    const now = () => T0 + hall.time.now();
    const next = () => attentionNextChange(hall.host.boards(), now());
    // White has 6:00: low time begins 1 ms after 4:00 of running, red 1 ms after 5:40.
    expect(next()).toEqual({ thresholdAtMs: T0 + 240_001, textAtMs: T0 + 240_001 });
    expect(hall.at(240_000).items()).toEqual([]);
    expect(hall.at(240_001).items()).toHaveLength(1);
    // Now a figure shows: it changes at the next second the clock shows (2:00 → 1:59 at 119 000 left).
    expect(next()).toEqual({ thresholdAtMs: T0 + 340_001, textAtMs: T0 + 241_000 });
    expect(hall.at(340_000).items()[0].severity).toBe('amber');
    expect(hall.at(340_001).items()[0].severity).toBe('red');
    // Under 20 s the clock shows tenths: the text changes every 100 ms; no threshold is left.
    expect(next()).toEqual({ thresholdAtMs: null, textAtMs: T0 + 340_100 });
  });

  it("FIDE Laws 6.7.1: the default time reaching 2 minutes and 0 are the forfeit's crossings, through a pause", () => {
    const hall = new Hall();
    const clock = hall.add(4, presetTimeControl('classical', { defaultTime: 1800 }));
    clock.send({ type: 'START', at: 0 });
    clock.send({ type: 'ARRIVE', side: 'black', at: 0 });
    clock.send({ type: 'PAUSE', at: 60_000 });
    hall.at(20 * 60_000);
    const { thresholdAtMs } = attentionNextChange(hall.host.boards(), T0 + hall.time.now());
    expect(thresholdAtMs).toBe(T0 + 28 * 60_000);
    expect(hall.at(28 * 60_000 - 1).items()[0].severity).toBe('amber');
    expect(hall.at(28 * 60_000).items()[0].severity).toBe('red');
    expect(attentionNextChange(hall.host.boards(), T0 + hall.time.now()).thresholdAtMs).toBe(T0 + 30 * 60_000);
  });

  it('nothing running: nothing changes until the next event', async () => {
    const hall = new Hall();
    hall.add(1, presetTimeControl('classical'));
    await hall.host.execute({ type: 'result', boardId: id(1), result: '1-0' }, { arbiter: 'A' });
    expect(nextAttentionUpdateAtMs(hall.host.boards(), T0)).toBeNull();
  });
});

// The arbiter's corrections on the dashboard (docs/dashboard.md "The arbiter's corrections"):
// the take-back with its choice of the clock times (FIDE Laws 7.5.1, 7.1), the second illegal
// move (7.5.5), the side on move and a corrected control (6.10.2), the quickplay delay
// (Guidelines III.4). The boards are the host's own views: a JournalPorts over a journal in memory (JournalBoards) fed by the unchanged
// clock statechart (test/browser-harness.ts SimulatedBoard), so `live.takebackPreview`,
// `live.illegalMoves` and the clock basis are what the host serves; each figure a confirmation
// promises is checked against the statechart given the same command.
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { parseSideControl, presetTimeControl, timeControl, type TimeControl } from '../../../../../protocol/time-control.ts';
import { JournalBoards } from '../../../../app/journal-boards.fixture.ts';
import type { BoardView } from '../../../../app/ports.ts';
import { SimulatedBoard } from '../../../../../test/browser-harness.ts';
import { answeredAction, refusalOf, requestOf, suggestedResult } from './actions.ts';
import { attentionItems } from './attention.ts';
import { controlLine, illegalMoveLine, secondIllegalMoveBy } from './board-text.ts';
import { confirmationOf, correctedControl } from './confirmations.ts';
import { rowView } from './hall.ts';

const T0 = Date.UTC(2026, 2, 14, 9, 0, 0);
const EVENT = 'Slovenian Women Final 2026';

/** A board on the real statechart; hall time `ms` is host UTC `T0 + ms`. */
const hosts: JournalBoards[] = [];
afterEach(() => hosts.splice(0).forEach((h) => h.close()));

function game(control: TimeControl, time = new SimulatedClock()) {
  const host = new JournalBoards({ nowUtcMs: () => T0 + time.now() });
  hosts.push(host);
  const { id } = host.addBoard({ event: EVENT, round: 1, board: 3, clockId: 'clk-3', white: { name: 'Novak, Eva' }, black: { name: 'Kos, Nina' }, control });
  const clock = new SimulatedBoard(host, time, T0, 'clk-3', { event: EVENT, round: 1, board: 3 }, control);
  const at = (ms: number) => {
    time.set(ms);
    return ms;
  };
  return { host, clock, time, at, board: (): BoardView => host.board(id)! };
}

/** A classical game paused after White's 2nd move, Black having thought 20 s on move 1: the take-back's two choices differ. */
function pausedAfterWhitesMove() {
  const g = game(presetTimeControl('classical'));
  g.clock.send({ type: 'START', at: g.at(0) });
  g.clock.send({ type: 'PRESS', side: 'white', at: g.at(10_000) });
  g.clock.send({ type: 'PRESS', side: 'black', at: g.at(30_000) });
  g.clock.send({ type: 'PRESS', side: 'white', at: g.at(45_000) });
  g.clock.send({ type: 'PAUSE', at: g.at(70_000) });
  return g;
}

/** "Board 3, White (Novak, Eva): 1:30:05 → 1:30:20" → the figure after the arrow. */
const afterArrow = (line: string) => line.split(' → ')[1].split(' ')[0];

describe('take-back with a choice of the clock times (FIDE Laws 7.5.1, 7.1)', () => {
  it('offers "Rewind the times" and "Keep the times", each with what both clocks will then show: exactly what the clock shows after that take-back', () => {
    for (const times of ['rewind', 'keep'] as const) {
      const g = pausedAfterWhitesMove();
      const c = confirmationOf(g.board(), { kind: 'takeback', times: 'rewind' }, T0 + 70_000)!;
      expect(c.title).toBe("Take back White's last move (#2) on board 3?");
      expect(c.changes[0]).toBe('Board 3, White (Novak, Eva): moves #2 → #1, on move again');
      expect(c.choice!.options.map((o) => [o.value, o.label, o.checked])).toEqual([
        ['rewind', 'Rewind the times', true],
        ['keep', 'Keep the times', false],
      ]);
      const option = c.choice!.options.find((o) => o.value === times)!;
      expect(option.lines).toHaveLength(2);
      expect(option.lines[0]).toMatch(/^Board 3, White \(Novak, Eva\): \S+ → \S+/);
      expect(option.lines[1]).toMatch(/^Board 3, Black \(Kos, Nina\): \S+ → \S+/);
      // The arbiter's answer is what is sent …
      const action = answeredAction(g.board(), { kind: 'takeback', times: 'rewind' }, [times], '');
      expect(requestOf('b3', action)).toEqual(['POST', '/api/boards/b3/takeback', { times }]);
      // … and the clock given it shows what the answer said.
      g.clock.send({ type: 'TAKEBACK', times, at: g.at(71_000) });
      expect(afterArrow(option.lines[0])).toBe(g.clock.shows('white'));
      expect(afterArrow(option.lines[1])).toBe(g.clock.shows('black'));
    }
  });

  it('the two choices differ where Laws 7.1 matters: rewinding gives back the time since the press, keeping leaves it', () => {
    const g = pausedAfterWhitesMove();
    const c = confirmationOf(g.board(), { kind: 'takeback', times: 'rewind' }, T0 + 70_000)!;
    const [rewind, keep] = c.choice!.options;
    // Black's clock ran 25 s after White's press: rewound, Black has them back; kept, not.
    expect(afterArrow(rewind.lines[1])).not.toBe(afterArrow(keep.lines[1]));
    expect(keep.lines.every((l) => l.endsWith('(kept)'))).toBe(true);
    const [before, after] = keep.lines[1].split(': ')[1].split(' → ');
    expect(after.replace(' (kept)', '')).toBe(before);
  });

  it('a host that sends no preview: the rewound figures are left to the clock ("as at that press"), the kept ones are what the clocks show', () => {
    const g = pausedAfterWhitesMove();
    const b = g.board();
    const { takebackPreview: _none, ...live } = b.live!;
    const [rewind, keep] = confirmationOf({ ...b, live }, { kind: 'takeback', times: 'rewind' }, T0 + 70_000)!.choice!.options;
    expect(rewind.lines[0]).toBe(`Board 3, White (Novak, Eva): ${g.clock.shows('white')} → as at that press`);
    expect(keep.lines[1]).toBe(`Board 3, Black (Kos, Nina): ${g.clock.shows('black')} → ${g.clock.shows('black')} (kept)`);
  });
});

describe('the second illegal move (FIDE Laws 7.5.5)', () => {
  /** The replay contract's worked example (docs/replay.md "a second illegal move"): two take-backs of White's moves, the first also penalised. */
  function twoIllegalMoves() {
    const g = game(presetTimeControl('rapid'));
    g.clock.send({ type: 'START', at: g.at(0) });
    g.clock.send({ type: 'PRESS', side: 'white', at: g.at(1000) });
    g.clock.send({ type: 'PAUSE', at: g.at(2000) });
    g.clock.send({ type: 'PENALTY', side: 'white', at: g.at(2500) });
    g.clock.send({ type: 'TAKEBACK', at: g.at(3000) });
    return g;
  }

  it('one illegal move (a take-back and a penalty of the same move count once) asks nothing; the second makes the panel, the line and the strip say the game is lost unless the opponent cannot checkmate', () => {
    const g = twoIllegalMoves();
    expect(g.board().live!.illegalMoves).toEqual({ white: 1, black: 0 });
    expect(secondIllegalMoveBy(g.board())).toEqual([]);
    expect(illegalMoveLine(g.board())).toBe('');
    expect(suggestedResult(g.board())).toBeNull();
    expect(attentionItems([g.board()], T0 + 3000).map((i) => i.kind)).not.toContain('illegal');

    g.clock.send({ type: 'RESUME', at: g.at(4000) });
    g.clock.send({ type: 'PRESS', side: 'white', at: g.at(5000) });
    g.clock.send({ type: 'PAUSE', at: g.at(6000) });
    g.clock.send({ type: 'TAKEBACK', at: g.at(7000) });
    const b = g.board();
    expect(b.live!.illegalMoves).toEqual({ white: 2, black: 0 });
    expect(secondIllegalMoveBy(b)).toEqual(['white']);
    expect(illegalMoveLine(b)).toBe(
      "White has made a second illegal move: under FIDE Laws 7.5.5 the game is lost for White, unless Black cannot checkmate by any series of legal moves (then it is a draw). Record the result: the result entry below is set to Black's win.",
    );
    expect(rowView(b, T0 + 7000).sides.white).toMatchObject({ illegal: '2 illegal (7.5.5)', illegalLoses: true });
    // The result entry is preselected with the opponent's win; nothing is entered.
    expect(suggestedResult(b)).toBe('0-1');
    expect(b.result).toBeNull();
    const [item] = attentionItems([b], T0 + 7000);
    expect(item).toMatchObject({
      kind: 'illegal',
      severity: 'red',
      text: "Board 3 · White's second illegal move · lost unless Black cannot checkmate (FIDE Laws 7.5.5) · record the result",
    });
  });

  it("the take-back's confirmation says what it does to the count: nothing after a penalty of the same move, and that the second illegal move loses (FIDE Laws 7.5.5)", () => {
    const g = game(presetTimeControl('rapid'));
    g.clock.send({ type: 'START', at: g.at(0) });
    g.clock.send({ type: 'PRESS', side: 'white', at: g.at(1000) });
    g.clock.send({ type: 'PAUSE', at: g.at(2000) });
    g.clock.send({ type: 'PENALTY', side: 'white', at: g.at(2500) });
    const ask = () => confirmationOf(g.board(), { kind: 'takeback', times: 'rewind' }, T0 + 10_000)!.changes[1];
    expect(ask()).toBe('Board 3, White (Novak, Eva): illegal moves stay 1 (the penalty already recorded this move)');
    g.clock.send({ type: 'TAKEBACK', at: g.at(3000) });
    g.clock.send({ type: 'RESUME', at: g.at(4000) });
    g.clock.send({ type: 'PRESS', side: 'white', at: g.at(5000) });
    g.clock.send({ type: 'PAUSE', at: g.at(6000) });
    expect(ask()).toBe('Board 3, White (Novak, Eva): illegal moves 1 → 2: the second, which FIDE Laws 7.5.5 makes a loss for White');
  });

  it('once the arbiter records a result the notice and the suggestion go; the strip asks to confirm it instead', async () => {
    const g = twoIllegalMoves();
    g.clock.send({ type: 'RESUME', at: g.at(4000) });
    g.clock.send({ type: 'PRESS', side: 'white', at: g.at(5000) });
    g.clock.send({ type: 'PAUSE', at: g.at(6000) });
    g.clock.send({ type: 'TAKEBACK', at: g.at(7000) });
    await g.host.execute({ type: 'result', boardId: g.board().id, result: '0-1' }, { arbiter: 'A' });
    const b = g.board();
    expect(illegalMoveLine(b)).toBe('');
    expect(suggestedResult(b)).toBeNull();
    expect(attentionItems([b], T0 + 8000).map((i) => i.kind)).toEqual(['result']);
  });
});

describe('the side on move (FIDE Laws 6.10.2)', () => {
  it('while ready or paused: asks, with no time moving; the clock then has that side on move and the same times', () => {
    const g = pausedAfterWhitesMove(); // Black on move, paused
    const b = g.board();
    expect(refusalOf('set-turn', b, 'white')).toBeNull();
    expect(refusalOf('set-turn', b, 'black')).toBe(`board 3 of ${EVENT} round 1: Black is on move already`);
    const c = confirmationOf(b, { kind: 'set-turn', side: 'white' }, T0 + 71_000)!;
    expect(c.title).toBe('Set White on move on board 3?');
    expect(c.changes[0]).toBe('Board 3: on move Black → White');
    expect(requestOf('b3', { kind: 'set-turn', side: 'white' })).toEqual(['POST', '/api/boards/b3/turn', { side: 'white' }]);
    g.clock.send({ type: 'SET_TURN', side: 'white', at: g.at(71_000) });
    expect(g.clock.actor.getSnapshot().context.clock.turn).toBe('white');
    expect(c.changes.slice(1)).toEqual([
      `Board 3, White (Novak, Eva): time stays ${g.clock.shows('white')}`,
      `Board 3, Black (Kos, Nina): time stays ${g.clock.shows('black')}`,
    ]);
  });

  it("refused while the clock runs, in the rule book's words", () => {
    const g = game(presetTimeControl('rapid'));
    g.clock.send({ type: 'START', at: g.at(0) });
    expect(refusalOf('set-turn', g.board(), 'black')).toBe(
      `board 3 of ${EVENT} round 1 is running: only a ready or paused clock can be given the side on move`,
    );
  });
});

describe('a corrected time control (FIDE Laws 6.10.2)', () => {
  it('is read by the one reader before anything is sent; a bad token is named', () => {
    const g = pausedAfterWhitesMove();
    const bad = correctedControl(g.board(), { timeControl: '40/5400+x' });
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(/^corrected control: bad increment "x" in time control "40\/5400\+x"/);
  });

  it('the confirmation says the times stay as they are and are set with the time adjustments; the clock given the control shows exactly that', () => {
    const g = pausedAfterWhitesMove();
    const before = { white: g.clock.shows('white'), black: g.clock.shows('black') };
    // The control was set as 60 min sudden death by mistake: the event plays 90/40 + 15, 30 s from move 1.
    const correction = { timeControl: '40/3600+30:900+30', defaultTime: 0 };
    const c = confirmationOf(g.board(), { kind: 'set-control', correction }, T0 + 71_000)!;
    expect(c.title).toBe('Correct the time control on board 3?');
    expect(c.changes[0]).toBe('Board 3: control 90 min/40 moves + 15 min, +30 s from move 1 → 60 min/40 moves + 15 min, +30 s from move 1; default time 0 min');
    expect(c.changes.slice(1)).toEqual([
      `Board 3, White (Novak, Eva): time stays ${before.white} · moves #2 · period 1`,
      `Board 3, Black (Kos, Nina): time stays ${before.black} · moves #1 · period 1`,
    ]);
    expect(c.note).toContain('keeps both times as they are');
    expect(c.note).toContain('Set the times themselves with the time adjustments');
    expect(requestOf('b3', { kind: 'set-control', correction })).toEqual(['PUT', '/api/boards/b3/control', correction]);
    const control = correctedControl(g.board(), correction) as TimeControl;
    g.clock.send({ type: 'SET_CONTROL', timeControl: control, at: g.at(71_000) });
    expect({ white: g.clock.shows('white'), black: g.clock.shows('black') }).toEqual(before);
    expect(controlLine(g.board())).toBe('Control in force: 60 min/40 moves + 15 min, +30 s from move 1; default time 0 min');
  });

  it('a control that moves a side into a later period says so, and that no period time is added (the period follows from the count)', () => {
    const g = game(presetTimeControl('classical'));
    g.clock.send({ type: 'START', at: g.at(0) });
    for (let i = 0; i < 35; i++) {
      g.clock.send({ type: 'PRESS', side: 'white', at: g.at(1000 + i * 200) });
      g.clock.send({ type: 'PRESS', side: 'black', at: g.at(1100 + i * 200) });
    }
    g.clock.send({ type: 'PAUSE', at: g.at(20_000) });
    const before = { white: g.clock.shows('white'), black: g.clock.shows('black') };
    expect(g.board().live!.period).toEqual({ white: 1, black: 1 });
    // The first period was 30 moves, not 40: after 35 moves both sides play in the second.
    const c = confirmationOf(g.board(), { kind: 'set-control', correction: { timeControl: '30/5400+30:900+30' } }, T0 + 20_000)!;
    expect(c.changes.slice(1)).toEqual([
      `Board 3, White (Novak, Eva): time stays ${before.white} · moves #35 · period 1 → 2 (counted as credited: no time is added)`,
      `Board 3, Black (Kos, Nina): time stays ${before.black} · moves #35 · period 1 → 2 (counted as credited: no time is added)`,
    ]);
    const tc = correctedControl(g.board(), { timeControl: '30/5400+30:900+30' }) as TimeControl;
    g.clock.send({ type: 'SET_CONTROL', timeControl: tc, at: g.at(20_000) });
    expect(g.board().live!.period).toEqual({ white: 2, black: 2 });
    expect({ white: g.clock.shows('white'), black: g.clock.shows('black') }).toEqual(before);
  });

  it("refused while the clock runs, in the rule book's words", () => {
    const g = game(presetTimeControl('rapid'));
    g.clock.send({ type: 'START', at: g.at(0) });
    expect(refusalOf('set-control', g.board())).toBe(`board 3 of ${EVENT} round 1 is running: pause the clock before correcting its time control`);
  });
});

describe('the quickplay delay (FIDE Guidelines III.4)', () => {
  it('asks, sends POST …/delay, and the delay in force is shown with the increment in force', () => {
    const g = game(presetTimeControl('rapid'));
    g.clock.send({ type: 'START', at: g.at(0) });
    g.clock.send({ type: 'PAUSE', at: g.at(1000) });
    expect(refusalOf('delay', g.board())).toBeNull();
    const c = confirmationOf(g.board(), { kind: 'delay', ms: 5000 }, T0 + 1000)!;
    expect(c.changes).toEqual(['Board 3: quickplay delay none → 5 s per turn']);
    expect(c.note).toContain('FIDE Guidelines III.4');
    expect(requestOf('b3', { kind: 'delay', ms: 5000 })).toEqual(['POST', '/api/boards/b3/delay', { ms: 5000 }]);
    g.clock.send({ type: 'DELAY', ms: 5000, at: g.at(2000) });
    g.clock.send({ type: 'INCREMENT', ms: 5000, at: g.at(2000) });
    expect(controlLine(g.board())).toBe('Control in force: 15 min, +10 s from move 1 · quickplay finish: +5 s increment per move, 5 s delay per turn');
    expect(confirmationOf(g.board(), { kind: 'delay', ms: 5000 }, T0 + 2000)!.changes).toEqual(['Board 3: quickplay delay 5 s → 5 s per turn']);
  });

  it("refused in blitz like the increment, by the control in force, in the rule book's words (Guidelines III.2.2)", () => {
    const blitz = timeControl(parseSideControl('300'), parseSideControl('300'));
    const g = game(blitz);
    g.clock.send({ type: 'START', at: g.at(0) });
    g.clock.send({ type: 'PAUSE', at: g.at(1000) });
    const reason = `board 3 of ${EVENT} round 1: no quickplay finish in blitz: the Guidelines III apply to standard and rapid games only`;
    expect(refusalOf('delay', g.board())).toBe(reason);
    expect(refusalOf('increment', g.board())).toBe(reason);
    // A corrected control out of blitz lifts it: the control in force decides.
    g.clock.send({ type: 'SET_CONTROL', timeControl: presetTimeControl('rapid'), at: g.at(2000) });
    expect(refusalOf('delay', g.board())).toBeNull();
  });
});

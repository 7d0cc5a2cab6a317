import { describe, expect, it } from 'vitest';
import { formatTimeControl, presetTimeControl, type TimeControl } from '../../protocol/time-control.ts';
import { DEFAULT_KNOCKOUT_RULES } from './model.ts';
import type { GameResult } from '../../rules/vocabulary.ts';
import { breakRemainingMs, knockoutStep, seededLot, type FinishedGame, type KnockoutSpec, type KnockoutStep } from './knockout.ts';

const H = 3_600_000;
const T0 = Date.UTC(2007, 7, 19, 8, 0); // 19.08.2007 10:00 CEST
const spec: KnockoutSpec = {
  matchId: 'm1',
  players: [1, 2],
  firstWhite: 1,
  rules: { ...DEFAULT_KNOCKOUT_RULES, breakBeforeRapidMs: 30 * 60_000 },
  eventTimeControl: presetTimeControl('classical'),
};
const heads = () => 0.1; // lot → first player
const tails = () => 0.9; // lot → second player

/** Plays the match forward with the given results, each game ending `durationMs` after it may start. */
function play(results: GameResult[], s: KnockoutSpec = spec, lot = heads): { finished: FinishedGame[]; step: KnockoutStep } {
  const finished: FinishedGame[] = [];
  let step = knockoutStep(s, finished, lot);
  let now = T0;
  for (const result of results) {
    if (step.status !== 'play') throw new Error('match already decided');
    const start = Math.max(now, step.next.earliestStartUtcMs ?? now);
    now = start + H;
    finished.push({ gameNo: step.next.gameNo, stage: step.next.stage, white: step.next.white, black: step.next.black, result, endedUtcMs: now });
    step = knockoutStep(s, finished, lot);
  }
  return { finished, step };
}

describe('knockout mini-match (Slovenian final 2007, art. 3)', () => {
  it('two classical games, colours alternate: each player has White once', () => {
    const { finished, step } = play(['1/2-1/2']);
    expect(finished[0]).toMatchObject({ white: 1, black: 2, stage: 'classical' });
    expect(step).toMatchObject({ status: 'play', next: { gameNo: 2, stage: 'classical', white: 2, black: 1, preset: 'classical' } });
    if (step.status === 'play') expect(formatTimeControl(step.next.timeControl)).toBe('40/5400+30:900+30');
  });

  it("FIDE Laws 6.7.1: every game of the match, in every stage (classical, rapid, armageddon), carries the event's default time and increment timing; each stage keeps its own control", () => {
    const event = presetTimeControl('classical', { defaultTime: 3600, incrementTiming: 'after-move' });
    const withDefault: KnockoutSpec = { ...spec, eventTimeControl: event };
    const controls: TimeControl[] = [];
    const results: GameResult[] = ['1-0', '1-0', '1-0', '1-0', '1/2-1/2'];
    for (let n = 0; n < results.length; n++) {
      const { step } = play(results.slice(0, n), withDefault);
      if (step.status !== 'play') throw new Error(`decided after ${n} games`);
      controls.push(step.next.timeControl);
    }
    expect(controls.map((tc) => [formatTimeControl(tc), tc.defaultTimeMs, tc.incrementTiming])).toEqual([
      ['40/5400+30:900+30', 3_600_000, 'after-move'],
      ['40/5400+30:900+30', 3_600_000, 'after-move'],
      ['900+10', 3_600_000, 'after-move'],
      ['900+10', 3_600_000, 'after-move'],
      ['W360-B300', 3_600_000, 'after-move'],
    ]);
    // An event without a default time: none on any game (the clock then tracks no presence).
    expect(play(['1-0', '1-0', '1-0', '1-0']).step).toMatchObject({
      status: 'play',
      next: { stage: 'armageddon', timeControl: { defaultTimeMs: null, incrementTiming: 'before-move' } },
    });
  });

  it('decided in the classical games: 1½-½', () => {
    const { step } = play(['1-0', '1/2-1/2']);
    expect(step).toMatchObject({ status: 'decided', winner: 1, loser: 2, decidedBy: 'classical' });
  });

  it('a forfeit counts as a lost game for the match', () => {
    expect(play(['+-', '1/2-1/2']).step).toMatchObject({ status: 'decided', winner: 1, decidedBy: 'classical' });
  });

  it('tied 1-1: rapid play-off half an hour after the last game ends, 15 min + 10 s', () => {
    const { finished, step } = play(['1-0', '1-0']); // each won with White
    expect(step.status).toBe('play');
    if (step.status !== 'play') return;
    expect(step.next).toMatchObject({ gameNo: 3, stage: 'rapid', preset: 'rapid', white: 1, black: 2 });
    expect(step.next.earliestStartUtcMs).toBe(finished[1].endedUtcMs + 30 * 60_000);
    expect(formatTimeControl(step.next.timeControl)).toBe('900+10');
    // The countdown the hall shows, 10 minutes into the break.
    expect(breakRemainingMs(step, finished[1].endedUtcMs + 10 * 60_000)).toBe(20 * 60_000);
    expect(breakRemainingMs(step, finished[1].endedUtcMs + 31 * 60_000)).toBe(0);
  });

  it('rapid decides: 1½-½ after 1-1 in classical', () => {
    expect(play(['1/2-1/2', '1/2-1/2', '0-1', '1/2-1/2']).step).toMatchObject({ status: 'decided', winner: 2, decidedBy: 'rapid' });
  });

  it('still tied: armageddon immediately, White 6 min Black 5 min, colours by lot', () => {
    const { finished, step } = play(['1/2-1/2', '1/2-1/2', '1-0', '1-0'], spec, tails);
    expect(step.status).toBe('play');
    if (step.status !== 'play') return;
    expect(step.next).toMatchObject({ gameNo: 5, stage: 'armageddon', white: 2, black: 1, colorsByLot: true });
    expect(step.next.earliestStartUtcMs).toBe(finished[3].endedUtcMs); // "takoj": immediately
    expect(formatTimeControl(step.next.timeControl)).toBe('W360-B300');
  });

  it('armageddon draw: Black wins the match (draw odds)', () => {
    const { finished, step } = play(['1/2-1/2', '1/2-1/2', '1-0', '1-0', '1/2-1/2'], spec, tails);
    expect(finished[4]).toMatchObject({ white: 2, black: 1 });
    expect(step).toMatchObject({ status: 'decided', winner: 1, loser: 2, decidedBy: 'armageddon' });
    // The same with colours the other way round: the winner is whoever had Black.
    expect(play(['1/2-1/2', '1/2-1/2', '1-0', '1-0', '1/2-1/2'], spec, heads).step).toMatchObject({ winner: 2, decidedBy: 'armageddon' });
  });

  it('armageddon won by White', () => {
    expect(play(['1/2-1/2', '1/2-1/2', '1-0', '1-0', '1-0'], spec, tails).step).toMatchObject({ winner: 2, decidedBy: 'armageddon' });
  });

  it('first colours drawn by the seeded lot: the same seed draws the same colours', () => {
    const drawn = { ...spec, firstWhite: null };
    const a = knockoutStep(drawn, [], seededLot(2007));
    const b = knockoutStep(drawn, [], seededLot(2007));
    expect(a).toEqual(b);
    expect(a.status === 'play' && a.next.colorsByLot).toBe(true);
    // Over many seeds both players get White: the lot is not constant.
    const whites = new Set(
      Array.from({ length: 20 }, (_, i) => {
        const s = knockoutStep(drawn, [], seededLot(i));
        return s.status === 'play' ? s.next.white : 0;
      }),
    );
    expect(whites).toEqual(new Set([1, 2]));
  });

  it('a classical game waits for its scheduled start (regulation art. 4 schedule)', () => {
    const s = { ...spec, classicalStartsUtcMs: [T0, T0 + 24 * H] };
    const { step } = play(['1/2-1/2'], s);
    expect(step.status === 'play' && step.next.earliestStartUtcMs).toBe(T0 + 24 * H);
  });

  it('refuses a game with the wrong colours, and an armageddon double forfeit', () => {
    const bad: FinishedGame = { gameNo: 1, stage: 'classical', white: 2, black: 1, result: '1-0', endedUtcMs: T0 };
    expect(() => knockoutStep(spec, [bad], heads)).toThrow(/game 1: expected classical with White 1, Black 2; got classical with White 2, Black 1/);
    expect(() => play(['1/2-1/2', '1/2-1/2', '1-0', '1-0', '--'])).toThrow(/armageddon double forfeit/);
  });
});

// Property tests (fast-check) of the arbiter's powers, in every mode the clock runs:
// increment before and after the move, simple and Bronstein delay, sandclock, and
// controls whose periods end within the game.
//
//  1. FIDE Laws 7.5.1 with 6.10.2: a take-back followed by the same press again gives
//     exactly what the game would have given without the illegal press: the same move
//     lines at the same instants, the same flags and the same end state. The game
//     without it is the same game paused at the instant of the illegal press and
//     resumed when the arbiter resumes.
//  2. FIDE Laws 6.10.2: a move-counter correction never credits a period twice. An
//     independent reference (written here, from the rule, without calling the clock)
//     sums the base time of every period a side ever reached, once each, and charges
//     the running time; the clock's end state must match it to the millisecond.

import fc from 'fast-check';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { replayText } from '../firmware-ts/replay.ts';
import { other, readTimeControlSpec } from '../protocol/time-control.ts';
import { clockMachine, type ClockInput, type ClockOutput } from './clock.machine.ts';
import { readClock } from './clock-reading.ts';
import { StepClock } from './step-clock.ts';

type Line = Record<string, unknown>;
type SideName = 'white' | 'black';
const otherSide = (s: SideName): SideName => (s === 'white' ? 'black' : 'white');
const run = (lines: Line[]): Line[] => replayText(lines.map((l) => JSON.stringify(l)).join('\n')).map((l) => JSON.parse(l) as Line);

/**
 * The period a side plays in after `moves` completed moves (FIDE Laws 6.1), from a stage list:
 * the tests' own reference, written from the rule without calling the clock.
 */
function periodOf(stages: readonly { readonly moves: number | null }[], moves: number): number {
  let end = 0;
  for (let i = 0; i < stages.length; i++) {
    const m = stages[i].moves;
    if (m === null) return i;
    end += m;
    if (moves < end) return i;
  }
  return stages.length - 1;
}

/** Every mode: a setup line's time control and timing. */
const modes: fc.Arbitrary<Line> = fc.oneof(
  fc.record({ timeControl: fc.constantFrom('300+5', '180+2', '120'), incrementTiming: fc.constantFrom('before-move', 'after-move') }),
  fc.record({
    timeControl: fc
      .tuple(fc.integer({ min: 60, max: 300 }), fc.integer({ min: 1, max: 10 }), fc.constantFrom('simple', 'bronstein'))
      .map(([seconds, delay, delayMode]) => [{ seconds, delay, delayMode }]),
  }),
  fc.record({ timeControl: fc.constantFrom('*90', '*200') }),
  // Periods that end within a short game: the bonus and its take-back are exercised.
  fc.record({ timeControl: fc.constantFrom('3/60+2:30+1', '2/40:1/20:60+3', '4/100+5:50'), incrementTiming: fc.constantFrom('before-move', 'after-move') }),
);

describe('take-back then the same press again = the game without the illegal press (FIDE Laws 7.5.1 with 6.10.2)', () => {
  it('holds in every mode, for any annulled press, with the arbiter acting before or after a flag', () => {
    fc.assert(
      fc.property(
        modes,
        fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 14 }), // think times before the illegal press
        fc.integer({ min: 0, max: 30_000 }), // how long after the illegal press the clock is paused
        fc.integer({ min: 0, max: 5_000 }), // pause → take-back
        fc.integer({ min: 0, max: 5_000 }), // take-back → resume
        fc.integer({ min: 0, max: 20_000 }), // resume → the press made again
        fc.array(fc.integer({ min: 1, max: 20_000 }), { maxLength: 6 }), // later think times
        (mode, before, pauseAfter, toTakeback, toResume, again, after) => {
          const setup = { type: 'setup', ...mode };
          let t = 0;
          let side: SideName = 'white';
          const opening: Line[] = [setup, { t: 0, type: 'start' }];
          for (const d of before.slice(0, -1)) {
            t += d;
            opening.push({ t, type: 'press', side });
            side = otherSide(side);
          }
          const illegalAt = t + before[before.length - 1];
          const pauseAt = illegalAt + pauseAfter;
          const takebackAt = pauseAt + toTakeback;
          const resumeAt = takebackAt + toResume;
          let u = resumeAt + again;
          const later: Line[] = [{ t: u, type: 'press', side }];
          let s = otherSide(side);
          for (const d of after) {
            u += d;
            later.push({ t: u, type: 'press', side: s });
            s = otherSide(s);
          }
          const end = { t: u + 1, type: 'end' };

          const withIllegal = run([
            ...opening,
            { t: illegalAt, type: 'press', side },
            { t: pauseAt, type: 'pause' },
            { t: takebackAt, type: 'takeback' },
            { t: resumeAt, type: 'resume' },
            ...later,
            end,
          ]);
          const without = run([...opening, { t: illegalAt, type: 'pause' }, { t: resumeAt, type: 'resume' }, ...later, end]);

          // The illegal press must have been a completed move (no flag or forfeit before it).
          const early = without.filter((o) => (o.type === 'flag' || o.type === 'forfeit') && (o.t as number) <= illegalAt);
          fc.pre(early.length === 0);
          // The illegal-move count is the one thing the take-back leaves behind (FIDE Laws 7.5.5): checked apart.
          const compared = (out: Line[]) =>
            out.filter((o) => ['move', 'flag', 'forfeit', 'state'].includes(o.type as string)).map(({ illegal: _illegal, ...o }) => o);
          expect(withIllegal.at(-1)!.illegal).toEqual({ white: side === 'white' ? 1 : 0, black: side === 'black' ? 1 : 0 });
          expect(without.at(-1)!.illegal).toEqual({ white: 0, black: 0 });
          const fromResume = (out: Line[]) => compared(out).filter((o) => (o.t as number) >= resumeAt);
          const beforeIllegal = (out: Line[]) => compared(out).filter((o) => (o.t as number) < illegalAt);
          expect(withIllegal.some((o) => o.type === 'takeback')).toBe(true);
          expect(beforeIllegal(withIllegal)).toEqual(beforeIllegal(without));
          expect(fromResume(withIllegal)).toEqual(fromResume(without));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('a move-counter correction never credits a period twice (FIDE Laws 6.10.2)', () => {
  // Stages: moves per period (null = final) and base seconds. No increment or delay, so the
  // reference needs only the base time of the periods reached and the running time.
  const controls = [
    {
      text: '3/600:2/300:120',
      stages: [
        { moves: 3, base: 600 },
        { moves: 2, base: 300 },
        { moves: null, base: 120 },
      ],
    },
    {
      text: '40/5400:900',
      stages: [
        { moves: 40, base: 5400 },
        { moves: null, base: 900 },
      ],
    },
    {
      text: '2/1000:2/500:2/250:100',
      stages: [
        { moves: 2, base: 1000 },
        { moves: 2, base: 500 },
        { moves: 2, base: 250 },
        { moves: null, base: 100 },
      ],
    },
  ];
  type Step = { kind: 'press'; think: number } | { kind: 'correct'; think: number; side: SideName; moves: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('press' as const), think: fc.integer({ min: 1, max: 30_000 }) }),
    fc.record({
      kind: fc.constant('correct' as const),
      think: fc.integer({ min: 0, max: 30_000 }),
      side: fc.constantFrom<SideName>('white', 'black'),
      moves: fc.integer({ min: 0, max: 50 }),
    }),
  );

  it('the end state equals the base of every period ever reached, once, minus the running time', () => {
    fc.assert(
      fc.property(fc.constantFrom(...controls), fc.array(step, { maxLength: 40 }), (control, steps) => {
        const lines: Line[] = [
          { type: 'setup', timeControl: control.text },
          { t: 0, type: 'start' },
        ];
        const moves = { white: 0, black: 0 };
        const reached = { white: 0, black: 0 }; // highest period index ever reached
        const used = { white: 0, black: 0 };
        let turn: SideName = 'white';
        let t = 0;
        for (const s of steps) {
          t += s.think;
          used[turn] += s.think;
          if (s.kind === 'press') {
            lines.push({ t, type: 'press', side: turn });
            moves[turn] += 1;
            reached[turn] = Math.max(reached[turn], periodOf(control.stages, moves[turn]));
            turn = otherSide(turn);
          } else {
            lines.push({ t, type: 'pause' }, { t: t + 500, type: 'moves', side: s.side, moves: s.moves }, { t: t + 1000, type: 'resume' });
            t += 1000;
            moves[s.side] = s.moves;
            reached[s.side] = Math.max(reached[s.side], periodOf(control.stages, s.moves));
          }
        }
        lines.push({ t, type: 'end' });
        const credited = (side: SideName) => control.stages.slice(0, reached[side] + 1).reduce((sum, st) => sum + st.base * 1000, 0);
        const out = run(lines);
        fc.pre(!out.some((o) => o.type === 'flag'));
        const state = out.at(-1)!;
        expect(state).toMatchObject({
          type: 'state',
          white: credited('white') - used.white,
          black: credited('black') - used.black,
          moves,
        });
      }),
      { numRuns: 400 },
    );
  });
});

describe("a take-back never changes the other side's count, period or credited time (FIDE Laws 7.5.1 with 6.10.2, 7.1)", () => {
  // The statechart itself, driven by random play: presses, and stops in which the arbiter corrects
  // either counter and adjusts either time; then a take-back, rewinding or keeping the times.
  type Stop = { side: SideName; moves: number | null; adjustMs: number };
  const stop: fc.Arbitrary<Stop> = fc.record({
    side: fc.constantFrom<SideName>('white', 'black'),
    moves: fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
    adjustMs: fc.integer({ min: -20_000, max: 20_000 }),
  });
  const controls = ['3/60+2:30+1', '2/40:1/20:60+3', '300+5', '120'];

  it('holds for any game, any corrections since the press, rewinding or keeping the times', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...controls),
        fc.constantFrom('before-move' as const, 'after-move' as const),
        fc.array(fc.integer({ min: 1, max: 8_000 }), { minLength: 1, maxLength: 10 }),
        fc.array(stop, { maxLength: 4 }),
        fc.constantFrom('rewind' as const, 'keep' as const),
        (text, incrementTiming, thinks, stops, times) => {
          const tc = readTimeControlSpec({ timeControl: text, incrementTiming }).timeControl;
          const clock = new StepClock();
          const actor = createActor(clockMachine, { input: { timeControl: tc }, clock });
          const outs: ClockOutput[] = [];
          actor.on('*', (o) => outs.push(o as ClockOutput));
          actor.start();
          const send = (e: ClockInput) => {
            clock.advanceTo(e.at);
            actor.send(e);
            clock.advanceTo(e.at);
          };
          let t = 0;
          send({ type: 'START', at: 0 });
          for (const d of thinks) send({ type: 'PRESS', side: actor.getSnapshot().context.clock.turn, at: (t += d) });
          fc.pre(!outs.some((o) => o.type === 'flag'));
          const mover = other(actor.getSnapshot().context.clock.turn);
          const x = other(mover);
          const atPress = outs.filter((o) => o.type === 'move').at(-1)!;
          send({ type: 'PAUSE', at: (t += 500) });
          for (const s of stops) {
            if (s.moves !== null) send({ type: 'SET_MOVES', side: s.side, moves: s.moves, at: (t += 100) });
            send({ type: 'ADJUST', side: s.side, ms: s.adjustMs, at: (t += 100) });
          }
          const before = actor.getSnapshot().context.clock;
          const shownBefore = readClock(before, t);
          const sinceOnX = outs
            .slice(outs.indexOf(atPress) + 1)
            .reduce((sum, o) => sum + (o.type === 'adjusted' && o.side === x ? o.ms : o.type === 'moves-set' && o.side === x ? o.creditedMs : 0), 0);
          send({ type: 'TAKEBACK', times, at: (t += 100) });
          const after = actor.getSnapshot().context.clock;
          const shown = readClock(after, t);
          actor.stop();
          // The other side: the same count, period and credited periods, whatever happened since.
          expect([after[x].moves, after[x].period, after[x].creditedPeriod]).toEqual([before[x].moves, before[x].period, before[x].creditedPeriod]);
          expect(after.turn).toBe(mover);
          if (times === 'keep') {
            expect([shown.white, shown.black]).toEqual([shownBefore.white, shownBefore.black]);
          } else if (shownBefore[x] > 0) {
            // Its time at the press, with every change the arbiter made to it since on top
            // (adjustments as applied, and the period time a counter correction credited).
            expect(shown[x]).toBe(Math.max(0, atPress.type === 'move' ? atPress[x] + sinceOnX : NaN));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('with the times kept, no period is ever credited twice (FIDE Laws 6.10.2 with 7.1)', () => {
  // Controls whose periods end within a short game, every stage with the same increment, so an
  // independent reference needs only: the base of every period ever reached (once each), one
  // increment per press (an annulled press's increment is kept with the times: 7.1), the opening
  // increment with before-move timing, and all the running time (keeping the times gives none back).
  const controls = [
    {
      text: '3/60+2:2/30+2:20+2',
      inc: 2,
      stages: [
        { moves: 3, base: 60 },
        { moves: 2, base: 30 },
        { moves: null, base: 20 },
      ],
    },
    {
      text: '2/100:1/50:2/25:10',
      inc: 0,
      stages: [
        { moves: 2, base: 100 },
        { moves: 1, base: 50 },
        { moves: 2, base: 25 },
        { moves: null, base: 10 },
      ],
    },
    { text: '*300', inc: 0, stages: [{ moves: null, base: 300 }] },
  ];
  type Step = { kind: 'press'; think: number } | { kind: 'keep'; think: number } | { kind: 'correct'; think: number; side: SideName; moves: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('press' as const), think: fc.integer({ min: 1, max: 5_000 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('keep' as const), think: fc.integer({ min: 0, max: 5_000 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('correct' as const),
        think: fc.integer({ min: 0, max: 5_000 }),
        side: fc.constantFrom<SideName>('white', 'black'),
        moves: fc.integer({ min: 0, max: 12 }),
      }),
    },
  );
  it('in every mode (increment before or after the move, several periods, sandclock), whatever the order of presses, kept take-backs and corrections', () => {
    fc.assert(
      fc.property(fc.constantFrom(...controls), fc.constantFrom('before-move', 'after-move'), fc.array(step, { maxLength: 40 }), (control, timing, steps) => {
        const lines: Line[] = [
          { type: 'setup', timeControl: control.text, incrementTiming: timing },
          { t: 0, type: 'start' },
        ];
        const moves = { white: 0, black: 0 };
        const reached = { white: 0, black: 0 };
        const used = { white: 0, black: 0 };
        const presses = { white: 0, black: 0 };
        const annulable: { side: SideName; movesBefore: number }[] = [];
        let turn: SideName = 'white';
        let t = 0;
        for (const s of steps) {
          t += s.think;
          used[turn] += s.think;
          if (s.kind === 'press') {
            lines.push({ t, type: 'press', side: turn });
            annulable.push({ side: turn, movesBefore: moves[turn] });
            moves[turn] += 1;
            presses[turn] += 1;
            reached[turn] = Math.max(reached[turn], periodOf(control.stages, moves[turn]));
            turn = otherSide(turn);
          } else if (s.kind === 'keep') {
            const last = annulable.pop();
            if (last === undefined) continue;
            lines.push({ t, type: 'pause' }, { t: t + 500, type: 'takeback', times: 'keep' }, { t: t + 1000, type: 'resume' });
            t += 1000;
            moves[last.side] = last.movesBefore;
            turn = last.side;
          } else {
            lines.push({ t, type: 'pause' }, { t: t + 500, type: 'moves', side: s.side, moves: s.moves }, { t: t + 1000, type: 'resume' });
            t += 1000;
            moves[s.side] = s.moves;
            reached[s.side] = Math.max(reached[s.side], periodOf(control.stages, s.moves));
          }
        }
        lines.push({ t, type: 'end' });
        const out = run(lines);
        fc.pre(!out.some((o) => o.type === 'flag'));
        const state = out.at(-1)!;
        if (control.text.startsWith('*')) {
          // Sandclock: what one glass loses the other gains, kept take-backs or not.
          expect((state.white as number) + (state.black as number)).toBe(2 * control.stages[0].base * 1000);
          return;
        }
        const opening = timing === 'before-move' ? control.inc * 1000 : 0;
        const credited = (side: SideName) =>
          control.stages.slice(0, reached[side] + 1).reduce((sum, st) => sum + st.base * 1000, 0) + opening + presses[side] * control.inc * 1000;
        expect(state).toMatchObject({ type: 'state', white: credited('white') - used.white, black: credited('black') - used.black, moves });
      }),
      { numRuns: 500 },
    );
  });
});

// Property tests (fast-check) over random press sequences: the clock driven
// through `chessclock replay` (replayText, which runs the statechart on a SimulatedClock)
// is compared with an independent reference written here from docs/replay.md "setup" and "Timed inputs":
//   remaining = credited − charged, charged = running time − delay allowances;
//   the flag instant is the computed deadline; nothing changes while paused.
// The reference never calls the code under test.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayText } from '../firmware-ts/replay.ts';

type SideName = 'white' | 'black';
type Out = Record<string, unknown>;
const otherSide = (s: SideName): SideName => (s === 'white' ? 'black' : 'white');

interface Control {
  baseS: number;
  incS: number;
  delayS: number;
  delayMode: 'simple' | 'bronstein';
  timing: 'before-move' | 'after-move';
}
type Ev = { at: number; kind: SideName | 'pause' | 'resume' };

const CONTRACT_TYPES = new Set(['move', 'flag', 'forfeit', 'state']);

function replayGame(c: Control, events: Ev[], endAt: number): Out[] {
  const stage: Record<string, unknown> = { seconds: c.baseS };
  if (c.incS) stage.increment = c.incS;
  if (c.delayS) {
    stage.delay = c.delayS;
    stage.delayMode = c.delayMode;
  }
  const lines = [
    { type: 'setup', timeControl: [stage], incrementTiming: c.timing },
    { t: 0, type: 'start' },
    ...events.map((e) => (e.kind === 'pause' || e.kind === 'resume' ? { t: e.at, type: e.kind } : { t: e.at, type: 'press', side: e.kind })),
    { t: endAt, type: 'end' },
  ];
  return replayText(lines.map((l) => JSON.stringify(l)).join('\n'))
    .map((l) => JSON.parse(l) as Out)
    .filter((o) => CONTRACT_TYPES.has(o.type as string));
}

/**
 * The reference clock, in its conservation form: per side the time credited
 * (base, increments), the running time charged, and the delay allowances.
 */
function reference(c: Control, events: Ev[], endAt: number): Out[] {
  const baseMs = c.baseS * 1000;
  const incMs = c.incS * 1000;
  const delayMs = c.delayS * 1000;
  // docs/replay.md "setup": before-move credits the first increment at the start; after-move does not.
  const credited = { white: baseMs + (c.timing === 'before-move' ? incMs : 0), black: baseMs + (c.timing === 'before-move' ? incMs : 0) };
  const runMs = { white: 0, black: 0 }; // running time of completed turns
  const allowanceMs = { white: 0, black: 0 }; // delay allowances of completed turns
  const moves = { white: 0, black: 0 };
  let turn: SideName = 'white';
  let status: 'running' | 'paused' | 'flagged' = 'running';
  let turnRunPrev = 0; // running time of this turn before the current segment
  let segStart = 0; // when the current running segment began (start at 0)
  let flagSide: SideName | null = null;
  const out: Out[] = [];

  const settled = (s: SideName) => credited[s] - (runMs[s] - allowanceMs[s]);
  const turnRun = (t: number) => turnRunPrev + (status === 'running' ? t - segStart : 0);
  // docs/replay.md "setup": a simple delay is not charged during the turn; Bronstein is given back only at the press.
  const liveAllowance = (r: number) => (delayMs > 0 && c.delayMode === 'simple' ? Math.min(r, delayMs) : 0);
  const remaining = (s: SideName, t: number) => {
    if (status === 'flagged' && s === turn) return 0;
    if (s !== turn || status === 'flagged') return settled(s);
    const r = turnRun(t);
    return settled(s) - r + liveAllowance(r);
  };
  const deadline = (): number | null => {
    if (status !== 'running') return null;
    // Running time r at which settled − r + allowance(r) reaches 0.
    const rFlag = settled(turn) + (delayMs > 0 && c.delayMode === 'simple' ? delayMs : 0);
    return segStart + (rFlag - turnRunPrev);
  };
  // docs/replay.md "Timed inputs": deadlines before inputs at the same millisecond.
  const fireDeadlines = (t: number) => {
    const d = deadline();
    if (d !== null && d <= t) {
      const other = otherSide(turn);
      status = 'flagged';
      flagSide ??= turn;
      out.push({ t: d, type: 'flag', side: turn, white: turn === 'white' ? 0 : settled(other), black: turn === 'black' ? 0 : settled(other) });
    }
  };

  const flaggedAfterDeadlines = (t: number): boolean => {
    fireDeadlines(t);
    return status === 'flagged';
  };

  for (const e of events) {
    // (a function, because fireDeadlines changes `status` behind the type checker's back)
    if (flaggedAfterDeadlines(e.at)) continue; // nothing changes after the flag (resume with no time left does nothing)
    if (e.kind === 'pause') {
      if (status === 'running') {
        turnRunPrev += e.at - segStart;
        status = 'paused';
      }
    } else if (e.kind === 'resume') {
      if (status === 'paused') {
        status = 'running';
        segStart = e.at;
      }
    } else if (status === 'running' && e.kind === turn) {
      const r = turnRun(e.at);
      runMs[turn] += r;
      allowanceMs[turn] += delayMs > 0 ? Math.min(r, delayMs) : 0;
      credited[turn] += incMs;
      moves[turn] += 1;
      out.push({ t: e.at, type: 'move', side: turn, move: moves[turn], white: settled('white'), black: settled('black') });
      turn = otherSide(turn);
      turnRunPrev = 0;
      segStart = e.at;
    }
  }
  fireDeadlines(endAt);
  out.push({
    t: endAt,
    type: 'state',
    status,
    turn,
    white: remaining('white', endAt),
    black: remaining('black', endAt),
    moves: { ...moves },
    flag: flagSide,
    illegal: { white: 0, black: 0 },
  });
  return out;
}

const controlArb: fc.Arbitrary<Control> = fc.record({
  baseS: fc.integer({ min: 1, max: 300 }),
  incS: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  delayS: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 })),
  delayMode: fc.constantFrom('simple' as const, 'bronstein' as const),
  timing: fc.constantFrom('before-move' as const, 'after-move' as const),
});

/** Gaps between inputs in ms: often short, sometimes long enough to flag, sometimes 0 (same ms). */
const gapArb = fc.oneof(fc.integer({ min: 0, max: 15000 }), fc.integer({ min: 0, max: 400000 }), fc.constant(0));

function timed(steps: { gap: number; kind: Ev['kind'] }[]): Ev[] {
  let at = 0;
  return steps.map((s) => ({ at: (at += s.gap), kind: s.kind }));
}

const stepsArb = (kinds: fc.Arbitrary<Ev['kind']>) => fc.array(fc.record({ gap: gapArb, kind: kinds }), { minLength: 1, maxLength: 60 });
const anyKind = fc.constantFrom<Ev['kind']>('white', 'black', 'white', 'black', 'pause', 'resume');
const pressKind = fc.constantFrom<Ev['kind']>('white', 'black');

describe('clock properties (fast-check over random press sequences)', () => {
  it('time is conserved: every move, flag and end reading equals credited − (running − delay allowances)', () => {
    fc.assert(
      fc.property(controlArb, stepsArb(anyKind), fc.integer({ min: 0, max: 500000 }), (c, steps, tail) => {
        const events = timed(steps);
        const endAt = events[events.length - 1].at + tail;
        expect(replayGame(c, events, endAt)).toEqual(reference(c, events, endAt));
      }),
      { numRuns: 300 },
    );
  });

  it('the flag falls at exactly the computed deadline, and a press at it is too late', () => {
    // A random opening of presses, then the side on move presses exactly at its deadline
    // (too late: the flag comes first) or 1 ms before (in time).
    fc.assert(
      fc.property(controlArb, stepsArb(pressKind), fc.boolean(), (c, steps, atDeadline) => {
        const events = timed(steps);
        const lastAt = events[events.length - 1].at;
        const ref = reference(c, events, lastAt);
        const state = ref[ref.length - 1];
        fc.pre(state.status === 'running');
        const onMove = state.turn as SideName;
        // Deadline written out: the turn began at the last move (or the start at 0) with R0 left;
        // it falls R0 later, plus the whole delay for a simple delay (Bronstein counts at once).
        const moveLines = ref.filter((o) => o.type === 'move');
        const lastMove = moveLines[moveLines.length - 1];
        const turnStart = lastMove ? (lastMove.t as number) : 0;
        const startCredit = c.baseS * 1000 + (c.timing === 'before-move' ? c.incS * 1000 : 0);
        const r0 = lastMove ? (lastMove[onMove] as number) : startCredit;
        const deadline = turnStart + r0 + (c.delayS > 0 && c.delayMode === 'simple' ? c.delayS * 1000 : 0);
        const pressAt = atDeadline ? deadline : deadline - 1;
        fc.pre(pressAt >= lastAt);
        const withPress = [...events, { at: pressAt, kind: onMove }];
        const out = replayGame(c, withPress, pressAt);
        const flags = out.filter((o) => o.type === 'flag');
        const movesAfter = out.filter((o) => o.type === 'move' && (o.t as number) === pressAt && o.side === onMove);
        if (atDeadline) {
          expect(flags).toEqual([
            { t: deadline, type: 'flag', side: onMove, white: onMove === 'white' ? 0 : expect.any(Number), black: onMove === 'black' ? 0 : expect.any(Number) },
          ]);
          expect(movesAfter).toEqual([]);
        } else {
          expect(flags).toEqual([]);
          expect(movesAfter).toHaveLength(1);
        }
        expect(out).toEqual(reference(c, withPress, pressAt));
      }),
      { numRuns: 300 },
    );
  });

  it('FIDE Laws 6.11: nothing changes while paused — a pause only shifts later output by its length', () => {
    fc.assert(
      fc.property(
        controlArb,
        stepsArb(pressKind),
        fc.nat(),
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.array(pressKind, { maxLength: 4 }),
        fc.integer({ min: 0, max: 300000 }),
        (c, steps, cut, pauseMs, pressesWhilePaused, tail) => {
          const events = timed(steps);
          const endAt = events[events.length - 1].at + tail;
          // Pause at P (after every input at P), press while paused, resume at P + D; later inputs shift by D.
          const P = cut % (endAt + 1);
          const shifted: Ev[] = [
            ...events.filter((e) => e.at <= P),
            { at: P, kind: 'pause' },
            ...pressesWhilePaused.map((kind, i) => ({ at: P + Math.min(i + 1, pauseMs), kind })),
            { at: P + pauseMs, kind: 'resume' },
            ...events.filter((e) => e.at > P).map((e) => ({ ...e, at: e.at + pauseMs })),
          ];
          const plain = replayGame(c, events, endAt);
          const paused = replayGame(c, shifted, endAt + pauseMs);
          const expected = plain.map((o) => ((o.t as number) > P || o.type === 'state' ? { ...o, t: (o.t as number) + pauseMs } : o));
          expect(paused).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

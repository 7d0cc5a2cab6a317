// The board's live state is the clock's own (docs/architecture.md "The rule book"): a game's journaled events
// fed one by one to LiveGame (the statechart, rules/rebuild.ts) give, after every step of a
// random game in every mode, exactly what the clock itself reads — status, side on move, both
// times, moves, periods, presence, flags, illegal moves, the quickplay increment and delay, what a
// take-back would show either way (FIDE Laws 7.1) — and the
// basis it carries gives the running side's time between events as the clock shows it,
// simple delay, Bronstein delay and sandclock included (FIDE Laws 6.2, 6.10.2; III.4).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { presetTimeControl } from '../../protocol/time-control.ts';
import { forfeitDeadline, readClock, remainingMs } from '../../rules/clock-reading.ts';
import { takeBack } from '../../rules/takeback.ts';
import { basisDefaultTimeLeftMs, basisRemainingMs } from '../../rules/clock-snapshot.ts';
import { recordFromJournalRow } from './journal-records.ts';
import { controls, journals, playJournaled, step } from '../clocks/journaled-clock.fixture.ts';
import { LiveGame } from './live-state.ts';
import type { ClockEventRecord } from './ports.ts';

afterAll(() => journals.forEach((j) => j.close()));

describe('LiveGame: the live state is the statechart’s, step by step', () => {
  it('after every step of random games in every mode, the live state reads what the clock reads, and the basis runs as the clock runs', () => {
    fc.assert(
      fc.property(
        controls,
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 40, maxLength: 40 }),
        (tc, steps, origin, fractions) => {
          const { journal, game, trace } = playJournaled(tc, steps, origin);
          const rows = journal.eventsByGame(game.gameId);
          const live = new LiveGame(tc);
          let fed = 0;
          trace.forEach((point, i) => {
            for (; fed < point.events; fed++) live.feed(recordFromJournalRow(rows[fed])!);
            const s = live.state;
            if (s === null) return;
            const own = readClock(point.state, point.at);
            expect(live.mismatches).toEqual([]);
            expect({
              status: s.status,
              turn: s.turn ?? own.turn,
              white: s.whiteMs,
              black: s.blackMs,
              moves: s.moves,
              flag: s.flag,
              present: s.present,
              illegal: s.illegalMoves,
              incr: s.incrementMs,
              delay: s.delayMs,
            }).toEqual({
              status: point.state.result !== null ? 'finished' : own.status,
              turn: own.turn,
              white: own.white,
              black: own.black,
              moves: own.moves,
              flag: own.flag,
              present: own.present,
              illegal: own.illegalMoves,
              incr: own.extraIncrementMs,
              delay: own.extraDelayMs,
            });
            // FIDE Laws 7.5.1 / 7.1: the preview is what the clock itself would show after a take-back, either way.
            const onClock = (times: 'rewind' | 'keep') => {
              const done = takeBack(point.state, point.at, times);
              return (
                done && {
                  side: done.side,
                  times: { white: readClock(done.state, point.at).white, black: readClock(done.state, point.at).black },
                  illegal: done.state[done.side].illegalMoves,
                }
              );
            };
            const rewind = onClock('rewind');
            const keep = onClock('keep');
            expect(s.takebackPreview ?? null).toEqual(
              rewind && keep && { side: rewind.side, move: own.moves[rewind.side], rewind: rewind.times, keep: keep.times, illegalMoves: rewind.illegal },
            );
            expect(s.period).toEqual({ white: own.period.white + 1, black: own.period.black + 1 });
            // Between this report and the next step, the clock runs on: the basis gives its times.
            const next = trace[i + 1];
            const gap = next ? Math.max(0, next.at - point.at) : 10_000;
            const elapsed = Math.floor(fractions[i % fractions.length] * gap);
            for (const side of ['white', 'black'] as const) {
              const want = point.state.status === 'running' ? remainingMs(point.state, side, point.at + elapsed) : remainingMs(point.state, side, point.at);
              expect(basisRemainingMs(s.clock!, side, elapsed), `${side} ${elapsed} ms after the report`).toBe(want);
            }
            // FIDE Laws 6.7.1: the default-time countdown a reader shows is the clock's own deadline.
            const deadline = forfeitDeadline(point.state);
            expect(basisDefaultTimeLeftMs(s.clock!, elapsed)).toBe(deadline === null ? null : deadline - (point.at + elapsed));
          });
          live.stop();
        },
      ),
      { numRuns: 120 },
    );
  });

  it('FIDE Laws 7.5.1 / 7.1: the take-back preview of a rapid game gives the times of the press (rewind) and the times shown (keep); Guidelines III.4: the delay in force', () => {
    // Rapid 15 min + 10 s, increment before the move: 910 000 ms each at the start.
    const tc = presetTimeControl('rapid');
    const { journal, game } = playJournaled(
      tc,
      [
        { kind: 'start' },
        { kind: 'wait', ms: 5_000 },
        { kind: 'press', wrong: false }, // White: 910 000 − 5 000 + 10 000 = 915 000
        { kind: 'wait', ms: 4_000 },
        { kind: 'press', wrong: false }, // Black: 910 000 − 4 000 + 10 000 = 916 000
        { kind: 'wait', ms: 6_000 },
        { kind: 'pause' }, // White's clock ran 6 s: 909 000
      ],
      0,
    );
    const live = new LiveGame(tc);
    for (const r of journal.eventsByGame(game.gameId)) live.feed(recordFromJournalRow(r)!);
    expect(live.state).toMatchObject({ status: 'paused', whiteMs: 909_000, blackMs: 916_000, delayMs: 0 });
    // Black's move 1 is the one a take-back annuls. Rewound: Black as at its press, before the
    // increment (910 000 − 4 000), White's 6 s after it given back (915 000). Kept: as shown.
    expect(live.state!.takebackPreview).toEqual({
      side: 'black',
      move: 1,
      rewind: { white: 915_000, black: 906_000 },
      keep: { white: 909_000, black: 916_000 },
      illegalMoves: 1,
    });
    live.stop();
    const before = playJournaled(tc, [{ kind: 'start' }, { kind: 'wait', ms: 5_000 }, { kind: 'pause' }, { kind: 'delay', ms: 5_000 }], 0);
    const fresh = new LiveGame(tc);
    for (const r of before.journal.eventsByGame(before.game.gameId)) fresh.feed(recordFromJournalRow(r)!);
    // No completed move: nothing to annul.
    expect(fresh.state).toMatchObject({ takebackPreview: null, delayMs: 5_000 });
    fresh.stop();
  });

  it('FIDE Laws 6.9: later flags are kept in the order they fell; a take-back that annuls the first flag clears them', () => {
    // White flags, the arbiter adds time and resumes, White moves, Black flags; then the arbiter takes Black's flag back? No: a take-back annuls White's last move, which came after White's flag.
    const tc = presetTimeControl('armageddon'); // W 360 s, B 300 s, no increment
    const { journal, game } = playJournaled(
      tc,
      [
        { kind: 'start' },
        { kind: 'wait', ms: 360_000 }, // White's flag falls
        { kind: 'adjust', side: 'white', ms: 30_000 },
        { kind: 'resume' },
        { kind: 'wait', ms: 1_000 },
        { kind: 'press', wrong: false }, // White moves; Black's clock runs
        { kind: 'wait', ms: 300_000 }, // Black's flag falls too
      ],
      5_000,
    );
    const live = new LiveGame(tc);
    const rows = journal.eventsByGame(game.gameId);
    for (const r of rows) live.feed(recordFromJournalRow(r)!);
    expect(rows.filter((r) => r.type === 'flag').map((r) => r.side)).toEqual(['white', 'black']);
    expect(live.state).toMatchObject({ status: 'flagged', flag: 'white', flags: ['white', 'black'] });
    live.stop();
  });

  it('a clock reporting on a board whose control is unknown: its own figures, as reported', () => {
    const ev = (seq: number, type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord => ({
      clockId: 'c',
      bootId: 'b',
      seq,
      event: 'E',
      round: 1,
      board: 1,
      type,
      side: null,
      move: null,
      whiteMs: null,
      blackMs: null,
      monoMs: seq,
      utcMs: 1000 + seq,
      ...extra,
    });
    const live = new LiveGame(null);
    live.feed(ev(1, 'started', { whiteMs: 900_000, blackMs: 900_000 }));
    const s = live.feed(ev(2, 'moved', { side: 'white', move: 1, whiteMs: 905_000, blackMs: 900_000 }));
    expect(s).toMatchObject({ status: 'running', turn: 'black', whiteMs: 905_000, blackMs: 900_000, moves: { white: 1, black: 0 }, startedAtUtcMs: 1001 });
    expect(s.clock).toBeUndefined();
  });
});

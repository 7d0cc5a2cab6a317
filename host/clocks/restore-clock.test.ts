// The journal is the truth (docs/protocol.md "Restore: Held and Restore"): a game rebuilt from its journaled events through the
// one statechart (rules/rebuild.ts) is exactly the clock's own game, in every mode, across
// presses, pauses, the arbiter's powers, flags, forfeits and clocks swapped or restarted
// mid-game (FIDE Laws 6.10.1) — checked through the real path of an event: the statechart's
// output → the clock's ClockEvent (firmware-ts/host-link.ts clockEventBody) → the protobuf
// message → the host's journal row (clock-event.ts journalInput) → SQLite → rebuild; the
// random games include protocol 1.4's corrections (host/clocks/journaled-clock.fixture.ts).
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ClockEventSchema, ClockEvent_Kind, GameResult, Side } from '../../protocol/gen/chessclock_pb.ts';
import { timeControlToWire } from '../../protocol/time-control-codec.ts';
import { parseSideControl, readTimeControlSpec, timeControl } from '../../protocol/time-control.ts';
import { snapshotClock, snapshotDifferences } from '../../rules/clock-snapshot.ts';
import { rebuildGame, restoreSnapshot } from '../../rules/rebuild.ts';
import { Journal } from '../store/journal.ts';
import { journalInput } from './clock-event.ts';
import { Boot, controls, journals, playJournaled, step } from './journaled-clock.fixture.ts';

afterAll(() => journals.forEach((j) => j.close()));

describe('a game rebuilt from the journal is the clock’s own game (docs/protocol.md "Restore: Held and Restore")', () => {
  it('in every mode, across the arbiter’s powers, flags, forfeits, swapped and restarted clocks (FIDE Laws 6.10.1)', () => {
    fc.assert(
      fc.property(controls, fc.array(step, { minLength: 1, maxLength: 45 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (tc, steps, origin) => {
        const { journal, game, boot } = playJournaled(tc, steps, origin, (wired, snapshot) => expect(wired).toEqual(snapshot));
        const events = journal.eventsByGame(game.gameId);
        const rebuilt = rebuildGame(tc, events);
        expect(rebuilt.mismatches).toEqual([]);
        // The clock's game at its last report, stopped there, is the journal's, field by field.
        const own = snapshotClock(boot.state(), boot.lastEventAt);
        const journaled = restoreSnapshot(rebuilt);
        expect(snapshotDifferences(tc, own, journaled)).toEqual([]);
        expect(journaled).toEqual(own);
        boot.actor.stop();
      }),
      { numRuns: 150 },
    );
  });

  it('a journal that is not the clock’s own story is reported, event by event, not trusted', () => {
    const tc = timeControl(parseSideControl('300+5'), parseSideControl('300+5'));
    const journal = new Journal(':memory:');
    journals.push(journal);
    const game = journal.createGame({
      event: 'prop',
      round: 1,
      board: 1,
      kind: 'rapid',
      white: 'W',
      black: 'B',
      timeControl: tc,
      clockId: 'A',
      createdUtcMs: 0,
    });
    let utc = 0;
    const boot = new Boot('A', 1, tc, 1000, (b, ev) =>
      journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: ++utc, uncertaintyMs: 1 }), gameId: game.gameId }),
    );
    boot.send({ type: 'START', at: 1000 });
    boot.send({ type: 'PRESS', side: 'white', at: 4000 });
    boot.send({ type: 'PRESS', side: 'black', at: 9000 });
    const events = journal.eventsByGame(game.gameId);
    expect(rebuildGame(tc, events).mismatches).toEqual([]);
    // Black's press journaled with a second less than the clock charged.
    const forged = events.map((e, i) => (i === 2 ? { ...e, blackMs: e.blackMs + 1000 } : e));
    expect(rebuildGame(tc, forged).mismatches).toEqual([
      {
        index: 2,
        type: 'moved',
        reason: `times ${forged[2].whiteMs}/${forged[2].blackMs} ms, the statechart gives ${events[2].whiteMs}/${events[2].blackMs} ms`,
      },
    ]);
    // A press by the side not on move cannot have produced a move.
    const wrongSide = events.map((e, i) => (i === 2 ? { ...e, side: 'white' as const } : e));
    expect(rebuildGame(tc, wrongSide).mismatches.map((m) => m.index)).toEqual([2]);
    boot.actor.stop();
  });
});

describe('protocol 1.4 events as journal rows (host/clocks/clock-event.ts journalInput)', () => {
  const at = { utcMs: 1, uncertaintyMs: 1 };
  const row = (init: MessageInitShape<typeof ClockEventSchema>) => journalInput('C', 1, 1, create(ClockEventSchema, init), at);

  it('FIDE Laws 7.1: a take-back says whether the times were kept or rewound (a 1.3 clock always rewinds)', () => {
    expect(row({ kind: ClockEvent_Kind.TAKEN_BACK, side: Side.WHITE, moveNumber: 3, period: 0, illegalMoves: 1, keepTimes: true })).toMatchObject({
      type: 'taken-back',
      side: 'white',
      move: 3,
      detail: { period: 0, illegalMoves: 1, times: 'keep' },
    });
    expect(row({ kind: ClockEvent_Kind.TAKEN_BACK, side: Side.WHITE, moveNumber: 3, illegalMoves: 1 }).detail).toEqual({
      period: 0,
      illegalMoves: 1,
      times: 'rewind',
    });
  });

  it("FIDE Laws 6.10.2: the side set on move is the row's side; the corrected control is journaled whole, in the form readTimeControlSpec reads back", () => {
    expect(row({ kind: ClockEvent_Kind.TURN_SET, side: Side.BLACK, whiteMs: 5, blackMs: 6 })).toMatchObject({
      type: 'turn-set',
      side: 'black',
      whiteMs: 5,
      blackMs: 6,
      detail: null,
    });
    const tc = timeControl(parseSideControl('40/5400+30:900+30'), parseSideControl('40/5400+30:900+30'), { defaultTime: 900, incrementTiming: 'after-move' });
    const journaled = row({ kind: ClockEvent_Kind.CONTROL_SET, control: timeControlToWire(tc) });
    expect(journaled).toMatchObject({
      type: 'control-set',
      detail: { timeControl: { timeControl: '40/5400+30:900+30', defaultTime: 900, incrementTiming: 'after-move' } },
    });
    expect(readTimeControlSpec(journaled.detail!.timeControl).timeControl).toEqual(tc);
  });

  it('FIDE Guidelines III.4: the quickplay delay in force', () => {
    expect(row({ kind: ClockEvent_Kind.DELAY_SET, delayMs: 5000 })).toMatchObject({ type: 'delay-set', detail: { ms: 5000 } });
  });

  it("FIDE Laws 7.5.5: a penalty carries the offender's illegal-move count; a clock before 1.4 says none, and none is journaled", () => {
    expect(row({ kind: ClockEvent_Kind.ADJUSTED, side: Side.WHITE, adjustMs: 60_000, penalty: true, illegalMoves: 2 }).detail).toEqual({
      ms: 60_000,
      reason: 'penalty',
      illegalMoves: 2,
    });
    expect(row({ kind: ClockEvent_Kind.ADJUSTED, side: Side.WHITE, adjustMs: 60_000, penalty: true }).detail).toEqual({ ms: 60_000, reason: 'penalty' });
    expect(row({ kind: ClockEvent_Kind.ADJUSTED, side: Side.WHITE, adjustMs: -1000 }).detail).toEqual({ ms: -1000, reason: 'arbiter' });
  });

  it('FIDE Laws 6.7.1: a double forfeit keyed in at the clock is the result "--"', () => {
    expect(row({ kind: ClockEvent_Kind.RESULT_ENTERED, result: GameResult.DOUBLE_FORFEIT, byArbiter: true }).detail).toEqual({
      result: '--',
      confirmedBy: 'arbiter',
    });
  });
});

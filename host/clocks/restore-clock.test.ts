// The journal is the truth (issue 11): a game rebuilt from its journaled events through the
// one statechart (rules/rebuild.ts) is exactly the clock's own game, in every mode, across
// presses, pauses, the arbiter's powers, flags, forfeits and clocks swapped or restarted
// mid-game (FIDE Laws 6.10.1) — checked through the real path of an event: the statechart's
// output → the clock's ClockEvent (firmware-ts/host-link.ts clockEventBody) → the protobuf
// message → the host's journal row (clock-event.ts journalInput) → SQLite → rebuild.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSideControl, timeControl } from '../../protocol/time-control.ts';
import { snapshotClock, snapshotDifferences } from '../../rules/clock-snapshot.ts';
import { rebuildGame, restoreSnapshot } from '../../rules/rebuild.ts';
import { Journal } from '../store/journal.ts';
import { journalInput } from './clock-event.ts';
import { Boot, controls, journals, playJournaled, step } from './journaled-clock.fixture.ts';

afterAll(() => journals.forEach((j) => j.close()));

describe('a game rebuilt from the journal is the clock’s own game (issue 11: the journal is the truth)', () => {
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
    const game = journal.createGame({ event: 'prop', round: 1, board: 1, kind: 'rapid', white: 'W', black: 'B', timeControl: tc, clockId: 'A', createdUtcMs: 0 });
    let utc = 0;
    const boot = new Boot('A', 1, tc, 1000, (b, ev) => journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: ++utc, uncertaintyMs: 1 }), gameId: game.gameId }));
    boot.send({ type: 'START', at: 1000 });
    boot.send({ type: 'PRESS', side: 'white', at: 4000 });
    boot.send({ type: 'PRESS', side: 'black', at: 9000 });
    const events = journal.eventsByGame(game.gameId);
    expect(rebuildGame(tc, events).mismatches).toEqual([]);
    // Black's press journaled with a second less than the clock charged.
    const forged = events.map((e, i) => (i === 2 ? { ...e, blackMs: e.blackMs + 1000 } : e));
    expect(rebuildGame(tc, forged).mismatches).toEqual([{ index: 2, type: 'moved', reason: `times ${forged[2].whiteMs}/${forged[2].blackMs} ms, the statechart gives ${events[2].whiteMs}/${events[2].blackMs} ms` }]);
    // A press by the side not on move cannot have produced a move.
    const wrongSide = events.map((e, i) => (i === 2 ? { ...e, side: 'white' as const } : e));
    expect(rebuildGame(tc, wrongSide).mismatches.map((m) => m.index)).toEqual([2]);
    boot.actor.stop();
  });
});

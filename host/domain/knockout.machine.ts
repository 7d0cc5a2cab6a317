// One actor per knockout mini-match: wraps the pure `knockoutStep` (the only place the
// match rules live) and adds what a live hall needs on top: the break before the rapid
// play-off is an XState `after` deadline computed from context (docs/architecture.md rule 2: the clock
// schedules the deadline, nothing counts ticks), and outputs are emitted for the host to
// configure the board's clock, show the countdown, and record the decision.
//
// Time comes in with the events (`at`, UTC ms from the host's one time source); the actor's
// clock (real, or SimulatedClock in tests) must run on the same base.

import { assign, emit, setup } from 'xstate';
import { knockoutStep, type FinishedGame, type KnockoutSpec, type KnockoutStep, type Lot, type NextGame } from './knockout.ts';

export interface KnockoutInput {
  spec: KnockoutSpec;
  lot: Lot;
  /** Games already finished (a host restarted on its journal). */
  finished?: readonly FinishedGame[];
  /** Now (UTC ms) when the actor starts. */
  at: number;
}

export interface KnockoutContext {
  spec: KnockoutSpec;
  lot: Lot;
  finished: FinishedGame[];
  step: KnockoutStep;
  nowUtcMs: number;
}

export type KnockoutEvent = { type: 'GAME_FINISHED'; game: FinishedGame; at: number };

export type KnockoutOutput =
  /** Configure the board's clock for this game (it may start at earliestStartUtcMs). */
  | { type: 'next-game'; at: number; game: NextGame }
  /** A break runs until `untilUtcMs` (the countdown the hall shows). */
  | { type: 'break'; at: number; untilUtcMs: number; game: NextGame }
  | { type: 'break-over'; game: NextGame }
  | { type: 'decided'; at: number; winner: number; loser: number; decidedBy: 'classical' | 'rapid' | 'armageddon' }
  /** A finished game that does not fit the match (wrong game, players or colours): state unchanged. */
  | { type: 'rejected'; at: number; game: FinishedGame; reason: string };

/** Why adding `game` is refused, or null when it fits. */
function refusal(context: KnockoutContext, game: FinishedGame): string | null {
  try {
    knockoutStep(context.spec, [...context.finished, game], context.lot);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export const knockoutMachine = setup({
  types: {
    input: {} as KnockoutInput,
    context: {} as KnockoutContext,
    events: {} as KnockoutEvent,
    emitted: {} as KnockoutOutput,
  },
  guards: {
    decided: ({ context }) => context.step.status === 'decided',
    fits: ({ context, event }) => refusal(context, event.game) === null,
    onBreak: ({ context }) =>
      context.step.status === 'play' &&
      context.step.next.earliestStartUtcMs !== null &&
      context.step.next.earliestStartUtcMs > context.nowUtcMs,
  },
  delays: {
    breakDelay: ({ context }) =>
      context.step.status === 'play' && context.step.next.earliestStartUtcMs !== null
        ? Math.max(0, context.step.next.earliestStartUtcMs - context.nowUtcMs)
        : 0,
  },
  actions: {
    record: assign(({ context, event }) => {
      const finished = [...context.finished, event.game];
      return { finished, step: knockoutStep(context.spec, finished, context.lot), nowUtcMs: event.at };
    }),
    reject: emit(({ context, event }) => ({
      type: 'rejected' as const,
      at: event.at,
      game: event.game,
      reason: refusal(context, event.game) ?? 'refused',
    })),
    announceGame: emit(({ context }) => {
      if (context.step.status !== 'play') throw new Error('no next game in a decided match');
      return { type: 'next-game' as const, at: context.nowUtcMs, game: context.step.next };
    }),
    announceBreak: emit(({ context }) => {
      if (context.step.status !== 'play') throw new Error('no break in a decided match');
      return { type: 'break' as const, at: context.nowUtcMs, untilUtcMs: context.step.next.earliestStartUtcMs!, game: context.step.next };
    }),
    announceBreakOver: emit(({ context }) => {
      if (context.step.status !== 'play') throw new Error('no break in a decided match');
      return { type: 'break-over' as const, game: context.step.next };
    }),
    announceDecision: emit(({ context }) => {
      if (context.step.status !== 'decided') throw new Error('match not decided');
      const { winner, loser, decidedBy } = context.step;
      return { type: 'decided' as const, at: context.nowUtcMs, winner, loser, decidedBy };
    }),
  },
}).createMachine({
  id: 'knockout',
  context: ({ input }) => {
    const finished = [...(input.finished ?? [])];
    return { spec: input.spec, lot: input.lot, finished, step: knockoutStep(input.spec, finished, input.lot), nowUtcMs: input.at };
  },
  initial: 'routing',
  states: {
    routing: {
      always: [{ guard: 'decided', target: 'decided' }, { guard: 'onBreak', target: 'break' }, { target: 'playing' }],
    },
    playing: {
      entry: 'announceGame',
      on: { GAME_FINISHED: [{ guard: 'fits', target: 'routing', actions: 'record' }, { actions: 'reject' }] },
    },
    break: {
      entry: 'announceBreak',
      after: { breakDelay: { target: 'playing', actions: 'announceBreakOver' } },
    },
    decided: { type: 'final', entry: 'announceDecision' },
  },
});

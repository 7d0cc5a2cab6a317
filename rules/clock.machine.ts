// The clock statechart: the one implementation of the clock rules (docs/architecture.md rule 5).
// The physical clock, the simulator, the terminal demo and `chessclock replay` all run
// this machine; each mode (classical with the move-40 bonus, rapid, armageddon, sudden
// death, forfeit on lateness, delays, sandclock) is configuration, not a copy.
//
// Time comes only from events: every input carries `at`, the integer millisecond at
// which it arrived on the clock's monotonic time base (docs/architecture.md rule 2). Flag and forfeit
// are scheduled with `after` at the exact deadline computed from the context; the
// machine never counts ticks. The arithmetic lives in clock-core.ts and the modules it names.
//
// Presence (FIDE Laws 6.7) is data in the context rather than a parallel region:
// the forfeit deadline is a delay computed from it, and XState delay functions see
// only the context and event, never the state value of another region.

import { assign, emit, enqueueActions, raise, setup } from 'xstate';
import { other, type Side, type TimeControl } from '../protocol/time-control.ts';
import {
  adjustTime,
  reinstate,
  setControl,
  setExtraDelay,
  setExtraIncrement,
  setTurn,
  quickplayRefusal,
  QUICKPLAY_BLITZ_REFUSAL,
  penaltyTime,
  setMoves,
} from './arbiter-corrections.ts';
import { recordResult, completeMove, fallFlag, forfeitAbsent, markPresent, pauseClock, resumeClock, startClock } from './clock-core.ts';
import { flagDeadline, forfeitDeadline, nextDeadline, remainingMs, turnElapsedMs } from './clock-reading.ts';
import { initialClock, type ClockState, type ResultSource } from './clock-state.ts';
import { takeBack, type TakebackTimes } from './takeback.ts';

import { loadSnapshot, type ClockSnapshot } from './clock-snapshot.ts';
import type { ClockResult } from './vocabulary.ts';

export type ClockInput =
  /** `sessionAt` (≤ at): the session's start, from which the default time counts (FIDE Laws 6.7.1). */
  | { type: 'START'; at: number; sessionAt?: number }
  | { type: 'PRESS'; side: Side; at: number }
  | { type: 'ARRIVE'; side: Side; at: number }
  | { type: 'PAUSE'; at: number }
  | { type: 'RESUME'; at: number }
  | { type: 'ADJUST'; side: Side; ms: number; at: number }
  | { type: 'PENALTY'; side: Side; at: number }
  | { type: 'SET_MOVES'; side: Side; moves: number; at: number }
  /**
   * FIDE Laws 7.5.1 with 6.10.2: annul the last completed move (paused or flagged). `times`:
   * rewind both times to the press (the default), or keep them as they are (Laws 7.1).
   */
  | { type: 'TAKEBACK'; at: number; times?: TakebackTimes }
  /** FIDE Laws 6.10.2: the arbiter sets the side on move (ready or paused): a replacement clock, a wrong side. */
  | { type: 'SET_TURN'; side: Side; at: number }
  /** FIDE Laws 6.10.2: the arbiter installs a corrected time control (ready or paused), keeping times, counters and credited periods. */
  | { type: 'SET_CONTROL'; timeControl: TimeControl; at: number }
  /** FIDE Guidelines III.4: a (simple) delay for both sides from the next turn on (0 removes it). */
  | { type: 'DELAY'; ms: number; at: number }
  /** FIDE Laws 6.7.1 "unless the arbiter decides otherwise": overrule a forfeit. */
  | { type: 'REINSTATE'; at: number }
  /** FIDE Guidelines III.4: an increment for both sides after every later move (0 removes it). */
  | { type: 'INCREMENT'; ms: number; at: number }
  /** The game's result: entered at the clock (players, arbiter) or sent by the host (also a correction). */
  | { type: 'RESULT'; result: ClockResult; by: ResultSource; at: number }
  | { type: 'NEW_GAME'; timeControl: TimeControl; at: number }
  /**
   * The journal's game, from the host (docs/protocol.md "Restore"): the clock takes this
   * state, stopped, as its own (FIDE Laws 6.10.1: a replaced clock is set to the game's
   * times; the arbiter resumes). Refused while the clock runs.
   */
  | { type: 'RESTORE'; snapshot: ClockSnapshot; at: number };

type Times = { white: number; black: number };

export type ClockOutput =
  | ({ type: 'started'; at: number; sessionAt: number } & Times)
  | ({ type: 'move'; at: number; side: Side; move: number } & Times)
  | ({ type: 'flag'; at: number; side: Side } & Times)
  | { type: 'forfeit'; at: number; side: Side }
  | ({ type: 'paused' | 'resumed'; at: number } & Times)
  /** `illegalMoves`, for a penalty: the offender's (the other side's) illegal-move count afterwards (FIDE Laws 7.5.5). */
  | ({ type: 'adjusted'; at: number; side: Side; ms: number; reason: 'arbiter' | 'penalty'; illegalMoves?: number } & Times)
  | { type: 'arrived'; at: number; side: Side }
  | ({ type: 'moves-set'; at: number; side: Side; moves: number; period: number; creditedMs: number } & Times)
  /** `side` made the annulled move; `move` is its completed-move count afterwards. */
  | ({ type: 'takeback'; at: number; side: Side; move: number; illegalMoves: number; times: TakebackTimes } & Times)
  | ({ type: 'turn-set'; at: number; side: Side } & Times)
  | ({ type: 'control-set'; at: number; timeControl: TimeControl } & Times)
  | { type: 'delay-set'; at: number; ms: number }
  | ({ type: 'reinstated'; at: number } & Times)
  | { type: 'increment-set'; at: number; ms: number }
  | { type: 'result'; at: number; result: ClockResult; by: ResultSource }
  | { type: 'new-game'; at: number }
  | ({ type: 'restored'; at: number } & Times)
  | { type: 'rejected'; at: number; input: ClockInput['type']; reason: string };

export interface ClockMachineInput {
  timeControl: TimeControl;
  /** A snapshot saved at a press: the clock resumes paused exactly there (power cut). */
  restore?: ClockState;
}

interface Context {
  clock: ClockState;
}

const times = (clock: ClockState, at: number): Times => ({
  white: remainingMs(clock, 'white', at),
  black: remainingMs(clock, 'black', at),
});

/** The instant of an input, or (for a timer) the deadline it was scheduled for. */
function eventAt(event: { type: string; at?: number }, clock: ClockState): number {
  return event.at ?? nextDeadline(clock) ?? clock.lastAt;
}

function restoredClock(input: ClockMachineInput): ClockState {
  const saved = input.restore;
  if (!saved) return initialClock(input.timeControl);
  // A power cut stops the clock where the last snapshot left it; the arbiter resumes.
  if (saved.status === 'running' && saved.result === null) {
    return { ...saved, status: 'paused', runningSince: null, turnActiveMs: turnElapsedMs(saved, saved.lastAt) };
  }
  return saved;
}

/**
 * The transitions of an input while a deadline may be pending: an input stamped before
 * the last step is refused, and a deadline due by the input's instant fires first, the
 * input then being handled again in the state the deadline led to (deadlines come
 * before inputs at the same millisecond: a press at the flag instant is too late).
 */
function inTime<T>(...then: T[]) {
  return [
    { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
    { guard: 'deadlineDue', target: '#clock.expiring', actions: 'reraise' },
    ...then,
  ] as const;
}

/**
 * FIDE Guidelines III.4: the quickplay increment or delay, with the clock stopped: a bad value is
 * an error, and no quickplay finish is set in blitz (removing one is always allowed).
 */
function quickplay(action: 'setIncrement' | 'setDelay') {
  const what = action === 'setIncrement' ? 'increment' : 'delay';
  return [
    { guard: 'badIncrement', actions: { type: 'reject', params: `the ${what} must be a whole number of ms ≥ 0` } },
    { guard: 'quickplayRefused', actions: { type: 'reject', params: QUICKPLAY_BLITZ_REFUSAL } },
    { actions: action },
  ] as const;
}

/**
 * One side's clock running. Its timer is the earliest deadline (the flag, or the
 * default time); completing the move goes to the other side, which arms a new timer.
 */
function turnState(side: Side) {
  return {
    after: { deadline: { target: '#clock.expiring' } },
    on: {
      PRESS: [
        { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
        // Deadlines come before inputs at the same millisecond: a press at the flag instant is too late.
        { guard: 'deadlineDue', target: '#clock.expiring', actions: 'reraise' },
        // FIDE Laws 6.2.1: the side on move completes its move; the opponent's clock starts.
        // Pressing one's own lever also shows presence (FIDE Laws 6.7).
        {
          guard: { type: 'pressedByAbsent', params: side },
          target: other(side),
          actions: ['markPresent', 'completeMove', 'emitMove'],
        },
        { guard: { type: 'pressedBy', params: side }, target: other(side), actions: ['completeMove', 'emitMove'] },
        // A press by the side not on move changes no time (but shows the player is there).
        { actions: 'markPresent' },
      ],
    },
  } as const;
}

export const clockMachine = setup({
  types: {
    context: {} as Context,
    events: {} as ClockInput,
    input: {} as ClockMachineInput,
    emitted: {} as ClockOutput,
  },
  delays: {
    /** Until the earliest deadline (flag or forfeit), from the instant of the last step. */
    deadline: ({ context }) => Math.max(0, (nextDeadline(context.clock) ?? context.clock.lastAt) - context.clock.lastAt),
  },
  guards: {
    timeWentBack: ({ context, event }) => event.at < context.clock.lastAt,
    /** Deadlines come before inputs at the same millisecond (a press at the flag instant is too late). */
    deadlineDue: ({ context, event }) => {
      const due = nextDeadline(context.clock);
      return due !== null && due <= event.at;
    },
    pressedBy: ({ event }, side: Side) => 'side' in event && event.side === side,
    pressedByAbsent: ({ context, event }, side: Side) => 'side' in event && event.side === side && !context.clock[side].present,
    pressedByWaiting: ({ context, event }) => 'side' in event && event.side !== context.clock.turn,
    whiteOnMove: ({ context }) => context.clock.turn === 'white',
    isFlagged: ({ context }) => context.clock.status === 'flagged',
    isForfeited: ({ context }) => context.clock.status === 'forfeited',
    isPaused: ({ context }) => context.clock.status === 'paused',
    hasResult: ({ context }) => context.clock.result !== null,
    hasMoveToAnnul: ({ context }) => context.clock.undo !== null,
    /** A session start after the start instant names no instant yet to come: refused. */
    sessionInFuture: ({ event }) => event.type === 'START' && event.sessionAt !== undefined && event.sessionAt > event.at,
    badIncrement: ({ event }) => (event.type === 'INCREMENT' || event.type === 'DELAY') && (!Number.isSafeInteger(event.ms) || event.ms < 0),
    /** FIDE Guidelines III: no quickplay finish in blitz (removing one is always allowed). */
    quickplayRefused: ({ context, event }) =>
      (event.type === 'INCREMENT' || event.type === 'DELAY') && event.ms > 0 && quickplayRefusal(context.clock.timeControl) !== null,
    isRunning: ({ context }) => context.clock.status === 'running',
    forfeitPending: ({ context }) => forfeitDeadline(context.clock) !== null,
    /** Laws 6.10.2: play resumes after a flag only if the side on move has time again. */
    turnHasTime: ({ context, event }) => remainingMs(context.clock, context.clock.turn, event.at) > 0,
  },
  actions: {
    reject: emit(({ event }, reason: string) => ({
      type: 'rejected' as const,
      at: event.at,
      input: event.type,
      reason,
    })),
    reraise: raise(({ event }) => event),
    start: enqueueActions(({ context, event, enqueue }) => {
      const sessionAt = event.type === 'START' ? event.sessionAt : undefined;
      const clock = startClock(context.clock, event.at, sessionAt);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'started', at: event.at, sessionAt: clock.startedAt ?? event.at, ...times(clock, event.at) });
    }),
    markPresent: enqueueActions(({ context, event, enqueue }) => {
      if (!('side' in event)) return;
      const was = context.clock[event.side].present;
      enqueue.assign({ clock: markPresent(context.clock, event.side, event.at) });
      if (!was) enqueue.emit({ type: 'arrived', at: event.at, side: event.side });
    }),
    // The hot path (one per press): a plain assign and an emit that reads the new context.
    completeMove: assign({ clock: ({ context, event }) => completeMove(context.clock, event.at) }),
    emitMove: emit(({ context, event }) => {
      const clock = context.clock;
      const side = other(clock.turn);
      return { type: 'move' as const, at: event.at, side, move: clock[side].moves, ...times(clock, event.at) };
    }),
    pause: enqueueActions(({ context, event, enqueue }) => {
      const clock = pauseClock(context.clock, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'paused', at: event.at, ...times(clock, event.at) });
    }),
    resume: enqueueActions(({ context, event, enqueue }) => {
      const clock = resumeClock(context.clock, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'resumed', at: event.at, ...times(clock, event.at) });
    }),
    adjust: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'ADJUST') return;
      const { state: clock, appliedMs } = adjustTime(context.clock, event.side, event.ms, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'adjusted', at: event.at, side: event.side, ms: appliedMs, reason: 'arbiter', ...times(clock, event.at) });
    }),
    penalty: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PENALTY') return;
      const { state: clock, side, appliedMs } = penaltyTime(context.clock, event.side, event.at);
      enqueue.assign({ clock });
      enqueue.emit({
        type: 'adjusted',
        at: event.at,
        side,
        ms: appliedMs,
        reason: 'penalty',
        illegalMoves: clock[event.side].illegalMoves,
        ...times(clock, event.at),
      });
    }),
    setMoves: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SET_MOVES') return;
      const { state: clock, creditedMs } = setMoves(context.clock, event.side, event.moves, event.at);
      enqueue.assign({ clock });
      enqueue.emit({
        type: 'moves-set',
        at: event.at,
        side: event.side,
        moves: clock[event.side].moves,
        period: clock[event.side].period,
        creditedMs,
        ...times(clock, event.at),
      });
    }),
    takeBack: enqueueActions(({ context, event, enqueue }) => {
      const mode: TakebackTimes = event.type === 'TAKEBACK' && event.times === 'keep' ? 'keep' : 'rewind';
      const done = takeBack(context.clock, event.at, mode);
      if (done === null) return;
      const clock = done.state;
      enqueue.assign({ clock });
      enqueue.emit({
        type: 'takeback',
        at: event.at,
        side: done.side,
        move: clock[done.side].moves,
        illegalMoves: clock[done.side].illegalMoves,
        times: mode,
        ...times(clock, event.at),
      });
    }),
    setTurn: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SET_TURN') return;
      const clock = setTurn(context.clock, event.side, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'turn-set', at: event.at, side: clock.turn, ...times(clock, event.at) });
    }),
    setControl: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SET_CONTROL') return;
      const clock = setControl(context.clock, event.timeControl, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'control-set', at: event.at, timeControl: clock.timeControl, ...times(clock, event.at) });
    }),
    setDelay: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'DELAY') return;
      const clock = setExtraDelay(context.clock, event.ms, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'delay-set', at: event.at, ms: clock.extraDelayMs });
    }),
    reinstate: enqueueActions(({ context, event, enqueue }) => {
      const clock = reinstate(context.clock, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'reinstated', at: event.at, ...times(clock, event.at) });
    }),
    setIncrement: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'INCREMENT') return;
      const clock = setExtraIncrement(context.clock, event.ms, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'increment-set', at: event.at, ms: clock.extraIncrementMs });
    }),
    recordResult: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'RESULT') return;
      // A result ends the game: a clock still running stops at this instant.
      const stopped = context.clock.status === 'running' ? pauseClock(context.clock, event.at) : context.clock;
      enqueue.assign({ clock: recordResult(stopped, event.result, event.at) });
      enqueue.emit({ type: 'result', at: event.at, result: event.result, by: event.by });
    }),
    restore: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'RESTORE') return;
      const clock = loadSnapshot(context.clock.timeControl, event.snapshot, event.at);
      enqueue.assign({ clock });
      enqueue.emit({ type: 'restored', at: event.at, ...times(clock, event.at) });
    }),
    newGame: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'NEW_GAME') return;
      enqueue.assign({ clock: initialClock(event.timeControl, event.at) });
      enqueue.emit({ type: 'new-game', at: event.at });
    }),
    /**
     * Fires the earliest deadline that is due by the instant of the current event (a
     * timer, or an input that arrived at or after it). Forfeits come before a flag at
     * the same instant: a forfeit ends the game outright (Laws 6.7.1).
     */
    fireDeadline: enqueueActions(({ context, event, enqueue }) => {
      const clock = context.clock;
      const upTo = eventAt(event as { type: string; at?: number }, clock);
      const forfeitAt = forfeitDeadline(clock);
      const flagAt = flagDeadline(clock);
      if (forfeitAt !== null && forfeitAt <= upTo && (flagAt === null || forfeitAt <= flagAt)) {
        // After a flag nothing is scheduled; a default time that passed meanwhile is
        // applied when the arbiter resumes, at the moment of the resume.
        const at = Math.max(forfeitAt, clock.lastAt);
        const { state, sides } = forfeitAbsent(clock, at);
        enqueue.assign({ clock: state });
        for (const side of sides) enqueue.emit({ type: 'forfeit', at, side });
        return;
      }
      if (flagAt !== null && flagAt <= upTo) {
        const state = fallFlag(clock, flagAt);
        enqueue.assign({ clock: state });
        enqueue.emit({ type: 'flag', at: flagAt, side: clock.turn, ...times(state, flagAt) });
      }
    }),
  },
}).createMachine({
  id: 'clock',
  context: ({ input }) => ({ clock: restoredClock(input) }),
  initial: 'boot',
  on: {
    // Root handlers catch what no state handles; they leave the state as it is.
    REINSTATE: { actions: { type: 'reject', params: 'nothing to reinstate: the game was not lost by default' } },
    // A stopped clock takes the journal's state, whatever it showed (the boot state then
    // settles where the restored status says).
    RESTORE: [
      { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
      { target: '.boot', actions: 'restore' },
    ],
    '*': { actions: { type: 'reject', params: 'ignored in this state' } },
  },
  states: {
    boot: {
      always: [
        { guard: 'hasResult', target: 'over' },
        { guard: 'isPaused', target: 'paused' },
        { guard: 'isFlagged', target: 'flagged' },
        { guard: 'isForfeited', target: 'forfeited' },
        { target: 'ready' },
      ],
    },
    ready: {
      on: {
        START: [
          { guard: 'sessionInFuture', actions: { type: 'reject', params: 'the session start is after the start instant' } },
          { target: 'running', actions: 'start' },
        ],
        PRESS: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          // Common practice: Black pressing while the clock is ready starts White's clock (the
          // side not on move starts the clock of the side on move, when the arbiter set Black on move).
          { guard: 'pressedByWaiting', target: 'running', actions: ['markPresent', 'start'] },
          // A press by the side on move while ready does nothing but show that its player is present.
          { actions: 'markPresent' },
        ],
        ARRIVE: { actions: 'markPresent' },
        ADJUST: { actions: 'adjust' },
        SET_MOVES: { actions: 'setMoves' },
        SET_TURN: { actions: 'setTurn' },
        SET_CONTROL: { actions: 'setControl' },
        INCREMENT: quickplay('setIncrement'),
        DELAY: quickplay('setDelay'),
        TAKEBACK: { actions: { type: 'reject', params: 'no move to take back: the game has not started' } },
        RESULT: { actions: { type: 'reject', params: 'the game has not started' } },
        NEW_GAME: { actions: 'newGame' },
      },
    },
    running: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'whiteOnMove', target: 'white' }, { target: 'black' }] },
        white: turnState('white'),
        black: turnState('black'),
      },
      on: {
        ARRIVE: inTime(
          // An arrival can lift the forfeit deadline: reschedule.
          { target: '#clock.running', reenter: true, actions: 'markPresent' },
        ),
        PAUSE: inTime({ target: '#clock.paused', actions: 'pause' }),
        ADJUST: inTime({ target: '#clock.running', reenter: true, actions: 'adjust' }),
        PENALTY: inTime({ target: '#clock.running', reenter: true, actions: 'penalty' }),
        // Corrections that move the game back or change its rules are made with the clock stopped.
        SET_MOVES: { actions: { type: 'reject', params: 'pause the clock before correcting a move counter' } },
        TAKEBACK: { actions: { type: 'reject', params: 'pause the clock before taking a move back' } },
        INCREMENT: { actions: { type: 'reject', params: 'pause the clock before setting an increment' } },
        DELAY: { actions: { type: 'reject', params: 'pause the clock before setting a delay' } },
        SET_TURN: { actions: { type: 'reject', params: 'pause the clock before setting the side on move' } },
        SET_CONTROL: { actions: { type: 'reject', params: 'pause the clock before correcting the time control' } },
        RESULT: inTime(
          // A result recorded while the clock runs (by the host) stops it: the game is over.
          { target: '#clock.over', actions: 'recordResult' },
        ),
        NEW_GAME: { actions: { type: 'reject', params: 'pause the clock before starting a new game' } },
        RESTORE: { actions: { type: 'reject', params: 'pause the clock before restoring a game' } },
      },
    },
    paused: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'forfeitPending', target: 'awaitingArrival' }, { target: 'idle' }] },
        // FIDE Laws 6.7: pauses do not stop the default-time countdown.
        awaitingArrival: { after: { deadline: { target: '#clock.expiring' } } },
        idle: {},
      },
      on: {
        PRESS: inTime(
          // Laws 6.11: while paused a press changes no time, but a player is there.
          { target: '#clock.paused', reenter: true, actions: 'markPresent' },
        ),
        ARRIVE: inTime({ target: '#clock.paused', reenter: true, actions: 'markPresent' }),
        RESUME: inTime({ target: '#clock.running', actions: 'resume' }),
        ADJUST: inTime({ actions: 'adjust' }),
        PENALTY: inTime({ actions: 'penalty' }),
        SET_MOVES: inTime({ actions: 'setMoves' }),
        SET_TURN: inTime({ actions: 'setTurn' }),
        // A corrected default time may bring the forfeit deadline nearer, or lift it: reschedule.
        SET_CONTROL: inTime({ target: '#clock.paused', reenter: true, actions: 'setControl' }),
        TAKEBACK: inTime(
          { guard: 'hasMoveToAnnul', target: '#clock.paused', reenter: true, actions: 'takeBack' },
          { actions: { type: 'reject', params: 'no completed move to take back' } },
        ),
        INCREMENT: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          ...quickplay('setIncrement').slice(0, 2),
          { guard: 'deadlineDue', target: '#clock.expiring', actions: 'reraise' },
          { actions: 'setIncrement' },
        ],
        DELAY: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          ...quickplay('setDelay').slice(0, 2),
          { guard: 'deadlineDue', target: '#clock.expiring', actions: 'reraise' },
          { actions: 'setDelay' },
        ],
        RESULT: inTime({ target: '#clock.over', actions: 'recordResult' }),
        NEW_GAME: { target: 'ready', actions: 'newGame' },
      },
    },
    /** Transient: a deadline is due; fire it, then settle in the state it leads to. */
    expiring: {
      entry: 'fireDeadline',
      always: [
        { guard: 'isForfeited', target: 'forfeited' },
        { guard: 'isFlagged', target: 'flagged' },
        { guard: 'isPaused', target: 'paused' },
        { target: 'running' },
      ],
    },
    // FIDE equipment standard: at the flag both clocks stop and the display keeps the
    // mark of who fell first. Nothing is scheduled while the clock stands here.
    flagged: {
      on: {
        PRESS: { actions: 'markPresent' },
        ARRIVE: { actions: 'markPresent' },
        ADJUST: { actions: 'adjust' },
        PENALTY: { actions: 'penalty' },
        SET_MOVES: { actions: 'setMoves' },
        // Laws 6.10.2: a clock found set wrongly (often when a flag falls) is corrected; the flag stays.
        SET_CONTROL: { actions: 'setControl' },
        SET_TURN: { actions: { type: 'reject', params: 'the flag has fallen: resume or take the move back before setting the side on move' } },
        INCREMENT: quickplay('setIncrement'),
        DELAY: quickplay('setDelay'),
        TAKEBACK: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          // The annulled move's times come back; the clock stands paused (a default time
          // that passed meanwhile is applied there, at once).
          { guard: 'hasMoveToAnnul', target: 'paused', actions: 'takeBack' },
          { actions: { type: 'reject', params: 'no completed move to take back' } },
        ],
        RESUME: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          // Laws 6.10.2: after the arbiter's correction the game goes on.
          { guard: 'turnHasTime', target: 'resuming', actions: 'resume' },
          { actions: { type: 'reject', params: 'the side on move has no time: adjust first' } },
        ],
        // FIDE Laws 6.9: the arbiter or the players record the result; the clock never does on its own.
        RESULT: { target: 'over', actions: 'recordResult' },
        NEW_GAME: { target: 'ready', actions: 'newGame' },
      },
    },
    /** Transient: a default time that passed while the flag stood is applied at the resume. */
    resuming: {
      always: [{ guard: 'forfeitPending', target: 'expiring' }, { target: 'running' }],
    },
    // FIDE Laws 6.7.1: a forfeit ends the game, unless the arbiter decides otherwise.
    // Time changes do nothing to a forfeited game until it is reinstated.
    forfeited: {
      on: {
        REINSTATE: [
          { guard: 'timeWentBack', actions: { type: 'reject', params: 'time went backwards' } },
          { target: 'paused', actions: 'reinstate' },
        ],
        ADJUST: { actions: { type: 'reject', params: 'the game was lost by default: reinstate it first' } },
        PENALTY: { actions: { type: 'reject', params: 'the game was lost by default: reinstate it first' } },
        SET_TURN: { actions: { type: 'reject', params: 'the game was lost by default: reinstate it first' } },
        SET_CONTROL: { actions: { type: 'reject', params: 'the game was lost by default: reinstate it first' } },
        RESULT: { target: 'over', actions: 'recordResult' },
        NEW_GAME: { target: 'ready', actions: 'newGame' },
      },
    },
    // A game with a result is over at the clock: nothing resumes it. Only a new game, or
    // a result correction (from the host), changes it.
    over: {
      on: {
        RESULT: { actions: 'recordResult' },
        NEW_GAME: { target: 'ready', actions: 'newGame' },
        RESTORE: { target: 'boot', actions: 'restore' },
        '*': { actions: { type: 'reject', params: 'the game is over: it has a result' } },
      },
    },
  },
});

export type ClockMachine = typeof clockMachine;

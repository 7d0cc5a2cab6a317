// The menus at the clock: what the keys mean in each situation (docs/firmware.md "Keys").
//
// This machine decides nothing about time. It turns key edges into clock inputs
// (START, PRESS, PAUSE, RESUME, ADJUST, PENALTY, SET_MOVES, SET_TURN, SET_CONTROL, ARRIVE,
// TAKEBACK, REINSTATE, INCREMENT, DELAY, RESULT, NEW_GAME) for the clock statechart, which
// alone applies the rules and may still reject them (a REJECTED event then shows the clock's
// reason). What it shows before `ok` (a take-back's times, which commands the clock takes now)
// it reads from the rule book through the view the firmware hands it (clock-view.ts). It emits:
//   {type:'command', input}            a clock input, stamped with the key's `at`
//                                      (a result entered at the clock is the input RESULT)
//   {type:'sound', on}                 the piezo switched on or off
//
// Who may do what (FIDE equipment standard (k): data cannot be changed "with a simple
// manipulation"; Laws 6.10/7.5 give corrections to the arbiter):
//  - setup (time control, default time, sound): `mode` while the clock is ready, i.e.
//    before the game starts, or once the game has a result (the next game); players cannot
//    change times during a game;
//  - arbiter mode (times, move counters, side on move, a corrected control, illegal-move
//    penalty, take-back, arrivals, the quickplay increment and delay, reinstating a forfeit,
//    result override): hold `mode` + `ok` together for 2 s while the clock is ready, paused,
//    flagged or forfeited;
//  - result entry: `ok` while the clock is stopped (paused, flag, forfeit) and the game has
//    no result yet; both players confirm with their levers;
//  - presence: with a default time of 0, a start first asks who is at the board (FIDE Laws
//    6.7.1 forfeits an arrival after the default time: a forgotten key must not forfeit a
//    seated player).
import { and, assign, emit, enqueueActions, setup } from 'xstate';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import { other } from '../protocol/time-control.ts';
import type { ClockInput } from '../rules/clock.machine.ts';
import type { ClockReading } from '../rules/clock-state.ts';
import { CLOCK_RESULTS, PLAYED_RESULTS, type ClockResult } from '../rules/vocabulary.ts';
import { illegalMoveLosers } from '../rules/illegal-moves.ts';
import { arbiterChange, arbiterOk, arbiterItemIndex, arbiterRefusal, ARBITER_ITEMS, NO_PENDING, pendingInputs } from './menu-arbiter.ts';
import { isLever, type ButtonName, type KeyEvent, type MenuContext, type MenuEvent, type MenuInput, type MenuOutput } from './menu-context.ts';
import { PRESENCE_CHOICES } from '../rules/presence.ts';
import { presenceChoices, startInputs, startNeedsPresence } from './menu-presence.ts';
import { nextChoice, resultOptions, win } from './menu-result.ts';
import { changeSetup, controlItems, correctedTimeControl, cycle, setupFromControl, setupItems, setupTimeControl } from './menu-setup.ts';

/** Hold mode+ok this long (paused) to enter arbiter mode. */
export const ARBITER_HOLD_MS = 2000;

const stopped = (clock: ClockReading) => clock.status === 'paused' || clock.status === 'flagged' || clock.status === 'forfeited';
/** The key event an action runs for (REJECTED runs no key action). */
const keyEvent = (event: MenuEvent): KeyEvent => event as KeyEvent;

const noResult = { choice: null, choices: PLAYED_RESULTS, confirmed: { white: false, black: false } };
const ARBITER_STATUSES: ReadonlyArray<ClockReading['status']> = ['ready', 'paused', 'flagged', 'forfeited'];
const currentItem = (context: MenuContext) => ARBITER_ITEMS[context.itemIndex];
const correctionItem = (c: MenuContext['correction']) => {
  const items = controlItems(c.choice);
  return items[Math.min(c.itemIndex, items.length - 1)];
};

export const menuMachine = setup({
  types: {
    context: {} as MenuContext,
    events: {} as MenuEvent,
    input: {} as MenuInput,
    emitted: {} as MenuOutput,
  },
  delays: { arbiterHold: ARBITER_HOLD_MS },
  guards: {
    noMenuKeyHeld: ({ context }) => context.held.every(isLever),
    comboHeld: ({ context }) => context.held.includes('mode') && context.held.includes('ok'),
    // Arbiter mode while the clock stands: before the start (arrivals), paused, at a flag,
    // or after a forfeit (to reinstate the game, Laws 6.7.1).
    comboStatusAllows: ({ context }) => context.comboStatus !== null && ARBITER_STATUSES.includes(context.comboStatus),
    isLeverDown: ({ event }) => event.type === 'KEY_DOWN' && isLever(event.key),
    isKeyDown: ({ event }, key: ButtonName) => event.type === 'KEY_DOWN' && event.key === key,
    isKeyUp: ({ event }, key: ButtonName) => event.type === 'KEY_UP' && event.key === key,
    isPlusOrMinus: ({ event }) => event.type === 'KEY_DOWN' && (event.key === 'plus' || event.key === 'minus'),
    presenceFirst: ({ event }) => startNeedsPresence(event),
    // Setup before a game, or once the game is over (it has a result): for the next game.
    setupAllowed: ({ event }) =>
      event.type === 'KEY_UP' && event.key === 'mode' && (event.clock.status === 'ready' || (event.clock.result !== null && event.clock.status !== 'running')),
    // The players enter the result once; the arbiter corrects it (arbiter mode).
    resultAllowed: ({ event }) => event.type === 'KEY_UP' && event.key === 'ok' && stopped(event.clock) && event.clock.result === null,
    okWithChoice: ({ context, event }) => event.type === 'KEY_DOWN' && event.key === 'ok' && context.result.choice !== null,
    bothConfirmed: ({ context }) => context.result.confirmed.white && context.result.confirmed.black,
    // FIDE Laws 7.5.1 with 7.1: the choice of the times opens when the clock takes a take-back
    // now and there is a move to annul (else ok sends it and the clock says why not).
    takebackChoice: ({ context, event }) =>
      currentItem(context).kind === 'takeback' && arbiterRefusal('takeback', keyEvent(event)) === null && keyEvent(event).takeback !== null,
    // FIDE Laws 6.10.2: the control editor opens only when the clock takes a corrected control now.
    controlEditor: ({ context, event }) => currentItem(context).kind === 'control' && arbiterRefusal('set-control', keyEvent(event)) === null,
    correctionBuilds: ({ context, event }) => {
      try {
        correctedTimeControl(context.correction.choice, keyEvent(event).control);
        return true;
      } catch {
        return false;
      }
    },
    // FIDE Laws 7.5.5: the second illegal move of the same player loses (the arbiter decides).
    illegalMoveLoses: ({ event }) => event.type === 'ILLEGAL_MOVE' && illegalMoveLosers(event.illegal).includes(event.side),
  },
  actions: {
    rememberStatus: assign({ comboStatus: ({ event }) => ('clock' in event ? event.clock.status : null) }),
    showRejection: assign({ refusal: ({ event }) => (event.type === 'REJECTED' ? event.reason : null) }),
    trackHeld: assign({
      // A key press clears a refusal shown from the key before.
      refusal: ({ context, event }) => (event.type === 'KEY_DOWN' ? null : context.refusal),
      held: ({ context, event }) =>
        event.type === 'KEY_DOWN'
          ? [...context.held.filter((k) => k !== event.key), event.key]
          : event.type === 'KEY_UP'
            ? context.held.filter((k) => k !== event.key)
            : context.held,
    }),
    lever: emit(({ event }) => ({ type: 'command' as const, input: { type: 'PRESS' as const, side: keyEvent(event).key as Side, at: keyEvent(event).at } })),
    startPause: emit(({ event: ev }): MenuOutput => {
      const event = keyEvent(ev);
      const at = event.at;
      // START from ready, PAUSE while running, RESUME otherwise; the clock rejects what does not apply.
      const input: ClockInput =
        event.clock.status === 'ready' ? { type: 'START', at } : event.clock.status === 'running' ? { type: 'PAUSE', at } : { type: 'RESUME', at };
      return { type: 'command', input };
    }),
    // -- presence (default time 0) --
    askPresence: assign({ presence: ({ event }) => ({ choice: 'both' as const, choices: presenceChoices(keyEvent(event).clock) }) }),
    presenceChange: assign({
      presence: ({ context, event }) => ({
        ...context.presence,
        choice: cycle(context.presence.choices, context.presence.choice, keyEvent(event).key === 'plus' ? 1 : -1),
      }),
    }),
    /** The chosen sides arrive (FIDE Laws 6.7), then the clock starts: presence is what the inputs say. */
    startWithPresence: enqueueActions(({ context, event, enqueue }) => {
      const { at, clock } = keyEvent(event);
      for (const input of startInputs(context.presence.choice, clock, at)) enqueue.emit({ type: 'command', input });
    }),
    // -- setup --
    enterItems: assign({ itemIndex: 0, pending: NO_PENDING, notice: null }),
    /** Setup opens on the control the clock holds, so confirming it unchanged changes nothing. */
    loadSetup: assign({ setup: ({ context, event }) => setupFromControl(keyEvent(event).control, context.setup.sound) }),
    setupNext: assign({ itemIndex: ({ context }) => (context.itemIndex + 1) % setupItems(context.setup).length }),
    setupChange: assign({
      setup: ({ context, event }) => {
        const items = setupItems(context.setup);
        const item = items[Math.min(context.itemIndex, items.length - 1)];
        return changeSetup(context.setup, item, keyEvent(event).key === 'plus' ? 1 : -1);
      },
      itemIndex: ({ context }) => Math.min(context.itemIndex, setupItems(context.setup).length - 1),
    }),
    applySetup: enqueueActions(({ context, event, enqueue }) => {
      enqueue.emit({ type: 'command', input: { type: 'NEW_GAME', timeControl: setupTimeControl(context.setup), at: keyEvent(event).at } });
      enqueue.emit({ type: 'sound', on: context.setup.sound });
    }),
    // -- arbiter --
    /** Sends what the current item holds (a time delta, a move counter). */
    commitArbiter: enqueueActions(({ context, event, enqueue }) => {
      const { at, clock } = keyEvent(event);
      for (const input of pendingInputs(currentItem(context), context.pending, clock, at)) enqueue.emit({ type: 'command', input });
      enqueue.assign({ pending: NO_PENDING });
    }),
    /**
     * Arbiter mode opens on the first item, or on `reinstate` after a forfeit (what the
     * arbiter is called for then); the result item starts with no choice.
     */
    enterArbiter: assign(({ context }) => ({
      itemIndex: context.comboStatus === 'forfeited' ? arbiterItemIndex('reinstate') : 0,
      pending: NO_PENDING,
      notice: null,
      illegalLoser: null,
      result: noResult,
    })),
    arbiterNext: assign({ itemIndex: ({ context }) => (context.itemIndex + 1) % ARBITER_ITEMS.length, notice: null, illegalLoser: null }),
    arbiterChange: assign(({ context, event }) => arbiterChange(context, keyEvent(event))),
    arbiterOk: enqueueActions(({ context, event, enqueue }) => {
      const { patch, inputs } = arbiterOk(context, keyEvent(event));
      enqueue.assign(patch);
      for (const input of inputs) enqueue.emit({ type: 'command', input });
    }),
    /**
     * FIDE Laws 7.5.5: a side's second illegal move was recorded. The clock says it loses and
     * lands on the result item with the opponent's win chosen; nothing is sent until the arbiter's
     * `ok` (a position in which the opponent cannot checkmate is a draw: the arbiter decides).
     */
    askIllegalResult: assign(({ event }) => {
      const side = event.type === 'ILLEGAL_MOVE' ? event.side : 'white';
      return {
        itemIndex: arbiterItemIndex('result'),
        pending: NO_PENDING,
        notice: null,
        illegalLoser: side,
        result: { choice: win(other(side)), choices: CLOCK_RESULTS, confirmed: { white: false, black: false } },
      };
    }),
    // -- take-back: FIDE Laws 7.1, the arbiter's choice of the times --
    openTakeback: assign({ pending: { ...NO_PENDING, takeback: 'rewind' }, notice: null }),
    toggleTakeback: assign({
      pending: ({ context }) => ({ ...context.pending, takeback: context.pending.takeback === 'rewind' ? ('keep' as const) : ('rewind' as const) }),
    }),
    sendTakeback: enqueueActions(({ context, event, enqueue }) => {
      enqueue.assign({ notice: 'move annulled', pending: NO_PENDING });
      enqueue.emit({ type: 'command', input: { type: 'TAKEBACK', times: context.pending.takeback, at: keyEvent(event).at } });
    }),
    // -- corrected control: FIDE Laws 6.10.2 --
    openCorrection: assign({
      correction: ({ context, event }) => ({ choice: setupFromControl(keyEvent(event).control, context.setup.sound), itemIndex: 0 }),
      notice: null,
    }),
    correctionNext: assign({
      correction: ({ context }) => ({ ...context.correction, itemIndex: (context.correction.itemIndex + 1) % controlItems(context.correction.choice).length }),
    }),
    correctionChange: assign({
      correction: ({ context, event }) => {
        const choice = changeSetup(context.correction.choice, correctionItem(context.correction), keyEvent(event).key === 'plus' ? 1 : -1);
        return { choice, itemIndex: Math.min(context.correction.itemIndex, controlItems(choice).length - 1) };
      },
    }),
    correctionInvalid: assign({
      refusal: ({ context, event }) => {
        try {
          correctedTimeControl(context.correction.choice, keyEvent(event).control);
          return null;
        } catch (err) {
          return (err as Error).message;
        }
      },
    }),
    sendControl: enqueueActions(({ context, event, enqueue }) => {
      const { at, control } = keyEvent(event);
      enqueue.assign({ notice: 'control set' });
      enqueue.emit({ type: 'command', input: { type: 'SET_CONTROL', timeControl: correctedTimeControl(context.correction.choice, control), at } });
    }),
    // -- result entry --
    startResult: assign({ result: ({ event }) => ({ ...resultOptions(keyEvent(event).clock), confirmed: { white: false, black: false } }) }),
    resultChange: assign({
      result: ({ context, event }) => ({
        ...context.result,
        choice: nextChoice(context.result.choices, context.result.choice, keyEvent(event).key === 'plus' ? 1 : -1),
        confirmed: { white: false, black: false },
      }),
    }),
    confirmLever: assign({
      result: ({ context, event }) => ({ ...context.result, confirmed: { ...context.result.confirmed, [keyEvent(event).key as Side]: true } }),
    }),
    sendPlayersResult: emit(
      ({ context, event }): MenuOutput => ({
        type: 'command',
        input: { type: 'RESULT', result: context.result.choice as ClockResult, by: 'players', at: keyEvent(event).at },
      }),
    ),
  },
}).createMachine({
  id: 'menu',
  context: ({ input }) => ({
    held: [],
    comboStatus: null,
    itemIndex: 0,
    setup: {
      preset: 'classical',
      defaultTimeMinutes: null,
      custom: [
        { moves: 40, minutes: 90, incrementSeconds: 30 },
        { moves: 40, minutes: 15, incrementSeconds: 30 },
      ],
      sound: input.sound ?? true,
      incrementTiming: 'before-move',
    },
    pending: NO_PENDING,
    correction: {
      choice: {
        preset: 'classical',
        defaultTimeMinutes: null,
        custom: [{ moves: 40, minutes: 90, incrementSeconds: 30 }],
        sound: input.sound ?? true,
        incrementTiming: 'before-move',
      },
      itemIndex: 0,
    },
    notice: null,
    refusal: null,
    illegalLoser: null,
    result: noResult,
    presence: { choice: 'both', choices: PRESENCE_CHOICES },
    restored: input.restored ?? null,
  }),
  initial: 'boot',
  on: {
    KEY_DOWN: { actions: 'trackHeld' },
    KEY_UP: { actions: 'trackHeld' },
  },
  states: {
    boot: { always: [{ guard: ({ context }) => context.restored !== null, target: 'restore' }, { target: 'game' }] },
    // After a power cut the clock stands paused where the last snapshot left it; the
    // arbiter checks the display and keeps it (ok, then start/pause resumes) or discards
    // it for a fresh game with the same control (mode).
    restore: {
      on: {
        HOST_RESTORED: { target: 'game' },
        KEY_DOWN: [
          { guard: { type: 'isKeyDown', params: 'ok' }, actions: 'trackHeld', target: 'game' },
          {
            guard: { type: 'isKeyDown', params: 'mode' },
            actions: [
              'trackHeld',
              emit(({ context, event }) => ({
                type: 'command' as const,
                input: { type: 'NEW_GAME' as const, timeControl: context.restored as TimeControl, at: event.at },
              })),
            ],
            target: 'game',
          },
          { actions: 'trackHeld' },
        ],
      },
    },
    // Playing: levers press the clock, start/pause starts, pauses and resumes.
    game: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            KEY_DOWN: [
              { guard: 'presenceFirst', actions: ['trackHeld', 'askPresence'], target: '#menu.presence' },
              { guard: 'isLeverDown', actions: ['trackHeld', 'lever'] },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: ['trackHeld', 'startPause'] },
              { actions: 'trackHeld', target: 'maybeCombo' },
            ],
            // A release whose press belonged to another menu (or to a combination) does nothing.
            KEY_UP: { actions: 'trackHeld' },
          },
        },
        /** A menu key went down here: on its release it acts alone, unless mode+ok close first. */
        maybeCombo: {
          always: [{ guard: 'comboHeld', actions: 'rememberStatus', target: 'combo' }],
          on: {
            KEY_DOWN: [
              { guard: 'presenceFirst', actions: ['trackHeld', 'askPresence'], target: '#menu.presence' },
              { guard: 'isLeverDown', actions: ['trackHeld', 'lever'] },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: ['trackHeld', 'startPause'] },
              { actions: 'trackHeld', target: 'maybeCombo', reenter: true },
            ],
            KEY_UP: [
              { guard: 'setupAllowed', actions: ['trackHeld', 'enterItems', 'loadSetup'], target: '#menu.setup' },
              { guard: 'resultAllowed', actions: ['trackHeld', 'startResult'], target: '#menu.result' },
              { actions: 'trackHeld', target: 'idle' },
            ],
          },
        },
        /** After a combination, wait until every menu key is up before keys act alone again. */
        releasing: {
          always: [{ guard: 'noMenuKeyHeld', target: 'idle' }],
          on: {
            KEY_DOWN: [
              { guard: and(['isLeverDown', 'presenceFirst']), actions: ['trackHeld', 'askPresence'], target: '#menu.presence' },
              { guard: 'isLeverDown', actions: ['trackHeld', 'lever'] },
              { actions: 'trackHeld' },
            ],
            KEY_UP: { actions: 'trackHeld', target: 'releasing', reenter: true },
          },
        },
        combo: {
          // The clock cannot start running while both keys are held, so the status seen
          // when the combination closed still holds when the 2 s are up.
          after: {
            arbiterHold: [{ guard: 'comboStatusAllows', actions: 'enterArbiter', target: '#menu.arbiter' }, { target: 'releasing' }],
          },
          on: {
            KEY_DOWN: { actions: 'trackHeld' },
            // Letting go before 2 s does nothing (and opens neither result entry nor setup).
            KEY_UP: { actions: 'trackHeld', target: 'releasing' },
          },
        },
      },
    },
    // FIDE Laws 6.7.1 with a default time of 0: who is at the board? (+/- choose, ok starts,
    // start/pause cancels: the clock stays ready.)
    presence: {
      on: {
        KEY_DOWN: [
          { guard: 'isPlusOrMinus', actions: ['trackHeld', 'presenceChange'] },
          { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'startWithPresence'], target: 'game' },
          { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'game' },
          { actions: 'trackHeld' },
        ],
      },
    },
    // Before the game: choose the control (only while the clock is ready).
    setup: {
      on: {
        KEY_DOWN: [
          { guard: { type: 'isKeyDown', params: 'mode' }, actions: ['trackHeld', 'setupNext'] },
          { guard: 'isPlusOrMinus', actions: ['trackHeld', 'setupChange'] },
          { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'applySetup'], target: 'game' },
          { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'game' },
          { actions: 'trackHeld' },
        ],
      },
    },
    // The arbiter's corrections (FIDE equipment standard (j): within 60 seconds).
    arbiter: {
      initial: 'items',
      on: {
        // What the clock refused, and why (e.g. "no completed move to take back").
        REJECTED: { actions: 'showRejection' },
        ILLEGAL_MOVE: { guard: 'illegalMoveLoses', actions: 'askIllegalResult', target: '.items' },
      },
      states: {
        items: {
          on: {
            KEY_DOWN: [
              { guard: { type: 'isKeyDown', params: 'mode' }, actions: ['trackHeld', 'commitArbiter', 'arbiterNext'] },
              { guard: 'isPlusOrMinus', actions: ['trackHeld', 'arbiterChange'] },
              { guard: and([{ type: 'isKeyDown', params: 'ok' as const }, 'takebackChoice']), actions: ['trackHeld', 'openTakeback'], target: 'takeback' },
              { guard: and([{ type: 'isKeyDown', params: 'ok' as const }, 'controlEditor']), actions: ['trackHeld', 'openCorrection'], target: 'control' },
              { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'arbiterOk'] },
              // start/pause leaves arbiter mode (the clock stays stopped; press it again to resume).
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: ['trackHeld', 'commitArbiter'], target: '#menu.game' },
              { actions: 'trackHeld' },
            ],
          },
        },
        // FIDE Laws 7.5.1 with 7.1: rewind the times or keep them; the LCD shows both clocks
        // after each (+/- choose, ok annuls the move, mode or start/pause goes back to the item).
        takeback: {
          on: {
            KEY_DOWN: [
              { guard: 'isPlusOrMinus', actions: ['trackHeld', 'toggleTakeback'] },
              { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'sendTakeback'], target: 'items' },
              { guard: { type: 'isKeyDown', params: 'mode' }, actions: 'trackHeld', target: 'items' },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'items' },
              { actions: 'trackHeld' },
            ],
          },
        },
        // FIDE Laws 6.10.2: the corrected control, chosen with the setup's control items (mode
        // next item, +/- change, ok to the confirmation, start/pause back to the item).
        control: {
          on: {
            KEY_DOWN: [
              { guard: { type: 'isKeyDown', params: 'mode' }, actions: ['trackHeld', 'correctionNext'] },
              { guard: 'isPlusOrMinus', actions: ['trackHeld', 'correctionChange'] },
              { guard: and([{ type: 'isKeyDown', params: 'ok' as const }, 'correctionBuilds']), actions: 'trackHeld', target: 'controlConfirm' },
              { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'correctionInvalid'] },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'items' },
              { actions: 'trackHeld' },
            ],
          },
        },
        // The times stay as they are: the arbiter adjusts them next (ok sends SET_CONTROL; any
        // other menu key goes back to the editor, start/pause to the item).
        controlConfirm: {
          on: {
            KEY_DOWN: [
              { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'sendControl'], target: 'items' },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'items' },
              { guard: 'isLeverDown', actions: 'trackHeld' },
              { actions: 'trackHeld', target: 'control' },
            ],
          },
        },
      },
    },
    // After the game: the result, confirmed by both players with their levers.
    result: {
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            KEY_DOWN: [
              { guard: 'isPlusOrMinus', actions: ['trackHeld', 'resultChange'] },
              // Nothing chosen yet: ok does nothing (the clock never records a result on its own).
              { guard: 'okWithChoice', actions: 'trackHeld', target: 'confirming' },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: '#menu.game' },
              { actions: 'trackHeld' },
            ],
          },
        },
        confirming: {
          always: [{ guard: 'bothConfirmed', actions: 'sendPlayersResult', target: '#menu.game' }],
          on: {
            KEY_DOWN: [
              { guard: 'isLeverDown', actions: ['trackHeld', 'confirmLever'] },
              // Changing the choice drops both confirmations.
              { guard: 'isPlusOrMinus', actions: ['trackHeld', 'resultChange'], target: 'choosing' },
              { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: '#menu.game' },
              { actions: 'trackHeld' },
            ],
          },
        },
      },
    },
  },
});

export type MenuMachine = typeof menuMachine;

// The menus at the clock: what the keys mean in each situation (docs/firmware.md "Keys").
//
// This machine decides nothing about time. It turns key edges into clock inputs
// (START, PRESS, PAUSE, RESUME, ADJUST, PENALTY, SET_MOVES, ARRIVE, TAKEBACK, REINSTATE,
// INCREMENT, RESULT, NEW_GAME) for the clock statechart, which alone applies the rules and
// may still reject them (a REJECTED event then shows the clock's reason). It emits:
//   {type:'command', input}            a clock input, stamped with the key's `at`
//                                      (a result entered at the clock is the input RESULT)
//   {type:'sound', on}                 the piezo switched on or off
//
// Who may do what (FIDE equipment standard (k): data cannot be changed "with a simple
// manipulation"; Laws 6.10/7.5 give corrections to the arbiter):
//  - setup (time control, default time, sound): `mode` while the clock is ready, i.e.
//    before the game starts, or once the game has a result (the next game); players cannot
//    change times during a game;
//  - arbiter mode (times, move counters, illegal-move penalty, take-back, arrivals, the
//    quickplay increment, reinstating a forfeit, result override): hold `mode` + `ok`
//    together for 2 s while the clock is ready, paused, flagged or forfeited;
//  - result entry: `ok` while the clock is stopped (paused, flag, forfeit) and the game has
//    no result yet; both players confirm with their levers.
import { assign, emit, enqueueActions, setup } from 'xstate';
import {
  other,
  parseJsonTimeControl,
  presetTimeControl,
  timeControl,
  type PresetName,
  type Side,
  type StageJson,
  type TimeControl,
} from '../protocol/time-control.ts';
import type { ClockInput } from '../rules/clock.machine.ts';
import type { ClockReading, GameResult } from '../rules/clock-core.ts';
import { PLAYED_RESULTS } from '../rules/vocabulary.ts';
import type { MenuKey } from './hardware-map.ts';

export type { GameResult } from '../rules/clock-core.ts';
/** The results the players enter and confirm with their levers: the played ones (the double forfeit is the arbiter's). */
export const RESULTS = PLAYED_RESULTS;

/** Every key of the clock: the two levers and the five menu keys. */
export type ButtonName = Side | MenuKey;

/** Hold mode+ok this long (paused) to enter arbiter mode. */
export const ARBITER_HOLD_MS = 2000;

/** Every key edge carries the clock's reading and control at that instant (the menu keeps no copy). */
export type MenuEvent =
  | { type: 'KEY_DOWN'; key: ButtonName; at: number; clock: ClockReading; control: TimeControl }
  | { type: 'KEY_UP'; key: ButtonName; at: number; clock: ClockReading; control: TimeControl }
  /** The clock statechart refused a command the menu sent: its reason becomes the notice. */
  | { type: 'REJECTED'; reason: string }
  /**
   * The host loaded the journal's game (docs/protocol.md "Restore"): a power-cut game waiting
   * for the arbiter's keep-or-discard is answered, the journal's state is the one kept.
   */
  | { type: 'HOST_RESTORED' };

export type MenuOutput = { type: 'command'; input: ClockInput } | { type: 'sound'; on: boolean };

export const SETUP_PRESETS: ReadonlyArray<PresetName | 'custom'> = ['classical', 'rapid', 'armageddon', 'sudden-death-60', 'custom'];
/** Default time choices in minutes (FIDE Laws 6.7.1); null = none. 0 = present at the start. */
export const DEFAULT_TIME_CHOICES: ReadonlyArray<number | null> = [null, 0, 5, 10, 15, 30, 60];

export interface CustomStage {
  /** Moves in this stage; ignored for the last stage (sudden death). */
  moves: number;
  minutes: number;
  incrementSeconds: number;
}

export interface SetupChoice {
  preset: PresetName | 'custom';
  defaultTimeMinutes: number | null;
  custom: CustomStage[];
  sound: boolean;
}

export type SetupItem =
  | { kind: 'preset' }
  | { kind: 'stages' }
  | { kind: 'stage'; index: number; field: 'moves' | 'minutes' | 'incrementSeconds' }
  | { kind: 'defaultTime' }
  | { kind: 'sound' };

export type ArbiterItem =
  | { kind: 'time'; side: Side }
  | { kind: 'moves'; side: Side }
  | { kind: 'penalty'; side: Side }
  | { kind: 'takeback' }
  | { kind: 'arrive'; side: Side }
  | { kind: 'increment' }
  | { kind: 'reinstate' }
  | { kind: 'result' };

export const ARBITER_ITEMS: readonly ArbiterItem[] = [
  { kind: 'time', side: 'white' },
  { kind: 'time', side: 'black' },
  { kind: 'moves', side: 'white' },
  { kind: 'moves', side: 'black' },
  { kind: 'penalty', side: 'white' },
  { kind: 'penalty', side: 'black' },
  { kind: 'takeback' },
  { kind: 'arrive', side: 'white' },
  { kind: 'arrive', side: 'black' },
  { kind: 'increment' },
  { kind: 'reinstate' },
  { kind: 'result' },
];

/** The index of the first arbiter item of `kind` (and `side`). */
export function arbiterItemIndex(kind: ArbiterItem['kind'], side?: Side): number {
  return ARBITER_ITEMS.findIndex((i) => i.kind === kind && (side === undefined || !('side' in i) || i.side === side));
}

/** Steps the arbiter cycles through with `ok` on a time item. */
export const ADJUST_STEPS_MS = [60_000, 10_000, 1_000] as const;
/** FIDE Guidelines III.4: the quickplay increment offered first, changed in 1 s steps. */
export const QUICKPLAY_INCREMENT_DEFAULT_MS = 5_000;
export const QUICKPLAY_INCREMENT_STEP_MS = 1_000;
export const QUICKPLAY_INCREMENT_MAX_MS = 60_000;

export interface MenuContext {
  /** Keys held down right now (for the mode+ok combination). */
  held: ButtonName[];
  /** The clock's status when mode+ok closed. */
  comboStatus: ClockReading['status'] | null;
  itemIndex: number;
  setup: SetupChoice;
  /** Arbiter edits not yet sent: a time delta, a new move counter, a quickplay increment. */
  pending: { ms: number; stepIndex: number; moves: number | null; incrementMs: number | null };
  /** Last thing the arbiter applied, shown on the second row until the next key. */
  notice: string | null;
  /** Why the clock refused the last command (its 'rejected' reason), shown until the next key. */
  refusal: string | null;
  /**
   * The result being entered: `choice` null until someone chooses (the clock never records
   * a result on its own, FIDE Laws 6.9); `choices` what may be chosen.
   */
  result: { choice: GameResult | null; choices: readonly GameResult[]; confirmed: Record<Side, boolean> };
  restored: TimeControl | null;
}

export interface MenuInput {
  sound?: boolean;
  /** The clock came back from a power cut with this game's control: ask the arbiter first. */
  restored?: TimeControl | null;
}

const MAX_STAGES = 3;

/** The setup items, which depend on the preset (a custom control shows its stage editor). */
export function setupItems(choice: SetupChoice): SetupItem[] {
  const items: SetupItem[] = [{ kind: 'preset' }];
  if (choice.preset === 'custom') {
    items.push({ kind: 'stages' });
    choice.custom.forEach((_, index) => {
      const last = index === choice.custom.length - 1;
      if (!last) items.push({ kind: 'stage', index, field: 'moves' });
      items.push({ kind: 'stage', index, field: 'minutes' }, { kind: 'stage', index, field: 'incrementSeconds' });
    });
  }
  items.push({ kind: 'defaultTime' }, { kind: 'sound' });
  return items;
}

/** The control the setup describes; the shared vocabulary builds and checks it. */
export function setupTimeControl(choice: SetupChoice): TimeControl {
  const defaultTime = choice.defaultTimeMinutes === null ? null : choice.defaultTimeMinutes * 60;
  if (choice.preset !== 'custom') return presetTimeControl(choice.preset, { defaultTime });
  const stages: StageJson[] = choice.custom.map((s, i) => {
    const last = i === choice.custom.length - 1;
    return { ...(last ? {} : { moves: s.moves }), seconds: s.minutes * 60, increment: s.incrementSeconds };
  });
  const side = parseJsonTimeControl(stages);
  return timeControl(side, side, { defaultTime });
}

/** The setup that describes `control`: its preset if it is one, else a custom control from White's stages. */
export function setupFromControl(control: TimeControl, sound: boolean): SetupChoice {
  const defaultTimeMinutes = control.defaultTimeMs === null ? null : Math.round(control.defaultTimeMs / 60_000);
  const dt = DEFAULT_TIME_CHOICES.includes(defaultTimeMinutes) ? defaultTimeMinutes : null;
  const custom = control.white.stages.slice(0, MAX_STAGES).map((s) => ({
    moves: s.moves ?? 40,
    minutes: Math.max(1, Math.round(s.baseMs / 60_000)),
    incrementSeconds: Math.round(s.incrementMs / 1000),
  }));
  const base: SetupChoice = { preset: 'custom', defaultTimeMinutes: dt, custom, sound };
  for (const preset of SETUP_PRESETS) {
    if (preset === 'custom') continue;
    const candidate = { ...base, preset };
    if (JSON.stringify(setupTimeControl(candidate)) === JSON.stringify(control)) return candidate;
  }
  return base;
}

const cycle = <T>(list: readonly T[], current: T, delta: number): T => {
  const i = list.indexOf(current);
  return list[(((i + delta) % list.length) + list.length) % list.length];
};
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function changeSetup(choice: SetupChoice, item: SetupItem, delta: number): SetupChoice {
  switch (item.kind) {
    case 'preset':
      return { ...choice, preset: cycle(SETUP_PRESETS, choice.preset, delta) };
    case 'stages': {
      const count = clamp(choice.custom.length + delta, 1, MAX_STAGES);
      const custom = choice.custom.slice(0, count);
      while (custom.length < count) custom.push({ moves: 40, minutes: 30, incrementSeconds: 30 });
      return { ...choice, custom };
    }
    case 'stage': {
      const custom = choice.custom.map((s) => ({ ...s }));
      const stage = custom[item.index];
      if (item.field === 'moves') stage.moves = clamp(stage.moves + delta, 1, 200);
      if (item.field === 'minutes') stage.minutes = clamp(stage.minutes + delta, item.index === 0 ? 1 : 0, 600);
      if (item.field === 'incrementSeconds') stage.incrementSeconds = clamp(stage.incrementSeconds + delta, 0, 600);
      return { ...choice, custom };
    }
    case 'defaultTime':
      return { ...choice, defaultTimeMinutes: cycle(DEFAULT_TIME_CHOICES, choice.defaultTimeMinutes, delta) };
    case 'sound':
      return { ...choice, sound: !choice.sound };
  }
}

const isLever = (key: ButtonName): key is Side => key === 'white' || key === 'black';
const stopped = (clock: ClockReading) => clock.status === 'paused' || clock.status === 'flagged' || clock.status === 'forfeited';

const win = (side: Side): GameResult => (side === 'white' ? '1-0' : '0-1');

/**
 * What the players may enter once the clock has stopped, and what is preselected.
 * FIDE Laws 6.9: after a flag the game is lost by the side whose flag fell, or drawn if the
 * opponent cannot checkmate: only those two, and neither is preselected (the clock never
 * decides the result). Laws 6.7.1: after a forfeit the present side's win is preselected.
 */
export function resultOptions(clock: ClockReading): { choice: GameResult | null; choices: readonly GameResult[] } {
  if (clock.status === 'flagged' && clock.flag !== null) {
    const choices = RESULTS.filter((r) => r === '1/2-1/2' || r === win(other(clock.flag!)));
    return { choice: null, choices };
  }
  if (clock.status === 'forfeited') {
    const { white, black } = clock.forfeited;
    return { choice: white && !black ? win('black') : black && !white ? win('white') : null, choices: RESULTS };
  }
  return { choice: null, choices: RESULTS };
}

/** The next choice with plus (+1) or minus (−1); from no choice, the first or the last. */
function nextChoice(choices: readonly GameResult[], current: GameResult | null, delta: number): GameResult {
  if (current === null || !choices.includes(current)) return delta > 0 ? choices[0] : choices[choices.length - 1];
  return cycle(choices, current, delta);
}

/** The quickplay increment the arbiter item shows: the pending edit, the one in force, or 5 s. */
export function shownIncrementMs(pending: MenuContext['pending'], clock: ClockReading): number {
  return pending.incrementMs ?? (clock.extraIncrementMs > 0 ? clock.extraIncrementMs : QUICKPLAY_INCREMENT_DEFAULT_MS);
}

type KeyEvent = Extract<MenuEvent, { type: 'KEY_DOWN' | 'KEY_UP' }>;
/** The key event an action runs for (REJECTED runs no key action). */
const keyEvent = (event: MenuEvent): KeyEvent => event as KeyEvent;

/** The clock inputs for the arbiter's pending edit of the current item. */
function pendingInputs(context: MenuContext, event: KeyEvent): ClockInput[] {
  const item = ARBITER_ITEMS[context.itemIndex];
  const { at, clock } = event;
  const p = context.pending;
  if (item.kind === 'time' && p.ms !== 0) return [{ type: 'ADJUST', side: item.side, ms: p.ms, at }];
  if (item.kind === 'moves' && p.moves !== null && p.moves !== clock.moves[item.side]) {
    return [{ type: 'SET_MOVES', side: item.side, moves: p.moves, at }];
  }
  return [];
}

const noPending = { ms: 0, stepIndex: 0, moves: null, incrementMs: null };
const noResult = { choice: null, choices: RESULTS, confirmed: { white: false, black: false } };
const ARBITER_STATUSES: ReadonlyArray<ClockReading['status']> = ['ready', 'paused', 'flagged', 'forfeited'];

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
    // Setup before a game, or once the game is over (it has a result): for the next game.
    setupAllowed: ({ event }) =>
      event.type === 'KEY_UP' && event.key === 'mode' && (event.clock.status === 'ready' || (event.clock.result !== null && event.clock.status !== 'running')),
    // The players enter the result once; the arbiter corrects it (arbiter mode).
    resultAllowed: ({ event }) => event.type === 'KEY_UP' && event.key === 'ok' && stopped(event.clock) && event.clock.result === null,
    okWithChoice: ({ context, event }) => event.type === 'KEY_DOWN' && event.key === 'ok' && context.result.choice !== null,
    bothConfirmed: ({ context }) => context.result.confirmed.white && context.result.confirmed.black,
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
    command: emit((_, input: ClockInput) => ({ type: 'command' as const, input })),
    lever: emit(({ event }) => ({ type: 'command' as const, input: { type: 'PRESS' as const, side: keyEvent(event).key as Side, at: keyEvent(event).at } })),
    startPause: emit(({ event: ev }): MenuOutput => {
      const event = keyEvent(ev);
      const at = event.at;
      // START from ready, PAUSE while running, RESUME otherwise; the clock rejects what does not apply.
      const input: ClockInput =
        event.clock.status === 'ready' ? { type: 'START', at } : event.clock.status === 'running' ? { type: 'PAUSE', at } : { type: 'RESUME', at };
      return { type: 'command', input };
    }),
    // -- setup --
    enterItems: assign({ itemIndex: 0, pending: noPending, notice: null }),
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
      for (const input of pendingInputs(context, keyEvent(event))) enqueue.emit({ type: 'command', input });
      enqueue.assign({ pending: noPending });
    }),
    /**
     * Arbiter mode opens on the first item, or on `reinstate` after a forfeit (what the
     * arbiter is called for then); the result item starts with no choice.
     */
    enterArbiter: assign(({ context }) => ({
      itemIndex: context.comboStatus === 'forfeited' ? arbiterItemIndex('reinstate') : 0,
      pending: noPending,
      notice: null,
      result: noResult,
    })),
    arbiterNext: assign({ itemIndex: ({ context }) => (context.itemIndex + 1) % ARBITER_ITEMS.length, notice: null }),
    arbiterChange: assign(({ context, event: ev }) => {
      const event = keyEvent(ev);
      const item = ARBITER_ITEMS[context.itemIndex];
      const sign = event.key === 'plus' ? 1 : -1;
      const p = context.pending;
      switch (item.kind) {
        case 'time':
          return { pending: { ...p, ms: p.ms + sign * ADJUST_STEPS_MS[p.stepIndex] }, notice: null };
        case 'moves':
          return { pending: { ...p, moves: Math.max(0, (p.moves ?? event.clock.moves[item.side]) + sign) }, notice: null };
        case 'increment': {
          const ms = clamp(shownIncrementMs(p, event.clock) + sign * QUICKPLAY_INCREMENT_STEP_MS, 0, QUICKPLAY_INCREMENT_MAX_MS);
          return { pending: { ...p, incrementMs: ms }, notice: null };
        }
        case 'result':
          // The arbiter may record any result (Laws 6.9 "unless...", 6.7.1 "unless the arbiter decides otherwise").
          return { result: { ...context.result, choice: nextChoice(RESULTS, context.result.choice, sign) }, notice: null };
        default:
          return { notice: null };
      }
    }),
    arbiterOk: enqueueActions(({ context, event: ev, enqueue }) => {
      const event = keyEvent(ev);
      const { at } = event;
      const item = ARBITER_ITEMS[context.itemIndex];
      const command = (input: ClockInput, notice: string) => {
        // The notice says what was sent; a refusal from the clock (REJECTED) replaces it.
        enqueue.assign({ notice });
        enqueue.emit({ type: 'command', input });
      };
      switch (item.kind) {
        case 'time':
          enqueue.assign({ pending: { ...context.pending, stepIndex: (context.pending.stepIndex + 1) % ADJUST_STEPS_MS.length } });
          return;
        case 'penalty':
          // FIDE Laws 7.5.5 / A.3.1 / B.3: the clock machine gives the opponent the category's penalty.
          return command({ type: 'PENALTY', side: item.side, at }, 'penalty applied');
        case 'takeback':
          // FIDE Laws 7.5.1: the illegal move is annulled; the clock stands paused.
          return command({ type: 'TAKEBACK', at }, 'move annulled');
        case 'arrive':
          // FIDE Laws 6.7: the player is at the board (the default time no longer runs for them).
          return command({ type: 'ARRIVE', side: item.side, at }, `${item.side === 'white' ? 'White' : 'Black'} present`);
        case 'increment': {
          // FIDE Guidelines III.4: an increment for both players from the next move (0 removes it).
          const ms = shownIncrementMs(context.pending, event.clock);
          enqueue.assign({ pending: noPending });
          return command({ type: 'INCREMENT', ms, at }, ms === 0 ? 'incr. removed' : `incr. +${ms / 1000}s set`);
        }
        case 'reinstate':
          // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the forfeit is overruled.
          return command({ type: 'REINSTATE', at }, 'reinstated');
        case 'result':
          // Nothing chosen: nothing is recorded.
          if (context.result.choice === null) return void enqueue.assign({ notice: 'choose with +/-' });
          return command({ type: 'RESULT', result: context.result.choice, by: 'arbiter', at }, 'result sent');
        case 'moves':
          for (const input of pendingInputs(context, event)) enqueue.emit({ type: 'command', input });
          enqueue.assign({ pending: noPending, notice: 'set' });
          return;
      }
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
    sendPlayersResult: emit(({ context, event }): MenuOutput => ({
      type: 'command',
      input: { type: 'RESULT', result: context.result.choice as GameResult, by: 'players', at: keyEvent(event).at },
    })),
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
    },
    pending: noPending,
    notice: null,
    refusal: null,
    result: noResult,
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
    // Before the game: choose the control (only while the clock is ready).
    setup: {
      on: {
        KEY_DOWN: [
          { guard: { type: 'isKeyDown', params: 'mode' }, actions: ['trackHeld', 'setupNext'] },
          { guard: { type: 'isKeyDown', params: 'plus' }, actions: ['trackHeld', 'setupChange'] },
          { guard: { type: 'isKeyDown', params: 'minus' }, actions: ['trackHeld', 'setupChange'] },
          { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'applySetup'], target: 'game' },
          { guard: { type: 'isKeyDown', params: 'startPause' }, actions: 'trackHeld', target: 'game' },
          { actions: 'trackHeld' },
        ],
      },
    },
    // The arbiter's corrections (FIDE equipment standard (j): within 60 seconds).
    arbiter: {
      on: {
        KEY_DOWN: [
          { guard: { type: 'isKeyDown', params: 'mode' }, actions: ['trackHeld', 'commitArbiter', 'arbiterNext'] },
          { guard: { type: 'isKeyDown', params: 'plus' }, actions: ['trackHeld', 'arbiterChange'] },
          { guard: { type: 'isKeyDown', params: 'minus' }, actions: ['trackHeld', 'arbiterChange'] },
          { guard: { type: 'isKeyDown', params: 'ok' }, actions: ['trackHeld', 'arbiterOk'] },
          // start/pause leaves arbiter mode (the clock stays stopped; press it again to resume).
          { guard: { type: 'isKeyDown', params: 'startPause' }, actions: ['trackHeld', 'commitArbiter'], target: 'game' },
          { actions: 'trackHeld' },
        ],
        // What the clock refused, and why (e.g. "no completed move to take back").
        REJECTED: { actions: 'showRejection' },
      },
    },
    // After the game: the result, confirmed by both players with their levers.
    result: {
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            KEY_DOWN: [
              { guard: { type: 'isKeyDown', params: 'plus' }, actions: ['trackHeld', 'resultChange'] },
              { guard: { type: 'isKeyDown', params: 'minus' }, actions: ['trackHeld', 'resultChange'] },
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
              { guard: { type: 'isKeyDown', params: 'plus' }, actions: ['trackHeld', 'resultChange'], target: 'choosing' },
              { guard: { type: 'isKeyDown', params: 'minus' }, actions: ['trackHeld', 'resultChange'], target: 'choosing' },
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

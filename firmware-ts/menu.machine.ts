// The menus at the clock: what the keys mean in each situation (docs/firmware.md "Keys").
//
// This machine decides nothing about time. It turns key edges into clock inputs
// (START, PRESS, PAUSE, RESUME, ADJUST, PENALTY, SET_MOVES, NEW_GAME) for the clock
// statechart, which alone applies the rules and may still reject them. It emits:
//   {type:'command', input}            a clock input, stamped with the key's `at`
//   {type:'result', result, by, at}    a result entered at the clock (for the host)
//   {type:'sound', on}                 the piezo switched on or off
//
// Who may do what (FIDE equipment standard (k): data cannot be changed "with a simple
// manipulation"; Laws 6.10/7.5 give corrections to the arbiter):
//  - setup (time control, default time, sound): `mode` while the clock is ready, i.e.
//    before the game starts; players cannot change times during a game;
//  - arbiter mode (times, move counters, periods, illegal-move penalty, result override):
//    hold `mode` + `ok` together for 2 s while the clock is paused or a flag has fallen;
//  - result entry: `ok` while the clock is stopped (paused, flag, forfeit); both players
//    confirm with their levers.
import { assign, emit, enqueueActions, setup } from 'xstate';
import {
  parseJsonTimeControl,
  presetTimeControl,
  timeControl,
  type PresetName,
  type Side,
  type StageJson,
  type TimeControl,
} from '../protocol/time-control.ts';
import type { ClockInput } from './clock.machine.ts';
import type { ClockReading } from './clock-core.ts';
import type { MenuKey } from './hardware-map.ts';

/** Every key of the clock: the two levers and the five menu keys. */
export type ButtonName = Side | MenuKey;

export type GameResult = '1-0' | '1/2-1/2' | '0-1';
export const RESULTS: readonly GameResult[] = ['1-0', '1/2-1/2', '0-1'];

/** Hold mode+ok this long (paused) to enter arbiter mode. */
export const ARBITER_HOLD_MS = 2000;

/** Every key edge carries the clock's reading and control at that instant (the menu keeps no copy). */
export type MenuEvent =
  | { type: 'KEY_DOWN'; key: ButtonName; at: number; clock: ClockReading; control: TimeControl }
  | { type: 'KEY_UP'; key: ButtonName; at: number; clock: ClockReading; control: TimeControl };

export type MenuOutput =
  | { type: 'command'; input: ClockInput }
  | { type: 'result'; result: GameResult; by: 'players' | 'arbiter'; at: number }
  | { type: 'sound'; on: boolean };

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
  | { kind: 'period'; side: Side }
  | { kind: 'penalty'; side: Side }
  | { kind: 'result' };

export const ARBITER_ITEMS: readonly ArbiterItem[] = [
  { kind: 'time', side: 'white' },
  { kind: 'time', side: 'black' },
  { kind: 'moves', side: 'white' },
  { kind: 'moves', side: 'black' },
  { kind: 'period', side: 'white' },
  { kind: 'period', side: 'black' },
  { kind: 'penalty', side: 'white' },
  { kind: 'penalty', side: 'black' },
  { kind: 'result' },
];

/** Steps the arbiter cycles through with `ok` on a time item. */
export const ADJUST_STEPS_MS = [60_000, 10_000, 1_000] as const;

export interface MenuContext {
  /** Keys held down right now (for the mode+ok combination). */
  held: ButtonName[];
  /** The clock's status when mode+ok closed. */
  comboStatus: ClockReading['status'] | null;
  itemIndex: number;
  setup: SetupChoice;
  /** Arbiter edits not yet sent: a time delta, or a new move counter / period. */
  pending: { ms: number; stepIndex: number; moves: number | null; period: number | null };
  /** Last thing the arbiter applied, shown on the second row until the next key. */
  notice: string | null;
  result: { choice: GameResult; confirmed: Record<Side, boolean> };
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

/** Suggested result once the clock has stopped: a flag or a forfeit points at the winner. */
function suggestedResult(clock: ClockReading): GameResult {
  // FIDE Laws 6.9 / 6.7.1: the side whose flag fell (or who forfeited) loses, unless the
  // arbiter rules otherwise (e.g. no mating material): the players can still change it.
  const loser = clock.flag ?? (clock.forfeited.white ? 'white' : clock.forfeited.black ? 'black' : null);
  if (loser === 'white') return '0-1';
  if (loser === 'black') return '1-0';
  return '1/2-1/2';
}

/** The clock inputs for the arbiter's pending edit of the current item. */
function pendingInputs(context: MenuContext, event: MenuEvent): ClockInput[] {
  const item = ARBITER_ITEMS[context.itemIndex];
  const { at, clock } = event;
  const p = context.pending;
  if (item.kind === 'time' && p.ms !== 0) return [{ type: 'ADJUST', side: item.side, ms: p.ms, at }];
  if (item.kind === 'moves' && p.moves !== null && p.moves !== clock.moves[item.side]) {
    return [{ type: 'SET_MOVES', side: item.side, moves: p.moves, at }];
  }
  if (item.kind === 'period' && p.period !== null && p.period !== clock.period[item.side]) {
    return [{ type: 'SET_MOVES', side: item.side, moves: clock.moves[item.side], period: p.period, at }];
  }
  return [];
}

const noPending = { ms: 0, stepIndex: 0, moves: null, period: null };

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
    comboStatusAllows: ({ context }) => context.comboStatus === 'paused' || context.comboStatus === 'flagged',
    isLeverDown: ({ event }) => event.type === 'KEY_DOWN' && isLever(event.key),
    isKeyDown: ({ event }, key: ButtonName) => event.type === 'KEY_DOWN' && event.key === key,
    isKeyUp: ({ event }, key: ButtonName) => event.type === 'KEY_UP' && event.key === key,
    setupAllowed: ({ event }) => event.type === 'KEY_UP' && event.key === 'mode' && event.clock.status === 'ready',
    resultAllowed: ({ event }) => event.type === 'KEY_UP' && event.key === 'ok' && stopped(event.clock),
    bothConfirmed: ({ context }) => context.result.confirmed.white && context.result.confirmed.black,
  },
  actions: {
    rememberStatus: assign({ comboStatus: ({ event }) => event.clock.status }),
    trackHeld: assign({
      held: ({ context, event }) =>
        event.type === 'KEY_DOWN'
          ? [...context.held.filter((k) => k !== event.key), event.key]
          : context.held.filter((k) => k !== event.key),
    }),
    command: emit((_, input: ClockInput) => ({ type: 'command' as const, input })),
    lever: emit(({ event }) => ({ type: 'command' as const, input: { type: 'PRESS' as const, side: event.key as Side, at: event.at } })),
    startPause: emit(({ event }): MenuOutput => {
      const at = event.at;
      // START from ready, PAUSE while running, RESUME otherwise; the clock rejects what does not apply.
      const input: ClockInput =
        event.clock.status === 'ready' ? { type: 'START', at } : event.clock.status === 'running' ? { type: 'PAUSE', at } : { type: 'RESUME', at };
      return { type: 'command', input };
    }),
    // -- setup --
    enterItems: assign({ itemIndex: 0, pending: noPending, notice: null }),
    /** Setup opens on the control the clock holds, so confirming it unchanged changes nothing. */
    loadSetup: assign({ setup: ({ context, event }) => setupFromControl(event.control, context.setup.sound) }),
    setupNext: assign({ itemIndex: ({ context }) => (context.itemIndex + 1) % setupItems(context.setup).length }),
    setupChange: assign({
      setup: ({ context, event }) => {
        const items = setupItems(context.setup);
        const item = items[Math.min(context.itemIndex, items.length - 1)];
        return changeSetup(context.setup, item, event.key === 'plus' ? 1 : -1);
      },
      itemIndex: ({ context }) => Math.min(context.itemIndex, setupItems(context.setup).length - 1),
    }),
    applySetup: enqueueActions(({ context, event, enqueue }) => {
      enqueue.emit({ type: 'command', input: { type: 'NEW_GAME', timeControl: setupTimeControl(context.setup), at: event.at } });
      enqueue.emit({ type: 'sound', on: context.setup.sound });
    }),
    // -- arbiter --
    /** Sends what the current item holds (a time delta, a move counter, a period). */
    commitArbiter: enqueueActions(({ context, event, enqueue }) => {
      for (const input of pendingInputs(context, event)) enqueue.emit({ type: 'command', input });
      enqueue.assign({ pending: noPending });
    }),
    arbiterNext: assign({ itemIndex: ({ context }) => (context.itemIndex + 1) % ARBITER_ITEMS.length, notice: null }),
    arbiterChange: assign(({ context, event }) => {
      const item = ARBITER_ITEMS[context.itemIndex];
      const sign = event.key === 'plus' ? 1 : -1;
      const p = context.pending;
      switch (item.kind) {
        case 'time':
          return { pending: { ...p, ms: p.ms + sign * ADJUST_STEPS_MS[p.stepIndex] }, notice: null };
        case 'moves':
          return { pending: { ...p, moves: Math.max(0, (p.moves ?? event.clock.moves[item.side]) + sign) }, notice: null };
        case 'period':
          return { pending: { ...p, period: Math.max(0, (p.period ?? event.clock.period[item.side]) + sign) }, notice: null };
        case 'result':
          return { result: { ...context.result, choice: cycle(RESULTS, context.result.choice, sign) }, notice: null };
        default:
          return {};
      }
    }),
    arbiterOk: enqueueActions(({ context, event, enqueue }) => {
      const item = ARBITER_ITEMS[context.itemIndex];
      if (item.kind === 'time') {
        enqueue.assign({ pending: { ...context.pending, stepIndex: (context.pending.stepIndex + 1) % ADJUST_STEPS_MS.length } });
      } else if (item.kind === 'penalty') {
        // FIDE Laws 7.5.5 / A.3.1 / B.3: the clock machine gives the opponent the category's penalty.
        enqueue.emit({ type: 'command', input: { type: 'PENALTY', side: item.side, at: event.at } });
        enqueue.assign({ notice: 'penalty applied' });
      } else if (item.kind === 'result') {
        enqueue.emit({ type: 'result', result: context.result.choice, by: 'arbiter', at: event.at });
        enqueue.assign({ notice: 'result sent' });
      } else {
        for (const input of pendingInputs(context, event)) enqueue.emit({ type: 'command', input });
        enqueue.assign({ pending: noPending, notice: 'set' });
      }
    }),
    // -- result entry --
    startResult: assign({ result: ({ event }) => ({ choice: suggestedResult(event.clock), confirmed: { white: false, black: false } }) }),
    resultChange: assign({
      result: ({ context, event }) => ({ choice: cycle(RESULTS, context.result.choice, event.key === 'plus' ? 1 : -1), confirmed: { white: false, black: false } }),
    }),
    confirmLever: assign({
      result: ({ context, event }) => ({ ...context.result, confirmed: { ...context.result.confirmed, [event.key as Side]: true } }),
    }),
    sendPlayersResult: emit(({ context, event }) => ({ type: 'result' as const, result: context.result.choice, by: 'players' as const, at: event.at })),
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
    result: { choice: '1/2-1/2', confirmed: { white: false, black: false } },
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
            arbiterHold: [{ guard: 'comboStatusAllows', actions: 'enterItems', target: '#menu.arbiter' }, { target: 'releasing' }],
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
              { guard: { type: 'isKeyDown', params: 'ok' }, actions: 'trackHeld', target: 'confirming' },
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

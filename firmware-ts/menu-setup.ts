// The setup menu's choice of a time control (docs/firmware.md "Keys and menus", Setup): the
// presets, a custom control of up to three stages, the default time, the flag beep. The
// arbiter's corrected control (FIDE Laws 6.10.2) is chosen with the same control items.
// Pure: a choice in, the next choice or the TimeControl it describes out; the shared
// vocabulary (protocol/time-control.ts) builds and checks the control.
import {
  parseJsonTimeControl,
  presetTimeControl,
  timeControl,
  type IncrementTiming,
  type PresetName,
  type StageJson,
  type TimeControl,
} from '../protocol/time-control.ts';

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
  /**
   * Kept from the control the menu opened on (the host may have configured `after-move`);
   * the keys do not change it, so confirming an unchanged control changes nothing.
   */
  incrementTiming: IncrementTiming;
}

export type SetupItem =
  | { kind: 'preset' }
  | { kind: 'stages' }
  | { kind: 'stage'; index: number; field: 'moves' | 'minutes' | 'incrementSeconds' }
  | { kind: 'defaultTime' }
  | { kind: 'sound' };

const MAX_STAGES = 3;

/** The items that choose the control itself: the preset, and for a custom control its stage editor. */
export function controlItems(choice: SetupChoice): SetupItem[] {
  const items: SetupItem[] = [{ kind: 'preset' }];
  if (choice.preset === 'custom') {
    items.push({ kind: 'stages' });
    choice.custom.forEach((_, index) => {
      const last = index === choice.custom.length - 1;
      if (!last) items.push({ kind: 'stage', index, field: 'moves' });
      items.push({ kind: 'stage', index, field: 'minutes' }, { kind: 'stage', index, field: 'incrementSeconds' });
    });
  }
  return items;
}

/** The setup items, which depend on the preset (a custom control shows its stage editor). */
export function setupItems(choice: SetupChoice): SetupItem[] {
  return [...controlItems(choice), { kind: 'defaultTime' }, { kind: 'sound' }];
}

/** The control the setup describes; the shared vocabulary builds and checks it. */
export function setupTimeControl(choice: SetupChoice): TimeControl {
  const defaultTime = choice.defaultTimeMinutes === null ? null : choice.defaultTimeMinutes * 60;
  const opts = { defaultTime, incrementTiming: choice.incrementTiming };
  if (choice.preset !== 'custom') return presetTimeControl(choice.preset, opts);
  const stages: StageJson[] = choice.custom.map((s, i) => {
    const last = i === choice.custom.length - 1;
    return { ...(last ? {} : { moves: s.moves }), seconds: s.minutes * 60, increment: s.incrementSeconds };
  });
  const side = parseJsonTimeControl(stages);
  return timeControl(side, side, opts);
}

/**
 * FIDE Laws 6.10.2: the corrected control the arbiter chose, with the game's own default time
 * and increment timing (the correction is of the periods, not of who was late).
 */
export function correctedTimeControl(choice: SetupChoice, current: TimeControl): TimeControl {
  const chosen = setupTimeControl({ ...choice, defaultTimeMinutes: null });
  return { ...chosen, defaultTimeMs: current.defaultTimeMs, incrementTiming: current.incrementTiming };
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
  const base: SetupChoice = { preset: 'custom', defaultTimeMinutes: dt, custom, sound, incrementTiming: control.incrementTiming };
  for (const preset of SETUP_PRESETS) {
    if (preset === 'custom') continue;
    const candidate = { ...base, preset };
    const built = setupTimeControl(candidate);
    // The preset's clocks (the default time may be one the menu does not offer).
    if (JSON.stringify([built.white, built.black]) === JSON.stringify([control.white, control.black])) return candidate;
  }
  return base;
}

export const cycle = <T>(list: readonly T[], current: T, delta: number): T => {
  const i = list.indexOf(current);
  return list[(((i + delta) % list.length) + list.length) % list.length];
};
export const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** The choice after `plus` (+1) or `minus` (−1) on `item`. */
export function changeSetup(choice: SetupChoice, item: SetupItem, delta: number): SetupChoice {
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

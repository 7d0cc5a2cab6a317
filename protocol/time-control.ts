// The time-control vocabulary shared by the clock and the host.
//
// Two written forms come in:
//  - PGN `TimeControl` strings (PGN standard §9.6.1): `3600`, `900+10`,
//    `40/5400+30:900+30`, `*60` (sandclock). `?` (unknown) and `-` (none) name no
//    control a clock can run, so they are rejected.
//  - a JSON array of stages `{ moves?, seconds, increment?, delay?, delayMode? }`.
// Both become the same normalised value in integer milliseconds. `readTimeControlSpec` (at the
// end) is the one reader of a whole control as people write it — a tournament file, an API
// body, a replay setup line, a TRF tag, the host's own `formatTimeControl` form.

export type Side = 'white' | 'black';
export const SIDES: readonly Side[] = ['white', 'black'];
export const other = (side: Side): Side => (side === 'white' ? 'black' : 'white');

export type DelayMode = 'simple' | 'bronstein';
export const DELAY_MODES: readonly DelayMode[] = ['simple', 'bronstein'];
/** FIDE practice credits each move's increment before the move; PGN/online after it. */
export type IncrementTiming = 'before-move' | 'after-move';
export const INCREMENT_TIMINGS: readonly IncrementTiming[] = ['before-move', 'after-move'];

/** One stage (period) of a control, in milliseconds. */
export interface Stage {
  /** Moves to complete in this stage; `null` for the last stage (the rest of the game). */
  readonly moves: number | null;
  readonly baseMs: number;
  readonly incrementMs: number;
  readonly delayMs: number;
  readonly delayMode: DelayMode;
}

/** What one side plays with: stages, or a sandclock (hourglass). */
export interface SideControl {
  readonly kind: 'stages' | 'sandclock';
  readonly stages: readonly Stage[];
}

export interface TimeControl {
  readonly white: SideControl;
  readonly black: SideControl;
  /** FIDE Laws 6.7.1: default time (forfeit on lateness); `null` = none set. */
  readonly defaultTimeMs: number | null;
  readonly incrementTiming: IncrementTiming;
}

/** The JSON form of one stage, in seconds (docs/replay.md). */
export interface StageJson {
  moves?: number;
  seconds: number;
  increment?: number;
  delay?: number;
  delayMode?: DelayMode;
}

export class TimeControlError extends Error {
  constructor(
    message: string,
    /** The offending token or field, when there is one. */
    readonly token?: string,
  ) {
    super(message);
    this.name = 'TimeControlError';
  }
}

const SECOND_MS = 1000;
const MAX_SECONDS = 100 * 3600; // no real control exceeds 100 h per stage
const MAX_MOVES = 1000;

const INTEGER = /^(0|[1-9][0-9]*)$/;

function parseCount(token: string, what: string, whole: string, max: number): number {
  if (!INTEGER.test(token)) {
    throw new TimeControlError(`bad ${what} "${token}" in time control "${whole}": expected a whole number`, token);
  }
  const n = Number(token);
  if (n > max) {
    throw new TimeControlError(`${what} "${token}" in time control "${whole}" is too large (max ${max})`, token);
  }
  return n;
}

/**
 * Parses one side's PGN TimeControl field (PGN standard §9.6.1).
 * Throws TimeControlError naming the bad token.
 */
export function parsePgnTimeControl(text: string): SideControl {
  const whole = text.trim();
  if (whole === '') throw new TimeControlError('empty time control', '');
  if (whole === '?') throw new TimeControlError('time control "?" (unknown) cannot be run on a clock', '?');
  if (whole === '-') throw new TimeControlError('time control "-" (no time control) cannot be run on a clock', '-');
  if (whole.startsWith('*')) {
    const seconds = parseCount(whole.slice(1), 'sandclock seconds', whole, MAX_SECONDS);
    if (seconds === 0) throw new TimeControlError(`sandclock time must be positive in "${whole}"`, whole);
    return { kind: 'sandclock', stages: [stage(null, seconds, 0, 0, 'simple')] };
  }
  const fields = whole.split(':');
  const stages: Stage[] = fields.map((field, i) => {
    const last = i === fields.length - 1;
    const m = /^(?:([^/+]*)\/)?([^/+]*)(?:\+([^/+]*))?$/.exec(field);
    if (!m) throw new TimeControlError(`bad period "${field}" in time control "${whole}"`, field);
    const [, movesTok, secondsTok, incTok] = m;
    const moves = movesTok === undefined ? null : parseCount(movesTok, 'move count', whole, MAX_MOVES);
    const seconds = parseCount(secondsTok, 'seconds', whole, MAX_SECONDS);
    const increment = incTok === undefined ? 0 : parseCount(incTok, 'increment', whole, MAX_SECONDS);
    if (moves === 0) throw new TimeControlError(`move count must be positive in period "${field}"`, field);
    if (moves === null && !last) {
      throw new TimeControlError(`period "${field}" needs a move count: only the last period may be sudden death`, field);
    }
    if (seconds === 0 && i === 0) throw new TimeControlError(`first period "${field}" has no time`, field);
    // The last period is final: periods never repeat, so a move count given for it adds nothing.
    return stage(last ? null : moves, seconds, increment, 0, 'simple');
  });
  return { kind: 'stages', stages };
}

function stage(moves: number | null, seconds: number, increment: number, delay: number, delayMode: DelayMode): Stage {
  return {
    moves,
    baseMs: seconds * SECOND_MS,
    incrementMs: increment * SECOND_MS,
    delayMs: delay * SECOND_MS,
    delayMode,
  };
}

function jsonNumber(value: unknown, field: string, where: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TimeControlError(`${where}: "${field}" must be a whole number ≥ 0, got ${JSON.stringify(value)}`, field);
  }
  if (value > max) throw new TimeControlError(`${where}: "${field}" is too large (max ${max})`, field);
  return value;
}

/** Parses the JSON stage-array form. Throws TimeControlError naming the bad field. */
export function parseJsonTimeControl(value: unknown): SideControl {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TimeControlError('time control must be a non-empty array of stages', 'timeControl');
  }
  const known = new Set(['moves', 'seconds', 'increment', 'delay', 'delayMode']);
  const stages = value.map((raw: unknown, i: number): Stage => {
    const where = `stage ${i + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new TimeControlError(`${where}: must be an object`, String(i));
    }
    const s = raw as Record<string, unknown>;
    for (const key of Object.keys(s)) {
      if (!known.has(key)) throw new TimeControlError(`${where}: unknown field "${key}"`, key);
    }
    const last = i === value.length - 1;
    if (s.seconds === undefined) throw new TimeControlError(`${where}: "seconds" is required`, 'seconds');
    const seconds = jsonNumber(s.seconds, 'seconds', where, MAX_SECONDS);
    if (seconds === 0 && i === 0) throw new TimeControlError(`${where}: the first stage has no time`, 'seconds');
    const moves = s.moves === undefined ? null : jsonNumber(s.moves, 'moves', where, MAX_MOVES);
    if (moves === 0) throw new TimeControlError(`${where}: "moves" must be positive`, 'moves');
    if (moves === null && !last) {
      throw new TimeControlError(`${where}: needs "moves": only the last stage may be sudden death`, 'moves');
    }
    const increment = s.increment === undefined ? 0 : jsonNumber(s.increment, 'increment', where, MAX_SECONDS);
    const delay = s.delay === undefined ? 0 : jsonNumber(s.delay, 'delay', where, MAX_SECONDS);
    let delayMode: DelayMode = 'simple';
    if (s.delayMode !== undefined) {
      if (s.delayMode !== 'simple' && s.delayMode !== 'bronstein') {
        throw new TimeControlError(`${where}: "delayMode" must be "simple" or "bronstein", got ${JSON.stringify(s.delayMode)}`, 'delayMode');
      }
      delayMode = s.delayMode;
    }
    return stage(last ? null : moves, seconds, increment, delay, delayMode);
  });
  return { kind: 'stages', stages };
}

/** Either written form of one side's control. */
export function parseSideControl(value: unknown): SideControl {
  if (typeof value === 'string') return parsePgnTimeControl(value);
  if (typeof value === 'number') return parsePgnTimeControl(String(value));
  return parseJsonTimeControl(value);
}

export type PresetName = 'classical' | 'rapid' | 'armageddon' | 'sudden-death-60';

/** Presets named after the regulations the project was built for (docs/regulations.md). */
export const PRESETS: Readonly<Record<PresetName, { white: string; black: string; label: string }>> = {
  // Slovenian final: 90 min / 40 moves + 15 min, 30 s per move from move 1.
  classical: { white: '40/5400+30:900+30', black: '40/5400+30:900+30', label: '90 min/40 moves + 15 min, +30 s per move' },
  // Slovenian final tie-break: 15 min + 10 s per move.
  rapid: { white: '900+10', black: '900+10', label: '15 min + 10 s per move' },
  // Slovenian final "golden game": White 6 min, Black 5 min; a draw counts as a Black win.
  armageddon: { white: '360', black: '300', label: 'White 6 min, Black 5 min (draw = Black wins)' },
  // Ivanovo team championship: 1 hour per player, sudden death.
  'sudden-death-60': { white: '3600', black: '3600', label: '60 min sudden death' },
};

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

export interface TimeControlOptions {
  /** Default time in seconds (FIDE Laws 6.7.1); omitted or null = none. */
  defaultTime?: number | null;
  incrementTiming?: IncrementTiming;
}

function options(opts: TimeControlOptions): Pick<TimeControl, 'defaultTimeMs' | 'incrementTiming'> {
  const { defaultTime = null, incrementTiming = 'before-move' } = opts;
  if (defaultTime !== null && (!Number.isInteger(defaultTime) || defaultTime < 0 || defaultTime > MAX_SECONDS)) {
    throw new TimeControlError(`"defaultTime" must be a whole number of seconds ≥ 0, got ${JSON.stringify(defaultTime)}`, 'defaultTime');
  }
  if (incrementTiming !== 'before-move' && incrementTiming !== 'after-move') {
    throw new TimeControlError(`"incrementTiming" must be "before-move" or "after-move", got ${JSON.stringify(incrementTiming)}`, 'incrementTiming');
  }
  return { defaultTimeMs: defaultTime === null ? null : defaultTime * SECOND_MS, incrementTiming };
}

export function timeControl(white: SideControl, black: SideControl, opts: TimeControlOptions = {}): TimeControl {
  if ((white.kind === 'sandclock') !== (black.kind === 'sandclock')) {
    throw new TimeControlError('a sandclock must be used by both sides', 'sandclock');
  }
  return { white, black, ...options(opts) };
}

export function presetTimeControl(name: string, opts: TimeControlOptions = {}): TimeControl {
  if (!isPresetName(name)) {
    throw new TimeControlError(`unknown preset "${name}" (known: ${Object.keys(PRESETS).join(', ')})`, name);
  }
  const p = PRESETS[name];
  return timeControl(parsePgnTimeControl(p.white), parsePgnTimeControl(p.black), opts);
}

/** Formats one side's control as a PGN TimeControl field, e.g. `40/5400+30:900+30`. */
export function formatSideControl(side: SideControl): string {
  if (side.kind === 'sandclock') return `*${side.stages[0].baseMs / SECOND_MS}`;
  return side.stages
    .map((s) => {
      const moves = s.moves === null ? '' : `${s.moves}/`;
      const inc = s.incrementMs ? `+${s.incrementMs / SECOND_MS}` : '';
      return `${moves}${s.baseMs / SECOND_MS}${inc}`;
    })
    .join(':');
}

function sameSide(a: SideControl, b: SideControl): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The control as one string for exports: the PGN field when both sides play the same,
 * `W360-B300` for unequal controls (the notation of FIDE TRF tag 222 for armageddon).
 */
export function formatTimeControl(tc: TimeControl): string {
  if (sameSide(tc.white, tc.black)) return formatSideControl(tc.white);
  return `W${formatSideControl(tc.white)}-B${formatSideControl(tc.black)}`;
}

export function hasDelay(side: SideControl): boolean {
  return side.stages.some((s) => s.delayMs > 0);
}

/** One side in a written form readTimeControlSpec reads back whole: the PGN field, or the JSON stages (seconds) when it has a delay. */
export function sideControlSpec(side: SideControl): string | StageJson[] {
  if (!hasDelay(side) || side.kind === 'sandclock') return formatSideControl(side);
  return side.stages.map((s) => ({
    ...(s.moves === null ? {} : { moves: s.moves }),
    seconds: s.baseMs / SECOND_MS,
    ...(s.incrementMs ? { increment: s.incrementMs / SECOND_MS } : {}),
    delay: s.delayMs / SECOND_MS,
    delayMode: s.delayMode,
  }));
}

/**
 * A whole control as a spec object that readTimeControlSpec reads back to the same value (a
 * replay `setup` or `control` line, a journaled correction): `timeControl` when both sides play
 * the same, else `white` and `black`; `defaultTime` in seconds (null: none) and `incrementTiming`.
 */
export function timeControlSpec(tc: TimeControl): Record<string, unknown> {
  const same = JSON.stringify(tc.white) === JSON.stringify(tc.black);
  return {
    ...(same ? { timeControl: sideControlSpec(tc.white) } : { white: sideControlSpec(tc.white), black: sideControlSpec(tc.black) }),
    defaultTime: tc.defaultTimeMs === null ? null : tc.defaultTimeMs / SECOND_MS,
    incrementTiming: tc.incrementTiming,
  };
}

export type Category = 'blitz' | 'rapid' | 'standard';

/**
 * FIDE Laws A.1 / B.1: the category follows from the first stage, x = base + 60 × increment
 * (the time for 60 moves); taken as the smaller over the two sides.
 * Blitz if x ≤ 10 min, rapid if 10 min < x < 60 min, standard if x ≥ 60 min.
 */
export function category(tc: TimeControl): Category {
  const x = Math.min(
    ...SIDES.map((side) => {
      const first = tc[side].stages[0];
      return first.baseMs + 60 * first.incrementMs;
    }),
  );
  if (x <= 10 * 60 * SECOND_MS) return 'blitz';
  if (x < 60 * 60 * SECOND_MS) return 'rapid';
  return 'standard';
}

/** FIDE Laws 7.5.5 (standard: +2 min to the opponent); A.3.1 and B.3: +1 min in rapid and blitz. */
export function illegalMovePenaltyMs(tc: TimeControl): number {
  return category(tc) === 'standard' ? 2 * 60 * SECOND_MS : 60 * SECOND_MS;
}

/**
 * Reads back what `formatTimeControl` wrote: a PGN field for both sides, or `W<white>-B<black>`
 * for unequal controls. The written form carries no default time or increment timing: pass them.
 */
export function parseFormattedTimeControl(text: string, opts: TimeControlOptions = {}): TimeControl {
  const { white, black } = splitFormatted(text);
  return timeControl(white, black, opts);
}

/** `W<pgn>-B<pgn>` (unequal controls, FIDE TRF tag 222 notation) or one PGN field for both sides. */
function splitFormatted(text: string): { white: SideControl; black: SideControl } {
  const unequal = /^W(.+)-B(.+)$/.exec(text.trim());
  if (unequal) return { white: parsePgnTimeControl(unequal[1]), black: parsePgnTimeControl(unequal[2]) };
  const side = parsePgnTimeControl(text);
  return { white: side, black: side };
}

/**
 * The fields of a time-control spec object (docs/tournament.md, docs/api.md, docs/replay.md
 * setup line). A caller that refuses unknown fields checks against this list.
 */
export const TIME_CONTROL_SPEC_FIELDS = ['preset', 'timeControl', 'white', 'black', 'defaultTime', 'incrementTiming'] as const;

export interface ReadTimeControl {
  readonly timeControl: TimeControl;
  /** The preset the spec named, if it named one. */
  readonly preset: PresetName | null;
}

/** One control for both sides, or `{ white, black }`, as a spec's `timeControl` (or the spec itself) gives it. */
function readControl(value: unknown, opts: TimeControlOptions): ReadTimeControl {
  if (typeof value === 'string' && isPresetName(value.trim())) {
    const preset = value.trim() as PresetName;
    return { timeControl: presetTimeControl(preset, opts), preset };
  }
  if (typeof value === 'string') {
    const { white, black } = splitFormatted(value);
    return { timeControl: timeControl(white, black, opts), preset: null };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (key !== 'white' && key !== 'black') throw new TimeControlError(`time control: unknown field "${key}" (give "white" and "black")`, key);
    }
    if (o.white === undefined) throw new TimeControlError('time control has "black" but no "white"', 'white');
    if (o.black === undefined) throw new TimeControlError('time control has "white" but no "black"', 'black');
    return { timeControl: timeControl(parseSideControl(o.white), parseSideControl(o.black), opts), preset: null };
  }
  // A number (seconds, sudden death) or an array of JSON stages: the same for both sides.
  const side = parseSideControl(value);
  return { timeControl: timeControl(side, side, opts), preset: null };
}

/**
 * The one reader of a time control as people write it; every room that takes one in (the
 * tournament file, the API's configure body, a replay setup line, a TRF tag 222, a board set
 * up from the host's `formatTimeControl` form) calls it, so each form means the same
 * everywhere and no reader drops a field (such as `incrementTiming`).
 *
 * `spec` is one of
 *  - a string: a preset name (`classical`, PRESETS), `W<pgn>-B<pgn>` for unequal controls
 *    (armageddon `W360-B300`), or one PGN TimeControl field for both sides (`40/5400+30:900+30`);
 *  - a number: seconds of sudden death for both sides (PGN `3600`);
 *  - an array: the JSON stages for both sides;
 *  - an object with exactly one of `preset`, `timeControl` (any form above, or `{ white, black }`)
 *    or `white` and `black` (each a PGN field, seconds or JSON stages), and optionally
 *    `defaultTime` (seconds, FIDE Laws 6.7.1; null = none) and `incrementTiming`. Other fields
 *    belong to the caller (a setup line's `type`) and are not read.
 * `opts` gives the default time and increment timing where the spec does not (a bare string).
 * Throws TimeControlError naming the bad token or field (docs/architecture.md rule 10).
 */
export function readTimeControlSpec(spec: unknown, opts: TimeControlOptions = {}): ReadTimeControl {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return readControl(spec, opts);
  const o = spec as Record<string, unknown>;
  const forms = (['preset', 'timeControl', 'white'] as const).filter((k) => o[k] !== undefined);
  if (forms.length === 0 && o.black === undefined) {
    throw new TimeControlError('time control needs "preset", "timeControl", or "white" and "black"', 'timeControl');
  }
  if (forms.length > 1) throw new TimeControlError(`time control has both "${forms[0]}" and "${forms[1]}": give one form`, forms[1]);
  const options: TimeControlOptions = {
    defaultTime: o.defaultTime !== undefined ? (o.defaultTime as number | null) : opts.defaultTime,
    incrementTiming: o.incrementTiming !== undefined ? (o.incrementTiming as IncrementTiming) : opts.incrementTiming,
  };
  if (o.preset !== undefined) {
    // A preset is named by a string; anything else is an unknown preset, named in the error.
    const name = typeof o.preset === 'string' ? o.preset : JSON.stringify(o.preset);
    return { timeControl: presetTimeControl(name, options), preset: isPresetName(name) ? name : null };
  }
  if (o.timeControl !== undefined) {
    if (o.black !== undefined) throw new TimeControlError('time control has both "timeControl" and "black": give one form', 'black');
    return readControl(o.timeControl, options);
  }
  return readControl({ white: o.white, black: o.black }, options);
}

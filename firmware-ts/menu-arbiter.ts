// The arbiter's items at the clock (docs/firmware.md "Arbiter mode"): which items there are, in
// which order `mode` walks them, and the values an item shows before `ok` sends its clock
// input. Pure; the menu machine (menu.machine.ts) owns the keys, the clock statechart the rules.
import { other, type Side } from '../protocol/time-control.ts';
import type { ClockInput } from '../rules/clock.machine.ts';
import { quickplayRefusal } from '../rules/arbiter-corrections.ts';
import type { ClockReading } from '../rules/clock-state.ts';
import { clockCommandRefusal } from '../rules/command-rules.ts';
import { CLOCK_RESULTS, SIDE_NAME, type ArbiterCommandName, type BoardStatus } from '../rules/vocabulary.ts';
import type { ClockView } from './clock-view.ts';
import type { ArbiterPending, KeyEvent, MenuContext } from './menu-context.ts';
import { nextChoice } from './menu-result.ts';
import { clamp } from './menu-setup.ts';

export type ArbiterItem =
  | { kind: 'time'; side: Side }
  | { kind: 'moves'; side: Side }
  | { kind: 'turn' }
  | { kind: 'control' }
  | { kind: 'penalty'; side: Side }
  | { kind: 'takeback' }
  | { kind: 'arrive'; side: Side }
  | { kind: 'increment' }
  | { kind: 'delay' }
  | { kind: 'reinstate' }
  | { kind: 'result' };

/**
 * The order `mode` walks. A replacement clock (FIDE Laws 6.10.2) is set up from the top: the
 * times, the move counters, the side on move (and the control, when it was set wrongly).
 */
export const ARBITER_ITEMS: readonly ArbiterItem[] = [
  { kind: 'time', side: 'white' },
  { kind: 'time', side: 'black' },
  { kind: 'moves', side: 'white' },
  { kind: 'moves', side: 'black' },
  { kind: 'turn' },
  { kind: 'control' },
  { kind: 'penalty', side: 'white' },
  { kind: 'penalty', side: 'black' },
  { kind: 'takeback' },
  { kind: 'arrive', side: 'white' },
  { kind: 'arrive', side: 'black' },
  { kind: 'increment' },
  { kind: 'delay' },
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
/** FIDE Guidelines III.4: the quickplay delay offered first (5 s, as the increment), changed in 1 s steps. */
export const QUICKPLAY_DELAY_DEFAULT_MS = 5_000;
export const QUICKPLAY_STEP_MS = 1_000;
export const QUICKPLAY_MAX_MS = 60_000;

export const NO_PENDING: ArbiterPending = { ms: 0, stepIndex: 0, moves: null, incrementMs: null, delayMs: null, turn: null, takeback: 'rewind' };

/**
 * The quickplay increment or delay an item shows: the pending edit, the one in force, or 5 s.
 * Where the rule book refuses a quickplay finish (blitz, FIDE Guidelines III) only its removal
 * is offered: 0.
 */
export function shownQuickplayMs(kind: 'increment' | 'delay', pending: ArbiterPending, view: Pick<ClockView, 'clock' | 'control'>): number {
  if (quickplayRefusal(view.control) !== null) return 0;
  const inForce = kind === 'increment' ? view.clock.extraIncrementMs : view.clock.extraDelayMs;
  const edit = kind === 'increment' ? pending.incrementMs : pending.delayMs;
  return edit ?? (inForce > 0 ? inForce : kind === 'increment' ? QUICKPLAY_INCREMENT_DEFAULT_MS : QUICKPLAY_DELAY_DEFAULT_MS);
}

/** The next quickplay value after `plus`/`minus`, or null when none may be set (blitz: the item only removes). */
export function changedQuickplayMs(
  kind: 'increment' | 'delay',
  pending: ArbiterPending,
  view: Pick<ClockView, 'clock' | 'control'>,
  sign: number,
): number | null {
  if (quickplayRefusal(view.control) !== null) return null;
  return clamp(shownQuickplayMs(kind, pending, view) + sign * QUICKPLAY_STEP_MS, 0, QUICKPLAY_MAX_MS);
}

/**
 * Why the quickplay item sends nothing, or null: in blitz (FIDE Guidelines III apply to standard
 * and rapid games only) the rule book's reason, unless one is in force and the item removes it.
 */
export function quickplayItemRefusal(kind: 'increment' | 'delay', view: Pick<ClockView, 'clock' | 'control'>): string | null {
  const inForce = kind === 'increment' ? view.clock.extraIncrementMs : view.clock.extraDelayMs;
  return inForce > 0 ? null : quickplayRefusal(view.control);
}

/** The side the turn item sets on move: the pending choice, else the side not on move now. */
export function shownTurn(pending: ArbiterPending, clock: ClockReading): Side {
  return pending.turn ?? other(clock.turn);
}

/** The clock's status as the rule book's command rules read it: `finished` once the game has a result. */
export function commandStatusOf(clock: ClockReading): BoardStatus {
  return clock.result !== null ? 'finished' : clock.status;
}

/**
 * Why the clock would refuse `command` in its present status (rules/command-rules.ts, the rule the
 * host and the dashboard read too), or null. The menu asks before it opens an editor, so the
 * arbiter does not choose what will surely be refused.
 */
export function arbiterRefusal(command: ArbiterCommandName, view: ClockView): string | null {
  return clockCommandRefusal(command, commandStatusOf(view.clock), true, 'the clock', { timeControl: view.control });
}

/** The clock inputs for the arbiter's pending edit of `item` (time and move items send when left). */
export function pendingInputs(item: ArbiterItem, pending: ArbiterPending, clock: ClockReading, at: number): ClockInput[] {
  if (item.kind === 'time' && pending.ms !== 0) return [{ type: 'ADJUST', side: item.side, ms: pending.ms, at }];
  if (item.kind === 'moves' && pending.moves !== null && pending.moves !== clock.moves[item.side]) {
    return [{ type: 'SET_MOVES', side: item.side, moves: pending.moves, at }];
  }
  return [];
}

/** What a key does on an arbiter item: the context it changes, and the clock inputs it sends. */
export interface ArbiterStep {
  patch: Partial<MenuContext>;
  inputs: ClockInput[];
}

/** `plus` / `minus` on the current item: only the pending edit changes; nothing is sent. */
export function arbiterChange(ctx: MenuContext, event: KeyEvent): Partial<MenuContext> {
  const item = ARBITER_ITEMS[ctx.itemIndex];
  const sign = event.key === 'plus' ? 1 : -1;
  const p = ctx.pending;
  switch (item.kind) {
    case 'time':
      return { pending: { ...p, ms: p.ms + sign * ADJUST_STEPS_MS[p.stepIndex] }, notice: null };
    case 'moves':
      return { pending: { ...p, moves: Math.max(0, (p.moves ?? event.clock.moves[item.side]) + sign) }, notice: null };
    case 'turn':
      return { pending: { ...p, turn: other(shownTurn(p, event.clock)) }, notice: null };
    case 'increment':
    case 'delay': {
      const ms = changedQuickplayMs(item.kind, p, event, sign);
      if (ms === null) return { notice: null };
      return { pending: item.kind === 'increment' ? { ...p, incrementMs: ms } : { ...p, delayMs: ms }, notice: null };
    }
    case 'result':
      // The arbiter may record any result the clock holds, the double forfeit included
      // (Laws 6.9 "unless...", 6.7.1 "unless the arbiter decides otherwise").
      return { result: { ...ctx.result, choice: nextChoice(CLOCK_RESULTS, ctx.result.choice, sign) }, notice: null };
    default:
      return { notice: null };
  }
}

/**
 * `ok` on the current item (when it opens no editor: the take-back's choice of the times and the
 * corrected control have their own steps in the menu machine). The notice says what was sent; a
 * refusal from the clock (REJECTED) replaces it.
 */
export function arbiterOk(ctx: MenuContext, event: KeyEvent): ArbiterStep {
  const { at } = event;
  const item = ARBITER_ITEMS[ctx.itemIndex];
  const send = (input: ClockInput, notice: string, patch: Partial<MenuContext> = {}): ArbiterStep => ({ patch: { ...patch, notice }, inputs: [input] });
  const say = (patch: Partial<MenuContext>): ArbiterStep => ({ patch, inputs: [] });
  switch (item.kind) {
    case 'time':
      return say({ pending: { ...ctx.pending, stepIndex: (ctx.pending.stepIndex + 1) % ADJUST_STEPS_MS.length } });
    case 'moves':
      return { patch: { pending: NO_PENDING, notice: 'set' }, inputs: pendingInputs(item, ctx.pending, event.clock, at) };
    case 'turn': {
      // FIDE Laws 6.10.2: the arbiter sets the side on move (a replacement clock, a wrong side).
      const side = shownTurn(ctx.pending, event.clock);
      if (side === event.clock.turn) return say({ pending: NO_PENDING, notice: 'unchanged' });
      return send({ type: 'SET_TURN', side, at }, `${SIDE_NAME[side]} on move`, { pending: NO_PENDING });
    }
    case 'control':
      // The editor did not open: the clock would refuse a corrected control now. Say why.
      return say({ refusal: arbiterRefusal('set-control', event) });
    case 'penalty':
      // FIDE Laws 7.5.5 / A.3.1 / B.3: the clock machine gives the opponent the category's penalty.
      return send({ type: 'PENALTY', side: item.side, at }, 'penalty applied');
    case 'takeback':
      // The choice of the times did not open. No move to annul: TAKEBACK itself, which the
      // clock answers with its reason; else the command rule's reason (e.g. after a forfeit).
      if (event.takeback === null) return send({ type: 'TAKEBACK', at }, 'move annulled');
      return say({ refusal: arbiterRefusal('takeback', event) });
    case 'arrive':
      // FIDE Laws 6.7: the player is at the board (the default time no longer runs for them).
      return send({ type: 'ARRIVE', side: item.side, at }, `${SIDE_NAME[item.side]} present`);
    case 'increment':
    case 'delay': {
      // FIDE Guidelines III.4: an increment, or a delay, for both players from the next move
      // (0 removes it); never in blitz, where the item shows the rule book's reason instead.
      const refusal = quickplayItemRefusal(item.kind, event);
      if (refusal !== null) return say({ refusal });
      const ms = shownQuickplayMs(item.kind, ctx.pending, event);
      if (item.kind === 'increment')
        return send({ type: 'INCREMENT', ms, at }, ms === 0 ? 'incr. removed' : `incr. +${ms / 1000}s set`, { pending: NO_PENDING });
      return send({ type: 'DELAY', ms, at }, ms === 0 ? 'delay removed' : `delay ${ms / 1000}s set`, { pending: NO_PENDING });
    }
    case 'reinstate':
      // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the forfeit is overruled.
      return send({ type: 'REINSTATE', at }, 'reinstated');
    case 'result':
      // Nothing chosen: nothing is recorded.
      if (ctx.result.choice === null) return say({ notice: 'choose with +/-' });
      return send({ type: 'RESULT', result: ctx.result.choice, by: 'arbiter', at }, 'result sent', { illegalLoser: null });
  }
}

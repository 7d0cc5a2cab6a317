// What the menu machine (menu.machine.ts) holds and hears: its context, the events the firmware
// sends it (key edges with the clock's view, and what the clock answered), what it emits.
import type { Presence } from '../rules/presence.ts';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import type { ClockInput, ClockOutput } from '../rules/clock.machine.ts';
import { other } from '../protocol/time-control.ts';
import type { ClockReading } from '../rules/clock-state.ts';
import type { ClockResult } from '../rules/vocabulary.ts';
import type { TakebackTimes } from '../rules/takeback.ts';
import type { ClockView } from './clock-view.ts';
import type { MenuKey } from './hardware-map.ts';
import type { SetupChoice } from './menu-setup.ts';

/** Every key of the clock: the two levers and the five menu keys. */
export type ButtonName = Side | MenuKey;

/** A key edge, with what the clock shows at that instant (the menu keeps no copy). */
type KeyEdge = { key: ButtonName; at: number } & ClockView;

export type MenuEvent =
  | ({ type: 'KEY_DOWN' } & KeyEdge)
  | ({ type: 'KEY_UP' } & KeyEdge)
  /** The clock statechart refused a command the menu sent: its reason becomes the notice. */
  | { type: 'REJECTED'; reason: string }
  /**
   * The clock recorded an illegal move of `side` (a take-back or a penalty, FIDE Laws 7.5);
   * `illegal` is both sides' count afterwards.
   */
  | { type: 'ILLEGAL_MOVE'; side: Side; illegal: ClockReading['illegalMoves'] }
  /**
   * The host loaded the journal's game (docs/protocol.md "Restore"): a power-cut game waiting
   * for the arbiter's keep-or-discard is answered, the journal's state is the one kept.
   */
  | { type: 'HOST_RESTORED' };

export type KeyEvent = Extract<MenuEvent, { type: 'KEY_DOWN' | 'KEY_UP' }>;

export type MenuOutput = { type: 'command'; input: ClockInput } | { type: 'sound'; on: boolean };

/**
 * What the menu hears of the clock's outputs: a refusal's reason, a restore from the host, an
 * illegal move recorded (with both counts as the clock reads them afterwards). `read` is called
 * only for an illegal move: a press, the hot path, reads nothing more.
 */
export function menuEventsFor(out: ClockOutput, read: () => ClockReading): MenuEvent[] {
  if (out.type === 'rejected') return [{ type: 'REJECTED', reason: out.reason }];
  if (out.type === 'restored') return [{ type: 'HOST_RESTORED' }];
  if (out.type === 'takeback') return [{ type: 'ILLEGAL_MOVE', side: out.side, illegal: read().illegalMoves }];
  // A penalty's `side` is the side given the time; the illegal move was the other side's.
  if (out.type === 'adjusted' && out.reason === 'penalty') return [{ type: 'ILLEGAL_MOVE', side: other(out.side), illegal: read().illegalMoves }];
  return [];
}

export interface MenuContext {
  /** Keys held down right now (for the mode+ok combination). */
  held: ButtonName[];
  /** The clock's status when mode+ok closed. */
  comboStatus: ClockReading['status'] | null;
  itemIndex: number;
  setup: SetupChoice;
  /** Arbiter edits not yet sent. */
  pending: ArbiterPending;
  /** FIDE Laws 6.10.2: the corrected control being chosen with the setup's control items. */
  correction: { choice: SetupChoice; itemIndex: number };
  /** Last thing the arbiter applied, shown on the second row until the next key. */
  notice: string | null;
  /** Why the clock refused the last command (its 'rejected' reason), shown until the next key. */
  refusal: string | null;
  /**
   * FIDE Laws 7.5.5: the side whose second illegal move the clock just recorded; the result item
   * says it loses and preselects the opponent's win, for the arbiter to confirm or change.
   */
  illegalLoser: Side | null;
  /**
   * The result being entered: `choice` null until someone chooses (the clock never records
   * a result on its own, FIDE Laws 6.9); `choices` what may be chosen.
   */
  result: { choice: ClockResult | null; choices: readonly ClockResult[]; confirmed: Record<Side, boolean> };
  /** Who is at the board, asked before a start with a default time of 0. */
  presence: { choice: Presence; choices: readonly Presence[] };
  restored: TimeControl | null;
}

/** Arbiter edits not yet sent. */
export interface ArbiterPending {
  /** A time change (time items) and the step `plus`/`minus` change it by. */
  ms: number;
  stepIndex: number;
  /** A new move counter (moves items). */
  moves: number | null;
  /** The quickplay increment / delay being chosen. */
  incrementMs: number | null;
  delayMs: number | null;
  /** The side to set on move (null: the other side than the one on move). */
  turn: Side | null;
  /** FIDE Laws 7.1: what a take-back does to the clock times. */
  takeback: TakebackTimes;
}

/** Who is at the board when a start with a default time of 0 asks (the rule book's answers, rules/presence.ts). */

export interface MenuInput {
  sound?: boolean;
  /** The clock came back from a power cut with this game's control: ask the arbiter first. */
  restored?: TimeControl | null;
}

export const isLever = (key: ButtonName): key is Side => key === 'white' || key === 'black';

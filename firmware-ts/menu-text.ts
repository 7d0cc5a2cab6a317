// What the LCD shows while a menu is open (docs/firmware.md "Menus"). Pure: the menu
// machine's snapshot and the clock's view (clock-view.ts) in, two 16-character rows out
// (the clock display when no menu is open).
import { illegalMovePenaltyMs, other } from '../protocol/time-control.ts';
import type { ClockResult } from '../rules/vocabulary.ts';
import { fitLcd, formatClockTime, LCD_COLS, renderLcd } from '../rules/display-format.ts';
import { describeTimeControlShort } from '../rules/time-control-text.ts';
import type { ClockView } from './clock-view.ts';
import { ADJUST_STEPS_MS, ARBITER_ITEMS, quickplayItemRefusal, shownQuickplayMs, shownTurn } from './menu-arbiter.ts';
import { controlItems, setupItems, setupTimeControl, type SetupChoice } from './menu-setup.ts';
import type { MenuContext } from './menu-context.ts';
import type { Presence } from '../rules/presence.ts';

const SIDE_LETTER = { white: 'W', black: 'B' } as const;
const SIDE_WORD = { white: 'White', black: 'Black' } as const;
const STEP_TEXT: Record<number, string> = { 60000: '1m', 10000: '10s', 1000: '1s' };

/** The top-level menu state. */
export type MenuMode = 'game' | 'setup' | 'arbiter' | 'result' | 'restore' | 'presence';

export function menuMode(value: unknown): MenuMode {
  const top = typeof value === 'string' ? value : Object.keys(value as object)[0];
  return top as MenuMode;
}

/** The sub-state of arbiter mode: the item list, or an item's own editor. */
function arbiterStep(value: unknown): 'items' | 'takeback' | 'control' | 'controlConfirm' {
  const arbiter = (value as { arbiter?: unknown }).arbiter;
  return (typeof arbiter === 'string' ? arbiter : 'items') as 'items' | 'takeback' | 'control' | 'controlConfirm';
}

/**
 * A result in 16 columns: the double forfeit `--` (FIDE Laws 6.7.1: both lose) in words, so it
 * cannot be read as "nothing chosen".
 */
export function resultText(result: ClockResult): string {
  return result === '--' ? '0-0 both forfeit' : result;
}

const PRESENCE_TEXT: Record<Presence, string> = { both: 'both W and B', white: 'White only', black: 'Black only', neither: 'neither' };

/** The rows of one control item (setup, or the arbiter's corrected control). */
function controlRows(choice: SetupChoice, items: ReturnType<typeof setupItems>, index: number): [string, string] {
  const item = items[Math.min(index, items.length - 1)];
  switch (item.kind) {
    case 'preset': {
      if (choice.preset !== 'custom') return ['Control', choice.preset];
      let detail = '';
      try {
        detail = describeTimeControlShort(setupTimeControl(choice));
      } catch {
        detail = '?';
      }
      return ['Control: custom', detail];
    }
    case 'stages':
      return ['Custom: stages', String(choice.custom.length)];
    case 'stage': {
      const s = choice.custom[item.index];
      const label = { moves: 'moves', minutes: 'minutes', incrementSeconds: 'incr. s' }[item.field];
      return [`Stage ${item.index + 1} ${label}`, String(s[item.field])];
    }
    case 'defaultTime':
      return ['Default time', choice.defaultTimeMinutes === null ? 'none' : `${choice.defaultTimeMinutes} min`];
    case 'sound':
      return ['Sound at flag', choice.sound ? 'on' : 'off'];
  }
}

/**
 * A message in the LCD's ASCII over at most two rows: word-wrapped; what does not fit in 32
 * columns is cut (a long reason keeps its first clause when that fits).
 */
export function wrapLcd(text: string): [string, string] {
  const ascii = text
    .replace(/≥/g, '>=')
    .replace(/≤/g, '<=')
    .replace(/[^\x20-\x7e]/g, '?');
  const wrap = (t: string): string[] => {
    const rows: string[] = [];
    let row = '';
    for (const word of t.split(' ')) {
      const next = row === '' ? word : `${row} ${word}`;
      if (next.length <= LCD_COLS) row = next;
      else {
        rows.push(row);
        row = word;
      }
    }
    rows.push(row);
    return rows.filter((r) => r !== '');
  };
  let rows = wrap(ascii);
  if (rows.length > 2 || rows.some((r) => r.length > LCD_COLS)) {
    const clause = ascii.split(':')[0];
    const short = wrap(clause);
    // Still too long: the first row word-wrapped, the rest on the second row, cut at 16.
    rows = short.length <= 2 && short.every((r) => r.length <= LCD_COLS) ? short : [rows[0], ascii.slice(rows[0].length + 1)];
  }
  return [fitLcd(rows[0] ?? ''), fitLcd(rows[1] ?? '')];
}

/** FIDE Guidelines III.4: the quickplay increment (`+5s`) or delay (`5s`) an item shows, `none` for 0. */
function quickplayText(kind: 'increment' | 'delay', ms: number): string {
  if (ms === 0) return 'none';
  return kind === 'increment' ? `+${ms / 1000}s` : `${ms / 1000}s`;
}

function arbiterItemRows(ctx: MenuContext, view: ClockView): [string, string] {
  const { clock, control } = view;
  const item = ARBITER_ITEMS[ctx.itemIndex];
  switch (item.kind) {
    case 'time': {
      const delta = ctx.pending.ms;
      const shown = formatClockTime(Math.max(0, clock[item.side] + delta));
      const sign = delta < 0 ? '-' : '+';
      const step = STEP_TEXT[ADJUST_STEPS_MS[ctx.pending.stepIndex]];
      return [`ARB ${SIDE_LETTER[item.side]} time ${step}`, delta === 0 ? shown : `${shown} ${sign}${formatClockTime(Math.abs(delta))}`];
    }
    case 'moves':
      return [`ARB ${SIDE_LETTER[item.side]} moves`, String(ctx.pending.moves ?? clock.moves[item.side])];
    case 'turn': {
      // FIDE Laws 6.10.2: the side on move now, or the one ok sets.
      const side = shownTurn(ctx.pending, clock);
      return ['ARB side on move', side === clock.turn ? `${SIDE_WORD[side]} moves now` : `ok: ${SIDE_WORD[side]} moves`];
    }
    case 'control':
      // FIDE Laws 6.10.2: the control in force; ok opens the editor for the corrected one.
      return ['ARB control: ok', describeTimeControlShort(control)];
    case 'penalty':
      return [`ARB illegal ${SIDE_LETTER[item.side]}`, `ok:+${formatClockTime(illegalMovePenaltyMs(control))} ${SIDE_LETTER[other(item.side)]}`];
    case 'takeback': {
      // FIDE Laws 7.5.1: the last completed move was made by the side not on move.
      const side = view.takeback?.side ?? other(clock.turn);
      const move = view.takeback?.move ?? clock.moves[side];
      return ['ARB take back', move > 0 ? `ok: annul ${SIDE_LETTER[side]} #${move}` : 'no move to annul'];
    }
    case 'arrive':
      return [`ARB arrive ${SIDE_LETTER[item.side]}`, clock.present[item.side] ? 'present' : 'absent ok:here'];
    case 'increment':
    case 'delay': {
      // FIDE Guidelines III.4; none in blitz (Guidelines III.2.2): the item does not offer one.
      const label = item.kind === 'increment' ? 'ARB quickplay' : 'ARB delay';
      if (quickplayItemRefusal(item.kind, view) !== null) return [label, 'not in blitz'];
      const inForce = item.kind === 'increment' ? clock.extraIncrementMs : clock.extraDelayMs;
      const now = inForce === 0 ? '' : item.kind === 'increment' ? ` now+${inForce / 1000}` : ` now ${inForce / 1000}s`;
      return [label, `${quickplayText(item.kind, shownQuickplayMs(item.kind, ctx.pending, view))} ok${now}`];
    }
    case 'reinstate':
      return ['ARB reinstate', clock.status === 'forfeited' ? 'ok: overrule' : 'not forfeited'];
    case 'result': {
      const choice = ctx.result.choice;
      // FIDE Laws 7.5.5: the second illegal move loses; the arbiter confirms (or changes) the result.
      if (ctx.illegalLoser !== null && choice !== null) {
        const text = resultText(choice);
        return [`7.5.5: ${SIDE_LETTER[ctx.illegalLoser]} loses`, text.length <= LCD_COLS - 4 ? `${text} ok?` : text];
      }
      return ['ARB result', choice === null ? 'choose with +/-' : resultText(choice)];
    }
  }
}

function arbiterRows(menuValue: unknown, ctx: MenuContext, view: ClockView): [string, string] {
  // A refusal from the clock (or the rule book's reason the menu did not send): over both rows.
  if (ctx.refusal) return wrapLcd(ctx.refusal);
  switch (arbiterStep(menuValue)) {
    case 'takeback': {
      // FIDE Laws 7.1: what the clock will show after the take-back with this choice of the times.
      const times = ctx.pending.takeback;
      const after = view.takeback?.after[times];
      return [times === 'rewind' ? 'rewind times +/-' : 'keep times   +/-', after ? renderLcd(after)[0] : ''];
    }
    case 'control':
      return controlRows(ctx.correction.choice, controlItems(ctx.correction.choice), ctx.correction.itemIndex);
    case 'controlConfirm':
      // FIDE Laws 6.10.2: the corrected control keeps both times; the arbiter sets them next.
      return ['times stay, ok?', 'then adjust them'];
    case 'items': {
      const rows = arbiterItemRows(ctx, view);
      if (ctx.notice) rows[1] = ctx.notice;
      return rows;
    }
  }
}

/**
 * The two LCD rows for the menu state, or the clock display when no menu is open. `view` is the
 * clock at the instant of the reading (clock-view.ts); `now` that instant (for the default-time
 * countdown). A game with a result (entered at the clock or by the arbiter at the host:
 * `clock.result`) shows it until the next game.
 */
export function screenRows(menuValue: unknown, ctx: MenuContext, view: ClockView, now: number | null = null): [string, string] {
  const mode = menuMode(menuValue);
  const { clock } = view;
  let rows: [string, string];
  if (mode === 'setup') rows = controlRows(ctx.setup, setupItems(ctx.setup), ctx.itemIndex);
  else if (mode === 'arbiter') rows = arbiterRows(menuValue, ctx, view);
  else if (mode === 'restore') rows = [renderLcd(clock)[0], 'RESTORED ok/mode'];
  else if (mode === 'presence') rows = ['Present? +/- ok', PRESENCE_TEXT[ctx.presence.choice]];
  else if (mode === 'result') {
    const confirming = JSON.stringify(menuValue).includes('confirming');
    const mark = (ok: boolean) => (ok ? 'ok' : '--');
    const choice = ctx.result.choice;
    rows = confirming
      ? ['Confirm: levers', `${(choice ?? '').padEnd(7)}W${mark(ctx.result.confirmed.white)} B${mark(ctx.result.confirmed.black)}`]
      : ['Result? +/- ok', choice ?? `-- ${ctx.result.choices.map((r) => (r === '1/2-1/2' ? '=' : r)).join(' or ')}`];
  } else {
    rows = renderLcd(clock, now);
    if (clock.result !== null) rows[1] = clock.result === '--' ? resultText(clock.result) : `Result ${clock.result}`;
  }
  return [fitLcd(rows[0]), fitLcd(rows[1])];
}

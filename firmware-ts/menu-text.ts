// What the LCD shows while a menu is open (docs/firmware.md "Menus"). Pure: the menu
// machine's snapshot and the clock reading in, two 16-character rows out (or null when
// the clock display should show).
import { illegalMovePenaltyMs, other, type TimeControl } from '../protocol/time-control.ts';
import type { ClockReading } from '../rules/clock-core.ts';
import { fitLcd, formatClockTime, LCD_COLS, renderLcd } from '../rules/display-format.ts';
import { ADJUST_STEPS_MS, ARBITER_ITEMS, setupItems, setupTimeControl, shownIncrementMs, type MenuContext } from './menu.machine.ts';
import { describeTimeControlShort } from '../rules/time-control-text.ts';

const SIDE_LETTER = { white: 'W', black: 'B' } as const;
const STEP_TEXT: Record<number, string> = { 60_000: '1m', 10_000: '10s', 1_000: '1s' };

/** The top-level menu state: 'game' | 'setup' | 'arbiter' | 'result'. */
export type MenuMode = 'game' | 'setup' | 'arbiter' | 'result' | 'restore';

export function menuMode(value: unknown): MenuMode {
  const top = typeof value === 'string' ? value : Object.keys(value as object)[0];
  return top as MenuMode;
}

function setupRows(ctx: MenuContext): [string, string] {
  const items = setupItems(ctx.setup);
  const item = items[Math.min(ctx.itemIndex, items.length - 1)];
  switch (item.kind) {
    case 'preset': {
      if (ctx.setup.preset !== 'custom') return ['Control', ctx.setup.preset];
      let detail = '';
      try {
        detail = describeTimeControlShort(setupTimeControl(ctx.setup));
      } catch {
        detail = '?';
      }
      return ['Control: custom', detail];
    }
    case 'stages':
      return ['Custom: stages', String(ctx.setup.custom.length)];
    case 'stage': {
      const s = ctx.setup.custom[item.index];
      const label = { moves: 'moves', minutes: 'minutes', incrementSeconds: 'incr. s' }[item.field];
      return [`Stage ${item.index + 1} ${label}`, String(s[item.field])];
    }
    case 'defaultTime':
      return ['Default time', ctx.setup.defaultTimeMinutes === null ? 'none' : `${ctx.setup.defaultTimeMinutes} min`];
    case 'sound':
      return ['Sound at flag', ctx.setup.sound ? 'on' : 'off'];
  }
}

/**
 * A message in the LCD's ASCII over at most two rows: word-wrapped; what does not fit in 32
 * columns is cut (a long reason keeps its first clause when that fits).
 */
export function wrapLcd(text: string): [string, string] {
  const ascii = text.replace(/≥/g, '>=').replace(/≤/g, '<=').replace(/[^\x20-\x7e]/g, '?');
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

function arbiterRows(ctx: MenuContext, clock: ClockReading, timeControl: TimeControl): [string, string] {
  const item = ARBITER_ITEMS[ctx.itemIndex];
  // A refusal from the clock: its reason, over both rows.
  if (ctx.refusal) return wrapLcd(ctx.refusal);
  let rows: [string, string];
  switch (item.kind) {
    case 'time': {
      const delta = ctx.pending.ms;
      const shown = formatClockTime(Math.max(0, clock[item.side] + delta));
      const sign = delta < 0 ? '-' : '+';
      const step = STEP_TEXT[ADJUST_STEPS_MS[ctx.pending.stepIndex]];
      rows = [`ARB ${SIDE_LETTER[item.side]} time ${step}`, delta === 0 ? shown : `${shown} ${sign}${formatClockTime(Math.abs(delta))}`];
      break;
    }
    case 'moves':
      rows = [`ARB ${SIDE_LETTER[item.side]} moves`, String(ctx.pending.moves ?? clock.moves[item.side])];
      break;
    case 'penalty':
      rows = [
        `ARB illegal ${SIDE_LETTER[item.side]}`,
        `ok:+${formatClockTime(illegalMovePenaltyMs(timeControl))} ${SIDE_LETTER[other(item.side)]}`,
      ];
      break;
    case 'takeback': {
      // FIDE Laws 7.5.1: the last completed move was made by the side not on move.
      const side = other(clock.turn);
      const move = clock.moves[side];
      rows = ['ARB take back', move > 0 ? `ok: annul ${SIDE_LETTER[side]} #${move}` : 'no move to annul'];
      break;
    }
    case 'arrive':
      rows = [`ARB arrive ${SIDE_LETTER[item.side]}`, clock.present[item.side] ? 'present' : 'absent ok:here'];
      break;
    case 'increment': {
      const ms = shownIncrementMs(ctx.pending, clock);
      const now = clock.extraIncrementMs > 0 ? ` now+${clock.extraIncrementMs / 1000}` : '';
      rows = ['ARB quickplay', `${ms === 0 ? 'none' : `+${ms / 1000}s`} ok${now}`];
      break;
    }
    case 'reinstate':
      rows = ['ARB reinstate', clock.status === 'forfeited' ? 'ok: overrule' : 'not forfeited'];
      break;
    case 'result':
      rows = ['ARB result', ctx.result.choice ?? '-- (+/-)'];
      break;
  }
  if (ctx.notice) rows[1] = ctx.notice;
  return rows;
}

/**
 * The two LCD rows for the menu state, or the clock display when no menu is open.
 * `timeControl` is the control the clock is running (for the penalty amount); `now` the
 * instant of the reading (for the default-time countdown). A game with a result (entered
 * at the clock or by the arbiter at the host: `clock.result`) shows it until the next game.
 */
export function screenRows(menuValue: unknown, ctx: MenuContext, clock: ClockReading, timeControl: TimeControl, now: number | null = null): [string, string] {
  const mode = menuMode(menuValue);
  let rows: [string, string];
  if (mode === 'setup') rows = setupRows(ctx);
  else if (mode === 'arbiter') rows = arbiterRows(ctx, clock, timeControl);
  else if (mode === 'restore') rows = [renderLcd(clock)[0], 'RESTORED ok/mode'];
  else if (mode === 'result') {
    const confirming = JSON.stringify(menuValue).includes('confirming');
    const mark = (ok: boolean) => (ok ? 'ok' : '--');
    const choice = ctx.result.choice;
    rows = confirming
      ? ['Confirm: levers', `${(choice ?? '').padEnd(7)}W${mark(ctx.result.confirmed.white)} B${mark(ctx.result.confirmed.black)}`]
      : ['Result? +/- ok', choice ?? `-- ${ctx.result.choices.map((r) => (r === '1/2-1/2' ? '=' : r)).join(' or ')}`];
  } else {
    rows = renderLcd(clock, now);
    if (clock.result !== null) rows[1] = `Result ${clock.result}`;
  }
  return [fitLcd(rows[0]), fitLcd(rows[1])];
}

// What the LCD shows while a menu is open (docs/firmware.md "Menus"). Pure: the menu
// machine's snapshot and the clock reading in, two 16-character rows out (or null when
// the clock display should show).
import { formatTimeControl, illegalMovePenaltyMs, other, type TimeControl } from '../protocol/time-control.ts';
import type { ClockReading } from './clock-core.ts';
import { fitLcd, formatClockTime, renderLcd } from './display-format.ts';
import { ADJUST_STEPS_MS, ARBITER_ITEMS, setupItems, setupTimeControl, type GameResult, type MenuContext } from './menu.machine.ts';

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
      let detail = '';
      try {
        detail = formatTimeControl(setupTimeControl(ctx.setup));
      } catch {
        detail = '?';
      }
      return [`Control ${ctx.setup.preset === 'custom' ? 'custom' : ''}`, ctx.setup.preset === 'custom' ? detail : ctx.setup.preset];
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

function arbiterRows(ctx: MenuContext, clock: ClockReading, timeControl: TimeControl): [string, string] {
  const item = ARBITER_ITEMS[ctx.itemIndex];
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
    case 'period':
      rows = [`ARB ${SIDE_LETTER[item.side]} period`, `P${(ctx.pending.period ?? clock.period[item.side]) + 1}`];
      break;
    case 'penalty':
      rows = [
        `ARB illegal ${SIDE_LETTER[item.side]}`,
        `ok:+${formatClockTime(illegalMovePenaltyMs(timeControl))} ${SIDE_LETTER[other(item.side)]}`,
      ];
      break;
    case 'result':
      rows = ['ARB result', ctx.result.choice];
      break;
  }
  if (ctx.notice) rows[1] = ctx.notice;
  return rows;
}

/**
 * The two LCD rows for the menu state, or the clock display when no menu is open.
 * `timeControl` is the control the clock is running (for the penalty amount);
 * `shownResult` the game's result once entered (at the clock or by the arbiter at the host).
 */
export function screenRows(
  menuValue: unknown,
  ctx: MenuContext,
  clock: ClockReading,
  timeControl: TimeControl,
  shownResult: GameResult | null = null,
): [string, string] {
  const mode = menuMode(menuValue);
  let rows: [string, string];
  if (mode === 'setup') rows = setupRows(ctx);
  else if (mode === 'arbiter') rows = arbiterRows(ctx, clock, timeControl);
  else if (mode === 'restore') rows = [renderLcd(clock)[0], 'RESTORED ok/mode'];
  else if (mode === 'result') {
    const confirming = JSON.stringify(menuValue).includes('confirming');
    const mark = (ok: boolean) => (ok ? 'ok' : '--');
    rows = confirming
      ? ['Confirm: levers', `${ctx.result.choice.padEnd(7)}W${mark(ctx.result.confirmed.white)} B${mark(ctx.result.confirmed.black)}`]
      : ['Result? +/- ok', ctx.result.choice];
  } else {
    rows = renderLcd(clock);
    if (shownResult && clock.status !== 'running') rows[1] = `Result ${shownResult}`;
  }
  return [fitLcd(rows[0]), fitLcd(rows[1])];
}

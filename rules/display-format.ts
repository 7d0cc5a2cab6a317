// What the clock shows: pure functions from remaining milliseconds and the clock's
// reading to display text. No I/O, no clock reads: the display adapter repaints with
// `readClock(state, now)` and these functions (docs/architecture.md rule 3: refreshes only repaint).
//
// Rounding rule: the display rounds remaining time UP to the shown unit.
// FIDE Standards of Chess Equipment, electronic clocks (b): "the display at all times
// should show the time available to complete a player's next move". A player with
// 0.4 s left still has time: truncating would show 0.0 (or 0:00) while the flag has
// not fallen, and a player or arbiter reading the display would call a flag that did
// not happen. Rounding up, the display reaches zero exactly at the flag instant, which
// is also how DGT clocks behave (0:00 appears together with the flag symbol).
// Consequence: 3 599 001 ms still shows 1:00:00; 3 599 000 ms shows 59:59.
//
// Units (FIDE equipment practice; docs/firmware.md "Display"): h:mm:ss at one hour or more, m:ss below,
// seconds with tenths below 20 s. Each unit is used while its rounded-up value is in
// its range, so 19 901-20 000 ms shows 0:20 and 19 900 ms shows 19.9 (never "20.0").
import type { Side } from '../protocol/time-control.ts';
import type { ClockReading } from './clock-state.ts';

export type { ClockReading };

const SECOND = 1000;
const TENTH = 100;
const MINUTE = 60 * SECOND;
/** Below 20 s the display shows tenths. */
const TENTHS_BELOW_TENTHS = 200;
/** From 10 h the LCD field (7 characters) cannot hold h:mm:ss; it shows `10h00` (minutes, rounded up). */
const LONG_SECONDS = 10 * 3600;

const ceilDiv = (ms: number, unit: number) => Math.ceil(ms / unit);
const two = (n: number) => String(n).padStart(2, '0');

type Unit = 'hm' | 'hms' | 'ms' | 'tenths';

function unitOf(remainingMs: number): Unit {
  const seconds = ceilDiv(remainingMs, SECOND);
  if (seconds >= LONG_SECONDS) return 'hm';
  if (seconds >= 3600) return 'hms';
  if (ceilDiv(remainingMs, TENTH) >= TENTHS_BELOW_TENTHS) return 'ms';
  return 'tenths';
}

/**
 * Remaining time as the LCD shows it (at most 7 characters):
 * `1:30:30`, `59:59`, `0:20`, `19.9`, `0.1`, `0.0` (only at zero), `10h00` from 10 h.
 */
export function formatClockTime(remainingMs: number): string {
  const ms = Math.max(0, remainingMs);
  switch (unitOf(ms)) {
    case 'hm': {
      const minutes = ceilDiv(ms, MINUTE);
      return `${Math.floor(minutes / 60)}h${two(minutes % 60)}`;
    }
    case 'hms': {
      const s = ceilDiv(ms, SECOND);
      return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
    }
    case 'ms': {
      const s = ceilDiv(ms, SECOND);
      return `${Math.floor(s / 60)}:${two(s % 60)}`;
    }
    case 'tenths': {
      const t = ceilDiv(ms, TENTH);
      return `${Math.floor(t / 10)}.${t % 10}`;
    }
  }
}

/**
 * Remaining time as a PGN clock comment writes it (`[%clk h:mm:ss]`, the PGN supplement's
 * format, whole seconds), with the display's rounding rule above: rounded UP, so the PGN
 * shows what the clock showed after the move and reads 0:00:00 only at a flag.
 */
export function formatPgnClock(remainingMs: number): string {
  const s = ceilDiv(Math.max(0, remainingMs), SECOND);
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/**
 * A broadcast's time (`[%clk]`, `[%emt]`, `WhiteClock`/`BlackClock`): `formatPgnClock`, with tenths
 * under a minute (`0:00:59.9`, the `H:MM:SS.f` form lichess and chessops read), rounded up as
 * the display is (a time rounds to a minute, `0:01:00`, from 59 901 ms).
 */
export function formatPgnClockTenths(ms: number): string {
  const tenths = ceilDiv(Math.max(0, ms), TENTH);
  if (tenths >= MINUTE / TENTH) return formatPgnClock(ms);
  return `0:00:${two(Math.floor(tenths / 10))}.${tenths % 10}`;
}

/**
 * Milliseconds until `formatClockTime` changes for a clock counting down from
 * `remainingMs` (Infinity at zero). The display adapter sleeps exactly this long
 * between repaints, so a running clock repaints once per shown unit and never drifts:
 * every repaint recomputes the time from the clock state.
 */
export function msUntilDisplayChange(remainingMs: number): number {
  if (remainingMs <= 0) return Infinity;
  const unit = unitOf(remainingMs);
  let boundary: number; // the largest remaining time below `remainingMs` that shows differently
  if (unit === 'hm') {
    boundary = Math.max((ceilDiv(remainingMs, MINUTE) - 1) * MINUTE, (LONG_SECONDS - 1) * SECOND);
  } else if (unit === 'tenths') {
    boundary = (ceilDiv(remainingMs, TENTH) - 1) * TENTH;
  } else {
    boundary = (ceilDiv(remainingMs, SECOND) - 1) * SECOND;
    // 0:20 → 19.9 happens at 19 900 ms, before the 19 000 ms second boundary.
    if (boundary < TENTHS_BELOW_TENTHS * TENTH) boundary = (TENTHS_BELOW_TENTHS - 1) * TENTH;
  }
  return remainingMs - boundary;
}

export const LCD_COLS = 16;
/** Width of one side's time field on the LCD. */
const TIME_COLS = 7;

/**
 * The mark beside a side's time (docs/firmware.md "Display"), most important first:
 * `F` this side's flag fell first (FIDE equipment standard (e); kept for the rest of the
 * game, also after the arbiter adjusts and resumes), `X` lost by default (forfeit on
 * lateness, Laws 6.7.1), `*` this clock runs, `?` not arrived yet (a default time runs).
 */
export function sideMark(view: ClockReading, side: Side): string {
  if (view.flag === side) return 'F';
  if (view.forfeited[side]) return 'X';
  if (view.status === 'running' && view.turn === side) return '*';
  if (!view.present[side]) return '?';
  return ' ';
}

const STATUS_TEXT: Record<ClockReading['status'], string> = {
  ready: 'REDY',
  running: '    ',
  paused: 'PAUS',
  flagged: 'FLAG',
  forfeited: 'DEFT',
};

/** One side's 5-column field on row 1: completed moves, then the illegal-move count if any, else the period. */
function moveField(view: ClockReading, side: Side): string {
  // `#40P2` = 40 completed moves, next move in period 2. The period follows from the count
  // (FIDE Laws 6.10.2), so an illegal-move count takes its place when there is one:
  // `#12!1` = 12 moves, one illegal move recorded (a take-back or a penalty, Laws 7.5; the
  // second loses, 7.5.5). From 100 moves the `#` is dropped.
  const moves = view.moves[side];
  const count = moves >= 100 ? String(moves) : `#${moves}`;
  const illegal = view.illegalMoves[side];
  const suffix = illegal > 0 ? `!${Math.min(illegal, 9)}` : `P${view.period[side] + 1}`;
  return `${count.padEnd(3)}${suffix}`.slice(0, 6);
}

/**
 * FIDE Laws 6.7.1: the default time still to run, `DT 14:32`, while a side is absent and the
 * clock stands started; null otherwise (or when `now` is not known).
 */
export function defaultTimeText(view: ClockReading, now: number | null): string | null {
  if (view.forfeitAt === null || now === null) return null;
  return `DT ${formatClockTime(view.forfeitAt - now)}`;
}

/**
 * The 16×2 LCD text (docs/firmware.md "16×2 layout"):
 *
 *     col 0......6 7 8 9.....15
 *     row 0  WWWWWWW m m BBBBBBB    White's time right-aligned, marks, Black's time left-aligned
 *     row 1  #mmPp SSSS #mmPp       moves + period (or !illegal count) per side, status in the middle
 *     row 1  #m  DT 14:32    ?      while a side is absent and the default time runs: its countdown
 *
 * `now` (the instant the reading was taken) is needed for the default-time countdown.
 */
export function renderLcd(view: ClockReading, now: number | null = null): [string, string] {
  const white = formatClockTime(view.white).padStart(TIME_COLS);
  const black = formatClockTime(view.black).padEnd(TIME_COLS);
  const row0 = `${white}${sideMark(view, 'white')}${sideMark(view, 'black')}${black}`;
  const dt = defaultTimeText(view, now);
  let row1: string;
  if (dt !== null) {
    // Moves only (an absent side shows `?`), the countdown centred in the 10 middle columns.
    const field = (side: Side) => (view.present[side] ? `#${view.moves[side]}` : '?');
    const mid = 10;
    const left = Math.floor((mid - dt.length) / 2);
    row1 = `${field('white').padEnd(3)}${' '.repeat(Math.max(0, left))}${dt}`.padEnd(3 + mid) + field('black').padStart(3);
  } else {
    row1 = `${moveField(view, 'white').padEnd(5)} ${STATUS_TEXT[view.status]} ${moveField(view, 'black').padStart(5)}`;
  }
  return [fitLcd(row0), fitLcd(row1)];
}

/** Pads or cuts a line to exactly the LCD width. */
export function fitLcd(line: string): string {
  return line.length >= LCD_COLS ? line.slice(0, LCD_COLS) : line.padEnd(LCD_COLS);
}

/**
 * One side's text for a 4-digit 7-segment display with a centre colon (HT16K33
 * backpack), in the five-slot form `Led.Digits#print` takes: digit, digit, colon slot,
 * digit, digit. Same rounding rule; from one hour `h:mm` (minutes rounded up), below
 * one hour `mm:ss`, below 20 s `ss.t`. The flagged side shows `FLAG` (FIDE equipment
 * standard (e)); a side lost by default shows `LATE`.
 */
export function renderDigits(view: ClockReading, side: Side): string {
  if (view.flag === side) return 'FL AG';
  if (view.forfeited[side]) return 'LA TE';
  const ms = Math.max(0, view[side]);
  const unit = unitOf(ms);
  if (unit === 'hm' || unit === 'hms') {
    const minutes = ceilDiv(ms, MINUTE);
    const h = Math.floor(minutes / 60);
    return `${String(h).padStart(2)}:${two(minutes % 60)}`.slice(-5);
  }
  if (unit === 'ms') {
    const s = ceilDiv(ms, SECOND);
    return `${String(Math.floor(s / 60)).padStart(2)}:${two(s % 60)}`;
  }
  // Tenths: the decimal point sits on the third digit, e.g. ` 1 9.9` = "19.9".
  const t = ceilDiv(ms, TENTH);
  const seconds = String(Math.floor(t / 10)).padStart(3);
  return `${seconds[0]}${seconds[1]} ${seconds[2]}.${t % 10}`;
}

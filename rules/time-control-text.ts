// A time control in words, for people (the terminal clock's title, the setup menu, help
// texts). Pure. The wire and export forms (`40/5400+30:900+30`, `W360-B300`) stay
// protocol/time-control.ts's formatTimeControl; this is the one place that says them in words.
import type { SideControl, Stage, TimeControl } from '../protocol/time-control.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** `90 min`, `30 s`, `1 min 30 s`. */
function duration(ms: number): string {
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  if (ms < MINUTE) return `${ms / SECOND} s`;
  return `${Math.floor(ms / MINUTE)} min ${(ms % MINUTE) / SECOND} s`;
}

function delayText(stage: Stage): string {
  if (stage.delayMs === 0) return '';
  return stage.delayMode === 'bronstein' ? `Bronstein delay ${stage.delayMs / SECOND} s` : `delay ${stage.delayMs / SECOND} s`;
}

/** One side's control in words: `90 min/40 moves + 15 min, +30 s from move 1`, `60 min sudden death`. */
export function describeSideControl(side: SideControl): string {
  if (side.kind === 'sandclock') return `sandclock ${duration(side.stages[0].baseMs)}`;
  const stages = side.stages;
  const sameIncrement = stages.every((s) => s.incrementMs === stages[0].incrementMs);
  const sameDelay = stages.every((s) => s.delayMs === stages[0].delayMs && s.delayMode === stages[0].delayMode);
  const parts = stages.map((s) => {
    let text = s.moves === null ? duration(s.baseMs) : `${duration(s.baseMs)}/${s.moves} moves`;
    if (!sameIncrement && s.incrementMs > 0) text += ` (+${s.incrementMs / SECOND} s)`;
    if (!sameDelay && s.delayMs > 0) text += ` (${delayText(s)})`;
    return text;
  });
  let text = parts.join(' + ');
  const first = stages[0];
  const extras: string[] = [];
  if (sameIncrement && first.incrementMs > 0) extras.push(`+${first.incrementMs / SECOND} s from move 1`);
  if (sameDelay && first.delayMs > 0) extras.push(delayText(first));
  if (extras.length > 0) text += `, ${extras.join(', ')}`;
  // No increment and no delay in the last stage: the game ends in sudden death.
  const last = stages[stages.length - 1];
  if (stages.length === 1 && extras.length === 0 && last.incrementMs === 0 && last.delayMs === 0) text += ' sudden death';
  return text;
}

/**
 * The whole control in words, e.g. `90 min/40 moves + 15 min, +30 s from move 1`,
 * `60 min sudden death`, `White 6 min, Black 5 min (draw = Black wins)`; with a default
 * time `…; default time 15 min` (FIDE Laws 6.7.1). Unequal single-period sudden-death
 * controls with more time for White are armageddon: a draw counts as a Black win.
 */
export function describeTimeControl(tc: TimeControl): string {
  let text: string;
  if (JSON.stringify(tc.white) === JSON.stringify(tc.black)) text = describeSideControl(tc.white);
  else {
    const w = describeSideControl(tc.white).replace(/ sudden death$/, '');
    const b = describeSideControl(tc.black).replace(/ sudden death$/, '');
    text = `White ${w}, Black ${b}`;
    if (isArmageddon(tc)) text += ' (draw = Black wins)';
  }
  if (tc.defaultTimeMs !== null) text += `; default time ${duration(tc.defaultTimeMs)}`;
  return text;
}

function isArmageddon(tc: TimeControl): boolean {
  const single = (s: SideControl) => s.kind === 'stages' && s.stages.length === 1 && s.stages[0].moves === null;
  return single(tc.white) && single(tc.black) && tc.white.stages[0].baseMs > tc.black.stages[0].baseMs;
}

/** `90m`, `30s`: a short duration for the 16-column LCD. */
function shortDuration(ms: number): string {
  return ms % MINUTE === 0 ? `${ms / MINUTE}m` : `${ms / SECOND}s`;
}

function shortSide(side: SideControl): string {
  if (side.kind === 'sandclock') return `sand ${shortDuration(side.stages[0].baseMs)}`;
  const stages = side.stages;
  let text = stages.map((s) => (s.moves === null ? shortDuration(s.baseMs) : `${shortDuration(s.baseMs)}/${s.moves}`)).join('+');
  const inc = stages[0].incrementMs;
  if (inc > 0) text += ` +${inc / SECOND}s`;
  if (stages[0].delayMs > 0) text += ` d${stages[0].delayMs / SECOND}s`;
  return text;
}

/**
 * The control in at most `width` characters (the LCD's 16 by default): `90m/40+15m +30s`,
 * `60m sudden death`, `15m +10s`, `W 6m  B 5m`.
 */
export function describeTimeControlShort(tc: TimeControl, width = 16): string {
  let text: string;
  if (JSON.stringify(tc.white) === JSON.stringify(tc.black)) {
    text = shortSide(tc.white);
    const s = tc.white.stages;
    if (tc.white.kind === 'stages' && s.length === 1 && s[0].incrementMs === 0 && s[0].delayMs === 0) {
      text = `${text} sudden death`.length <= width ? `${text} sudden death` : `${text} SD`;
    }
  } else text = `W ${shortSide(tc.white)}  B ${shortSide(tc.black)}`;
  return text.length <= width ? text : text.slice(0, width);
}

// A game's time chart: both sides' remaining time per move, drawn as SVG from the game's
// journaled clock events (docs/dashboard.md "Time chart"). Pure: events in, a model and an SVG
// string out, so the host serves it (GET /api/boards/:id/chart.svg) and the browser can draw
// the same picture from the same module.
//
// Nothing here is a second clock rule (docs/architecture.md, "The rule book"):
//  - the points are the journal's figures read as the PGN export reads `%clk`
//    (press-clocks.ts pressClocks: the mover's remaining time after each press, a move played
//    again after a take-back overwriting the earlier figure), and the start's figures;
//  - where a marker stands (moves completed, which period was credited) is the statechart's
//    own state, the game rebuilt event by event (rebuild.ts GameRebuilder), which also checks
//    every journaled time against the statechart and reports the events it does not reproduce.
//
// The x axis is the move number, not elapsed time: an arbiter checks a time control by moves
// (FIDE Laws 6.10.2: the move-40 control), compares the chart with the scoresheet by move,
// and a pause or an adjournment would stretch a time axis without a move being played.
import type { Side, TimeControl } from '../protocol/time-control.ts';
import { readClock } from './clock-reading.ts';
import type { ClockState } from './clock-state.ts';
import { periodEnd } from './periods.ts';
import { formatPgnClock } from './display-format.ts';
import { pressClocks } from './press-clocks.ts';
import { GameRebuilder, type JournaledClockEvent, type RebuildMismatch } from './rebuild.ts';
import { SIDE_NAME, SIDES, other } from './vocabulary.ts';

/** What a marker on the chart records. */
export type ChartMarkerKind = 'flag' | 'forfeit' | 'penalty' | 'adjustment' | 'takeback' | 'moves-set' | 'period-bonus';

/** A marker's letter on the chart (meaning never by colour alone) and its legend words. */
export const MARKER_LEGEND: Readonly<Record<ChartMarkerKind, { letter: string; words: string }>> = {
  flag: { letter: 'F', words: 'flag fell (FIDE Laws 6.9)' },
  forfeit: { letter: 'D', words: 'lost by default (FIDE Laws 6.7.1)' },
  penalty: { letter: 'P', words: 'penalty: time to the opponent of an illegal move (FIDE Laws 7.5.5)' },
  adjustment: { letter: 'A', words: "arbiter's time adjustment" },
  takeback: { letter: 'T', words: 'move taken back (FIDE Laws 7.5.1)' },
  'moves-set': { letter: 'M', words: 'move counter corrected (FIDE Laws 6.10.2)' },
  'period-bonus': { letter: 'B', words: "next period's time added (FIDE Laws 6.10.2)" },
};

export interface ChartPoint {
  /** Moves the side had completed (0: the start). */
  readonly move: number;
  /** The side's remaining time then, ms, as journaled. */
  readonly ms: number;
}

export interface ChartMarker {
  readonly kind: ChartMarkerKind;
  /** The side it concerns (an adjustment's or a bonus's side; a penalty's credited side; whose flag fell). */
  readonly side: Side;
  /** Moves the side had completed at the event (the statechart's count). */
  readonly move: number;
  /** Where it stands on the move axis: on the press for a bonus, between two presses otherwise. */
  readonly x: number;
  /** The side's remaining time after the event, ms, as journaled (0 for a flag). */
  readonly ms: number;
  /** Time added (positive) or taken (negative), ms, where the event says. */
  readonly deltaMs: number | null;
  /** What happened, in words. */
  readonly text: string;
  /** The event's index in the list given. */
  readonly index: number;
}

export interface TimeChart {
  readonly points: Readonly<Record<Side, readonly ChartPoint[]>>;
  readonly markers: readonly ChartMarker[];
  /** Events the statechart does not reproduce (rebuild.ts): shown in the chart's description. */
  readonly mismatches: readonly RebuildMismatch[];
  /** The first period's last move of each side (classical 90/40: 40), null without one. */
  readonly periodEnds: Readonly<Record<Side, number | null>>;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** `+15:00`, `-1:00`, `+2:00`: a change of time as an arbiter says it. */
export function formatDelta(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = Math.floor((abs % 60_000) / 1000);
  const rest = abs % 1000 ? `.${String(abs % 1000).padStart(3, '0')}` : '';
  const mmss = `${h > 0 ? `${h}:${String(m).padStart(2, '0')}` : m}:${String(s).padStart(2, '0')}${rest}`;
  return `${sign}${mmss}`;
}

/** The base time of the periods after `from` up to `to` in the control (what a bonus marker names). */
function periodsBaseMs(tc: TimeControl, side: Side, from: number, to: number): number {
  const stages = tc[side].stages;
  let total = 0;
  for (let p = from + 1; p <= to; p++) total += stages[Math.min(p, stages.length - 1)].baseMs;
  return total;
}

const msOf = (e: JournaledClockEvent, side: Side) => (side === 'white' ? e.whiteMs : e.blackMs);

/** Both sides' points: the start's figures, then the mover's remaining time after each press (read as the PGN export reads `%clk`). */
function chartPoints(events: readonly JournaledClockEvent[]): Record<Side, ChartPoint[]> {
  const points: Record<Side, ChartPoint[]> = { white: [], black: [] };
  const started = events.find((e) => e.type === 'started');
  if (started) for (const side of SIDES) points[side].push({ move: 0, ms: msOf(started, side) });
  const pressed = [...pressClocks(events)].map(([key, ms]) => {
    const [side, move] = key.split(':');
    return { side: side as Side, move: Number(move), ms };
  });
  for (const p of pressed.sort((a, b) => a.move - b.move)) points[p.side].push({ move: p.move, ms: p.ms });
  return points;
}

/** Puts a marker on the chart: on the side's press, or between two presses. */
type Mark = (kind: ChartMarkerKind, side: Side, onPress: boolean, ms: number, deltaMs: number | null, text: string) => void;

/** The marker an event itself stands for (a flag, a default, a penalty or adjustment, a take-back, a move counter set), if any. */
function markEvent(e: JournaledClockEvent, before: ClockState, after: ClockState, mark: Mark): void {
  const side = e.side;
  const name = side ? SIDE_NAME[side] : '';
  switch (e.type) {
    case 'flag':
      if (side) mark('flag', side, false, 0, null, `${name}'s flag fell during move ${after[side].moves + 1} (FIDE Laws 6.9)`);
      break;
    case 'forfeit':
      if (side) mark('forfeit', side, false, msOf(e, side), null, `${name} lost by default: absent at the default time (FIDE Laws 6.7.1)`);
      break;
    case 'adjusted': {
      if (!side) break;
      const ms = num(e.detail?.ms);
      if (e.detail?.reason === 'penalty') {
        // FIDE Laws 7.5.5: the event names the credited side; the illegal move was the other's.
        mark(
          'penalty',
          side,
          false,
          msOf(e, side),
          ms,
          `${ms === null ? 'time' : formatDelta(ms)} to ${name}: ${SIDE_NAME[other(side)]}'s illegal move (FIDE Laws 7.5.5)`,
        );
      } else {
        mark('adjustment', side, false, msOf(e, side), ms, `${ms === null ? 'time changed' : formatDelta(ms)} for ${name} by the arbiter`);
      }
      break;
    }
    case 'taken-back': {
      // The side that made the annulled move is on move again (FIDE Laws 7.5.1).
      const back = side ?? after.turn;
      mark('takeback', back, false, msOf(e, back), null, `${SIDE_NAME[back]}'s move ${before[back].moves} taken back (FIDE Laws 7.5.1)`);
      break;
    }
    case 'moves-set':
      if (side)
        mark('moves-set', side, true, msOf(e, side), null, `${name}'s move counter set from ${before[side].moves} to ${after[side].moves} (FIDE Laws 6.10.2)`);
      break;
  }
}

/** FIDE Laws 6.10.2: a bonus marker for each side the event credited the next period's time, once, when the statechart says so. */
function markPeriodBonuses(timeControl: TimeControl, e: JournaledClockEvent, before: ClockState, after: ClockState, atMs: number, mark: Mark): void {
  for (const s of SIDES) {
    if (after[s].creditedPeriod <= before[s].creditedPeriod) continue;
    const bonus = periodsBaseMs(timeControl, s, before[s].creditedPeriod, after[s].creditedPeriod);
    const by = e.type === 'moved' ? `after move ${after[s].moves}` : 'by the move-counter correction';
    mark(
      'period-bonus',
      s,
      true,
      readClock(after, atMs)[s],
      bonus,
      `${formatDelta(bonus)} for ${SIDE_NAME[s]}: period ${after[s].creditedPeriod + 1} begins ${by} (FIDE Laws 6.10.2)`,
    );
  }
}

/** The chart of a game with control `timeControl` from its journaled events, in journal order. */
export function timeChartOf(timeControl: TimeControl, events: readonly JournaledClockEvent[]): TimeChart {
  const points = chartPoints(events);
  const markers: ChartMarker[] = [];
  const rebuilder = new GameRebuilder(timeControl);
  try {
    events.forEach((e, index) => {
      const before: ClockState = rebuilder.state;
      rebuilder.feed(e, index);
      const after: ClockState = rebuilder.state;
      const mark: Mark = (kind, side, onPress, ms, deltaMs, text) => {
        const move = after[side].moves;
        markers.push({ kind, side, move, x: onPress ? move : move + 0.5, ms, deltaMs, text, index });
      };
      markEvent(e, before, after, mark);
      markPeriodBonuses(timeControl, e, before, after, rebuilder.at, mark);
    });
    return {
      points,
      markers,
      mismatches: [...rebuilder.mismatches],
      periodEnds: { white: periodEnd(timeControl, 'white', 0), black: periodEnd(timeControl, 'black', 0) },
    };
  } finally {
    rebuilder.stop();
  }
}

/** XML text and attribute escaping (XML 1.0 §2.4, §2.3): `&`, `<`, `>`, `"`, `'`. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export type ChartSize = 'small' | 'full';

export interface ChartSvgOptions {
  readonly size: ChartSize;
  readonly white: string;
  readonly black: string;
  /** A line above the chart, e.g. `Round 3, board 1`. */
  readonly caption?: string;
}

/** The drawing's geometry per size: the whole picture and the plot inside it. */
const GEOMETRY: Record<ChartSize, { width: number; height: number; left: number; top: number; right: number; bottom: number }> = {
  small: { width: 160, height: 40, left: 2, top: 3, right: 2, bottom: 3 },
  full: { width: 720, height: 360, left: 70, top: 44, right: 20, bottom: 84 },
};

/** How each side's line is drawn: White solid, Black dashed (never colour alone). */
const LINE: Record<Side, { stroke: string; dash: string | null; words: string }> = {
  white: { stroke: '#1d4f91', dash: null, words: 'solid line' },
  black: { stroke: '#a33b00', dash: '6 4', words: 'dashed line' },
};

/** Tick steps for the time axis: a clock's natural units. */
const MS_STEPS = [1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000];

const r1 = (v: number) => Math.round(v * 10) / 10;

/** Where the drawing puts things: the picture, the plot inside it, and the scales of both axes. */
interface ChartPlot {
  readonly full: boolean;
  readonly g: { readonly width: number; readonly height: number; readonly left: number; readonly top: number; readonly right: number; readonly bottom: number };
  readonly plotW: number;
  readonly plotH: number;
  readonly xMax: number;
  readonly msMax: number;
  readonly X: (move: number) => number;
  readonly Y: (ms: number) => number;
  readonly names: Record<Side, string>;
}

/** The plot of `chart` at `opts.size`; the full chart's legend names each of `kinds` on a line of its own, below the plot. */
function chartPlot(chart: TimeChart, opts: ChartSvgOptions, kinds: readonly ChartMarkerKind[]): ChartPlot {
  const full = opts.size === 'full';
  const base = GEOMETRY[opts.size];
  const legendRows = full ? kinds.length : 0;
  const g = { ...base, height: base.height + 16 * legendRows, bottom: base.bottom + 16 * legendRows };
  const plotW = g.width - g.left - g.right;
  const plotH = g.height - g.top - g.bottom;
  const all = [...chart.points.white, ...chart.points.black];
  const xMax = Math.max(1, ...all.map((p) => p.move), ...chart.markers.map((m) => Math.ceil(m.x)));
  const msMax = Math.max(1_000, ...all.map((p) => p.ms), ...chart.markers.map((m) => m.ms));
  const X = (move: number) => r1(g.left + (move / xMax) * plotW);
  const Y = (ms: number) => r1(g.top + (1 - ms / msMax) * plotH);
  return { full, g, plotW, plotH, xMax, msMax, X, Y, names: { white: opts.white, black: opts.black } };
}

/** The chart in words (`<desc>`): what it shows, each side's last figure, every marker, and any mismatch. */
function chartDescription(chart: TimeChart, names: Record<Side, string>): string {
  const summary = SIDES.map((s) => {
    const last = chart.points[s].at(-1);
    return last
      ? `${SIDE_NAME[s]} (${names[s]}, ${LINE[s].words}): ${formatPgnClock(last.ms)} left after move ${last.move}`
      : `${SIDE_NAME[s]} (${names[s]}): no move yet`;
  });
  return [
    `Remaining time of each side after each of its moves, from the clock's journal; x: move number, y: time left`,
    ...summary,
    ...chart.markers.map((m) => `${MARKER_LEGEND[m.kind].letter}: ${m.text}`),
    ...(chart.mismatches.length > 0
      ? [
          `${chart.mismatches.length} journaled event(s) differ from the clock's rules (first: event ${chart.mismatches[0].index}, ${chart.mismatches[0].reason})`,
        ]
      : []),
  ].join('. ');
}

/** The full chart's frame: the caption, both axes with ticks, and the first period's control where the game reached it. */
function chartFrame(chart: TimeChart, opts: ChartSvgOptions, p: ChartPlot): string[] {
  const { g, plotW, plotH, xMax, msMax, X, Y } = p;
  const e = escapeXml;
  const out: string[] = [];
  out.push(
    `<text x="${g.left}" y="18" font-size="14" font-weight="bold" fill="#000">${e(opts.caption ? `${opts.caption}: ${opts.white} – ${opts.black}` : `${opts.white} – ${opts.black}`)}</text>`,
  );
  // Axes with ticks: time on the left, moves below.
  const msStep = MS_STEPS.find((s) => msMax / s <= 6) ?? 3_600_000 * Math.ceil(msMax / 6 / 3_600_000);
  out.push(`<g data-axis="time" font-size="11" fill="#000" stroke="none">`);
  for (let ms = 0; ms <= msMax; ms += msStep) {
    out.push(
      `<line x1="${g.left}" x2="${g.left + plotW}" y1="${Y(ms)}" y2="${Y(ms)}" stroke="#dddddd" stroke-width="1"/><text x="${g.left - 6}" y="${Y(ms) + 4}" text-anchor="end">${e(formatPgnClock(ms))}</text>`,
    );
  }
  out.push(`<text x="14" y="${g.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${g.top + plotH / 2})">time left (h:mm:ss)</text></g>`);
  const moveStep = [1, 2, 5, 10, 20, 50, 100].find((s) => xMax / s <= 12) ?? 200;
  out.push(`<g data-axis="moves" font-size="11" fill="#000">`);
  for (let m = 0; m <= xMax; m += moveStep)
    out.push(
      `<line x1="${X(m)}" x2="${X(m)}" y1="${g.top + plotH}" y2="${g.top + plotH + 4}" stroke="#000"/><text x="${X(m)}" y="${g.top + plotH + 16}" text-anchor="middle">${m}</text>`,
    );
  out.push(`<text x="${g.left + plotW / 2}" y="${g.top + plotH + 32}" text-anchor="middle">move</text></g>`);
  out.push(`<rect x="${g.left}" y="${g.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#000" stroke-width="1"/>`);
  // The first period's control (classical: move 40), where the game reached it.
  const ends = [...new Set(SIDES.map((s) => chart.periodEnds[s]).filter((n): n is number => n !== null && n <= xMax))];
  for (const n of ends) {
    // The label on the side of the line with room for it.
    const right = X(n) < g.left + plotW - 140;
    out.push(
      `<g data-period-end="${n}"><line x1="${X(n)}" x2="${X(n)}" y1="${g.top}" y2="${g.top + plotH}" stroke="#777" stroke-dasharray="2 3"/><text x="${right ? X(n) + 4 : X(n) - 4}" y="${g.top + 12}" font-size="11" fill="#333" text-anchor="${right ? 'start' : 'end'}">time control: move ${n}</text></g>`,
    );
  }
  return out;
}

/** Each side's line, carrying its figures in `data-moves` and `data-ms`. */
function sideLines(chart: TimeChart, p: ChartPlot): string[] {
  const out: string[] = [];
  for (const side of SIDES) {
    const pts = chart.points[side];
    if (pts.length === 0) continue;
    const line = LINE[side];
    out.push(
      `<polyline data-side="${side}" data-moves="${pts.map((q) => q.move).join(' ')}" data-ms="${pts.map((q) => q.ms).join(' ')}" points="${pts.map((q) => `${p.X(q.move)},${p.Y(q.ms)}`).join(' ')}" fill="none" stroke="${line.stroke}" stroke-width="${p.full ? 2 : 1.5}"${line.dash ? ` stroke-dasharray="${p.full ? line.dash : '3 2'}"` : ''}><title>${escapeXml(`${SIDE_NAME[side]}: ${p.names[side]}`)}</title></polyline>`,
    );
  }
  return out;
}

/** The markers: markers at the same move are stacked upwards, each joined to its point by a thin line. */
function markerGlyphs(chart: TimeChart, p: ChartPlot): string[] {
  const e = escapeXml;
  const out: string[] = [];
  const stacked = new Map<number, number>();
  for (const m of chart.markers) {
    const { letter } = MARKER_LEGEND[m.kind];
    const cx = p.X(m.x);
    const at = p.Y(m.ms);
    const k = stacked.get(cx) ?? 0;
    stacked.set(cx, k + 1);
    const cy = p.full ? r1(Math.max(p.g.top + 9, at - 20 * k)) : at;
    const attrs = `data-kind="${m.kind}" data-side="${m.side}" data-move="${m.move}" data-ms="${m.ms}"${m.deltaMs !== null ? ` data-delta-ms="${m.deltaMs}"` : ''}`;
    if (p.full) {
      out.push(
        `<g ${attrs}><title>${e(m.text)}</title>${cy !== at ? `<line x1="${cx}" x2="${cx}" y1="${at}" y2="${cy}" stroke="#000" stroke-width="0.75"/>` : ''}<circle cx="${cx}" cy="${cy}" r="8" fill="#ffffff" stroke="${LINE[m.side].stroke}" stroke-width="1.5"${LINE[m.side].dash ? ' stroke-dasharray="3 2"' : ''}/><text x="${cx}" y="${cy + 4}" font-size="11" font-weight="bold" text-anchor="middle" fill="#000">${letter}</text></g>`,
      );
    } else {
      out.push(`<g ${attrs}><title>${e(m.text)}</title><circle cx="${cx}" cy="${cy}" r="2.5" fill="#000"/></g>`);
    }
  }
  return out;
}

/** The full chart's legend: lines by pattern and name, markers by letter. */
function chartLegend(p: ChartPlot, kinds: readonly ChartMarkerKind[]): string[] {
  const e = escapeXml;
  const y0 = p.g.top + p.plotH + 50; // below the move axis
  const out: string[] = [];
  out.push(`<g data-legend="" font-size="11" fill="#000">`);
  SIDES.forEach((s, i) => {
    const x = p.g.left + i * 300;
    out.push(
      `<line x1="${x}" x2="${x + 28}" y1="${y0 - 4}" y2="${y0 - 4}" stroke="${LINE[s].stroke}" stroke-width="2"${LINE[s].dash ? ` stroke-dasharray="${LINE[s].dash}"` : ''}/><text x="${x + 34}" y="${y0}">${e(`${SIDE_NAME[s]}: ${p.names[s]} (${LINE[s].words})`)}</text>`,
    );
  });
  kinds.forEach((k, i) =>
    out.push(`<text x="${p.g.left}" y="${y0 + 18 + 16 * i}"><tspan font-weight="bold">${MARKER_LEGEND[k].letter}</tspan> ${e(MARKER_LEGEND[k].words)}</text>`),
  );
  out.push(`</g>`);
  return out;
}

/**
 * The chart as an SVG document: `<title>` and `<desc>` (what it shows, in words, with every
 * marker), a text label on every marker, White solid and Black dashed, each line carrying its
 * figures in `data-moves` and `data-ms`. Only presentation attributes, no style element or
 * attribute: served as an image it needs nothing the dashboard's CSP forbids.
 */
export function timeChartSvg(chart: TimeChart, opts: ChartSvgOptions): string {
  const kinds = [...new Set(chart.markers.map((m) => m.kind))];
  const p = chartPlot(chart, opts, kinds);
  const { full, g, plotW, plotH, xMax, msMax } = p;
  const e = escapeXml;
  const title = `Time chart: ${opts.white} (White) – ${opts.black} (Black)`;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.width}" height="${g.height}" viewBox="0 0 ${g.width} ${g.height}" role="img" aria-labelledby="chart-title chart-desc" font-family="DejaVu Sans, Arial, sans-serif" data-size="${opts.size}" data-plot="${g.left} ${g.top} ${plotW} ${plotH}" data-x-max="${xMax}" data-ms-max="${msMax}">`,
    `<title id="chart-title">${e(title)}</title>`,
    `<desc id="chart-desc">${e(chartDescription(chart, p.names))}</desc>`,
    `<rect x="0" y="0" width="${g.width}" height="${g.height}" fill="#ffffff"/>`,
  ];
  if (full) out.push(...chartFrame(chart, opts, p));
  out.push(...sideLines(chart, p), ...markerGlyphs(chart, p));
  if (chart.points.white.length + chart.points.black.length === 0) {
    out.push(`<text x="${g.width / 2}" y="${g.height / 2 + 4}" font-size="${full ? 14 : 10}" text-anchor="middle" fill="#000">no moves yet</text>`);
  }
  if (full) out.push(...chartLegend(p, kinds));
  out.push('</svg>');
  return out.join('\n') + '\n';
}

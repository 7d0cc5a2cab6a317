// The hall view's pure parts (unit-tested in hall.test.ts): one line per board (the row's view
// model), the filter kept in the URL (event, round, status), jumping to a board by number or
// player, and the hall's order. No DOM; clock figures from the rule book (board-text.ts).
import type { BoardView } from '../../../../app/ports.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { SIDES, type Side } from '../../../../../rules/vocabulary.ts';
import { defaultLeftMs, flagsOf, isOffline, remainingNow, secondIllegalMoveBy, statusOf } from './board-text.ts';

/** The status filter's choices: what an arbiter looks for across the hall. */
export const STATUS_FILTERS = {
  '': 'all boards',
  playing: 'in play (running or paused)',
  attention: 'needs the arbiter',
  pending: 'result pending',
  finished: 'finished',
  'not-started': 'not started',
} as const;
export type StatusFilter = keyof typeof STATUS_FILTERS;

export interface HallFilter {
  readonly event: string;
  /** 0: every round. */
  readonly round: number;
  readonly status: StatusFilter;
}

/** The filter a URL's query keeps (`?event=…&round=2&status=pending`); unknown values are ignored. */
export function filterFromQuery(search: string): HallFilter {
  const q = new URLSearchParams(search);
  const round = Number(q.get('round'));
  const status = q.get('status') ?? '';
  return {
    event: q.get('event') ?? '',
    round: Number.isInteger(round) && round > 0 ? round : 0,
    status: status in STATUS_FILTERS ? (status as StatusFilter) : '',
  };
}

/** `filter` written into `search` (other parameters kept): the URL to replace the page's with. */
export function queryWithFilter(search: string, filter: HallFilter): string {
  const q = new URLSearchParams(search);
  const set = (key: string, value: string) => (value ? q.set(key, value) : q.delete(key));
  set('event', filter.event);
  set('round', filter.round > 0 ? String(filter.round) : '');
  set('status', filter.status);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The board's status word plus the line's own: `no clock` for a board no clock serves. */
export function rowStatus(b: BoardView, nowMs: number): string {
  const s = statusOf(b, nowMs);
  if ((s === 'ready' || s === 'idle') && !b.clockId) return 'no clock';
  if (isOffline(b)) return 'offline';
  return s;
}

export function matchesFilter(b: BoardView, f: HallFilter, nowMs: number): boolean {
  if (f.event && b.event !== f.event) return false;
  if (f.round > 0 && b.round !== f.round) return false;
  const s = rowStatus(b, nowMs);
  switch (f.status) {
    case '':
      return true;
    case 'playing':
      return s === 'running' || s === 'paused';
    case 'attention':
      return (
        ['flagged', 'forfeited', 'paused', 'pending', 'offline', 'no clock'].includes(s) ||
        (b.live?.present !== undefined && (b.live.present.white === false || b.live.present.black === false) && !b.result) ||
        // FIDE Laws 7.5.5: a second illegal move, the result still to record.
        secondIllegalMoveBy(b).length > 0
      );
    case 'pending':
      return s === 'pending';
    case 'finished':
      return s === 'finished';
    case 'not-started':
      return s === 'ready' || s === 'idle' || s === 'break' || s === 'scheduled' || s === 'no clock';
  }
}

/** Folds accents and case: "Lenič" is found by "lenic". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The boards a jump query names, best first: a number is a board (table) number, matched
 * exactly; words are found in either player's name (or team), accents and case ignored.
 */
export function jumpMatches(boards: readonly BoardView[], query: string): BoardView[] {
  const q = query.trim();
  if (q === '') return [];
  if (/^\d+$/.test(q)) return boards.filter((b) => b.board === Number(q));
  const words = fold(q).split(/\s+/);
  const text = (b: BoardView) => fold([b.white?.name, b.white?.team, b.black?.name, b.black?.team].filter(Boolean).join(' '));
  return boards.filter((b) => words.every((w) => text(b).includes(w)));
}

/** The hall's order: by event name, then round, then board number. */
export function hallOrder(a: BoardView, b: BoardView): number {
  return (a.eventName || a.event).localeCompare(b.eventName || b.event) || a.round - b.round || a.board - b.board;
}

/** One board's line: what each cell shows. */
export interface RowView {
  /** "B3" and, with several events or rounds shown, the event and round ("Final · R1"). */
  readonly table: string;
  readonly where: string;
  /** The board's status (board-text.ts statusOf): the row's `data-status`. */
  readonly status: string;
  /** What the status cell says: the status, `no clock` or `offline` where that matters more. */
  readonly statusText: string;
  readonly sides: Readonly<
    Record<
      Side,
      {
        name: string;
        time: string;
        moves: string;
        period: string;
        illegal: string;
        illegalLoses: boolean;
        onMove: boolean;
        running: boolean;
        flag: 'first' | 'second' | null;
        absent: string;
      }
    >
  >;
}

const STATUS_TEXT: Readonly<Record<string, string>> = { pending: 'result pending' };

export function rowView(b: BoardView, nowMs: number): RowView {
  const live = b.live;
  const flags = flagsOf(live);
  const status = statusOf(b, nowMs);
  const shown = rowStatus(b, nowMs);
  const losers = secondIllegalMoveBy(b);
  const side = (s: Side) => {
    const player = b[s];
    const ms = remainingNow(b, s, nowMs);
    const left = defaultLeftMs(b, s, nowMs);
    const illegal = live?.illegalMoves?.[s] ?? 0;
    return {
      name: player ? player.name + (player.team ? ` (${player.team})` : '') : '—',
      time: ms === null ? '' : formatClockTime(ms),
      moves: live ? `#${live.moves[s]}` : '',
      // FIDE "period": the stage of the time control this side plays in (40 moves, then the next).
      period: live && live.period ? `P${live.period[s]}` : '',
      // FIDE Laws 7.5.5: the clock counts one illegal move per take-back or penalty; the second loses (the panel and the attention strip say it in full).
      illegal: illegal > 0 ? `${illegal} illegal${losers.includes(s) ? ' (7.5.5)' : ''}` : '',
      illegalLoses: losers.includes(s),
      // A game with a result has nobody on move, whatever its clock was left doing.
      onMove: !b.result && !!live && live.turn === s && (live.status === 'running' || live.status === 'paused'),
      running: !b.result && !!live && live.status === 'running' && live.turn === s,
      flag: flags[0] === s ? ('first' as const) : flags.includes(s) ? ('second' as const) : null,
      absent: left === null ? '' : left > 0 ? `not arrived · default time ${formatClockTime(left)}` : 'not arrived · default time passed',
    };
  };
  const sides = Object.fromEntries(SIDES.map((s) => [s, side(s)])) as RowView['sides'];
  return { table: `B${b.board}`, where: `${b.eventName || b.event} · R${b.round}`, status, statusText: STATUS_TEXT[shown] ?? shown, sides };
}

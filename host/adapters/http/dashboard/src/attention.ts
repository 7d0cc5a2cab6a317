// Attention first (docs/dashboard.md "Attention"): which boards need the arbiter now, most urgent first.
//
// The pure part (everything above "the strip") takes the boards as the API serves them
// (BoardView, host/app/ports.ts) and the host's time (UTC ms) and answers a list, with no DOM
// and no clock of its own, so it is unit-tested to the millisecond (attention.test.ts). Every
// time it shows or compares is the rule book's: the remaining time is `basisRemainingMs`, the
// default time left `basisDefaultTimeLeftMs` (rules/clock-snapshot.ts), the figures
// `formatClockTime` (rules/display-format.ts); nothing is re-derived here.
//
// The rules an arbiter would expect (which boards show,
// under which kind, how red and amber are chosen) are written with their reasons in
// docs/dashboard.md, section "Attention".
//
// The strip (`renderAttention`, at the end) draws the list in the page: one button per board,
// keyed by board id so a repaint only touches what changed.
import type { BoardView } from '../../../../app/ports.ts';
import { basisDefaultTimeLeftMs, basisRemainingMs } from '../../../../../rules/clock-snapshot.ts';
import { formatClockTime, msUntilDisplayChange } from '../../../../../rules/display-format.ts';
import { illegalMoveLosers } from '../../../../../rules/illegal-moves.ts';
import { isForfeitResult, isGameResult, other, RESULT_MEANING, SIDE_NAME, SIDES, type ForfeitResult, type Side } from '../../../../../rules/vocabulary.ts';

/**
 * The kinds, most urgent first: the order of docs/dashboard.md "Attention", with a second
 * illegal move (FIDE Laws 7.5.5: a game lost, its result to record) after a forfeit; last, a
 * round that waits for pairings or for their approval (round-attention.ts), where no clock runs.
 * `broadcast`: what the live broadcast says of the board (docs/broadcast.md "On the dashboard"), amber.
 */
export const ATTENTION_KINDS = ['flag', 'forfeit', 'illegal', 'result', 'paused', 'clock', 'time', 'broadcast', 'round'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** Red: act now (a flag, a forfeit due, a conflict, seconds left); amber: look soon. */
export type AttentionSeverity = 'red' | 'amber';

/** Time under this is low time (docs/dashboard.md "Attention": under 2 minutes); also the forfeit's warning. */
export const LOW_TIME_MS = 2 * 60_000;
/** Time under this is shown red (docs/dashboard.md "Attention": red under 20 s). */
export const CRITICAL_TIME_MS = 20_000;
/** A forfeit due within this is announced as due (docs/dashboard.md "Attention": within 2 minutes). */
export const FORFEIT_WARNING_MS = 2 * 60_000;
/**
 * While an item shows a running time, the list is re-read at least this often even if the
 * shown figure would not change sooner (a sandclock's waiting side gains time; a delay holds
 * it): the text never lags by more than this.
 */
export const MAX_TEXT_STALENESS_MS = 1_000;
/**
 * A difference between a board's moves and its presses is listed once it has lasted this long, or
 * at once when the game is over: while a game runs, a move shows on the e-board an instant before
 * its press, and that difference clears at the next push (docs/broadcast.md "The merged games").
 */
export const BROADCAST_WARNING_AFTER_MS = 30_000;

export interface AttentionItem {
  readonly boardId: string;
  readonly kind: AttentionKind;
  readonly severity: AttentionSeverity;
  /** What the arbiter reads at a glance: `Board 7 · White flag fell`. */
  readonly text: string;
  /** Every reason the board is listed, most urgent first (`text` says the first). */
  readonly reasons: readonly string[];
  /** Where the board is, in full: `Slovenian Final 2025/26 · round 1 · board 7 · Tratar – Sebenik`. */
  readonly where: string;
  /** The board's event as the page names it (`eventName`, else its key): the strip shows it when the list spans events. */
  readonly eventName: string;
  /** `where` and every reason: the button's title and accessible description. */
  readonly title: string;
  /**
   * Kind order, red before amber, least time (ms; a happened flag or forfeit counts as 0, no
   * time as Infinity), board number, then event and id so the order is total.
   */
  readonly sortKey: readonly [kind: number, severity: number, timeMs: number, board: number, event: string, id: string];
}

/** The order of the strip: by `sortKey`, element by element. */
export function compareAttention(a: AttentionItem, b: AttentionItem): number {
  for (let i = 0; i < a.sortKey.length; i++) {
    const x = a.sortKey[i];
    const y = b.sortKey[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** One reason a board is listed, before the board's most urgent reason is chosen. */
interface Reason {
  readonly kind: AttentionKind;
  readonly severity: AttentionSeverity;
  readonly text: string;
  /** The time the reason is about (ms), for the order; Infinity when none. */
  readonly timeMs: number;
  /** The text shows a figure that runs: a side's remaining time, or the default time left. */
  readonly shows?: Side | 'default';
}

/** The boards that need the arbiter at host time `nowUtcMs`, most urgent first; each board once. */
export function attentionItems(boards: readonly BoardView[], nowUtcMs: number): AttentionItem[] {
  const current = currentRounds(boards);
  const items: AttentionItem[] = [];
  for (const b of boards) {
    const reasons = boardReasons(b, nowUtcMs, current.get(b.event) === b.round);
    if (reasons.length === 0) continue;
    // Most urgent reason first: kind order, red before amber, least time.
    reasons.sort((x, y) => kindRank(x.kind) - kindRank(y.kind) || severityRank(x.severity) - severityRank(y.severity) || x.timeMs - y.timeMs);
    const top = reasons[0];
    const where = whereOf(b);
    const texts = reasons.map((r) => r.text);
    items.push({
      boardId: b.id,
      kind: top.kind,
      severity: top.severity,
      text: `Board ${b.board} · ${top.text}`,
      reasons: texts,
      where,
      eventName: b.eventName ?? b.event,
      title: `${where}: ${texts.join('; ')}`,
      sortKey: [kindRank(top.kind), severityRank(top.severity), top.timeMs, b.board, b.event, b.id],
    });
  }
  return items.sort(compareAttention);
}

const kindRank = (k: AttentionKind) => ATTENTION_KINDS.indexOf(k);
const severityRank = (s: AttentionSeverity) => (s === 'red' ? 0 : 1);

/** Each event's current round: the highest round among its boards (the host lists each board's current game). */
function currentRounds(boards: readonly BoardView[]): Map<string, number> {
  const rounds = new Map<string, number>();
  for (const b of boards) rounds.set(b.event, Math.max(rounds.get(b.event) ?? b.round, b.round));
  return rounds;
}

function whereOf(b: BoardView): string {
  const players = b.white || b.black ? ` · ${b.white?.name ?? '?'} – ${b.black?.name ?? '?'}` : '';
  return `${b.eventName ?? b.event} · round ${b.round} · board ${b.board}${players}`;
}

/** The game has a result that is final for the arbiter's work: entered and confirmed, no conflict. */
function settled(b: BoardView): boolean {
  return b.result !== null && b.resultConfirmed && (b.pendingResults?.length ?? 0) === 0;
}

/** A side's remaining time now, by the rule book; the last reported figure when the host knows no control. */
function remainingNow(b: BoardView, side: Side, nowUtcMs: number): number {
  const live = b.live!;
  if (live.clock) return basisRemainingMs(live.clock, side, nowUtcMs - live.atUtcMs);
  return side === 'white' ? live.whiteMs : live.blackMs;
}

/** FIDE Laws 6.7.1: the default time left to an absent player now (rule book), or null. */
function defaultLeftNow(b: BoardView, nowUtcMs: number): number | null {
  const live = b.live;
  if (!live?.clock) return null;
  return basisDefaultTimeLeftMs(live.clock, nowUtcMs - live.atUtcMs);
}

/** Sides not at the board in a game that tracks default time (FIDE Laws 6.7.1). */
function absentSides(b: BoardView): Side[] {
  const present = b.live?.present;
  return present ? SIDES.filter((s) => !present[s]) : [];
}

function sidesText(sides: readonly Side[]): string {
  return sides.length === 2 ? 'Both players' : SIDE_NAME[sides[0]];
}

function resultLabel(result: string): string {
  return isGameResult(result) ? RESULT_MEANING[result].label : result;
}

/** Why board `b` needs the arbiter at `nowUtcMs`, in no particular order (empty: it does not). */
function boardReasons(b: BoardView, nowUtcMs: number, currentRound: boolean): Reason[] {
  if (settled(b)) return broadcastReasons(b, nowUtcMs);
  const out: Reason[] = broadcastReasons(b, nowUtcMs);
  const live = b.live;
  const pending = b.pendingResults ?? [];
  const status = live?.status ?? null;
  const hasResult = b.result !== null;

  // FIDE Laws 6.9: a flag fell and no result settles it yet (who fell first matters, III.3.1).
  // A flag the arbiter dealt with (time added and the game resumed, Laws 6.10.2) no longer shows.
  if (!hasResult && status === 'flagged') {
    const flags = live?.flags?.length ? live.flags : live?.flag ? [live.flag] : [];
    const text = flags.length === 2 ? `Both flags fell (${SIDE_NAME[flags[0]]} first)` : flags.length === 1 ? `${SIDE_NAME[flags[0]]} flag fell` : 'flag fell';
    out.push({ kind: 'flag', severity: 'red', text, timeMs: 0 });
  }

  const forfeit = forfeitReason(b, nowUtcMs);
  if (forfeit) out.push(forfeit);
  out.push(...illegalMoveReasons(b));

  // FIDE Laws 8.7: a result the arbiter has not confirmed, or clocks that reported another one.
  if (pending.length > 0) {
    const others = [...new Set(pending.map((p) => resultLabel(p.result)))];
    const text = hasResult ? `results differ: ${resultLabel(b.result!)} or ${others.join(' or ')}` : `reported ${others.join(' or ')} · to confirm`;
    out.push({ kind: 'result', severity: 'red', text, timeMs: Infinity });
  } else if (hasResult && !b.resultConfirmed && !isForfeitResult(b.result)) {
    out.push({ kind: 'result', severity: 'amber', text: `${resultLabel(b.result!)} to confirm`, timeMs: Infinity });
  }

  if (hasResult) return out; // the game is over: its clock and its times no longer matter

  // FIDE Laws 6.11 / 6.12.2: the clocks were stopped; the game waits for the arbiter.
  const least = live && (status === 'running' || status === 'paused') ? leastRemaining(b, nowUtcMs) : null;
  if (status === 'paused') out.push({ kind: 'paused', severity: 'amber', text: 'paused', timeMs: least?.ms ?? Infinity });

  // A clock the game needs and the host cannot reach, or none at all: only for the round being
  // played (a board of an earlier round has no game left to play on its clock).
  if (currentRound && (b.white !== null || b.black !== null)) {
    // Two lines claim the board's clock id: the arbiter keeps one (docs/dashboard.md "Clock identity").
    if (b.identityClaim) out.push({ kind: 'clock', severity: 'red', text: `two clocks claim ${b.identityClaim.clockId}`, timeMs: Infinity });
    if (b.clockId === null) out.push({ kind: 'clock', severity: 'amber', text: 'no clock', timeMs: Infinity });
    else if (b.clockOnline === false) {
      // A running game on an unreachable clock: no press, flag or forfeit reaches the host.
      const severity: AttentionSeverity = status === 'running' ? 'red' : 'amber';
      out.push({ kind: 'clock', severity, text: `clock ${b.clockId} offline`, timeMs: least?.ms ?? Infinity });
    }
  }

  out.push(...lowTimeReasons(b, nowUtcMs));
  return out;
}

/**
 * FIDE Laws 6.7.1: a forfeit on lateness that happened (the clock's, or its result not yet
 * confirmed), one due within the warning, or a player still absent; null when none.
 */
function forfeitReason(b: BoardView, nowUtcMs: number): Reason | null {
  const status = b.live?.status ?? null;
  const hasResult = b.result !== null;
  if (hasResult && isForfeitResult(b.result) && !b.resultConfirmed) {
    return { kind: 'forfeit', severity: 'red', text: `${forfeitText(b.result)} · confirm ${resultLabel(b.result)}`, timeMs: 0 };
  }
  if (!hasResult && status === 'forfeited') {
    const absent = absentSides(b);
    return { kind: 'forfeit', severity: 'red', text: `${absent.length ? sidesText(absent) : 'A player'} lost by default`, timeMs: 0 };
  }
  if (!hasResult && (status === 'running' || status === 'paused')) {
    const left = defaultLeftNow(b, nowUtcMs);
    const absent = absentSides(b);
    if (left !== null && absent.length > 0) {
      const who = `${sidesText(absent)} absent`;
      if (left <= 0) return { kind: 'forfeit', severity: 'red', text: `${who} · default time over`, timeMs: 0 };
      if (left <= FORFEIT_WARNING_MS)
        return { kind: 'forfeit', severity: 'red', text: `${who} · forfeit in ${formatClockTime(left)}`, timeMs: left, shows: 'default' };
      return { kind: 'forfeit', severity: 'amber', text: `${who} · default in ${formatClockTime(left)}`, timeMs: left, shows: 'default' };
    }
  }
  return null;
}

/**
 * FIDE Laws 7.5.5: a side's second illegal move loses the game (unless the opponent cannot
 * checkmate): the arbiter records the result; the page enters nothing.
 */
function illegalMoveReasons(b: BoardView): Reason[] {
  const live = b.live;
  if (b.result !== null || !live?.illegalMoves) return [];
  return illegalMoveLosers(live.illegalMoves).map((side) => ({
    kind: 'illegal',
    severity: 'red',
    text: `${SIDE_NAME[side]}'s second illegal move · lost unless ${SIDE_NAME[other(side)]} cannot checkmate (FIDE Laws 7.5.5) · record the result`,
    timeMs: 0,
  }));
}

/**
 * The live broadcast (docs/broadcast.md "On the dashboard"): lichess refused the game, the moves and
 * the presses differ (once it lasted, or the game is over), the moves source has games of the
 * round that match no board (listed on the round's first broadcast board, whose panel lists them).
 * Amber: the broadcast needs a look, the game on the board does not.
 */
function broadcastReasons(b: BoardView, nowUtcMs: number): Reason[] {
  const bc = b.broadcast;
  if (!bc) return [];
  const out: Reason[] = [];
  const amber = (text: string): Reason => ({ kind: 'broadcast', severity: 'amber', text, timeMs: Infinity });
  if (bc.lichessError) out.push(amber(`lichess refused the game: ${bc.lichessError}`));
  const lasted = bc.warningSinceUtcMs !== undefined && nowUtcMs - bc.warningSinceUtcMs >= BROADCAST_WARNING_AFTER_MS;
  if (bc.warning && (b.result !== null || lasted)) out.push(amber(bc.warning));
  if (bc.unmatchedCount && bc.unmatchedOnBoard) {
    out.push(amber(`${bc.unmatchedCount === 1 ? '1 moves game matches' : `${bc.unmatchedCount} moves games match`} no board of round ${b.round}`));
  }
  return out;
}

/** Low time, each side that has it (the waiting side's trouble matters at its next move). */
function lowTimeReasons(b: BoardView, nowUtcMs: number): Reason[] {
  const status = b.live?.status ?? null;
  if (!b.live || (status !== 'running' && status !== 'paused')) return [];
  const out: Reason[] = [];
  for (const side of SIDES) {
    const ms = remainingNow(b, side, nowUtcMs);
    if (ms >= LOW_TIME_MS) continue;
    out.push({
      kind: 'time',
      severity: ms < CRITICAL_TIME_MS ? 'red' : 'amber',
      text: `${SIDE_NAME[side]} ${formatClockTime(ms)}`,
      timeMs: Math.max(0, ms),
      shows: side,
    });
  }
  return out;
}

/** Who lost a forfeit result: the sides it gives no point (the vocabulary's RESULT_MEANING). */
function forfeitText(result: ForfeitResult): string {
  const points = RESULT_MEANING[result].points;
  return `${sidesText(SIDES.filter((s) => points[s] === 0))} lost by default`;
}

function leastRemaining(b: BoardView, nowUtcMs: number): { side: Side; ms: number } {
  const white = remainingNow(b, 'white', nowUtcMs);
  const black = remainingNow(b, 'black', nowUtcMs);
  return black < white ? { side: 'black', ms: black } : { side: 'white', ms: white };
}

/**
 * When the list next changes by time alone, so the page re-reads it then and not every frame:
 * `thresholdAtMs`, the next crossing that adds, drops, re-ranks or re-colours an item (a side
 * going under 2 min or 20 s, an absent player's default time reaching 2 min or 0);
 * `textAtMs`, the next change of a figure an item shows (at most MAX_TEXT_STALENESS_MS away).
 * Host UTC ms; null: nothing changes until the next event. Feed events change the list too:
 * read it again on each of them as well.
 *
 * A crossing is predicted as if the running side's time fell at the rate of the clock: a
 * delay that holds it makes the prediction early, never late (the page re-reads, finds
 * nothing crossed yet, and asks again).
 */
export function attentionNextChange(boards: readonly BoardView[], nowUtcMs: number): { thresholdAtMs: number | null; textAtMs: number | null } {
  let threshold = Infinity;
  let text = Infinity;
  const current = currentRounds(boards);
  for (const b of boards) {
    const live = b.live;
    if (!live?.clock || b.result !== null || (live.status !== 'running' && live.status !== 'paused')) continue;
    const shown = new Set(boardReasons(b, nowUtcMs, current.get(b.event) === b.round).map((r) => r.shows));
    const until = (ms: number) => nowUtcMs + Math.min(msUntilDisplayChange(ms), MAX_TEXT_STALENESS_MS);
    if (live.status === 'running' && live.clock.running && live.turn !== null) {
      // Only the side on move loses time; its time is shown, or crosses a line, first.
      const ms = remainingNow(b, live.turn, nowUtcMs);
      if (ms > 0) {
        // Low time is strictly under its line: it begins 1 ms after the time reaches it.
        for (const line of [LOW_TIME_MS, CRITICAL_TIME_MS]) if (ms >= line) threshold = Math.min(threshold, nowUtcMs + (ms - line) + 1);
        if (shown.has(live.turn)) text = Math.min(text, until(ms));
      }
      // A sandclock's waiting side gains what the other loses: it may leave low time; look again soon.
      const waiting = live.turn === 'white' ? 'black' : 'white';
      if (shown.has(waiting) && live.clock.control[waiting].kind === 'sandclock') text = Math.min(text, nowUtcMs + MAX_TEXT_STALENESS_MS);
    }
    // FIDE Laws 6.7.1: the default time runs from the session's start, through pauses.
    const left = absentSides(b).length > 0 ? defaultLeftNow(b, nowUtcMs) : null;
    if (left !== null && left > 0) {
      // Due within 2 minutes and over are inclusive: they begin when the time left reaches the line.
      for (const line of [FORFEIT_WARNING_MS, 0]) if (left > line) threshold = Math.min(threshold, nowUtcMs + (left - line));
      if (shown.has('default')) text = Math.min(text, until(left));
    }
  }
  const at = (x: number) => (Number.isFinite(x) ? x : null);
  return { thresholdAtMs: at(threshold), textAtMs: at(Math.min(text, threshold)) };
}

/** The instant the page should read the list again (host UTC ms), or null: only on the next event. */
export function nextAttentionUpdateAtMs(boards: readonly BoardView[], nowUtcMs: number): number | null {
  const { thresholdAtMs, textAtMs } = attentionNextChange(boards, nowUtcMs);
  if (thresholdAtMs === null) return textAtMs;
  return textAtMs === null ? thresholdAtMs : Math.min(thresholdAtMs, textAtMs);
}

// ─── the strip ─────────────────────────────────────────────────────────────────────────
// The only part of this module that touches the DOM. One button per board, keyed by board id:
// a repaint moves, adds and removes buttons and rewrites only the texts that changed, so the
// page can call it on every re-read of the list without rebuilding the strip.

/** Each kind's sign, shown before the text: colour is never the only sign (WCAG 1.4.1). */
export const ATTENTION_SYMBOL: Readonly<Record<AttentionKind, string>> = {
  flag: '⚑',
  forfeit: '⊘',
  illegal: '✗',
  result: '✎',
  paused: '‖',
  clock: '⚠',
  time: '◔',
  broadcast: '⇪',
  round: '☷',
};

/** The kinds in words, for the button's accessible name (the symbol is hidden from screen readers). */
export const ATTENTION_KIND_NAME: Readonly<Record<AttentionKind, string>> = {
  flag: 'flag',
  forfeit: 'forfeit',
  illegal: 'second illegal move',
  result: 'result',
  paused: 'paused',
  clock: 'clock',
  time: 'low time',
  broadcast: 'broadcast',
  round: 'round',
};

/** The strip's heading: how many boards (and rounds: pairings to load or approve) need the arbiter. */
export function attentionCountText(count: number, rounds = 0): string {
  const boards = count === 1 ? '1 board' : `${count} boards`;
  const r = rounds === 1 ? '1 round' : `${rounds} rounds`;
  if (rounds > 0) return count === 0 ? `${r} ${rounds === 1 ? 'needs' : 'need'} the arbiter` : `${boards} and ${r} need the arbiter`;
  if (count === 0) return 'No board needs the arbiter';
  return count === 1 ? '1 board needs the arbiter' : `${count} boards need the arbiter`;
}

interface StripParts {
  readonly count: HTMLElement;
  readonly list: HTMLOListElement;
  readonly rows: Map<string, HTMLLIElement>;
  open: (boardId: string) => void;
}

const strips = new WeakMap<Element, StripParts>();

function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function stripOf(container: HTMLElement, open: (boardId: string) => void): StripParts {
  let parts = strips.get(container);
  if (parts) {
    parts.open = open;
    return parts;
  }
  const doc = container.ownerDocument;
  const count = doc.createElement('h2');
  count.className = 'attention-count';
  const list = doc.createElement('ol');
  list.className = 'attention-list';
  container.replaceChildren(count, list);
  parts = { count, list, rows: new Map(), open };
  const p = parts;
  // One listener for every button: the item's board id is on its row.
  list.addEventListener('click', (e) => {
    const row = (e.target as Element | null)?.closest?.('li[data-attention-board]');
    if (row) p.open(row.getAttribute('data-attention-board')!);
  });
  strips.set(container, parts);
  return parts;
}

function newRow(doc: Document, boardId: string): HTMLLIElement {
  const li = doc.createElement('li');
  li.setAttribute('data-attention-board', boardId);
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'attention-item';
  const symbol = doc.createElement('span');
  symbol.className = 'attention-symbol';
  symbol.setAttribute('aria-hidden', 'true');
  const kind = doc.createElement('span');
  kind.className = 'attention-kind visually-hidden';
  const text = doc.createElement('span');
  text.className = 'attention-text';
  const more = doc.createElement('span');
  more.className = 'attention-more';
  const event = doc.createElement('span');
  event.className = 'attention-event';
  button.append(symbol, kind, text, more, event);
  li.append(button);
  return li;
}

/**
 * Draws `items` (in their order) into `container`, the page's `<section id="attention">`: a
 * heading with the count and one button per board; a click calls `open(boardId)`.
 */
export function renderAttention(container: HTMLElement, items: readonly AttentionItem[], open: (boardId: string) => void): void {
  const parts = stripOf(container, open);
  const doc = container.ownerDocument;
  const rounds = items.filter((i) => i.kind === 'round').length;
  setText(parts.count, attentionCountText(items.length - rounds, rounds));
  setAttr(container, 'data-count', String(items.length));
  const keep = new Set(items.map((i) => i.boardId));
  // Board numbers repeat across events: name the event when the list spans more than one.
  const manyEvents = new Set(items.map((i) => i.eventName)).size > 1;
  for (const [id, row] of parts.rows) {
    if (keep.has(id)) continue;
    row.remove();
    parts.rows.delete(id);
  }
  let at: ChildNode | null = parts.list.firstChild;
  for (const item of items) {
    let row = parts.rows.get(item.boardId);
    if (!row) {
      row = newRow(doc, item.boardId);
      parts.rows.set(item.boardId, row);
    }
    if (row !== at) parts.list.insertBefore(row, at);
    else at = at.nextSibling;
    setAttr(row, 'data-kind', item.kind);
    setAttr(row, 'data-severity', item.severity);
    const button = row.firstElementChild as HTMLButtonElement;
    setAttr(button, 'title', item.title);
    const [symbol, kind, text, more, event] = Array.from(button.children);
    // Red items carry "!" beside the symbol (and a bold outline in the style sheet).
    setText(symbol, item.severity === 'red' ? `${ATTENTION_SYMBOL[item.kind]}!` : ATTENTION_SYMBOL[item.kind]);
    setText(kind, `${item.severity === 'red' ? 'urgent ' : ''}${ATTENTION_KIND_NAME[item.kind]}: `);
    setText(text, item.text);
    setText(more, item.reasons.length > 1 ? `+${item.reasons.length - 1}` : '');
    setText(event, manyEvents ? item.eventName : '');
  }
}

/** What the strip reads: the live boards and the host's time (the page's board store). */
export interface AttentionSource {
  boards(): readonly BoardView[];
  hostNowMs(): number;
  /** The rounds that need the arbiter (round-attention.ts), listed after the boards. */
  rounds?(): readonly AttentionItem[];
}

/**
 * The longest the strip waits between two readings of the list. The page's reading of the
 * host's time can be corrected (a new hello) and a simulated hall on accelerated time runs
 * faster than the page's timers: without a bound, a crossing could be read late.
 */
export const ATTENTION_MAX_WAIT_MS = 1_000;
/** The shortest time between two readings asked by the feed: 500 events/s cost a reading per 200 ms, not one each. */
export const ATTENTION_MIN_GAP_MS = 200;

/**
 * Mounts the strip in `container` and keeps it current: `refresh()` on every change of the
 * boards (the store's notification; coalesced to one reading per ATTENTION_MIN_GAP_MS), and on
 * its own at the next instant the list changes by time alone (`nextAttentionUpdateAtMs`).
 */
export function mountAttention(container: HTMLElement, source: AttentionSource, open: (boardId: string) => void): { refresh(): void; stop(): void } {
  const win = container.ownerDocument.defaultView!;
  let timer: number | null = null;
  let lastReadAt = -Infinity;
  let stopped = false;
  const read = () => {
    if (stopped) return;
    if (timer !== null) win.clearTimeout(timer);
    timer = null;
    lastReadAt = win.performance.now();
    const boards = source.boards();
    const now = source.hostNowMs();
    renderAttention(container, [...attentionItems(boards, now), ...(source.rounds?.() ?? [])], open);
    const next = nextAttentionUpdateAtMs(boards, now);
    const waitMs = next === null ? ATTENTION_MAX_WAIT_MS : Math.min(ATTENTION_MAX_WAIT_MS, Math.max(0, next - now));
    timer = win.setTimeout(read, waitMs);
  };
  const refresh = () => {
    if (stopped) return;
    const sinceMs = win.performance.now() - lastReadAt;
    if (sinceMs >= ATTENTION_MIN_GAP_MS) return read();
    if (timer !== null) win.clearTimeout(timer);
    timer = win.setTimeout(read, ATTENTION_MIN_GAP_MS - sinceMs);
  };
  read();
  return {
    refresh,
    stop: () => {
      stopped = true;
      if (timer !== null) win.clearTimeout(timer);
    },
  };
}

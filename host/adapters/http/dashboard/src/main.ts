// The arbiter dashboard (/) and the public hall view (/public). TypeScript bundled by the server
// at start (rule-book-bundle.ts `pageBundle`, served at /app.js): every rule it shows comes from
// the rule book (rules/), imported, never copied; the types are the host's (host/app/ports.ts).
//
// The hall: one compact line per board (hall.ts rowView: table, players, both times, moves and
// period, status), kept live by the store (store.ts: the /ws feed, one repaint per animation frame
// for the boards that changed). On the arbiter page a line opens the board's side panel
// (panel.ts: notes, the full time chart and the controls); no line carries a control. Jump to a
// board by number or player; filter by event, round and status (kept in the URL). One timer
// repaints running times, only when their display changes (rules/display-format.ts
// msUntilDisplayChange). The public page (body[data-view=public]) is read-only: cards with large
// times and the small time chart, no panel, no control.
import type { BoardView } from '../../../../app/ports.ts';
import { msUntilDisplayChange } from '../../../../../rules/display-format.ts';
import { SIDE_NAME, SIDES, type Side } from '../../../../../rules/vocabulary.ts';
import { refusalOf } from './actions.ts';
import { storedToken, api } from './api.ts';
import { mountAttention, type AttentionItem } from './attention.ts';
import { roundAttentionItems, roundOfKey } from './round-attention.ts';
import { askConfirmation } from './confirm-dialog.ts';
import { breakLeftMs, defaultLeftMs, eventsOf, flagLine, infoLine, isOffline, label, matchLine, remainingNow, rowLabel, ticking } from './board-text.ts';
import { ChartImage } from './chart.ts';
import { button, el, setText } from './dom.ts';
import {
  filterFromQuery,
  hallOrder,
  jumpMatches,
  matchesFilter,
  queryWithFilter,
  rowView,
  STATUS_FILTERS,
  type HallFilter,
  type StatusFilter,
} from './hall.ts';
// The colours by lot and the team match protocol beside the lines (they follow `chessclock:board`).
import './match-panels.ts';
import { placeEventHeads } from './event-heads.ts';
import { refreshHealth } from './health.ts';
import { NextRound } from './next-round.ts';
import { PendingResults } from './pending.ts';
import { mountEntriesForm } from './entries-form.ts';
import { Panel } from './panel.ts';
import { roundArrivals, roundPresenceQuestion } from './presence.ts';
import { mountSignIn } from './sign-in.ts';
import { changesStandings, Standings } from './standings.ts';
import { store } from './store.ts';

export { store } from './store.ts';

const PUBLIC = document.body.dataset.view === 'public';
const rows = new Map<string, HTMLElement>(); // id -> the board's line
/** Each board as last rendered: the repaint timer paints these, so a change waiting for its frame is never half shown. */
const rendered = new Map<string, BoardView>();
/** The small charts of the public cards. */
const smallCharts = new Map<string, ChartImage>();
let filter: HallFilter = filterFromQuery(location.search);
const now = () => store.hostNowMs();

const eventsShown = () => eventsOf(store.boards.values());
const eventsFiltered = () => eventsShown().filter((e) => filter.event === '' || e.key === filter.event);

function pgnUrl(event: string, round: number): string {
  return `/broadcast/round/${round}/games.pgn?event=${encodeURIComponent(event)}`;
}

// ---- the side panel (arbiter page) -------------------------------------------------
const panelRoot = document.getElementById('panel');
const dialog = document.getElementById('confirm') as HTMLDialogElement | null;
const panel =
  !PUBLIC && panelRoot && dialog
    ? new Panel(
        panelRoot,
        dialog,
        (id) => store.get(id),
        now,
        (b) => store.set(b),
        (id) => {
          document.body.classList.remove('panel-open');
          rows.get(id)?.classList.remove('open');
          rows.get(id)?.focus({ preventScroll: true });
        },
      )
    : null;

// ---- the lines --------------------------------------------------------------------
const grid = document.getElementById('boards')!;

function sideCells(side: Side): HTMLElement {
  const cell = el('div', `side ${side}`);
  const meta = el('span', 'meta');
  // `#11 · P1`: explained by the page's legend and by each cell's title (docs/dashboard.md "The hall view").
  meta.append(
    Object.assign(el('span', 'moves'), { title: 'moves played' }),
    Object.assign(el('span', 'period'), { title: 'period of the time control' }),
    el('span', 'illegal'),
  );
  const colour = el('span', 'colour', side === 'white' ? '♔' : '♚');
  colour.title = SIDE_NAME[side];
  const flag = el('span', 'flag', '⚑');
  flag.hidden = true;
  const absent = el('span', 'absent');
  absent.hidden = true;
  cell.append(colour, el('span', 'name'), flag, el('span', 'time'), meta, absent);
  return cell;
}

function rowFor(b: BoardView): HTMLElement {
  const row = rows.get(b.id);
  if (row) return row;
  const r = el('article', 'board');
  r.dataset.boardId = b.id;
  r.dataset.event = b.event;
  const head = el('header');
  head.append(el('span', 'label'), el('span', 'status'));
  r.append(head, el('div', 'match'), sideCells('white'), sideCells('black'), el('div', 'flags'), el('div', 'result'));
  if (PUBLIC) {
    const img = el('img', 'chart-small');
    img.width = 160;
    img.height = 40;
    img.hidden = true;
    r.append(img);
    smallCharts.set(b.id, new ChartImage(img, 'small', (x) => `time chart of ${label(x)}`));
  } else {
    // The line opens the board's panel: a click, or Enter/Space on the focused line.
    r.tabIndex = 0;
    r.setAttribute('aria-controls', 'panel');
    r.addEventListener('click', () => openBoard(b.id));
    r.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        openBoard(b.id);
      }
    });
  }
  rows.set(b.id, r);
  // In the hall's order: before the first line that comes after it.
  const next = [...rows.keys()]
    .map((id) => rendered.get(id) ?? store.get(id))
    .filter((x): x is BoardView => !!x && x.id !== b.id && hallOrder(b, x) < 0)
    .sort(hallOrder)[0];
  const before = next ? rows.get(next.id) : undefined;
  if (before && before.parentElement === grid) grid.insertBefore(r, before);
  else grid.append(r);
  return r;
}

function renderBoard(b: BoardView): void {
  const row = rowFor(b);
  rendered.set(b.id, b);
  const t = now();
  row.hidden = !matchesFilter(b, filter, t);
  row.dataset.turn = b.live && b.live.turn ? b.live.turn : '';
  row.dataset.clock = !b.clockId ? 'none' : isOffline(b) ? 'offline' : '';
  row.classList.toggle('offline', isOffline(b));
  row.classList.toggle('pending-result', !!b.result && !b.resultConfirmed);
  row.classList.toggle('decided', !!b.match && b.match.decided);
  setText(row.querySelector('.label'), rowLabel(b)); // the event's name is its heading's (src/event-heads.ts)
  const match = row.querySelector<HTMLElement>('.match')!;
  setText(match, matchLine(b));
  match.hidden = !b.match;
  const flags = row.querySelector<HTMLElement>('.flags')!;
  setText(flags, flagLine(b));
  flags.hidden = flags.textContent === '';
  repaintTimes(b, t);
  panel?.update(b);
  smallCharts.get(b.id)?.show(b);
  // match-panels.ts paints the lots of a knockout board and the team match protocol from it.
  document.dispatchEvent(new CustomEvent('chessclock:board', { detail: b }));
}

/** What changes with time alone: the status, the times, the default time and break countdowns. */
function repaintTimes(b: BoardView, t: number): void {
  const row = rows.get(b.id);
  if (!row) return;
  const view = rowView(b, t);
  if (row.dataset.status !== view.status) row.dataset.status = view.status;
  setText(row.querySelector('.status'), view.statusText);
  setText(row.querySelector('.result'), infoLine(b, t));
  for (const side of SIDES) {
    const cell = row.querySelector<HTMLElement>(`.side.${side}`)!;
    const v = view.sides[side];
    setText(cell.querySelector('.name'), v.name);
    setText(cell.querySelector('.time'), v.time);
    setText(cell.querySelector('.moves'), v.moves);
    setText(cell.querySelector('.period'), v.period);
    setText(cell.querySelector('.illegal'), v.illegal);
    cell.querySelector('.illegal')!.classList.toggle('loses', v.illegalLoses);
    cell.classList.toggle('on-move', v.onMove);
    cell.classList.toggle('running', v.running);
    cell.classList.toggle('not-arrived', v.absent !== '');
    const flag = cell.querySelector<HTMLElement>('.flag')!;
    flag.hidden = v.flag === null;
    flag.dataset.first = String(v.flag === 'first');
    flag.title = v.flag === 'first' ? 'flag fell first' : 'flag fell';
    const absent = cell.querySelector<HTMLElement>('.absent')!;
    absent.hidden = v.absent === '';
    setText(absent, v.absent);
  }
}

// ---- one repaint timer -------------------------------------------------------------
// Only boards whose text changes with time (a running clock, a default time or a break counting
// down) are visited, each when its display next changes (msUntilDisplayChange: a running 1:30:18
// changes once a second, 12.4 ten times a second). Nothing is recomputed but the display.
const ticking_ = new Map<string, number>(); // board id -> host time its display changes next

/** Host time at which something `b` shows changes next, or null when nothing does. */
function nextChangeAt(b: BoardView, t: number): number | null {
  if (!ticking(b, t)) return null;
  const waits: number[] = [];
  for (const side of SIDES) {
    const ms = b.live && b.live.status === 'running' ? remainingNow(b, side, t) : null;
    if (ms !== null && ms > 0) waits.push(msUntilDisplayChange(ms));
    const left = defaultLeftMs(b, side, t);
    if (left !== null && left > 0) waits.push(msUntilDisplayChange(left));
  }
  const brk = breakLeftMs(b, t);
  if (brk !== null) waits.push(msUntilDisplayChange(brk));
  // A flag due (0 reached) or a deadline passed: look again soon; the clock's event follows.
  return t + (waits.length ? Math.max(1, Math.min(...waits)) : 250);
}

function track(b: BoardView): void {
  const at = nextChangeAt(b, now());
  if (at === null) ticking_.delete(b.id);
  else ticking_.set(b.id, at);
}

let tickTimer: ReturnType<typeof setTimeout> | null = null;
function tick(): void {
  tickTimer = null;
  const t = now();
  for (const [id, at] of ticking_) {
    if (at > t) continue;
    const b = rendered.get(id);
    if (!b) {
      ticking_.delete(id);
      continue;
    }
    repaintTimes(b, t);
    track(b);
  }
  if (panel?.openId && ticking_.has(panel.openId)) panel.repaintTimes();
  scheduleTick();
}
function scheduleTick(): void {
  if (tickTimer !== null) return;
  // The earliest change, in browser time (a hall on accelerated time runs faster); at most
  // 250 ms, so a host clock that jumped (the hello of a reconnection) is caught up quickly.
  let next = Infinity;
  for (const at of ticking_.values()) next = Math.min(next, at);
  if (next === Infinity) return;
  const wait = Math.min(250, Math.max(16, next - now()));
  tickTimer = setTimeout(tick, wait);
}

// ---- events bar, pending results -----------------------------------------------------
/** The message of the last Start round per event, kept until the event's round moves on. */
const roundMessages = new Map<string, { round: number; kind: string; text: string }>();
let eventsKey = '';
/**
 * Per event: its current round, the PGN feed, and (arbiter) Start round N, offered only while a
 * board of that round can still be started (the rule book's `start` rule per board): never
 * after the round is under way, so never after the event's last round.
 */
function renderEvents(): void {
  const nav = document.getElementById('events')!;
  const shown = eventsFiltered().map((e) => {
    const startable = [...store.boards.values()].filter((b) => b.event === e.key && b.round === e.round && refusalOf('start', b) === null).length;
    const m = roundMessages.get(e.key);
    return { ...e, startable, message: m && m.round === e.round ? m : null };
  });
  const key = JSON.stringify(shown);
  if (key === eventsKey) return;
  eventsKey = key;
  nav.replaceChildren(
    ...shown.map((e) => {
      const row = el('div', 'event');
      row.dataset.event = e.key;
      const link = el('a', 'pgn', `PGN feed · round ${e.round}`);
      link.href = pgnUrl(e.key, e.round);
      // The event's name opens its standings and crosstable page, with each round's print view
      // (GET /events/:event/standings): a link of its own would wrap the row on a phone and push
      // the first board off the first screen.
      const name = el('a', 'event-name standings-link', e.name);
      name.href = `/events/${encodeURIComponent(e.key)}/standings`;
      name.title = 'standings & crosstable';
      name.setAttribute('aria-label', `${e.name}: standings & crosstable`);
      row.append(name, el('span', 'event-round', `round ${e.round}`), link);
      if (!PUBLIC) {
        if (e.startable > 0) {
          const start = button(
            `Start round ${e.round}`,
            { action: 'start-round', round: String(e.round) },
            `start the clocks of the ${e.startable} board${e.startable > 1 ? 's' : ''} of round ${e.round} not yet started`,
          );
          start.addEventListener('click', () => void startRound(e.key, e.round, start));
          row.append(start);
        }
        const message = Object.assign(el('span', 'message', e.message?.text ?? ''), { role: 'status' });
        message.dataset.kind = e.message?.kind ?? '';
        row.append(message);
      }
      return row;
    }),
  );
}

/**
 * Starts the round's boards (POST …/rounds/:round/start). At a default time of 0 (FIDE Laws
 * 6.7.1) a board's player not marked present would lose at the start: the page first asks once
 * for the round who is seated (presence.ts roundPresenceQuestion, every such player ticked),
 * marks the ticked players present, and starts the round only when every arrival was taken.
 */
async function startRound(event: string, round: number, target: HTMLButtonElement): Promise<void> {
  const name = eventsShown().find((e) => e.key === event)?.name ?? event;
  const boards = [...store.boards.values()].filter((b) => b.event === event && b.round === round && refusalOf('start', b) === null);
  const question = roundPresenceQuestion(name, round, boards);
  let arrivals: ReturnType<typeof roundArrivals> = [];
  if (question && dialog) {
    const answer = await askConfirmation(dialog, question);
    if (!answer.ok) {
      roundMessages.set(event, { round, kind: 'ok', text: `Start round ${round}: cancelled, nothing was sent` });
      return renderEvents();
    }
    arrivals = roundArrivals(answer.chosen);
  }
  target.disabled = true;
  try {
    const refused: string[] = [];
    // Each arrival is its board's own call; they are independent, so in parallel.
    await Promise.all(
      arrivals.map(async (a) => {
        try {
          const data = await api<{ board?: BoardView }>('POST', `/api/boards/${encodeURIComponent(a.boardId)}/arrive`, { side: a.side });
          if (data.board) store.set(data.board);
        } catch (err) {
          refused.push(`board ${store.get(a.boardId)?.board ?? a.boardId} ${SIDE_NAME[a.side]}: ${(err as Error).message}`);
        }
      }),
    );
    if (refused.length > 0) {
      roundMessages.set(event, {
        round,
        kind: 'error',
        text: `round ${round} not started: an arrival was refused (${refused.join('; ')}); the arrivals taken stand`,
      });
      return;
    }
    const data = await api<{ started: string[]; skipped?: { boardId: string; reason: string }[]; arbiter: string }>(
      'POST',
      `/api/events/${encodeURIComponent(event)}/rounds/${round}/start`,
    );
    const skipped = (data.skipped || []).map((s) => `${s.boardId}: ${s.reason}`);
    const seated = arrivals.length ? `; ${arrivals.length} player${arrivals.length > 1 ? 's' : ''} marked present first` : '';
    roundMessages.set(event, {
      round,
      kind: skipped.length ? 'error' : 'ok',
      text: `round ${round}: ${data.started.length} started by ${data.arbiter}${seated}${skipped.length ? `; skipped ${skipped.join('; ')}` : ''}`,
    });
  } catch (err) {
    roundMessages.set(event, { round, kind: 'error', text: (err as Error).message });
  } finally {
    target.disabled = false;
    renderEvents();
  }
}

const pendingSection = document.getElementById('pending') as HTMLDetailsElement | null;
const pendingBox = pendingSection ? new PendingResults(pendingSection, label, (id, target) => void panel?.confirmResult(id, target)) : null;
/** Every unconfirmed result across the boards shown, each with Confirm (arbiter; src/pending.ts). */
function renderPending(): void {
  pendingBox?.render(
    [...store.boards.values()].filter((b) => b.result && !b.resultConfirmed && (filter.event === '' || b.event === filter.event)).sort(hallOrder),
  );
}

const standings = new Standings(document.getElementById('standings'), PUBLIC, () => store.boards.values(), eventsFiltered);

// ---- filters and jump ------------------------------------------------------------------
const eventSelect = document.getElementById('event-filter') as HTMLSelectElement;
const roundSelect = document.getElementById('round-filter') as HTMLSelectElement | null;
const statusSelect = document.getElementById('status-filter') as HTMLSelectElement | null;
if (statusSelect) {
  statusSelect.replaceChildren(...Object.entries(STATUS_FILTERS).map(([value, text]) => Object.assign(el('option', '', text), { value })));
}

function syncSelect(select: HTMLSelectElement | null, options: [string, string][], value: string): void {
  if (!select) return;
  const want = JSON.stringify(options);
  if (select.dataset.options !== want) {
    select.dataset.options = want;
    select.replaceChildren(...options.map(([v, text]) => Object.assign(el('option', '', text), { value: v })));
  }
  select.value = value;
}

function renderFilters(): void {
  syncSelect(eventSelect, [['', 'all events'], ...eventsShown().map((e): [string, string] => [e.key, e.name])], filter.event);
  const rounds = [...new Set([...store.boards.values()].filter((b) => filter.event === '' || b.event === filter.event).map((b) => b.round))].sort(
    (a, b) => a - b,
  );
  if (filter.round > 0 && !rounds.includes(filter.round)) rounds.push(filter.round);
  syncSelect(
    roundSelect,
    [['', 'all rounds'], ...rounds.map((r): [string, string] => [String(r), `round ${r}`])],
    filter.round > 0 ? String(filter.round) : '',
  );
  if (statusSelect) statusSelect.value = filter.status;
  const publicLink = document.getElementById('public-link') as HTMLAnchorElement | null;
  if (publicLink) publicLink.href = `public${queryWithFilter('', { ...filter, status: '' })}`;
  const count = document.getElementById('shown-count');
  if (count) {
    const shown = [...rows.values()].filter((r) => !r.hidden).length;
    setText(count, `${shown} of ${rows.size} boards`);
  }
}

function setFilter(next: HallFilter): void {
  filter = next;
  history.replaceState(null, '', `${location.pathname}${queryWithFilter(location.search, filter)}`);
  renderAll();
}

eventSelect.addEventListener('change', () => setFilter({ ...filter, event: eventSelect.value, round: 0 }));
roundSelect?.addEventListener('change', () => setFilter({ ...filter, round: Number(roundSelect.value) || 0 }));
statusSelect?.addEventListener('change', () => setFilter({ ...filter, status: statusSelect.value as StatusFilter }));
document.getElementById('filters-toggle')?.addEventListener('click', (ev) => {
  const toggle = ev.currentTarget as HTMLButtonElement;
  const open = toggle.getAttribute('aria-expanded') !== 'true';
  toggle.setAttribute('aria-expanded', String(open));
  document.getElementById('filters')!.classList.toggle('open', open);
});

const jumpForm = document.getElementById('jump-form') as HTMLFormElement | null;
jumpForm?.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = jumpForm.querySelector('input')!;
  const shown = [...store.boards.values()].sort(hallOrder);
  // Boards the filter shows first, then the rest (a board filtered away is still found).
  const t = now();
  const found = jumpMatches([...shown.filter((b) => matchesFilter(b, filter, t)), ...shown.filter((b) => !matchesFilter(b, filter, t))], input.value);
  const note = jumpForm.querySelector<HTMLElement>('.jump-note')!;
  if (found.length === 0) {
    note.textContent = `no board matches "${input.value.trim()}"`;
    return;
  }
  note.textContent = found.length > 1 ? `${found.length} boards match: showing ${label(found[0])}` : '';
  openBoard(found[0].id);
});

function renderAll(): void {
  for (const b of [...store.boards.values()].sort(hallOrder)) renderBoard(b);
  renderFilters();
  renderEvents();
  renderPending();
  standings.render();
  placeEventHeads(grid, eventName);
}
const eventName = (key: string) => eventsShown().find((e) => e.key === key)?.name ?? key;

// ---- opening a board ------------------------------------------------------------------
/**
 * Shows a board: brings its line into view (clearing a filter that hides it) and, on the
 * arbiter page, opens its side panel. The attention strip (src/attention.ts) calls this.
 */
export function openBoard(boardId: string): void {
  const b = store.get(boardId);
  if (!b) return;
  if (!matchesFilter(b, filter, now())) setFilter({ event: '', round: 0, status: '' });
  const row = rows.get(boardId);
  for (const r of rows.values()) r.classList.toggle('open', r === row);
  row?.scrollIntoView({ block: 'nearest' });
  if (panel) {
    placePanel();
    document.body.classList.add('panel-open');
    panel.open(boardId);
  } else row?.focus({ preventScroll: true });
}

/**
 * The strip sticks below the sticky header, and the panel starts below both (CSSOM, which the
 * page's CSP allows: no inline style). Kept true as either changes height (a wrapped header, the
 * strip's items coming and going).
 */
function placePanel(): void {
  const header = document.querySelector<HTMLElement>('header.top');
  const strip = document.getElementById('attention');
  const headerH = header?.offsetHeight ?? 0;
  document.documentElement.style.setProperty('--header-h', `${headerH}px`);
  document.documentElement.style.setProperty('--panel-top', `${headerH + (strip?.offsetHeight ?? 0)}px`);
}
window.addEventListener('resize', placePanel);
if (typeof ResizeObserver === 'function') {
  const sticky = new ResizeObserver(() => placePanel());
  for (const e of [document.querySelector('header.top'), document.getElementById('attention')]) if (e) sticky.observe(e);
}

// ---- the store's changes, once per frame -------------------------------------------------
store.subscribe((change) => {
  if (change.reset) {
    for (const r of rows.values()) r.remove();
    rows.clear();
    rendered.clear();
    ticking_.clear();
    smallCharts.clear();
    renderAll();
    // The hall's first render, for the Performance API (docs/benchmarks.md "Dashboard"): every board of the feed's hello is in the DOM.
    if (performance.getEntriesByName('dashboard:boards-rendered').length === 0)
      performance.mark('dashboard:boards-rendered', { detail: { boards: rows.size } });
    for (const b of store.boards.values()) track(b);
    scheduleTick();
    standings.refreshAll();
    if (panel?.openId && !store.get(panel.openId)) panel.close();
    return;
  }
  const roundsBefore = new Map(eventsShown().map((e) => [e.key, e.round]));
  let added = false;
  for (const id of change.ids) {
    const b = store.get(id);
    if (!b) continue;
    if (!rows.has(id)) added = true;
    // The standings change only with a confirmed result or a new round, not with the clock.
    if (changesStandings(change.before.get(id), b)) standings.refresh(b.event);
    renderBoard(b);
    track(b);
  }
  scheduleTick();
  for (const e of eventsShown()) if (roundsBefore.get(e.key) !== e.round) standings.refresh(e.key);
  if (added) renderFilters();
  renderEvents();
  renderPending();
  placeEventHeads(grid, eventName);
});
store.onFeed((m) => {
  // A captain's or the arbiter's mark on a team match: match-panels.ts shows it.
  if (m.type === 'team-match' && m.match) document.dispatchEvent(new CustomEvent('chessclock:team-match', { detail: m.match }));
});

// ---- host health (src/health.ts) ----------------------------------------------------------
const healthAlert = document.getElementById('health');
void refreshHealth(healthAlert);
setInterval(() => void refreshHealth(healthAlert), 5_000);

// ---- sign-in (src/sign-in.ts), and the next round it shows to a signed-in arbiter ---------
const nextRoundSection = document.getElementById('next-round');
/** A knockout's boards carry their mini-match: the director pairs it from the file, no next round to load. */
const pairedEvents = () => eventsShown().filter((e) => ![...store.boards.values()].some((b) => b.event === e.key && !!b.game?.matchId));
let roundItems: AttentionItem[] = []; // the rounds waiting for pairings or their approval (src/round-attention.ts)
const nextRound =
  nextRoundSection && !PUBLIC
    ? new NextRound(
        nextRoundSection,
        () => pairedEvents().map((e) => e.key),
        () => filter.event,
        {
          onRounds: (proposals, waiting) => {
            roundItems = roundAttentionItems(proposals, waiting, (key) => eventsShown().find((e) => e.key === key)?.name);
            attention?.refresh();
          },
          printable: pairedEvents,
        },
      )
    : null;
/** A round item of the strip: the board panel closes (it would cover the box) and the next-round box comes into view. */
function showNextRound(): void {
  if (panel?.openId) panel.close();
  nextRoundSection?.scrollIntoView({ block: 'start' });
}

const entriesForm = nextRoundSection?.querySelector<HTMLFormElement>('form.entries');
if (entriesForm && !PUBLIC) mountEntriesForm(entriesForm);

const signIn = PUBLIC
  ? null
  : mountSignIn({
      signedIn: () => void nextRound?.refresh(),
      signedOut: () => nextRound?.hide(),
    });

// ---- attention first (src/attention.ts): the boards that need the arbiter, most urgent first ----
const attentionSection = document.getElementById('attention');
const attention =
  attentionSection && !PUBLIC
    ? mountAttention(attentionSection, { boards: () => [...store.boards.values()], hostNowMs: now, rounds: () => roundItems }, (id) =>
        roundOfKey(id) ? showNextRound() : openBoard(id),
      )
    : null;
if (attention) store.subscribe(() => attention.refresh());

const connection = document.getElementById('connection')!;
const initialToken = PUBLIC ? '' : storedToken();
if (initialToken) void signIn?.(initialToken);
store.connect((state, text) => {
  connection.dataset.state = state;
  connection.textContent = text;
  if (state === 'live') void refreshHealth(healthAlert);
});

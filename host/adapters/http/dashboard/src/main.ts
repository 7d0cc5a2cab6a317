// The arbiter dashboard (/) and the public hall view (/public): the boards kept live by the
// store (store.ts: GET-free, the /ws feed's hello and changes, repainted once per animation
// frame). On the arbiter page a signed-in arbiter gets the controls, which call the HTTP API
// (docs/api.md); the public page (body[data-view=public]) is read-only and builds no controls.
// TypeScript bundled by the server at start (rule-book-bundle.ts `pageBundle`, served at
// /app.js): every rule it shows comes from the rule book (rules/), imported, never copied.
import type { BoardView } from '../../../../app/ports.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { boardCommandRefusal } from '../../../../../rules/command-rules.ts';
import { GAME_RESULTS, other, RESULT_MEANING, SIDE_NAME, SIDES, type ArbiterCommandName, type Side } from '../../../../../rules/vocabulary.ts';
import { api, onUnauthorized, setToken, storedToken } from './api.ts';
import { defaultLeftMs, eventsOf, flagLine, flagsOf, infoLine, isOffline, label, linkHealthLine, matchLine, remainingNow, restoreLine, statusOf, ticking } from './board-text.ts';
import { button, el, setText } from './dom.ts';
import { NextRound } from './next-round.ts';
import { changesStandings, Standings } from './standings.ts';
import { store } from './store.ts';
import { resultText } from './words.ts';

export { store } from './store.ts';

const PUBLIC = document.body.dataset.view === 'public';
const cards = new Map<string, HTMLElement>(); // id -> card element
/** Each board as last rendered: the repaint timer paints these, so a change waiting for its frame is never half shown. */
const rendered = new Map<string, BoardView>();
let signedIn = false;
let eventFilter = new URLSearchParams(location.search).get('event') || '';
const now = () => store.hostNowMs();

function eventsShown() {
  return eventsOf(store.boards.values());
}
function eventsFiltered() {
  return eventsShown().filter((e) => eventFilter === '' || e.key === eventFilter);
}

function pgnUrl(event: string, round: number): string {
  return `/broadcast/round/${round}/games.pgn?event=${encodeURIComponent(event)}`;
}

// ---- rendering ------------------------------------------------------------------
const grid = document.getElementById('boards')!;

/**
 * Enables a control, or disables it with the rule book's reason as its tooltip: the same
 * words the host answers with (rules/command-rules.ts; the host and the clock still check).
 */
function offer(control: HTMLButtonElement, refusal: string | null): void {
  control.disabled = refusal !== null;
  const title = refusal ?? control.dataset.help;
  if (title) control.title = title;
  else control.removeAttribute('title');
}

/** The clock command a board button sends (the vocabulary's CLOCK_COMMANDS), or none. */
const COMMAND_OF_ACTION: Record<string, ArbiterCommandName> = {
  start: 'start',
  pause: 'pause',
  resume: 'resume',
  takeback: 'takeback',
  reinstate: 'reinstate',
  increment: 'increment',
  arrive: 'arrive',
  adjust: 'adjust',
  'adjust-seconds': 'adjust',
  penalty: 'penalty',
  'set-moves': 'set-moves',
};

function sideRow(side: Side): HTMLElement {
  const row = el('div', `side ${side}`);
  // Under the name: move counter and period ("#41 · P2"), then a late player's default time.
  const meta = el('span', 'meta');
  meta.append(el('span', 'moves'), el('span', 'period'), el('span', 'illegal'));
  const colour = el('span', 'colour', side === 'white' ? '♔' : '♚');
  colour.title = SIDE_NAME[side];
  const flag = el('span', 'flag', '⚑');
  flag.hidden = true;
  const absent = el('span', 'absent');
  absent.hidden = true;
  row.append(colour, el('span', 'name'), flag, el('span', 'time'), meta, absent);
  return row;
}

/** The arbiter's controls of one board (never built on the public page). */
function controls(): HTMLElement {
  const footer = el('footer', 'controls');
  const clock = el('div', 'row');
  clock.append(button('Start', { action: 'start' }, "start the game on this board's clock"), button('Pause', { action: 'pause' }), button('Resume', { action: 'resume' }));
  footer.append(clock);
  // The arbiter's powers (each asks for confirmation first, saying what will change).
  const powers = el('div', 'row powers');
  powers.append(
    button('Take back move', { action: 'takeback' }, 'annul the last completed move (FIDE Laws 7.5.1 with 6.10.2); the clock must be paused or flagged'),
    button('Reinstate', { action: 'reinstate' }, 'overrule the forfeit (FIDE Laws 6.7.1, "unless the arbiter decides otherwise")'),
    button('+5 s increment', { action: 'increment', ms: '5000' }, 'quickplay finish: 5 s for both players after every later move (FIDE Guidelines III.4)'),
  );
  footer.append(powers);
  for (const side of SIDES) {
    const group = el('div', 'row group');
    group.dataset.side = side;
    const seconds = el('input', 'seconds');
    Object.assign(seconds, { type: 'number', step: '1', placeholder: '± s', inputMode: 'numeric' });
    seconds.setAttribute('aria-label', `seconds to add to ${SIDE_NAME[side]} (negative to take away)`);
    const moves = el('input', 'moves-count');
    Object.assign(moves, { type: 'number', min: '0', step: '1', placeholder: 'moves', inputMode: 'numeric' });
    moves.setAttribute('aria-label', `${SIDE_NAME[side]}'s corrected move count`);
    group.append(
      el('b', '', SIDE_NAME[side]),
      button('Arrived', { action: 'arrive', side }, `${SIDE_NAME[side]} is at the board: no loss by default (FIDE Laws 6.7.1)`),
      button('+1 min', { action: 'adjust', side, ms: '60000' }),
      button('−1 min', { action: 'adjust', side, ms: '-60000' }),
      seconds,
      button('Add s', { action: 'adjust-seconds', side }, 'add the seconds typed (negative: take away)'),
      button('Penalty', { action: 'penalty', side }, `illegal move by ${SIDE_NAME[side]}: ${SIDE_NAME[other(side)]} gets extra time (FIDE Laws 7.5.5)`),
      moves,
      button('Set moves', { action: 'set-moves', side }, `correct ${SIDE_NAME[side]}'s move counter (FIDE Laws 6.10.2; a later period's time is credited once)`),
    );
    footer.append(group);
  }
  const result = el('div', 'row result-entry');
  const select = el('select', 'result-select');
  select.setAttribute('aria-label', 'result');
  select.append(Object.assign(el('option', '', 'result…'), { value: '' }));
  for (const value of GAME_RESULTS) select.append(Object.assign(el('option', '', RESULT_MEANING[value].label), { value, title: RESULT_MEANING[value].meaning }));
  result.append(select, button('Enter result', { action: 'result' }), button('Confirm', { action: 'confirm' }, "confirm the result (the arbiter's check)"));
  footer.append(result);
  return footer;
}

function cardFor(b: BoardView): HTMLElement {
  let card = cards.get(b.id);
  if (!card) {
    const c = el('article', 'board');
    card = c;
    c.dataset.boardId = b.id;
    c.tabIndex = -1;
    const head = el('header');
    head.append(el('span', 'label'), el('span', 'status'));
    c.append(head, el('div', 'match'), sideRow('white'), sideRow('black'), el('div', 'flags'), el('div', 'result'));
    if (!PUBLIC) {
      c.append(Object.assign(el('div', 'restore'), { role: 'note', hidden: true }));
      c.append(Object.assign(el('div', 'link-health'), { hidden: true }));
      const footer = controls();
      footer.addEventListener('click', (ev) => {
        const target = (ev.target as Element).closest<HTMLButtonElement>('button[data-action]');
        if (target) void command(b.id, target);
      });
      c.append(footer, Object.assign(el('div', 'message'), { role: 'status' }));
    }
    cards.set(b.id, c);
    grid.append(c);
  }
  return card;
}

function renderBoard(b: BoardView): void {
  const card = cardFor(b);
  rendered.set(b.id, b);
  const live = b.live;
  card.hidden = eventFilter !== '' && b.event !== eventFilter;
  card.dataset.turn = live && live.turn ? live.turn : '';
  card.classList.toggle('offline', isOffline(b));
  card.classList.toggle('pending-result', !!b.result && !b.resultConfirmed);
  setText(card.querySelector('.label'), label(b));
  const match = card.querySelector<HTMLElement>('.match')!;
  setText(match, matchLine(b));
  match.hidden = !b.match;
  card.classList.toggle('decided', !!b.match && b.match.decided);
  const flags = flagsOf(live);
  for (const side of SIDES) {
    const row = card.querySelector<HTMLElement>(`.side.${side}`)!;
    const player = b[side];
    setText(row.querySelector('.name'), player ? player.name + (player.team ? ` (${player.team})` : '') : '—');
    // A game with a result has nobody on move, whatever its clock was left doing.
    row.classList.toggle('on-move', !b.result && !!live && live.turn === side && (live.status === 'running' || live.status === 'paused'));
    row.classList.toggle('running', !b.result && !!live && live.status === 'running' && live.turn === side);
    const flag = row.querySelector<HTMLElement>('.flag')!;
    flag.hidden = !flags.includes(side);
    flag.dataset.first = String(flags[0] === side);
    flag.title = flags[0] === side ? 'flag fell first' : 'flag fell';
    setText(row.querySelector('.moves'), live ? `#${live.moves[side]}` : '');
    // FIDE "period": the stage of the time control this side plays in (40 moves, then the next).
    setText(row.querySelector('.period'), live && live.period ? `P${live.period[side]}` : '');
    // FIDE Laws 7.5.5: the clock counts one illegal move per take-back.
    const illegal = live && live.illegalMoves ? live.illegalMoves[side] : 0;
    setText(row.querySelector('.illegal'), illegal > 0 ? `${illegal} illegal` : '');
  }
  const flagLineEl = card.querySelector<HTMLElement>('.flags')!;
  setText(flagLineEl, flagLine(b));
  flagLineEl.hidden = flags.length === 0;
  if (!PUBLIC) {
    const note = restoreLine(b);
    const restoreEl = card.querySelector<HTMLElement>('.restore')!;
    setText(restoreEl, note ? note.text : '');
    restoreEl.hidden = note === null;
    restoreEl.dataset.kind = note ? note.kind : '';
    const linkEl = card.querySelector<HTMLElement>('.link-health')!;
    setText(linkEl, linkHealthLine(b));
    linkEl.hidden = !b.link;
    const pending = !!b.result && !b.resultConfirmed;
    card.querySelector<HTMLButtonElement>('button[data-action="confirm"]')!.disabled = !pending;
    // Entering a result over one already there is a correction (journaled with the previous one).
    setText(card.querySelector('button[data-action="result"]'), b.result ? 'Correct result' : 'Enter result');
    // Each clock command is offered when the rule book says the clock takes it now; otherwise its
    // button is disabled with the reason (rules/command-rules.ts, the hosts' own rule).
    const facts = live ? { movesCompleted: live.moves.white + live.moves.black } : {};
    for (const control of Array.from(card.querySelectorAll<HTMLButtonElement>('.controls button[data-action]'))) {
      const cmd = COMMAND_OF_ACTION[control.dataset.action!];
      if (cmd) offer(control, boardCommandRefusal(cmd, b, facts));
    }
    // Shown only where they mean something: a side not yet at the board (FIDE Laws 6.7.1), a game lost by default.
    for (const side of SIDES) {
      card.querySelector<HTMLElement>(`button[data-action="arrive"][data-side="${side}"]`)!.hidden = !(live && live.present && live.present[side] === false);
    }
    const reinstate = card.querySelector<HTMLButtonElement>('button[data-action="reinstate"]')!;
    reinstate.hidden = reinstate.disabled;
  }
  repaintTimes(b);
  // match-panels.js paints the lots of a knockout board and the team match protocol from it.
  document.dispatchEvent(new CustomEvent('chessclock:board', { detail: b }));
}

const STATUS_TEXT: Record<string, string> = { pending: 'result pending' };

function repaintTimes(b: BoardView): void {
  const card = cards.get(b.id);
  if (!card) return;
  const t = now();
  const status = statusOf(b, t);
  if (card.dataset.status !== status) {
    card.dataset.status = status;
    card.querySelector('.status')!.textContent = STATUS_TEXT[status] || status;
  }
  setText(card.querySelector('.result'), infoLine(b, t));
  for (const side of SIDES) {
    const row = card.querySelector<HTMLElement>(`.side.${side}`)!;
    const ms = remainingNow(b, side, t);
    setText(row.querySelector('.time'), ms === null ? '' : formatClockTime(ms));
    const absent = row.querySelector<HTMLElement>('.absent')!;
    const left = defaultLeftMs(b, side, t);
    absent.hidden = left === null;
    row.classList.toggle('not-arrived', left !== null);
    setText(absent, left === null ? '' : left > 0 ? `not arrived · default time ${formatClockTime(left)}` : 'not arrived · default time passed');
  }
}

let eventsKey = '';
/** Per event: its current round, the PGN broadcast feed of that round, and Start round (arbiter). */
function renderEvents(): void {
  const nav = document.getElementById('events')!;
  const shown = eventsFiltered();
  const key = JSON.stringify(shown);
  if (key === eventsKey) return;
  eventsKey = key;
  nav.replaceChildren(
    ...shown.map((e) => {
      const row = el('div', 'event');
      row.dataset.event = e.key;
      const link = el('a', 'pgn', `PGN feed · round ${e.round}`);
      link.href = pgnUrl(e.key, e.round);
      // The event's standings and crosstable page, with each round's print view (GET /events/:event/standings).
      const table = el('a', 'standings-link', 'standings & crosstable');
      table.href = `/events/${encodeURIComponent(e.key)}/standings`;
      row.append(el('span', 'event-name', e.name), el('span', 'event-round', `round ${e.round}`), link, table);
      if (!PUBLIC) {
        const start = button(`Start round ${e.round}`, { action: 'start-round', round: String(e.round) }, 'start the clocks of every board of this round');
        start.addEventListener('click', () => void startRound(e.key, e.round, start, row));
        row.append(start, Object.assign(el('span', 'message'), { role: 'status' }));
      }
      return row;
    }),
  );
}

let pendingKey = '';
/** Every unconfirmed result across the boards shown, each with Confirm (arbiter). */
function renderPending(): void {
  const section = document.getElementById('pending');
  if (!section) return;
  const pending = [...store.boards.values()].filter((b) => b.result && !b.resultConfirmed && (eventFilter === '' || b.event === eventFilter));
  const key = JSON.stringify(pending.map((b) => [b.id, b.result, label(b)]));
  if (key === pendingKey) return;
  pendingKey = key;
  section.hidden = pending.length === 0;
  section.querySelector('ul')!.replaceChildren(
    ...pending.map((b) => {
      const li = el('li');
      li.dataset.boardId = b.id;
      const players = `${b.white ? b.white.name : '—'} – ${b.black ? b.black.name : '—'}`;
      const confirm = button('Confirm', { action: 'confirm' }, 'confirm this result');
      confirm.addEventListener('click', () => void command(b.id, confirm));
      li.append(el('span', 'what', `${label(b)}: ${players}`), el('b', 'pending-value', resultText(b.result!)), confirm);
      return li;
    }),
  );
}

const standings = new Standings(document.getElementById('standings'), PUBLIC, () => store.boards.values(), eventsFiltered);

function renderAll(): void {
  for (const b of store.boards.values()) renderBoard(b);
  const select = document.getElementById('event-filter') as HTMLSelectElement;
  const have = Array.from(select.options).map((o) => o.value);
  for (const e of eventsShown()) {
    if (!have.includes(e.key)) select.append(Object.assign(el('option', '', e.name), { value: e.key }));
  }
  select.value = eventFilter;
  renderEvents();
  renderPending();
  standings.render();
  const publicLink = document.getElementById('public-link') as HTMLAnchorElement | null;
  if (publicLink) publicLink.href = `public${eventFilter ? `?event=${encodeURIComponent(eventFilter)}` : ''}`;
}

// Once per animation frame: the boards that changed since the last one.
store.subscribe((change) => {
  if (change.reset) {
    for (const card of cards.values()) card.remove();
    cards.clear();
    rendered.clear();
    renderAll();
    standings.refreshAll();
    return;
  }
  const roundsBefore = new Map(eventsShown().map((e) => [e.key, e.round]));
  let added = false;
  for (const id of change.ids) {
    const b = store.get(id);
    if (!b) continue;
    if (!cards.has(id)) added = true;
    // The standings change only with a confirmed result or a new round, not with the clock.
    if (changesStandings(change.before.get(id), b)) standings.refresh(b.event);
    renderBoard(b);
  }
  for (const e of eventsShown()) if (roundsBefore.get(e.key) !== e.round) standings.refresh(e.key);
  if (added) renderAll();
  else {
    renderEvents();
    renderPending();
  }
});
store.onFeed((m) => {
  // A captain's or the arbiter's mark on a team match: match-panels.js shows it.
  if (m.type === 'team-match' && m.match) document.dispatchEvent(new CustomEvent('chessclock:team-match', { detail: m.match }));
});

// Repaint only: running clocks and countdowns change their text; nothing else is recomputed.
setInterval(() => {
  const t = now();
  for (const b of rendered.values()) if (ticking(b, t)) repaintTimes(b);
}, 50);

// ---- arbiter controls -----------------------------------------------------------
type Request = [method: string, path: string, body?: unknown];

/** The HTTP call of a board button, or an Error naming what is wrong with the input. */
function requestFor(boardId: string, card: HTMLElement, action: string, side: Side | undefined, ms: string | undefined): Request | Error {
  const base = `/api/boards/${encodeURIComponent(boardId)}`;
  switch (action) {
    case 'start':
    case 'pause':
    case 'resume':
      return ['POST', `${base}/${action}`];
    case 'adjust':
      return ['POST', `${base}/adjust`, { side, ms: Number(ms) }];
    case 'adjust-seconds': {
      const input = card.querySelector<HTMLInputElement>(`.group[data-side="${side}"] .seconds`)!;
      const seconds = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(seconds) || seconds === 0) {
        return new Error(`${SIDE_NAME[side!]}: type a whole number of seconds other than 0 (negative takes time away), not "${input.value}"`);
      }
      return ['POST', `${base}/adjust`, { side, ms: seconds * 1000 }];
    }
    case 'penalty':
      return ['POST', `${base}/penalty`, { side }];
    case 'set-moves': {
      const input = card.querySelector<HTMLInputElement>(`.group[data-side="${side}"] .moves-count`)!;
      const moves = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(moves) || moves < 0) {
        return new Error(`${SIDE_NAME[side!]}: type the number of moves completed (a whole number ≥ 0), not "${input.value}"`);
      }
      return ['POST', `${base}/moves`, { side, moves }];
    }
    case 'result': {
      const result = card.querySelector<HTMLSelectElement>('.result-select')!.value;
      if (!result) return new Error('choose a result first');
      const b = store.get(boardId);
      if (!b || !b.resultConfirmed) return ['PUT', `${base}/result`, { result }];
      // A confirmed result is changed only by a correction that says why (docs/api.md, "A game
      // with a result"); it is journaled with the arbiter and the reason.
      const reason = window.prompt(`Correct the confirmed result ${b.result} of board ${b.board} to ${result}?\n\nSay why (journaled with your name):`, '');
      if (reason === null || reason.trim() === '') return new Error(`correction to ${result}: cancelled, nothing was sent (a confirmed result is corrected only with a reason)`);
      return ['PUT', `${base}/result`, { result, reason: reason.trim() }];
    }
    case 'confirm':
      return ['POST', `${base}/result/confirm`];
    case 'arrive':
      return ['POST', `${base}/arrive`, { side }];
    case 'takeback':
      return ['POST', `${base}/takeback`];
    case 'reinstate':
      return ['POST', `${base}/reinstate`];
    case 'increment':
      return ['POST', `${base}/increment`, { ms: Number(ms) }];
    default:
      return new Error(`unknown action "${action}"`);
  }
}

/**
 * What an arbiter's power will change, asked before it is sent (null: no question for this
 * action). The clock and the host decide; this only says what the arbiter is about to do.
 */
function confirmText(b: BoardView | undefined, action: string, side: Side | undefined, ms: string | undefined): string | null {
  const live = b && b.live;
  const where = b ? `board ${b.board}` : 'this board';
  switch (action) {
    case 'arrive':
      return `Mark ${SIDE_NAME[side!]} as arrived at ${where}?\n\nFIDE Laws 6.7.1: ${SIDE_NAME[side!]} can no longer lose by default. Times do not change.`;
    case 'takeback': {
      // The side that made the last move is the one not on move (paused or flagged).
      const mover = live && live.turn ? other(live.turn) : null;
      const who = mover ? `${SIDE_NAME[mover]}'s last move (#${live!.moves[mover]})` : 'the last move';
      return `Take back ${who} on ${where}?\n\nFIDE Laws 7.5.1 with 6.10.2: both times go back to what they were at that press (no increment, no period time), ${mover ? SIDE_NAME[mover] : 'that player'} is on move again with one more illegal move counted, and a flag that fell after it is annulled. The clock stays paused. The penalty (Laws 7.5.5) is a separate step.`;
    }
    case 'reinstate':
      return `Reinstate the game on ${where}?\n\nFIDE Laws 6.7.1 ("unless the arbiter decides otherwise"): the loss by default is overruled, both players count as present, and the clock stands paused with the times it had at the forfeit. Resume it when play goes on.`;
    case 'increment':
      return `Give both players ${Number(ms) / 1000} s after every move from now on, on ${where}?\n\nFIDE Guidelines III.4 (quickplay finish): the increment is added to each later completed move, on top of the control's own; it replaces an earlier quickplay increment. The 2 minutes for the opponent are a separate +time.`;
    default:
      return null;
  }
}

async function command(boardId: string, target: HTMLButtonElement): Promise<void> {
  const card = cards.get(boardId)!;
  const message = card.querySelector<HTMLElement>('.message')!;
  const { action, ms } = target.dataset;
  const side = target.dataset.side as Side | undefined;
  const request = requestFor(boardId, card, action!, side, ms);
  if (request instanceof Error) {
    message.dataset.kind = 'error';
    message.textContent = request.message;
    return;
  }
  const question = confirmText(store.get(boardId), action!, side, ms);
  if (question !== null && !window.confirm(question)) {
    message.dataset.kind = 'ok';
    message.textContent = `${target.textContent!.trim()}${side ? ` (${side})` : ''}: cancelled, nothing was sent`;
    return;
  }
  target.disabled = true;
  try {
    const data = await api<{ board?: BoardView; arbiter: string }>(...request);
    if (data.board) store.set(data.board);
    message.dataset.kind = 'ok';
    const what = action === 'result' ? `${target.textContent!.trim()} ${(request[2] as { result: string }).result}` : target.textContent!.trim();
    message.textContent = `${what}${side ? ` (${side})` : ''}: done by ${data.arbiter}`;
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = (err as Error).message;
  } finally {
    target.disabled = false;
    const b = store.get(boardId);
    if (b) {
      renderBoard(b);
      renderPending();
    }
  }
}

async function startRound(event: string, round: number, target: HTMLButtonElement, row: HTMLElement): Promise<void> {
  const message = row.querySelector<HTMLElement>('.message')!;
  target.disabled = true;
  try {
    const data = await api<{ started: string[]; skipped?: { boardId: string; reason: string }[]; arbiter: string }>('POST', `/api/events/${encodeURIComponent(event)}/rounds/${round}/start`);
    const skipped = (data.skipped || []).map((s) => `${s.boardId}: ${s.reason}`);
    message.dataset.kind = skipped.length ? 'error' : 'ok';
    message.textContent = `round ${round}: ${data.started.length} started by ${data.arbiter}${skipped.length ? `; skipped ${skipped.join('; ')}` : ''}`;
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = (err as Error).message;
  } finally {
    target.disabled = false;
  }
}

// ---- opening a board ------------------------------------------------------------
/** Shows a board: scrolls it into view and gives it the focus (the attention strip calls this). */
export function openBoard(boardId: string): void {
  const card = cards.get(boardId);
  if (!card) return;
  if (card.hidden) {
    // Filtered away: show every event again rather than open nothing.
    setEventFilter('');
  }
  card.scrollIntoView({ block: 'center' });
  card.focus({ preventScroll: true });
  card.classList.add('opened');
  setTimeout(() => card.classList.remove('opened'), 2000);
}

// ---- host health ----------------------------------------------------------------
// A fault the host survives but the arbiter must know (a full disk: nothing is acknowledged
// to the clocks until it clears) is shown above the boards until the host says it cleared.
const healthAlert = document.getElementById('health');

async function refreshHealth(): Promise<void> {
  if (!healthAlert) return;
  try {
    const res = await fetch('/api/health', { cache: 'no-store' });
    const h = (await res.json()) as { ok?: boolean; journal?: { ok?: boolean; reason?: string } };
    const problem = h.ok === false ? (h.journal && h.journal.ok === false ? `Journal fault: ${h.journal.reason}` : 'The host reports a fault.') : '';
    healthAlert.hidden = problem === '';
    healthAlert.textContent = problem;
  } catch {
    // The host is unreachable: the connection badge already says so.
  }
}
void refreshHealth();
setInterval(() => void refreshHealth(), 5_000);

// ---- sign-in --------------------------------------------------------------------
const nextRoundSection = document.getElementById('next-round');
const nextRound = nextRoundSection && !PUBLIC ? new NextRound(nextRoundSection, () => eventsShown().map((e) => e.key), () => eventFilter) : null;

function signOut(reason: string): void {
  signedIn = false;
  setToken('', false);
  document.body.classList.remove('arbiter');
  document.getElementById('arbiter')!.textContent = reason;
  document.getElementById('sign-out')!.hidden = true;
  nextRound?.hide();
}

async function signIn(candidate: string): Promise<void> {
  setToken(candidate, false);
  try {
    const { arbiter } = await api<{ arbiter: string }>('GET', '/api/arbiter');
    setToken(candidate, true);
    signedIn = true;
    document.body.classList.add('arbiter');
    document.getElementById('arbiter')!.textContent = `arbiter: ${arbiter}`;
    document.getElementById('sign-out')!.hidden = false;
    void nextRound?.refresh();
  } catch (err) {
    signOut((err as Error).message);
  }
}

function setEventFilter(value: string): void {
  eventFilter = value;
  const url = new URL(location.href);
  if (eventFilter) url.searchParams.set('event', eventFilter);
  else url.searchParams.delete('event');
  history.replaceState(null, '', url);
  renderAll();
}

if (!PUBLIC) {
  document.getElementById('token-form')!.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = document.getElementById('token') as HTMLInputElement;
    void signIn(input.value.trim());
    input.value = '';
  });
  document.getElementById('sign-out')!.addEventListener('click', () => signOut(''));
  onUnauthorized((reason) => {
    if (signedIn) signOut(`signed out: ${reason}`);
  });
}
document.getElementById('event-filter')!.addEventListener('change', (ev) => setEventFilter((ev.target as HTMLSelectElement).value));

const connection = document.getElementById('connection')!;
const initialToken = PUBLIC ? '' : storedToken();
if (initialToken) void signIn(initialToken);
store.connect((state, text) => {
  connection.dataset.state = state;
  connection.textContent = text;
  if (state === 'live') void refreshHealth();
});

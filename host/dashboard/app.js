// The arbiter dashboard: a grid of boards kept live over the host's WebSocket feed (/ws),
// with arbiter controls that call the HTTP API (docs/api.md). Plain browser JavaScript,
// no build step.
//
// Times: each board's state carries both remaining times as of its last clock event and
// that event's UTC instant (`atUtcMs`). Between events the running side's time is
// computed, never counted down: remaining − (now − atUtcMs), with `now` the host's time
// derived from `serverUtcMs` and `timeRate` of the feed's hello (rate 1 in a real hall). The
// repaint timer only repaints (ARCHITECTURE rule 3).

const boards = new Map(); // id -> BoardView
const cards = new Map(); // id -> card element
/** Host UTC and browser UTC at the last hello (ms), and host ms per browser ms (a simulated hall on accelerated time runs faster than 1). */
let hostAtHelloMs = Date.now();
let browserAtHelloMs = hostAtHelloMs;
let timeRate = 1;
let token = sessionStorage.getItem('chessclock-token') || '';
let eventFilter = new URLSearchParams(location.search).get('event') || '';

// ---- time display (same rules as the clock's own display, firmware-ts/display-format.ts)
// Rounded UP to the shown unit (FIDE equipment standard: the display shows the time
// available); h:mm:ss from one hour, m:ss below, seconds with tenths below 20 s.
export function formatClockTime(remainingMs) {
  const ms = Math.max(0, remainingMs);
  const tenths = Math.ceil(ms / 100);
  if (tenths < 200) return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  const s = Math.ceil(ms / 1000);
  const two = (n) => String(n).padStart(2, '0');
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

function hostNowMs() {
  return hostAtHelloMs + (Date.now() - browserAtHelloMs) * timeRate;
}

/** A side's remaining time now: computed from the last event while its clock runs. */
function remainingNow(live, side) {
  const atEvent = side === 'white' ? live.whiteMs : live.blackMs;
  if (live.status !== 'running' || live.turn !== side) return atEvent;
  return atEvent - Math.max(0, hostNowMs() - live.atUtcMs);
}

// ---- rendering ------------------------------------------------------------------
const grid = document.getElementById('boards');
const template = document.getElementById('board-template');

function label(b) {
  const game = b.game && b.game.matchId ? ` · G${b.game.no} ${b.game.kind}` : '';
  return `${b.eventName || b.event} · R${b.round} · B${b.board}${game}`;
}

/** Before a game's earliest start (a knockout break), the time left until it; else null. */
function breakLeftMs(b) {
  if (b.live || b.result || !b.startsAtUtcMs) return null;
  const left = b.startsAtUtcMs - hostNowMs();
  return left > 0 ? left : null;
}

function infoLine(b) {
  if (b.result) return `${b.result}${b.resultConfirmed ? ' ✓ confirmed' : ' (unconfirmed)'}`;
  // The times shown are the last the host heard: say so when the clock is not connected.
  if (b.clockOnline === false && b.clockId) return `clock ${b.clockId} offline — times as last reported`;
  const left = breakLeftMs(b);
  if (left !== null) return `break: ${formatClockTime(left)} until the start${b.timeControl ? ` · ${b.timeControl}` : ''}`;
  return b.timeControl || '';
}

function cardFor(b) {
  let card = cards.get(b.id);
  if (!card) {
    card = template.content.firstElementChild.cloneNode(true);
    card.dataset.boardId = b.id;
    card.querySelector('.controls').addEventListener('click', (ev) => {
      const button = ev.target.closest('button[data-action]');
      if (button) command(b.id, button);
    });
    cards.set(b.id, card);
    grid.append(card);
  }
  return card;
}

function renderBoard(b) {
  const card = cardFor(b);
  const live = b.live;
  card.hidden = eventFilter !== '' && b.event !== eventFilter;
  card.dataset.turn = live && live.turn ? live.turn : '';
  card.classList.toggle('offline', b.clockOnline === false && !!b.clockId && !b.result);
  card.querySelector('.label').textContent = label(b);
  for (const side of ['white', 'black']) {
    const row = card.querySelector(`.side.${side}`);
    const player = b[side];
    row.querySelector('.name').textContent = player ? player.name + (player.team ? ` (${player.team})` : '') : '—';
    row.classList.toggle('on-move', !!live && live.turn === side && (live.status === 'running' || live.status === 'paused'));
    row.classList.toggle('running', !!live && live.status === 'running' && live.turn === side);
    row.querySelector('.flag').hidden = !(live && live.flag === side);
    row.querySelector('.moves').textContent = live ? `#${live.moves[side]}` : '';
  }
  repaintTimes(b);
}

function statusOf(b) {
  if (b.result) return 'finished';
  if (b.live) return b.live.status;
  if (breakLeftMs(b) !== null) return 'break';
  return b.timeControl ? 'ready' : 'idle';
}

function repaintTimes(b) {
  const card = cards.get(b.id);
  if (!card) return;
  const status = statusOf(b);
  if (card.dataset.status !== status) {
    card.dataset.status = status;
    card.querySelector('.status').textContent = status;
  }
  const info = card.querySelector('.result');
  const line = infoLine(b);
  if (info.textContent !== line) info.textContent = line;
  for (const side of ['white', 'black']) {
    const el = card.querySelector(`.side.${side} .time`);
    const text = b.live ? formatClockTime(remainingNow(b.live, side)) : '';
    if (el.textContent !== text) el.textContent = text;
  }
}

function renderAll() {
  for (const b of boards.values()) renderBoard(b);
  const select = document.getElementById('event-filter');
  const events = new Map([...boards.values()].map((b) => [b.event, b.eventName || b.event]));
  const have = [...select.options].map((o) => o.value);
  for (const [key, name] of [...events].sort((a, b) => a[1].localeCompare(b[1]))) {
    if (!have.includes(key)) {
      const o = document.createElement('option');
      o.value = key;
      o.textContent = name;
      select.append(o);
    }
  }
  select.value = eventFilter;
}

// Repaint only: running clocks change their text; nothing else is recomputed.
setInterval(() => {
  for (const b of boards.values()) {
    if ((b.live && b.live.status === 'running') || breakLeftMs(b) !== null) repaintTimes(b);
  }
}, 50);

// ---- live feed ------------------------------------------------------------------
const connection = document.getElementById('connection');
let retryMs = 500;

function setConnection(state, text) {
  connection.dataset.state = state;
  connection.textContent = text;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.onopen = () => {
    retryMs = 500;
    setConnection('live', 'live');
  };
  ws.onmessage = (msg) => {
    const m = JSON.parse(msg.data);
    if (m.type === 'hello') {
      hostAtHelloMs = m.serverUtcMs;
      browserAtHelloMs = Date.now();
      timeRate = m.timeRate > 0 ? m.timeRate : 1;
      boards.clear();
      for (const card of cards.values()) card.remove();
      cards.clear();
      for (const b of m.boards) boards.set(b.id, b);
      renderAll();
    } else if ((m.type === 'event' || m.type === 'board') && m.board) {
      boards.set(m.board.id, m.board);
      renderBoard(m.board);
      if (m.type === 'board' || !cards.has(m.board.id)) renderAll();
    }
  };
  ws.onclose = () => {
    setConnection('down', 'disconnected: reconnecting…');
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  };
}

// ---- arbiter controls -----------------------------------------------------------
async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || `${res.status} ${res.statusText}`);
  return data;
}

async function command(boardId, button) {
  const card = cards.get(boardId);
  const message = card.querySelector('.message');
  const { action, side, ms } = button.dataset;
  const body = action === 'adjust' ? { side, ms: Number(ms) } : action === 'penalty' ? { side } : undefined;
  button.disabled = true;
  try {
    const data = await api('POST', `/api/boards/${encodeURIComponent(boardId)}/${action}`, body);
    message.dataset.kind = 'ok';
    message.textContent = `${button.textContent.trim()}${side ? ` (${side})` : ''}: done by ${data.arbiter}`;
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

async function signIn(candidate) {
  const who = document.getElementById('arbiter');
  token = candidate;
  try {
    const { arbiter } = await api('GET', '/api/arbiter');
    sessionStorage.setItem('chessclock-token', token);
    document.body.classList.add('arbiter');
    who.textContent = `arbiter: ${arbiter}`;
    document.getElementById('sign-out').hidden = false;
  } catch (err) {
    token = '';
    sessionStorage.removeItem('chessclock-token');
    document.body.classList.remove('arbiter');
    who.textContent = err.message;
  }
}

document.getElementById('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = document.getElementById('token');
  signIn(input.value.trim());
  input.value = '';
});
document.getElementById('sign-out').addEventListener('click', () => {
  token = '';
  sessionStorage.removeItem('chessclock-token');
  document.body.classList.remove('arbiter');
  document.getElementById('arbiter').textContent = '';
  document.getElementById('sign-out').hidden = true;
});
document.getElementById('event-filter').addEventListener('change', (ev) => {
  eventFilter = ev.target.value;
  const url = new URL(location.href);
  if (eventFilter) url.searchParams.set('event', eventFilter);
  else url.searchParams.delete('event');
  history.replaceState(null, '', url);
  renderAll();
});

if (token) signIn(token);
connect();

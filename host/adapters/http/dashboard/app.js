// The arbiter dashboard (/) and the public hall view (/public): a grid of boards kept live
// over the host's WebSocket feed (/ws). On the arbiter page a signed-in arbiter gets the
// controls, which call the HTTP API (docs/api.md); the public page (body[data-view=public])
// is read-only and builds no controls at all. Plain browser JavaScript, no build step of its
// own: every rule it shows comes from the rule book (rules/), which the server bundles when it
// starts and serves at /rule-book.js (host/adapters/http/dashboard/rule-book.entry.ts): the display format,
// the vocabulary (sides, results with the forfeit codes), and which command each status
// accepts. This file keeps no copy of them (issue 11, one rule book).
//
// Times: each board's state carries both remaining times as of its last clock event and
// that event's UTC instant (`atUtcMs`). Between events the running side's time is
// computed by the rule book, never counted down (remainingNow, below), with `now` the host's time
// derived from `serverUtcMs` and `timeRate` of the feed's hello (rate 1 in a real hall). An
// absent player's default time is computed the same way: start + default time − now. The
// repaint timer only repaints (docs/architecture.md rule 3).
import { el, points } from './page-kit.js';
import { basisDefaultTimeLeftMs, basisRemainingMs, boardCommandRefusal, formatClockTime, GAME_RESULTS, other, RESULT_MEANING, SIDE_NAME, SIDES } from './rule-book.js';

const PUBLIC = document.body.dataset.view === 'public';

const boards = new Map(); // id -> BoardView
const cards = new Map(); // id -> card element
/** Host UTC and browser UTC at the last hello (ms), and host ms per browser ms (a simulated hall on accelerated time runs faster than 1). */
let hostAtHelloMs = Date.now();
let browserAtHelloMs = hostAtHelloMs;
let timeRate = 1;
let token = PUBLIC ? '' : sessionStorage.getItem('chessclock-token') || '';
let eventFilter = new URLSearchParams(location.search).get('event') || '';

// Time display: formatClockTime from the rule book (rules/display-format.ts), the clock's own
// display rule (rounded UP to the shown unit, FIDE equipment standard).

function hostNowMs() {
  return hostAtHelloMs + (Date.now() - browserAtHelloMs) * timeRate;
}

/**
 * A side's remaining time now, with the rule book's arithmetic (rules/clock-snapshot.ts
 * basisRemainingMs over the clock basis the live state carries): the running side's time
 * with a simple or Bronstein delay, and with a sandclock both sides' (what runs out of one
 * glass runs into the other). Once the game has a result the times are those of the last
 * event, even if the clock was left running (a result entered at the host). A board whose
 * control the host does not know shows the clock's last reported figures.
 */
function remainingNow(b, side) {
  const live = b.live;
  const elapsed = b.result ? 0 : Math.max(0, hostNowMs() - live.atUtcMs);
  if (live.clock) return basisRemainingMs(live.clock, side, elapsed);
  return side === 'white' ? live.whiteMs : live.blackMs;
}

/**
 * FIDE Laws 6.7.1: a player not present at the start loses unless they arrive within the
 * default time, counted from the start: start + default time − now. Null when the side is
 * present, the board does not track default time, or the game is not under way.
 */
function defaultLeftMs(b, side) {
  const live = b.live;
  if (b.result || !live || !live.clock || !live.present || live.present[side] !== false) return null;
  // The rule book's default-time countdown (rules/clock-snapshot.ts basisDefaultTimeLeftMs):
  // from the session's start, through pauses, while the game is under way.
  return basisDefaultTimeLeftMs(live.clock, Math.max(0, hostNowMs() - live.atUtcMs));
}

/** Sides whose flag fell, first first (FIDE Laws 6.9: who fell first matters, III.3.1). */
function flagsOf(live) {
  if (!live) return [];
  if (Array.isArray(live.flags)) return live.flags;
  return live.flag ? [live.flag] : [];
}


function matchLine(b) {
  const m = b.match;
  if (!m) return '';
  const score = `Match ${points(m.whiteScore)}–${points(m.blackScore)}`;
  if (m.decided) return `${score} · decided: ${m.winner ?? '?'} wins${m.decidedBy ? ` (${m.decidedBy})` : ''}`;
  const stage = m.stage === 'classical' ? 'classical' : `${m.stage} tie-break`;
  return `${score} · ${stage}${b.game ? `, game ${b.game.no}` : ''}`;
}

function flagLine(b) {
  const flags = flagsOf(b.live);
  if (flags.length === 0) return '';
  const first = `${SIDE_NAME[flags[0]]}'s flag fell first`;
  return flags.length > 1 ? `${first}, then ${SIDE_NAME[flags[1]]}'s` : first;
}

/** The event's current round as the boards show it: the highest round among its boards. */
function eventsShown() {
  const events = new Map();
  for (const b of boards.values()) {
    const e = events.get(b.event);
    if (!e) events.set(b.event, { key: b.event, name: b.eventName || b.event, round: b.round });
    else e.round = Math.max(e.round, b.round);
  }
  return [...events.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function pgnUrl(event, round) {
  return `/broadcast/round/${round}/games.pgn?event=${encodeURIComponent(event)}`;
}

// ---- rendering ------------------------------------------------------------------
const grid = document.getElementById('boards');


function button(label, data, title) {
  const b = el('button', '', label);
  b.type = 'button';
  Object.assign(b.dataset, data);
  if (title) b.title = title;
  // What the button does, shown again once the rule book lets it be used (offer, below).
  b.dataset.help = title || '';
  return b;
}

/**
 * Enables a control, or disables it with the rule book's reason as its tooltip: the same
 * words the host answers with (rules/command-rules.ts; the host and the clock still check).
 */
function offer(control, refusal) {
  control.disabled = refusal !== null;
  const title = refusal ?? control.dataset.help;
  if (title) control.title = title;
  else control.removeAttribute('title');
}

/** The clock command a board button sends (the vocabulary's CLOCK_COMMANDS), or null. */
const COMMAND_OF_ACTION = {
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

/** A result as the dashboard writes it: a played one as its token, a forfeit in the vocabulary's words (`−− (both forfeit)`). */
function resultText(result) {
  const meaning = RESULT_MEANING[result];
  return meaning && meaning.forfeit ? meaning.label : result;
}

/**
 * The appeal window of a confirmed result (the regulation's, docs/regulations.md): until when an
 * appeal may be lodged, or that the result is final; '' where the event states no window.
 */
function appealText(b) {
  if (!b.resultConfirmed || b.appealUntilUtcMs === undefined) return '';
  if (b.appealUntilUtcMs === null) return ' · appeal time runs from the end of the round';
  if (b.resultFinal || hostNowMs() >= b.appealUntilUtcMs) return ' · final (appeal time over)';
  return ` · appeal until ${new Date(b.appealUntilUtcMs).toISOString().slice(11, 16)} UTC`;
}

function infoLine(b) {
  if (b.result) return `${resultText(b.result)}${b.resultConfirmed ? ' ✓ confirmed' : ' (unconfirmed)'}${appealText(b)}`;
  // The times shown are the last the host heard: say so when the clock is not connected.
  if (b.clockOnline === false && b.clockId) return `clock ${b.clockId} offline — times as last reported`;
  const left = breakLeftMs(b);
  if (left !== null) return `break: ${formatClockTime(left)} until the start${b.timeControl ? ` · ${b.timeControl}` : ''}`;
  return b.timeControl || '';
}

/**
 * The last time the host brought this board's clock to the journal (docs/protocol.md
 * "Restore"): the journal won, and the arbiter sees what the clock had differently. A clock
 * that held exactly the journal's game is mentioned only while the board waits, paused, for
 * the arbiter to resume it. Null: nothing to say.
 */
// The clock line's health as the host sees it (docs/reliability.md "Link health").
function linkHealthLine(b) {
  const l = b.link;
  if (!l) return '';
  const parts = [`${l.framesDropped} dropped (${l.crcFailures} CRC)`, `${l.retransmits} resent`, `${l.duplicatesReceived} repeats`];
  if (l.rttMs !== null) parts.push(`RTT ${Math.round(l.rttMs)} ms`);
  if (l.connections > 1) parts.push(`connection ${l.connections}`);
  return `link: ${parts.join(' · ')}`;
}

function restoreLine(b) {
  const r = b.restore;
  if (!r || b.result) return null;
  const at = new Date(r.utcMs).toISOString().slice(11, 19);
  const problems = [];
  if (r.differences.length) problems.push(`it differed from the journal: ${r.differences.join('; ')}`);
  if (r.mismatches.length) problems.push(`journal events the rule book does not reproduce: ${r.mismatches.join('; ')}`);
  if (r.outcome === 'refused' || r.outcome === 'failed') {
    return { kind: 'error', text: `clock ${r.clockId} not brought to the journal at ${at} UTC: ${r.reason || r.outcome}${problems.length ? `; ${problems.join('; ')}` : ''}` };
  }
  const paused = b.live && b.live.status === 'paused';
  if (!problems.length && !paused) return null;
  const what = r.outcome === 'restored' ? 'restored from the journal' : 'held, matching the journal';
  return { kind: problems.length ? 'warning' : 'ok', text: `clock ${r.clockId} ${what} at ${at} UTC${problems.length ? `; ${problems.join('; ')}` : ''}${paused ? ' — paused: resume when play goes on' : ''}` };
}

function sideRow(side) {
  const row = el('div', `side ${side}`);
  // Under the name: move counter and period ("#41 · P2"), then a late player's default time.
  const meta = el('span', 'meta');
  meta.append(el('span', 'moves'), el('span', 'period'), el('span', 'illegal'));
  row.append(el('span', 'colour', side === 'white' ? '♔' : '♚'), el('span', 'name'), el('span', 'flag', '⚑'), el('span', 'time'), meta, el('span', 'absent'));
  row.querySelector('.colour').title = SIDE_NAME[side];
  row.querySelector('.flag').hidden = true;
  row.querySelector('.absent').hidden = true;
  return row;
}

/** The arbiter's controls of one board (never built on the public page). */
function controls() {
  const footer = el('footer', 'controls');
  const clock = el('div', 'row');
  clock.append(button('Start', { action: 'start' }, 'start the game on this board\'s clock'), button('Pause', { action: 'pause' }), button('Resume', { action: 'resume' }));
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
    const offender = SIDE_NAME[side];
    const beneficiary = SIDE_NAME[other(side)];
    group.append(
      el('b', '', SIDE_NAME[side]),
      button('Arrived', { action: 'arrive', side }, `${SIDE_NAME[side]} is at the board: no loss by default (FIDE Laws 6.7.1)`),
      button('+1 min', { action: 'adjust', side, ms: '60000' }),
      button('−1 min', { action: 'adjust', side, ms: '-60000' }),
      seconds,
      button('Add s', { action: 'adjust-seconds', side }, 'add the seconds typed (negative: take away)'),
      button('Penalty', { action: 'penalty', side }, `illegal move by ${offender}: ${beneficiary} gets extra time (FIDE Laws 7.5.5)`),
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
  result.append(select, button('Enter result', { action: 'result' }), button('Confirm', { action: 'confirm' }, 'confirm the result (the arbiter\'s check)'));
  footer.append(result);
  return footer;
}

function cardFor(b) {
  let card = cards.get(b.id);
  if (!card) {
    card = el('article', 'board');
    card.dataset.boardId = b.id;
    const head = el('header');
    head.append(el('span', 'label'), el('span', 'status'));
    card.append(head, el('div', 'match'), sideRow('white'), sideRow('black'), el('div', 'flags'), el('div', 'result'));
    if (!PUBLIC) card.append(Object.assign(el('div', 'restore'), { role: 'note', hidden: true }));
    if (!PUBLIC) card.append(Object.assign(el('div', 'link-health'), { hidden: true }));
    if (!PUBLIC) {
      const footer = controls();
      footer.addEventListener('click', (ev) => {
        const target = ev.target.closest('button[data-action]');
        if (target) command(b.id, target);
      });
      card.append(footer, Object.assign(el('div', 'message'), { role: 'status' }));
    }
    cards.set(b.id, card);
    grid.append(card);
  }
  return card;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function renderBoard(b) {
  const card = cardFor(b);
  const live = b.live;
  card.hidden = eventFilter !== '' && b.event !== eventFilter;
  card.dataset.turn = live && live.turn ? live.turn : '';
  card.classList.toggle('offline', b.clockOnline === false && !!b.clockId && !b.result);
  card.classList.toggle('pending-result', !!b.result && !b.resultConfirmed);
  setText(card.querySelector('.label'), label(b));
  const match = card.querySelector('.match');
  setText(match, matchLine(b));
  match.hidden = !b.match;
  card.classList.toggle('decided', !!b.match && b.match.decided);
  const flags = flagsOf(live);
  for (const side of SIDES) {
    const row = card.querySelector(`.side.${side}`);
    const player = b[side];
    setText(row.querySelector('.name'), player ? player.name + (player.team ? ` (${player.team})` : '') : '—');
    // A game with a result has nobody on move, whatever its clock was left doing.
    row.classList.toggle('on-move', !b.result && !!live && live.turn === side && (live.status === 'running' || live.status === 'paused'));
    row.classList.toggle('running', !b.result && !!live && live.status === 'running' && live.turn === side);
    const flag = row.querySelector('.flag');
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
  const flagLineEl = card.querySelector('.flags');
  setText(flagLineEl, flagLine(b));
  flagLineEl.hidden = flags.length === 0;
  if (!PUBLIC) {
    const note = restoreLine(b);
    const restoreEl = card.querySelector('.restore');
    setText(restoreEl, note ? note.text : '');
    restoreEl.hidden = note === null;
    restoreEl.dataset.kind = note ? note.kind : '';
    const linkEl = card.querySelector('.link-health');
    setText(linkEl, linkHealthLine(b));
    linkEl.hidden = !b.link;
    const pending = !!b.result && !b.resultConfirmed;
    card.querySelector('button[data-action="confirm"]').disabled = !pending;
    // Entering a result over one already there is a correction (journaled with the previous one).
    setText(card.querySelector('button[data-action="result"]'), b.result ? 'Correct result' : 'Enter result');
    // Each clock command is offered when the rule book says the clock takes it now; otherwise its
    // button is disabled with the reason (rules/command-rules.ts, the hosts' own rule).
    const facts = live ? { movesCompleted: live.moves.white + live.moves.black } : {};
    for (const control of card.querySelectorAll('.controls button[data-action]')) {
      const command = COMMAND_OF_ACTION[control.dataset.action];
      if (command) offer(control, boardCommandRefusal(command, b, facts));
    }
    // Shown only where they mean something: a side not yet at the board (FIDE Laws 6.7.1), a game lost by default.
    for (const side of SIDES) {
      card.querySelector(`button[data-action="arrive"][data-side="${side}"]`).hidden = !(live && live.present && live.present[side] === false);
    }
    const reinstate = card.querySelector('button[data-action="reinstate"]');
    reinstate.hidden = reinstate.disabled;
  }
  repaintTimes(b);
  // match-panels.js paints the lots of a knockout board and the team match protocol from it.
  document.dispatchEvent(new CustomEvent('chessclock:board', { detail: b }));
}

function statusOf(b) {
  if (b.result) return b.resultConfirmed ? 'finished' : 'pending';
  if (b.live) return b.live.status;
  if (breakLeftMs(b) !== null) return 'break';
  return b.timeControl ? 'ready' : 'idle';
}

const STATUS_TEXT = { pending: 'result pending' };

function repaintTimes(b) {
  const card = cards.get(b.id);
  if (!card) return;
  const status = statusOf(b);
  if (card.dataset.status !== status) {
    card.dataset.status = status;
    card.querySelector('.status').textContent = STATUS_TEXT[status] || status;
  }
  setText(card.querySelector('.result'), infoLine(b));
  for (const side of SIDES) {
    const row = card.querySelector(`.side.${side}`);
    setText(row.querySelector('.time'), b.live ? formatClockTime(remainingNow(b, side)) : '');
    const absent = row.querySelector('.absent');
    const left = defaultLeftMs(b, side);
    absent.hidden = left === null;
    row.classList.toggle('not-arrived', left !== null);
    setText(absent, left === null ? '' : left > 0 ? `not arrived · default time ${formatClockTime(left)}` : 'not arrived · default time passed');
  }
}

/** Whether a board's text changes with time between events. */
function ticking(b) {
  if (breakLeftMs(b) !== null) return true;
  if (!b.live) return false;
  return b.live.status === 'running' || defaultLeftMs(b, 'white') !== null || defaultLeftMs(b, 'black') !== null;
}

let eventsKey = '';
/** Per event: its current round, the PGN broadcast feed of that round, and Start round (arbiter). */
function renderEvents() {
  const nav = document.getElementById('events');
  const shown = eventsShown().filter((e) => eventFilter === '' || e.key === eventFilter);
  const key = JSON.stringify(shown);
  if (key === eventsKey) return;
  eventsKey = key;
  nav.replaceChildren(
    ...shown.map((e) => {
      const row = el('div', 'event');
      row.dataset.event = e.key;
      const link = el('a', 'pgn', `PGN feed · round ${e.round}`);
      link.href = pgnUrl(e.key, e.round);
      row.append(el('span', 'event-name', e.name), el('span', 'event-round', `round ${e.round}`), link);
      if (!PUBLIC) {
        const start = button(`Start round ${e.round}`, { action: 'start-round', round: String(e.round) }, 'start the clocks of every board of this round');
        start.addEventListener('click', () => startRound(e.key, e.round, start, row));
        row.append(start, Object.assign(el('span', 'message'), { role: 'status' }));
      }
      return row;
    }),
  );
}

let pendingKey = '';
/** Every unconfirmed result across the boards shown, each with Confirm (arbiter). */
function renderPending() {
  const section = document.getElementById('pending');
  if (!section) return;
  const pending = [...boards.values()].filter((b) => b.result && !b.resultConfirmed && (eventFilter === '' || b.event === eventFilter));
  const key = JSON.stringify(pending.map((b) => [b.id, b.result, label(b)]));
  if (key === pendingKey) return;
  pendingKey = key;
  section.hidden = pending.length === 0;
  section.querySelector('ul').replaceChildren(
    ...pending.map((b) => {
      const li = el('li');
      li.dataset.boardId = b.id;
      const players = `${b.white ? b.white.name : '—'} – ${b.black ? b.black.name : '—'}`;
      const confirm = button('Confirm', { action: 'confirm' }, 'confirm this result');
      confirm.addEventListener('click', () => command(b.id, confirm));
      li.append(el('span', 'what', `${label(b)}: ${players}`), el('b', 'pending-value', resultText(b.result)), confirm);
      return li;
    }),
  );
}

// ---- standings of team events (GET /api/standings) ----------------------------------
// Asked for only for events whose boards name teams (a knockout or individual event has none,
// and the host would refuse it), once on connect and again when a result is confirmed or
// un-confirmed, or the event's round moves on — never on a clock event.

/**
 * Team places: the regulation's order (docs/tournament.md "Ivanovo standings"); `main` columns show
 * on /public. `criterion` is the criterion's name in the ranking's `separatedBy` (host/domain/standings.ts).
 */
const TEAM_COLUMNS = [
  { key: 'gamePoints', criterion: 'board points', head: 'Board pts', long: 'board points', main: true, value: (t) => t.gamePoints },
  { key: 'matchPoints', criterion: 'match points', head: 'Match pts', long: 'match points', main: true, value: (t) => t.matchPoints },
  { key: 'directEncounter', criterion: 'direct encounter', head: 'Direct', long: 'the match between them', value: (t) => t.directEncounter },
  { key: 'buchholz', criterion: 'team Buchholz', head: 'Buchholz', long: 'team Buchholz', value: (t) => t.buchholz },
  ...[0, 1, 2, 3].map((i) => ({ key: `board${i + 1}`, criterion: `board ${i + 1}`, head: `B${i + 1}`, long: `board ${i + 1} points`, value: (t) => t.boardPoints[i] })),
];
/** Board prizes: points, then Buchholz, wins, direct encounter, Buchholz cut 1 and cut 2 (host/domain/board-standings.ts names). */
const PLAYER_CRITERIA = [
  { criterion: 'points', long: 'points' },
  { criterion: 'Buchholz', long: 'Buchholz' },
  { criterion: 'wins', long: 'wins' },
  { criterion: 'direct encounter', long: 'direct encounter' },
  { criterion: 'Buchholz cut 1', long: 'Buchholz cut 1' },
  { criterion: 'Buchholz cut 2', long: 'Buchholz cut 2' },
];

const standings = new Map(); // event key -> { view, fetching, again }
/** Set once the host answers 501: it computes no standings, so the page stops asking. */
let standingsUnavailable = false;

function isTeamEvent(key) {
  for (const b of boards.values()) if (b.event === key && ((b.white && b.white.team) || (b.black && b.black.team))) return true;
  return false;
}

/** A tie-break value: halves as "½", no value (not applicable) as "—". */
function tieValue(x) {
  return x === null || x === undefined ? '—' : points(x);
}

/**
 * The criterion that put `below` under its upper neighbour, as the host's ranking recorded it
 * (`separatedBy`, host/domain/tie-breaks.ts): its index in `criteria`, -1 when none (the first
 * row, or a shared rank). Index 0 is the primary score (no tie). The page compares no values
 * itself: a second comparison could name another criterion than the one that decided (a direct
 * encounter re-applied to a smaller group, C.07 6.2).
 */
function decidingIndex(below, criteria) {
  const s = below && below.separatedBy;
  return s ? criteria.findIndex((c) => c.criterion === s.criterion) : -1;
}

/** "(1 – ½)": the deciding criterion's values of the upper and the lower neighbour, as the ranking recorded them. */
function separationValues(below) {
  return `(${tieValue(below.separatedBy.above)} – ${tieValue(below.separatedBy.value)})`;
}

function refreshStandings(key) {
  if (standingsUnavailable || !isTeamEvent(key)) return;
  let s = standings.get(key);
  if (!s) standings.set(key, (s = { view: null, fetching: false, again: false }));
  if (s.fetching) {
    s.again = true; // several confirmations at once: one more request after this one
    return;
  }
  s.fetching = true;
  fetch(`/api/standings?event=${encodeURIComponent(key)}`)
    .then(async (res) => {
      if (res.ok) s.view = await res.json();
      else if (res.status === 501) standingsUnavailable = true;
      else if (res.status === 409 || res.status === 404) s.view = null; // not a team event (after all), or gone
      // Other failures keep the last standings shown.
    })
    .catch(() => {})
    .finally(() => {
      s.fetching = false;
      renderStandings();
      if (s.again && !standingsUnavailable) {
        s.again = false;
        refreshStandings(key);
      }
    });
}

function teamTable(view) {
  const teams = view.teams;
  // Columns that decided a tie between neighbours, and the cells that did.
  const decided = new Set();
  const deciders = []; // per row: the column index that put it ahead of the next row
  for (let i = 0; i < teams.length; i++) {
    const d = i + 1 < teams.length ? decidingIndex(teams[i + 1], TEAM_COLUMNS) : -1;
    deciders.push(d);
    if (d > 0) decided.add(d);
  }
  // The arbiter sees every column; the hall sees the main ones and any that decided a tie.
  const columns = TEAM_COLUMNS.map((c, i) => ({ ...c, index: i })).filter((c) => !PUBLIC || c.main || decided.has(c.index));
  const table = el('table', 'team-standings');
  const head = el('tr');
  head.append(el('th', 'place', '#'), el('th', 'team', 'Team'), ...columns.map((c) => Object.assign(el('th', '', c.head), { title: c.long })));
  head.querySelectorAll('th').forEach((th, i) => (th.dataset.col = i < 2 ? ['place', 'team'][i] : columns[i - 2].key));
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
  teams.forEach((t, i) => {
    const row = el('tr');
    row.dataset.team = String(t.team);
    row.append(el('td', 'place', String(t.rank)), el('td', 'team', t.name));
    for (const c of columns) {
      const td = el('td', '', tieValue(c.value(t)));
      td.dataset.col = c.key;
      // Marked on both teams of the pair it separated.
      if (c.index > 0 && (deciders[i] === c.index || (i > 0 && deciders[i - 1] === c.index))) {
        td.classList.add('decider');
        td.title = `tie decided on ${c.long}`;
      }
      row.append(td);
    }
    table.tBodies[0].append(row);
  });
  return { table, deciders };
}

/** "Школа № 1 ahead of Школа № 5 on board 1 points (1 – ½)": every tie a tie-break decided. */
function tieNotes(teams, deciders) {
  const notes = [];
  deciders.forEach((d, i) => {
    if (d <= 0) return;
    const c = TEAM_COLUMNS[d];
    notes.push(`${teams[i].name} ahead of ${teams[i + 1].name} on ${c.long} ${separationValues(teams[i + 1])}`);
  });
  const shared = teams.filter((t, i) => teams.some((u, j) => j !== i && u.rank === t.rank));
  if (shared.length) notes.push(`equal on every criterion, sharing a place: ${shared.map((t) => t.name).join(', ')}`);
  return notes;
}

/** Per board: the leader(s) and their points; on the arbiter page, what put the leader ahead. */
function boardLeaders(view) {
  const teamName = new Map(view.teams.map((t) => [t.team, t.name]));
  const list = el('ul', 'board-leaders');
  for (const b of view.boards) {
    const leaders = b.players.filter((p) => p.rank === 1);
    if (leaders.length === 0) continue;
    const li = el('li');
    li.dataset.board = String(b.board);
    const who = leaders.map((p) => `${p.name} (${teamName.get(p.team) ?? p.team})`).join(', ');
    li.append(el('b', 'board-no', `Board ${b.board}`), el('span', 'leader', who), el('span', 'leader-points', points(leaders[0].points)));
    if (leaders.length > 1) li.append(el('span', 'shared', 'shared'));
    const next = b.players[leaders.length];
    const d = next && leaders.length === 1 ? decidingIndex(next, PLAYER_CRITERIA) : -1;
    if (!PUBLIC && d > 0) {
      li.append(el('span', 'why', `ahead of ${next.name} on ${PLAYER_CRITERIA[d].long} ${separationValues(next)}`));
    }
    list.append(li);
  }
  return list;
}

let standingsKey = '';
function renderStandings() {
  const section = document.getElementById('standings');
  if (!section) return;
  const names = new Map(eventsShown().map((e) => [e.key, e.name]));
  const shown = [...standings.entries()].filter(([key, s]) => s.view && names.has(key) && (eventFilter === '' || key === eventFilter));
  const key = JSON.stringify(shown.map(([k, s]) => [k, names.get(k), s.view]));
  if (key === standingsKey) return;
  standingsKey = key;
  section.hidden = shown.length === 0;
  section.replaceChildren(
    ...shown.map(([eventKey, { view }]) => {
      const block = el('div', 'standing');
      block.dataset.event = eventKey;
      const after = view.round > 0 ? `after round ${view.round}` : 'no round complete yet';
      const h = el('h2');
      h.append(el('span', 'standing-title', `Standings · ${names.get(eventKey)}`), el('span', 'standing-round', after));
      block.append(h);
      if (view.round > 0) {
        const { table, deciders } = teamTable(view);
        const notes = tieNotes(view.teams, deciders);
        block.append(table);
        if (notes.length) {
          const ul = el('ul', 'tie-notes');
          ul.append(...notes.map((n) => el('li', '', n)));
          block.append(ul);
        }
        block.append(boardLeaders(view));
      }
      return block;
    }),
  );
}

/** On connect: ask for the standings of every team event shown. */
function refreshAllStandings() {
  for (const e of eventsShown()) refreshStandings(e.key);
}

/** Whether a board update changes the standings: a result confirmed, un-confirmed or corrected. */
function changesStandings(before, after) {
  if (!before) return false;
  if (!!before.resultConfirmed !== !!after.resultConfirmed) return true;
  return !!after.resultConfirmed && before.result !== after.result;
}

function renderAll() {
  for (const b of boards.values()) renderBoard(b);
  const select = document.getElementById('event-filter');
  const have = [...select.options].map((o) => o.value);
  for (const e of eventsShown()) {
    if (!have.includes(e.key)) {
      const o = document.createElement('option');
      o.value = e.key;
      o.textContent = e.name;
      select.append(o);
    }
  }
  select.value = eventFilter;
  renderEvents();
  renderPending();
  renderStandings();
  const publicLink = document.getElementById('public-link');
  if (publicLink) publicLink.href = `public${eventFilter ? `?event=${encodeURIComponent(eventFilter)}` : ''}`;
}

// Repaint only: running clocks and countdowns change their text; nothing else is recomputed.
setInterval(() => {
  for (const b of boards.values()) if (ticking(b)) repaintTimes(b);
}, 50);

// ---- host health ----------------------------------------------------------------
// A fault the host survives but the arbiter must know (a full disk: nothing is acknowledged
// to the clocks until it clears) is shown above the boards until the host says it cleared.
const healthAlert = document.getElementById('health');

async function refreshHealth() {
  try {
    const res = await fetch('/api/health', { cache: 'no-store' });
    const h = await res.json();
    const problem = h.ok === false ? (h.journal && h.journal.ok === false ? `Journal fault: ${h.journal.reason}` : 'The host reports a fault.') : '';
    healthAlert.hidden = problem === '';
    healthAlert.textContent = problem;
  } catch {
    // The host is unreachable: the connection badge already says so.
  }
}
refreshHealth();
setInterval(refreshHealth, 5_000);

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
    refreshHealth();
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
      standingsUnavailable = false;
      refreshAllStandings();
    } else if ((m.type === 'event' || m.type === 'board') && m.board) {
      const known = cards.has(m.board.id);
      const before = boards.get(m.board.id);
      const roundBefore = eventsShown().find((e) => e.key === m.board.event)?.round;
      boards.set(m.board.id, m.board);
      // The standings change only with a confirmed result or a new round, not with the clock.
      if (changesStandings(before, m.board) || roundBefore !== eventsShown().find((e) => e.key === m.board.event)?.round) refreshStandings(m.board.event);
      renderBoard(m.board);
      if (m.type === 'board' || !known) renderAll();
      else {
        // A board may have moved on to its next round or got a result: cheap, keyed re-renders.
        renderEvents();
        renderPending();
      }
    } else if (m.type === 'team-match' && m.match) {
      // A captain's or the arbiter's mark on a team match: match-panels.js shows it.
      document.dispatchEvent(new CustomEvent('chessclock:team-match', { detail: m.match }));
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

/** The HTTP call of a board button, or an Error naming what is wrong with the input. */
function requestFor(boardId, card, action, side, ms) {
  const base = `/api/boards/${encodeURIComponent(boardId)}`;
  switch (action) {
    case 'start':
    case 'pause':
    case 'resume':
      return ['POST', `${base}/${action}`];
    case 'adjust':
      return ['POST', `${base}/adjust`, { side, ms: Number(ms) }];
    case 'adjust-seconds': {
      const input = card.querySelector(`.group[data-side="${side}"] .seconds`);
      const seconds = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(seconds) || seconds === 0) {
        return new Error(`${SIDE_NAME[side]}: type a whole number of seconds other than 0 (negative takes time away), not "${input.value}"`);
      }
      return ['POST', `${base}/adjust`, { side, ms: seconds * 1000 }];
    }
    case 'penalty':
      return ['POST', `${base}/penalty`, { side }];
    case 'set-moves': {
      const input = card.querySelector(`.group[data-side="${side}"] .moves-count`);
      const moves = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(moves) || moves < 0) {
        return new Error(`${SIDE_NAME[side]}: type the number of moves completed (a whole number ≥ 0), not "${input.value}"`);
      }
      return ['POST', `${base}/moves`, { side, moves }];
    }
    case 'result': {
      const result = card.querySelector('.result-select').value;
      if (!result) return new Error('choose a result first');
      const b = boards.get(boardId);
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
function confirmText(b, action, side, ms) {
  const live = b && b.live;
  const where = b ? `board ${b.board}` : 'this board';
  switch (action) {
    case 'arrive':
      return `Mark ${SIDE_NAME[side]} as arrived at ${where}?\n\nFIDE Laws 6.7.1: ${SIDE_NAME[side]} can no longer lose by default. Times do not change.`;
    case 'takeback': {
      // The side that made the last move is the one not on move (paused or flagged).
      const mover = live && live.turn ? other(live.turn) : null;
      const who = mover ? `${SIDE_NAME[mover]}'s last move (#${live.moves[mover]})` : 'the last move';
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

async function command(boardId, target) {
  const card = cards.get(boardId);
  const message = card.querySelector('.message');
  const { action, side, ms } = target.dataset;
  const request = requestFor(boardId, card, action, side, ms);
  if (request instanceof Error) {
    message.dataset.kind = 'error';
    message.textContent = request.message;
    return;
  }
  const question = confirmText(boards.get(boardId), action, side, ms);
  if (question !== null && !window.confirm(question)) {
    message.dataset.kind = 'ok';
    message.textContent = `${target.textContent.trim()}${side ? ` (${side})` : ''}: cancelled, nothing was sent`;
    return;
  }
  target.disabled = true;
  try {
    const data = await api(...request);
    if (data.board) {
      // The feed's copy of this change will then look unchanged: judge the standings here.
      const before = boards.get(boardId);
      boards.set(boardId, data.board);
      if (changesStandings(before, data.board)) refreshStandings(data.board.event);
    }
    message.dataset.kind = 'ok';
    const what = action === 'result' ? `${target.textContent.trim()} ${request[2].result}` : target.textContent.trim();
    message.textContent = `${what}${side ? ` (${side})` : ''}: done by ${data.arbiter}`;
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = err.message;
  } finally {
    target.disabled = false;
    const b = boards.get(boardId);
    if (b) {
      renderBoard(b);
      renderPending();
    }
  }
}

async function startRound(event, round, target, row) {
  const message = row.querySelector('.message');
  target.disabled = true;
  try {
    const data = await api('POST', `/api/events/${encodeURIComponent(event)}/rounds/${round}/start`);
    const skipped = (data.skipped || []).map((s) => `${s.boardId}: ${s.reason}`);
    message.dataset.kind = skipped.length ? 'error' : 'ok';
    message.textContent = `round ${round}: ${data.started.length} started by ${data.arbiter}${skipped.length ? `; skipped ${skipped.join('; ')}` : ''}`;
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = err.message;
  } finally {
    target.disabled = false;
  }
}

// ---- next round (arbiters only; docs/api.md "The next round") -------------------------
// The pairings a Swiss event's engine proposed, or a TRF an arbiter loaded, wait here for an
// arbiter: Approve opens the round, Reject sets them aside (with a reason), Re-run runs the
// engine again. Asked for while signed in: on sign-in, every few seconds (the engine runs on
// its own after a round's last confirmation) and after every action here.
const nextRound = document.getElementById('next-round');
let proposalsKey = '';

async function refreshProposals() {
  if (!nextRound || !token) return;
  let data;
  try {
    data = await api('GET', '/api/rounds/proposed');
  } catch {
    return; // signed out, or a host without a director (501): the section stays as it was
  }
  renderProposals(data.proposals);
}

function renderProposals(list) {
  nextRound.hidden = false;
  const select = nextRound.querySelector('select[name="event"]');
  const events = eventsShown().map((e) => e.key);
  if (JSON.stringify([...select.options].map((o) => o.value)) !== JSON.stringify(events)) {
    select.replaceChildren(...events.map((key) => Object.assign(el('option', '', key), { value: key })));
  }
  const shown = list.filter((p) => eventFilter === '' || p.event === eventFilter);
  const key = JSON.stringify(shown);
  if (key === proposalsKey) return;
  proposalsKey = key;
  nextRound.querySelector('.proposals').replaceChildren(...shown.map(proposalCard));
}

function proposalCard(p) {
  const card = el('div', 'proposal');
  card.dataset.event = p.event;
  card.dataset.status = p.status;
  const from = p.source === 'engine' ? 'the pairing engine' : `a TRF loaded by ${p.by}`;
  const heading = {
    running: `${p.event} round ${p.round}: the pairing engine is pairing…`,
    proposed: `${p.event} round ${p.round}: proposed by ${from}, waiting for approval`,
    failed: `${p.event} round ${p.round}: the pairing engine gave no pairings`,
    rejected: `${p.event} round ${p.round}: pairings from ${from} rejected by ${p.rejected?.by}${p.rejected?.reason ? ` (${p.rejected.reason})` : ''}`,
  }[p.status];
  card.append(el('h3', '', heading));
  if (p.reason) {
    const why = el('p', 'message', p.reason);
    why.dataset.kind = 'error';
    card.append(why);
  }
  if (p.initialColour) {
    // Round 1 (FIDE C.04.3): the top-ranked player's colour on board 1 is drawn by lot; say who drew it.
    const how = p.initialColourDrawnBy === 'arbiter' ? 'drawn in the hall and entered by the arbiter' : "drawn by the host's cryptographic lot";
    card.append(el('p', 'lot', `Colours by lot: the top-ranked player has ${p.initialColour} on board 1 (${how}).`));
  }
  if (p.engine && p.status === 'failed') {
    card.append(el('p', '', `${p.engine.command.join(' ')} — exit code ${p.engine.exitCode ?? '—'}${p.engine.signal ? `, ${p.engine.signal}` : ''}`));
    if (p.engine.stderr) card.append(el('pre', '', p.engine.stderr));
  }
  if (p.boards.length) {
    const table = el('table');
    const head = el('tr');
    head.append(el('th', '', 'Board'), el('th', '', 'White'), el('th', '', 'Black'));
    table.append(head);
    for (const b of p.boards) {
      const tr = el('tr');
      tr.append(el('td', '', String(b.board)), el('td', '', `${b.white.name} (${b.white.rank})`), el('td', '', `${b.black.name} (${b.black.rank})`));
      table.append(tr);
    }
    card.append(table);
  }
  for (const bye of p.byes) card.append(el('p', '', `bye (${bye.kind}): ${bye.player ? `${bye.player.name} (${bye.player.rank})` : bye.team?.name}`));
  const message = Object.assign(el('span', 'message'), { role: 'status' });
  const base = `/api/events/${encodeURIComponent(p.event)}/rounds`;
  if (p.status === 'proposed') {
    const approve = button(`Approve and open round ${p.round}`, { action: 'approve-round' }, 'open the round with these pairings');
    approve.addEventListener('click', () => roundAction(approve, message, 'POST', `${base}/${p.round}/approve`, undefined, (d) => `round ${d.round} opened by ${d.arbiter}: ${d.boards.length} boards`));
    const reason = Object.assign(el('input'), { placeholder: 'reason for rejecting', maxLength: 500 });
    const reject = button('Reject', { action: 'reject-round' }, 'set these pairings aside');
    reject.addEventListener('click', () => roundAction(reject, message, 'POST', `${base}/${p.round}/reject`, reason.value.trim() ? { reason: reason.value.trim() } : {}, (d) => `rejected by ${d.arbiter}`));
    card.append(approve, reason, reject);
  }
  if (p.canRunEngine && p.status !== 'running') {
    const rerun = button('Re-run the engine', { action: 'rerun-engine' }, 'run the pairing engine again (pending pairings are rejected first)');
    rerun.addEventListener('click', () => roundAction(rerun, message, 'POST', `${base}/pair`, undefined, (d) => `new pairings proposed (run by ${d.arbiter})`));
    card.append(rerun);
  }
  card.append(message);
  return card;
}

/** One next-round action: the host's answer in the card's message, then the list again. */
async function roundAction(target, message, method, path, body, done) {
  target.disabled = true;
  try {
    const data = await api(method, path, body);
    message.dataset.kind = 'ok';
    message.textContent = done(data);
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = err.message;
  } finally {
    target.disabled = false;
    proposalsKey = '';
    await refreshProposals();
  }
}

if (nextRound) {
  const form = nextRound.querySelector('.load-trf');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const message = form.querySelector('.message');
    const file = form.elements.file.files[0];
    const trf = file ? await file.text() : form.elements.trf.value;
    const event = form.elements.event.value;
    if (!trf.trim() || !event) {
      message.dataset.kind = 'error';
      message.textContent = 'choose the event and a TRF file (or paste its text)';
      return;
    }
    const submit = form.querySelector('button[type="submit"]');
    await roundAction(submit, message, 'POST', `/api/events/${encodeURIComponent(event)}/rounds`, { trf }, (d) => `round ${d.proposal.round} loaded by ${d.arbiter}: check the pairings, then approve`);
    if (message.dataset.kind === 'ok') form.reset();
  });
  setInterval(refreshProposals, 5_000);
}

function signOut(reason) {
  token = '';
  sessionStorage.removeItem('chessclock-token');
  document.body.classList.remove('arbiter');
  document.getElementById('arbiter').textContent = reason;
  document.getElementById('sign-out').hidden = true;
  if (nextRound) nextRound.hidden = true;
}

async function signIn(candidate) {
  token = candidate;
  try {
    const { arbiter } = await api('GET', '/api/arbiter');
    sessionStorage.setItem('chessclock-token', token);
    document.body.classList.add('arbiter');
    document.getElementById('arbiter').textContent = `arbiter: ${arbiter}`;
    document.getElementById('sign-out').hidden = false;
    refreshProposals();
  } catch (err) {
    signOut(err.message);
  }
}

if (!PUBLIC) {
  document.getElementById('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = document.getElementById('token');
    signIn(input.value.trim());
    input.value = '';
  });
  document.getElementById('sign-out').addEventListener('click', () => signOut(''));
}
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

// Two panels beside the board grid of app.js, kept apart from it (app.js tells this module of
// every board it renders with a `chessclock:board` event on document):
//
//  - Colours by lot (both pages): on each knockout board whose mini-match had a lot drawn
//    (Slovenian final 2007 art. 3: game 1's colours and the armageddon's), who drew White, how
//    (the host's cryptographic draw, or the hall's draw entered by arbiter X) and when, from
//    GET /api/matches (the journaled `draw-lot` actions).
//  - Team match protocol (arbiter page): per team match of the current round, each captain's
//    confirmation or dispute (or that it was voided by a correction), and the arbiter's final
//    confirmation with a Confirm match button, from GET /api/team-matches (docs/api.md "Captains").
//    A captain's mark arrives over the live feed (`team-match`, passed on by app.js); the panel
//    asks again when a board of the event changes, and every 30 s while a team event is shown
//    (a mark made while the feed was reconnecting).
import { el, hhmm, points, resultWords } from './page-kit.js';

const PUBLIC = document.body.dataset.view === 'public';
const boards = new Map(); // id -> BoardView, as app.js last rendered it

const resultText = resultWords;
const eventFilter = () => {
  const select = document.getElementById('event-filter');
  return select ? select.value : '';
};

// ---- colours by lot ------------------------------------------------------------------
const lotsByMatch = new Map(); // match id -> LotView[]
let lotsFetching = false;
let lotsAgain = false;

/** The sentence for one lot: who has White, how the lot was drawn, when. */
export function lotText(lot) {
  const which = lot.stage === 'armageddon' ? 'armageddon' : 'game 1';
  const how =
    lot.source === 'arbiter' ? `drawn in the hall, entered by arbiter ${lot.by}`
    : lot.source === 'seed' ? "from the tournament file's seed (a rehearsal: known in advance)"
    : 'drawn by the host (cryptographic random draw)';
  return `Colours by lot (${which}): ${lot.white} has White — ${how} at ${hhmm(lot.atUtcMs)}`;
}

function paintLot(b) {
  const card = document.querySelector(`article.board[data-board-id="${CSS.escape(b.id)}"]`);
  if (!card) return;
  let line = card.querySelector('.lot');
  const lots = b.game && b.game.matchId ? lotsByMatch.get(b.game.matchId) || [] : [];
  if (lots.length === 0) {
    if (line) line.remove();
    return;
  }
  if (!line) {
    line = el('ul', 'lot');
    const after = card.querySelector('.match');
    (after || card.firstChild).after(line);
  }
  const text = lots.map(lotText);
  if (line.dataset.text === JSON.stringify(text)) return;
  line.dataset.text = JSON.stringify(text);
  line.replaceChildren(...lots.map((lot, i) => Object.assign(el('li', '', text[i]), { title: `journaled ${new Date(lot.atUtcMs).toISOString()}` })));
}

async function refreshLots() {
  if (lotsFetching) {
    lotsAgain = true;
    return;
  }
  lotsFetching = true;
  try {
    const res = await fetch('/api/matches', { cache: 'no-store' });
    if (res.ok) {
      lotsByMatch.clear();
      for (const m of (await res.json()).matches) if (Array.isArray(m.lots) && m.lots.length) lotsByMatch.set(m.id, m.lots);
      for (const b of boards.values()) paintLot(b);
    }
  } catch {
    // The host is unreachable: the connection badge says so; the next board change asks again.
  } finally {
    lotsFetching = false;
    if (lotsAgain) {
      lotsAgain = false;
      refreshLots();
    }
  }
}

/**
 * A new knockout game on a board (a lot is drawn when the game that needs it opens) asks for the
 * lots again: one comparison per board update, whatever the number of boards.
 */
function lotsChanged(before, b) {
  const key = (x) => (x && x.game && x.game.matchId ? `${x.game.matchId}#${x.game.no}` : '');
  return key(b) !== '' && key(b) !== key(before);
}

// ---- team match protocol (arbiter page) -----------------------------------------------
const teamMatches = new Map(); // event -> TeamMatchView[]
let teamKey = '';

/** Team events shown and their current round (the highest among their boards). */
function teamEvents() {
  const rounds = new Map();
  for (const b of boards.values()) {
    if (!(b.white && b.white.team) || (eventFilter() && b.event !== eventFilter())) continue;
    rounds.set(b.event, Math.max(rounds.get(b.event) || 0, b.round));
  }
  return rounds;
}

async function refreshTeamMatches() {
  const wanted = teamEvents();
  for (const [event, round] of wanted) {
    try {
      const res = await fetch(`/api/team-matches?event=${encodeURIComponent(event)}&round=${round}`, { cache: 'no-store' });
      if (res.ok) teamMatches.set(event, (await res.json()).matches);
    } catch {
      // unreachable: shown by the connection badge; asked again in 5 s
    }
  }
  for (const key of [...teamMatches.keys()]) if (!wanted.has(key)) teamMatches.delete(key);
  renderTeamMatches();
}

/** What one captain's mark says, and its state for the style. */
function captainText(t) {
  const c = t.captain;
  if (!c) return ['none', `${t.name}: captain has not confirmed`];
  const when = hhmm(c.atUtcMs);
  if (c.void) return ['void', `${t.name}: ${c.state} by ${c.captain} at ${when} — void: board ${c.void.board} corrected ${resultText(c.void.from)} → ${resultText(c.void.to)} by ${c.void.arbiter} at ${hhmm(c.void.atUtcMs)}`];
  if (c.state === 'confirmed') return ['confirmed', `${t.name}: ✓ confirmed by ${c.captain} at ${when}`];
  return ['disputed', `${t.name}: ✗ disputed by ${c.captain} at ${when}: "${c.reason}"`];
}

function arbiterText(m) {
  if (m.arbiter) {
    const missing = m.teams.filter((t) => !m.arbiter.captainsConfirmed[String(t.id)]).map((t) => t.name);
    return ['final', `match confirmed by ${m.arbiter.arbiter} at ${hhmm(m.arbiter.atUtcMs)} (final)${missing.length ? `, without the confirmation of ${missing.join(' and ')}` : ''}`];
  }
  if (m.arbiterVoid) return ['void', `the arbiter's confirmation of ${hhmm(m.arbiterVoid.atUtcMs)} is void after a correction: confirm again`];
  if (!m.resultsIn) return ['none', 'games in play'];
  if (!m.resultsConfirmed) return ['none', 'confirm every board\'s result, then the match'];
  return ['none', 'waiting for the arbiter\'s confirmation'];
}

function renderTeamMatches() {
  const section = document.getElementById('team-matches');
  if (!section) return;
  const shown = [...teamMatches.entries()].flatMap(([, list]) => list);
  const key = JSON.stringify(shown);
  if (key === teamKey) return;
  teamKey = key;
  section.hidden = shown.length === 0;
  const list = section.querySelector('ul');
  list.replaceChildren(
    ...shown.map((m) => {
      const li = el('li', 'team-match');
      li.dataset.match = m.id;
      li.append(el('b', 'team-match-title', `R${m.round} M${m.match} · ${m.teams[0].name} – ${m.teams[1].name} · ${points(m.teams[0].points)}–${points(m.teams[1].points)}`));
      const marks = el('ul', 'team-match-marks');
      for (const t of m.teams) {
        const [state, text] = captainText(t);
        marks.append(Object.assign(el('li', 'captain-mark', text), { title: t.captain && t.captain.results ? `on ${t.captain.results.map(resultText).join(', ')}` : '' }));
        marks.lastChild.dataset.state = state;
        marks.lastChild.dataset.team = String(t.id);
      }
      const [state, text] = arbiterText(m);
      marks.append(el('li', 'arbiter-mark', text));
      marks.lastChild.dataset.state = state;
      li.append(marks);
      if (!m.arbiter && m.resultsConfirmed) {
        const confirm = el('button', 'confirm-match', 'Confirm match');
        confirm.type = 'button';
        confirm.title = "the arbiter's confirmation of the match protocol: final";
        confirm.addEventListener('click', () => confirmMatch(m, confirm, li));
        li.append(confirm, Object.assign(el('span', 'message'), { role: 'status' }));
      }
      return li;
    }),
  );
}

async function confirmMatch(m, button, li) {
  const message = li.querySelector('.message');
  const disputes = m.teams.filter((t) => t.captain && !t.captain.void && t.captain.state === 'disputed');
  let body;
  if (disputes.length) {
    const reason = window.prompt(`${disputes.map((t) => `${t.name}'s captain disputes: "${t.captain.reason}"`).join('\n')}\n\nConfirm the match anyway? Say why (journaled with your name):`, '');
    if (reason === null || reason.trim() === '') {
      message.dataset.kind = 'ok';
      message.textContent = 'cancelled, nothing was sent';
      return;
    }
    body = { reason: reason.trim() };
  }
  button.disabled = true;
  try {
    const res = await fetch(`/api/events/${encodeURIComponent(m.event)}/rounds/${m.round}/matches/${m.match}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sessionStorage.getItem('chessclock-token') || ''}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.message || `${res.status} ${res.statusText}`);
    const list = teamMatches.get(m.event) || [];
    teamMatches.set(m.event, list.map((x) => (x.id === m.id ? data.match : x)));
    teamKey = '';
    renderTeamMatches();
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = err.message;
    button.disabled = false;
  }
}

// ---- wiring ---------------------------------------------------------------------------
let teamTimer = null;
document.addEventListener('chessclock:board', (ev) => {
  const b = ev.detail;
  const before = boards.get(b.id);
  boards.set(b.id, b);
  if (lotsChanged(before, b)) refreshLots();
  else paintLot(b);
  if (!PUBLIC && b.white && b.white.team && (!before || before.result !== b.result || before.resultConfirmed !== b.resultConfirmed || before.round !== b.round)) {
    clearTimeout(teamTimer);
    teamTimer = setTimeout(refreshTeamMatches, 100);
  }
});
document.addEventListener('chessclock:team-match', (ev) => {
  const m = ev.detail;
  const list = teamMatches.get(m.event);
  if (!list || !list.some((x) => x.id === m.id)) return; // not a match of a round shown
  teamMatches.set(m.event, list.map((x) => (x.id === m.id ? m : x)));
  renderTeamMatches();
});
if (!PUBLIC) {
  setInterval(() => {
    if (teamEvents().size > 0) refreshTeamMatches();
  }, 30_000);
  const filter = document.getElementById('event-filter');
  if (filter) filter.addEventListener('change', () => refreshTeamMatches());
}

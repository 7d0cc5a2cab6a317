// The team captain's view (/captain, docs/api.md "Captains"): the team's match of the open
// round with every board's result, the captains' and the arbiter's marks, Confirm (the results
// shown are sent with it: a captain signs what they read) and Dispute with a short reason.
// Plain browser JavaScript like app.js; the results' words come from the rule book.
import { el, hhmm, points, resultWords } from './page-kit.js';

const KEY = 'chessclock-captain-token';
let token = sessionStorage.getItem(KEY) || '';
let view = null;
/** The round the captain chose to look at; null = the latest round opened. */
let chosenRound = null;
const $ = (id) => document.getElementById(id);

const resultText = resultWords;

function say(kind, text) {
  const m = $('captain-message');
  m.dataset.kind = kind;
  m.textContent = text;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    cache: 'no-store',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.message || `${res.status} ${res.statusText}`), { status: res.status });
  return data;
}

/** One line per mark: each captain's (with a void one's reason) and the arbiter's. */
function markLines(m, myTeam) {
  const lines = [];
  for (const t of m.teams) {
    const whose = t.id === myTeam ? 'Your confirmation' : `${t.name}'s captain`;
    const c = t.captain;
    if (!c) lines.push(['none', `${whose}: not confirmed yet`]);
    else if (c.void) {
      const v = c.void;
      lines.push(['void', `${whose} (${c.state} by ${c.captain} at ${hhmm(c.atUtcMs)}) is void: the arbiter corrected board ${v.board} (${resultText(v.from)} → ${resultText(v.to)}) at ${hhmm(v.atUtcMs)}; check the results and confirm again`]);
    } else if (c.state === 'confirmed') lines.push(['confirmed', `${t.id === myTeam ? 'You' : `${t.name}'s captain`} (${c.captain}) confirmed at ${hhmm(c.atUtcMs)}`]);
    else lines.push(['disputed', `${t.id === myTeam ? 'You' : `${t.name}'s captain`} (${c.captain}) disputed at ${hhmm(c.atUtcMs)}: "${c.reason}"`]);
  }
  if (m.arbiter) {
    const appeal = m.appealUntilUtcMs ? ` · appeal until ${hhmm(m.appealUntilUtcMs)}` : '';
    lines.push(['final', `Confirmed by the arbiter ${m.arbiter.arbiter} at ${hhmm(m.arbiter.atUtcMs)}: final${appeal}`]);
  } else if (m.arbiterVoid) lines.push(['void', `The arbiter's confirmation of ${hhmm(m.arbiterVoid.atUtcMs)} is void after the correction: the arbiter confirms again`]);
  else lines.push(['none', m.resultsIn ? 'Waiting for the arbiter to confirm the match' : 'Games still in play']);
  return lines;
}

function render() {
  const section = $('match');
  if (!view) {
    section.hidden = true;
    $('round-picker').hidden = true;
    return;
  }
  $('who').textContent = `${view.captain} · captain of ${view.team.name} · ${view.eventName}`;
  renderRoundPicker();
  const m = view.match;
  if (!m) {
    section.hidden = true;
    say('ok', view.round === null ? 'No round is open yet.' : view.bye ? `Round ${view.round}: your team has the bye (${view.bye.kind}).` : `Round ${view.round}: your team has no match.`);
    return;
  }
  section.hidden = false;
  section.dataset.match = m.id;
  $('match-title').textContent = `Round ${m.round}, match ${m.match}: ${m.teams[0].name} – ${m.teams[1].name}`;
  $('match-score').textContent = `${points(m.teams[0].points)} – ${points(m.teams[1].points)}`;
  const teamName = new Map(m.teams.map((t) => [t.id, t.name]));
  $('match-boards').querySelector('tbody').replaceChildren(
    ...m.boards.map((b) => {
      const tr = el('tr');
      tr.dataset.board = String(b.board);
      const player = (p) => {
        const td = el('td', '', p.name);
        td.append(el('span', 'team', teamName.get(p.team) || ''));
        return td;
      };
      const result = el('td', 'result', resultText(b.result));
      result.dataset.confirmed = String(b.confirmed);
      if (b.confirmed) result.title = "confirmed by the arbiter";
      tr.append(el('td', '', String(b.board)), player(b.white), player(b.black), result);
      return tr;
    }),
  );
  $('marks').replaceChildren(
    ...markLines(m, view.team.id).map(([state, text]) => {
      const li = el('li', '', text);
      li.dataset.state = state;
      return li;
    }),
  );
  const mine = m.teams.find((t) => t.id === view.team.id).captain;
  const signed = mine && mine.state === 'confirmed' && !mine.void;
  const confirm = $('confirm');
  confirm.disabled = !m.resultsIn || signed;
  confirm.title = !m.resultsIn ? 'every board needs a result first' : signed ? 'you confirmed these results' : 'sign the match protocol with these results';
  $('dispute').disabled = !!m.arbiter;
  $('dispute-reason').disabled = !!m.arbiter;
}

async function load() {
  if (!token) return;
  try {
    view = await api('GET', `/api/captain/match${chosenRound === null ? '' : `?round=${chosenRound}`}`);
    document.body.classList.add('signed-in');
    $('captain-sign-out').hidden = false;
    render();
  } catch (err) {
    if (err.status === 401 || err.status === 403) signOut(err.message);
    else say('error', err.message);
  }
}

/** Once more than one round is open, the captain may pick an earlier one to sign its match. */
function renderRoundPicker() {
  const rounds = view ? view.openedRounds : [];
  $('round-picker').hidden = rounds.length < 2;
  const select = $('round');
  const latest = rounds.length ? rounds[rounds.length - 1] : null;
  select.replaceChildren(...rounds.map((r) => {
    const o = el('option', '', r === latest ? `${r} (latest)` : String(r));
    o.value = String(r);
    o.selected = r === (chosenRound ?? latest);
    return o;
  }));
}

$('round').addEventListener('change', () => {
  const r = Number($('round').value);
  const rounds = view ? view.openedRounds : [];
  chosenRound = r === rounds[rounds.length - 1] ? null : r;
  load();
});

function signOut(reason) {
  token = '';
  view = null;
  chosenRound = null;
  sessionStorage.removeItem(KEY);
  document.body.classList.remove('signed-in');
  $('captain-sign-out').hidden = true;
  $('who').textContent = 'Sign in with the captain token the chief arbiter gave you.';
  render();
  say(reason ? 'error' : 'ok', reason);
}

$('captain-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = $('captain-token');
  token = input.value.trim();
  input.value = '';
  sessionStorage.setItem(KEY, token);
  say('ok', '');
  load();
});
$('captain-sign-out').addEventListener('click', () => signOut(''));
$('refresh').addEventListener('click', () => load());

$('confirm').addEventListener('click', async () => {
  const m = view && view.match;
  if (!m) return;
  const shown = m.boards.map((b) => `board ${b.board}: ${resultText(b.result)}`).join('\n');
  if (!window.confirm(`Confirm the results of ${m.teams[0].name} – ${m.teams[1].name} (${points(m.teams[0].points)} – ${points(m.teams[1].points)})?\n\n${shown}`)) return;
  try {
    const data = await api('POST', '/api/captain/match/confirm', { round: m.round, match: m.match, results: m.boards.map((b) => b.result) });
    view = { ...view, match: data.match };
    render();
    say('ok', data.unchanged ? 'Already confirmed.' : `Confirmed by ${data.captain}.`);
  } catch (err) {
    say('error', err.message);
    load();
  }
});

$('dispute-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const m = view && view.match;
  const reason = $('dispute-reason').value.trim();
  if (!m) return;
  if (!reason) return say('error', 'Write a short reason first.');
  try {
    const data = await api('POST', '/api/captain/match/dispute', { round: m.round, match: m.match, reason });
    $('dispute-reason').value = '';
    view = { ...view, match: data.match };
    render();
    say('ok', `Dispute sent to the arbiter by ${data.captain}.`);
  } catch (err) {
    say('error', err.message);
  }
});

// The arbiter may correct a result or confirm the match meanwhile: look again every 10 s.
setInterval(() => {
  if (token && document.visibilityState === 'visible') load();
}, 10_000);
load();

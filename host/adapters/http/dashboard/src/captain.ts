// The team captain's page (/captain, docs/api.md "Captains"): the team's match of the open round
// with every board's result, the captains' and the arbiter's marks, Confirm (the results shown are
// sent with it: a captain signs what they read) and Dispute with a short reason. Its own entry,
// bundled by the server at start (rule-book-bundle.ts `captainBundle`, served at /captain.js where
// captain.html loads it). The answers are typed by the host's own types (host/app/captains.ts,
// types only); what the page writes is protocol-text.ts's (pure, unit-tested), results in the
// rule book's words. A captain token is not an arbiter's: it is kept under its own key.
import type { CaptainMatchView, TeamMatchView } from '../../../../app/captains.ts';
import { el } from './dom.ts';
import { captainConfirmQuestion, captainConfirmState, captainPageMarks, noMatchText } from './protocol-text.ts';
import { points, resultWords } from './words.ts';

const KEY = 'chessclock-captain-token';
let token = sessionStorage.getItem(KEY) || '';
let view: CaptainMatchView | null = null;
/** The round the captain chose to look at; null = the latest round opened. */
let chosenRound: number | null = null;

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`captain.html has no #${id}`);
  return e as T;
}

class CaptainApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function say(kind: 'ok' | 'error', text: string): void {
  const m = $('captain-message');
  m.dataset.kind = kind;
  m.textContent = text;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    cache: 'no-store',
  });
  const data = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new CaptainApiError(data.message || `${res.status} ${res.statusText}`, res.status);
  return data as T;
}

function render(): void {
  const section = $('match');
  if (!view) {
    section.hidden = true;
    $('round-picker').hidden = true;
    return;
  }
  $('who').textContent = `${view.captain} · captain of ${view.team.name} · ${view.eventName}`;
  renderRoundPicker(view);
  const m = view.match;
  if (!m) {
    section.hidden = true;
    say('ok', noMatchText(view));
    return;
  }
  section.hidden = false;
  section.dataset.match = m.id;
  $('match-title').textContent = `Round ${m.round}, match ${m.match}: ${m.teams[0].name} – ${m.teams[1].name}`;
  $('match-score').textContent = `${points(m.teams[0].points)} – ${points(m.teams[1].points)}`;
  const teamName = new Map(m.teams.map((t) => [t.id, t.name]));
  const player = (p: TeamMatchView['boards'][number]['white']) => {
    const td = el('td', '', p.name);
    td.append(el('span', 'team', teamName.get(p.team) || ''));
    return td;
  };
  $('match-boards')
    .querySelector('tbody')!
    .replaceChildren(
      ...m.boards.map((b) => {
        const tr = el('tr');
        tr.dataset.board = String(b.board);
        const result = el('td', 'result', resultWords(b.result));
        result.dataset.confirmed = String(b.confirmed);
        if (b.confirmed) result.title = 'confirmed by the arbiter';
        tr.append(el('td', '', String(b.board)), player(b.white), player(b.black), result);
        return tr;
      }),
    );
  $('marks').replaceChildren(
    ...captainPageMarks(m, view.team.id).map(([state, text]) => {
      const li = el('li', '', text);
      li.dataset.state = state;
      return li;
    }),
  );
  const confirm = $<HTMLButtonElement>('confirm');
  const offer = captainConfirmState(m, view.team.id);
  confirm.disabled = offer.disabled;
  confirm.title = offer.title;
  $<HTMLButtonElement>('dispute').disabled = !!m.arbiter;
  $<HTMLTextAreaElement>('dispute-reason').disabled = !!m.arbiter;
}

async function load(): Promise<void> {
  if (!token) return;
  try {
    view = await call<CaptainMatchView>('GET', `/api/captain/match${chosenRound === null ? '' : `?round=${chosenRound}`}`);
    document.body.classList.add('signed-in');
    $('captain-sign-out').hidden = false;
    render();
  } catch (err) {
    const status = err instanceof CaptainApiError ? err.status : 0;
    if (status === 401 || status === 403) signOut((err as Error).message);
    else say('error', (err as Error).message);
  }
}

/** Once more than one round is open, the captain may pick an earlier one to sign its match. */
function renderRoundPicker(v: CaptainMatchView): void {
  const rounds = v.openedRounds;
  $('round-picker').hidden = rounds.length < 2;
  const latest = rounds.length ? rounds[rounds.length - 1] : null;
  $('round').replaceChildren(
    ...rounds.map((r) => {
      const o = el('option', '', r === latest ? `${r} (latest)` : String(r));
      o.value = String(r);
      o.selected = r === (chosenRound ?? latest);
      return o;
    }),
  );
}

$('round').addEventListener('change', () => {
  const r = Number($<HTMLSelectElement>('round').value);
  const rounds = view ? view.openedRounds : [];
  chosenRound = r === rounds[rounds.length - 1] ? null : r;
  void load();
});

function signOut(reason: string): void {
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
  const input = $<HTMLInputElement>('captain-token');
  token = input.value.trim();
  input.value = '';
  sessionStorage.setItem(KEY, token);
  say('ok', '');
  void load();
});
$('captain-sign-out').addEventListener('click', () => signOut(''));
$('refresh').addEventListener('click', () => void load());

$('confirm').addEventListener('click', async () => {
  const m = view && view.match;
  if (!m || !view) return;
  if (!window.confirm(captainConfirmQuestion(m))) return;
  try {
    const data = await call<{ match: TeamMatchView; captain: string; unchanged?: boolean }>('POST', '/api/captain/match/confirm', {
      round: m.round,
      match: m.match,
      results: m.boards.map((b) => b.result),
    });
    view = { ...view, match: data.match };
    render();
    say('ok', data.unchanged ? 'Already confirmed.' : `Confirmed by ${data.captain}.`);
  } catch (err) {
    say('error', (err as Error).message);
    void load();
  }
});

$('dispute-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const m = view && view.match;
  const reason = $<HTMLTextAreaElement>('dispute-reason').value.trim();
  if (!m || !view) return;
  if (!reason) return say('error', 'Write a short reason first.');
  try {
    const data = await call<{ match: TeamMatchView; captain: string }>('POST', '/api/captain/match/dispute', { round: m.round, match: m.match, reason });
    $<HTMLTextAreaElement>('dispute-reason').value = '';
    view = { ...view, match: data.match };
    render();
    say('ok', `Dispute sent to the arbiter by ${data.captain}.`);
  } catch (err) {
    say('error', (err as Error).message);
  }
});

// The arbiter may correct a result or confirm the match meanwhile: look again every 10 s.
setInterval(() => {
  if (token && document.visibilityState === 'visible') void load();
}, 10_000);
void load();

// Two panels beside the board lines of the page (main.ts imports this module; main.ts tells it of
// every board it renders with a `chessclock:board` event on document, and of a team match's new
// mark with `chessclock:team-match`, so neither module reaches into the other):
//
//  - Colours by lot (both pages): on each knockout board whose mini-match had a lot drawn
//    (Slovenian final 2007 art. 3: game 1's colours and the armageddon's), who drew White, how
//    (the host's cryptographic draw, or the hall's draw entered by arbiter X) and when, from
//    GET /api/matches (the journaled `draw-lot` actions).
//  - Team match protocol (arbiter page): per team match of the current round, each captain's
//    confirmation or dispute (or that it was voided by a correction), and the arbiter's final
//    confirmation with a Confirm match button, from GET /api/team-matches (docs/api.md "Captains").
//    A captain's mark arrives over the live feed; the panel asks again when a board of the event
//    changes, and every 30 s while a team event is shown (a mark made while the feed was reconnecting).
// What the panels say is protocol-text.ts's (pure, unit-tested).
import type { TeamMatchView } from '../../../../app/captains.ts';
import type { BoardView, LotView, MatchView } from '../../../../app/ports.ts';
import { api } from './api.ts';
import { el } from './dom.ts';
import {
  arbiterMark,
  captainMark,
  disputeQuestion,
  lotsChanged,
  lotText,
  markedResults,
  matchTitle,
  protocolMayChange,
  teamEventRounds,
  type Mark,
} from './protocol-text.ts';

const PUBLIC = document.body.dataset.view === 'public';
const boards = new Map<string, BoardView>(); // id -> the board as the page last rendered it

const eventFilter = (): string => {
  const select = document.getElementById('event-filter') as HTMLSelectElement | null;
  return select ? select.value : '';
};

/** A public read (no token), never from the cache. */
async function read<T>(path: string): Promise<T | null> {
  const res = await fetch(path, { cache: 'no-store' });
  return res.ok ? ((await res.json()) as T) : null;
}

function marked(li: HTMLElement, [state, text]: Mark): HTMLElement {
  li.textContent = text;
  li.dataset.state = state;
  return li;
}

// ---- colours by lot ------------------------------------------------------------------
const lotsByMatch = new Map<string, readonly LotView[]>();
let lotsFetching = false;
let lotsAgain = false;

function paintLot(b: BoardView): void {
  const card = document.querySelector(`article.board[data-board-id="${CSS.escape(b.id)}"]`);
  if (!card) return;
  let line = card.querySelector<HTMLElement>('.lot');
  const lots = b.game && b.game.matchId ? lotsByMatch.get(b.game.matchId) || [] : [];
  if (lots.length === 0) {
    line?.remove();
    return;
  }
  if (!line) {
    line = el('ul', 'lot');
    const after = card.querySelector('.match') ?? card.firstElementChild;
    if (after) after.after(line);
    else card.append(line);
  }
  const text = lots.map(lotText);
  const key = JSON.stringify(text);
  if (line.dataset.text === key) return;
  line.dataset.text = key;
  line.replaceChildren(...lots.map((lot, i) => Object.assign(el('li', '', text[i]), { title: `journaled ${new Date(lot.atUtcMs).toISOString()}` })));
}

async function refreshLots(): Promise<void> {
  if (lotsFetching) {
    lotsAgain = true;
    return;
  }
  lotsFetching = true;
  try {
    const data = await read<{ matches: (MatchView & { lots?: readonly LotView[] })[] }>('/api/matches');
    if (data) {
      lotsByMatch.clear();
      for (const m of data.matches) if (Array.isArray(m.lots) && m.lots.length) lotsByMatch.set(m.id, m.lots);
      for (const b of boards.values()) paintLot(b);
    }
  } catch {
    // The host is unreachable: the connection badge says so; the next board change asks again.
  } finally {
    lotsFetching = false;
    if (lotsAgain) {
      lotsAgain = false;
      void refreshLots();
    }
  }
}

// ---- team match protocol (arbiter page) -----------------------------------------------
const teamMatches = new Map<string, readonly TeamMatchView[]>(); // event -> its current round's matches
let teamKey = '';

async function refreshTeamMatches(): Promise<void> {
  const wanted = teamEventRounds(boards.values(), eventFilter());
  for (const [event, round] of wanted) {
    try {
      const data = await read<{ matches: TeamMatchView[] }>(`/api/team-matches?event=${encodeURIComponent(event)}&round=${round}`);
      if (data) teamMatches.set(event, data.matches);
    } catch {
      // unreachable: shown by the connection badge; asked again at the next change or in 30 s
    }
  }
  for (const key of [...teamMatches.keys()]) if (!wanted.has(key)) teamMatches.delete(key);
  renderTeamMatches();
}

function renderTeamMatches(): void {
  const section = document.getElementById('team-matches');
  const list = section?.querySelector('ul');
  if (!section || !list) return;
  const shown = [...teamMatches.values()].flat();
  const key = JSON.stringify(shown);
  if (key === teamKey) return;
  teamKey = key;
  section.hidden = shown.length === 0;
  list.replaceChildren(
    ...shown.map((m) => {
      const li = el('li', 'team-match');
      li.dataset.match = m.id;
      li.append(el('b', 'team-match-title', matchTitle(m)));
      const marks = el('ul', 'team-match-marks');
      for (const t of m.teams) {
        const mark = marked(el('li', 'captain-mark'), captainMark(t));
        mark.title = markedResults(t);
        mark.dataset.team = String(t.id);
        marks.append(mark);
      }
      marks.append(marked(el('li', 'arbiter-mark'), arbiterMark(m)));
      li.append(marks);
      if (!m.arbiter && m.resultsConfirmed) {
        const confirm = el('button', 'confirm-match', 'Confirm match');
        confirm.type = 'button';
        confirm.title = "the arbiter's confirmation of the match protocol: final";
        const message = Object.assign(el('span', 'message'), { role: 'status' });
        confirm.addEventListener('click', () => void confirmMatch(m, confirm, message));
        li.append(confirm, message);
      }
      return li;
    }),
  );
}

async function confirmMatch(m: TeamMatchView, button: HTMLButtonElement, message: HTMLElement): Promise<void> {
  let body: { reason: string } | undefined;
  const question = disputeQuestion(m);
  if (question !== null) {
    const reason = window.prompt(question, '');
    if (reason === null || reason.trim() === '') {
      message.dataset.kind = 'ok';
      message.textContent = 'cancelled, nothing was sent';
      return;
    }
    body = { reason: reason.trim() };
  }
  button.disabled = true;
  try {
    const data = await api<{ match: TeamMatchView }>('POST', `/api/events/${encodeURIComponent(m.event)}/rounds/${m.round}/matches/${m.match}/confirm`, body);
    const list = teamMatches.get(m.event) || [];
    teamMatches.set(
      m.event,
      list.map((x) => (x.id === m.id ? data.match : x)),
    );
    teamKey = '';
    renderTeamMatches();
  } catch (err) {
    message.dataset.kind = 'error';
    message.textContent = (err as Error).message;
    button.disabled = false;
  }
}

// ---- wiring ---------------------------------------------------------------------------
let teamTimer: ReturnType<typeof setTimeout> | undefined;
document.addEventListener('chessclock:board', (ev) => {
  const b = (ev as CustomEvent<BoardView>).detail;
  const before = boards.get(b.id);
  boards.set(b.id, b);
  if (lotsChanged(before, b)) void refreshLots();
  else paintLot(b);
  if (!PUBLIC && b.white && b.white.team && protocolMayChange(before, b)) {
    clearTimeout(teamTimer);
    teamTimer = setTimeout(() => void refreshTeamMatches(), 100);
  }
});
document.addEventListener('chessclock:team-match', (ev) => {
  const m = (ev as CustomEvent<TeamMatchView>).detail;
  const list = teamMatches.get(m.event);
  if (!list || !list.some((x) => x.id === m.id)) return; // not a match of a round shown
  teamMatches.set(
    m.event,
    list.map((x) => (x.id === m.id ? m : x)),
  );
  renderTeamMatches();
});
if (!PUBLIC) {
  setInterval(() => {
    if (teamEventRounds(boards.values(), eventFilter()).size > 0) void refreshTeamMatches();
  }, 30_000);
  document.getElementById('event-filter')?.addEventListener('change', () => void refreshTeamMatches());
}

// Standings of team events (GET /api/standings) on both pages: places with the tie-break that
// decided each tie (outlined, with a line saying who went ahead on what), and the board prize
// leaders. Asked for only for events whose boards name teams, once on connect and again when a
// result is confirmed, un-confirmed or corrected, or the event's round moves on; never on a
// clock event. The page compares no values: the criterion is the ranking's own `separatedBy`.
import type { BoardView, PlayerStandingView, SeparationView, StandingsView, TeamStandingView } from '../../../../app/ports.ts';
import { el } from './dom.ts';
import { points } from './words.ts';

interface Column {
  readonly key: string;
  readonly criterion: string;
  readonly head: string;
  readonly long: string;
  readonly main?: boolean;
  readonly value: (t: TeamStandingView) => number | null | undefined;
}

/** Team places: the regulation's order (docs/tournament.md "Ivanovo standings"); `main` columns show on /public. */
const TEAM_COLUMNS: readonly Column[] = [
  { key: 'gamePoints', criterion: 'board points', head: 'Board pts', long: 'board points', main: true, value: (t) => t.gamePoints },
  { key: 'matchPoints', criterion: 'match points', head: 'Match pts', long: 'match points', main: true, value: (t) => t.matchPoints },
  { key: 'directEncounter', criterion: 'direct encounter', head: 'Direct', long: 'the match between them', value: (t) => t.directEncounter },
  { key: 'buchholz', criterion: 'team Buchholz', head: 'Buchholz', long: 'team Buchholz', value: (t) => t.buchholz },
  ...[0, 1, 2, 3].map(
    (i): Column => ({ key: `board${i + 1}`, criterion: `board ${i + 1}`, head: `B${i + 1}`, long: `board ${i + 1} points`, value: (t) => t.boardPoints[i] }),
  ),
];
/** Board prizes: points, then Buchholz, wins, direct encounter, Buchholz cut 1 and cut 2 (host/domain/board-standings.ts names). */
const PLAYER_CRITERIA: readonly { criterion: string; long: string }[] = [
  { criterion: 'points', long: 'points' },
  { criterion: 'Buchholz', long: 'Buchholz' },
  { criterion: 'wins', long: 'wins' },
  { criterion: 'direct encounter', long: 'direct encounter' },
  { criterion: 'Buchholz cut 1', long: 'Buchholz cut 1' },
  { criterion: 'Buchholz cut 2', long: 'Buchholz cut 2' },
];

/** A tie-break value: halves as "½", no value (not applicable) as "—". */
function tieValue(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : points(x);
}

/**
 * The criterion that put `below` under its upper neighbour, as the host's ranking recorded it:
 * its index in `criteria`, -1 when none. Index 0 is the primary score (no tie).
 */
function decidingIndex(below: { separatedBy: SeparationView | null } | undefined, criteria: readonly { criterion: string }[]): number {
  const s = below && below.separatedBy;
  return s ? criteria.findIndex((c) => c.criterion === s.criterion) : -1;
}

/** "(1 – ½)": the deciding criterion's values of the upper and the lower neighbour. */
function separationValues(below: { separatedBy: SeparationView | null }): string {
  return `(${tieValue(below.separatedBy!.above)} – ${tieValue(below.separatedBy!.value)})`;
}

/** Whether a board update changes the standings: a result confirmed, un-confirmed or corrected. */
export function changesStandings(before: BoardView | undefined, after: BoardView): boolean {
  if (!before) return false;
  if (!!before.resultConfirmed !== !!after.resultConfirmed) return true;
  return !!after.resultConfirmed && before.result !== after.result;
}

export class Standings {
  private readonly views = new Map<string, { view: StandingsView | null; fetching: boolean; again: boolean }>();
  /** Set once the host answers 501: it computes no standings, so the page stops asking. */
  private unavailable = false;
  private shownKey = '';

  constructor(
    private readonly section: HTMLElement | null,
    private readonly isPublic: boolean,
    private readonly boards: () => Iterable<BoardView>,
    private readonly shownEvents: () => { key: string; name: string }[],
  ) {}

  private isTeamEvent(key: string): boolean {
    for (const b of this.boards()) if (b.event === key && ((b.white && b.white.team) || (b.black && b.black.team))) return true;
    return false;
  }

  /** On connect: every team event shown, afresh. */
  refreshAll(): void {
    this.unavailable = false;
    for (const e of this.shownEvents()) this.refresh(e.key);
  }

  refresh(key: string): void {
    if (this.unavailable || !this.isTeamEvent(key)) return;
    let s = this.views.get(key);
    if (!s) this.views.set(key, (s = { view: null, fetching: false, again: false }));
    if (s.fetching) {
      s.again = true; // several confirmations at once: one more request after this one
      return;
    }
    s.fetching = true;
    const entry = s;
    fetch(`/api/standings?event=${encodeURIComponent(key)}`)
      .then(async (res) => {
        if (res.ok) entry.view = (await res.json()) as StandingsView;
        else if (res.status === 501) this.unavailable = true;
        else if (res.status === 409 || res.status === 404) entry.view = null; // not a team event (after all), or gone
        // Other failures keep the last standings shown.
      })
      .catch(() => {})
      .finally(() => {
        entry.fetching = false;
        this.render();
        if (entry.again && !this.unavailable) {
          entry.again = false;
          this.refresh(key);
        }
      });
  }

  render(): void {
    const section = this.section;
    if (!section) return;
    const names = new Map(this.shownEvents().map((e) => [e.key, e.name]));
    const shown = [...this.views.entries()].filter(([key, s]) => s.view && names.has(key));
    const key = JSON.stringify(shown.map(([k, s]) => [k, names.get(k), s.view]));
    if (key === this.shownKey) return;
    this.shownKey = key;
    section.hidden = shown.length === 0;
    section.replaceChildren(
      ...shown.map(([eventKey, { view }]) => {
        const v = view!;
        const block = el('div', 'standing');
        block.dataset.event = eventKey;
        const after = v.round > 0 ? `after round ${v.round}` : 'no round complete yet';
        const h = el('h2');
        h.append(el('span', 'standing-title', `Standings · ${names.get(eventKey)}`), el('span', 'standing-round', after));
        block.append(h);
        if (v.round > 0) {
          const { table, deciders } = this.teamTable(v);
          const notes = tieNotes(v.teams, deciders);
          // The table scrolls inside its own box on a narrow screen, never the page.
          const scroller = el('div', 'table-scroll');
          // It scrolls sideways on a phone: a keyboard must reach it (WCAG 2.1.1; axe scrollable-region-focusable).
          scroller.tabIndex = 0;
          scroller.setAttribute('role', 'region');
          scroller.setAttribute('aria-label', `standings of ${names.get(eventKey)}`);
          scroller.append(table);
          block.append(scroller);
          if (notes.length) {
            const ul = el('ul', 'tie-notes');
            ul.append(...notes.map((n) => el('li', '', n)));
            block.append(ul);
          }
          block.append(this.boardLeaders(v));
        }
        return block;
      }),
    );
  }

  private teamTable(view: StandingsView): { table: HTMLTableElement; deciders: number[] } {
    const teams = view.teams;
    // Columns that decided a tie between neighbours, and the cells that did.
    const decided = new Set<number>();
    const deciders: number[] = []; // per row: the column index that put it ahead of the next row
    for (let i = 0; i < teams.length; i++) {
      const d = i + 1 < teams.length ? decidingIndex(teams[i + 1], TEAM_COLUMNS) : -1;
      deciders.push(d);
      if (d > 0) decided.add(d);
    }
    // The arbiter sees every column; the hall sees the main ones and any that decided a tie.
    const columns = TEAM_COLUMNS.map((c, i) => ({ ...c, index: i })).filter((c) => !this.isPublic || c.main || decided.has(c.index));
    const table = el('table', 'team-standings');
    const head = el('tr');
    head.append(el('th', 'place', '#'), el('th', 'team', 'Team'), ...columns.map((c) => Object.assign(el('th', '', c.head), { title: c.long })));
    head.querySelectorAll('th').forEach((th, i) => (th.dataset.col = i < 2 ? ['place', 'team'][i] : columns[i - 2].key));
    table.append(el('thead'), el('tbody'));
    table.tHead!.append(head);
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

  /** Per board: the leader(s) and their points; on the arbiter page, what put the leader ahead. */
  private boardLeaders(view: StandingsView): HTMLUListElement {
    const teamName = new Map(view.teams.map((t) => [t.team, t.name]));
    const list = el('ul', 'board-leaders');
    for (const b of view.boards) {
      const leaders = b.players.filter((p) => p.rank === 1);
      if (leaders.length === 0) continue;
      const li = el('li');
      li.dataset.board = String(b.board);
      const who = leaders.map((p) => `${p.name} (${teamName.get(p.team!) ?? p.team})`).join(', ');
      li.append(el('b', 'board-no', `Board ${b.board}`), el('span', 'leader', who), el('span', 'leader-points', points(leaders[0].points)));
      if (leaders.length > 1) li.append(el('span', 'shared', 'shared'));
      const next: PlayerStandingView | undefined = b.players[leaders.length];
      const d = next && leaders.length === 1 ? decidingIndex(next, PLAYER_CRITERIA) : -1;
      if (!this.isPublic && d > 0) li.append(el('span', 'why', `ahead of ${next!.name} on ${PLAYER_CRITERIA[d].long} ${separationValues(next!)}`));
      list.append(li);
    }
    return list;
  }
}

/** "Школа № 1 ahead of Школа № 5 on board 1 points (1 – ½)": every tie a tie-break decided. */
function tieNotes(teams: readonly TeamStandingView[], deciders: readonly number[]): string[] {
  const notes: string[] = [];
  deciders.forEach((d, i) => {
    if (d <= 0) return;
    notes.push(`${teams[i].name} ahead of ${teams[i + 1].name} on ${TEAM_COLUMNS[d].long} ${separationValues(teams[i + 1])}`);
  });
  const shared = teams.filter((t, i) => teams.some((u, j) => j !== i && u.rank === t.rank));
  if (shared.length) notes.push(`equal on every criterion, sharing a place: ${shared.map((t) => t.name).join(', ')}`);
  return notes;
}

// The pages printed before a round (docs/exports.md "Print before the round"): the round's
// pairings list (by board, then every player alphabetically with board and colour, the byes
// listed) and its table cards (one card per board, two or four to an A4 sheet). The same pages
// from `chessclock export --pairings` / `--cards` and GET /events/:event/pairings.html /
// cards.html. Each is one self-contained HTML page like the print report (report-html.ts):
// inline CSS with print rules, no script, nothing fetched, every name HTML-escaped.
//
// The round is the event's as the host has it: from the tournament file, or proposed and then
// approved in the hall (host/app/next-round.ts adds the approved rounds to the event, and
// `chessclock export` restores them from the journal through the director). Nothing here pairs:
// the pages print the round's `boards`, `teamMatches` and `byes` as they stand.

import {
  findEvent,
  playerByRank,
  teamById,
  type BoardPairing,
  type Bye,
  type Hall,
  type Player,
  type Round,
  type TournamentEvent,
} from '../../domain/model.ts';
import { CODE_POINTS } from '../../domain/standings.ts';
import { ExportRefusedError } from '../../app/ports.ts';
import { escapeXml as e } from '../../../rules/time-chart.ts';
import { printPage } from './print-page.ts';
import { formatPoints } from './report-html.ts';

/** How many table cards one A4 sheet holds. */
export type CardsPerPage = 2 | 4;

/** TRF16 bye codes (FIDE C.04 Annex 2, TRF 001 round fields) in an arbiter's words. */
const BYE_WORDS: Readonly<Record<Bye['kind'], string>> = {
  H: 'half-point bye',
  F: 'full-point bye',
  U: 'pairing-allocated bye',
  Z: 'zero-point bye',
};

const CSS = `
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; margin: 1.5em; color: #000; }
h1 { font-size: 15pt; margin: 0 0 .2em; } h2 { font-size: 12.5pt; margin: 1.2em 0 .4em; }
p.meta { margin: .1em 0; }
table { border-collapse: collapse; margin: .2em 0 .8em; }
th, td { border: 1px solid #888; padding: .15em .45em; text-align: left; vertical-align: top; }
th { background: #eee; } td.num, th.num { text-align: right; } td.result { min-width: 4em; }
tr.match th { background: #f6f6f6; font-weight: bold; }
td.name { white-space: nowrap; }
@media print {
  @page { size: A4; margin: 12mm; }
  body { margin: 0; font-size: 9pt; }
  th { background: none; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  h2 { break-after: avoid; }
  section.part { break-before: page; }
  section.part:first-of-type { break-before: auto; }
}
`;

const CARD_CSS = `
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1em; color: #000; }
section.sheet { display: grid; gap: 6mm; margin-bottom: 8mm; }
section.sheet.per-2 { grid-template-rows: repeat(2, 1fr); }
section.sheet.per-4 { grid-template-columns: 1fr 1fr; grid-template-rows: 1fr 1fr; }
article.card { border: 1px dashed #555; padding: 5mm 6mm; display: flex; flex-direction: column; justify-content: space-between; break-inside: avoid; min-height: 60mm; }
.card .event { font-size: 11pt; } .card .round { font-size: 11pt; }
.card .table { font-size: 40pt; font-weight: bold; text-align: center; line-height: 1.1; }
.per-4 .card .table { font-size: 30pt; }
.card .board { text-align: center; font-size: 11pt; }
.card .teams { text-align: center; font-size: 12pt; font-weight: bold; }
.card .side { display: flex; justify-content: space-between; align-items: baseline; gap: 4mm; border-top: 1px solid #888; padding-top: 2mm; }
.card .colour { font-size: 10pt; text-transform: uppercase; min-width: 4em; }
.card .player { font-size: 17pt; font-weight: bold; flex: 1; }
.per-4 .card .player { font-size: 13pt; }
.card .facts { font-size: 11pt; white-space: nowrap; }
@media print {
  @page { size: A4; margin: 10mm; }
  body { margin: 0; }
  section.sheet { height: 277mm; margin: 0; break-after: page; }
  section.sheet:last-of-type { break-after: auto; }
}
`;

/** The round to print: one the event has (from the file or approved in the hall); a knockout's mini-matches are refused. */
function printableRound(hall: Hall, eventId: string, round: number): { event: TournamentEvent; r: Round } {
  const event = findEvent(hall, eventId);
  if (event.kind === 'knockout')
    throw new ExportRefusedError(
      `event "${event.id}" is a knockout: its mini-matches and their games are on the dashboard; the pairings list and table cards are for Swiss, round-robin and team events`,
    );
  const r = event.rounds.find((x) => x.number === round);
  if (!r) {
    const has = event.rounds.length ? `rounds 1-${event.rounds.length} are paired` : 'no round is paired yet';
    throw new ExportRefusedError(`event "${event.id}" has no pairings for round ${round} (${has})`);
  }
  return { event, r };
}

/** "2026/09/14 · 15:00 UTC": the round's date and scheduled start as the file gives them. */
function whenText(r: Round): string {
  if (r.startUtcMs === null) return r.date ?? '';
  return `${new Date(r.startUtcMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function headerHtml(event: TournamentEvent, r: Round, what: string): string {
  const when = whenText(r);
  return `<header>
<h1>${e(event.name)}</h1>
<p class="meta" id="round" data-round="${r.number}">${e(what)}: round ${r.number} of ${event.plannedRounds}${when ? ` · ${e(when)}` : ''}</p>
</header>`;
}

/** "GM · 2550 · SLO": a player's title, rating and federation, those known. */
function facts(p: Player): string {
  return [p.title, p.rating === null ? null : String(p.rating), p.federation].filter((x) => x !== null && x !== '').join(' · ');
}

function playerCells(p: Player): string {
  return `<td class="num">${p.rank}</td><td class="name">${e(p.name)}</td><td class="num">${p.rating ?? ''}</td><td>${e(p.federation ?? '')}</td>`;
}

function boardRow(event: TournamentEvent, bd: BoardPairing): string {
  const w = playerByRank(event, bd.white);
  const b = playerByRank(event, bd.black);
  const table = event.hallFirstTable + bd.board - 1;
  return `<tr data-board="${bd.board}"><td class="num">${bd.board}</td><td class="num">${table}</td>${playerCells(w)}<td class="result"></td>${playerCells(b)}</tr>`;
}

const BOARD_HEAD = `<thead><tr><th class="num">Board</th><th class="num">Table</th><th class="num">No.</th><th>White</th><th class="num">Rtg</th><th>Fed</th><th>Result</th><th class="num">No.</th><th>Black</th><th class="num">Rtg</th><th>Fed</th></tr></thead>`;

function byBoard(event: TournamentEvent, r: Round): string {
  if (event.kind !== 'team')
    return `<table class="pairings by-board">${BOARD_HEAD}<tbody>${r.boards.map((bd) => boardRow(event, bd)).join('')}</tbody></table>`;
  const matches = r.teamMatches.map((m) => {
    const head = `<tr class="match" data-white-team="${m.white}" data-black-team="${m.black}"><th colspan="11">${e(teamById(event, m.white).name)} – ${e(teamById(event, m.black).name)}</th></tr>`;
    return head + m.boards.map((bd) => boardRow(event, bd)).join('');
  });
  return `<table class="pairings by-board">${BOARD_HEAD}<tbody>${matches.join('')}</tbody></table>`;
}

function byeItems(event: TournamentEvent, r: Round): string[] {
  return r.byes.map((bye) => {
    if (bye.team !== null) {
      const s = event.teamScoring;
      return `<li data-team="${bye.team}">${e(teamById(event, bye.team).name)}: no opponent (bye): ${s.byeMatchPoints} match point${s.byeMatchPoints === 1 ? '' : 's'}, ${formatPoints(s.byePointsPerPlayer)} per player</li>`;
    }
    const p = playerByRank(event, bye.player!);
    return `<li data-player="${p.rank}">${e(p.name)}: ${BYE_WORDS[bye.kind]} (${formatPoints(CODE_POINTS[bye.kind])})</li>`;
  });
}

interface Seat {
  readonly player: Player;
  readonly where: string;
  readonly board: number | null;
  readonly colour: string;
  readonly opponent: string;
}

/** Every player of the round, paired or with a bye, in alphabetical order (the name as FIDE lists it: "Surname, First"). */
function seats(event: TournamentEvent, r: Round): Seat[] {
  const out: Seat[] = [];
  for (const bd of r.boards) {
    const w = playerByRank(event, bd.white);
    const b = playerByRank(event, bd.black);
    const table = String(event.hallFirstTable + bd.board - 1);
    out.push({ player: w, where: table, board: bd.board, colour: 'White', opponent: b.name });
    out.push({ player: b, where: table, board: bd.board, colour: 'Black', opponent: w.name });
  }
  for (const bye of r.byes) {
    const players = bye.team !== null ? teamById(event, bye.team).players : [bye.player!];
    const kind = bye.team !== null ? 'team bye' : BYE_WORDS[bye.kind];
    for (const rank of players) out.push({ player: playerByRank(event, rank), where: '', board: null, colour: '', opponent: kind });
  }
  return out.sort((a, b) => a.player.name.localeCompare(b.player.name) || a.player.rank - b.player.rank);
}

function alphabetical(event: TournamentEvent, r: Round): string {
  const team = event.kind === 'team';
  const rows = seats(event, r).map((s) => {
    const teamCell = team && s.player.team !== null ? `<td class="name">${e(teamById(event, s.player.team).name)}</td>` : team ? '<td></td>' : '';
    return `<tr data-player="${s.player.rank}"><td class="name">${e(s.player.name)}</td>${teamCell}<td class="num">${s.board ?? ''}</td><td class="num">${s.where}</td><td>${s.colour}</td><td class="name">${e(s.opponent)}</td></tr>`;
  });
  return `<table class="pairings alphabetical"><thead><tr><th>Player</th>${team ? '<th>Team</th>' : ''}<th class="num">Board</th><th class="num">Table</th><th>Colour</th><th>Opponent</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The pairings list of `eventId`'s round `round`: by board (team events: by match), the byes, then every player alphabetically. */
export function pairingsListHtml(hall: Hall, eventId: string, round: number): string {
  const { event, r } = printableRound(hall, eventId, round);
  const byes = byeItems(event, r);
  const body = `<section class="part" id="by-board"><h2>Pairings by board</h2>
${byBoard(event, r)}
${byes.length ? `<h2>Byes</h2>\n<ul class="byes">${byes.join('')}</ul>` : ''}
</section>
<section class="part" id="alphabetical"><h2>Players in alphabetical order</h2>
${alphabetical(event, r)}
</section>`;
  return printPage(`${event.name} — round ${r.number} pairings`, CSS, headerHtml(event, r, 'Pairings'), body);
}

function cardSide(colour: 'White' | 'Black', p: Player, team: string | null): string {
  const f = facts(p);
  return `<div class="side ${colour.toLowerCase()}"><span class="colour">${colour}</span><span class="player">${e(p.name)}</span><span class="facts">${e([f, team].filter(Boolean).join(' · '))}</span></div>`;
}

function card(event: TournamentEvent, r: Round, bd: BoardPairing, match: { white: number; black: number } | null): string {
  const table = event.hallFirstTable + bd.board - 1;
  const w = playerByRank(event, bd.white);
  const b = playerByRank(event, bd.black);
  const teamOf = (p: Player) => (p.team === null ? null : teamById(event, p.team).name);
  const teams = match ? `<div class="teams">${e(teamById(event, match.white).name)} – ${e(teamById(event, match.black).name)}</div>` : '';
  return `<article class="card" data-board="${bd.board}" data-table="${table}">
<div class="event">${e(event.name)}</div><div class="round">Round ${r.number}</div>
<div class="table">Table ${table}</div>${table !== bd.board ? `<div class="board">Board ${bd.board}</div>` : ''}${teams}
${cardSide('White', w, match ? teamOf(w) : null)}
${cardSide('Black', b, match ? teamOf(b) : null)}
</article>`;
}

/** The table cards of `eventId`'s round `round`: one per board, `perPage` to an A4 sheet. */
export function tableCardsHtml(hall: Hall, eventId: string, round: number, perPage: CardsPerPage = 2): string {
  const { event, r } = printableRound(hall, eventId, round);
  const matchOf = (board: number) => r.teamMatches.find((m) => m.boards.some((x) => x.board === board)) ?? null;
  const cards = r.boards.map((bd) => card(event, r, bd, event.kind === 'team' ? matchOf(bd.board) : null));
  const sheets: string[] = [];
  for (let i = 0; i < cards.length; i += perPage) sheets.push(`<section class="sheet per-${perPage}">\n${cards.slice(i, i + perPage).join('\n')}\n</section>`);
  const body = sheets.length ? sheets.join('\n') : '<p>This round has no boards (every player has a bye).</p>';
  return printPage(`${event.name} — round ${r.number} table cards`, CARD_CSS, '', body);
}

// The print report of an event after a round (`chessclock export --report`, docs/exports.md
// "Print report"): one self-contained HTML page — inline CSS with print rules, no script, no
// external resource, every name HTML-escaped — with the round results, a crosstable and the
// standings with the tie-break that decided each tie.
//
// Nothing here ranks or scores: the round records come from the journal's confirmed results
// (journal-standings.ts confirmedRecords, the same as GET /api/standings and the TRF), the places
// and tie-break values from host/domain/standings.ts and board-standings.ts, and what decided a
// tie is the ranking's own `separatedBy` (tie-breaks.ts), never a second comparison.

import type { GameRow, Journal } from '../../store/journal.ts';
import { findEvent, playerByRank, teamById, type Hall, type TournamentEvent } from '../../domain/model.ts';
import { CODE_POINTS, teamStandings, type RoundRecord, type TrfCode } from '../../domain/standings.ts';
import { boardStandings, fieldStandings, type IndividualStanding } from '../../domain/board-standings.ts';
import type { Separation } from '../../domain/ranking.ts';
import { completedRounds } from '../../app/round-games.ts';
import { confirmedRecords } from '../../app/journal-standings.ts';
import { ExportRefusedError } from '../../app/ports.ts';
import { RESULT_MEANING, type GameResult } from '../../../rules/vocabulary.ts';
import { escapeXml } from '../../../rules/time-chart.ts';
import { printPage } from './print-page.ts';

/**
 * HTML text and attribute escaping (HTML Living Standard §13.1.2.6): the same five characters
 * as XML's, so the time chart's escaping (rules/time-chart.ts) serves both.
 */
const escapeHtml = escapeXml;

/** Points as an arbiter writes them in a table: `14.5`, `13.0`; a direct-encounter average that is not a half keeps its digits. */
export function formatPoints(x: number): string {
  return Number.isInteger(x * 2) ? x.toFixed(1) : String(x);
}

/** A game's result as printed: the vocabulary's label, so a forfeit reads `+− (Black forfeits)` and a double forfeit `−− (both forfeit)`. */
function resultText(game: GameRow | undefined): string {
  if (!game || game.result === null || game.confirmedBy === null) return 'no confirmed result';
  return RESULT_MEANING[game.result as GameResult].label;
}

/** A TRF round record in a crosstable cell: opponent, colour and points (`12w 1`, `5b ½ `), forfeits `+`/`−`, byes by code. */
function recordCell(rec: RoundRecord): string {
  const pts = CODE_POINTS[rec.code];
  const shown = pts === 0.5 ? '½' : String(pts);
  if (rec.opponent === null) return rec.code === ' ' ? '—' : `bye ${rec.code} ${shown}`;
  const forfeit: Partial<Record<TrfCode, string>> = { '+': '+ (forfeit)', '-': '− (forfeit)' };
  return `${rec.opponent}${rec.colour ?? ''} ${forfeit[rec.code] ?? shown}`;
}

/** "ahead of X on Buchholz 14.5 vs 13.0": what put the next participant below this one. */
function aheadText(next: { name: string; separatedBy: Separation | null } | undefined, primary: string): string | null {
  const s = next?.separatedBy;
  if (!next || !s || s.criterion === primary) return null;
  return `ahead of ${next.name} on ${s.criterion} ${formatPoints(s.above)} vs ${formatPoints(s.value)}`;
}

/** The tie notes of a ranked list: ahead of the next one on the deciding tie-break, or level on every criterion. */
function tieNotes<T extends { rank: number; separatedBy: Separation | null }>(rows: readonly T[], name: (t: T) => string, primary: string): string[] {
  return rows.map((row, i) => {
    const notes: string[] = [];
    const next = rows[i + 1];
    const ahead = next && next.rank !== row.rank ? aheadText({ name: name(next), separatedBy: next.separatedBy }, primary) : null;
    if (ahead) notes.push(ahead);
    const level = rows.filter((r) => r !== row && r.rank === row.rank).map(name);
    if (level.length) notes.push(`level with ${level.join(', ')} on every criterion: the place is shared`);
    return notes.join('; ');
  });
}

const CSS = `
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; margin: 1.5em; color: #000; }
h1 { font-size: 15pt; margin: 0 0 .2em; } h2 { font-size: 12.5pt; margin: 1.2em 0 .4em; } h3 { font-size: 11pt; margin: .9em 0 .3em; }
p.meta { margin: .1em 0; }
table { border-collapse: collapse; margin: .2em 0 .8em; }
th, td { border: 1px solid #888; padding: .15em .45em; text-align: left; vertical-align: top; }
th { background: #eee; } td.num, th.num { text-align: right; } td.result { text-align: center; white-space: nowrap; }
tr.match th { background: #f6f6f6; font-weight: bold; }
td.note { font-size: 9pt; }
td.name { white-space: nowrap; }
@media print {
  @page { size: A4; margin: 12mm; }
  body { margin: 0; font-size: 9pt; }
  th { background: none; }
  thead { display: table-header-group; }
  tr, section.round { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  section.part { break-before: page; }
  section.part:first-of-type { break-before: auto; }
}
`;

/** The print report of `eventId` after `round` (default: the last round with every result confirmed; knockouts: the last round in the journal). */
export function eventReportHtml(journal: Journal, hall: Hall, eventId: string, round?: number): string {
  const event = findEvent(hall, eventId);
  if (round !== undefined && round > event.rounds.length) throw new ExportRefusedError(`event "${event.id}" has ${event.rounds.length} rounds, not ${round}`);
  const e = escapeHtml;
  let upTo: number;
  let body: string;
  if (event.kind === 'knockout') {
    upTo = round ?? Math.max(0, ...journal.gamesByEvent(event.id).map((g) => g.round));
    if (upTo < 1) throw new ExportRefusedError(`event "${event.id}" has no games in the journal yet`);
    body = knockoutBody(journal, event, upTo);
  } else {
    upTo = round ?? completedRounds(journal, event);
    if (upTo < 1) throw new ExportRefusedError(`event "${event.id}": no round has every result confirmed yet (the report needs confirmed results)`);
    const records = confirmedRecords(journal, event, upTo);
    const p = event.kind === 'team' ? teamParts(journal, event, records, upTo, printed) : individualParts(journal, event, records, upTo, printed);
    body = parts(p.rounds, p.crosstable, p.standings);
  }
  const dates = [event.startDate, event.endDate].filter((d) => d !== null).join(' – ');
  const where = [event.city, event.federation].filter((x) => x !== null).join(', ');
  const title = `${event.name} — after round ${upTo}`;
  return printPage(
    title,
    CSS,
    `<header>
<h1>${e(event.name)}</h1>
${where || dates ? `<p class="meta">${e([where, dates].filter(Boolean).join(' · '))}</p>\n` : ''}${event.chiefArbiter ? `<p class="meta">Chief arbiter: ${e(event.chiefArbiter)}</p>\n` : ''}<p class="meta" id="after-round" data-round="${upTo}">After round ${upTo} of ${event.plannedRounds}</p>
</header>`,
    body,
  );
}

function playerName(event: TournamentEvent, rank: number): string {
  return playerByRank(event, rank).name;
}

function gamesByBoard(journal: Journal, event: TournamentEvent, round: number): Map<number, GameRow> {
  return new Map(journal.gamesByRound(event.id, round).map((g) => [g.board, g]));
}

function boardRow(event: TournamentEvent, board: { board: number; white: number; black: number }, game: GameRow | undefined): string {
  const e = escapeHtml;
  return `<tr data-board="${board.board}"><td class="num">${board.board}</td><td>${e(playerName(event, board.white))}</td><td class="result">${e(resultText(game))}</td><td>${e(playerName(event, board.black))}</td></tr>`;
}

/**
 * How a table is framed: the print report prints it as it is; the screen page
 * (standings-page.ts) puts it in a region that scrolls sideways inside itself on a phone.
 * `label` names the table for a screen reader.
 */
export type TableFrame = (label: string, table: string) => string;
const printed: TableFrame = (_label, table) => table;

/** An event's round results, crosstable and standings as HTML fragments, from the one ranking. */
export interface EventParts {
  readonly rounds: string[];
  readonly crosstable: string;
  readonly standings: string;
}

// ─── Team events (Ivanovo: board points, match points) ─────────────────────────────────

export function teamParts(journal: Journal, event: TournamentEvent, records: Map<number, RoundRecord[]>, upTo: number, frame: TableFrame): EventParts {
  const e = escapeHtml;
  const teams = teamStandings(event, records, upTo);
  const teamName = (id: number) => teamById(event, id).name;
  const of = (team: number, r: number) => teams.find((t) => t.team === team)!.rounds.find((x) => x.round === r)!;

  const rounds = event.rounds.slice(0, upTo).map((round) => {
    const games = gamesByBoard(journal, event, round.number);
    const matches = round.teamMatches.map((m) => {
      const w = of(m.white, round.number);
      const b = of(m.black, round.number);
      const head = `<tr class="match" data-white-team="${m.white}" data-black-team="${m.black}"><th colspan="4">${e(teamName(m.white))} ${formatPoints(w.gamePoints)} – ${formatPoints(b.gamePoints)} ${e(teamName(m.black))} <span class="mp">(match points ${w.matchPoints} – ${b.matchPoints})</span></th></tr>`;
      return head + m.boards.map((bd) => boardRow(event, bd, games.get(bd.board))).join('');
    });
    const byes = round.byes.map((bye) => {
      if (bye.team !== null) {
        const r = of(bye.team, round.number);
        return `<li data-team="${bye.team}">${e(teamName(bye.team))}: no opponent (bye): ${r.matchPoints} match point${r.matchPoints === 1 ? '' : 's'}, ${formatPoints(r.gamePoints)} board points</li>`;
      }
      return `<li data-player="${bye.player}">${e(playerName(event, bye.player!))}: bye ${bye.kind}</li>`;
    });
    return roundSection(
      round.number,
      round.date,
      frame(
        `round ${round.number} results`,
        `<table class="results"><thead><tr><th class="num">Board</th><th>White</th><th>Result</th><th>Black</th></tr></thead><tbody>${matches.join('')}</tbody></table>`,
      ),
      byes,
    );
  });

  const boards = event.boardsPerTeam ?? 4;
  const crossRows = teams.map((t) => {
    const cells = Array.from({ length: upTo }, (_, i) => {
      const r = t.rounds.find((x) => x.round === i + 1);
      if (!r) return '<td class="result">—</td>';
      const text =
        r.opponent === null ? `bye ${formatPoints(r.gamePoints)}` : `${r.opponent}${r.colour} ${formatPoints(r.gamePoints)}${r.forfeited ? ' (forfeit)' : ''}`;
      return `<td class="result" data-round="${i + 1}">${e(text)}</td>`;
    });
    return `<tr data-team="${t.team}"><td class="num">${t.rank}</td><td class="num">${t.team}</td><td class="name">${e(teamName(t.team))}</td>${cells.join('')}<td class="num" data-field="gamePoints">${formatPoints(t.gamePoints)}</td><td class="num" data-field="matchPoints">${t.matchPoints}</td></tr>`;
  });
  const roundHeads = Array.from({ length: upTo }, (_, i) => `<th>R${i + 1}</th>`).join('');
  const crosstable = `<p>Each round: the opponent team's number, the colour of board 1 (w/b), the board points scored.</p>
${frame('crosstable', `<table class="crosstable"><thead><tr><th class="num">Place</th><th class="num">No.</th><th>Team</th>${roundHeads}<th class="num">Board pts</th><th class="num">Match pts</th></tr></thead><tbody>${crossRows.join('')}</tbody></table>`)}`;

  const notes = tieNotes(teams, (t) => teamName(t.team), 'board points');
  const boardHeads = Array.from({ length: boards }, (_, k) => `<th class="num">Board ${k + 1}</th>`).join('');
  const standingRows = teams.map(
    (t, i) =>
      `<tr data-team="${t.team}" data-rank="${t.rank}"><td class="num">${t.rank}</td><td class="name">${e(teamName(t.team))}</td>` +
      `<td class="num" data-field="gamePoints">${formatPoints(t.gamePoints)}</td><td class="num" data-field="matchPoints">${t.matchPoints}</td>` +
      `<td class="num" data-field="directEncounter">${t.directEncounter === null ? '' : formatPoints(t.directEncounter)}</td><td class="num" data-field="buchholz">${formatPoints(t.buchholz)}</td>` +
      Array.from({ length: boards }, (_, k) => `<td class="num" data-field="board${k + 1}">${formatPoints(t.boardPoints[k] ?? 0)}</td>`).join('') +
      `<td class="note" data-field="tieBreak">${e(notes[i])}</td></tr>`,
  );
  const standings = `<p>Places by total board points, then match points (win 2, draw 1, loss 0), the match between the tied teams, team Buchholz, then the points on board 1, 2, … (docs/tournament.md).</p>
${frame('team standings', `<table class="standings teams"><thead><tr><th class="num">Place</th><th>Team</th><th class="num">Board pts</th><th class="num">Match pts</th><th class="num">Direct enc.</th><th class="num">Buchholz</th>${boardHeads}<th>Tie decided by</th></tr></thead><tbody>${standingRows.join('')}</tbody></table>`)}
<h3>Board prizes</h3>
<p>Each board: points, then Buchholz, wins, direct encounter, Buchholz cut 1, cut 2.</p>
${boardStandings(event, records)
  .map(
    (b) =>
      `<h4>Board ${b.board}</h4>${frame(
        `board ${b.board} prizes`,
        playerTable(event, b.players, `board-${b.board}`, (p) => e(teamName(p.team!))),
      )}`,
  )
  .join('\n')}`;

  return { rounds, crosstable, standings };
}

// ─── Individual events ─────────────────────────────────────────────────────────────────

export function individualParts(journal: Journal, event: TournamentEvent, records: Map<number, RoundRecord[]>, upTo: number, frame: TableFrame): EventParts {
  const e = escapeHtml;
  const rounds = event.rounds.slice(0, upTo).map((round) => {
    const games = gamesByBoard(journal, event, round.number);
    const rows = round.boards.map((bd) => boardRow(event, bd, games.get(bd.board)));
    const byes = round.byes
      .filter((b) => b.player !== null)
      .map((b) => `<li data-player="${b.player}">${e(playerName(event, b.player!))}: bye ${b.kind} (${formatPoints(CODE_POINTS[b.kind])})</li>`);
    return roundSection(
      round.number,
      round.date,
      frame(
        `round ${round.number} results`,
        `<table class="results"><thead><tr><th class="num">Board</th><th>White</th><th>Result</th><th>Black</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
      byes,
    );
  });
  const ranked = fieldStandings(event, records);
  const roundHeads = Array.from({ length: upTo }, (_, i) => `<th>R${i + 1}</th>`).join('');
  const crossRows = ranked.map((s) => {
    const cells = records
      .get(s.player)!
      .map((rec, i) => `<td class="result" data-round="${i + 1}">${e(recordCell(rec))}</td>`)
      .join('');
    return `<tr data-player="${s.player}"><td class="num">${s.rank}</td><td class="num">${s.player}</td><td class="name">${e(playerName(event, s.player))}</td>${cells}<td class="num" data-field="points">${formatPoints(s.points)}</td></tr>`;
  });
  const crosstable = `<p>Each round: the opponent's starting number, the colour (w/b) and the points; a forfeit is marked, a bye shows its TRF code.</p>
${frame('crosstable', `<table class="crosstable"><thead><tr><th class="num">Place</th><th class="num">No.</th><th>Player</th>${roundHeads}<th class="num">Points</th></tr></thead><tbody>${crossRows.join('')}</tbody></table>`)}`;
  const standings = `<p>Places by points, then Buchholz, wins, direct encounter, Buchholz cut 1, cut 2 (FIDE C.07 definitions, docs/tournament.md).</p>
${frame('standings', playerTable(event, ranked, 'players', null))}`;
  return { rounds, crosstable, standings };
}

/** A ranking of players with every tie-break value and what decided each tie. */
function playerTable(
  event: TournamentEvent,
  rows: readonly (IndividualStanding & { team?: number })[],
  id: string,
  team: ((p: IndividualStanding & { team?: number }) => string) | null,
): string {
  const e = escapeHtml;
  const notes = tieNotes(rows, (p) => playerName(event, p.player), 'points');
  const body = rows.map(
    (p, i) =>
      `<tr data-player="${p.player}" data-rank="${p.rank}"><td class="num">${p.rank}</td><td class="name">${e(playerName(event, p.player))}</td>${team ? `<td class="name">${team(p)}</td>` : ''}` +
      `<td class="num" data-field="points">${formatPoints(p.points)}</td><td class="num" data-field="buchholz">${formatPoints(p.buchholz)}</td><td class="num" data-field="wins">${p.wins}</td>` +
      `<td class="num" data-field="directEncounter">${p.directEncounter === null ? '' : formatPoints(p.directEncounter)}</td>` +
      `<td class="num" data-field="buchholzCut1">${formatPoints(p.buchholzCut1)}</td><td class="num" data-field="buchholzCut2">${formatPoints(p.buchholzCut2)}</td>` +
      `<td class="note" data-field="tieBreak">${e(notes[i])}</td></tr>`,
  );
  return `<table class="standings players" id="standings-${id}"><thead><tr><th class="num">Place</th><th>Player</th>${team ? '<th>Team</th>' : ''}<th class="num">Points</th><th class="num">Buchholz</th><th class="num">Wins</th><th class="num">Direct enc.</th><th class="num">BH cut 1</th><th class="num">BH cut 2</th><th>Tie decided by</th></tr></thead><tbody>${body.join('')}</tbody></table>`;
}

// ─── Knockout events ───────────────────────────────────────────────────────────────────

export function knockoutBody(journal: Journal, event: TournamentEvent, upTo: number, frame: TableFrame = printed): string {
  const e = escapeHtml;
  const matches = journal.matchesByEvent(event.id);
  const rounds = Array.from({ length: upTo }, (_, i) => i + 1).map((r) => {
    const games = journal.gamesByRound(event.id, r);
    const boards = [...new Set(games.map((g) => g.board))];
    const rows = boards.map((board) => {
      const match = matches.find((m) => m.round === r && m.board === board);
      const outcome =
        match?.status === 'decided' && match.winner ? `${match.winner} advances (decided by the ${match.decidedBy ?? '?'} games)` : 'match not decided yet';
      const head = `<tr class="match" data-board="${board}"><th colspan="4">Board ${board}: ${e(outcome)}</th></tr>`;
      return (
        head +
        games
          .filter((g) => g.board === board)
          .map(
            (g) =>
              `<tr data-board="${board}" data-game="${g.gameNo}"><td>Game ${g.gameNo} (${e(g.kind)})</td><td>${e(g.white)}</td><td class="result">${e(resultText(g))}</td><td>${e(g.black)}</td></tr>`,
          )
          .join('')
      );
    });
    return roundSection(
      r,
      event.rounds[r - 1]?.date ?? null,
      frame(
        `round ${r} results`,
        `<table class="results"><thead><tr><th>Game</th><th>White</th><th>Result</th><th>Black</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
      [],
    );
  });
  return `<section class="part" id="rounds"><h2>Round results</h2>
${rounds.join('\n')}
</section>
<section class="part" id="standings"><h2>Standings</h2>
<p>A knockout is decided by its matches (classical games, then the rapid play-off and the armageddon): there is no crosstable and no tie-break, the winner of each match is shown above.</p>
</section>`;
}

function roundSection(n: number, date: string | null, table: string, byes: string[]): string {
  return `<section class="round" id="round-${n}" data-round="${n}"><h3>Round ${n}${date ? ` · ${escapeHtml(date)}` : ''}</h3>
${table}${byes.length ? `\n<ul class="byes">${byes.join('')}</ul>` : ''}
</section>`;
}

function parts(rounds: string[], crosstable: string, standings: string): string {
  return `<section class="part" id="rounds"><h2>Round results</h2>
${rounds.join('\n')}
</section>
<section class="part" id="crosstable"><h2>Crosstable</h2>
${crosstable}
</section>
<section class="part" id="standings"><h2>Standings</h2>
${standings}
</section>`;
}

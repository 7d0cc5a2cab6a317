// The standings and crosstable page of an event, for the screen (GET /events/:event/standings,
// docs/api.md "Pictures and print views", docs/dashboard.md "Standings page"): what an arbiter, a
// captain or a player opens from the dashboard's event row or from /public, on a phone at 390 px
// as on a hall screen at 1400 px.
//
// Nothing here ranks or scores: the tables are the print report's own (report-html.ts teamParts /
// individualParts: the places and tie-break values of host/domain fieldStandings, teamStandings
// and boardStandings over journal-standings.ts confirmedRecords, the same as GET /api/standings
// and the TRF), framed for a screen: each table in a region that scrolls sideways inside itself,
// so the page itself never scrolls sideways. One inline style sheet, no script: the API serves
// the page under a CSP that allows exactly that sheet by its SHA-256 (CSP Level 3 hash source).
import { createHash } from 'node:crypto';
import type { Journal } from '../../store/journal.ts';
import { findEvent, type Hall } from '../../domain/model.ts';
import { completedRounds } from '../../app/round-games.ts';
import { confirmedRecords } from '../../app/journal-standings.ts';
import { ExportRefusedError, type StyledPage } from '../../app/ports.ts';
import { escapeXml } from '../../../rules/time-chart.ts';
import { individualParts, knockoutBody, teamParts, type TableFrame } from './report-html.ts';

const e = escapeXml;

const CSS = `
body { font-family: system-ui, "DejaVu Sans", Arial, sans-serif; font-size: 15px; line-height: 1.4; margin: 0 auto; padding: 8px 12px 24px; max-width: 1400px; color: #111; background: #fff; }
nav.links { display: flex; flex-wrap: wrap; gap: 4px 16px; }
nav.links a, nav.rounds a { display: inline-block; min-height: 24px; padding: 6px 2px; color: #0b57d0; }
h1 { font-size: 1.45em; margin: .25em 0; } h2 { font-size: 1.2em; margin: 1.1em 0 .35em; } h3, h4 { font-size: 1.02em; margin: .9em 0 .3em; }
p { margin: .3em 0; max-width: 62em; }
p.meta { color: #333; }
p.notice { padding: .6em .8em; border: 1px solid #b7791f; background: #fff8e6; }
nav.rounds ul { list-style: none; margin: .2em 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 14px; }
nav.rounds a[aria-current] { font-weight: bold; color: #111; text-decoration: none; }
.scroll { overflow-x: auto; max-width: 100%; margin: .35em 0 1em; border: 1px solid #c8c8c8; }
.scroll:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #ddd; padding: .3em .55em; text-align: left; vertical-align: top; white-space: nowrap; }
th { background: #f0f0f0; }
tbody tr:nth-child(even) { background: #fafafa; }
td.num, th.num { text-align: right; } td.result { text-align: center; }
tr.match th { background: #e8eef8; }
td.note { white-space: normal; min-width: 24em; font-size: .92em; }
ul.byes { margin: .2em 0 .8em; padding-left: 1.2em; }
@media (max-width: 480px) { body { font-size: 14px; padding: 6px 8px 20px; } th, td { padding: .28em .4em; } }
@media print { nav { display: none; } .scroll { overflow: visible; border: 0; } body { max-width: none; } }
`;

/** The CSP hash source of the page's one style sheet: the API allows this sheet and nothing else. */
const STYLE_SHA256 = createHash('sha256').update(CSS).digest('base64');

/** Each table in a focusable, named region that scrolls sideways (WCAG 2.1.1: a keyboard can scroll it; 1.4.10 reflow: the page does not). */
const scrolling: TableFrame = (label, table) => `<div class="scroll" role="region" tabindex="0" aria-label="${e(label)}">${table}</div>`;

/**
 * The screen page of `eventId` after `round` (default: the last round with every result
 * confirmed). Before any round is complete it says so (200: the page exists, the standings do not
 * yet); an explicit round that is not complete is refused (ExportRefusedError, naming the boards).
 */
export function eventStandingsPage(journal: Journal, hall: Hall, eventId: string, round?: number): StyledPage {
  const event = findEvent(hall, eventId);
  if (round !== undefined && round > event.rounds.length) throw new ExportRefusedError(`event "${event.id}" has ${event.rounds.length} rounds, not ${round}`);
  let complete: number;
  let body: string;
  let after: number;
  if (event.kind === 'knockout') {
    complete = Math.max(0, ...journal.gamesByEvent(event.id).map((g) => g.round));
    after = round ?? complete;
    body =
      after < 1
        ? notice('No game of this knockout is in the journal yet: its matches appear here when the first round is opened.')
        : `<p>A knockout is decided by its matches (classical games, then the rapid play-off and the armageddon): no crosstable and no tie-break; the winner of each match is shown.</p>\n${knockoutBody(journal, event, after, scrolling)}`;
  } else {
    complete = completedRounds(journal, event);
    after = round ?? complete;
    if (after < 1) {
      body = notice(
        `No round has every result confirmed yet: the standings and the crosstable appear when every result of round 1 is confirmed (${event.rounds.length} round${event.rounds.length === 1 ? '' : 's'} paired so far).`,
      );
    } else {
      const records = confirmedRecords(journal, event, after);
      const p = event.kind === 'team' ? teamParts(journal, event, records, after, scrolling) : individualParts(journal, event, records, after, scrolling);
      body = `<section id="standings"><h2>Standings after round ${after}</h2>
${p.standings}
</section>
<section id="crosstable"><h2>Crosstable</h2>
${p.crosstable}
</section>
<section id="results"><h2>Results of round ${after}</h2>
${p.rounds[after - 1]}
</section>`;
    }
  }
  const rounds = Array.from({ length: complete }, (_, i) => i + 1);
  const roundNav =
    rounds.length === 0
      ? ''
      : `<nav class="rounds" aria-label="rounds">
<p>Standings after round:</p>
<ul>${rounds.map((r) => `<li><a href="standings?round=${r}"${r === after ? ' aria-current="page"' : ''}>${r}</a></li>`).join('')}</ul>
<p>Print view of a round (results, crosstable and standings after it, for A4):</p>
<ul>${rounds.map((r) => `<li><a class="print" data-round="${r}" href="report.html?round=${r}">round ${r}</a></li>`).join('')}</ul>
</nav>`;
  const dates = [event.startDate, event.endDate].filter((d) => d !== null).join(' – ');
  const where = [event.city, event.federation].filter((x) => x !== null).join(', ');
  const title = after >= 1 ? `${event.name} — standings after round ${after}` : `${event.name} — standings`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${e(title)}</title>
<style>${CSS}</style>
</head>
<body data-event="${e(event.id)}" data-kind="${event.kind}">
<header>
<nav class="links" aria-label="pages"><a href="../../">arbiter dashboard</a><a href="../../public">public view</a>${complete >= 1 ? '<a href="report.html">print view</a>' : ''}</nav>
<h1>${e(event.name)}</h1>
${where || dates ? `<p class="meta">${e([where, dates].filter(Boolean).join(' · '))}</p>\n` : ''}<p class="meta" id="after-round" data-round="${Math.max(after, 0)}">${after >= 1 ? `After round ${after} of ${event.plannedRounds}` : `${event.plannedRounds} rounds planned`}</p>
${roundNav}
</header>
<main>
${body}
</main>
</body>
</html>
`;
  return { html, styleSha256: STYLE_SHA256 };
}

function notice(text: string): string {
  return `<p class="notice" id="notice">${e(text)}</p>`;
}

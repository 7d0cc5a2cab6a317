// The API's exports from the host core's exporters (host/adapters/exports) over the journal and the
// tournament file: TRF per event (round 0: the registration TRF a pairing program pairs round 1 from), PGN per round (the broadcast URL), JSON Lines events, and the
// print report of an event after a round (the same page as `chessclock export --report`), and the
// screen page of its standings and crosstable; a round's pairings list and table cards for print.
import type { Journal } from '../../store/journal.ts';
import type { Hall } from '../../domain/model.ts';
import { eventTrf, registrationTrf } from './trf-event.ts';
import { TrfError } from './trf.ts';
import { roundPgn } from './pgn.ts';
import { eventJson } from './jsonl.ts';
import { eventReportHtml } from './report-html.ts';
import { eventStandingsPage } from './standings-page.ts';
import { pairingsListHtml, tableCardsHtml } from './pairings-html.ts';
import { ExportRefusedError, type EventQuery, type ExportSource } from '../../app/ports.ts';

function refusals<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    // "result not confirmed", "points disagree", ...: the export is refused as things stand.
    if (err instanceof TrfError) throw new ExportRefusedError(err.message);
    throw err;
  }
}

/** `broadcastDelay`: each event's delay in seconds for the public broadcast feed (docs/broadcast.md "The delay"). */
export function journalExports(journal: Journal, hall: Hall, nowUtcMs: () => number, broadcastDelay: Readonly<Record<string, number>> = {}): ExportSource {
  const roundsOf = (event: string | undefined, round: number) =>
    // Without an event: the round of every event in the hall that has one.
    event !== undefined ? [event] : hall.events.filter((e) => e.rounds.length >= round).map((e) => e.id);
  return {
    trf: (event, round, options = {}) =>
      refusals(() =>
        round === 0
          ? registrationTrf(journal, hall, event, options.initialColour, options.format)
          : eventTrf(journal, hall, event, { upToRound: round, format: options.format }),
      ),
    events: () => hall.events.map((e) => e.id),
    pgn: (event, round) =>
      roundsOf(event, round)
        .map((e) => roundPgn(journal, hall, e, round, { nowUtcMs: nowUtcMs() }))
        .filter((text) => text.length > 0)
        .join('\n'),
    broadcastPgn: (event, round) =>
      roundsOf(event, round)
        .map((e) => roundPgn(journal, hall, e, round, { nowUtcMs: nowUtcMs(), delayMs: Math.round((broadcastDelay[e] ?? 0) * 1000) }))
        .filter((text) => text.length > 0)
        .join('\n'),
    report: (event, round) => eventReportHtml(journal, hall, event, round),
    standingsPage: (event, round) => eventStandingsPage(journal, hall, event, round),
    pairings: (event, round) => pairingsListHtml(hall, event, round),
    cards: (event, round, perPage) => tableCardsHtml(hall, event, round, perPage),
    jsonl: (q: Omit<EventQuery, 'limit' | 'after'>) => {
      const lines: string[] = [];
      let cursor = 0;
      for (;;) {
        const page = journal.eventsAfter(cursor, 1000);
        if (page.length === 0) break;
        for (const e of page) {
          if (q.event !== undefined && e.event !== q.event) continue;
          if (q.round !== undefined && e.round !== q.round) continue;
          if (q.board !== undefined && e.board !== q.board) continue;
          if (q.clockId !== undefined && e.clockId !== q.clockId) continue;
          lines.push(eventJson(e) + '\n');
        }
        cursor = page[page.length - 1].id;
      }
      return lines.join('');
    },
  };
}

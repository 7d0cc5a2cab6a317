// The JSON Lines event stream: one clock event per line, for tournament and broadcast systems
// that want every press. Fields (all times integer ms; docs/exports.md):
//   {"id","seq","clock","boot","event","round","board","game","type","side","move",
//    "whiteMs","blackMs","monoMs","utcMs","utc","uncertaintyMs","detail"}
// `id` is the journal row (a cursor to resume from); (clock, boot, seq) names the event for ever.

import type { ClockEventRow, Journal } from '../../store/journal.ts';

export function eventJson(e: ClockEventRow): string {
  return JSON.stringify({
    id: e.id,
    seq: e.seq,
    clock: e.clockId,
    boot: e.bootId,
    event: e.event,
    round: e.round,
    board: e.board,
    game: e.gameId,
    type: e.type,
    side: e.side,
    move: e.move,
    whiteMs: e.whiteMs,
    blackMs: e.blackMs,
    monoMs: e.monoMs,
    utcMs: e.utcMs,
    utc: new Date(e.utcMs).toISOString(), // formatting a stored time for people, not reading the clock
    uncertaintyMs: e.uncertaintyMs,
    detail: e.detail,
  });
}

/** A game's events as JSON Lines, in play order. */
export function gameJsonl(journal: Journal, gameId: number): string {
  return journal
    .eventsByGame(gameId)
    .map((e) => eventJson(e) + '\n')
    .join('');
}

/** Every journaled event after row `afterId`, in arrival order, page by page (a feed that resumes). */
export function* journalJsonl(journal: Journal, afterId = 0, pageSize = 1000): Generator<string> {
  let cursor = afterId;
  for (;;) {
    const page = journal.eventsAfter(cursor, pageSize);
    if (page.length === 0) return;
    for (const e of page) yield eventJson(e) + '\n';
    cursor = page[page.length - 1].id;
  }
}

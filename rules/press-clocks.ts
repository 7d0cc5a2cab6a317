// The mover's remaining time after each press, as the journal recorded it: the `%clk` of the
// PGN export (host/adapters/exports/pgn.ts) and the points of the time chart (time-chart.ts)
// read the same figures from here, so the picture and the broadcast can never disagree.
import type { JournaledClockEvent } from './rebuild.ts';

/** What a press's figure needs of a journaled event. */
export type PressEvent = Pick<JournaledClockEvent, 'type' | 'side' | 'move' | 'whiteMs' | 'blackMs'>;

/**
 * The mover's remaining time after each press, keyed `side:move` (`white:1`, `black:1`, …),
 * from the journal's `moved` events: a move played again after a take-back (FIDE Laws 7.5.1)
 * or a move-counter correction (6.10.2) overwrites the earlier figure: the later press wins.
 */
export function pressClocks(events: readonly PressEvent[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) {
    if (e.type !== 'moved' || e.side === null || e.move === null) continue;
    out.set(`${e.side}:${e.move}`, e.side === 'white' ? e.whiteMs : e.blackMs); // a later correction wins
  }
  return out;
}

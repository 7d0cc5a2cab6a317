// Which hall table a clock stands at, and which event's board that table is.
//
// A clock is placed by the line it is plugged into (the ports file: `{ "path": "/dev/ttyUSB3",
// "table": 4 }`) or by its own serial id (`{ "serial": "CLK-0042", "table": 4 }`) — the
// second survives re-cabling a USB hub. Event board b stands at hall table
// hallFirstTable + b − 1 (host/domain/model.ts), so several events share one hall.
import type { Hall, TournamentEvent } from './model.ts';

export interface TablePlacement {
  /** Hall table by line (port path or test label). */
  readonly byLine: ReadonlyMap<string, number>;
  /** Hall table by clock serial id (wins over the line: the clock is what stands on the table). */
  readonly bySerial: ReadonlyMap<string, number>;
}

export function tableOf(placement: TablePlacement, line: string, serialId: string | null): number | null {
  if (serialId !== null && placement.bySerial.has(serialId)) return placement.bySerial.get(serialId)!;
  return placement.byLine.get(line) ?? null;
}

/** The events whose board range may cover `table` (the round decides whether the board exists). */
export function eventBoardAt(hall: Hall, table: number): Array<{ event: TournamentEvent; board: number }> {
  const out: Array<{ event: TournamentEvent; board: number }> = [];
  for (const event of hall.events) {
    const board = table - event.hallFirstTable + 1;
    if (board >= 1) out.push({ event, board });
  }
  // The event whose first table is nearest below wins (ranges of events do not overlap).
  return out.sort((a, b) => a.board - b.board);
}

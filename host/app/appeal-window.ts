// Which boards a result changes beyond its own (docs/regulations.md, appeal windows): where an
// event states an appeal window, a result entered or confirmed may start or move the deadline
// every board of its round shows. Ivanovo 2018 ("within 15 minutes after the round ends") counts
// from the round's last game once every result of the round is confirmed, so the round's last
// confirmation gives every board of the round its deadline, not only the board confirmed.
import type { ArbiterCommand, BoardView } from './ports.ts';

/** What the rule reads of a board. */
export type AppealBoard = Pick<BoardView, 'id' | 'event' | 'round' | 'appealUntilUtcMs'>;

/**
 * The other boards of `board`'s round whose shown appeal deadline `command` (done on `board`) may
 * have changed: none unless the command is a result or its confirmation and the board's event
 * states an appeal window (the board's view carries `appealUntilUtcMs`).
 */
export function boardsWithNewAppealDeadline<B extends AppealBoard>(command: Pick<ArbiterCommand, 'type'>, board: AppealBoard, boards: readonly B[]): B[] {
  if (board.appealUntilUtcMs === undefined) return [];
  if (command.type !== 'result' && command.type !== 'confirm-result') return [];
  return boards.filter((other) => other.id !== board.id && other.event === board.event && other.round === board.round);
}

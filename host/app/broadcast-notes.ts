// What the live broadcast says of each board (docs/broadcast.md "On the dashboard"), for the
// arbiter: the moves and the presses that differ, lichess's error for the game, and the moves
// source's games that match no board of the round. The broadcast adapter (host/adapters/broadcast)
// tells it through the BroadcastNoteSink port after each merge and each push; the board views read
// it (BoardView `broadcast`), a board whose note changed goes out through watchBoards, and each new
// lichess error is journaled once with its board (an arbiter action by the host, `broadcast-refused`).

import type { Journal } from '../store/journal.ts';
// The host's own name as an actor (clock-fleet.ts HOST_ACTOR; not imported: clock-fleet imports the board views, which read these notes).
const HOST_ACTOR = 'host';
import type { BoardBroadcastView } from './views.ts';

/** The unmatched games a board's view lists (the rest are counted): a moves source gone wrong can hold hundreds. */
export const UNMATCHED_LISTED = 5;

/** What one mapped round (or board range) of the broadcast says after a merge or a push. */
export interface BroadcastRoundNotes {
  readonly event: string;
  readonly round: number;
  /** The lichess round the boards go to. */
  readonly lichessRound: string;
  /** The boards of the round pushed there. */
  readonly boards: readonly number[];
  /** Moves and presses that differ, per board (the game's comment says the same). */
  readonly warnings: readonly { readonly board: number; readonly message: string }[];
  /** lichess's error for a game at its last push, per board. */
  readonly errors: readonly { readonly board: number; readonly gameId: string; readonly error: string }[];
  /** The moves source's games of the round that match no board: where and why, one line each. */
  readonly unmatched: readonly string[];
}

/** The port the broadcast tells (JournalPorts implements it). */
export interface BroadcastNoteSink {
  broadcastNotes(notes: BroadcastRoundNotes): void;
}

export class BroadcastNotes {
  private readonly views = new Map<string, BoardBroadcastView>();
  /** The last lichess error journaled per board, so each new one is journaled once. */
  private readonly journaled = new Map<string, string>();

  constructor(
    private readonly journal: Journal,
    private readonly nowUtcMs: () => number,
  ) {}

  /** The board's broadcast view, if its round is broadcast. */
  of(event: string, round: number, board: number): BoardBroadcastView | undefined {
    return this.views.get(key(event, round, board));
  }

  /** Takes a round's notes; returns the boards whose view changed. */
  take(n: BroadcastRoundNotes): { event: string; board: number }[] {
    const warnings = new Map(n.warnings.map((w) => [w.board, w.message]));
    const errors = new Map(n.errors.map((e) => [e.board, e]));
    const changed: { event: string; board: number }[] = [];
    const boards = [...new Set([...n.boards, ...warnings.keys(), ...errors.keys()])].sort((a, b) => a - b);
    for (const board of boards) {
      const error = errors.get(board);
      const k = key(n.event, n.round, board);
      const since = this.views.get(k)?.warningSinceUtcMs ?? this.nowUtcMs();
      const view: BoardBroadcastView = {
        lichessRound: n.lichessRound,
        ...(warnings.has(board) ? { warning: warnings.get(board), warningSinceUtcMs: since } : {}),
        ...(error ? { lichessError: error.error } : {}),
        ...(n.unmatched.length > 0
          ? { unmatched: n.unmatched.slice(0, UNMATCHED_LISTED), unmatchedCount: n.unmatched.length, unmatchedOnBoard: board === boards[0] }
          : {}),
      };
      if (JSON.stringify(this.views.get(k)) !== JSON.stringify(view)) changed.push({ event: n.event, board });
      this.views.set(k, view);
      if (error && this.journaled.get(k) !== error.error) this.journalError(n, board, error);
      if (error) this.journaled.set(k, error.error);
      else this.journaled.delete(k);
    }
    return changed;
  }

  private journalError(n: BroadcastRoundNotes, board: number, e: { gameId: string; error: string }): void {
    const game = this.journal.gamesByBoard(n.event, n.round, board).at(-1);
    this.journal.recordArbiterAction({
      utcMs: this.nowUtcMs(),
      arbiter: HOST_ACTOR,
      action: 'broadcast-refused',
      gameId: game?.gameId ?? null,
      clockId: game?.clockId ?? null,
      event: n.event,
      round: n.round,
      board,
      payload: { lichessRound: n.lichessRound, game: e.gameId },
      outcome: 'rejected',
      reason: e.error,
    });
  }
}

function key(event: string, round: number, board: number): string {
  return `${event}\u0000${round}\u0000${board}`;
}

// The merges of a broadcast target's earlier states (docs/broadcast.md "The merged games", "Only
// what changed"): each board's merged game kept under what it is made of — the game's journal row
// (its players, result, confirmation), the number and the last id of its clock events, its game
// of the moves source (that game's tags and tokens, not the whole text), and whether only pressed
// moves are shown (a delay). A board whose key is the same is not rebuilt by the rule book again;
// a running game's clock tags are written anew at each instant (live-pgn.ts mergeBoard). With a
// delay the round state is the journal's as of the delayed instant, so the key is the as-of cut's.

import type { ClockEventRow, GameRow } from '../../store/journal.ts';
import { type MovetextGame, parseMovetextGames } from '../../app/pgn-movetext.ts';
import type { BoardMergeCache, MergedBoard } from './live-pgn.ts';

export class RoundMergeCache implements BoardMergeCache {
  private boards = new Map<number, { key: string; merged: MergedBoard | null }>();
  private text: { movesPgn: string; games: MovetextGame[] } | null = null;
  private readonly sourceKeys = new WeakMap<MovetextGame, string>();

  /** `onMerge`: told each game merged anew (its game id), for a count of the rule book's rebuilds. */
  constructor(private readonly onMerge: (gameId: number) => void = () => undefined) {}

  /** The moves text parsed, once per text. */
  parse(movesPgn: string): MovetextGame[] {
    if (this.text?.movesPgn !== movesPgn) this.text = { movesPgn, games: parseMovetextGames(movesPgn) };
    return this.text.games;
  }

  board(
    game: GameRow,
    events: readonly ClockEventRow[],
    input: MovetextGame | null,
    pressedMovesOnly: boolean,
    build: () => MergedBoard | null,
  ): MergedBoard | null {
    const key = JSON.stringify([game, events.length, events.at(-1)?.id ?? null, input === null ? null : this.sourceKey(input), pressedMovesOnly]);
    const kept = this.boards.get(game.gameId);
    if (kept?.key === key) return kept.merged;
    this.onMerge(game.gameId);
    const merged = build();
    this.boards.set(game.gameId, { key, merged });
    return merged;
  }

  /** A moves game as the merge reads it: its tag lines, its tokens and its result (not its line in the text). */
  private sourceKey(input: MovetextGame): string {
    let key = this.sourceKeys.get(input);
    if (key === undefined) {
      key = JSON.stringify([input.tagLines, input.tokens, input.result]);
      this.sourceKeys.set(input, key);
    }
    return key;
  }
}

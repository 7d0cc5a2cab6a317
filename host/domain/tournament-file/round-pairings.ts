// What one round of the tournament file pairs, as its sections are read: each player paired
// once (a board, a mini-match or a bye), each board number used once, each team in one match or
// bye. A reference to a player or team the event does not have is refused with its path.

import type { Team } from '../model.ts';
import { describeNumbers, show, type FieldChecker, type Obj } from './field-checker.ts';

/** The list of valid ranks or team ids a problem shows, made once per event (a file may pair 10,000 players). */
const shown = new WeakMap<object, string>();
function valid(keys: ReadonlyMap<number, unknown>): string {
  let text = shown.get(keys);
  if (text === undefined) shown.set(keys, (text = describeNumbers(keys.keys())));
  return text;
}

export class RoundPairings {
  /** Player rank → where paired, to refuse pairing a player twice. */
  private readonly seen = new Map<number, string>();
  private readonly boardNumbers = new Set<number>();
  private readonly teamIds: Map<number, Team>;
  private readonly teamsSeen = new Set<number>();

  constructor(
    private readonly c: FieldChecker,
    private readonly ranks: ReadonlyMap<number, number>,
    teams: readonly Team[],
    /** Ranks and team ids written for players and teams the file's lists refused (reported there, not again here). */
    private readonly refused: { ranks: ReadonlySet<unknown>; teams: ReadonlySet<unknown> } = { ranks: new Set(), teams: new Set() },
  ) {
    this.teamIds = new Map(teams.map((t) => [t.id, t]));
  }

  /** A player's starting rank at `where`, paired now. */
  usePlayer(rank: unknown, where: string): number | undefined {
    if (rank === undefined) return this.c.problem(where, 'missing');
    if (typeof rank === 'number' && !this.ranks.has(rank) && this.refused.ranks.has(rank)) return undefined;
    if (typeof rank !== 'number' || !this.ranks.has(rank))
      return this.c.problem(where, `no player with starting rank ${show(rank)} (the players' ranks: ${valid(this.ranks)})`);
    if (this.seen.has(rank)) return this.c.problem(where, `player ${rank} is already paired in this round at ${this.seen.get(rank)}`);
    this.seen.set(rank, where);
    return rank;
  }

  /** The `board` field of the object at `where`. */
  useBoard(o: Obj, where: string): number | undefined {
    const b = this.c.int(o, 'board', where, { min: 1, max: 9999 });
    if (b !== undefined && this.boardNumbers.has(b)) return this.c.problem(`${where}.board`, `board ${b} is used twice in this round`);
    if (b !== undefined) this.boardNumbers.add(b);
    return b;
  }

  /** A team id at `where`, playing now. */
  useTeam(id: unknown, where: string): number | undefined {
    if (id === undefined) return this.c.problem(where, 'missing');
    if (typeof id === 'number' && !this.teamIds.has(id) && this.refused.teams.has(id)) return undefined;
    if (typeof id !== 'number' || !this.teamIds.has(id)) return this.c.problem(where, `no team ${show(id)} (the teams: ${valid(this.teamIds)})`);
    if (this.teamsSeen.has(id)) return this.c.problem(where, `team ${id} already plays in this round`);
    this.teamsSeen.add(id);
    return id;
  }

  /** The players (starting ranks) a team lists; `id` is a team `useTeam` accepted. */
  teamPlayers(id: number): readonly number[] {
    return this.teamIds.get(id)!.players;
  }

  /** A team's bye at `where`: its players are paired (with the bye). */
  teamBye(id: number, where: string): void {
    for (const p of this.teamPlayers(id)) this.seen.set(p, where);
  }
}

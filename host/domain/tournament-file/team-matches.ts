// The tournament file's round `teamMatches` (a team event): each match's two teams and its
// boards, each board's players from the team that has that colour there.

import type { BoardPairing, TeamMatch } from '../model.ts';
import type { FieldChecker } from './field-checker.ts';
import type { RoundPairings } from './round-pairings.ts';

/** The matches of the round's `teamMatches` list (at `path`); each match's boards are also the round's. */
export function parseTeamMatches(c: FieldChecker, raw: unknown[], path: string, pairings: RoundPairings, boardsPerTeam: number | null): TeamMatch[] {
  const teamMatches: TeamMatch[] = [];
  raw.forEach((m, i) => {
    const where = `${path}[${i}]`;
    const mo = c.object(m, where);
    if (!mo) return;
    c.unknownKeys(mo, ['white', 'black', 'boards'], where);
    const wt = pairings.useTeam(mo.white, `${where}.white`);
    const bt = pairings.useTeam(mo.black, `${where}.black`);
    const mb = c.array(mo.boards, `${where}.boards`) ?? [];
    if (boardsPerTeam !== null && mo.boards !== undefined && mb.length !== boardsPerTeam) {
      c.problem(`${where}.boards`, `a match has ${boardsPerTeam} boards (boardsPerTeam), got ${mb.length}`);
    }
    const matchBoards: BoardPairing[] = [];
    mb.forEach((b, k) => {
      const bw = `${where}.boards[${k}]`;
      const bo = c.object(b, bw);
      if (!bo) return;
      c.unknownKeys(bo, ['board', 'white', 'black'], bw);
      // Event board numbers run on across matches unless given: match i board k → i·boardsPerTeam + k + 1.
      if (bo.board === undefined) bo.board = i * (boardsPerTeam ?? mb.length) + k + 1;
      const board = pairings.useBoard(bo, bw);
      const white = pairings.usePlayer(bo.white, `${bw}.white`);
      const black = pairings.usePlayer(bo.black, `${bw}.black`);
      if (wt === undefined || bt === undefined || white === undefined || black === undefined || board === undefined) return;
      // FIDE team colours: the first-named team has White on boards 1, 3, …, Black on 2, 4, ….
      const [wTeam, bTeam] = k % 2 === 0 ? [wt, bt] : [bt, wt];
      if (!pairings.teamPlayers(wTeam).includes(white)) c.problem(`${bw}.white`, `player ${white} is not in team ${wTeam}, which has White on board ${k + 1}`);
      if (!pairings.teamPlayers(bTeam).includes(black)) c.problem(`${bw}.black`, `player ${black} is not in team ${bTeam}, which has Black on board ${k + 1}`);
      matchBoards.push({ board, white, black });
    });
    if (wt !== undefined && bt !== undefined) teamMatches.push({ white: wt, black: bt, boards: matchBoards });
  });
  return teamMatches;
}

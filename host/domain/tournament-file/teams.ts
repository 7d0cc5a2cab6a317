// The tournament file's team sections: an event's `teams` (each with its players in board
// order) and its `teamScoring` (docs/tournament.md "Team Swiss").

import { DEFAULT_TEAM_SCORING, type EventKind, type Team, type TeamScoring } from '../model.ts';
import { BYE_CODE_FOR_POINTS } from '../standings.ts';
import { linkTeams } from './checker.ts';
import { describeNumbers, show, type FieldChecker, type Obj } from './field-checker.ts';
import { type PlayerList, writtenAs } from './players.ts';

/**
 * The event's teams (required in a team event, where each player gets its team), and the ids
 * written for teams refused (reported already; a round naming one reports nothing more).
 */
export function parseTeams(c: FieldChecker, o: Obj, path: string, kind: EventKind, list: PlayerList): { teams: Team[]; refusedTeams: Set<unknown> } {
  const teams: Team[] = [];
  const refusedTeams = new Set<unknown>();
  /** Players listed by a refused team: that they are in no team is the same mistake. */
  const listedByRefused = new Set<number>();
  const raw = c.array(o.teams, `${path}.teams`, kind !== 'team') ?? [];
  raw.forEach((t, i) => {
    const team = parseTeam(c, t, `${path}.teams[${i}]`, list);
    if (team) teams.push(team);
    else if (typeof t === 'object' && t !== null) {
      const { id, players } = t as Obj;
      for (const written of writtenAs(id)) refusedTeams.add(written);
      if (Array.isArray(players)) for (const p of players) if (typeof p === 'number') listedByRefused.add(p);
    }
  });
  if (kind === 'team') {
    if (raw.length < 2 && o.teams !== undefined) c.problem(`${path}.teams`, 'a team event needs at least two teams');
    linkTeams(c, list, teams, path, { refusedTeams, listedByRefused });
  }
  return { teams, refusedTeams };
}

/** A team whose id was read is kept with its other problems reported (the file is refused), so nothing that names it reports more. */
function parseTeam(c: FieldChecker, raw: unknown, path: string, list: PlayerList): Team | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  c.unknownKeys(o, ['id', 'name', 'nickname', 'players'], path);
  const id = c.int(o, 'id', path, { min: 1, max: 999 });
  const name = c.string(o, 'name', path);
  const nickname = c.string(o, 'nickname', path, true);
  if (nickname !== undefined && nickname.length > 5) c.problem(`${path}.nickname`, 'at most 5 characters (TRF-2026 record 310 positions 42-46)');
  const players: number[] = [];
  (c.array(o.players, `${path}.players`) ?? []).forEach((p, i) => {
    if (typeof p === 'number' && list.ranks.has(p)) players.push(p);
    else if (!list.refusedRanks.has(p))
      c.problem(`${path}.players[${i}]`, `no player with starting rank ${show(p)} (the players' ranks: ${describeNumbers(list.ranks.keys())})`);
  });
  if (id === undefined) return undefined;
  return { id, name: name ?? '', nickname: nickname ?? null, players };
}

/** `{ "win": 2, "draw": 1, "loss": 0, "byeMatchPoints": 1, "byePointsPerPlayer": 0.5 }`, each field optional. */
export function parseTeamScoring(c: FieldChecker, raw: unknown, path: string): TeamScoring {
  const teamScoring = { ...DEFAULT_TEAM_SCORING };
  if (raw === undefined) return teamScoring;
  const s = c.object(raw, path);
  if (!s) return teamScoring;
  c.unknownKeys(s, Object.keys(DEFAULT_TEAM_SCORING), path);
  for (const key of Object.keys(DEFAULT_TEAM_SCORING) as (keyof typeof DEFAULT_TEAM_SCORING)[]) {
    if (s[key] === undefined) continue;
    if (typeof s[key] !== 'number' || (s[key] as number) < 0) c.problem(`${path}.${key}`, `must be a number ≥ 0`);
    else if (key === 'byePointsPerPlayer' && BYE_CODE_FOR_POINTS[s[key] as number] === undefined) {
      // Each player of a team bye gets the TRF bye code worth these points (TRF16 defaults).
      c.problem(`${path}.byePointsPerPlayer`, `must be 0, 0.5 or 1 (the points of the TRF bye codes Z, H, F), got ${show(s[key])}`);
    } else teamScoring[key] = s[key] as number;
  }
  return teamScoring;
}

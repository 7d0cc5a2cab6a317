// The tournament file's team sections: an event's `teams` (each with its players in board
// order) and its `teamScoring` (docs/tournament.md "Team Swiss").

import { DEFAULT_TEAM_SCORING, type EventKind, type Player, type Team, type TeamScoring } from '../model.ts';
import { BYE_CODE_FOR_POINTS } from '../standings.ts';
import { linkTeams } from './checker.ts';
import { show, type FieldChecker, type Obj } from './field-checker.ts';

/** The event's teams (required in a team event, where each player gets its team). */
export function parseTeams(c: FieldChecker, o: Obj, path: string, kind: EventKind, players: Player[], ranks: Map<number, number>): Team[] {
  const teams: Team[] = [];
  (c.array(o.teams, `${path}.teams`, kind !== 'team') ?? []).forEach((t, i) => {
    const team = parseTeam(c, t, `${path}.teams[${i}]`, ranks);
    if (team) teams.push(team);
  });
  if (kind === 'team') {
    if (teams.length < 2 && o.teams !== undefined) c.problem(`${path}.teams`, 'a team event needs at least two teams');
    linkTeams(c, players, teams, path);
  }
  return teams;
}

function parseTeam(c: FieldChecker, raw: unknown, path: string, ranks: Map<number, number>): Team | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  const before = c.issues.length;
  c.unknownKeys(o, ['id', 'name', 'nickname', 'players'], path);
  const id = c.int(o, 'id', path, { min: 1, max: 999 });
  const name = c.string(o, 'name', path);
  const nickname = c.string(o, 'nickname', path, true);
  if (nickname !== undefined && nickname.length > 5) c.problem(`${path}.nickname`, 'at most 5 characters (TRF-2026 record 310 positions 42-46)');
  const players = (c.array(o.players, `${path}.players`) ?? []).map((p, i) => {
    if (typeof p !== 'number' || !ranks.has(p)) return c.problem(`${path}.players[${i}]`, `no player with starting rank ${show(p)}`);
    return p;
  });
  if (c.issues.length > before || id === undefined || name === undefined) return undefined;
  return { id, name, nickname: nickname ?? null, players: players as number[] };
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

// The tournament file's `events[i]`: the event's own fields (id, name, kind, dates, arbiters,
// hall tables, …), and each of its sections read by its module: time control, players, teams
// and team scoring, knockout rules, rounds, round robin and planned rounds, appeal window,
// pairing engine.

import type { EventKind, KnockoutRules, TournamentEvent } from '../model.ts';
import { parseAppeal } from './appeal.ts';
import { parseBroadcast } from './broadcast.ts';
import { show, type FieldChecker, type Obj } from './field-checker.ts';
import { parseKnockoutRules } from './knockout.ts';
import { parseEventPairingEngine, parseRoundPlan } from './pairing.ts';
import { parsePlayers } from './players.ts';
import { parseRounds } from './rounds.ts';
import { parseTeams, parseTeamScoring } from './teams.ts';
import { parseEventTimeControl } from './time-control.ts';

const KINDS: readonly EventKind[] = ['individual', 'knockout', 'team'];

const EVENT_KEYS = [
  'id',
  'name',
  'city',
  'federation',
  'startDate',
  'endDate',
  'chiefArbiter',
  'deputyArbiters',
  'kind',
  'type',
  'timeControl',
  'rated',
  'hallFirstTable',
  'boardsPerTeam',
  'players',
  'teams',
  'rounds',
  'plannedRounds',
  'roundRobinUpTo',
  'appeal',
  'knockout',
  'teamScoring',
  'pairingEngine',
  'broadcast',
] as const;

export function parseEvent(c: FieldChecker, raw: unknown, path: string): TournamentEvent | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  const before = c.issues.length;
  c.unknownKeys(o, EVENT_KEYS, path);
  const id = c.string(o, 'id', path);
  const name = c.string(o, 'name', path);
  const kind = parseKind(c, o, path);
  const tc = parseEventTimeControl(c, o.timeControl, `${path}.timeControl`);
  const deputies = parseDeputies(c, o, path);
  const boardsPerTeam = c.int(o, 'boardsPerTeam', path, { optional: true, min: 1, max: 14 }) ?? (kind === 'team' ? 4 : null);
  if (o.rated !== undefined && typeof o.rated !== 'boolean') c.problem(`${path}.rated`, `must be true or false, got ${show(o.rated)}`);
  const { players, ranks } = parsePlayers(c, o.players, `${path}.players`);
  const teams = parseTeams(c, o, path, kind, players, ranks);
  let knockout: KnockoutRules | null = null;
  if (kind === 'knockout') knockout = parseKnockoutRules(c, o.knockout, `${path}.knockout`);
  else if (o.knockout !== undefined) c.problem(`${path}.knockout`, `only for "kind": "knockout"`);
  const teamScoring = parseTeamScoring(c, o.teamScoring, `${path}.teamScoring`);
  const { rounds, listed } = parseRounds(c, o, path, { kind, ranks, teams, boardsPerTeam });
  const plan = parseRoundPlan(c, o, path, kind, kind === 'team' ? teams.length : players.length, listed);
  const appeal = parseAppeal(c, o.appeal, `${path}.appeal`);
  const pairingEngine = parseEventPairingEngine(c, o, path, kind, plan.roundRobin);
  const broadcast = parseBroadcast(c, o.broadcast, `${path}.broadcast`, plan.plannedRounds);
  if (c.issues.length > before || id === undefined || name === undefined || tc === undefined) return undefined;
  // These fields are read only when the rest of the event is sound: a problem in one of them is
  // reported (and refuses the file) once the event's other problems are fixed.
  return {
    id,
    name,
    city: c.string(o, 'city', path, true) ?? null,
    federation: c.string(o, 'federation', path, true) ?? null,
    startDate: c.date(o, 'startDate', path),
    endDate: c.date(o, 'endDate', path),
    chiefArbiter: c.string(o, 'chiefArbiter', path, true) ?? null,
    deputyArbiters: deputies,
    kind,
    type: c.string(o, 'type', path, true) ?? null,
    timeControl: tc.value,
    timeControlPreset: tc.preset,
    rated: o.rated === undefined ? true : o.rated === true,
    hallFirstTable: c.int(o, 'hallFirstTable', path, { optional: true, min: 1 }) ?? 1,
    boardsPerTeam,
    players,
    teams,
    rounds,
    plannedRounds: plan.plannedRounds,
    roundRobinUpTo: plan.roundRobinUpTo,
    appeal,
    knockout,
    teamScoring,
    ...(pairingEngine ? { pairingEngine } : {}),
    ...(broadcast ? { broadcast } : {}),
  };
}

function parseKind(c: FieldChecker, o: Obj, path: string): EventKind {
  const kindRaw = c.string(o, 'kind', path);
  if (kindRaw === undefined) return 'individual';
  if ((KINDS as readonly string[]).includes(kindRaw)) return kindRaw as EventKind;
  c.problem(`${path}.kind`, `must be one of ${KINDS.join(', ')}, got ${show(kindRaw)}`);
  return 'individual';
}

function parseDeputies(c: FieldChecker, o: Obj, path: string): string[] {
  return (c.array(o.deputyArbiters, `${path}.deputyArbiters`, true) ?? []).filter((d, i) =>
    typeof d === 'string' ? (c.printable(d, `${path}.deputyArbiters[${i}]`), true) : (c.problem(`${path}.deputyArbiters[${i}]`, 'must be a string') ?? false),
  ) as string[];
}

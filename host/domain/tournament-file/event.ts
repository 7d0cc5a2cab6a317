// The tournament file's `events[i]`: the event's own fields (id, name, kind, dates, arbiters,
// hall tables, …), and each of its sections read by its module: time control, players, teams
// and team scoring, knockout rules, rounds, round robin and planned rounds, appeal window,
// pairing engine.

import type { EventKind, KnockoutRules, TournamentEvent } from '../model.ts';
import { parseAppeal } from './appeal.ts';
import { parseBroadcast } from './broadcast.ts';
import { closest, didYouMean, show, type FieldChecker, type Obj } from './field-checker.ts';
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
  // Every field is read whatever the others hold, so that all problems are reported at once.
  const own = parseOwnFields(c, o, path);
  const tc = parseEventTimeControl(c, o.timeControl, `${path}.timeControl`);
  const deputies = parseDeputies(c, o, path);
  // A boardsPerTeam refused (reported) counts no match's boards: one mistake, said once.
  const boardsPerTeam = c.int(o, 'boardsPerTeam', path, { optional: true, min: 1, max: 14 }) ?? (kind === 'team' && o.boardsPerTeam === undefined ? 4 : null);
  if (o.rated !== undefined && typeof o.rated !== 'boolean') c.problem(`${path}.rated`, `must be true or false, got ${show(o.rated)}`);
  const list = parsePlayers(c, o.players, `${path}.players`);
  const { players, ranks, refusedRanks } = list;
  const { teams, refusedTeams } = parseTeams(c, o, path, kind, list);
  let knockout: KnockoutRules | null = null;
  if (kind === 'knockout') knockout = parseKnockoutRules(c, o.knockout, `${path}.knockout`);
  else if (o.knockout !== undefined) c.problem(`${path}.knockout`, `only for "kind": "knockout"`);
  const teamScoring = parseTeamScoring(c, o.teamScoring, `${path}.teamScoring`);
  // Dates that contradict each other (reported) are no measure for the rounds: one mistake, said once.
  const datesAgree = own.startDate === null || own.endDate === null || own.endDate >= own.startDate;
  const eventDates = datesAgree ? { startDate: own.startDate, endDate: own.endDate, path } : { startDate: null, endDate: null, path };
  const { rounds, listed } = parseRounds(c, o, path, { kind, ranks, refusedRanks, teams, refusedTeams, boardsPerTeam, eventDates });
  const plan = parseRoundPlan(c, o, path, kind, kind === 'team' ? teams.length : players.length, listed);
  const appeal = parseAppeal(c, o.appeal, `${path}.appeal`);
  const pairingEngine = parseEventPairingEngine(c, o, path, kind, plan.roundRobin);
  const broadcast = parseBroadcast(c, o.broadcast, `${path}.broadcast`, plan.plannedRounds);
  if (c.issues.length > before || id === undefined || name === undefined || tc === undefined) return undefined;
  return {
    id,
    name,
    ...own,
    deputyArbiters: deputies,
    kind,
    timeControl: tc.value,
    timeControlPreset: tc.preset,
    rated: o.rated === undefined ? true : o.rated === true,
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

/** The event's descriptive fields, its dates (the end not before the start) and its first hall table. */
function parseOwnFields(c: FieldChecker, o: Obj, path: string) {
  const startDate = c.date(o, 'startDate', path);
  const endDate = c.date(o, 'endDate', path);
  if (startDate !== null && endDate !== null && endDate < startDate)
    c.problem(`${path}.endDate`, `${endDate} is before the startDate ${startDate}; an event ends on or after the day it starts`);
  return {
    city: c.string(o, 'city', path, true) ?? null,
    federation: c.string(o, 'federation', path, true) ?? null,
    startDate,
    endDate,
    chiefArbiter: c.string(o, 'chiefArbiter', path, true) ?? null,
    type: c.string(o, 'type', path, true) ?? null,
    // Hall tables are numbered from 1, as the boards are (table 1 is the event's board 1).
    hallFirstTable: c.int(o, 'hallFirstTable', path, { optional: true, min: 1, max: 9999 }) ?? 1,
  };
}

function parseKind(c: FieldChecker, o: Obj, path: string): EventKind {
  // Missing or not a text (reported): the kind the event's sections show, so that they are not
  // refused as well for the one mistake.
  if (o.kind === undefined || o.kind === null) {
    const shown = kindShownBySections(o);
    c.problem(`${path}.kind`, `missing: one of ${KINDS.join(', ')} (the event's sections look like "${shown}")`);
    return shown;
  }
  const kindRaw = c.string(o, 'kind', path);
  if (kindRaw === undefined) return kindShownBySections(o);
  if ((KINDS as readonly string[]).includes(kindRaw)) return kindRaw as EventKind;
  c.problem(`${path}.kind`, `must be one of ${KINDS.join(', ')}, got ${show(kindRaw)}${didYouMean(kindRaw, KINDS)}`);
  // The rest of the event is checked as the kind a typo away ("knockot"), so that its knockout
  // or team sections are not refused as well for the one mistake.
  return (closest(kindRaw, KINDS) as EventKind | undefined) ?? 'individual';
}

/** A knockout's `knockout` rules or mini-matches, a team event's `teams` or matches; else individual. */
function kindShownBySections(o: Obj): EventKind {
  const rounds = Array.isArray(o.rounds) ? o.rounds.filter((r): r is Obj => typeof r === 'object' && r !== null) : [];
  if (o.knockout !== undefined || rounds.some((r) => r.knockout !== undefined)) return 'knockout';
  if (o.teams !== undefined || o.boardsPerTeam !== undefined || rounds.some((r) => r.teamMatches !== undefined)) return 'team';
  return 'individual';
}

function parseDeputies(c: FieldChecker, o: Obj, path: string): string[] {
  return (c.array(o.deputyArbiters, `${path}.deputyArbiters`, true) ?? []).filter((d, i) =>
    typeof d === 'string' ? (c.printable(d, `${path}.deputyArbiters[${i}]`), true) : (c.problem(`${path}.deputyArbiters[${i}]`, 'must be a string') ?? false),
  ) as string[];
}

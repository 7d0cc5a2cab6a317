// Loads the hall's tournament file (JSON; docs/tournament.md) into the model, checking
// every field. Every problem is reported with its path, e.g.
// `events[0].rounds[2].boards[1].white: missing`, and all problems are reported at once
// so an organiser fixes the file in one pass.
//
// The file is JSON with comments (JSONC); problems carry line:column. YAML is not read: no YAML
// parser is installed and the project adds no dependency for it. A `.yaml`/`.yml` file is
// refused with a message saying so.

import { readFileSync } from 'node:fs';
import * as jsonc from 'jsonc-parser';
import { extname } from 'node:path';
import {
  isPresetName,
  readTimeControlSpec,
  TIME_CONTROL_SPEC_FIELDS,
  TimeControlError,
  type PresetName,
  type TimeControl,
} from '../../protocol/time-control.ts';
import {
  controlCharacterIn,
  DEFAULT_KNOCKOUT_RULES,
  DEFAULT_TEAM_SCORING,
  type BoardPairing,
  type Bye,
  type ByeKind,
  type EventKind,
  describeEntrant,
  type Hall,
  type MatchRef,
  type KnockoutEntrant,
  type KnockoutPairing,
  type KnockoutRules,
  type PairingEngine,
  type Player,
  type Round,
  type Team,
  type TeamMatch,
  type TournamentEvent,
} from './model.ts';
import { BYE_CODE_FOR_POINTS } from './standings.ts';
import type { AppealRule } from './appeal.ts';
import { bergerRoundCount, isRoundRobin, roundRobinRounds } from './berger.ts';

export class TournamentFileError extends Error {
  constructor(
    readonly issues: string[],
    readonly file?: string,
  ) {
    const shown = issues.slice(0, 30);
    const more = issues.length > shown.length ? `\n  … and ${issues.length - shown.length} more` : '';
    super(`${file ? `${file}: ` : ''}${issues.length} problem(s) in the tournament file:\n  ${shown.join('\n  ')}${more}`);
    this.name = 'TournamentFileError';
  }
}

type Obj = Record<string, unknown>;

/** Collects problems with their paths; readers return undefined after recording a problem. */
class Checker {
  readonly issues: string[] = [];

  problem(path: string, message: string): undefined {
    this.issues.push(`${path}: ${message}`);
    return undefined;
  }

  object(value: unknown, path: string): Obj | undefined {
    if (value === undefined) return this.problem(path, 'missing');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.problem(path, `must be an object, got ${show(value)}`);
    return value as Obj;
  }

  array(value: unknown, path: string, optional = false): unknown[] | undefined {
    if (value === undefined) return optional ? [] : this.problem(path, 'missing');
    if (!Array.isArray(value)) return this.problem(path, `must be an array, got ${show(value)}`);
    return value;
  }

  string(o: Obj, key: string, path: string, optional = false): string | undefined {
    const v = o[key];
    if (v === undefined || v === null) return optional ? undefined : this.problem(`${path}.${key}`, 'missing');
    if (typeof v !== 'string' || v.trim() === '') return this.problem(`${path}.${key}`, `must be a non-empty string, got ${show(v)}`);
    return this.printable(v, `${path}.${key}`);
  }

  /** Names and texts end up in PGN tags and TRF lines: a control character (a newline) would break them. */
  printable(v: string, path: string): string | undefined {
    const bad = controlCharacterIn(v);
    // Reported, and the value kept: the file is refused, without knock-on problems of a missing player.
    if (bad) this.problem(path, `${show(v)} holds ${bad}; names and texts must be printable (PGN standard §7, TRF16 one record per line)`);
    return v;
  }

  int(o: Obj, key: string, path: string, opts: { optional?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = o[key];
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = opts;
    if (v === undefined || v === null) return opts.optional ? undefined : this.problem(`${path}.${key}`, 'missing');
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      return this.problem(`${path}.${key}`, `must be a whole number from ${min} to ${max}, got ${show(v)}`);
    }
    return v;
  }

  date(o: Obj, key: string, path: string): string | null {
    const v = this.string(o, key, path, true);
    if (v === undefined) return null;
    const m = /^(\d{4})[/-](\d{2})[/-](\d{2})$/.exec(v);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[3]) < 1 || Number(m[3]) > 31) {
      this.problem(`${path}.${key}`, `must be a date YYYY/MM/DD or YYYY-MM-DD, got ${show(v)}`);
      return null;
    }
    return `${m[1]}/${m[2]}/${m[3]}`;
  }

  unknownKeys(o: Obj, known: readonly string[], path: string): void {
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) this.problem(`${path}.${key}`, `unknown field (known: ${known.join(', ')})`);
    }
  }
}

/** An ISO date-time with an explicit offset or Z: a hall's local time is not the host's to guess. */
function isoUtcMs(text: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

const KINDS: readonly EventKind[] = ['individual', 'knockout', 'team'];
const BYE_KINDS: readonly ByeKind[] = ['H', 'F', 'U', 'Z'];

/**
 * Reads a tournament file: JSON, with line (`//`) and block comments allowed (JSONC, read by
 * jsonc-parser). Every problem names its line:column in the file and its field path, e.g.
 * `line 12:9 events[0].players[1].name: missing`. TRF pairings come through `importTrf` (trf-import.ts).
 */
export function loadTournamentFile(file: string): Hall {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    throw new TournamentFileError(
      ['YAML is not supported: no YAML parser is installed (it needs a dependency such as the "yaml" package). Write the file as JSON (docs/tournament.md).'],
      file,
    );
  }
  return parseTournamentText(readFileSync(file, 'utf8'), file);
}

/** `parseTournament` over the text of a file (JSON with comments), problems located by line:column. */
export function parseTournamentText(text: string, file?: string): Hall {
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length) {
    throw new TournamentFileError(errors.map((e) => `line ${lineColumn(text, e.offset)}: not valid JSON: ${jsonc.printParseErrorCode(e.error)}`), file);
  }
  try {
    return parseTournament(tree === undefined ? undefined : jsonc.getNodeValue(tree));
  } catch (err) {
    if (err instanceof TournamentFileError) throw new TournamentFileError(err.issues.map((issue) => locate(issue, text, tree)), file);
    throw err;
  }
}

/** 1-based `line:column` of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/** An issue `PATH: message` prefixed with the line:column of PATH's field (or of its nearest parent in the file). */
function locate(issue: string, text: string, tree: jsonc.Node | undefined): string {
  const m = /^([^\s:]+): /.exec(issue);
  if (!m || tree === undefined) return issue;
  const segments: (string | number)[] = m[1] === '(file)' ? [] : (m[1].match(/[^.[\]]+|\[\d+\]/g) ?? []).map((t) => (t.startsWith('[') ? Number(t.slice(1, -1)) : t));
  for (let n = segments.length; n >= 0; n--) {
    const node = jsonc.findNodeAtLocation(tree, segments.slice(0, n));
    if (!node) continue;
    // A property's value: point at its key, where the organiser reads it.
    const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return `line ${lineColumn(text, at)} ${issue}`;
  }
  return issue;
}

/** Checks a parsed JSON value and builds the model; throws TournamentFileError listing every problem. */
export function parseTournament(value: unknown): Hall {
  const c = new Checker();
  const root = c.object(value, '(file)');
  if (!root) throw new TournamentFileError(c.issues);
  c.unknownKeys(root, ['hall', 'events'], '(file)');
  let hallName: string | null = null;
  let site: string | null = null;
  if (root.hall !== undefined) {
    const h = c.object(root.hall, 'hall');
    if (h) {
      c.unknownKeys(h, ['name', 'site'], 'hall');
      hallName = c.string(h, 'name', 'hall', true) ?? null;
      site = c.string(h, 'site', 'hall', true) ?? null;
    }
  }
  const events: TournamentEvent[] = [];
  const rawEvents = c.array(root.events, 'events') ?? [];
  if (root.events !== undefined && rawEvents.length === 0) c.problem('events', 'needs at least one event');
  rawEvents.forEach((raw, i) => {
    const ev = parseEvent(c, raw, `events[${i}]`);
    if (ev) events.push(ev);
  });
  checkHall(c, events);
  if (c.issues.length) throw new TournamentFileError(c.issues);
  return { name: hallName, site, events };
}

const EVENT_KEYS = [
  'id', 'name', 'city', 'federation', 'startDate', 'endDate', 'chiefArbiter', 'deputyArbiters', 'kind', 'type',
  'timeControl', 'rated', 'hallFirstTable', 'boardsPerTeam', 'players', 'teams', 'rounds', 'plannedRounds', 'roundRobinUpTo', 'appeal', 'knockout', 'teamScoring',
  'pairingEngine',
] as const;

function parseEvent(c: Checker, raw: unknown, path: string): TournamentEvent | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  const before = c.issues.length;
  c.unknownKeys(o, EVENT_KEYS, path);
  const id = c.string(o, 'id', path);
  const name = c.string(o, 'name', path);
  const kindRaw = c.string(o, 'kind', path);
  let kind: EventKind = 'individual';
  if (kindRaw !== undefined) {
    if ((KINDS as readonly string[]).includes(kindRaw)) kind = kindRaw as EventKind;
    else c.problem(`${path}.kind`, `must be one of ${KINDS.join(', ')}, got ${show(kindRaw)}`);
  }
  const tc = parseEventTimeControl(c, o.timeControl, `${path}.timeControl`);
  const deputies = (c.array(o.deputyArbiters, `${path}.deputyArbiters`, true) ?? []).filter((d, i) =>
    typeof d === 'string' ? (c.printable(d, `${path}.deputyArbiters[${i}]`), true) : c.problem(`${path}.deputyArbiters[${i}]`, 'must be a string') ?? false,
  ) as string[];
  const boardsPerTeam = c.int(o, 'boardsPerTeam', path, { optional: true, min: 1, max: 14 }) ?? (kind === 'team' ? 4 : null);
  if (o.rated !== undefined && typeof o.rated !== 'boolean') c.problem(`${path}.rated`, `must be true or false, got ${show(o.rated)}`);

  const players: Player[] = [];
  (c.array(o.players, `${path}.players`) ?? []).forEach((p, i) => {
    const player = parsePlayer(c, p, `${path}.players[${i}]`);
    if (player) players.push(player);
  });
  const ranks = new Map<number, number>();
  players.forEach((p, i) => {
    if (ranks.has(p.rank)) c.problem(`${path}.players[${i}].rank`, `starting rank ${p.rank} is also used by players[${ranks.get(p.rank)}]`);
    else ranks.set(p.rank, i);
  });

  const teams: Team[] = [];
  (c.array(o.teams, `${path}.teams`, kind !== 'team') ?? []).forEach((t, i) => {
    const team = parseTeam(c, t, `${path}.teams[${i}]`, ranks);
    if (team) teams.push(team);
  });
  if (kind === 'team') {
    if (teams.length < 2 && o.teams !== undefined) c.problem(`${path}.teams`, 'a team event needs at least two teams');
    linkTeams(c, players, teams, path);
  }

  let knockout: KnockoutRules | null = null;
  if (kind === 'knockout') knockout = parseKnockoutRules(c, o.knockout, `${path}.knockout`);
  else if (o.knockout !== undefined) c.problem(`${path}.knockout`, `only for "kind": "knockout"`);

  const teamScoring = { ...DEFAULT_TEAM_SCORING };
  if (o.teamScoring !== undefined) {
    const s = c.object(o.teamScoring, `${path}.teamScoring`);
    if (s) {
      c.unknownKeys(s, Object.keys(DEFAULT_TEAM_SCORING), `${path}.teamScoring`);
      for (const key of Object.keys(DEFAULT_TEAM_SCORING) as (keyof typeof DEFAULT_TEAM_SCORING)[]) {
        if (s[key] === undefined) continue;
        if (typeof s[key] !== 'number' || (s[key] as number) < 0) c.problem(`${path}.teamScoring.${key}`, `must be a number ≥ 0`);
        else if (key === 'byePointsPerPlayer' && BYE_CODE_FOR_POINTS[s[key] as number] === undefined) {
          // Each player of a team bye gets the TRF bye code worth these points (TRF16 defaults).
          c.problem(`${path}.teamScoring.byePointsPerPlayer`, `must be 0, 0.5 or 1 (the points of the TRF bye codes Z, H, F), got ${show(s[key])}`);
        } else teamScoring[key] = s[key] as number;
      }
    }
  }

  const rounds: Round[] = [];
  const refs: EntrantRef[] = [];
  const roundPaths = new Map<Round, string>();
  const rawRounds = c.array(o.rounds, `${path}.rounds`, true) ?? [];
  rawRounds.forEach((r, i) => {
    const round = parseRound(c, r, `${path}.rounds[${i}]`, { kind, ranks, teams, boardsPerTeam, refs });
    if (round) rounds.push(round);
    if (round) roundPaths.set(round, `${path}.rounds[${i}]`);
  });
  // Numbering as written (a round refused for another problem still holds its place).
  rawRounds.forEach((r, i) => {
    const n = typeof r === 'object' && r !== null ? (r as Obj).number : undefined;
    if (typeof n === 'number' && Number.isInteger(n) && n !== i + 1) c.problem(`${path}.rounds[${i}].number`, `rounds must be numbered 1, 2, 3 … in order; expected ${i + 1}, got ${n}`);
  });
  if (kind === 'knockout') checkKnockoutRefs(c, refs, rounds, rawRounds.length, roundPaths);
  // A round robin by the Berger tables when the field is small enough (Ivanovo: 8 teams or fewer).
  const roundRobinUpTo = c.int(o, 'roundRobinUpTo', path, { optional: true, min: 2, max: 999 }) ?? null;
  if (roundRobinUpTo !== null && kind === 'knockout') c.problem(`${path}.roundRobinUpTo`, 'not for "kind": "knockout"');
  const field = kind === 'team' ? teams.length : players.length;
  const roundRobin = roundRobinUpTo !== null && kind !== 'knockout' && field <= roundRobinUpTo;
  if (roundRobin && rawRounds.length) {
    c.problem(`${path}.rounds`, `${field} ${kind === 'team' ? 'teams' : 'players'} (roundRobinUpTo ${roundRobinUpTo}): the rounds are the FIDE Berger tables, generated by the director; leave "rounds" out`);
  }
  // TRF tag 142 / XXR: the planned total, which a pairing program checks the played rounds against.
  const bergerRounds = roundRobin && field >= 2 ? bergerRoundCount(field) : null;
  const plannedRounds = c.int(o, 'plannedRounds', path, { optional: true, min: 1, max: 999 }) ?? bergerRounds ?? rawRounds.length;
  if (plannedRounds < rawRounds.length) c.problem(`${path}.plannedRounds`, `${plannedRounds} is fewer than the ${rawRounds.length} rounds listed in "rounds"`);
  if (bergerRounds !== null && plannedRounds !== bergerRounds) c.problem(`${path}.plannedRounds`, `a round robin of ${field} has ${bergerRounds} rounds, not ${plannedRounds}`);

  // The regulation's appeal window: { "minutes": 30, "from": "result" | "round-end" }.
  let appeal: AppealRule | null = null;
  if (o.appeal !== undefined) {
    const a = c.object(o.appeal, `${path}.appeal`);
    if (a) {
      c.unknownKeys(a, ['minutes', 'from'], `${path}.appeal`);
      const minutes = c.int(a, 'minutes', `${path}.appeal`, { min: 1, max: 7 * 24 * 60 });
      const from = c.string(a, 'from', `${path}.appeal`);
      if (from !== undefined && from !== 'result' && from !== 'round-end') c.problem(`${path}.appeal.from`, `must be "result" (from the arbiter's decision) or "round-end", got ${show(from)}`);
      else if (minutes !== undefined && from !== undefined) appeal = { minutes, from };
    }
  }
  const pairingEngine = parsePairingEngine(c, o.pairingEngine, `${path}.pairingEngine`, kind, roundRobin);
  // Without it the total would be the rounds listed (none before round 1): the engine would never pair.
  if (pairingEngine && o.plannedRounds === undefined) c.problem(`${path}.plannedRounds`, 'missing: a pairing engine pairs against the planned number of rounds (TRF tag 142 and XXR)');
  if (c.issues.length > before || id === undefined || name === undefined || tc === undefined) return undefined;
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
    plannedRounds,
    roundRobinUpTo,
    appeal,
    knockout,
    teamScoring,
    ...(pairingEngine ? { pairingEngine } : {}),
  };
}

/** Default time an engine may take: bbpPairings pairs hundreds of players in seconds. */
export const DEFAULT_PAIRING_ENGINE_TIMEOUT_S = 60;

/**
 * `"pairingEngine": { "command": ["bbpPairings.exe", "--dutch"], "timeoutSeconds": 60 }`: an
 * individual Swiss event only. bbpPairings and JaVaFo pair players, not teams; a knockout and a
 * round robin are paired by the director.
 */
function parsePairingEngine(c: Checker, raw: unknown, path: string, kind: EventKind, roundRobin: boolean): PairingEngine | undefined {
  if (raw === undefined || raw === null) return undefined;
  const o = c.object(raw, path);
  if (!o) return undefined;
  c.unknownKeys(o, ['command', 'timeoutSeconds', 'initialColour'], path);
  if (kind !== 'individual') return c.problem(path, `only for an individual Swiss event ("kind": "individual"): the engine pairs players${kind === 'team' ? ', not teams; load a team round from a TRF instead' : ''}`);
  if (roundRobin) return c.problem(path, 'a round robin is paired by the Berger tables (roundRobinUpTo), not by an engine');
  const command = c.array(o.command, `${path}.command`);
  const timeout = c.int(o, 'timeoutSeconds', path, { optional: true, min: 1, max: 3600 }) ?? DEFAULT_PAIRING_ENGINE_TIMEOUT_S;
  // Round 1's colour by lot as drawn in the hall (FIDE C.04.3: the initial colour); absent, the host draws it.
  const initialColour = c.string(o, 'initialColour', path, true) ?? undefined;
  if (initialColour !== undefined && initialColour !== 'white' && initialColour !== 'black') c.problem(`${path}.initialColour`, `must be "white" or "black" (the colour drawn by lot for the top-ranked player in round 1), got ${show(initialColour)}`);
  if (!command) return undefined;
  if (command.length === 0) return c.problem(`${path}.command`, 'must name the program, e.g. ["bbpPairings.exe", "--dutch"]');
  const args: string[] = [];
  command.forEach((a, i) => {
    if (typeof a !== 'string' || a === '') c.problem(`${path}.command[${i}]`, `must be a non-empty string, got ${show(a)}`);
    else if (controlCharacterIn(a)) c.problem(`${path}.command[${i}]`, `${show(a)} holds ${controlCharacterIn(a)}`);
    else args.push(a);
  });
  if (args.length !== command.length) return undefined;
  if (initialColour !== undefined && initialColour !== 'white' && initialColour !== 'black') return undefined;
  return { command: args, timeoutMs: timeout * 1000, ...(initialColour ? { initialColour } : {}) };
}

/** `"classical"` (a preset), or `{ preset | timeControl | white+black, defaultTime?, incrementTiming? }`. */
function parseEventTimeControl(c: Checker, raw: unknown, path: string): { value: TimeControl; preset: PresetName | null } | undefined {
  if (raw === undefined) return c.problem(path, 'missing');
  try {
    // The file's own rule: a bare string names a preset; other controls are written as an object.
    if (typeof raw === 'string' && !isPresetName(raw)) return c.problem(path, `unknown preset ${show(raw)}; use an object for other controls`);
    if (typeof raw !== 'string') {
      const o = c.object(raw, path);
      if (!o) return undefined;
      c.unknownKeys(o, TIME_CONTROL_SPEC_FIELDS, path);
    }
    // The one time-control reader (protocol/time-control.ts), as the API and the replay read theirs.
    const read = readTimeControlSpec(raw);
    return { value: read.timeControl, preset: read.preset };
  } catch (err) {
    if (err instanceof TimeControlError) return c.problem(path, err.message);
    throw err;
  }
}

const PLAYER_KEYS = ['rank', 'name', 'sex', 'title', 'rating', 'federation', 'fideId', 'birthDate', 'team'] as const;

function parsePlayer(c: Checker, raw: unknown, path: string): Player | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  c.unknownKeys(o, PLAYER_KEYS, path);
  const rank = c.int(o, 'rank', path, { min: 1, max: 9999 });
  const name = c.string(o, 'name', path);
  if (name !== undefined && name.length > 33) c.problem(`${path}.name`, `longer than the 33 characters TRF16 allows (positions 15-47)`);
  const sex = c.string(o, 'sex', path, true);
  if (sex !== undefined && sex !== 'm' && sex !== 'w') c.problem(`${path}.sex`, `must be "m" or "w" (TRF16 position 10), got ${show(sex)}`);
  const title = c.string(o, 'title', path, true);
  if (title !== undefined && title.length > 3) c.problem(`${path}.title`, `at most 3 characters (TRF16 positions 11-13), got ${show(title)}`);
  const federation = c.string(o, 'federation', path, true);
  if (federation !== undefined && !/^[A-Z]{3}$/.test(federation)) c.problem(`${path}.federation`, `must be a 3-letter FIDE code, got ${show(federation)}`);
  const rating = c.int(o, 'rating', path, { optional: true, max: 9999 });
  const fideId = c.int(o, 'fideId', path, { optional: true, min: 1, max: 99_999_999_999 });
  const team = c.int(o, 'team', path, { optional: true, min: 1 });
  const birthDate = c.date(o, 'birthDate', path);
  // A player whose rank and name were read is kept even with other problems (reported above,
  // so the file is refused): the rounds that pair the player then report nothing false.
  if (rank === undefined || name === undefined) return undefined;
  return {
    rank,
    name,
    sex: (sex as Player['sex']) ?? null,
    title: title ?? null,
    rating: rating ?? null,
    federation: federation ?? null,
    fideId: fideId ?? null,
    birthDate,
    team: team ?? null,
  };
}

function parseTeam(c: Checker, raw: unknown, path: string, ranks: Map<number, number>): Team | undefined {
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

function linkTeams(c: Checker, players: Player[], teams: Team[], path: string): void {
  const ids = new Set<number>();
  teams.forEach((t, i) => {
    if (ids.has(t.id)) c.problem(`${path}.teams[${i}].id`, `team id ${t.id} is used twice`);
    ids.add(t.id);
    for (const rank of t.players) {
      const p = players.find((x) => x.rank === rank)!;
      if (p.team !== null && p.team !== t.id) c.problem(`${path}.teams[${i}].players`, `player ${rank} is listed with team ${p.team} too`);
      p.team = t.id;
    }
  });
  players.forEach((p, i) => {
    if (p.team === null) c.problem(`${path}.players[${i}].team`, `player ${p.rank} is in no team`);
    else if (!ids.has(p.team)) c.problem(`${path}.players[${i}].team`, `no team ${p.team}`);
  });
}

function parseKnockoutRules(c: Checker, raw: unknown, path: string): KnockoutRules {
  const rules = { ...DEFAULT_KNOCKOUT_RULES };
  if (raw === undefined) return rules;
  const o = c.object(raw, path);
  if (!o) return rules;
  c.unknownKeys(o, ['breakBeforeRapidMinutes', 'breakBetweenRapidMinutes', 'breakBeforeArmageddonMinutes', 'seed'], path);
  const minutes = (key: string): number | undefined => {
    const v = c.int(o, key, path, { optional: true, max: 24 * 60 });
    return v === undefined ? undefined : v * 60_000;
  };
  rules.breakBeforeRapidMs = minutes('breakBeforeRapidMinutes') ?? rules.breakBeforeRapidMs;
  rules.breakBetweenRapidMs = minutes('breakBetweenRapidMinutes') ?? rules.breakBetweenRapidMs;
  rules.breakBeforeArmageddonMs = minutes('breakBeforeArmageddonMinutes') ?? rules.breakBeforeArmageddonMs;
  rules.seed = c.int(o, 'seed', path, { optional: true, max: 2 ** 32 - 1 }) ?? rules.seed;
  return rules;
}

interface RoundContext {
  kind: EventKind;
  ranks: Map<number, number>;
  teams: Team[];
  boardsPerTeam: number | null;
  /** Collects the winnerOf/loserOf references, checked once every round is read. */
  refs: EntrantRef[];
}

/** A `winnerOf`/`loserOf` entrant as written, with where it stands in the file. */
interface EntrantRef {
  where: string;
  kind: 'winnerOf' | 'loserOf';
  ref: MatchRef;
  /** Number of the round it stands in (undefined when that round's number was bad). */
  inRound: number | undefined;
}

function parseRound(c: Checker, raw: unknown, path: string, ctx: RoundContext): Round | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  const before = c.issues.length;
  c.unknownKeys(o, ['number', 'date', 'start', 'boards', 'teamMatches', 'knockout', 'byes'], path);
  const number = c.int(o, 'number', path, { min: 1, max: 999 });
  const date = c.date(o, 'date', path);
  let startUtcMs: number | null = null;
  const start = c.string(o, 'start', path, true);
  if (start !== undefined) {
    const ms = isoUtcMs(start);
    if (Number.isNaN(ms)) c.problem(`${path}.start`, `must be an ISO date-time with offset, e.g. "2007-08-16T16:00:00+02:00", got ${show(start)}`);
    else startUtcMs = ms;
  }
  const seen = new Map<number, string>(); // player rank → where paired, to refuse pairing a player twice
  const usePlayer = (rank: unknown, where: string): number | undefined => {
    if (rank === undefined) return c.problem(where, 'missing');
    if (typeof rank !== 'number' || !ctx.ranks.has(rank)) return c.problem(where, `no player with starting rank ${show(rank)}`);
    if (seen.has(rank)) return c.problem(where, `player ${rank} is already paired in this round at ${seen.get(rank)}`);
    seen.set(rank, where);
    return rank;
  };
  const boardNumbers = new Set<number>();
  const useBoard = (o2: Obj, where: string): number | undefined => {
    const b = c.int(o2, 'board', where, { min: 1, max: 9999 });
    if (b !== undefined && boardNumbers.has(b)) return c.problem(`${where}.board`, `board ${b} is used twice in this round`);
    if (b !== undefined) boardNumbers.add(b);
    return b;
  };

  const boards: BoardPairing[] = [];
  const teamMatches: TeamMatch[] = [];
  const knockout: KnockoutPairing[] = [];
  const rawBoards = c.array(o.boards, `${path}.boards`, true) ?? [];
  const rawTeam = c.array(o.teamMatches, `${path}.teamMatches`, true) ?? [];
  const rawKo = c.array(o.knockout, `${path}.knockout`, true) ?? [];
  if (ctx.kind === 'team' && rawBoards.length) c.problem(`${path}.boards`, 'a team event lists its boards inside "teamMatches"');
  if (ctx.kind !== 'team' && rawTeam.length) c.problem(`${path}.teamMatches`, 'only for "kind": "team"');
  if (ctx.kind !== 'knockout' && rawKo.length) c.problem(`${path}.knockout`, 'only for "kind": "knockout"');
  if (ctx.kind === 'knockout' && rawBoards.length) c.problem(`${path}.boards`, 'a knockout event lists its mini-matches in "knockout"');

  rawBoards.forEach((b, i) => {
    const where = `${path}.boards[${i}]`;
    const bo = c.object(b, where);
    if (!bo) return;
    c.unknownKeys(bo, ['board', 'white', 'black'], where);
    const board = useBoard(bo, where);
    const white = usePlayer(bo.white, `${where}.white`);
    const black = usePlayer(bo.black, `${where}.black`);
    if (board !== undefined && white !== undefined && black !== undefined) boards.push({ board, white, black });
  });

  // A mini-match's player: a starting rank, or { "winnerOf" | "loserOf": { "round", "board" } }
  // for a later knockout round, whose players are known only once the earlier matches are decided.
  const useEntrant = (raw: unknown, where: string): KnockoutEntrant | undefined => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      const rank = usePlayer(raw, where);
      return rank === undefined ? undefined : { rank };
    }
    const keys = Object.keys(raw);
    if (keys.length !== 1 || (keys[0] !== 'winnerOf' && keys[0] !== 'loserOf')) {
      return c.problem(where, `must be a starting rank, { "winnerOf": { "round": R, "board": B } } or { "loserOf": { "round": R, "board": B } }, got ${show(raw)}`);
    }
    const kind = keys[0] as 'winnerOf' | 'loserOf';
    const at = `${where}.${kind}`;
    const ro = c.object((raw as Obj)[kind], at);
    if (!ro) return undefined;
    c.unknownKeys(ro, ['round', 'board'], at);
    const round = c.int(ro, 'round', at, { min: 1, max: 999 });
    const board = c.int(ro, 'board', at, { min: 1, max: 9999 });
    if (round === undefined || board === undefined) return undefined;
    const ref = { round, board };
    ctx.refs.push({ where, kind, ref, inRound: number });
    return kind === 'winnerOf' ? { winnerOf: ref } : { loserOf: ref };
  };

  rawKo.forEach((k, i) => {
    const where = `${path}.knockout[${i}]`;
    const ko = c.object(k, where);
    if (!ko) return;
    c.unknownKeys(ko, ['board', 'players', 'firstWhite', 'classicalStarts'], where);
    const board = useBoard(ko, where);
    const ps = c.array(ko.players, `${where}.players`);
    if (ps && ps.length !== 2) c.problem(`${where}.players`, `a mini-match has exactly 2 players, got ${ps.length}`);
    const a = ps && ps.length === 2 ? useEntrant(ps[0], `${where}.players[0]`) : undefined;
    const b2 = ps && ps.length === 2 ? useEntrant(ps[1], `${where}.players[1]`) : undefined;
    let firstWhite: number | null = null;
    if (ko.firstWhite !== undefined && ko.firstWhite !== null) {
      if ((a && !('rank' in a)) || (b2 && !('rank' in b2))) {
        // Slovenian women's final 2007 art. 3: colours of game 1 are drawn; with a player not
        // known in advance the file cannot fix them.
        c.problem(`${where}.firstWhite`, 'must be null or absent when a player is "winnerOf"/"loserOf": the colours of game 1 are then drawn by lot');
      } else if (ko.firstWhite !== (a && 'rank' in a ? a.rank : undefined) && ko.firstWhite !== (b2 && 'rank' in b2 ? b2.rank : undefined)) {
        c.problem(`${where}.firstWhite`, `must be one of the match's players, got ${show(ko.firstWhite)}`);
      } else firstWhite = ko.firstWhite as number;
    }
    const classicalStartsUtcMs = (c.array(ko.classicalStarts, `${where}.classicalStarts`, true) ?? []).map((s, j) => {
      const ms = typeof s === 'string' ? isoUtcMs(s) : NaN;
      if (Number.isNaN(ms)) c.problem(`${where}.classicalStarts[${j}]`, `must be an ISO date-time with offset, got ${show(s)}`);
      return ms;
    });
    if (board !== undefined && a !== undefined && b2 !== undefined) knockout.push({ board, players: [a, b2], firstWhite, classicalStartsUtcMs });
  });

  const teamIds = new Map(ctx.teams.map((t) => [t.id, t]));
  const teamsSeen = new Set<number>();
  const useTeam = (id: unknown, where: string): number | undefined => {
    if (id === undefined) return c.problem(where, 'missing');
    if (typeof id !== 'number' || !teamIds.has(id)) return c.problem(where, `no team ${show(id)}`);
    if (teamsSeen.has(id)) return c.problem(where, `team ${id} already plays in this round`);
    teamsSeen.add(id);
    return id;
  };
  rawTeam.forEach((m, i) => {
    const where = `${path}.teamMatches[${i}]`;
    const mo = c.object(m, where);
    if (!mo) return;
    c.unknownKeys(mo, ['white', 'black', 'boards'], where);
    const wt = useTeam(mo.white, `${where}.white`);
    const bt = useTeam(mo.black, `${where}.black`);
    const mb = c.array(mo.boards, `${where}.boards`) ?? [];
    if (ctx.boardsPerTeam !== null && mo.boards !== undefined && mb.length !== ctx.boardsPerTeam) {
      c.problem(`${where}.boards`, `a match has ${ctx.boardsPerTeam} boards (boardsPerTeam), got ${mb.length}`);
    }
    const matchBoards: BoardPairing[] = [];
    mb.forEach((b, k) => {
      const bw = `${where}.boards[${k}]`;
      const bo = c.object(b, bw);
      if (!bo) return;
      c.unknownKeys(bo, ['board', 'white', 'black'], bw);
      // Event board numbers run on across matches unless given: match i board k → i·boardsPerTeam + k + 1.
      if (bo.board === undefined) bo.board = i * (ctx.boardsPerTeam ?? mb.length) + k + 1;
      const board = useBoard(bo, bw);
      const white = usePlayer(bo.white, `${bw}.white`);
      const black = usePlayer(bo.black, `${bw}.black`);
      if (wt === undefined || bt === undefined || white === undefined || black === undefined || board === undefined) return;
      // FIDE team colours: the first-named team has White on boards 1, 3, …, Black on 2, 4, ….
      const [wTeam, bTeam] = k % 2 === 0 ? [wt, bt] : [bt, wt];
      if (!teamIds.get(wTeam)!.players.includes(white)) c.problem(`${bw}.white`, `player ${white} is not in team ${wTeam}, which has White on board ${k + 1}`);
      if (!teamIds.get(bTeam)!.players.includes(black)) c.problem(`${bw}.black`, `player ${black} is not in team ${bTeam}, which has Black on board ${k + 1}`);
      matchBoards.push({ board, white, black });
    });
    if (wt !== undefined && bt !== undefined) {
      teamMatches.push({ white: wt, black: bt, boards: matchBoards });
      boards.push(...matchBoards);
    }
  });

  const byes: Bye[] = [];
  (c.array(o.byes, `${path}.byes`, true) ?? []).forEach((b, i) => {
    const where = `${path}.byes[${i}]`;
    const bo = c.object(b, where);
    if (!bo) return;
    c.unknownKeys(bo, ['player', 'team', 'kind'], where);
    const kind = c.string(bo, 'kind', where);
    if (kind !== undefined && !(BYE_KINDS as readonly string[]).includes(kind)) {
      c.problem(`${where}.kind`, `must be one of ${BYE_KINDS.join(' ')} (TRF16 bye codes), got ${show(kind)}`);
    }
    if ((bo.player === undefined) === (bo.team === undefined)) {
      c.problem(where, 'needs exactly one of "player" or "team"');
      return;
    }
    if (bo.team !== undefined) {
      if (ctx.kind !== 'team') c.problem(`${where}.team`, 'team byes only in a team event');
      const team = useTeam(bo.team, `${where}.team`);
      if (team !== undefined) for (const p of teamIds.get(team)!.players) seen.set(p, where);
      if (team !== undefined && kind !== undefined) byes.push({ player: null, team, kind: kind as ByeKind });
    } else {
      const player = usePlayer(bo.player, `${where}.player`);
      if (player !== undefined && kind !== undefined) byes.push({ player, team: null, kind: kind as ByeKind });
    }
  });

  boards.sort((a, b) => a.board - b.board);
  if (c.issues.length > before || number === undefined) return undefined;
  return { number, date, startUtcMs, boards, teamMatches, knockout, byes };
}

/**
 * The winnerOf/loserOf references of a knockout event: each names a mini-match of an earlier
 * round of the same event, each match outcome is taken once, and no player can turn up twice in
 * one round (e.g. rank 1 in the final against the winner of her own semifinal).
 */
function checkKnockoutRefs(c: Checker, refs: EntrantRef[], rounds: Round[], rawRoundCount: number, roundPaths: Map<Round, string>): void {
  const byNumber = new Map(rounds.map((r) => [r.number, r]));
  const taken = new Map<string, string>();
  let sound = true; // every reference names a match that was read
  for (const { where, kind, ref, inRound } of refs) {
    const what = describeEntrant(kind === 'winnerOf' ? { winnerOf: ref } : { loserOf: ref });
    if (inRound !== undefined && ref.round >= inRound) {
      c.problem(where, `${what}: must be an earlier round than this round ${inRound} (a match waits only for matches played before it)`);
      sound = false;
      continue;
    }
    const r = byNumber.get(ref.round);
    if (!r) {
      // A round that is in the file but was refused has had its problems reported already.
      if (ref.round > rawRoundCount) c.problem(where, `${what}: the event has no round ${ref.round} (rounds 1-${rawRoundCount})`);
      sound = false;
      continue;
    }
    if (!r.knockout.some((k) => k.board === ref.board)) {
      c.problem(where, `round ${ref.round} has no knockout board ${ref.board} (boards ${r.knockout.map((k) => k.board).join(', ') || 'none'})`);
      sound = false;
      continue;
    }
    const key = `${kind} ${ref.round}/${ref.board}`;
    if (taken.has(key)) c.problem(where, `${what} is already referenced at ${taken.get(key)}; a match outcome goes to one place`);
    else taken.set(key, where);
  }
  if (!sound) return; // the who-may-meet-whom check walks the bracket

  // Who an entrant can turn out to be: a starting rank, with the match outcomes that make it so
  // (match id → index of the winner). Two entrants may be the same player only when the same
  // rank comes with outcomes that do not contradict each other.
  type Option = { rank: number; outcomes: Map<string, number> };
  const options = (e: KnockoutEntrant): Option[] => {
    if ('rank' in e) return [{ rank: e.rank, outcomes: new Map() }];
    const ref = 'winnerOf' in e ? e.winnerOf : e.loserOf;
    const k = byNumber.get(ref.round)!.knockout.find((x) => x.board === ref.board)!;
    const id = `${ref.round}/${ref.board}`;
    return k.players.flatMap((p, i) =>
      options(p).map((o) => ({ rank: o.rank, outcomes: new Map([...o.outcomes, [id, 'winnerOf' in e ? i : 1 - i]]) })),
    );
  };
  const consistent = (x: Option, y: Option) => x.rank === y.rank && [...x.outcomes].every(([id, w]) => !y.outcomes.has(id) || y.outcomes.get(id) === w);
  for (const r of rounds) {
    const entrants = r.knockout.flatMap((k, ki) => k.players.map((e, pi) => ({ e, where: `${roundPaths.get(r)}.knockout[${ki}].players[${pi}]`, opts: options(e) })));
    entrants.forEach((y, j) => {
      for (const x of entrants.slice(0, j)) {
        if ('rank' in x.e && 'rank' in y.e) continue; // two ranks: reported while reading the round
        const clash = y.opts.find((oy) => x.opts.some((ox) => consistent(ox, oy)));
        if (clash) {
          c.problem(y.where, `${describeEntrant(y.e)} and ${describeEntrant(x.e)} (at ${x.where}) may both be player ${clash.rank}; a player plays once per round`);
          break;
        }
      }
    });
  }
}

/** Several events in one hall: their tables must not overlap. */
function checkHall(c: Checker, events: TournamentEvent[]): void {
  const ids = new Map<string, number>();
  events.forEach((e, i) => {
    if (ids.has(e.id)) c.problem(`events[${i}].id`, `event id "${e.id}" is also used by events[${ids.get(e.id)}]`);
    ids.set(e.id, i);
  });
  const spans = events.map((e, i) => {
    // A round robin's rounds are generated by the director; its tables are known already.
    const rounds = e.rounds.length === 0 && isRoundRobin(e) ? roundRobinRounds(e) : e.rounds;
    const maxBoard = Math.max(0, ...rounds.flatMap((r) => [...r.boards.map((b) => b.board), ...r.knockout.map((k) => k.board)]));
    return { i, id: e.id, from: e.hallFirstTable, to: e.hallFirstTable + maxBoard - 1 };
  });
  for (const a of spans) {
    for (const b of spans) {
      if (a.i < b.i && a.to >= a.from && b.to >= b.from && a.from <= b.to && b.from <= a.to) {
        c.problem(
          `events[${b.i}].hallFirstTable`,
          `hall tables ${b.from}-${b.to} of "${b.id}" overlap tables ${a.from}-${a.to} of "${a.id}"; set hallFirstTable so events share no table`,
        );
      }
    }
  }
}

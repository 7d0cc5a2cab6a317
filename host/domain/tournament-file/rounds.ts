// The tournament file's event `rounds`: each round's number, date and start, and its pairings:
// `boards` (an individual event), `teamMatches` (a team event; team-matches.ts), `knockout`
// mini-matches (a knockout; knockout.ts) and `byes`. Each player is paired once per round and
// each board used once (round-pairings.ts); the rules across rounds are checker.ts's.

import type { BoardPairing, Bye, ByeKind, EventKind, Round, Team } from '../model.ts';
import { checkKnockoutRefs, checkRoundNumbers } from './checker.ts';
import { checkRoundDates, type EventDates, type RoundWhen } from './dates.ts';
import { didYouMean, isoUtcMs, show, type FieldChecker, type Obj } from './field-checker.ts';
import { parseMiniMatches, type EntrantRef } from './knockout.ts';
import { RoundPairings } from './round-pairings.ts';
import { parseTeamMatches } from './team-matches.ts';

const BYE_KINDS: readonly ByeKind[] = ['H', 'F', 'U', 'Z'];

interface RoundContext {
  kind: EventKind;
  ranks: Map<number, number>;
  /** Ranks of players refused in the players list: pairing them reports nothing more. */
  refusedRanks: ReadonlySet<unknown>;
  teams: Team[];
  /** Ids written for teams refused in the teams list: naming them reports nothing more. */
  refusedTeams: ReadonlySet<unknown>;
  boardsPerTeam: number | null;
  /** The event's first and last day, which the rounds' dates fall within. */
  eventDates: EventDates;
  /** Collects the winnerOf/loserOf references, checked once every round is read. */
  refs: EntrantRef[];
  /** Collects each round's date and start as read (a round refused for another problem too). */
  schedule: RoundWhen[];
}

/** The event's rounds (`o.rounds`, optional), and how many the file lists, read or not. */
export function parseRounds(c: FieldChecker, o: Obj, path: string, ctx: Omit<RoundContext, 'refs' | 'schedule'>): { rounds: Round[]; listed: number } {
  const rounds: Round[] = [];
  const refs: EntrantRef[] = [];
  const schedule: RoundWhen[] = [];
  const roundPaths = new Map<Round, string>();
  const rawRounds = c.array(o.rounds, `${path}.rounds`, true) ?? [];
  rawRounds.forEach((r, i) => {
    const round = parseRound(c, r, `${path}.rounds[${i}]`, { ...ctx, refs, schedule });
    if (round) rounds.push(round);
    if (round) roundPaths.set(round, `${path}.rounds[${i}]`);
  });
  checkRoundNumbers(c, rawRounds, `${path}.rounds`);
  checkRoundDates(c, schedule, ctx.eventDates);
  if (ctx.kind === 'knockout') checkKnockoutRefs(c, refs, rounds, rawRounds, roundPaths);
  return { rounds, listed: rawRounds.length };
}

function parseRound(c: FieldChecker, raw: unknown, path: string, ctx: RoundContext): Round | undefined {
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
  ctx.schedule.push({ path, date, start: startUtcMs === null ? null : { text: start!, ms: startUtcMs } });
  const pairings = new RoundPairings(c, ctx.ranks, ctx.teams, { ranks: ctx.refusedRanks, teams: ctx.refusedTeams });
  const rawBoards = c.array(o.boards, `${path}.boards`, true) ?? [];
  const rawTeam = c.array(o.teamMatches, `${path}.teamMatches`, true) ?? [];
  const rawKo = c.array(o.knockout, `${path}.knockout`, true) ?? [];
  if (ctx.kind === 'team' && rawBoards.length) c.problem(`${path}.boards`, 'a team event lists its boards inside "teamMatches"');
  if (ctx.kind !== 'team' && rawTeam.length) c.problem(`${path}.teamMatches`, 'only for "kind": "team"');
  if (ctx.kind !== 'knockout' && rawKo.length) c.problem(`${path}.knockout`, 'only for "kind": "knockout"');
  if (ctx.kind === 'knockout' && rawBoards.length) c.problem(`${path}.boards`, 'a knockout event lists its mini-matches in "knockout"');

  const boards = parseBoards(c, rawBoards, `${path}.boards`, pairings);
  const knockout = parseMiniMatches(c, rawKo, `${path}.knockout`, pairings, ctx.refs, number);
  const teamMatches = parseTeamMatches(c, rawTeam, `${path}.teamMatches`, pairings, ctx.boardsPerTeam);
  boards.push(...teamMatches.flatMap((m) => m.boards));
  const byes = parseByes(c, o.byes, `${path}.byes`, pairings, ctx.kind);

  boards.sort((a, b) => a.board - b.board);
  if (c.issues.length > before || number === undefined) return undefined;
  return { number, date, startUtcMs, boards, teamMatches, knockout, byes };
}

/** An individual event's `boards`: `{ "board": 1, "white": 1, "black": 2 }`. */
function parseBoards(c: FieldChecker, raw: unknown[], path: string, pairings: RoundPairings): BoardPairing[] {
  const boards: BoardPairing[] = [];
  raw.forEach((b, i) => {
    const where = `${path}[${i}]`;
    const bo = c.object(b, where);
    if (!bo) return;
    c.unknownKeys(bo, ['board', 'white', 'black'], where);
    const board = pairings.useBoard(bo, where);
    const white = pairings.usePlayer(bo.white, `${where}.white`);
    const black = pairings.usePlayer(bo.black, `${where}.black`);
    if (board !== undefined && white !== undefined && black !== undefined) boards.push({ board, white, black });
  });
  return boards;
}

/** `byes`: `{ "player": 3, "kind": "H" }`, or in a team event `{ "team": 5, "kind": "H" }` (TRF16 bye codes). */
function parseByes(c: FieldChecker, raw: unknown, path: string, pairings: RoundPairings, kind: EventKind): Bye[] {
  const byes: Bye[] = [];
  (c.array(raw, path, true) ?? []).forEach((b, i) => {
    const where = `${path}[${i}]`;
    const bo = c.object(b, where);
    if (!bo) return;
    c.unknownKeys(bo, ['player', 'team', 'kind'], where);
    const code = c.string(bo, 'kind', where);
    if (code !== undefined && !(BYE_KINDS as readonly string[]).includes(code)) {
      c.problem(`${where}.kind`, `must be one of ${BYE_KINDS.join(' ')} (TRF16 bye codes), got ${show(code)}${didYouMean(code, BYE_KINDS)}`);
    }
    if ((bo.player === undefined) === (bo.team === undefined)) {
      c.problem(where, 'needs exactly one of "player" or "team"');
      return;
    }
    if (bo.team !== undefined) {
      if (kind !== 'team') c.problem(`${where}.team`, 'team byes only in a team event');
      const team = pairings.useTeam(bo.team, `${where}.team`);
      if (team !== undefined) pairings.teamBye(team, where);
      if (team !== undefined && code !== undefined) byes.push({ player: null, team, kind: code as ByeKind });
    } else {
      const player = pairings.usePlayer(bo.player, `${where}.player`);
      if (player !== undefined && code !== undefined) byes.push({ player, team: null, kind: code as ByeKind });
    }
  });
  return byes;
}

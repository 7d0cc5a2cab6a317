// Pairings from a TRF file, as a FIDE-endorsed pairing program writes them (TRF16 player lines;
// TRF-2026 310 team records for team events). The host does not pair: it takes the program's
// pairings round by round. A round's pairings are the 001 round fields that name an opponent
// and a colour; bye codes (H F U Z) with opponent 0000 are byes; blank fields are "not paired".
//
// TRF carries no board numbers. A pairing program lists a round's boards in the FIDE board order
// (FIDE Handbook C.04.2, general handling rules, board order; C.04.1 F.1 in the older Dutch
// rules): by the score of the higher player of the pair (more points before the round, then the
// better starting rank), then the sum of both players' scores, then the starting rank of the
// higher player. The import numbers boards in that order, so board 1 is the program's board 1
// (team events: matches in that order by team match points and team pairing number, each match's
// boards in team board order). Where the program's own list exists — a pairing engine's output,
// `ENGINE --dutch in.trf -p out.txt` (JaVaFo/bbpPairings: the number of pairs, then one
// `white black` pair per line, board 1 first) — `parsePairsFile` keeps its order as it is.

import { formatSideControl, formatTimeControl, isPresetName, readTimeControlSpec, TimeControlError, type TimeControl } from '../../../protocol/time-control.ts';
import { parseTrf, type TrfFile, type TrfPlayerLine } from './trf-parser.ts';
import { CODE_POINTS } from '../../domain/standings.ts';
import { controlCharacterIn, DEFAULT_TEAM_SCORING, type BoardPairing, type Bye, type Round, type TeamMatch, type TournamentEvent } from '../../domain/model.ts';

export class TrfImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrfImportError';
  }
}

/** Tag 222 (`d[:d]` or `Wd[:d]-Bd[:d]`) as a time control. */
export function parseTag222(value: string): TimeControl {
  try {
    // A TRF names no presets: only the written forms, read by the one time-control reader.
    if (isPresetName(value.trim())) throw new TimeControlError(`a preset name is not a TRF time control (write it as d[:d] or Wd[:d]-Bd[:d])`, value);
    return readTimeControlSpec(value).timeControl;
  } catch (err) {
    if (err instanceof TimeControlError) throw new TrfImportError(`tag 222 "${value}": ${err.message}`);
    throw err;
  }
}

const date = (v: string | undefined): string | null => (v && /^\d{4}\/\d{2}\/\d{2}$/.test(v.trim()) ? v.trim() : null);

export interface TrfImportOptions {
  id: string;
  /** When the TRF has no tag 222. */
  timeControl?: TimeControl;
  defaultTimeMs?: number | null;
}

export function importTrf(text: string, options: TrfImportOptions): TournamentEvent {
  const file: TrfFile = parseTrf(text);
  const tag = (id: string) => file.tags.get(id)?.[0];
  if (file.players.length === 0) throw new TrfImportError('the TRF has no 001 player lines');
  refuseControlCharacters(file);
  refuseOtherScoring(file);
  applyByeRecords(file);
  const tc = importedTimeControl(file, options);

  const scoring = { ...DEFAULT_TEAM_SCORING, ...(file.pab ? { byeMatchPoints: file.pab.matchPoints } : {}) };
  const teamOf = new Map<number, number>();
  for (const t of file.teams) for (const p of t.players) teamOf.set(p, t.team);
  const ctx: TrfContext = {
    file,
    ranks: new Set(file.players.map((p) => p.rank)),
    byRank: new Map(file.players.map((p) => [p.rank, p])),
    teamOf,
    scoring,
    pointsBefore: new Map(file.players.map((p) => [p, pointsBeforeEachRound(p)])),
    teamById: new Map([...file.teams].reverse().map((t) => [t.team, t])), // the first of a number, as a search finds it
    teamMatchPoints: new Map(),
  };
  const nRounds = file.players.reduce((n, p) => Math.max(n, p.rounds.length), 0);
  const rounds: Round[] = [];
  for (let r = 0; r < nRounds; r++) rounds.push(importRound(ctx, r));
  const boardsPerTeam = file.teams.length ? Math.max(...file.teams.map((t) => t.players.length)) : null;
  return {
    id: options.id,
    name: tag('012') ?? options.id,
    city: tag('022') ?? null,
    federation: tag('032') ?? null,
    startDate: date(tag('042')),
    endDate: date(tag('052')),
    chiefArbiter: tag('102') ?? null,
    deputyArbiters: file.tags.get('112') ?? [],
    kind: file.teams.length ? 'team' : 'individual',
    type: tag('092') ?? null,
    timeControl: tc,
    timeControlPreset: null,
    rated: true,
    hallFirstTable: 1,
    boardsPerTeam,
    players: file.players.map((p) => ({
      rank: p.rank,
      name: p.name,
      sex: p.sex === 'm' || p.sex === 'w' ? p.sex : null,
      title: p.title || null,
      rating: p.rating,
      federation: p.federation || null,
      fideId: p.fideId,
      birthDate: p.birthDate || null,
      team: teamOf.get(p.rank) ?? null,
    })),
    teams: file.teams.map((t) => ({ id: t.team, name: t.name, nickname: t.nickname || null, players: t.players })),
    rounds,
    // Tag 142 (TRF-2026) or XXR (JaVaFo): the planned total; else the rounds the file has.
    plannedRounds: Math.max(rounds.length, Number(tag('142') ?? file.xxr ?? 0) || 0),
    roundRobinUpTo: null,
    appeal: null,
    knockout: null,
    teamScoring: scoring,
  };
}

/** As the tournament file: a name goes into PGN tags, where a control character breaks the line (PGN standard §7). */
function refuseControlCharacters(file: TrfFile): void {
  for (const [line, what, value] of [
    ...file.players.map((p) => [p.line, `player ${p.rank}'s name (columns 15-47)`, p.name] as const),
    ...file.teams.map((t) => [t.line, `team ${t.team}'s name (columns 9-40)`, t.name] as const),
  ]) {
    const bad = controlCharacterIn(value);
    if (bad) throw new TrfImportError(`TRF line ${line}: ${what} holds ${bad}`);
  }
}

/** TRF-2026 tag 162 defaults (FIDE C.04 Annex 2, TRF-2026): W 1.0, D 0.5, L 0.0, A 0.0, P as W, X as D. */
const DEFAULT_162: Readonly<Record<string, number>> = { W: 1, D: 0.5, L: 0, A: 0, P: 1, X: 0.5 };

/** A point system other than 1, ½, 0 (tag 162) is refused: the host scores every game and bye by the TRF's default points. */
function refuseOtherScoring(file: TrfFile): void {
  for (const [symbol, { line, points }] of file.scoring) {
    if (points !== DEFAULT_162[symbol])
      throw new TrfImportError(
        `TRF line ${line}: tag 162 gives ${symbol} ${points.toFixed(1)} points; the host scores by the TRF's default points (W 1.0, D 0.5, L 0.0, A 0.0, P as W, X as D) and imports no other point system`,
      );
  }
}

/**
 * TRF-2026 records 240 of an individual event, a bye asked for: written into the player's field of
 * that round where it is blank (a pairing program may give the bye only there); the same bye code
 * there agrees; anything else contradicts the record and is refused. A round the player lines do
 * not carry yet has no pairing for the import to make: the record is left to the pairing program,
 * which writes the bye in that round's field (docs/exports.md "Reading a TRF"). Team events: the
 * records name teams and are not read (their byes are in the players' fields and record 320).
 */
function applyByeRecords(file: TrfFile): void {
  if (file.teams.length) return;
  const carried = file.players.reduce((n, p) => Math.max(n, p.rounds.length), 0);
  const byRank = new Map(file.players.map((p) => [p.rank, p]));
  for (const b of file.byes) {
    if (b.round > carried) continue;
    b.players.forEach((rank, i) => {
      const p = byRank.get(rank);
      const where = `TRF line ${b.line}, columns ${11 + 5 * i}-${14 + 5 * i}`;
      if (!p) throw new TrfImportError(`${where}: record 240 names player ${rank}, who has no 001 line`);
      while (p.rounds.length < b.round) p.rounds.push({ opponent: null, colour: null, code: ' ' });
      const field = p.rounds[b.round - 1];
      if (field.opponent === null && (field.code === ' ' || field.code === b.kind)) {
        p.rounds[b.round - 1] = { opponent: null, colour: null, code: b.kind };
        return;
      }
      const start = 92 + 10 * (b.round - 1);
      throw new TrfImportError(
        `${where}: record 240 gives player ${rank} the bye "${b.kind}" in round ${b.round}, but line ${p.line}, columns ${start}-${start + 7}, has "${field.opponent === null ? '0000' : field.opponent} ${field.colour ?? '-'} ${field.code}"`,
      );
    });
  }
}

/** Tag 222, else the caller's time control; the caller's default time over either. */
function importedTimeControl(file: TrfFile, options: TrfImportOptions): TimeControl {
  let tc = options.timeControl;
  const t222 = file.tags.get('222')?.[0];
  if (t222) tc = parseTag222(t222);
  if (!tc) throw new TrfImportError('the TRF has no tag 222 (time control): pass one');
  if (options.defaultTimeMs !== undefined) tc = { ...tc, defaultTimeMs: options.defaultTimeMs };
  return tc;
}

/** What every round of an import reads: the file, its players by rank, each player's team, the team scoring. */
interface TrfContext {
  readonly file: TrfFile;
  readonly ranks: ReadonlySet<number>;
  readonly byRank: ReadonlyMap<number, TrfPlayerLine>;
  readonly teamOf: ReadonlyMap<number, number>;
  readonly scoring: TournamentEvent['teamScoring'];
  /** A player's points before each round (index r: rounds 0 … r-1), summed once rather than per comparison. */
  readonly pointsBefore: ReadonlyMap<TrfPlayerLine, readonly number[]>;
  readonly teamById: ReadonlyMap<number, TrfFile['teams'][number]>;
  /** A team's match points before each round, extended as the rounds are imported. */
  readonly teamMatchPoints: Map<number, number[]>;
}

/** Points before round r (0-based) at index r, from the round codes (TRF16 default points). */
function pointsBeforeEachRound(p: TrfPlayerLine): number[] {
  const before = [0];
  for (const x of p.rounds) before.push(before[before.length - 1] + CODE_POINTS[x.code]);
  return before;
}

/** Round `r` (0-based): its pairs and byes from the players' round fields, its boards numbered in the FIDE board order. */
function importRound(ctx: TrfContext, r: number): Round {
  const { file, ranks, byRank } = ctx;
  /** Points before round r (0-based), from the round codes (TRF16 default points). */
  const scoreBefore = (p: TrfPlayerLine, r: number) => {
    const b = ctx.pointsBefore.get(p)!;
    return b[Math.min(r, b.length - 1)];
  };
  const pairs: BoardPairing[] = [];
  const byes: Bye[] = [];
  for (const p of file.players) {
    const f = p.rounds[r];
    if (!f) continue;
    if (f.opponent !== null && f.colour === 'w') {
      if (!ranks.has(f.opponent)) throw new TrfImportError(`line ${p.line}: round ${r + 1} opponent ${f.opponent} has no 001 line`);
      pairs.push({ board: 0, white: p.rank, black: f.opponent });
    } else if (f.opponent === null && ['H', 'F', 'U', 'Z'].includes(f.code)) {
      byes.push({ player: p.rank, team: null, kind: f.code as Bye['kind'] });
    }
  }
  let teamMatches: TeamMatch[] = [];
  if (file.teams.length) {
    teamMatches = teamMatchesOf(ctx, r, pairs);
    const teamByes = teamByesOf(ctx, r, byes);
    byes.splice(
      0,
      byes.length,
      ...byes.filter((b) => !teamByes.some((tb) => file.teams.find((t) => t.team === tb.team)!.players.includes(b.player!))),
      ...teamByes,
    );
  } else {
    pairs.sort((a, b) => boardOrder(a.white, a.black, b.white, b.black, (rank) => scoreBefore(byRank.get(rank)!, r)));
    pairs.forEach((b, i) => (b.board = i + 1));
  }
  const d = file.roundDates[r];
  return {
    number: r + 1,
    date: d && /^\d{2}\/\d{2}\/\d{2}$/.test(d) ? `20${d}` : null,
    startUtcMs: null,
    boards: teamMatches.length ? teamMatches.flatMap((m) => m.boards) : pairs,
    teamMatches,
    knockout: [],
    byes,
  };
}

/**
 * Round `r`'s team matches: the pairs grouped by the two teams, each match's boards in team
 * board order, the matches in the FIDE board order, the boards numbered from 1 in that order.
 */
function teamMatchesOf(ctx: TrfContext, r: number, pairs: readonly BoardPairing[]): TeamMatch[] {
  const { file, teamOf } = ctx;
  const teamMatches: TeamMatch[] = [];
  const boardIndex = (rank: number) => file.teams.find((t) => t.team === teamOf.get(rank))?.players.indexOf(rank) ?? 0;
  const groups = new Map<string, BoardPairing[]>();
  for (const b of pairs) {
    const key = [teamOf.get(b.white), teamOf.get(b.black)].sort().join('-');
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  for (const boards of groups.values()) {
    boards.sort((a, b) => Math.min(boardIndex(a.white), boardIndex(a.black)) - Math.min(boardIndex(b.white), boardIndex(b.black)));
    teamMatches.push({ white: teamOf.get(boards[0].white)!, black: teamOf.get(boards[0].black)!, boards });
  }
  teamMatches.sort((a, b) => boardOrder(a.white, a.black, b.white, b.black, (team) => teamMatchPointsBefore(ctx, team, r)));
  let n = 0;
  for (const m of teamMatches) for (const b of m.boards) b.board = ++n;
  return teamMatches;
}

/**
 * FIDE board order for teams: a team's score before round `r` is its match points (team game
 * points compared match by match), its rank its pairing number. Each round's match points are
 * added once per team and kept (ctx.teamMatchPoints), not summed again for every comparison.
 */
function teamMatchPointsBefore(ctx: TrfContext, team: number, r: number): number {
  const before = ctx.teamMatchPoints.get(team) ?? [0];
  ctx.teamMatchPoints.set(team, before);
  for (let q = before.length - 1; q < r; q++) before.push(before[q] + teamMatchPointsIn(ctx, ctx.teamById.get(team)!, q));
  return before[r];
}

/** The match points a team scored in round `q` (0-based): a win, draw or loss against one team, or a team bye. */
function teamMatchPointsIn(ctx: TrfContext, t: TrfFile['teams'][number], q: number): number {
  const { byRank, teamOf, scoring } = ctx;
  const mine = t.players.reduce((s, rank) => s + CODE_POINTS[byRank.get(rank)!.rounds[q]?.code ?? ' '], 0);
  const opponents = new Set(
    t.players
      .map((rank) => byRank.get(rank)!.rounds[q]?.opponent)
      .filter((o): o is number => o !== null && o !== undefined)
      .map((o) => teamOf.get(o)),
  );
  if (opponents.size !== 1) return opponents.size === 0 && mine > 0 ? scoring.byeMatchPoints : 0; // a team bye
  const theirTeam = ctx.teamById.get([...opponents][0]!)!;
  const theirs = theirTeam.players.reduce((s, rank) => s + CODE_POINTS[byRank.get(rank)!.rounds[q]?.code ?? ' '], 0);
  return mine > theirs ? scoring.win : mine === theirs ? scoring.draw : scoring.loss;
}

/** A team whose players all have a bye code had the team's bye in round `r` (record 320 names it too). */
function teamByesOf(ctx: TrfContext, r: number, byes: readonly Bye[]): Bye[] {
  const { file } = ctx;
  const pabTeam = file.pab?.teams[r] ?? 0;
  const teamByes: Bye[] = [];
  for (const t of file.teams) {
    if (t.players.length && t.players.every((p) => byes.some((b) => b.player === p))) {
      teamByes.push({ player: null, team: t.team, kind: byes.find((b) => b.player === t.players[0])!.kind });
    } else if (t.team === pabTeam) {
      throw new TrfImportError(`record 320 gives team ${t.team} the bye in round ${r + 1} but its players' round fields disagree`);
    }
  }
  return teamByes;
}

/**
 * FIDE board order (C.04.2 general handling rules; C.04.1 F.1): the pair whose higher player
 * (more points, then the better rank) has more points first, then the larger sum of both
 * scores, then the better rank of the higher player. `id` is a starting rank or team number.
 */
function boardOrder(aw: number, ab: number, bw: number, bb: number, score: (id: number) => number): number {
  const higher = (x: number, y: number) => (score(x) > score(y) || (score(x) === score(y) && x < y) ? x : y);
  const ha = higher(aw, ab);
  const hb = higher(bw, bb);
  return score(hb) - score(ha) || score(bw) + score(bb) - (score(aw) + score(ab)) || ha - hb;
}

/** One pair of a pairing engine's output: White's and Black's starting ranks; `black` null = the pairing-allocated bye. */
export interface EnginePair {
  board: number;
  white: number;
  black: number | null;
}

/**
 * A pairing engine's pairs file (`-p out.txt` of JaVaFo and bbpPairings): the number of pairs on
 * the first line, then one pair per line, `white black` by starting rank, `0` for the bye, in the
 * engine's board order, which is kept (board 1 is the first pair).
 */
export function parsePairsFile(text: string): EnginePair[] {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) throw new TrfImportError('pairs file: empty (the first line is the number of pairs)');
  if (!/^\d+$/.test(lines[0])) throw new TrfImportError(`pairs file line 1: the number of pairs, got "${lines[0]}"`);
  const count = Number(lines[0]);
  if (lines.length - 1 !== count) throw new TrfImportError(`pairs file: line 1 announces ${count} pairs, ${lines.length - 1} follow`);
  const seen = new Set<number>();
  return lines.slice(1).map((line, i) => {
    const m = /^(\d+)\s+(\d+)$/.exec(line);
    if (!m || Number(m[1]) === 0) throw new TrfImportError(`pairs file line ${i + 2}: "white black" by starting rank (black 0 for the bye), got "${line}"`);
    const white = Number(m[1]);
    const black = Number(m[2]) === 0 ? null : Number(m[2]);
    for (const p of [white, black]) {
      if (p === null) continue;
      if (seen.has(p)) throw new TrfImportError(`pairs file line ${i + 2}: player ${p} is paired twice`);
      seen.add(p);
    }
    return { board: i + 1, white, black };
  });
}

/**
 * An event (from `importTrf`) as a tournament file (docs/tournament.md), ready to write as JSON:
 * `chessclock tournament import-trf FILE` prints it. `loadTournamentFile` reads it back to the
 * same event (trf.test.ts).
 */
export function tournamentFileOf(event: TournamentEvent, hall: { name?: string; site?: string } = {}): Record<string, unknown> {
  const tc = event.timeControl;
  const unequal = formatTimeControl(tc).startsWith('W');
  const timeControl: Record<string, unknown> = unequal
    ? { white: formatSideControl(tc.white), black: formatSideControl(tc.black) }
    : { timeControl: formatTimeControl(tc) };
  if (tc.defaultTimeMs !== null) timeControl.defaultTime = tc.defaultTimeMs / 1000;
  if (tc.incrementTiming !== 'before-move') timeControl.incrementTiming = tc.incrementTiming;
  const drop = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
  const round = (r: TournamentEvent['rounds'][number]) =>
    drop({
      number: r.number,
      date: r.date,
      ...(event.kind === 'team'
        ? {
            teamMatches: r.teamMatches.map((m) => ({
              white: m.white,
              black: m.black,
              boards: m.boards.map((b) => ({ board: b.board, white: b.white, black: b.black })),
            })),
          }
        : { boards: r.boards.map((b) => ({ board: b.board, white: b.white, black: b.black })) }),
      ...(r.byes.length ? { byes: r.byes.map((b) => (b.team !== null ? { team: b.team, kind: b.kind } : { player: b.player, kind: b.kind })) } : {}),
    });
  return drop({
    ...(hall.name || hall.site ? { hall: drop({ name: hall.name, site: hall.site }) } : {}),
    events: [
      drop({
        id: event.id,
        name: event.name,
        city: event.city,
        federation: event.federation,
        startDate: event.startDate,
        endDate: event.endDate,
        chiefArbiter: event.chiefArbiter,
        ...(event.deputyArbiters.length ? { deputyArbiters: event.deputyArbiters } : {}),
        kind: event.kind,
        type: event.type,
        timeControl,
        ...(event.kind === 'team' ? { boardsPerTeam: event.boardsPerTeam, teamScoring: event.teamScoring } : {}),
        plannedRounds: event.plannedRounds,
        players: event.players.map((p) =>
          drop({
            rank: p.rank,
            name: p.name,
            sex: p.sex,
            title: p.title,
            rating: p.rating,
            federation: p.federation,
            fideId: p.fideId,
            birthDate: p.birthDate,
          }),
        ),
        ...(event.kind === 'team' ? { teams: event.teams.map((t) => drop({ id: t.id, name: t.name, nickname: t.nickname, players: t.players })) } : {}),
        rounds: event.rounds.map(round),
      }),
    ],
  });
}

// Reads a FIDE Tournament Report File back by its fixed columns: TRF16 and TRF-2026, which share
// the tournament tags 012-132, the 001 player section and the 013 team record column for column;
// TRF-2026 adds records (tags 142-362; 240 byes, 250 acceleration, 260 forbidden pairings, 299,
// 300, 310/320/330 teams). A file is TRF-2026 when it holds one of those (`version`); every record
// is read by its own identifier either way. Used to check our own exports (round trip), to check
// that listed points equal the results (`checkTrf`), and to import pairings made by a pairing program.
//
// Columns are 1-based and inclusive as the spec writes them; `col(line, 49, 52)` is the rating.
// This file keeps its own column table on purpose: a layout bug in the writer then shows up as
// a disagreement instead of cancelling out.

import { CODE_POINTS, type TrfCode } from '../../domain/standings.ts';
import { FORFEIT_RESULTS, isForfeitResult, listInWords, type ForfeitResult } from '../../../rules/vocabulary.ts';

export class TrfParseError extends Error {
  constructor(
    readonly line: number,
    readonly columns: string,
    message: string,
  ) {
    super(`TRF line ${line}, columns ${columns}: ${message}`);
    this.name = 'TrfParseError';
  }
}

export interface TrfRound {
  /** Opponent's starting rank, or null for 0000/blank (bye, not paired). */
  opponent: number | null;
  colour: 'w' | 'b' | null;
  code: TrfCode;
}

export interface TrfPlayerLine {
  line: number;
  rank: number;
  sex: string;
  title: string;
  name: string;
  rating: number | null;
  federation: string;
  fideId: number | null;
  birthDate: string;
  points: number;
  placement: number | null;
  rounds: TrfRound[];
}

export interface TrfTeamLine {
  line: number;
  team: number;
  name: string;
  nickname: string;
  strength: number | null;
  matchPoints: number;
  gamePoints: number;
  placement: number | null;
  players: number[];
}

export interface TrfForfeitedMatch {
  line: number;
  type: ForfeitResult;
  round: number;
  white: number;
  black: number;
}

/** TRF-2026 record 240: a half-, full- or zero-point bye (`H F Z`) of the players listed, in one round. */
export interface TrfByeRecord {
  line: number;
  kind: 'H' | 'F' | 'Z';
  round: number;
  /** Starting ranks (team numbers in a team event). */
  players: number[];
}

export interface TrfFile {
  /** `TRF-2026` when the file holds a record TRF16 does not have (TRF_2026_RECORDS), else `TRF16`. */
  version: 'TRF16' | 'TRF-2026';
  /** Tournament tags (012 … 222, 352, 362): value from column 5 on, one entry per line. */
  tags: Map<string, string[]>;
  /** Tag 132 round dates (YY/MM/DD), by round. */
  roundDates: string[];
  players: TrfPlayerLine[];
  teams: TrfTeamLine[];
  /** Record 320: match/game points of a pairing-allocated bye and the team that had it per round (0 = none). */
  pab: { line: number; matchPoints: number; gamePoints: number; teams: number[] } | null;
  forfeitedMatches: TrfForfeitedMatch[];
  /** JaVaFo's `XXR n`: the planned number of rounds (tag 142 in TRF-2026). */
  xxr: number | null;
  /** TRF-2026 tag 152 `W`/`B`, else JaVaFo's `XXC white1|black1`: the top player's colour in round 1. */
  initialColour: 'white' | 'black' | null;
  /** TRF-2026 records 240. */
  byes: TrfByeRecord[];
  /** TRF-2026 tag 162: points per result symbol (`W D L A P X`) where the file gives them; empty: the defaults. */
  scoring: Map<string, { line: number; points: number }>;
}

/**
 * Records of TRF-2026 that TRF16 (FIDE C.04 Annex 2, 2016: tags 012-132, 001, 013) does not have:
 * one of them makes a file TRF-2026. JaVaFo's XX? lines are extensions of either.
 */
export const TRF_2026_RECORDS: ReadonlySet<string> = new Set('142 152 162 172 182 192 202 212 222 240 250 260 299 300 310 320 330 352 362 801 802'.split(' '));

const CODES = new Set(Object.keys(CODE_POINTS));

/**
 * The longest line read: a 001 line of 6,500 rounds (92 + 10 columns a round). A longer one is
 * refused at its first column too many rather than read (docs/exports.md "Reading a TRF").
 */
export const MAX_TRF_LINE = 65_536;

/** The 001 line reaches at least the points, columns 81-84 (TRF16; bbpPairings reads 84 columns). */
const PLAYER_LINE_MIN = 84;

/**
 * Columns start..end (1-based, inclusive) of a line, padded with blanks past its end. Only the
 * field is cut and padded (not the whole line): a long line's fields cost their own width each.
 */
export function col(line: string, start: number, end: number): string {
  return line.slice(start - 1, end).padEnd(end - start + 1);
}

function intField(line: string, n: number, start: number, end: number, what: string, blankOk = true): number | null {
  const raw = col(line, start, end).trim();
  if (raw === '') {
    if (blankOk) return null;
    throw new TrfParseError(n, `${start}-${end}`, `${what} is blank`);
  }
  if (!/^\d+$/.test(raw)) throw new TrfParseError(n, `${start}-${end}`, `${what} must be digits, got "${raw}"`);
  return Number(raw);
}

function pointsField(line: string, n: number, start: number, end: number, what: string): number {
  const raw = col(line, start, end).trim();
  if (raw === '') return 0;
  if (!/^\d+(\.\d)?$/.test(raw)) throw new TrfParseError(n, `${start}-${end}`, `${what} must look like "11.5", got "${raw}"`);
  return Number(raw);
}

function parsePlayer(line: string, n: number): TrfPlayerLine {
  const rank = intField(line, n, 5, 8, 'starting rank', false)!;
  if (line.length < PLAYER_LINE_MIN) {
    throw new TrfParseError(
      n,
      `${line.length + 1}-${PLAYER_LINE_MIN}`,
      `player line cut short: it ends at column ${line.length}, before the points at columns 81-84 (TRF16 001 record: name 15-47, rating 49-52, … points 81-84)`,
    );
  }
  const rounds: TrfRound[] = [];
  // Round r: opponent at 92+10(r-1) … +3, colour at +5, result at +7 (TRF16).
  for (let start = 92; start <= line.length; start += 10) {
    const r = (start - 92) / 10 + 1;
    refuseCutRound(line, n, start, r);
    const opponent = intField(line, n, start, start + 3, `round ${r} opponent`);
    const colourRaw = col(line, start + 5, start + 5);
    const codeRaw = col(line, start + 7, start + 7);
    if (!/^[wbWB\- ]$/.test(colourRaw)) throw new TrfParseError(n, `${start + 5}`, `round ${r} colour must be w, b, - or blank, got "${colourRaw}"`);
    const code = (/[a-z]/.test(codeRaw) ? codeRaw.toUpperCase() : codeRaw) as TrfCode; // letter codes are case-insensitive
    if (!CODES.has(code)) throw new TrfParseError(n, `${start + 7}`, `round ${r} result code "${codeRaw}" is not a TRF16 code (1 = 0 + - W D L H F U Z)`);
    const colour = colourRaw.toLowerCase();
    rounds.push({ opponent: opponent === 0 ? null : opponent, colour: colour === 'w' || colour === 'b' ? colour : null, code });
  }
  return {
    line: n,
    rank,
    sex: col(line, 10, 10).trim(),
    title: col(line, 11, 13).trim(),
    name: col(line, 15, 47).trim(),
    rating: intField(line, n, 49, 52, 'rating'),
    federation: col(line, 54, 56).trim(),
    fideId: intField(line, n, 58, 68, 'FIDE id'),
    birthDate: col(line, 70, 79).trim(),
    points: pointsField(line, n, 81, 84, 'points'),
    placement: intField(line, n, 86, 89, 'rank'),
    rounds,
  };
}

/**
 * A round field holds 8 columns, opponent to result (92-99 for round 1; TRF16): one that the
 * line's end cuts after something was written in it is refused, not read as a shorter field.
 * Trailing blanks alone, where a round would start, read as before (a round not paired).
 */
function refuseCutRound(line: string, n: number, start: number, r: number): void {
  if (line.length >= start + 7 || line.slice(start - 1).trim() === '') return;
  throw new TrfParseError(
    n,
    `${line.length + 1}-${start + 7}`,
    `round ${r} is cut off: the line ends at column ${line.length}, inside the round's field ${start}-${start + 7} (opponent ${start}-${start + 3}, colour ${start + 5}, result ${start + 7}; a blank result is written as a blank)`,
  );
}

function parseTeam(line: string, n: number): TrfTeamLine {
  const players: number[] = [];
  // Team players: 74-77, 79-82, … (TRF-2026 record 310), up to 14.
  for (let start = 74; start <= Math.min(line.length, 139); start += 5) {
    const p = intField(line, n, start, start + 3, `team player ${(start - 74) / 5 + 1}`);
    if (p !== null && p !== 0) players.push(p);
  }
  return {
    line: n,
    team: intField(line, n, 5, 7, 'team pairing number', false)!,
    name: col(line, 9, 40).trim(),
    nickname: col(line, 42, 46).trim(),
    strength: intField(line, n, 48, 53, 'strength factor'),
    matchPoints: pointsField(line, n, 55, 60, 'match points'),
    gamePoints: pointsField(line, n, 62, 67, 'game points'),
    placement: intField(line, n, 69, 71, 'team rank'),
    players,
  };
}

export function parseTrf(text: string): TrfFile {
  const file: TrfFile = {
    version: 'TRF16',
    tags: new Map(),
    roundDates: [],
    players: [],
    teams: [],
    pab: null,
    forfeitedMatches: [],
    xxr: null,
    initialColour: null,
    byes: [],
    scoring: new Map(),
  };
  let colourFrom152 = false;
  let xxrLine = 0;
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const n = i + 1;
    if (line.length > MAX_TRF_LINE)
      throw new TrfParseError(
        n,
        `${MAX_TRF_LINE + 1}-${line.length}`,
        `line is ${line.length} characters long; at most ${MAX_TRF_LINE} are read (6,500 rounds of a 001 line)`,
      );
    if (line.trim() === '' || line.startsWith('###')) return; // blank and comment lines (TRF remark 1)
    const id = line.slice(0, 3);
    if (TRF_2026_RECORDS.has(id)) file.version = 'TRF-2026';
    if (id === '001') {
      file.players.push(parsePlayer(line, n));
    } else if (id === '310') {
      file.teams.push(parseTeam(line, n));
    } else if (id === '320') {
      const teams: number[] = [];
      for (let start = 15; start <= line.length; start += 4) teams.push(intField(line, n, start, start + 2, `PAB team, round ${(start - 15) / 4 + 1}`) ?? 0);
      file.pab = { line: n, matchPoints: pointsField(line, n, 5, 8, 'PAB match points'), gamePoints: pointsField(line, n, 10, 13, 'PAB game points'), teams };
    } else if (id === '330') {
      const type = col(line, 5, 6);
      if (!isForfeitResult(type)) throw new TrfParseError(n, '5-6', `forfeit type must be ${listInWords(FORFEIT_RESULTS)}, got "${type}"`);
      file.forfeitedMatches.push({
        line: n,
        type,
        round: intField(line, n, 8, 10, 'round', false)!,
        white: intField(line, n, 12, 14, 'white team', false)!,
        black: intField(line, n, 16, 18, 'black team', false)!,
      });
    } else if (id === 'XXR') {
      const m = /^XXR\s+(\d+)\s*$/.exec(line);
      if (!m || Number(m[1]) < 1) throw new TrfParseError(n, '5-', `XXR must give the number of rounds, got "${line.slice(3).trim()}"`);
      file.xxr = Number(m[1]);
      xxrLine = n;
    } else if (id === '240') {
      file.byes.push(parseBye(line, n));
    } else if (id === '152') {
      const c = line.slice(4).trim();
      if (c !== 'W' && c !== 'B') throw new TrfParseError(n, '5', `tag 152 (initial colour) must be W or B, got "${c}"`);
      file.initialColour = c === 'W' ? 'white' : 'black';
      colourFrom152 = true;
    } else if (id === 'XXC') {
      const c = /\b(white1|black1)\b/.exec(line)?.[1];
      if (c && !colourFrom152) file.initialColour = c === 'white1' ? 'white' : 'black';
    } else if (id === '162') {
      parseScoring(line, n, file.scoring);
    } else if (id === '132') {
      for (let start = 92; start <= line.length; start += 10) file.roundDates.push(col(line, start, start + 7).trim());
    } else if (/^\d\d2$/.test(id)) {
      const values = file.tags.get(id) ?? [];
      values.push(line.slice(4).trimEnd());
      file.tags.set(id, values);
    }
    // Other records (NRS, 013, 172-212, 250, 260, 299, 300, 362, 80x, XX? other than XXR/XXC) are not needed here and are skipped.
  });
  refuseXxrBelowRounds(file, xxrLine);
  return file;
}

/** TRF-2026 record 240: type at 5 (`F H Z`), round 7-9, starting ranks at 11-14, 16-19, … */
function parseBye(line: string, n: number): TrfByeRecord {
  const kind = col(line, 5, 5);
  if (kind !== 'H' && kind !== 'F' && kind !== 'Z') throw new TrfParseError(n, '5', `record 240: the type of bye must be F, H or Z, got "${kind}"`);
  const round = intField(line, n, 7, 9, 'record 240 round', false)!;
  if (round < 1) throw new TrfParseError(n, '7-9', 'record 240: round 0 is not a round');
  const players: number[] = [];
  for (let start = 11; start <= line.length; start += 5) {
    const rank = intField(line, n, start, start + 3, `record 240 player ${(start - 11) / 5 + 1}`, false)!;
    if (rank < 1) throw new TrfParseError(n, `${start}-${start + 3}`, 'record 240: starting rank 0 is no player');
    players.push(rank);
  }
  if (players.length === 0) throw new TrfParseError(n, '11-14', 'record 240 names no player');
  return { line: n, kind, round, players };
}

/** TRF-2026 tag 162: a result symbol at 6, its points at 7-10, the next at 15 / 16-19, … (9 columns each). */
function parseScoring(line: string, n: number, into: TrfFile['scoring']): void {
  for (let start = 6; start <= line.trimEnd().length; start += 9) {
    const symbol = col(line, start, start);
    if (!'WDLAPX'.includes(symbol) || symbol === ' ')
      throw new TrfParseError(n, `${start}`, `tag 162: the result symbol must be W, D, L, A, P or X, got "${symbol}"`);
    into.set(symbol, { line: n, points: pointsField(line, n, start + 1, start + 4, `tag 162 points for ${symbol}`) });
  }
}

/** XXR is the planned total of rounds (JaVaFo): fewer than the round fields a player line carries contradicts the file. */
function refuseXxrBelowRounds(file: TrfFile, xxrLine: number): void {
  if (file.xxr === null) return;
  const longest = file.players.reduce<TrfPlayerLine | undefined>((a, p) => (a === undefined || p.rounds.length > a.rounds.length ? p : a), undefined);
  if (!longest || longest.rounds.length <= file.xxr) return;
  const first = 92 + 10 * file.xxr;
  throw new TrfParseError(
    xxrLine,
    '5-',
    `XXR ${file.xxr} plans ${file.xxr} rounds, but line ${longest.line} carries ${longest.rounds.length} round fields (round ${file.xxr + 1} at columns ${first}-${first + 7}); XXR is the total number of rounds`,
  );
}

export interface TrfProblem {
  line: number;
  columns: string;
  message: string;
}

/**
 * Checks that the points a TRF lists equal its results: each 001 line's points (81-84) against
 * the sum of its round codes (default TRF16 points), and each 310 team's game points (62-67)
 * against the sum of its players' points. Returns the problems (empty = consistent).
 */
export function checkTrf(text: string): TrfProblem[] {
  const file = parseTrf(text);
  const problems: TrfProblem[] = [];
  const byRank = new Map(file.players.map((p) => [p.rank, p]));
  for (const p of file.players) {
    const sum = p.rounds.reduce((s, r) => s + CODE_POINTS[r.code], 0);
    if (sum !== p.points) {
      problems.push({ line: p.line, columns: '81-84', message: `player ${p.rank} lists ${p.points.toFixed(1)} points but the results give ${sum.toFixed(1)}` });
    }
    p.rounds.forEach((r, i) => {
      if (r.opponent === null) return;
      const o = byRank.get(r.opponent);
      const cols = `${92 + 10 * i}-${99 + 10 * i}`;
      if (!o) {
        problems.push({ line: p.line, columns: cols, message: `round ${i + 1}: opponent ${r.opponent} has no 001 line` });
        return;
      }
      const back = o.rounds[i];
      // Paired but not yet played (ITDX: a pairing program's TRF) is blank on both lines.
      const mirror: Record<string, string> = { '1': '0', '0': '1', '=': '=', '+': '-', '-': '+-', W: 'L', L: 'W', D: 'D', ' ': ' ' };
      if (back?.opponent !== p.rank || (mirror[r.code] ?? '').indexOf(back.code) < 0 || back.colour === r.colour) {
        problems.push({ line: p.line, columns: cols, message: `round ${i + 1}: player ${p.rank} vs ${r.opponent} is not mirrored on line ${o.line}` });
      }
    });
  }
  for (const t of file.teams) {
    const sum = t.players.reduce((s, rank) => s + (byRank.get(rank)?.points ?? 0), 0);
    if (sum !== t.gamePoints) {
      problems.push({
        line: t.line,
        columns: '62-67',
        message: `team ${t.team} lists ${t.gamePoints.toFixed(1)} game points but its players have ${sum.toFixed(1)}`,
      });
    }
  }
  return problems;
}

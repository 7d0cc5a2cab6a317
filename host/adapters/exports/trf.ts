// Writes a FIDE Tournament Report File in one of two forms (docs/exports.md "FIDE TRF"):
//
// - TRF-2026 (`'trf26'`, the default): the tournament tags, the 001 player section (the same
//   columns as TRF16), tag 152 (the initial colour, when known), tag 222 (encoded time control,
//   e.g. `40/5400+30:900+30`, armageddon `W360-B300`), records 240 (byes asked for, individual
//   events), and for team events 013 beside 310 (team, match and game points, board order), 320
//   (pairing-allocated byes) and 330 (forfeited matches);
// - TRF16 (`'trf16'`): the form written before TRF-2026, byte for byte: no 152 and no 240.
//
// Both carry the JaVaFo extension lines XXR (planned rounds) and XXC (initial colour), which the
// pairing programs that read only TRF(x) need and TRF-2026 readers skip.
//
// Column layout followed (1-based, inclusive): FIDE Handbook C.04 Annex 2 TRF16, and TRF-2026
// as transcribed in the echecsjs/trf SPEC.md (source handbook.fide.com/files/handbook/TRF26.pdf);
// docs/exports.md lists what is uncertain. Every file written is read back by `checkTrf` and
// refused if the points it lists differ from its results.

import type { RoundRecord } from '../../domain/standings.ts';
import { checkTrf } from './trf-parser.ts';
import type { ForfeitResult } from '../../../rules/vocabulary.ts';

export class TrfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrfError';
  }
}

export interface TrfPlayer {
  rank: number;
  sex: 'm' | 'w' | null;
  title: string | null;
  name: string;
  rating: number | null;
  federation: string | null;
  fideId: number | null;
  birthDate: string | null;
  points: number;
  placement: number;
  rounds: RoundRecord[];
}

/** TRF-2026 (`'trf26'`, the default) or the TRF16 form written before it (`'trf16'`). */
export type TrfFormat = 'trf26' | 'trf16';

/** A bye asked for ahead of its round (TRF-2026 record 240: `H` half-point, `F` full-point, `Z` zero-point). */
export interface TrfRequestedBye {
  kind: 'H' | 'F' | 'Z';
  round: number;
  /** Starting ranks. */
  players: number[];
}

export interface TrfTeam {
  team: number;
  name: string;
  nickname: string | null;
  matchPoints: number;
  gamePoints: number;
  placement: number;
  players: number[];
}

export interface TrfReport {
  name: string;
  city: string | null;
  federation: string | null;
  startDate: string | null;
  endDate: string | null;
  chiefArbiter: string | null;
  deputyArbiters: string[];
  /** Tag 092, free text. */
  type: string | null;
  /** Tag 122, free text ("90 min/40 moves + 15 min, +30 s per move"). */
  timeControlText: string | null;
  /** Tag 222, encoded (`formatTimeControl`). */
  timeControl: string;
  /** Round columns written on each 001 line: the rounds played so far. */
  rounds: number;
  /** Tag 142 and XXR: the rounds the event plans in all (TRF-2026: "number of rounds"; JaVaFo AUM XXR), at least `rounds`. */
  plannedRounds: number;
  /**
   * The colour by lot of the top player in round 1 (the file before round 1 needs it): TRF-2026 tag
   * 152 `W`/`B` and JaVaFo AUM `XXC white1|black1`.
   */
  initialColour?: 'white' | 'black';
  /** TRF-2026 records 240 (individual events): the byes asked for, by round. */
  requestedByes?: TrfRequestedBye[];
  /** YYYY/MM/DD per round (tag 132 writes YY/MM/DD); null = unknown. */
  roundDates: (string | null)[];
  players: TrfPlayer[];
  teams?: TrfTeam[];
  /** Tag 352: colours of the first-named team by board, e.g. "WBWB". */
  teamColourSequence?: string;
  /** Record 320. */
  pab?: { matchPoints: number; gamePoints: number; teams: number[] };
  /** Records 330. */
  /** The forfeit codes are the vocabulary's (rules/vocabulary.ts FORFEIT_RESULTS). */
  forfeitedMatches?: { type: ForfeitResult; round: number; white: number; black: number }[];
}

/** A fixed-column line under construction (1-based, inclusive columns). */
class Line {
  private chars: string[] = [];

  constructor(private readonly what: string) {}

  put(start: number, end: number, value: string | number | null, align: 'left' | 'right' = 'left'): this {
    const width = end - start + 1;
    const text = value === null ? '' : String(value);
    if (text.length > width) throw new TrfError(`${this.what}: "${text}" does not fit columns ${start}-${end} (${width} characters)`);
    const padded = align === 'right' ? text.padStart(width) : text.padEnd(width);
    while (this.chars.length < end) this.chars.push(' ');
    for (let i = 0; i < width; i++) this.chars[start - 1 + i] = padded[i];
    return this;
  }

  /**
   * The record to its last column, trailing blanks kept: a player not paired in the last round
   * ends `0000 - ` with the blank result column (TRF16 positions 92-99 + 10(r-1)), which a
   * pairing program counts (bbpPairings refuses a line that stops after the colour).
   */
  toString(): string {
    return this.chars.join('');
  }
}

/** "11.5" form (one decimal). */
function pts(value: number): string {
  if (Math.round(value * 2) !== value * 2) throw new TrfError(`points ${value} are not a multiple of ½`);
  return value.toFixed(1);
}

function tag(id: string, value: string | null | undefined): string | null {
  return value === null || value === undefined || value === '' ? null : `${id} ${value}`;
}

function yymmdd(date: string | null): string {
  return date === null ? '' : date.slice(2);
}

export function playerLine(p: TrfPlayer): string {
  const l = new Line(`001 line of player ${p.rank}`)
    .put(1, 3, '001')
    .put(5, 8, p.rank, 'right')
    .put(10, 10, p.sex)
    .put(11, 13, p.title, 'right')
    .put(15, 47, p.name)
    .put(49, 52, p.rating, 'right')
    .put(54, 56, p.federation)
    .put(58, 68, p.fideId, 'right')
    .put(70, 79, p.birthDate)
    .put(81, 84, pts(p.points), 'right')
    .put(86, 89, p.placement, 'right');
  p.rounds.forEach((r, i) => {
    const start = 92 + 10 * i; // TRF16: round 1 at 92-99, round 2 at 102-109, …
    l.put(start, start + 3, r.opponent === null ? '0000' : r.opponent, 'right');
    l.put(start + 5, start + 5, r.colour ?? '-');
    l.put(start + 7, start + 7, r.code);
  });
  return l.toString();
}

/** TRF16 record 013 (team section of the TRF16 readers; TRF-2026 keeps it "to be phased out" beside 310). */
export function team013Line(t: TrfTeam): string {
  if (t.players.length > 14) throw new TrfError(`team ${t.team}: record 013 holds at most 14 players`);
  const l = new Line(`013 line of team ${t.team}`).put(1, 3, '013').put(5, 36, t.name.slice(0, 32));
  // Team 1st player 37-40, 2nd 42-45, …, 14th 102-105.
  t.players.forEach((rank, i) => l.put(37 + 5 * i, 40 + 5 * i, rank, 'right'));
  return l.toString();
}

export function teamLine(t: TrfTeam): string {
  if (t.players.length > 14) throw new TrfError(`team ${t.team}: record 310 holds at most 14 players`);
  const l = new Line(`310 line of team ${t.team}`)
    .put(1, 3, '310')
    .put(5, 7, t.team, 'right')
    .put(9, 40, t.name.slice(0, 32))
    .put(42, 46, t.nickname)
    .put(55, 60, pts(t.matchPoints), 'right')
    .put(62, 67, pts(t.gamePoints), 'right')
    .put(69, 71, t.placement, 'right');
  t.players.forEach((rank, i) => l.put(74 + 5 * i, 77 + 5 * i, rank, 'right'));
  return l.toString();
}

const z3 = (n: number) => String(n).padStart(3, '0');

/**
 * TRF-2026 record 240: type at 5, round 7-9, then the starting ranks at 11-14, 16-19, … (one line
 * per round and type; bbpPairings reads as many as follow).
 */
export function byeLine(b: TrfRequestedBye): string {
  const l = new Line(`240 record of round ${b.round}`).put(1, 3, '240').put(5, 5, b.kind).put(7, 9, z3(b.round));
  b.players.forEach((rank, i) => l.put(11 + 5 * i, 14 + 5 * i, rank, 'right'));
  return l.toString();
}

/**
 * The TRF text (CRLF line ends), TRF-2026 unless `format` is `'trf16'`. Throws TrfError when a
 * field does not fit or the listed points disagree with the results.
 */
export function formatTrf(r: TrfReport, format: TrfFormat = 'trf26'): string {
  const trf26 = format === 'trf26';
  let dates: string | null = null;
  if (r.roundDates.some((d) => d !== null)) {
    const l = new Line('132 round dates').put(1, 3, '132');
    r.roundDates.forEach((d, i) => l.put(92 + 10 * i, 99 + 10 * i, yymmdd(d)));
    dates = l.toString();
  }
  const lines: (string | null)[] = [
    tag('012', r.name),
    tag('022', r.city),
    tag('032', r.federation),
    tag('042', r.startDate),
    tag('052', r.endDate),
    tag('062', String(r.players.length)),
    tag('072', String(r.players.filter((p) => (p.rating ?? 0) > 0).length)),
    r.teams ? tag('082', String(r.teams.length)) : null,
    tag('092', r.type),
    tag('102', r.chiefArbiter),
    ...r.deputyArbiters.map((d) => tag('112', d)),
    tag('122', r.timeControlText),
    dates,
    tag('142', String(r.plannedRounds)),
    trf26 && r.initialColour ? tag('152', r.initialColour === 'white' ? 'W' : 'B') : null,
    tag('222', r.timeControl),
    r.teamColourSequence ? tag('352', r.teamColourSequence) : null,
  ];
  if (!Number.isInteger(r.plannedRounds) || r.plannedRounds < r.rounds)
    throw new TrfError(`tag 142: ${r.plannedRounds} planned rounds, fewer than the ${r.rounds} rounds written`);
  // JaVaFo AUM "XXR number": the total a pairing engine needs (bbpPairings reads 142 or XXR).
  lines.push(`XXR ${r.plannedRounds}`);
  if (r.initialColour) lines.push(`XXC ${r.initialColour}1`);
  for (const p of [...r.players].sort((a, b) => a.rank - b.rank)) {
    if (p.rounds.length !== r.rounds) throw new TrfError(`player ${p.rank}: ${p.rounds.length} round records for ${r.rounds} rounds`);
    lines.push(playerLine(p));
  }
  for (const t of r.teams ?? []) lines.push(team013Line(t));
  for (const t of r.teams ?? []) lines.push(teamLine(t));
  if (r.pab && r.pab.teams.some((t) => t !== 0)) {
    const l = new Line('320 record').put(1, 3, '320').put(5, 8, pts(r.pab.matchPoints), 'right').put(10, 13, pts(r.pab.gamePoints), 'right');
    r.pab.teams.forEach((t, i) => l.put(15 + 4 * i, 17 + 4 * i, z3(t)));
    lines.push(l.toString());
  }
  for (const f of r.forfeitedMatches ?? []) lines.push(`330 ${f.type} ${z3(f.round)} ${z3(f.white)} ${z3(f.black)}`);
  if (trf26) for (const b of r.requestedByes ?? []) if (b.players.length) lines.push(byeLine(b));
  const text = lines.filter((l): l is string => l !== null).join('\r\n') + '\r\n';
  const problems = checkTrf(text);
  if (problems.length) {
    throw new TrfError(
      `the TRF's points disagree with its results:\n  ${problems.map((p) => `line ${p.line}, columns ${p.columns}: ${p.message}`).join('\n  ')}`,
    );
  }
  return text;
}

// Writes a FIDE Tournament Report File: the TRF16 tournament tags and player section (001 lines,
// fixed columns) and, for team events, the TRF-2026 team records 310 (team, match and game
// points, board order), 320 (pairing-allocated byes) and 330 (forfeited matches), plus tag 222
// (encoded time control, e.g. `40/5400+30:900+30`, armageddon `W360-B300`).
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
  /** JaVaFo AUM `XXC white1|black1`: the colour by lot of the top player in round 1 (the file before round 1 needs it). */
  initialColour?: 'white' | 'black';
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

/** The TRF text (CRLF line ends). Throws TrfError when a field does not fit or the listed points disagree with the results. */
export function formatTrf(r: TrfReport): string {
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
  const text = lines.filter((l): l is string => l !== null).join('\r\n') + '\r\n';
  const problems = checkTrf(text);
  if (problems.length) {
    throw new TrfError(
      `the TRF's points disagree with its results:\n  ${problems.map((p) => `line ${p.line}, columns ${p.columns}: ${p.message}`).join('\n  ')}`,
    );
  }
  return text;
}

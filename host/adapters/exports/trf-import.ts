// Pairings from a TRF file, as a FIDE-endorsed pairing program writes them (TRF16 player lines;
// TRF-2026 310 team records for team events). The host does not pair: it takes the program's
// pairings round by round. A round's pairings are the 001 round fields that name an opponent
// and a colour; bye codes (H F U Z) with opponent 0000 are byes; blank fields are "not paired".
//
// TRF carries no board numbers: boards are numbered in the order of White's starting rank
// (team events: by match, in board order), which is the order most pairing programs list.

import { isPresetName, readTimeControlSpec, TimeControlError, type TimeControl } from '../../../protocol/time-control.ts';
import { parseTrf, type TrfFile } from './trf-parser.ts';
import { DEFAULT_TEAM_SCORING, type BoardPairing, type Bye, type Round, type TeamMatch, type TournamentEvent } from '../../domain/model.ts';

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
  let tc = options.timeControl;
  const t222 = tag('222');
  if (t222) tc = parseTag222(t222);
  if (!tc) throw new TrfImportError('the TRF has no tag 222 (time control): pass one');
  if (options.defaultTimeMs !== undefined) tc = { ...tc, defaultTimeMs: options.defaultTimeMs };

  const ranks = new Set(file.players.map((p) => p.rank));
  const teamOf = new Map<number, number>();
  for (const t of file.teams) for (const p of t.players) teamOf.set(p, t.team);
  const nRounds = Math.max(0, ...file.players.map((p) => p.rounds.length));
  const rounds: Round[] = [];
  for (let r = 0; r < nRounds; r++) {
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
    const teamMatches: TeamMatch[] = [];
    if (file.teams.length) {
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
      teamMatches.sort((a, b) => Math.min(...a.boards.map((x) => x.white)) - Math.min(...b.boards.map((x) => x.white)));
      let n = 0;
      for (const m of teamMatches) for (const b of m.boards) b.board = ++n;
      // A team whose players all have a bye code had the team's bye (record 320 names it too).
      const pabTeam = file.pab?.teams[r] ?? 0;
      const teamByes: Bye[] = [];
      for (const t of file.teams) {
        if (t.players.length && t.players.every((p) => byes.some((b) => b.player === p))) {
          teamByes.push({ player: null, team: t.team, kind: byes.find((b) => b.player === t.players[0])!.kind });
        } else if (t.team === pabTeam) {
          throw new TrfImportError(`record 320 gives team ${t.team} the bye in round ${r + 1} but its players' round fields disagree`);
        }
      }
      byes.splice(0, byes.length, ...byes.filter((b) => !teamByes.some((tb) => file.teams.find((t) => t.team === tb.team)!.players.includes(b.player!))), ...teamByes);
    } else {
      pairs.sort((a, b) => a.white - b.white);
      pairs.forEach((b, i) => (b.board = i + 1));
    }
    const d = file.roundDates[r];
    rounds.push({
      number: r + 1,
      date: d && /^\d{2}\/\d{2}\/\d{2}$/.test(d) ? `20${d}` : null,
      startUtcMs: null,
      boards: teamMatches.length ? teamMatches.flatMap((m) => m.boards) : pairs,
      teamMatches,
      knockout: [],
      byes,
    });
  }
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
    knockout: null,
    teamScoring: { ...DEFAULT_TEAM_SCORING, ...(file.pab ? { byeMatchPoints: file.pab.matchPoints } : {}) },
  };
}

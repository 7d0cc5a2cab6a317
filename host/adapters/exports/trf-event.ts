// The TRF of one event after a round, from the tournament model and the CONFIRMED results in
// the journal (regenerated after every round). Refuses to write while a result of the
// requested rounds is missing or unconfirmed, naming the board.
//
// Knockout events: one TRF per rating category, because the play-off games are rapid and blitz
// games rated (if at all) in other lists. TRF round columns are then game slots: the classical
// games of knockout round r fill columns 2r-1 and 2r, the rapid play-off games likewise in the
// rapid TRF, and the armageddon of round r column r in the blitz TRF (tag 222 `W360-B300`).

import { category, formatTimeControl, PRESETS, type Category, type TimeControl } from '../../../protocol/time-control.ts';
import type { GameRow, Journal } from '../../store/journal.ts';
import { findEvent, type Hall, type TournamentEvent } from '../../domain/model.ts';
import { eventByes, playerStandings, points, roundRecords, teamStandings, type ScoredGame } from '../../domain/standings.ts';
import { fieldStandings } from '../../domain/board-standings.ts';
import { forfeitResultFor } from '../../../rules/vocabulary.ts';
import { formatTrf, TrfError, type TrfFormat, type TrfReport, type TrfRequestedBye } from './trf.ts';
import { confirmedOrThrow, confirmedRoundGames, fullMoves, RoundNotReadyError } from '../../app/round-games.ts';
import { proposalRecords } from '../../app/proposal-records.ts';
import { roundAbsences } from '../../app/entries.ts';

export interface EventTrfOptions {
  /** Last round to include (default: the event's last round with games in the journal). */
  upToRound?: number;
  /** Knockout events: which games (default 'standard', the classical games). */
  category?: Category;
  /**
   * Written as JaVaFo's `XXC white1` / `XXC black1`: the colour of the top player in round 1, drawn
   * by lot (FIDE C.04.3 Dutch rules: the initial colour). A pairing engine needs it to pair round 1
   * (bbpPairings refuses "Please configure the initial piece colors"); later it reads round 1's colours.
   */
  initialColour?: 'white' | 'black';
  /** TRF-2026 (default) or the TRF16 form (trf.ts). */
  format?: TrfFormat;
}

function utcDate(ms: number | null): string | null {
  if (ms === null) return null;
  const iso = new Date(ms).toISOString(); // formatting a stored time, not reading the clock
  return `${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}`;
}

export function eventTrf(journal: Journal, hall: Hall, eventId: string, options: EventTrfOptions = {}): string {
  const report = eventTrfReport(journal, hall, eventId, options);
  return withNextRoundAbsences(formatTrf(report, options.format), journal, findEvent(hall, eventId), report.rounds);
}

/**
 * The registration TRF (docs/tournament.md "An event with an outside pairing program"): the file
 * before round 1 that a pairing program pairs round 1 from — the players, tag 142 and XXR the
 * planned rounds, 222 the time control, and XXC the colour drawn by lot for the top-ranked player
 * (FIDE C.04.3, the Dutch system's initial colour; bbpPairings refuses round 1 without it). Written
 * whether or not the event has games. The lot is the one already drawn (the tournament file's
 * `pairingEngine.initialColour`, else the host's draw journaled with an engine run of round 1),
 * else `given`, the lot drawn in the hall; none known: refused, saying how to give it.
 */
export function registrationTrf(journal: Journal, hall: Hall, eventId: string, given?: 'white' | 'black', format: TrfFormat = 'trf26'): string {
  const event = findEvent(hall, eventId);
  if (event.kind === 'knockout') throw new TrfError(`event "${event.id}" is a knockout: its matches come from the tournament file, not a pairing program`);
  const drawn = drawnInitialColour(journal, event);
  if (drawn && given && drawn.colour !== given)
    throw new TrfError(`round 1's colours are drawn already: ${drawn.colour} for the top-ranked player (${drawn.where}); ${given} contradicts the lot`);
  const initialColour = given ?? drawn?.colour;
  if (!initialColour) {
    throw new TrfError(
      `the TRF before round 1 needs the colour drawn by lot for the top-ranked player on board 1 (FIDE C.04.3; TRF XXC): give it (chessclock export --initial-colour white|black; the API's initialColour=white|black)`,
    );
  }
  return withNextRoundAbsences(formatTrf(eventTrfReport(journal, hall, event.id, { upToRound: 0, initialColour }), format), journal, event, 0);
}

/** Round 1's lot where one is recorded: the arbiter's in the tournament file, or the host's journaled with an engine run. */
function drawnInitialColour(journal: Journal, event: TournamentEvent): { colour: 'white' | 'black'; where: string } | null {
  const entered = event.pairingEngine?.initialColour;
  if (entered) return { colour: entered, where: 'the tournament file, pairingEngine.initialColour' };
  const run = proposalRecords(journal, event.id).find((r) => r.round === 1 && r.proposal.initialColour);
  return run ? { colour: run.proposal.initialColour!, where: `journal action ${run.id}` } : null;
}

/**
 * The TRF after the last round paired, with the next round's absences (docs/tournament.md
 * "Entries"): a withdrawn player, a requested bye, a late entrant not in yet get that round's field
 * as a bye with no opponent — `0000 - Z` (TRF16 zero-point bye: a known absence), `0000 - H`
 * (half-point bye), `0000 - F` (full-point bye) — the way a pairing program (bbpPairings, JaVaFo)
 * is told not to pair a player in the round it pairs. The points column stays the points before
 * that round. Other TRFs (an earlier round, a team or knockout event) are left as they are.
 */
export function withNextRoundAbsences(trf: string, journal: Journal, event: TournamentEvent, rounds: number): string {
  if (event.kind !== 'individual' || rounds !== event.rounds.length || rounds >= event.plannedRounds) return trf;
  const absent = new Map(roundAbsences(journal, event, rounds + 1).map((a) => [a.rank, a.kind]));
  if (absent.size === 0) return trf;
  const at = 91 + 10 * rounds; // TRF16: round r's field at positions 92-99 + 10(r-1)
  return trf
    .split('\r\n')
    .map((line) => {
      const kind = line.startsWith('001') ? absent.get(Number(line.slice(4, 8))) : undefined;
      return kind ? `${line.padEnd(at)}0000 - ${kind}` : line;
    })
    .join('\r\n');
}

/** The app's refusal (a round not in the journal, a result not confirmed) in the TRF's words. */
function trfRefusal<T>(body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof RoundNotReadyError) throw new TrfError(`cannot write the TRF: ${err.message}`);
    throw err;
  }
}

export function eventTrfReport(journal: Journal, hall: Hall, eventId: string, options: EventTrfOptions = {}): TrfReport {
  const event = findEvent(hall, eventId);
  const all = journal.gamesByEvent(event.id);
  const upTo = options.upToRound ?? Math.max(0, ...all.map((g) => g.round));
  // Asked for explicitly, round 0 is the file before round 1: the players and no round columns, the
  // file a pairing engine pairs round 1 from (their initial ranking). By default an export of an
  // event that has not started is refused, as it says nothing a tournament system needs.
  if (!Number.isInteger(upTo) || upTo < 0 || (upTo === 0 && options.upToRound === undefined))
    throw new TrfError(`event "${event.id}" has no games in the journal yet`);
  if (upTo > event.rounds.length) throw new TrfError(`event "${event.id}" has ${event.rounds.length} rounds, not ${upTo}`);
  const games = all.filter((g) => g.round <= upTo);

  const { scored, rounds, plannedRounds, roundDates, timeControl, presetLabel } =
    event.kind === 'knockout'
      ? knockoutColumns(journal, event, games, upTo, options.category ?? 'standard')
      : {
          scored: trfRefusal(() => confirmedRoundGames(journal, event, upTo)),
          rounds: upTo,
          plannedRounds: event.plannedRounds,
          roundDates: event.rounds.slice(0, upTo).map((r) => r.date),
          timeControl: event.timeControl,
          presetLabel: event.timeControlPreset ? PRESETS[event.timeControlPreset].label : null,
        };

  const byes = event.kind === 'knockout' ? [] : eventByes(event, upTo);
  const records = roundRecords(
    event.players.map((p) => p.rank),
    rounds,
    scored,
    byes,
  );
  // TRF16 rank (001 columns 86-89, FIDE Handbook C.04 Annex 2): the event's official ranking, the
  // same as the print report and GET /api/standings (fieldStandings: points, Buchholz, wins, direct
  // encounter, cut Buchholz; level on all of them: the shared better rank). A knockout's category
  // file has no tie-break ranking (its matches decide): points in that file, ties shared.
  const ranked = event.kind === 'knockout' ? playerStandings(records) : fieldStandings(event, records);
  const placement = new Map(ranked.map((s) => [s.player, s.rank]));
  const report: TrfReport = {
    name: event.name,
    city: event.city,
    federation: event.federation,
    startDate: event.startDate,
    endDate: event.endDate,
    chiefArbiter: event.chiefArbiter,
    deputyArbiters: event.deputyArbiters,
    type: event.type,
    timeControlText: presetLabel,
    timeControl: formatTimeControl(timeControl),
    rounds,
    plannedRounds,
    roundDates,
    ...(options.initialColour ? { initialColour: options.initialColour } : {}),
    players: event.players.map((p) => ({
      ...p,
      points: points(records.get(p.rank)!),
      placement: placement.get(p.rank)!,
      rounds: records.get(p.rank)!,
    })),
  };
  if (event.kind === 'team') addTeamSection(report, event, records, upTo);
  if (event.kind === 'individual') report.requestedByes = requestedByes(event, upTo + 1);
  return report;
}

/**
 * TRF-2026 records 240 of an individual event: its half-, full- and zero-point byes (`H F Z`; the
 * pairing-allocated bye `U` is the pairing's, not asked for) of the rounds written and of the next
 * one, which a pairing program pairs from this file (bbpPairings leaves those players out of it).
 */
function requestedByes(event: TournamentEvent, upTo: number): TrfRequestedBye[] {
  const out: TrfRequestedBye[] = [];
  for (const round of event.rounds.slice(0, upTo)) {
    for (const kind of ['H', 'F', 'Z'] as const) {
      const players = round.byes.filter((b) => b.kind === kind && b.player !== null).map((b) => b.player!);
      if (players.length) out.push({ kind, round: round.number, players: players.sort((a, b) => a - b) });
    }
  }
  return out;
}

/** The round columns of a TRF, their games and dates, and the time control the file names. */
interface TrfColumns {
  readonly scored: ScoredGame[];
  readonly rounds: number;
  /** Tag 142 / XXR: the event's planned rounds, in the columns this file uses. */
  readonly plannedRounds: number;
  readonly roundDates: (string | null)[];
  readonly timeControl: TimeControl;
  readonly presetLabel: string | null;
}

/**
 * A knockout's file of one category (classical, rapid or blitz games): each knockout round has
 * as many columns as the most games of the category a match of the round played, a match's
 * games in its columns in order; a column's date is its first game's end.
 */
function knockoutColumns(journal: Journal, event: TournamentEvent, games: readonly GameRow[], upTo: number, cat: Category): TrfColumns {
  const label = (g: GameRow) => `round ${g.round} board ${g.board}${g.gameNo > 1 ? ` game ${g.gameNo}` : ''}`;
  const inCat = games.filter((g) => category(g.timeControlValue) === cat);
  trfRefusal(() => confirmedOrThrow(inCat, label));
  // Slots per knockout round: the most games of this category any match of the round played.
  const perRound = Math.max(1, ...inCat.map((g) => inCat.filter((h) => h.matchId === g.matchId).length));
  const firstOfMatch = (g: GameRow) => Math.min(...inCat.filter((h) => h.matchId === g.matchId).map((h) => h.gameNo));
  const scored = inCat.map((g) => ({
    round: (g.round - 1) * perRound + (g.gameNo - firstOfMatch(g)) + 1,
    board: g.board,
    white: g.whiteRank!,
    black: g.blackRank!,
    result: g.result!,
    movesPlayed: fullMoves(journal, g),
  }));
  const rounds = upTo * perRound;
  const roundDates = Array.from({ length: rounds }, (_, i) => {
    const ends = inCat.filter((g) => scored[inCat.indexOf(g)].round === i + 1).map((g) => g.endedUtcMs ?? Infinity);
    return ends.length ? utcDate(Math.min(...ends)) : null;
  });
  let timeControl = event.timeControl;
  let presetLabel = event.timeControlPreset ? PRESETS[event.timeControlPreset].label : null;
  if (inCat.length) {
    timeControl = inCat[0].timeControlValue;
    const tc = inCat[0].kind;
    presetLabel = tc in PRESETS ? PRESETS[tc as keyof typeof PRESETS].label : null;
  }
  return { scored, rounds, plannedRounds: event.plannedRounds * perRound, roundDates, timeControl, presetLabel };
}

function addTeamSection(report: TrfReport, event: TournamentEvent, records: ReturnType<typeof roundRecords>, upTo: number): void {
  const standings = teamStandings(event, records, upTo);
  report.teams = standings.map((s) => {
    const t = event.teams.find((x) => x.id === s.team)!;
    return { team: t.id, name: t.name, nickname: t.nickname, matchPoints: s.matchPoints, gamePoints: s.gamePoints, placement: s.rank, players: t.players };
  });
  report.teams.sort((a, b) => a.team - b.team);
  report.teamColourSequence = Array.from({ length: event.boardsPerTeam ?? 4 }, (_, k) => (k % 2 === 0 ? 'W' : 'B')).join('');
  // Record 320: the pairing-allocated bye per round (Ivanovo: 1 match point, ½ per player).
  const pabTeams = event.rounds.slice(0, upTo).map((r) => r.byes.find((b) => b.team !== null)?.team ?? 0);
  const boards = event.boardsPerTeam ?? 4;
  report.pab = { matchPoints: event.teamScoring.byeMatchPoints, gamePoints: event.teamScoring.byePointsPerPlayer * boards, teams: pabTeams };
  // Records 330: a match every board of which one team lost by forfeit.
  report.forfeitedMatches = [];
  for (const s of standings) {
    for (const r of s.rounds) {
      if (!r.forfeited || r.colour !== 'w') continue;
      const opp = standings.find((x) => x.team === r.opponent)!.rounds.find((x) => x.round === r.round)!;
      report.forfeitedMatches.push({ type: forfeitResultFor(opp.forfeited ? 'both' : 'white'), round: r.round, white: s.team, black: r.opponent! });
    }
    for (const r of s.rounds) {
      if (r.colour !== 'b' || !r.forfeited) continue;
      const opp = standings.find((x) => x.team === r.opponent)!.rounds.find((x) => x.round === r.round)!;
      if (!opp.forfeited) report.forfeitedMatches.push({ type: forfeitResultFor('black'), round: r.round, white: r.opponent!, black: s.team });
    }
  }
  report.forfeitedMatches.sort((a, b) => a.round - b.round || a.white - b.white);
}

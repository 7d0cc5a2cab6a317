// The tournament model: what the hall plays. Several events share one hall (the Slovenian
// women's and open finals ran side by side); each event has players (FIDE data as TRF16
// carries it), teams for team events, and rounds of pairings. Pairings come from a file
// (JSON, or TRF from a pairing program) or, round by round, from a pairing engine the host runs
// (docs/tournament.md "Pairing the next round"): this host does not pair, it runs what was paired.

import type { AppealRule } from './appeal.ts';
import type { PresetName, TimeControl } from '../../protocol/time-control.ts';

export type Sex = 'm' | 'w';
export type EventKind = 'individual' | 'knockout' | 'team';

export interface Player {
  /** Starting rank: the player's number in TRF (001 positions 5-8) and in pairings. */
  rank: number;
  /** "Lastname, Firstname" as FIDE lists it. */
  name: string;
  sex: Sex | null;
  title: string | null;
  rating: number | null;
  federation: string | null;
  fideId: number | null;
  /** YYYY/MM/DD (TRF form). */
  birthDate: string | null;
  /** Team id for team events. */
  team: number | null;
}

export interface Team {
  id: number;
  name: string;
  nickname: string | null;
  /** Starting ranks in board order. */
  players: number[];
}

/** One game at one board of the event (event board number, not the hall table). */
export interface BoardPairing {
  board: number;
  white: number;
  black: number;
}

/** A team match: `white` is the team with White on board 1 (FIDE team colours alternate by board). */
export interface TeamMatch {
  white: number;
  black: number;
  /** Event boards this match is played on, in the teams' board order. */
  boards: BoardPairing[];
}

/** TRF16 bye codes: H half-point, F full-point, U pairing-allocated, Z zero-point. */
export type ByeKind = 'H' | 'F' | 'U' | 'Z';

export interface Bye {
  /** An individual bye, or … */
  player: number | null;
  /** … a team bye (Ivanovo: 1 match point, each player ½ point). */
  team: number | null;
  kind: ByeKind;
}

/** A mini-match of an earlier round of the same event, by round and event board. */
export interface MatchRef {
  round: number;
  board: number;
}

/**
 * Who plays in a knockout mini-match: a player by starting rank, or whoever comes out of an
 * earlier match (the Slovenian final 2007 pairs its final from the semifinal winners; the
 * file cannot know them when it is written). The director resolves a reference when it opens
 * the round, from the decided match in the journal.
 */
export type KnockoutEntrant = { rank: number } | { winnerOf: MatchRef } | { loserOf: MatchRef };

/** A knockout mini-match (Slovenian final): colours of game 1 given, or drawn by lot when null. */
export interface KnockoutPairing {
  board: number;
  players: [KnockoutEntrant, KnockoutEntrant];
  /** Starting rank of White in game 1; always null when a player is a reference (then drawn by lot). */
  firstWhite: number | null;
  /** Scheduled starts of the classical games (UTC ms), when the schedule fixes them (Slovenian final art. 4). */
  classicalStartsUtcMs: number[];
}

export interface Round {
  number: number;
  /** YYYY/MM/DD */
  date: string | null;
  /** Scheduled start of the round (UTC ms), when given. */
  startUtcMs: number | null;
  /** All board games of the round (for team events, derived from `teamMatches`). */
  boards: BoardPairing[];
  teamMatches: TeamMatch[];
  knockout: KnockoutPairing[];
  byes: Bye[];
}

export interface KnockoutRules {
  /** Slovenian final art. 3: rapid play-off "half an hour after the game ends". */
  breakBeforeRapidMs: number;
  /** Between the two rapid games. */
  breakBetweenRapidMs: number;
  /** Art. 3: the armageddon is played "immediately" ("takoj"). */
  breakBeforeArmageddonMs: number;
  /**
   * Rehearsals and tests only: colours "by lot" drawn from this seed, so known in advance. Null
   * (the default): a fresh cryptographic draw when the colours are due, journaled (director.ts).
   */
  seed: number | null;
}

export interface TeamScoring {
  /** Ivanovo: match points win 2, draw 1, loss 0 (TRF-2026 tag 362 defaults). */
  win: number;
  draw: number;
  loss: number;
  /** Ivanovo: a team without an opponent gets 1 match point … */
  byeMatchPoints: number;
  /** … and each of its players ½ point. */
  byePointsPerPlayer: number;
}

export interface TournamentEvent {
  id: string;
  name: string;
  city: string | null;
  federation: string | null;
  /** YYYY/MM/DD */
  startDate: string | null;
  endDate: string | null;
  chiefArbiter: string | null;
  deputyArbiters: string[];
  kind: EventKind;
  /** TRF tag 092, free text ("Knockout", "Team Swiss", …). */
  type: string | null;
  timeControl: TimeControl;
  timeControlPreset: PresetName | null;
  rated: boolean;
  /** First hall table of this event: event board b stands at hall table hallFirstTable + b - 1. */
  hallFirstTable: number;
  boardsPerTeam: number | null;
  players: Player[];
  teams: Team[];
  rounds: Round[];
  /**
   * The rounds the regulation plans (Ivanovo: 7), whether or not their pairings are known yet:
   * TRF tag 142 and XXR, which a pairing program reads as the event's total. At least
   * `rounds.length`; the tournament file's `plannedRounds`, else `rounds.length`.
   */
  plannedRounds: number;
  /**
   * A round robin by FIDE's Berger tables (C.05 Annex 1) when the event has this many
   * participants (teams in a team event) or fewer, generated by the director; null: never.
   * Ivanovo: a Swiss of 7 rounds, a round robin with 8 teams or fewer.
   */
  roundRobinUpTo: number | null;
  /** The regulation's appeal window for results (appeal.ts); null: none stated, results never final by time. */
  appeal: AppealRule | null;
  knockout: KnockoutRules | null;
  teamScoring: TeamScoring;
  /**
   * A Swiss event's pairing engine (docs/tournament.md "Pairing the next round"): after each
   * round is confirmed the host runs it on the event's TRF and files its pairings for the
   * arbiter's approval. Absent or null: the rounds come from the file or a loaded TRF.
   */
  pairingEngine?: PairingEngine | null;
  /** The tournament file's `broadcast` block (docs/tournament.md "The broadcast block"); absent or null: none. */
  broadcast?: EventBroadcast | null;
}

/** An event's live broadcast to lichess, as the tournament file maps it (docs/broadcast.md). */
export interface EventBroadcast {
  /** The moves source as written: a PGN file, a folder, or an http(s) URL; null: clocks and results only. */
  moves: string | null;
  /** The delay before anything of a game leaves the hall, in seconds (European rule Q.2.4: 900); 0 = live. */
  delaySeconds: number;
  /** Each round's lichess round(s), by round then first board. */
  rounds: BroadcastRoundTarget[];
}

/** One round (or a range of its boards) pushed to one lichess broadcast round. */
export interface BroadcastRoundTarget {
  round: number;
  /** The lichess round's id, 8 letters or digits. */
  roundId: string;
  /** The event boards pushed there, inclusive; null: the whole round. */
  boards: { from: number; to: number } | null;
}

/**
 * A pairing engine with the JaVaFo / bbpPairings command line: the host runs `command` with
 * `IN.trf -p OUT.txt` appended (`bbpPairings.exe --dutch IN.trf -p OUT.txt`, `java -ea -jar
 * javafo.jar IN.trf -p OUT.txt`), as an argument array, never through a shell.
 */
export interface PairingEngine {
  /** The program and its leading arguments, e.g. `["bbpPairings.exe", "--dutch"]`. */
  command: string[];
  /** How long the engine may run before it is stopped and the run counts as failed. */
  timeoutMs: number;
  /**
   * Round 1's initial colour (the top-ranked player's on board 1) as the arbiter drew it by lot in
   * the hall; absent: the host draws it (crypto) when it pairs round 1.
   */
  initialColour?: 'white' | 'black';
}

export interface Hall {
  name: string | null;
  /** PGN Site: "City FED". */
  site: string | null;
  events: TournamentEvent[];
}

export const DEFAULT_TEAM_SCORING: TeamScoring = { win: 2, draw: 1, loss: 0, byeMatchPoints: 1, byePointsPerPlayer: 0.5 };

export const DEFAULT_KNOCKOUT_RULES: KnockoutRules = {
  breakBeforeRapidMs: 30 * 60_000,
  breakBetweenRapidMs: 0,
  breakBeforeArmageddonMs: 0,
  seed: null,
};

export function findEvent(hall: Hall, id: string): TournamentEvent {
  const event = hall.events.find((e) => e.id === id);
  if (!event) throw new Error(`no event "${id}" (events: ${hall.events.map((e) => e.id).join(', ')})`);
  return event;
}

export function playerByRank(event: TournamentEvent, rank: number): Player {
  const p = event.players.find((x) => x.rank === rank);
  if (!p) throw new Error(`event "${event.id}": no player with starting rank ${rank}`);
  return p;
}

/** How an entrant reads in messages: `3`, `the winner of round 1 board 2`. */
export function describeEntrant(e: KnockoutEntrant): string {
  if ('rank' in e) return `player ${e.rank}`;
  if ('winnerOf' in e) return `the winner of round ${e.winnerOf.round} board ${e.winnerOf.board}`;
  return `the loser of round ${e.loserOf.round} board ${e.loserOf.board}`;
}

export function teamById(event: TournamentEvent, id: number): Team {
  const t = event.teams.find((x) => x.id === id);
  if (!t) throw new Error(`event "${event.id}": no team ${id}`);
  return t;
}

/**
 * C0 and C1 control characters, DEL and the Unicode line and paragraph separators. None belongs
 * in a name: a newline splits a PGN tag line (PGN standard §7 allows printing characters only in
 * a string) and a TRF record (one line each, FIDE TRF16 remark 1).
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** `the control character U+000A at position 7` for the first control character of `value`, or null. */
export function controlCharacterIn(value: string): string | null {
  const m = CONTROL_CHARACTER.exec(value);
  if (!m) return null;
  return `the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position ${m.index + 1}`;
}

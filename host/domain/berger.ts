// Round robin pairings by FIDE's Berger tables (FIDE Handbook C.05, General regulations for
// competitions, Annex 1: "Berger Tables for Round-Robin Tournaments").
//
// For n participants (n even; an odd field adds a dummy n+1, and whoever meets it has the bye),
// numbered 1..n by lot: participant n stays put and 1..n-1 rotate. Round r (1-based) lists
// s = (i + (r-1)·n/2) mod (n-1) + 1 for i = 0..n-2; board 1 is s[0] against n, n having Black in
// odd rounds and White in even ones; board k (2..n/2) is s[k-1] (White) against s[n-k] (Black).
// This reproduces the published tables, e.g. for 6: round 1 1-6, 2-5, 3-4; round 2 6-4, 5-3,
// 1-2; round 3 2-6, 3-1, 4-5; round 4 6-5, 1-4, 2-3; round 5 3-6, 4-2, 5-1 (berger.test.ts holds
// the tables for 4, 6 and 8 as FIDE prints them).
//
// Team events (FIDE C.05 Annex 1 applies to teams as to players; team colours per board as the
// tournament file's: the first-named team has White on boards 1, 3, …): the Berger numbers are
// the teams in the file's order (the organiser lists them in the order drawn by lot), each match
// on boardsPerTeam boards in the teams' board order.

import type { BoardPairing, Bye, Round, TeamMatch, TournamentEvent } from './model.ts';

export interface BergerPair {
  /** Berger number with White. */
  white: number;
  black: number;
}

/** Rounds of a single round robin for `count` participants: `count - 1` rounds (even), `count` (odd). */
export function bergerRoundCount(count: number): number {
  return count % 2 === 0 ? count - 1 : count;
}

/**
 * FIDE Berger table for `count` participants (2 or more): per round, the pairs in board order
 * and, for an odd count, the participant with the bye (who meets the dummy `count + 1`).
 */
export function bergerTable(count: number): { pairs: BergerPair[]; bye: number | null }[] {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`a round robin needs at least 2 participants, got ${count}`);
  const n = count % 2 === 0 ? count : count + 1;
  const rounds: { pairs: BergerPair[]; bye: number | null }[] = [];
  for (let r = 1; r <= n - 1; r++) {
    const s = Array.from({ length: n - 1 }, (_, i) => ((i + (r - 1) * (n / 2)) % (n - 1)) + 1);
    const all: BergerPair[] = [r % 2 === 1 ? { white: s[0], black: n } : { white: n, black: s[0] }];
    for (let k = 2; k <= n / 2; k++) all.push({ white: s[k - 1], black: s[n - k] });
    const dummy = count % 2 === 1 ? n : null;
    const byePair = dummy === null ? undefined : all.find((p) => p.white === dummy || p.black === dummy);
    rounds.push({
      pairs: all.filter((p) => p !== byePair),
      bye: byePair ? (byePair.white === dummy ? byePair.black : byePair.white) : null,
    });
  }
  return rounds;
}

/** Whether the event is played as a round robin: it asks for one (`roundRobinUpTo`) and has that many participants or fewer. */
export function isRoundRobin(event: TournamentEvent): boolean {
  if (event.roundRobinUpTo === null || event.kind === 'knockout') return false;
  return participants(event).length <= event.roundRobinUpTo;
}

/** Berger numbers 1..n: team ids (team events) or starting ranks, in the file's order. */
function participants(event: TournamentEvent): number[] {
  return event.kind === 'team' ? event.teams.map((t) => t.id) : event.players.map((p) => p.rank);
}

/** The round robin's rounds for the event (dates and starts unknown: the file gives none for generated rounds). */
export function roundRobinRounds(event: TournamentEvent): Round[] {
  const ids = participants(event);
  const byNumber = (no: number) => ids[no - 1];
  return bergerTable(ids.length).map(({ pairs, bye }, i) => {
    const number = i + 1;
    const byes: Bye[] = [];
    if (event.kind === 'team') {
      const boardsPerTeam = event.boardsPerTeam ?? 4;
      const team = (id: number) => event.teams.find((t) => t.id === id)!;
      const teamMatches: TeamMatch[] = pairs.map((p, m) => {
        const a = team(byNumber(p.white));
        const b = team(byNumber(p.black));
        const boards: BoardPairing[] = Array.from({ length: boardsPerTeam }, (_, k) => {
          // FIDE team colours: the first-named team has White on boards 1, 3, … (k even).
          const [w, bl] = k % 2 === 0 ? [a, b] : [b, a];
          return { board: m * boardsPerTeam + k + 1, white: w.players[k], black: bl.players[k] };
        });
        return { white: a.id, black: b.id, boards };
      });
      // The team without an opponent: the regulation's bye points (teamScoring; Ivanovo 1 match point, ½ per player).
      if (bye !== null) byes.push({ player: null, team: byNumber(bye), kind: 'U' });
      return { number, date: null, startUtcMs: null, boards: teamMatches.flatMap((m) => m.boards), teamMatches, knockout: [], byes };
    }
    const boards: BoardPairing[] = pairs.map((p, b) => ({ board: b + 1, white: byNumber(p.white), black: byNumber(p.black) }));
    // An individual round robin's free round scores nothing (TRF16 Z, zero-point bye).
    if (bye !== null) byes.push({ player: byNumber(bye), team: null, kind: 'Z' });
    return { number, date: null, startUtcMs: null, boards, teamMatches: [], knockout: [], byes };
  });
}

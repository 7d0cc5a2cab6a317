// The tournament file's rules across its sections, checked once the sections are read: players
// and teams that name each other, rounds numbered in order, knockout references to the matches of
// earlier rounds, and events that share the hall (unique ids, tables that do not overlap).

import { isRoundRobin, roundRobinRounds } from '../berger.ts';
import { describeEntrant, type KnockoutEntrant, type Player, type Round, type Team, type TournamentEvent } from '../model.ts';
import { describeNumbers, type FieldChecker, type Obj } from './field-checker.ts';
import type { PlayerList } from './players.ts';
import type { EntrantRef } from './knockout.ts';

/**
 * A team event: each player in exactly one team, given by the player's `team` or the team's list
 * (which sets it). A player whose team was refused (or who a refused team lists) is not reported
 * again as in no team.
 */
export function linkTeams(
  c: FieldChecker,
  list: PlayerList,
  teams: Team[],
  path: string,
  refused: { refusedTeams: ReadonlySet<unknown>; listedByRefused: ReadonlySet<number> },
): void {
  const ids = new Set<number>();
  const { players, at } = list;
  // A lookup per listed player, not a search; the first player of a rank, as a search would find.
  const byRank = new Map<number, Player>();
  for (const p of players) if (!byRank.has(p.rank)) byRank.set(p.rank, p);
  teams.forEach((t, i) => {
    if (ids.has(t.id)) c.problem(`${path}.teams[${i}].id`, `team id ${t.id} is used twice`);
    ids.add(t.id);
    for (const rank of t.players) {
      const p = byRank.get(rank)!;
      if (p.team !== null && p.team !== t.id) c.problem(`${path}.teams[${i}].players`, `player ${rank} is listed with team ${p.team} too`);
      p.team = t.id;
    }
  });
  players.forEach((p, i) => {
    const where = `${path}.players[${at[i]}].team`;
    if (p.team === null) {
      if (!refused.listedByRefused.has(p.rank)) c.problem(where, `player ${p.rank} is in no team`);
    } else if (!ids.has(p.team) && !refused.refusedTeams.has(p.team)) c.problem(where, `no team ${p.team} (the teams: ${describeNumbers(ids)})`);
  });
}

/** Numbering as written (a round refused for another problem still holds its place). */
export function checkRoundNumbers(c: FieldChecker, rawRounds: readonly unknown[], path: string): void {
  rawRounds.forEach((r, i) => {
    const n = typeof r === 'object' && r !== null ? (r as Obj).number : undefined;
    if (typeof n === 'number' && Number.isInteger(n) && n !== i + 1)
      c.problem(`${path}[${i}].number`, `rounds must be numbered 1, 2, 3 … in order; expected ${i + 1}, got ${n}`);
  });
}

/**
 * The winnerOf/loserOf references of a knockout event: each names a mini-match of an earlier
 * round of the same event, each match outcome is taken once, and no player can turn up twice in
 * one round (e.g. rank 1 in the final against the winner of her own semifinal).
 */
export function checkKnockoutRefs(c: FieldChecker, refs: EntrantRef[], rounds: Round[], rawRounds: readonly unknown[], roundPaths: Map<Round, string>): void {
  const rawRoundCount = rawRounds.length;
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
      sound = false;
      // A match written but refused for another problem (reported already, e.g. its player's rank).
      if (knockoutBoardsWritten(rawRounds, ref.round).has(ref.board)) continue;
      c.problem(where, `round ${ref.round} has no knockout board ${ref.board} (boards ${r.knockout.map((k) => k.board).join(', ') || 'none'})`);
      continue;
    }
    const key = `${kind} ${ref.round}/${ref.board}`;
    if (taken.has(key)) c.problem(where, `${what} is already referenced at ${taken.get(key)}; a match outcome goes to one place`);
    else taken.set(key, where);
  }
  if (sound) checkPlayersOncePerRound(c, rounds, byNumber, roundPaths); // it walks the bracket
}

/** The `board` numbers the file writes in the `knockout` list of its round numbered `round`. */
function knockoutBoardsWritten(rawRounds: readonly unknown[], round: number): Set<unknown> {
  const boards = new Set<unknown>();
  for (const r of rawRounds) {
    const o = typeof r === 'object' && r !== null ? (r as Obj) : undefined;
    if (o?.number !== round || !Array.isArray(o.knockout)) continue;
    for (const k of o.knockout) if (typeof k === 'object' && k !== null) boards.add((k as Obj).board);
  }
  return boards;
}

/**
 * Who an entrant can turn out to be: a starting rank, with the match outcomes that make it so
 * (match id → index of the winner). Two entrants may be the same player only when the same
 * rank comes with outcomes that do not contradict each other.
 */
function checkPlayersOncePerRound(c: FieldChecker, rounds: Round[], byNumber: Map<number, Round>, roundPaths: Map<Round, string>): void {
  type Option = { rank: number; outcomes: Map<string, number> };
  const options = (e: KnockoutEntrant): Option[] => {
    if ('rank' in e) return [{ rank: e.rank, outcomes: new Map() }];
    const ref = 'winnerOf' in e ? e.winnerOf : e.loserOf;
    const k = byNumber.get(ref.round)!.knockout.find((x) => x.board === ref.board)!;
    const id = `${ref.round}/${ref.board}`;
    return k.players.flatMap((p, i) => options(p).map((o) => ({ rank: o.rank, outcomes: new Map([...o.outcomes, [id, 'winnerOf' in e ? i : 1 - i]]) })));
  };
  const consistent = (x: Option, y: Option) => x.rank === y.rank && [...x.outcomes].every(([id, w]) => !y.outcomes.has(id) || y.outcomes.get(id) === w);
  for (const r of rounds) {
    const entrants = r.knockout.flatMap((k, ki) =>
      k.players.map((e, pi) => ({ e, where: `${roundPaths.get(r)}.knockout[${ki}].players[${pi}]`, opts: options(e) })),
    );
    entrants.forEach((y, j) => {
      for (const x of entrants.slice(0, j)) {
        if ('rank' in x.e && 'rank' in y.e) continue; // two ranks: reported while reading the round
        const clash = y.opts.find((oy) => x.opts.some((ox) => consistent(ox, oy)));
        if (clash) {
          c.problem(
            y.where,
            `${describeEntrant(y.e)} and ${describeEntrant(x.e)} (at ${x.where}) may both be player ${clash.rank}; a player plays once per round`,
          );
          break;
        }
      }
    });
  }
}

/**
 * Several events in one hall: unique ids (of every event written, a refused one too), and tables
 * that do not overlap. `at[i]` is the index in the file's list of `events[i]`; `rawIds[j]` the
 * id written at `events[j]`.
 */
export function checkHall(c: FieldChecker, events: TournamentEvent[], at: readonly number[], rawIds: readonly unknown[]): void {
  const ids = new Map<string, number>();
  rawIds.forEach((id, j) => {
    if (typeof id !== 'string') return;
    if (ids.has(id)) c.problem(`events[${j}].id`, `event id "${id}" is also used by events[${ids.get(id)}]`);
    else ids.set(id, j);
  });
  const spans = events.map((e, i) => {
    // A round robin's rounds are generated by the director; its tables are known already.
    const rounds = e.rounds.length === 0 && isRoundRobin(e) ? roundRobinRounds(e) : e.rounds;
    const maxBoard = Math.max(0, ...rounds.flatMap((r) => [...r.boards.map((b) => b.board), ...r.knockout.map((k) => k.board)]));
    return { i: at[i], id: e.id, from: e.hallFirstTable, to: e.hallFirstTable + maxBoard - 1 };
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

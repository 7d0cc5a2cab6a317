// The tournament file's knockout sections: an event's `knockout` rules (the breaks of a
// mini-match's tie-breaks, a rehearsal's seed) and a round's `knockout` mini-matches, whose
// players are starting ranks or the winner or loser of an earlier round's match
// (docs/tournament.md "Later knockout rounds"; the match rule itself is host/domain/knockout.ts).

import { DEFAULT_KNOCKOUT_RULES, describeEntrant, type KnockoutEntrant, type KnockoutPairing, type KnockoutRules, type MatchRef } from '../model.ts';
import { isoUtcMs, show, type FieldChecker, type Obj } from './field-checker.ts';
import type { RoundPairings } from './round-pairings.ts';

/** A `winnerOf`/`loserOf` entrant as written, with where it stands in the file. */
export interface EntrantRef {
  where: string;
  kind: 'winnerOf' | 'loserOf';
  ref: MatchRef;
  /** Number of the round it stands in (undefined when that round's number was bad). */
  inRound: number | undefined;
}

export function parseKnockoutRules(c: FieldChecker, raw: unknown, path: string): KnockoutRules {
  const rules = { ...DEFAULT_KNOCKOUT_RULES };
  if (raw === undefined) return rules;
  const o = c.object(raw, path);
  if (!o) return rules;
  c.unknownKeys(o, ['breakBeforeRapidMinutes', 'breakBetweenRapidMinutes', 'breakBeforeArmageddonMinutes', 'seed'], path);
  const minutes = (key: string): number | undefined => {
    const v = c.int(o, key, path, { optional: true, max: 24 * 60 });
    return v === undefined ? undefined : v * 60_000;
  };
  rules.breakBeforeRapidMs = minutes('breakBeforeRapidMinutes') ?? rules.breakBeforeRapidMs;
  rules.breakBetweenRapidMs = minutes('breakBetweenRapidMinutes') ?? rules.breakBetweenRapidMs;
  rules.breakBeforeArmageddonMs = minutes('breakBeforeArmageddonMinutes') ?? rules.breakBeforeArmageddonMs;
  rules.seed = c.int(o, 'seed', path, { optional: true, max: 2 ** 32 - 1 }) ?? rules.seed;
  return rules;
}

/**
 * The mini-matches of round `inRound` (its `knockout` list, at `path`). The winnerOf/loserOf
 * references go to `refs`, checked once every round is read (checker.ts `checkKnockoutRefs`).
 */
export function parseMiniMatches(
  c: FieldChecker,
  raw: unknown[],
  path: string,
  pairings: RoundPairings,
  refs: EntrantRef[],
  inRound: number | undefined,
): KnockoutPairing[] {
  const knockout: KnockoutPairing[] = [];
  raw.forEach((k, i) => {
    const where = `${path}[${i}]`;
    const ko = c.object(k, where);
    if (!ko) return;
    c.unknownKeys(ko, ['board', 'players', 'firstWhite', 'classicalStarts'], where);
    const board = pairings.useBoard(ko, where);
    const ps = c.array(ko.players, `${where}.players`);
    if (ps && ps.length !== 2) c.problem(`${where}.players`, `a mini-match has exactly 2 players, got ${ps.length}`);
    const entrant = (j: number) => (ps && ps.length === 2 ? parseEntrant(c, ps[j], `${where}.players[${j}]`, pairings, refs, inRound) : undefined);
    const a = entrant(0);
    const b = entrant(1);
    const firstWhite = parseFirstWhite(c, ko, where, a, b);
    const classicalStartsUtcMs = (c.array(ko.classicalStarts, `${where}.classicalStarts`, true) ?? []).map((s, j) => {
      const ms = typeof s === 'string' ? isoUtcMs(s) : NaN;
      if (Number.isNaN(ms)) c.problem(`${where}.classicalStarts[${j}]`, `must be an ISO date-time with offset, got ${show(s)}`);
      return ms;
    });
    if (board !== undefined && a !== undefined && b !== undefined) knockout.push({ board, players: [a, b], firstWhite, classicalStartsUtcMs });
  });
  return knockout;
}

/**
 * A mini-match's player: a starting rank, or { "winnerOf" | "loserOf": { "round", "board" } }
 * for a later knockout round, whose players are known only once the earlier matches are decided.
 */
function parseEntrant(
  c: FieldChecker,
  raw: unknown,
  where: string,
  pairings: RoundPairings,
  refs: EntrantRef[],
  inRound: number | undefined,
): KnockoutEntrant | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const rank = pairings.usePlayer(raw, where);
    return rank === undefined ? undefined : { rank };
  }
  const keys = Object.keys(raw);
  if (keys.length !== 1 || (keys[0] !== 'winnerOf' && keys[0] !== 'loserOf')) {
    return c.problem(
      where,
      `must be a starting rank, { "winnerOf": { "round": R, "board": B } } or { "loserOf": { "round": R, "board": B } }, got ${show(raw)}`,
    );
  }
  const kind = keys[0] as 'winnerOf' | 'loserOf';
  const at = `${where}.${kind}`;
  const ro = c.object((raw as Obj)[kind], at);
  if (!ro) return undefined;
  c.unknownKeys(ro, ['round', 'board'], at);
  const round = c.int(ro, 'round', at, { min: 1, max: 999 });
  const board = c.int(ro, 'board', at, { min: 1, max: 9999 });
  if (round === undefined || board === undefined) return undefined;
  const ref = { round, board };
  refs.push({ where, kind, ref, inRound });
  return kind === 'winnerOf' ? { winnerOf: ref } : { loserOf: ref };
}

/** White in game 1 as the file fixes it; null when absent (drawn by lot). */
function parseFirstWhite(c: FieldChecker, ko: Obj, where: string, a: KnockoutEntrant | undefined, b: KnockoutEntrant | undefined): number | null {
  if (ko.firstWhite === undefined || ko.firstWhite === null) return null;
  // A player refused (reported already, e.g. a rank the players list refused): nothing to compare with.
  if (a === undefined || b === undefined) return null;
  if ((a && !('rank' in a)) || (b && !('rank' in b))) {
    // Slovenian women's final 2007 art. 3: colours of game 1 are drawn; with a player not
    // known in advance the file cannot fix them.
    c.problem(`${where}.firstWhite`, 'must be null or absent when a player is "winnerOf"/"loserOf": the colours of game 1 are then drawn by lot');
  } else if (ko.firstWhite !== (a && 'rank' in a ? a.rank : undefined) && ko.firstWhite !== (b && 'rank' in b ? b.rank : undefined)) {
    c.problem(`${where}.firstWhite`, `must be one of the match's players (${describeEntrant(a)} or ${describeEntrant(b)}), got ${show(ko.firstWhite)}`);
  } else return ko.firstWhite as number;
  return null;
}

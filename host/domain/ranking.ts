// Ranking with an ordered list of criteria (FIDE Handbook C.07, Tie-Break Regulations 2023,
// art. 4.2: rank by the first criterion, move to the next one whenever a tie persists), and
// direct encounter (art. 6), the one criterion that works on the tied group itself. A tie that
// survives the whole list shares the rank: the Ivanovo regulation names no drawing of lots
// (C.07 4.2 allows either, by the tournament's rules).
//
// Generic over what is ranked (teams in standings.ts, players in board-standings.ts): it knows
// nothing of scores, which is why it is not in tie-breaks.ts (over standings.ts's records).

/** One criterion: splits a group that is level so far into ordered subgroups, best first. */
export interface Criterion<T> {
  readonly name: string;
  split(group: readonly T[]): T[][];
  /**
   * A group criterion (C.07 type A, direct encounter) is re-applied to each subgroup it
   * creates (C.07 6.2: "until nothing more resolves"); value criteria need not be.
   */
  readonly regroups?: boolean;
  /** Each participant's value under this criterion within `group` (null: it cannot be computed there), to say what decided a tie. */
  values?(group: readonly T[]): Map<T, number> | null;
}

/**
 * Why a participant stands below the one ranked just above it: the criterion that first told
 * them apart (C.07 4.2) and its value for each. Null for the first participant and for one that
 * shares the rank above (level on every criterion).
 */
export interface Separation {
  readonly criterion: string;
  /** The value of the participant ranked just above. */
  readonly above: number;
  /** This participant's value. */
  readonly value: number;
}

/** A criterion from one number per participant; higher is better unless `lowerIsBetter`. */
export function byValue<T>(name: string, value: (t: T) => number, lowerIsBetter = false): Criterion<T> {
  return {
    name,
    values: (group) => new Map(group.map((t) => [t, value(t)])),
    split(group) {
      const sign = lowerIsBetter ? 1 : -1;
      const sorted = [...group].sort((a, b) => sign * (value(a) - value(b)));
      const out: T[][] = [];
      for (const t of sorted) {
        const last = out[out.length - 1];
        if (last && value(last[0]) === value(t)) last.push(t);
        else out.push([t]);
      }
      return out;
    },
  };
}

/**
 * Ranks `items` by `criteria` in order (C.07 4.2). Returns them best first with a competition
 * rank ("1224"): participants still level after the last criterion share the better rank.
 */
export function rankWithTieBreaks<T>(items: readonly T[], criteria: readonly Criterion<T>[]): { item: T; rank: number; separatedBy: Separation | null }[] {
  const out: { item: T; rank: number; separatedBy: Separation | null }[] = [];
  // The split that put the next participant placed below the last one placed: which criterion, among which group.
  let boundary: { criterion: Criterion<T>; group: readonly T[] } | null = null;
  const place = (group: readonly T[], from: number): void => {
    if (group.length === 0) return;
    if (group.length === 1 || from >= criteria.length) {
      const rank = out.length + 1;
      group.forEach((item, i) => {
        let separatedBy: Separation | null = null;
        if (i === 0 && boundary !== null && out.length > 0) {
          const values = boundary.criterion.values?.(boundary.group) ?? null;
          const above = values?.get(out[out.length - 1].item);
          const value = values?.get(item);
          if (above !== undefined && value !== undefined) separatedBy = { criterion: boundary.criterion.name, above, value };
        }
        out.push({ item, rank, separatedBy });
      });
      boundary = null;
      return;
    }
    const parts = criteria[from].split(group);
    if (parts.length === 1) return place(group, from + 1);
    parts.forEach((part, k) => {
      if (k > 0) boundary = { criterion: criteria[from], group };
      place(part, criteria[from].regroups ? from : from + 1);
    });
  };
  place(items, 0);
  return out;
}

/**
 * C.07 art. 6 direct encounter. `encounters(a, b)` gives a's score in each encounter with b
 * that counts (played; C.07 6.1.1 leaves forfeits out). Several encounters between the same
 * two count as their average (6.1.2). The mini-table decides only when every two of the tied
 * participants met (6.2); otherwise the criterion leaves the group as it is.
 */
export function directEncounter<T>(name: string, encounters: (a: T, b: T) => readonly number[]): Criterion<T> {
  return {
    name,
    regroups: true,
    values: (group) => directEncounterScores(group, encounters),
    split(group) {
      const scores = directEncounterScores(group, encounters);
      if (scores === null) return [[...group]];
      return byValue<T>(name, (t) => scores.get(t)!).split(group);
    },
  };
}

/** Each participant's mini-table score among `group`, or null when two of them did not meet (C.07 6.2). */
export function directEncounterScores<T>(group: readonly T[], encounters: (a: T, b: T) => readonly number[]): Map<T, number> | null {
  const scores = new Map<T, number>(group.map((t) => [t, 0]));
  for (const a of group) {
    for (const b of group) {
      if (a === b) continue;
      const results = encounters(a, b);
      if (results.length === 0) return null;
      scores.set(a, scores.get(a)! + results.reduce((s, x) => s + x, 0) / results.length);
    }
  }
  return scores;
}

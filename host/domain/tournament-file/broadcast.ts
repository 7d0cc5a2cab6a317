// The tournament file's event `broadcast` block (docs/tournament.md "The broadcast block";
// docs/broadcast.md): the event's moves source, the lichess round of each of its rounds (a big
// round split by board ranges over several lichess rounds, as the 2024 Olympiad split its open
// section), and the delay before anything of a game leaves the hall.
//
//   "broadcast": {
//     "moves": "/srv/livechess/open/",          // a PGN file, a folder (ending in /) or an http(s) URL
//     "delay": 900,                             // seconds; default 0
//     "rounds": {
//       "1": "AbCd1234",                        // the whole round to one lichess round
//       "2": [{ "boards": "1-100", "lichess": "EfGh5678" }, { "boards": "101-200", "lichess": "IjKl9012" }]
//     }
//   }

import type { BroadcastRoundTarget, EventBroadcast } from '../model.ts';
import { show, type FieldChecker, type Obj } from './field-checker.ts';

/** A lichess broadcast round's id: the 8 letters or digits at the end of the round's URL. */
export const LICHESS_ROUND_ID = /^[A-Za-z0-9]{8}$/;
/** A day: a delay longer than that is a typing mistake, not a regulation. */
export const MAX_BROADCAST_DELAY_S = 24 * 60 * 60;

const BLOCK_KEYS = ['moves', 'delay', 'rounds'] as const;
const PART_KEYS = ['boards', 'lichess'] as const;

/** The event's broadcast, or null when the event has no `broadcast` block (or it is wrong: each problem recorded). */
export function parseBroadcast(c: FieldChecker, raw: unknown, path: string, plannedRounds: number): EventBroadcast | null {
  if (raw === undefined) return null;
  const o = c.object(raw, path);
  if (!o) return null;
  const before = c.issues.length;
  c.unknownKeys(o, BLOCK_KEYS, path);
  const moves = c.string(o, 'moves', path, true) ?? null;
  if (moves !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(moves) && !/^https?:\/\/[^/\s]+/i.test(moves))
    c.problem(`${path}.moves`, `a URL must be http(s)://HOST/…, got ${show(moves)}`);
  const delaySeconds = c.int(o, 'delay', path, { optional: true, min: 0, max: MAX_BROADCAST_DELAY_S }) ?? 0;
  const rounds = parseRoundMap(c, o, `${path}.rounds`, plannedRounds);
  return c.issues.length > before ? null : { moves, delaySeconds, rounds };
}

function parseRoundMap(c: FieldChecker, o: Obj, path: string, plannedRounds: number): BroadcastRoundTarget[] {
  if (o.rounds === undefined) return [];
  const map = c.object(o.rounds, path);
  if (!map) return [];
  const targets: BroadcastRoundTarget[] = [];
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(map)) {
    const at = `${path}.${key}`;
    const round = /^[1-9]\d*$/.test(key) ? Number(key) : NaN;
    if (!Number.isSafeInteger(round)) {
      c.problem(at, `a round is named by its number "1", "2", …, got ${show(key)}`);
      continue;
    }
    if (round > plannedRounds) c.problem(at, `round ${round} is past the event's ${plannedRounds} planned rounds (plannedRounds, or the rounds listed)`);
    for (const part of parseRoundParts(c, value, at, round)) {
      const [id, where] = [part.roundId.toLowerCase(), part.at];
      const earlier = seen.get(id);
      // lichess keeps one round's games by its id: two parts pushed to one id would overwrite each other.
      if (earlier) c.problem(where, `lichess round ${part.roundId} is already used by ${earlier}`);
      else seen.set(id, where);
      targets.push(part.target);
    }
  }
  return targets.sort((a, b) => a.round - b.round || (a.boards?.from ?? 0) - (b.boards?.from ?? 0));
}

interface Part {
  target: BroadcastRoundTarget;
  roundId: string;
  at: string;
}

/** `"AbCd1234"` (the whole round), or `[{ "boards": "1-100", "lichess": "AbCd1234" }, …]` (board ranges, not overlapping). */
function parseRoundParts(c: FieldChecker, value: unknown, at: string, round: number): Part[] {
  if (typeof value === 'string') {
    const id = roundId(c, value, at);
    return id ? [{ target: { round, roundId: id, boards: null }, roundId: id, at }] : [];
  }
  if (!Array.isArray(value)) {
    c.problem(at, `must be a lichess round id "AbCd1234" or a list [{ "boards": "1-100", "lichess": "AbCd1234" }, …], got ${show(value)}`);
    return [];
  }
  if (value.length === 0) c.problem(at, 'an empty list: give at least one lichess round');
  const parts: Part[] = [];
  value.forEach((item, i) => {
    const p = `${at}[${i}]`;
    const o = c.object(item, p);
    if (!o) return;
    c.unknownKeys(o, PART_KEYS, p);
    const boards = c.string(o, 'boards', p);
    const range = boards === undefined ? undefined : boardRange(c, boards, `${p}.boards`);
    const lichess = c.string(o, 'lichess', p);
    const id = lichess === undefined ? undefined : roundId(c, lichess, `${p}.lichess`);
    if (!range || !id) return;
    const overlap = parts.find((q) => q.target.boards!.from <= range.to && range.from <= q.target.boards!.to);
    if (overlap) {
      const b = overlap.target.boards!;
      c.problem(`${p}.boards`, `boards ${range.from}-${range.to} overlap boards ${b.from}-${b.to} of ${overlap.at.replace(/\.lichess$/, '')}`);
      return;
    }
    parts.push({ target: { round, roundId: id, boards: range }, roundId: id, at: `${p}.lichess` });
  });
  return parts;
}

function roundId(c: FieldChecker, value: string, at: string): string | undefined {
  if (LICHESS_ROUND_ID.test(value)) return value;
  return c.problem(at, `a lichess round id is the 8 letters or digits at the end of the round's URL, got ${show(value)}`);
}

function boardRange(c: FieldChecker, text: string, at: string): { from: number; to: number } | undefined {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  const [from, to] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || from < 1 || to < from) return c.problem(at, `must be a range of boards "FROM-TO" with 1 ≤ FROM ≤ TO, e.g. "1-100", got ${show(text)}`);
  // lichess takes up to 100 games per push; a bigger range goes out in several pushes to the same round.
  return { from, to };
}

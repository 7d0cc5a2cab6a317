// The tournament file's event `players`: each player's fields in the widths TRF16 can hold,
// and starting ranks used once.

import type { Player } from '../model.ts';
import { didYouMean, show, type FieldChecker } from './field-checker.ts';

const PLAYER_KEYS = ['rank', 'name', 'sex', 'title', 'rating', 'federation', 'fideId', 'birthDate', 'team'] as const;

/** An event's players as read from its `players` list. */
export interface PlayerList {
  players: Player[];
  /** Each starting rank, with the index in the file's list of its (first) player. */
  ranks: Map<number, number>;
  /** The index in the file's list of each player read (players[i] stands at `players[at[i]]`). */
  at: number[];
  /**
   * The ranks written for players refused (reported already): a round or a team that names
   * such a rank reports nothing more, so the one mistake is said once.
   */
  refusedRanks: Set<unknown>;
}

export function parsePlayers(c: FieldChecker, raw: unknown, path: string): PlayerList {
  const players: Player[] = [];
  const at: number[] = [];
  const refusedRanks = new Set<unknown>();
  (c.array(raw, path) ?? []).forEach((p, i) => {
    const player = parsePlayer(c, p, `${path}[${i}]`);
    if (player) players.push(player);
    if (player) at.push(i);
    else if (typeof p === 'object' && p !== null) for (const r of writtenAs((p as Record<string, unknown>).rank)) refusedRanks.add(r);
  });
  const ranks = new Map<number, number>();
  players.forEach((p, i) => {
    if (ranks.has(p.rank)) c.problem(`${path}[${at[i]}].rank`, `starting rank ${p.rank} is also used by players[${ranks.get(p.rank)}]`);
    else ranks.set(p.rank, at[i]);
  });
  return { players, ranks, at, refusedRanks };
}

/** One player read (a late entry in a running host reads its fields here too: host/app/entries.ts). */
export function parsePlayer(c: FieldChecker, raw: unknown, path: string): Player | undefined {
  const o = c.object(raw, path);
  if (!o) return undefined;
  c.unknownKeys(o, PLAYER_KEYS, path);
  const rank = c.int(o, 'rank', path, { min: 1, max: 9999 });
  const name = c.string(o, 'name', path);
  if (name !== undefined && name.length > 33) c.problem(`${path}.name`, `longer than the 33 characters TRF16 allows (positions 15-47)`);
  const sex = c.string(o, 'sex', path, true);
  if (sex !== undefined && sex !== 'm' && sex !== 'w')
    c.problem(`${path}.sex`, `must be "m" or "w" (TRF16 position 10), got ${show(sex)}${didYouMean(sex, ['m', 'w'])}`);
  const title = c.string(o, 'title', path, true);
  if (title !== undefined && title.length > 3) c.problem(`${path}.title`, `at most 3 characters (TRF16 positions 11-13), got ${show(title)}`);
  const federation = c.string(o, 'federation', path, true);
  if (federation !== undefined && !/^[A-Z]{3}$/.test(federation)) c.problem(`${path}.federation`, `must be a 3-letter FIDE code, got ${show(federation)}`);
  const rating = c.int(o, 'rating', path, { optional: true, max: 9999 });
  const fideId = c.int(o, 'fideId', path, { optional: true, min: 1, max: 99_999_999_999 });
  const team = c.int(o, 'team', path, { optional: true, min: 1 });
  const birthDate = c.date(o, 'birthDate', path);
  // A player whose rank and name were read is kept even with other problems (reported above,
  // so the file is refused): the rounds that pair the player then report nothing false.
  if (rank === undefined || name === undefined) return undefined;
  return {
    rank,
    name,
    sex: (sex as Player['sex']) ?? null,
    title: title ?? null,
    rating: rating ?? null,
    federation: federation ?? null,
    fideId: fideId ?? null,
    birthDate,
    team: team ?? null,
  };
}

/** A number as written, and as the number a quoted one means (`"3"` is the rank 3 the rounds name). */
export function writtenAs(v: unknown): unknown[] {
  return typeof v === 'string' && /^\d+$/.test(v.trim()) ? [v, Number(v)] : [v];
}

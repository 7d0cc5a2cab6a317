// Journal rows in the words of the host's ports (ports.ts): what the live feed, the API and
// the MQTT outbox hook (adapters/mqtt/journal-topics.ts) hand on. Lives with the host's use
// cases so that no adapter is imported from below (docs/architecture.md, "Inside host/").
import { SIDES, type Side } from '../../rules/vocabulary.ts';
import type { ClockEventRow } from '../store/types.ts';
import type { ClockEventRecord, LiveClockState } from './ports.ts';

/**
 * A board's live state drafted by the host with a fact that is not a clock event (a result
 * entered, corrected, confirmed or reported: `Journal.enqueue('board-state', …)`), in the
 * fact's own transaction: the retained `state` says `finished` even when no clock event follows.
 */
export interface BoardStateDraft {
  readonly event: string;
  readonly round: number;
  readonly board: number;
  readonly live: LiveClockState;
}

/** A journal event row as the clock event record published on MQTT; null when it belongs to no game. */
export function recordFromJournalRow(row: ClockEventRow): ClockEventRecord | null {
  if (row.event === null || row.round === null || row.board === null) return null;
  return {
    clockId: row.clockId,
    bootId: row.bootId,
    seq: row.seq,
    event: row.event,
    round: row.round,
    board: row.board,
    type: row.type,
    side: row.side,
    move: row.move,
    whiteMs: row.whiteMs,
    blackMs: row.blackMs,
    monoMs: row.monoMs,
    utcMs: row.utcMs,
    uncertaintyMs: row.uncertaintyMs,
    detail: row.detail,
    journalSeq: row.id,
  };
}

/**
 * The sides a game's clock forfeited on lateness (FIDE Laws 6.7.1), White first. The clock
 * reports one `forfeit` event per absent side: with both absent at the default time, two
 * (White's, then Black's). A side that moved was at the board, and a forfeit the arbiter
 * overruled (`reinstated`, Laws 6.7.1 "unless the arbiter decides otherwise") no longer counts.
 */
export function forfeitedSides(events: readonly ClockEventRow[]): Side[] {
  const lastReinstated = events.findLastIndex((e) => e.type === 'reinstated');
  const standing = events.slice(lastReinstated + 1).filter((e) => e.type === 'forfeit');
  return SIDES.filter((side) => standing.some((e) => e.side === side) && !events.some((e) => e.type === 'moved' && e.side === side));
}

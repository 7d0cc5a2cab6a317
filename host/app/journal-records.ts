// Journal rows in the words of the host's ports (ports.ts): what the live feed, the API and
// the MQTT outbox hook (adapters/mqtt/journal-topics.ts) hand on. Lives with the host's use
// cases so that no adapter is imported from below (docs/architecture.md, "Inside host/").
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


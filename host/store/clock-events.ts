// The `clock_events` table: every press and every other event a clock reported, keyed by
// (clock, boot, seq) and numbered by row id in journal order (the feed's, the API's and MQTT's
// `journalSeq`). Rows are made ready by the sequencer (event-sequencer.ts) and inserted here or
// on the writer thread (writer-thread.ts); what a batch still being written holds is read
// nowhere (`visible`: docs/host.md "The journal's writer thread").
import type { Side } from '../../protocol/time-control.ts';
import type { JournalConnection } from './connection.ts';
import { parseJson, type Row } from './fields.ts';
import type { ClockEventRow, ClockEventType } from './types.ts';

/** A prepared event's values in the order the writer thread inserts them (writer-worker.mjs). */
export const EVENT_COLUMNS = [
  'id',
  'clockId',
  'bootId',
  'seq',
  'gameId',
  'event',
  'round',
  'board',
  'type',
  'side',
  'move',
  'whiteMs',
  'blackMs',
  'monoMs',
  'utcMs',
  'uncertaintyMs',
  'detail',
] as const;

export function toEvent(r: Row): ClockEventRow {
  return {
    id: r.id as number,
    clockId: r.clock_id as string,
    bootId: r.boot_id as string,
    seq: r.seq as number,
    gameId: (r.game_id as number | null) ?? null,
    event: (r.event as string | null) ?? null,
    round: (r.round as number | null) ?? null,
    board: (r.board as number | null) ?? null,
    type: r.type as ClockEventType,
    side: (r.side as Side | null) ?? null,
    move: (r.move as number | null) ?? null,
    whiteMs: r.white_ms as number,
    blackMs: r.black_ms as number,
    monoMs: r.mono_ms as number,
    utcMs: r.utc_ms as number,
    uncertaintyMs: r.uncertainty_ms as number,
    detail: parseJson(r.detail) as Record<string, unknown> | null,
  };
}

/** Which events a page of the API lists (`ClockEvents.eventIdPage`); a filter left out or null lists all. */
export interface EventPageFilter {
  /** Row ids after this one. */
  readonly after: number;
  readonly limit: number;
  readonly event?: string | null;
  readonly round?: number | null;
  readonly board?: number | null;
  readonly clockId?: string | null;
}

/** Events of one game in play order: boots by first appearance in UTC, then seq within a boot. */
const ORDERED_EVENTS = `
  SELECT e.* FROM clock_events e
  JOIN (SELECT clock_id, boot_id, MIN(utc_ms) AS boot_start FROM clock_events
        WHERE game_id = @gameId AND id <= @visible GROUP BY clock_id, boot_id) b
    ON b.clock_id = e.clock_id AND b.boot_id = e.boot_id
  WHERE e.game_id = @gameId AND e.id <= @visible`;

export class ClockEvents {
  private readonly insertEvent;
  private readonly maxEventId;
  private readonly eventIdByKey;
  private readonly maxSeqOfBoot;
  private readonly gameHasStart;
  private readonly gameHasPlay;
  private readonly eventsOfGame;
  private readonly lastEventOfGame;
  private readonly eventsAfterId;
  private readonly idPage;
  private readonly headId;

  constructor(
    conn: JournalConnection,
    /** The newest event id this thread may show: below a batch the writer thread is still committing. */
    private readonly visible: () => number,
  ) {
    // The id is numbered before the insert (EventSequencer) and duplicates are found before it, so
    // a conflict here is another connection's write: the batch fails whole.
    this.insertEvent = conn.prepare(`
      INSERT INTO clock_events (id, clock_id, boot_id, seq, game_id, event, round, board, type, side, move,
        white_ms, black_ms, mono_ms, utc_ms, uncertainty_ms, detail)
      VALUES (@id, @clockId, @bootId, @seq, @gameId, @event, @round, @board, @type, @side, @move,
        @whiteMs, @blackMs, @monoMs, @utcMs, @uncertaintyMs, @detail)`);
    this.maxEventId = conn.prepare('SELECT COALESCE(MAX(id), 0) FROM clock_events').pluck();
    this.eventIdByKey = conn.prepare('SELECT id FROM clock_events WHERE clock_id = ? AND boot_id = ? AND seq = ?');
    this.maxSeqOfBoot = conn.prepare('SELECT MAX(seq) FROM clock_events WHERE clock_id = ? AND boot_id = ?').pluck();
    this.gameHasStart = conn.prepare(`SELECT 1 FROM clock_events WHERE game_id = ? AND type = 'started' LIMIT 1`);
    this.gameHasPlay = conn.prepare(`SELECT 1 FROM clock_events WHERE game_id = ? AND type IN ('started', 'moved') LIMIT 1`);
    this.eventsOfGame = conn.prepare(`${ORDERED_EVENTS} ORDER BY b.boot_start, e.clock_id, e.boot_id, e.seq`);
    this.lastEventOfGame = conn.prepare(`${ORDERED_EVENTS} ORDER BY b.boot_start DESC, e.clock_id DESC, e.boot_id DESC, e.seq DESC LIMIT 1`);
    this.eventsAfterId = conn.prepare('SELECT * FROM clock_events WHERE id > ? AND id <= ? ORDER BY id LIMIT ?');
    // Filtered paging by row id over the (event, round, board, id) index.
    this.idPage = conn.prepare(`
      SELECT id FROM clock_events
      WHERE id > @after
        AND (@event IS NULL OR event = @event) AND (@round IS NULL OR round = @round)
        AND (@board IS NULL OR board = @board) AND (@clockId IS NULL OR clock_id = @clockId)
        AND id <= @visible
      ORDER BY id LIMIT @limit`);
    this.headId = conn.prepare('SELECT COALESCE(MAX(id), 0) AS head FROM clock_events WHERE id <= ?');
  }

  /** Stores a row the sequencer made (its named values, `EVENT_COLUMNS`), inside the caller's transaction. */
  insert(params: Row): void {
    this.insertEvent.run(params);
  }

  /** The id the next event gets: one above the highest the file holds now. */
  nextId(): number {
    return (this.maxEventId.get() as number) + 1;
  }

  /** The stored id of (clock, boot, seq), if it is stored. */
  idOf(clockId: string, bootId: string, seq: number): number | undefined {
    return (this.eventIdByKey.get(clockId, bootId, seq) as { id: number } | undefined)?.id;
  }

  /** The highest seq stored of a clock boot; -1 when it has none. */
  highestSeq(clockId: string, bootId: string): number {
    return (this.maxSeqOfBoot.get(clockId, bootId) as number | null) ?? -1;
  }

  /** Whether the game has a `started` event stored. */
  hasStart(gameId: number): boolean {
    return this.gameHasStart.get(gameId) !== undefined;
  }

  /** Whether the game has a `started` or `moved` event stored. */
  hasPlay(gameId: number): boolean {
    return this.gameHasPlay.get(gameId) !== undefined;
  }

  /** Events of a game in play order (boot by boot, seq within a boot). */
  eventsByGame(gameId: number): ClockEventRow[] {
    return (this.eventsOfGame.all({ gameId, visible: this.visible() }) as Row[]).map(toEvent);
  }

  /** The last event of a game in play order. */
  lastOfGame(gameId: number): ClockEventRow | null {
    const r = this.lastEventOfGame.get({ gameId, visible: this.visible() }) as Row | undefined;
    return r ? toEvent(r) : null;
  }

  /** Events in journal (arrival) order after row id `afterId`: for feeds that resume from a cursor. */
  eventsAfter(afterId: number, limit = 1000): ClockEventRow[] {
    return (this.eventsAfterId.all(afterId, this.visible(), limit) as Row[]).map(toEvent);
  }

  /** The ids of a page of events in journal order, filtered by board and clock (the API's event pages). */
  eventIdPage(f: EventPageFilter): number[] {
    const rows = this.idPage.all({
      after: f.after,
      event: f.event ?? null,
      round: f.round ?? null,
      board: f.board ?? null,
      clockId: f.clockId ?? null,
      visible: this.visible(),
      limit: f.limit,
    }) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /** The newest event id the journal shows (0 when none): only what the host knows durable, not a batch being committed. */
  headEventId(): number {
    return (this.headId.get(this.visible()) as { head: number }).head;
  }
}

// The sequencer: makes each clock event ready to store, on the event loop, whichever thread
// then commits it (docs/host.md "The journal's writer thread": the event loop is the one
// sequencer). It validates the event, finds its game, looks for a duplicate (stored, or earlier
// in the batch), numbers it and drafts its outbox row. It writes nothing: event-appends.ts
// stores what it prepared, on this connection or on the writer thread.
import type { Side } from '../../protocol/time-control.ts';
import type { ClockEvents } from './clock-events.ts';
import { int, json, JournalError, optInt, parseJson, text, type Row } from './fields.ts';
import { endOf, type Games } from './games.ts';
import type { Outbox, OutboxTuple } from './outbox.ts';
import { CLOCK_EVENT_TYPES, type AppendResult, type ClockEventInput, type ClockEventType, type GameRow } from './types.ts';

const EVENT_TYPES = new Set<string>(CLOCK_EVENT_TYPES);

/** One clock event of a batch for `appendInBackground`; `group` is its clock (its session). */
export interface BackgroundAppend {
  readonly event: ClockEventInput;
  /** Events of one group keep their order: after one is refused, the group's later ones of the batch are too. */
  readonly group?: unknown;
}

/** What a batch being prepared (or written) adds to what the file says (see `prepareEvent`). */
export interface BatchOverlay {
  nextId: number;
  /** clockId/bootId/seq → row id of the events of this batch (a resend within the batch is a duplicate). */
  readonly keys: Map<string, number>;
  /** Games with a `started` event in this batch. */
  readonly started: Set<number>;
  /** Games with a `started` or `moved` event in this batch (Journal.gameStarted). */
  readonly played: Set<number>;
  /** clockId/bootId → the highest seq of this batch's new events (the sequencer's `seqHigh` once committed). */
  readonly highs: Map<string, number>;
}

/** One clock event made ready to store: `params` null for a duplicate (nothing to store). */
export interface PreparedEvent {
  readonly result: AppendResult;
  readonly params: Row | null;
  readonly outbox: OutboxTuple | null;
}

export class EventSequencer {
  /**
   * The highest seq stored per clock boot (`clockId\0bootId`): read from the file once per boot,
   * raised when a batch is committed. An event beyond it is new without a lookup (the duplicate
   * lookup was 3% of the host's event loop at 1,000 presses/s); one at or below it is looked up
   * (a resend, or a seq refused earlier). Forgotten whenever a write fails (another connection
   * may have written those seqs): the lookups run again.
   */
  private readonly seqHigh = new Map<string, number>();

  constructor(
    private readonly events: ClockEvents,
    private readonly games: Games,
    private readonly outbox: Outbox,
    /** Draft an outbox row for every new clock event (JournalOptions.outboxEvents). */
    private readonly outboxEvents: boolean,
  ) {}

  /** A batch's overlay, numbered from what the file holds now. */
  newBatch(): BatchOverlay {
    return { nextId: this.events.nextId(), keys: new Map(), started: new Set(), played: new Set(), highs: new Map() };
  }

  /** A batch is committed: its seqs are stored. */
  committed(overlay: BatchOverlay): void {
    for (const [boot, seq] of overlay.highs) if (seq > (this.seqHigh.get(boot) ?? -1)) this.seqHigh.set(boot, seq);
  }

  /** A write failed: what this thread knew of the stored seqs may be wrong. */
  forget(): void {
    this.seqHigh.clear();
  }

  /** Prepares every item; one refused for its content is an Error, with its group's later items. */
  prepareAll(items: readonly BackgroundAppend[], overlay: BatchOverlay): (PreparedEvent | Error)[] {
    const refused = new Map<unknown, Error>();
    return items.map(({ event, group }) => {
      const earlier = group === undefined ? undefined : refused.get(group);
      if (earlier) return new JournalError(`not journaled: an earlier event of the same clock in the batch was refused (${earlier.message})`);
      try {
        return this.prepareEvent(event, overlay);
      } catch (err) {
        if (group !== undefined) refused.set(group, err as Error);
        return err as Error;
      }
    });
  }

  /**
   * Validates one clock event and makes its row: its game, its id (the next of the batch), a
   * duplicate's earlier id (in the file or in this batch), its outbox row. Writes nothing.
   */
  prepareEvent(e: ClockEventInput, overlay: BatchOverlay): PreparedEvent {
    // Made only for an error message: every event would otherwise pay for three JSON texts.
    const where = () => `clock event ${JSON.stringify(e?.clockId)}/${JSON.stringify(e?.bootId)}/${JSON.stringify(e?.seq)}`;
    if (typeof e !== 'object' || e === null) throw new JournalError('clock event must be an object');
    const clockId = text(e.clockId, 'clockId', where);
    const bootId = text(e.bootId, 'bootId', where);
    const seq = int(e.seq, 'seq', where);
    if (!EVENT_TYPES.has(e.type)) {
      throw new JournalError(`${where()}: unknown "type" ${JSON.stringify(e.type)} (known: ${CLOCK_EVENT_TYPES.join(', ')})`, 'type');
    }
    if (e.side !== undefined && e.side !== null && e.side !== 'white' && e.side !== 'black') {
      throw new JournalError(`${where()}: "side" must be "white" or "black", got ${JSON.stringify(e.side)}`, 'side');
    }
    const boot = `${clockId}\u0000${bootId}`;
    const key = `${boot}\u0000${seq}`;
    const inBatch = overlay.keys.get(key);
    if (inBatch !== undefined) return { result: { isNew: false, id: inBatch }, params: null, outbox: null };
    // A seq beyond the highest stored for this boot is new: no lookup (the usual case).
    let high = this.seqHigh.get(boot);
    if (high === undefined) {
      high = this.events.highestSeq(clockId, bootId);
      this.seqHigh.set(boot, high);
    }
    if (seq <= high) {
      const stored = this.events.idOf(clockId, bootId, seq);
      if (stored !== undefined) return { result: { isNew: false, id: stored }, params: null, outbox: null };
    }
    let game: GameRow | null = null;
    if (e.gameId === undefined) {
      game = this.gameOfClockEvent(clockId, e.type, int(e.utcMs, 'utcMs', where), overlay);
    } else if (e.gameId !== null) {
      game = this.games.getGame(int(e.gameId, 'gameId', where, 1));
      if (!game) throw new JournalError(`${where()}: no game ${e.gameId}`, 'gameId');
    }
    const row = {
      clockId,
      bootId,
      seq,
      gameId: game?.gameId ?? null,
      event: game?.event ?? null,
      round: game?.round ?? null,
      board: game?.board ?? null,
      type: e.type,
      side: e.side ?? null,
      move: optInt(e.move, 'move', where),
      whiteMs: int(e.whiteMs, 'whiteMs', where),
      blackMs: int(e.blackMs, 'blackMs', where),
      monoMs: int(e.monoMs, 'monoMs', where),
      utcMs: int(e.utcMs, 'utcMs', where),
      uncertaintyMs: int(e.uncertaintyMs, 'uncertaintyMs', where),
      detail: json(e.detail),
    };
    const id = overlay.nextId++;
    overlay.keys.set(key, id);
    if (seq > (overlay.highs.get(boot) ?? -1)) overlay.highs.set(boot, seq);
    if (row.gameId !== null && (row.type === 'started' || row.type === 'moved')) {
      overlay.played.add(row.gameId);
      if (row.type === 'started') overlay.started.add(row.gameId);
    }
    const outbox = this.outboxEvents ? this.outbox.row('clock-event', { id, ...row, detail: e.detail ?? null }, row.utcMs) : null;
    // What toEvent would read back: the stored detail is parsed again, so the row is the journal's.
    return {
      result: {
        isNew: true,
        id,
        row: { id, ...row, type: row.type as ClockEventType, side: row.side as Side | null, detail: parseJson(row.detail) as Record<string, unknown> | null },
      },
      params: { id, ...row },
      outbox,
    };
  }

  /**
   * The game an event of `clockId` stamped `utcMs` belongs to, when the clock does not say:
   * the clock's newest game, except for what the clock sends late from the game before.
   *
   * A clock that was offline when its game got a result (entered at the host) goes on with that
   * game until it is set up for the next one, and delivers its outbox when it is back. The
   * next game may already be assigned to it (the director creates it on the same clock), so:
   *  - an event stamped before the previous game ended belongs to that game (a press played
   *    before the result, delivered late), while the next game has not started (its `started`
   *    is always its own; one earlier in this batch counts);
   *  - a `result` cannot be the next game's while that game has not started (the clock refuses
   *    a result before the start: rules/clock.machine.ts `ready`): stamped after the previous
   *    game ended, it belongs to no game here — the host files it against the clock's game
   *    (`playedGameOfClock`) as a report for the arbiter, and the finished game's record, its
   *    exported clock tags included, does not change;
   *  - an event stamped after a game with a result ended, with no next game, belongs to no game.
   */
  private gameOfClockEvent(clockId: string, type: string, utcMs: number, overlay: BatchOverlay): GameRow | null {
    const [newest, previous] = this.games.newestGamesOfClock(clockId);
    if (!newest) return null;
    if (newest.result !== null) {
      const end = endOf(newest);
      return end !== null && utcMs <= end ? newest : this.games.currentGameForClock(clockId);
    }
    // A start is the next game's (a game starts once, and the previous one already had its own);
    // "before the end" is strict, as the next game may start the instant the previous one ended.
    if (previous && previous.result !== null && type !== 'started') {
      const end = endOf(previous);
      const late = end !== null && utcMs < end;
      if ((late || type === 'result') && !overlay.started.has(newest.gameId) && !this.events.hasStart(newest.gameId)) return late ? previous : null;
    }
    return newest;
  }
}

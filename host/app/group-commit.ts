// Group commit (docs/host.md, "The journal's writer thread"): the clock events that arrive in one turn of the event loop, from
// every clock, go to the journal as one batch — one transaction, one fsync, committed on the
// journal's writer thread (docs/host.md "The journal's writer thread") — and each is
// acknowledged to its clock only once the batch is durable ("ack after durable":
// host/clocks/clock-session.ts). Then the batch is fed on (JournalPorts: /ws, live state, MQTT),
// and a result a clock reported is filed against its game.
import type { Link, ReceivedMessage } from '../../protocol/session-api.ts';
import type { Journal } from '../store/journal.ts';
import type { AppendResult, ClockEventInput } from '../store/types.ts';
import type { ClockSession } from '../clocks/clock-session.ts';
import { clockInstantToUtc, journalInput } from '../clocks/clock-event.ts';
import type { Busy } from './busy.ts';
import type { JournalPorts } from './journal-ports.ts';
import type { HostClock } from './utc.ts';

export interface GroupCommitOptions {
  readonly journal: Journal;
  readonly ports: Pick<JournalPorts, 'appendInBackground' | 'fileClockResult'>;
  readonly clock: HostClock;
  readonly busy: Busy;
  /** 'turn' (default): a turn's events in one transaction; 'event': each alone (the benchmark's baseline). */
  readonly mode?: 'turn' | 'event';
  /** A clock's result was filed after its event went out (BoardViews.clockChanged). */
  readonly boardsChanged: (clockId: string) => void;
  readonly log: (line: string) => void;
}

/** A clock event received and not yet journaled. */
interface Unjournaled {
  readonly session: ClockSession;
  readonly link: Link | null;
  readonly message: ReceivedMessage;
  readonly input: ClockEventInput;
  /** Journaled (and acknowledged) or refused: nothing more is done with it. */
  settled?: boolean;
}

export class GroupCommit {
  private readonly opts: GroupCommitOptions;
  private readonly journal: Journal;
  /** Clock events received and not yet sent to the journal, in arrival order. */
  private unjournaled: Unjournaled[] = [];
  private flushScheduled = false;
  /** The batch the journal is writing now. */
  private writingNow: Unjournaled[] = [];

  constructor(opts: GroupCommitOptions) {
    this.opts = opts;
    this.journal = opts.journal;
  }

  /**
   * A message from a clock, synchronously (see clock-session.ts on "ack after durable"):
   * journal it first, act on it after. A throw here leaves it unacknowledged.
   */
  message(s: ClockSession, m: ReceivedMessage): void {
    if (m.body.case !== 'clockEvent') {
      m.handled(); // status heartbeats and the like: not journaled
      return;
    }
    const clockId = s.clockId;
    if (clockId === null) throw new Error('a clock event before the clock greeted');
    const at = clockInstantToUtc(s.estimatorFor(m.bootId), m.body.value.atMs, this.opts.clock.utcReference(), m.arrivedAtMs);
    // A boot whose seqs went back is journaled under the key the host gave it (ClockSession.bootKey).
    const input = { ...journalInput(clockId, m.bootId, m.seq, m.body.value, at), bootId: s.bootKey(m.bootId) };
    this.unjournaled.push({ session: s, link: s.link, message: m, input });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * Journals now what has arrived, and resolves once all of it is settled: durable, or refused
   * and its lines closed.
   */
  async journalAll(): Promise<void> {
    // What has arrived until now; what arrives meanwhile is not waited for (under load it never ends).
    const owed = [...this.writingNow, ...this.unjournaled];
    this.flush();
    while (owed.some((b) => !b.settled)) {
      await this.journal.settled();
      await new Promise<void>((r) => setImmediate(r)); // the settled batch's handlers run, the next batch leaves
      this.flush();
    }
  }

  /**
   * Hands every gathered clock event to the journal as one batch and acknowledges each
   * (`handled()`: its ack may leave now) only once the batch is durable. One batch at a time:
   * what arrives meanwhile waits for the next, which leaves when this one is settled, so the
   * journal keeps arrival order and a clock's events their order.
   *
   * An event the journal refuses for its content is not acknowledged and its clock's line is
   * closed, with that clock's later events of the batch (they must not overtake it); if the
   * commit fails (a full disk), no event of the batch is acknowledged and each clock's line is
   * closed: the clocks resend them. With mode 'event' each batch is one event.
   */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.nextBatch();
    if (batch.length === 0) return;
    let written;
    try {
      written = this.opts.ports.appendInBackground(batch.map((b) => ({ event: b.input, group: b.session })));
    } catch (err) {
      for (const b of batch) this.refuse(b, err);
      return this.flush();
    }
    this.writingNow = batch;
    const { results, durable, feed } = written;
    const accepted: Array<[Unjournaled, AppendResult]> = [];
    for (const [i, b] of batch.entries()) {
      const r = results[i];
      if (r instanceof Error) this.refuse(b, r);
      else accepted.push([b, r]);
    }
    const pending = durable
      .then(
        () => {
          // Durable: every ack may leave now; the next batch goes to the writer (it commits
          // while this thread feeds this one on: /ws, live state, MQTT — in order, as this
          // batch's feed runs before the next one can be answered).
          for (const [b] of accepted) b.message.handled();
          for (const b of batch) b.settled = true;
          this.flush();
          feed();
          for (const [b, r] of accepted) this.journaled(b.input, r);
        },
        (err: unknown) => {
          for (const [b] of accepted) this.refuse(b, err);
        },
      )
      .finally(() => {
        for (const b of batch) b.settled = true;
        if (this.writingNow === batch) this.writingNow = [];
        this.flush();
      });
    this.opts.busy.track(pending);
  }

  /** The next batch to write, none while the journal writes one; what a closed link delivered before it closed is dropped. */
  private nextBatch(): Unjournaled[] {
    if (this.journal.writing || this.unjournaled.length === 0) return [];
    const queued = this.unjournaled.filter((b) => {
      const live = b.link !== null && b.link.state !== 'closed' && b.session.link === b.link;
      if (!live) b.settled = true;
      return live;
    });
    const take = this.opts.mode === 'event' ? 1 : queued.length;
    this.unjournaled = queued.slice(take);
    return queued.slice(0, take);
  }

  /** Not journaled → not acknowledged: closing the link stops its Session before the ack leaves. */
  private refuse(b: Unjournaled, err: unknown): void {
    if (b.link && b.session.link === b.link && b.link.state !== 'closed') {
      b.link.close(`the host could not journal seq ${b.message.seq} of boot ${b.message.bootId}: ${(err as Error).message}`);
    }
  }

  /** After the commit (acknowledged, fed): a clock's result is filed against its game. */
  private journaled(input: ClockEventInput, r: AppendResult): void {
    if (input.type !== 'result') return;
    try {
      this.resultFromClock(r.id, input);
    } catch (err) {
      // The event is journaled all the same; the arbiter enters the result (docs/host.md).
      this.opts.log(`clock ${input.clockId}: result ${String(input.detail?.result)} not filed: ${(err as Error).message}`);
    }
  }

  /**
   * A result keyed at the clock (the players, both confirming with their levers, or an
   * arbiter at the clock), journaled as the clock's event: the journal files it against the
   * game the clock played (JournalPorts.fileClockResult). A game without a result takes it
   * (the arbiter confirms later); one with a result keeps it, and a different result waits
   * beside it for the arbiter (`pendingResults`, GET /api/results); a clock with no game gets
   * an unassigned report. A conflict and an unassigned result are a journal record the arbiter
   * sees and a log line, never only a line.
   */
  private resultFromClock(eventRowId: number, input: ClockEventInput): void {
    const filed = this.opts.ports.fileClockResult(eventRowId);
    if (filed.log !== null) this.opts.log(filed.log);
    else if (filed.outcome === 'refused') this.opts.log(`clock ${input.clockId}: result ${String(input.detail?.result)} not filed`);
    // FIDE Laws 8.7: the result waits for the arbiter; the feed's event went out before it was filed.
    if (filed.outcome !== 'refused') this.opts.boardsChanged(input.clockId);
  }
}

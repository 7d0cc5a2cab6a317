// The floor arbiter of a load run (scripts/load.ts) after the host restart (fault 1).
//
// A restarted host holds every board in play: it pauses the clock, rebuilds the game from the
// journal, compares and restores (docs/protocol.md "Restore"), and the board stands paused
// until an arbiter resumes it (FIDE Laws 6.11). This arbiter watches the host's own board
// views (Host.board, what GET /api/boards/:id serves) and resumes a board through
// Host.execute (the path of POST /api/boards/:id/resume and the dashboard's button) as soon as
// its `restore` note is newer than the restart and says 'in-step' or 'restored', and its
// clock is online (a clock not back yet is resumed when it is).
import { monotonicNowMs } from '../protocol/monotonic.ts';
import type { BoardView, RestoreNote } from '../host/app/ports.ts';
import type { LoadHost } from './load-host.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const ARBITER = 'Floor Arbiter (load)';
interface HeldBoard {
  readonly id: string;
  readonly event: string;
  readonly board: number;
  readonly clockId: string | null;
  /** Its clock has journaled `paused` or `restored` since the restart: the HOLD paused it. */
  active: boolean;
  /** When this arbiter first saw the board's restore note (real monotonic ms), and the note. */
  noteSeenAtMs: number | null;
  note: RestoreNote | null;
  /** When the host answered the resume with ok (real monotonic ms, hall ms). */
  resumedAtMs: number | null;
  resumedAtHallMs: number | null;
  attempts: number;
  lastRefusal: string | null;
  inFlight: boolean;
}
export class RestartArbiter {
  readonly boards: HeldBoard[];
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly byClock = new Map<string, HeldBoard>();
  private lastSweepMs: number;
  /** Real ms spent reading board views (synchronous, on the host's event loop): in all, the longest pass. */
  pollMs = 0;
  longestPassMs = 0;
  polls = 0;
  viewsRead = 0;
  /** Boards found running after a resume whose answer was lost. */
  resumedUnanswered = 0;

  constructor(
    /** The host to ask (the restarted one: the loop starts once it is up). */
    private readonly hostNow: () => LoadHost,
    /** Hall time (ms), for when a board was resumed. */
    private readonly hallNow: () => number,
    /** Waits for a condition at most `timeoutMs`; false (and a word in the log) when it gave up. */
    private readonly waitUntil: (what: string, cond: () => boolean, timeoutMs: number) => Promise<boolean>,
    inPlay: readonly BoardView[],
    /** The restart: real monotonic ms, journal UTC ms (the host's clock) and hall ms. */
    readonly restartMs: number,
    readonly restartUtcMs: number,
    readonly restartHallMs: number,
  ) {
    this.boards = inPlay.map((b) => ({
      id: b.id,
      event: b.event,
      board: b.board,
      clockId: b.clockId,
      active: false,
      noteSeenAtMs: null,
      note: null,
      resumedAtMs: null,
      resumedAtHallMs: null,
      attempts: 0,
      lastRefusal: null,
      inFlight: false,
    }));
    for (const b of this.boards) if (b.clockId !== null) this.byClock.set(b.clockId, b);
    this.lastSweepMs = restartMs;
  }

  /** A clock event journaled by the restarted host (the feed, after the commit). */
  sawEvent(clockId: string, type: string): void {
    if (type !== 'paused' && type !== 'restored') return;
    const b = this.byClock.get(clockId);
    if (b) b.active = true;
  }

  get pending(): number {
    return this.boards.filter((b) => b.resumedAtMs === null).length;
  }

  start(periodMs = 250): void {
    this.loop = (async () => {
      while (!this.stopped && this.pending > 0) {
        this.pass();
        await sleep(periodMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    // Resumes already sent are answered (acknowledged or refused) before the figures are read.
    await this.waitUntil("the arbiter's last resumes to be answered", () => this.boards.every((b) => !b.inFlight), 30_000);
  }

  /**
   * One look along the rows. A board view costs the host journal reads and a walk over its
   * sessions (0.3–0.7 ms with 1,064 clocks), so each pass reads only the boards whose clock
   * was paused since the restart (the HOLD: a running clock pauses, journaled just before
   * its Held); every 30 s a pass reads the others too, so none is missed (a rare sweep: the
   * first view of each board after a restart rebuilds its live state from the journal).
   */
  private pass(): void {
    const t0 = monotonicNowMs();
    const sweep = t0 - this.lastSweepMs >= 30_000;
    if (sweep) this.lastSweepMs = t0;
    for (const b of this.boards) {
      if (b.resumedAtMs !== null || b.inFlight || (!b.active && !sweep)) continue;
      this.viewsRead++;
      const view = this.hostNow().host.state.board(b.id);
      const note = view?.restore;
      if (!view || !note || note.utcMs < this.restartUtcMs) continue; // not brought to the journal yet
      if (b.note === null) b.noteSeenAtMs = monotonicNowMs();
      b.note = note;
      if (note.outcome !== 'in-step' && note.outcome !== 'restored') continue; // 'refused' / 'failed': the host tries again when the clock reconnects
      if (!view.clockOnline) continue;
      if (b.attempts > 0 && view.live?.status === 'running') {
        // An earlier resume reached the clock but its answer did not come back (a line lost
        // meanwhile): the board runs, so it counts as resumed now.
        b.resumedAtMs = monotonicNowMs();
        b.resumedAtHallMs = this.hallNow();
        this.resumedUnanswered++;
        continue;
      }
      b.inFlight = true;
      b.attempts++;
      void this.hostNow()
        .host.execute({ type: 'resume', boardId: b.id }, { arbiter: ARBITER })
        .then((outcome) => {
          if (outcome.ok) {
            b.resumedAtMs = monotonicNowMs();
            b.resumedAtHallMs = this.hallNow();
          } else b.lastRefusal = `${outcome.status}: ${outcome.reason}`;
        })
        .catch((err: unknown) => {
          b.lastRefusal = (err as Error).message;
        })
        .finally(() => {
          b.inFlight = false;
        });
    }
    const took = monotonicNowMs() - t0;
    this.pollMs += took;
    this.longestPassMs = Math.max(this.longestPassMs, took);
    this.polls++;
  }
}

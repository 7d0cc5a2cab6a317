// A board's live state: the game's journaled events run through the one statechart, one at a
// time as they are journaled (rules/rebuild.ts GameRebuilder), and read with the rule book:
// status, side on move, both times, periods, presence, the illegal-move counts, the quickplay
// increment and delay, what a take-back would do (docs/architecture.md rule 5: no rule is
// derived here a second time). Readers
// show the clock between events from `clock` (rules/clock-snapshot.ts ClockBasis) with
// `basisRemainingMs`: the running side's time with delays and the sandclock included.
//
// What the statechart does not keep is taken from the events as facts: the UTC instants of
// the start and of the session, and every flag that fell, in order (FIDE Laws 6.9: which
// fell first decides; the clock itself keeps only the first).
import type { Side, TimeControl } from '../../protocol/time-control.ts';
import { readClock } from '../../rules/clock-reading.ts';
import type { ClockState } from '../../rules/clock-state.ts';
import { takeBack } from '../../rules/takeback.ts';
import { clockBasis } from '../../rules/clock-snapshot.ts';
import { GameRebuilder, type RebuildMismatch } from '../../rules/rebuild.ts';
import type { ClockEventRecord, LiveClockState, TakebackPreview } from './ports.ts';

/** One game's live state, fed with its events in journal order. */
export class LiveGame {
  private readonly rebuilder: GameRebuilder | null;
  private flags: Side[] = [];
  private startedAtUtcMs: number | null = null;
  private sessionAtUtcMs: number | null = null;
  private live: LiveClockState | null = null;

  /** `control`: the game's time control; null when not known (the clock's own figures are then shown as reported). */
  constructor(readonly control: TimeControl | null) {
    this.rebuilder = control ? new GameRebuilder(control) : null;
  }

  get state(): LiveClockState | null {
    return this.live;
  }

  /** Journal events the statechart does not reproduce (a journal that is not the clock's own story). */
  get mismatches(): readonly RebuildMismatch[] {
    return this.rebuilder?.mismatches ?? [];
  }

  feed(e: ClockEventRecord): LiveClockState {
    if (e.type === 'started' && this.startedAtUtcMs === null) {
      this.startedAtUtcMs = e.utcMs;
      // FIDE Laws 6.7.1: the default time counts from the session start, which the clock reports
      // as a duration before this start (0 or absent: the start itself).
      const elapsed = e.detail?.sessionElapsedMs;
      this.sessionAtUtcMs = e.utcMs - (typeof elapsed === 'number' && Number.isSafeInteger(elapsed) && elapsed > 0 ? elapsed : 0);
    }
    if (!this.rebuilder) return (this.live = reported(this.live, e, this.startedAtUtcMs, this.sessionAtUtcMs));
    this.rebuilder.feed({
      type: e.type,
      side: e.side,
      move: e.move,
      whiteMs: e.whiteMs ?? 0,
      blackMs: e.blackMs ?? 0,
      monoMs: e.monoMs,
      clockId: e.clockId,
      bootId: e.bootId,
      detail: e.detail ?? null,
    });
    const state = this.rebuilder.state;
    const at = this.rebuilder.at;
    const r = readClock(state, at);
    // FIDE Laws 6.9 / III.3.1: later flags are kept in the order they fell; a take-back that
    // annuls the first flag annuls the list with it.
    if (state.flag === null) this.flags = [];
    else {
      if (this.flags[0] !== state.flag) this.flags = [state.flag];
      if (e.type === 'flag' && e.side && !this.flags.includes(e.side)) this.flags = [...this.flags, e.side];
    }
    this.live = {
      clockId: e.clockId,
      bootId: e.bootId,
      seq: e.seq,
      status: state.result !== null ? 'finished' : r.status,
      // Before the start nobody is on move yet.
      turn: state.startedAt === null && r.status === 'ready' ? null : r.turn,
      whiteMs: r.white,
      blackMs: r.black,
      atUtcMs: e.utcMs,
      moves: r.moves,
      flag: r.flag,
      period: { white: r.period.white + 1, black: r.period.black + 1 },
      present: r.present,
      flags: this.flags,
      startedAtUtcMs: this.startedAtUtcMs,
      sessionAtUtcMs: this.sessionAtUtcMs,
      illegalMoves: r.illegalMoves,
      incrementMs: r.extraIncrementMs,
      delayMs: r.extraDelayMs,
      takebackPreview: takebackPreview(state, at),
      clock: clockBasis(state, at),
    };
    return this.live;
  }

  stop(): void {
    this.rebuilder?.stop();
  }
}

/**
 * What a take-back would do now (FIDE Laws 7.5.1 with 6.10.2), for the arbiter's confirmation:
 * whose move is annulled, its number, and both times after it when they are rewound to the press
 * or kept (Laws 7.1). The rule book's own take-back on the state at its instant, both ways;
 * null when there is no completed move to annul.
 */
function takebackPreview(state: ClockState, at: number): TakebackPreview | null {
  const rewind = takeBack(state, at, 'rewind');
  const keep = takeBack(state, at, 'keep');
  if (rewind === null || keep === null) return null;
  const times = (s: ClockState) => {
    const r = readClock(s, at);
    return { white: r.white, black: r.black };
  };
  // The annulled move is the mover's last completed one: its number is the count before the take-back.
  return {
    side: rewind.side,
    move: state[rewind.side].moves,
    rewind: times(rewind.state),
    keep: times(keep.state),
    illegalMoves: rewind.state[rewind.side].illegalMoves,
  };
}

/**
 * The live state of a game whose control is unknown (a clock reporting on a board the host
 * did not configure): the clock's own figures as it reported them, no rule applied.
 */
function reported(prev: LiveClockState | null, e: ClockEventRecord, startedAtUtcMs: number | null, sessionAtUtcMs: number | null): LiveClockState {
  const STATUS: Record<string, LiveClockState['status']> = {
    started: 'running',
    moved: 'running',
    resumed: 'running',
    paused: 'paused',
    flag: 'flagged',
    forfeit: 'forfeited',
    result: 'finished',
    'taken-back': 'paused',
    reinstated: 'paused',
  };
  const moves = { ...(prev?.moves ?? { white: 0, black: 0 }) };
  if (e.side && e.move !== null && (e.type === 'moved' || e.type === 'moves-set' || e.type === 'taken-back')) moves[e.side] = e.move;
  const turn =
    e.type === 'started'
      ? 'white'
      : e.type === 'moved' && e.side
        ? e.side === 'white'
          ? 'black'
          : 'white'
        : e.type === 'taken-back'
          ? e.side
          : (prev?.turn ?? null);
  return {
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    status: STATUS[e.type] ?? prev?.status ?? 'ready',
    turn,
    whiteMs: e.whiteMs ?? prev?.whiteMs ?? 0,
    blackMs: e.blackMs ?? prev?.blackMs ?? 0,
    atUtcMs: e.utcMs,
    moves,
    flag: prev?.flag ?? (e.type === 'flag' ? e.side : null),
    period: prev?.period ?? { white: 1, black: 1 },
    present: prev?.present ?? { white: true, black: true },
    flags: prev?.flags ?? [],
    startedAtUtcMs,
    sessionAtUtcMs,
  };
}

// A clock state as a value that can leave the clock: what the host sends to bring a clock to
// the journal's game (Restore) and what a clock reports of its own game (Held), in the
// protocol's words (docs/protocol.md, "Restore").
//
// A ClockState holds instants on the clock's own monotonic time line (the start, the last
// step, each undo record's press). Another clock, or the same clock after a reboot, has
// another time line, so a snapshot holds durations instead: how long ago the session
// started, and how long ago each annulable press was. A snapshot is always of a stopped
// clock: a running clock is paused at the snapshot's instant (FIDE Laws 6.10.1 / 6.11: a
// replaced clock is set by the arbiter and the game goes on when the arbiter resumes it).
import { MAX_SNAPSHOT_UNDO } from '../protocol/envelope-validation.ts';
import { formatTimeControl, SIDES, type Side, type TimeControl } from '../protocol/time-control.ts';
import { resumeClock } from './clock-core.ts';
import { forfeitDeadline, remainingMs, turnElapsedMs } from './clock-reading.ts';
import type { ClockState, SideState, UndoRecord } from './clock-state.ts';
import type { ClockResult } from './vocabulary.ts';

/**
 * How many annulable presses a snapshot carries (newest first). A take-back needs the clock
 * as it stood at the press (FIDE Laws 7.5.1); four fit one 512-byte frame with room to spare
 * (protocol/frame-size.test.ts), and an illegal move is nearly always found within them.
 * Older moves of a restored game are corrected with the move counter and time adjustments
 * (Laws 6.10.2).
 */
export const SNAPSHOT_UNDO_DEPTH = MAX_SNAPSHOT_UNDO;
/** With a corrected control in it, a snapshot carries fewer presses so that it still fits one frame. */
export const SNAPSHOT_UNDO_DEPTH_WITH_CONTROL = MAX_SNAPSHOT_UNDO - 2;

/** A stopped clock's status as a snapshot holds it (a game with a result is over whatever its status). */
export type SnapshotStatus = 'ready' | 'paused' | 'flagged' | 'forfeited';

export interface UndoSnapshot {
  readonly turn: Side;
  readonly turnActiveMs: number;
  /** The period the annulled turn began in, and the quickplay delay it began with (its delay). */
  readonly turnPeriod: number;
  readonly turnExtraDelayMs: number;
  readonly flag: Side | null;
  readonly white: SideState;
  readonly black: SideState;
  /** How long before the snapshot the annulled press was made. */
  readonly agoMs: number;
}

export interface ClockSnapshot {
  readonly status: SnapshotStatus;
  readonly turn: Side;
  readonly white: SideState;
  readonly black: SideState;
  /** Running time already spent in the current turn (a simple delay already used is not granted again). */
  readonly turnActiveMs: number;
  /** The period the current turn began in, and the quickplay delay it began with: its delay (one per turn). */
  readonly turnPeriod: number;
  readonly turnExtraDelayMs: number;
  readonly flag: Side | null;
  /** FIDE Laws 6.7.1: whether the game started, and how long before the snapshot its session began. */
  readonly started: boolean;
  readonly sinceStartMs: number;
  readonly extraIncrementMs: number;
  /** FIDE Guidelines III.4: the quickplay delay in force for turns yet to begin, ms. */
  readonly extraDelayMs: number;
  readonly result: ClockResult | null;
  /**
   * The control the arbiter installed during the game (FIDE Laws 6.10.2), when it is not the one
   * the game was configured with; null: the configured control.
   */
  readonly control: TimeControl | null;
  /** The last presses, newest first, at most SNAPSHOT_UNDO_DEPTH (SNAPSHOT_UNDO_DEPTH_WITH_CONTROL with a control). */
  readonly undo: readonly UndoSnapshot[];
}

/** The clock state at `at` as a snapshot of a stopped clock (a running clock is paused at `at`). */
export function snapshotClock(state: ClockState, at: number): ClockSnapshot {
  const running = state.status === 'running';
  const undo: UndoSnapshot[] = [];
  const depth = state.controlCorrected ? SNAPSHOT_UNDO_DEPTH_WITH_CONTROL : SNAPSHOT_UNDO_DEPTH;
  for (let r: UndoRecord | null = state.undo; r !== null && undo.length < depth; r = r.prev) {
    undo.push({
      turn: r.turn,
      turnActiveMs: r.turnActiveMs,
      turnPeriod: r.turnPeriod,
      turnExtraDelayMs: r.turnExtraDelayMs,
      flag: r.flag,
      white: r.white,
      black: r.black,
      agoMs: Math.max(0, at - r.at),
    });
  }
  return {
    status: running ? 'paused' : (state.status as SnapshotStatus),
    turn: state.turn,
    white: state.white,
    black: state.black,
    turnActiveMs: turnElapsedMs(state, at),
    turnPeriod: state.turnPeriod,
    turnExtraDelayMs: state.turnExtraDelayMs,
    flag: state.flag,
    started: state.startedAt !== null,
    sinceStartMs: state.startedAt === null ? 0 : Math.max(0, at - state.startedAt),
    extraIncrementMs: state.extraIncrementMs,
    extraDelayMs: state.extraDelayMs,
    result: state.result,
    control: state.controlCorrected ? state.timeControl : null,
    undo,
  };
}

/**
 * The clock state of a snapshot loaded at instant `at` of the receiving clock's time line: stopped,
 * as it was. `timeControl`: the game's configured control (the snapshot's own when it carries a correction).
 */
export function loadSnapshot(timeControl: TimeControl, snap: ClockSnapshot, at: number): ClockState {
  let undo: UndoRecord | null = null;
  for (let i = snap.undo.length - 1; i >= 0; i--) {
    const u = snap.undo[i];
    undo = {
      at: at - u.agoMs,
      turn: u.turn,
      turnActiveMs: u.turnActiveMs,
      turnPeriod: u.turnPeriod,
      turnExtraDelayMs: u.turnExtraDelayMs,
      flag: u.flag,
      white: u.white,
      black: u.black,
      prev: undo,
    };
  }
  return {
    timeControl: snap.control ?? timeControl,
    controlCorrected: snap.control !== null,
    status: snap.status,
    turn: snap.turn,
    white: snap.white,
    black: snap.black,
    startedAt: snap.started ? at - snap.sinceStartMs : null,
    runningSince: null,
    turnActiveMs: snap.turnActiveMs,
    turnPeriod: snap.turnPeriod,
    turnExtraDelayMs: snap.turnExtraDelayMs,
    flag: snap.flag,
    lastAt: at,
    extraIncrementMs: snap.extraIncrementMs,
    extraDelayMs: snap.extraDelayMs,
    undo,
    result: snap.result,
  };
}

/** The bookkeeping behind a side's remaining time and move count, compared one by one. */
const SIDE_BOOKKEEPING: readonly (keyof SideState)[] = ['period', 'creditedPeriod', 'present', 'forfeited', 'illegalMoves', 'illegalOpen', 'arbiterMs'];

/**
 * What differs between a clock's own snapshot and the journal's, in an arbiter's words, the
 * journal's value last ("white remaining 1:23:45.600 at the clock, 1:23:44.100 in the
 * journal"). Empty when they agree. Remaining times are compared as remaining times (what
 * the arbiter sees), then the bookkeeping behind them.
 */
export function snapshotDifferences(timeControl: TimeControl, clock: ClockSnapshot, journal: ClockSnapshot): string[] {
  const out: string[] = [];
  const say = (what: string, a: unknown, b: unknown) => {
    if (a !== b) out.push(`${what}: ${show(a)} at the clock, ${show(b)} in the journal`);
  };
  say('status', clock.result !== null ? 'over' : clock.status, journal.result !== null ? 'over' : journal.status);
  say('result', clock.result, journal.result);
  say('on move', clock.turn, journal.turn);
  for (const side of ['white', 'black'] as const) {
    const c = clock[side];
    const j = journal[side];
    const remaining = (s: ClockSnapshot) => remainingMs(loadSnapshot(timeControl, s, 0), side, 0);
    say(`${side} remaining`, clockText(remaining(clock)), clockText(remaining(journal)));
    say(`${side} moves`, c.moves, j.moves);
    for (const f of SIDE_BOOKKEEPING) say(`${side} ${f}`, c[f], j[f]);
  }
  say('turn time used', clock.turnActiveMs, journal.turnActiveMs);
  say('period the turn began in', clock.turnPeriod, journal.turnPeriod);
  say('delay of the turn ms', clock.turnExtraDelayMs, journal.turnExtraDelayMs);
  say('flag', clock.flag, journal.flag);
  say('started', clock.started, journal.started);
  say('quickplay increment ms', clock.extraIncrementMs, journal.extraIncrementMs);
  say('quickplay delay ms', clock.extraDelayMs, journal.extraDelayMs);
  say('time control', controlText(clock.control ?? timeControl), controlText(journal.control ?? timeControl));
  return out;
}

function controlText(tc: TimeControl): string {
  const delays = SIDES.map((s) => tc[s].stages.map((st) => (st.delayMs ? `d${st.delayMs / 1000}${st.delayMode === 'bronstein' ? 'b' : ''}` : '')).join('/'));
  const extra = [
    tc.defaultTimeMs === null ? '' : ` default ${tc.defaultTimeMs / 1000} s`,
    tc.incrementTiming === 'after-move' ? ' after-move' : '',
    delays.some((d) => d.replace(/\//g, '')) ? ` delays ${delays.join(' ')}` : '',
  ];
  return formatTimeControl(tc) + extra.join('');
}

/** h:mm:ss.mmm of a duration: exact, for a difference the arbiter must judge. */
function clockText(a: number): string {
  const h = Math.floor(a / 3_600_000);
  const m = Math.floor(a / 60_000) % 60;
  const s = Math.floor(a / 1000) % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(a % 1000).padStart(3, '0')}`;
}

function show(v: unknown): string {
  return v === null ? 'none' : String(v);
}

/**
 * What a reader far from the clock (the dashboard, a broadcast, the PGN's live clock tags)
 * needs to show the clock between two of its reports: the game's control, the clock stopped
 * at the report, and whether it runs on from there. The running side's remaining time is the
 * rule book's own (delays and sandclock included): `basisRemainingMs`.
 */
export interface ClockBasis {
  readonly control: TimeControl;
  /** The clock at the report, stopped there (without take-back records: a reader annuls nothing). */
  readonly snapshot: ClockSnapshot;
  readonly running: boolean;
}

export function clockBasis(state: ClockState, at: number): ClockBasis {
  return { control: state.timeControl, snapshot: { ...snapshotClock(state, at), undo: [] }, running: state.status === 'running' };
}

/** `side`'s remaining time `elapsedMs` after the report the basis was taken at. */
export function basisRemainingMs(basis: ClockBasis, side: Side, elapsedMs: number): number {
  return remainingMs(basisState(basis), side, basis.running ? Math.max(0, elapsedMs) : 0);
}

/** The clock of a basis at instant 0 of a reader's time line: stopped, or running on from there. */
export function basisState(basis: ClockBasis): ClockState {
  const stopped = loadSnapshot(basis.control, basis.snapshot, 0);
  return basis.running ? resumeClock(stopped, 0) : stopped;
}

/**
 * FIDE Laws 6.7.1: how long an absent player still has to arrive, `elapsedMs` after the
 * report the basis was taken at (the default time counts from the session's start, through
 * pauses); null when nobody is absent, no default time is set, or the game is not under way.
 */
export function basisDefaultTimeLeftMs(basis: ClockBasis, elapsedMs: number): number | null {
  const deadline = forfeitDeadline(basisState(basis));
  return deadline === null ? null : deadline - Math.max(0, elapsedMs);
}

// A game's clock state rebuilt from what its clocks reported: the journaled events are
// turned back into the inputs that produced them and run through the one statechart
// (docs/architecture.md rule 5), so the host knows the exact clock state of any game — to
// bring a new, restarted or swapped clock to it (docs/protocol.md "Restore"), and to show it.
//
// Time. Each event carries the instant of its clock (`monoMs`, ms on that clock boot's
// own time line, a uint32 that may wrap). Within one boot the differences are exact. A
// game may span boots and clocks (a power cut, a swap): at a change of boot the clock
// stood stopped — a new clock starts stopped, a restored clock comes back paused — so the
// time line of the rebuild simply continues from the last instant, and a clock that was
// running there is paused at that instant, as the firmware's own power-cut resume does.
//
// Every event is checked against the statechart's own output: an event the rebuild does not
// reproduce (another type, other times) is a mismatch, reported with the event's index, so a
// journal that is not the clock's own story is noticed rather than trusted.
import { other, readTimeControlSpec, type Side, type TimeControl } from '../protocol/time-control.ts';
import { readClock } from './clock-reading.ts';
import type { ClockState } from './clock-state.ts';
import { clockMachine, type ClockInput, type ClockOutput } from './clock.machine.ts';
import { snapshotClock, type ClockSnapshot } from './clock-snapshot.ts';
import { StepClock } from './step-clock.ts';
import { CLOCK_RESULTS, type ClockResult } from './vocabulary.ts';
import { createActor } from 'xstate';

/** One journaled clock event, as the journal keeps it (host/store/types.ts ClockEventRow). */
export interface JournaledClockEvent {
  readonly type: string;
  readonly side: Side | null;
  readonly move: number | null;
  readonly whiteMs: number;
  readonly blackMs: number;
  readonly monoMs: number;
  readonly clockId: string;
  readonly bootId: string;
  readonly detail: Record<string, unknown> | null;
}

export interface RebuildMismatch {
  /** Index of the event in the list given. */
  readonly index: number;
  readonly type: string;
  readonly reason: string;
}

export interface RebuiltGame {
  /** The clock state after the last event. */
  readonly state: ClockState;
  /** The instant of the last event on the rebuild's time line (the state is read there). */
  readonly at: number;
  readonly mismatches: readonly RebuildMismatch[];
}

/** Where the rebuild's time line begins: far enough from 0 that a session start before the first event stays positive. */
const ORIGIN = 2 ** 32;

/** Events whose times the clock reports as the state after them, so the rebuild must give the same. */
const TIMED = new Set([
  'started',
  'moved',
  'flag',
  'paused',
  'resumed',
  'adjusted',
  'moves-set',
  'taken-back',
  'reinstated',
  'restored',
  'turn-set',
  'control-set',
]);

/** The statechart output each journaled type is the record of. */
const OUTPUT_OF: Readonly<Record<string, ClockOutput['type']>> = {
  started: 'started',
  moved: 'move',
  flag: 'flag',
  forfeit: 'forfeit',
  paused: 'paused',
  resumed: 'resumed',
  adjusted: 'adjusted',
  arrived: 'arrived',
  result: 'result',
  'moves-set': 'moves-set',
  'taken-back': 'takeback',
  reinstated: 'reinstated',
  'increment-set': 'increment-set',
  restored: 'restored',
  'turn-set': 'turn-set',
  'control-set': 'control-set',
  'delay-set': 'delay-set',
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** The snapshot a clock is restored with: the rebuilt game, stopped at its last event. */
export function restoreSnapshot(game: RebuiltGame): ClockSnapshot {
  return snapshotClock(game.state, game.at);
}

/** Rebuilds the clock state of a game with control `timeControl` from its journaled events, in journal order. */
export interface RebuildOptions {
  /**
   * Sees every input the rebuild gives the statechart, with the index of the event it
   * records (null: a pause the rebuild adds where a clock stopped reporting while running).
   * The replay export writes them as `chessclock replay` input (host/adapters/exports/replay-log.ts).
   */
  readonly onInput?: (input: ClockInput, index: number | null) => void;
}

export function rebuildGame(timeControl: TimeControl, events: readonly JournaledClockEvent[], options: RebuildOptions = {}): RebuiltGame {
  const game = new GameRebuilder(timeControl, options);
  events.forEach((e, index) => game.feed(e, index));
  const result = { state: game.state, at: game.at, mismatches: game.mismatches };
  game.stop();
  return result;
}

/**
 * The rebuild, one event at a time: the live state of a game in play (the host feeds each
 * event as it is journaled) is the statechart's own state, never a second derivation.
 */
export class GameRebuilder {
  readonly mismatches: RebuildMismatch[] = [];
  private readonly clock = new StepClock();
  private readonly actor;
  private readonly outputs: ClockOutput[] = [];
  private readonly options: RebuildOptions;
  private now = ORIGIN;
  private boot: string | null = null;
  private bootMono = 0;
  private bootAt = ORIGIN;
  private fed = 0;

  constructor(timeControl: TimeControl, options: RebuildOptions = {}) {
    this.options = options;
    this.actor = createActor(clockMachine, { input: { timeControl }, clock: this.clock });
    this.actor.on('*', (out) => this.outputs.push(out as ClockOutput));
    this.actor.start();
    this.clock.advanceTo(ORIGIN);
    this.actor.send({ type: 'NEW_GAME', timeControl, at: ORIGIN });
  }

  /** The clock state after the last event fed. */
  get state(): ClockState {
    return this.actor.getSnapshot().context.clock;
  }

  /** The instant of the last event fed, on the rebuild's time line. */
  get at(): number {
    return this.now;
  }

  /** Runs one journaled event; returns the mismatch it makes, if any (also kept in `mismatches`). */
  feed(e: JournaledClockEvent, index = this.fed): RebuildMismatch | null {
    this.fed = index + 1;
    const start = this.mismatches.length;
    const fail = (reason: string) => {
      this.mismatches.push({ index, type: e.type, reason });
    };
    const key = `${e.clockId}/${e.bootId}`;
    if (key !== this.boot) {
      // Another boot or another clock: it began stopped where the last one left off.
      if (this.boot !== null && this.state.status === 'running') this.send({ type: 'PAUSE', at: this.now }, null);
      this.boot = key;
      this.bootMono = e.monoMs;
      this.bootAt = this.now;
    }
    const before = this.now;
    const since = (e.monoMs - this.bootMono) >>> 0;
    if (since > 0x7fffffff) fail(`its instant ${e.monoMs} is before the boot's earlier events (${this.bootMono})`);
    else this.now = Math.max(this.now, this.bootAt + since);
    const at = this.now;
    this.clock.advanceTo(at);
    // Outputs not yet matched to an event stay pending: a deadline the previous input made
    // due at once (a default time of 0, an adjustment to zero) is the next event's record.
    const outputs = this.outputs;
    const from = outputs.length;
    const input = inputOf(e, at, this.state, before);
    if (typeof input === 'string') {
      fail(input);
      return this.mismatches[start] ?? null;
    }
    if (input !== null) {
      this.send(input, index);
      this.clock.advanceTo(at); // a deadline the input made due at once fires at this same instant
    }
    const want = OUTPUT_OF[e.type];
    const found = outputs.findIndex((o) => o.type === want);
    const got = found === -1 ? undefined : outputs[found];
    const refused = outputs.slice(from).find((o) => o.type === 'rejected');
    if (!got) {
      outputs.length = 0;
      fail(refused && refused.type === 'rejected' ? `the clock refuses it here: ${refused.reason}` : `the statechart gives no ${want} here`);
      return this.mismatches[start] ?? null;
    }
    outputs.splice(0, found + 1);
    if ('side' in got && e.side !== null && got.side !== e.side) fail(`side ${e.side}, the statechart says ${got.side}`);
    if (TIMED.has(e.type)) {
      const r = readClock(this.state, got.at);
      if (r.white !== e.whiteMs || r.black !== e.blackMs) fail(`times ${e.whiteMs}/${e.blackMs} ms, the statechart gives ${r.white}/${r.black} ms`);
    }
    return this.mismatches[start] ?? null;
  }

  stop(): void {
    this.actor.stop();
  }

  private send(input: ClockInput, index: number | null): void {
    this.options.onInput?.(input, index);
    this.actor.send(input);
  }
}

/** The statechart input a journaled event records; null when the statechart makes it itself (a deadline); a string says why there is none. */
function inputOf(e: JournaledClockEvent, at: number, clock: ClockState, before: number): ClockInput | null | string {
  const side = e.side;
  const needSide = () => `a ${e.type} event without a side`;
  switch (e.type) {
    case 'started': {
      // FIDE Laws 6.7.1: the default time counts from the session start, that long before.
      const elapsed = num(e.detail?.sessionElapsedMs) ?? 0;
      return elapsed > 0 ? { type: 'START', at, sessionAt: at - elapsed } : { type: 'START', at };
    }
    case 'moved':
      return side ? { type: 'PRESS', side, at } : needSide();
    case 'flag':
    case 'forfeit':
      // The statechart's own deadlines: reaching the instant fires them.
      return null;
    case 'paused':
      return { type: 'PAUSE', at };
    case 'resumed':
      return { type: 'RESUME', at };
    case 'adjusted': {
      if (!side) return needSide();
      // FIDE Laws 7.5.5: a penalty's event names the credited side; the offender is the other.
      if (e.detail?.reason === 'penalty') return { type: 'PENALTY', side: other(side), at };
      const ms = num(e.detail?.ms);
      return ms === null ? 'an adjustment without its ms' : { type: 'ADJUST', side, ms, at };
    }
    case 'arrived':
      return side ? { type: 'ARRIVE', side, at } : needSide();
    case 'result': {
      const result = e.detail?.result;
      if (!(CLOCK_RESULTS as readonly unknown[]).includes(result)) return `a result "${String(result)}" the clock cannot show`;
      return { type: 'RESULT', result: result as ClockResult, by: e.detail?.confirmedBy === 'arbiter' ? 'arbiter' : 'players', at };
    }
    case 'moves-set':
      return side && e.move !== null ? { type: 'SET_MOVES', side, moves: e.move, at } : 'a move-counter correction without its side and count';
    case 'taken-back':
      // FIDE Laws 7.1: the arbiter may have kept the clock times.
      return e.detail?.times === 'keep' ? { type: 'TAKEBACK', at, times: 'keep' } : { type: 'TAKEBACK', at };
    case 'turn-set':
      return side ? { type: 'SET_TURN', side, at } : needSide();
    case 'control-set': {
      try {
        return { type: 'SET_CONTROL', timeControl: readTimeControlSpec(e.detail?.timeControl).timeControl, at };
      } catch (err) {
        return `a corrected control that cannot be read: ${(err as Error).message}`;
      }
    }
    case 'delay-set': {
      const ms = num(e.detail?.ms);
      return ms === null ? 'a delay without its ms' : { type: 'DELAY', ms, at };
    }
    case 'reinstated':
      return { type: 'REINSTATE', at };
    case 'increment-set': {
      const ms = num(e.detail?.ms);
      return ms === null ? 'an increment without its ms' : { type: 'INCREMENT', ms, at };
    }
    case 'restored':
      // The clock took the host's restore: this same rebuild up to the event before, stopped
      // there (restoreSnapshot). The default time's countdown does not run in between.
      return { type: 'RESTORE', snapshot: snapshotClock(clock, before), at };
    default:
      return `unknown event type "${e.type}"`;
  }
}

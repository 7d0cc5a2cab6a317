// A clock whose game is journaled as the real path journals it, for tests: the statechart on
// its own time line, each output turned into the clock's ClockEvent (firmware-ts/host-link.ts
// clockEventBody), the protobuf message, and the host's journal row (clock-event.ts
// journalInput) in a real SQLite journal; random games in every mode, with the arbiter's
// powers and clocks swapped or restarted mid-game (restored from the journal). Used by
// restore-clock.test.ts and host/app/live-state.test.ts.
import { create } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { createActor, type Actor } from 'xstate';
import { ClockEventSchema, type ClockEvent } from '../../protocol/gen/chessclock_pb.ts';
import { parseSideControl, timeControl, type Side, type TimeControl } from '../../protocol/time-control.ts';
import { clockEventBody } from '../../firmware-ts/host-link.ts';
import { readClock } from '../../rules/clock-reading.ts';
import type { ClockState } from '../../rules/clock-state.ts';
import { clockMachine, type ClockInput, type ClockOutput } from '../../rules/clock.machine.ts';
import { snapshotFromWire, snapshotToWire } from '../../rules/clock-snapshot-wire.ts';
import { rebuildGame, restoreSnapshot } from '../../rules/rebuild.ts';
import { StepClock } from '../../rules/step-clock.ts';
import { Journal, type GameRow } from '../store/journal.ts';
import { journalInput } from './clock-event.ts';

/** One clock boot: the statechart on its own time line, reporting like the firmware does. */
export class Boot {
  readonly clock: StepClock;
  readonly actor: Actor<typeof clockMachine>;
  seq = 0;
  lastEventAt: number;
  constructor(
    readonly clockId: string,
    readonly bootId: number,
    tc: TimeControl,
    origin: number,
    report: (boot: Boot, ev: ClockEvent) => void,
  ) {
    this.clock = new StepClock();
    this.clock.advanceTo(origin);
    this.lastEventAt = origin;
    this.actor = createActor(clockMachine, { input: { timeControl: tc }, clock: this.clock });
    // As firmware-ts/host-link.ts onOutput: the reading at the output's instant, then the wire body.
    this.actor.on('*', (o) => {
      const out = o as ClockOutput;
      const state = this.actor.getSnapshot().context.clock;
      const r = readClock(state, out.at);
      const body = clockEventBody(out, r.status, { white: r.white, black: r.black }, state);
      if (!body || body.case !== 'clockEvent') return;
      this.lastEventAt = out.at;
      report(this, create(ClockEventSchema, body.value as Parameters<typeof create<typeof ClockEventSchema>>[1]));
    });
    this.actor.start();
    this.actor.send({ type: 'NEW_GAME', timeControl: tc, at: origin });
  }
  get now(): number {
    return this.clock.now();
  }
  state(): ClockState {
    return this.actor.getSnapshot().context.clock;
  }
  send(input: ClockInput): void {
    this.clock.advanceTo(input.at);
    this.actor.send(input);
    this.clock.advanceTo(input.at);
  }
}

export type Step =
  | { kind: 'wait'; ms: number }
  | { kind: 'press'; wrong: boolean }
  | { kind: 'pause' | 'resume' | 'takeback' | 'reinstate' | 'start' }
  | { kind: 'adjust'; side: Side; ms: number }
  | { kind: 'penalty'; side: Side }
  | { kind: 'moves'; side: Side; moves: number }
  | { kind: 'arrive'; side: Side }
  | { kind: 'increment'; ms: number }
  /** Protocol 1.4: a take-back keeping both times (Laws 7.1), the side on move and a corrected control (6.10.2), the quickplay delay (Guidelines III.4). */
  | { kind: 'takeback-keep' }
  | { kind: 'turn'; side: Side }
  | { kind: 'control'; timeControl: TimeControl }
  | { kind: 'delay'; ms: number }
  | { kind: 'result'; result: '1-0' | '0-1' | '1/2-1/2' | '--'; by: 'players' | 'arbiter' }
  /**
   * Restored from the journal: a spare clock replaces this one (Laws 6.10.1, the old one dead
   * mid-turn), this clock reboots (power cut), or the same boot is held and restored (a host restart).
   */
  | { kind: 'swap'; mode: 'spare' | 'reboot' | 'in-place' };

const side = fc.constantFrom<Side>('white', 'black');
/** Controls an arbiter installs mid-game (FIDE Laws 6.10.2): periods, delays, unequal sides, another default time and timing. */
const CORRECTIONS: readonly TimeControl[] = [
  timeControl(parseSideControl('3/60+2:30+1'), parseSideControl('3/60+2:30+1'), { incrementTiming: 'after-move', defaultTime: null }),
  timeControl(parseSideControl('300+5'), parseSideControl('240+5'), { incrementTiming: 'before-move', defaultTime: 60 }),
  timeControl(parseSideControl(delayed('60d5')), parseSideControl(delayed('60d5')), { incrementTiming: 'before-move', defaultTime: null }),
];
export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 40_000 }).map((ms) => ({ kind: 'wait' as const, ms })) },
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 9 }).map((n) => ({ kind: 'press' as const, wrong: n === 0 })) },
  { weight: 2, arbitrary: fc.constantFrom('pause', 'resume', 'takeback', 'reinstate', 'start').map((kind) => ({ kind }) as Step) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adjust' as const), side, ms: fc.integer({ min: -90_000, max: 90_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('penalty' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('moves' as const), side, moves: fc.integer({ min: 0, max: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('arrive' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('increment' as const), ms: fc.integer({ min: 0, max: 5_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'takeback-keep' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('turn' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('control' as const), timeControl: fc.constantFrom(...CORRECTIONS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delay' as const), ms: fc.integer({ min: 0, max: 5_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      result: fc.constantFrom<'1-0' | '0-1' | '1/2-1/2' | '--'>('1-0', '0-1', '1/2-1/2', '--'),
      by: fc.constantFrom<'players' | 'arbiter'>('players', 'arbiter'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('swap' as const), mode: fc.constantFrom<'spare' | 'reboot' | 'in-place'>('spare', 'reboot', 'in-place') }),
  },
);

/** Every mode the clock runs: increments before/after the move, delays, sandclock, periods ending in the game, default time. */
export const controls: fc.Arbitrary<TimeControl> = fc
  .tuple(
    fc.constantFrom('300+5', '120', '60d5', '90b3', '3/60+2:30+1', '2/40:1/20:60+3', '*90', '180+2'),
    fc.constantFrom('before-move', 'after-move') as fc.Arbitrary<'before-move' | 'after-move'>,
    fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
  )
  .map(([spec, incrementTiming, defaultTime]) => {
    const c = /^\d+[db]\d+$/.test(spec) ? delayed(spec) : spec;
    return timeControl(parseSideControl(c), parseSideControl(c), { incrementTiming, defaultTime });
  });

function delayed(spec: string): unknown {
  const [seconds, delay] = spec.split(/[db]/).map(Number);
  return [{ seconds, delay, delayMode: spec.includes('d') ? 'simple' : 'bronstein' }];
}

export interface PlayedGame {
  readonly journal: Journal;
  readonly game: GameRow;
  /** The clock boot playing at the end. */
  readonly boot: Boot;
  /** After each step: how many events the journal holds, and the clock's state and the instant of its last report. */
  readonly trace: Array<{ events: number; state: ClockState; at: number }>;
}

let gameNo = 0;
/** Every journal the fixture opened (close them after the tests). */
export const journals: Journal[] = [];

/**
 * Plays `steps` on a clock with control `tc` whose time line starts at `origin`, journaling
 * every event as the host does. A swap restores the next clock from the journal's rebuild
 * through the wire form of the snapshot (docs/protocol.md "Restore").
 */
export function playJournaled(tc: TimeControl, steps: readonly Step[], origin: number, check?: (wired: unknown, snapshot: unknown) => void): PlayedGame {
  const journal = new Journal(':memory:');
  journals.push(journal);
  const game = journal.createGame({
    event: 'prop',
    round: 1,
    board: ++gameNo,
    kind: 'rapid',
    white: 'W',
    black: 'B',
    timeControl: tc,
    clockId: 'A',
    createdUtcMs: 0,
  });
  let utc = 0;
  const trace: PlayedGame['trace'] = [];
  let events = 0;
  const report = (b: Boot, ev: ClockEvent) => {
    journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: ++utc, uncertaintyMs: 1 }), gameId: game.gameId });
    events++;
  };
  // Clock instants are uint32 on the wire: start anywhere, so some games wrap past 2^32.
  let boot = new Boot('A', 1, tc, origin % 2 ** 32, report);
  let boots = 1;
  for (const s of steps) {
    const at = boot.now;
    const st = boot.state();
    switch (s.kind) {
      case 'wait':
        boot.clock.advanceTo(boot.now + s.ms);
        break;
      case 'press':
        boot.send({ type: 'PRESS', side: s.wrong ? (st.turn === 'white' ? 'black' : 'white') : st.turn, at });
        break;
      case 'start':
        boot.send({ type: 'START', at });
        break;
      case 'pause':
        boot.send({ type: 'PAUSE', at });
        break;
      case 'resume':
        boot.send({ type: 'RESUME', at });
        break;
      case 'takeback':
        boot.send({ type: 'TAKEBACK', at });
        break;
      case 'reinstate':
        boot.send({ type: 'REINSTATE', at });
        break;
      case 'adjust':
        boot.send({ type: 'ADJUST', side: s.side, ms: s.ms, at });
        break;
      case 'penalty':
        boot.send({ type: 'PENALTY', side: s.side, at });
        break;
      case 'moves':
        boot.send({ type: 'SET_MOVES', side: s.side, moves: s.moves, at });
        break;
      case 'arrive':
        boot.send({ type: 'ARRIVE', side: s.side, at });
        break;
      case 'increment':
        boot.send({ type: 'INCREMENT', ms: s.ms, at });
        break;
      case 'takeback-keep':
        boot.send({ type: 'TAKEBACK', at, times: 'keep' });
        break;
      case 'turn':
        boot.send({ type: 'SET_TURN', side: s.side, at });
        break;
      case 'control':
        boot.send({ type: 'SET_CONTROL', timeControl: s.timeControl, at });
        break;
      case 'delay':
        boot.send({ type: 'DELAY', ms: s.ms, at });
        break;
      case 'result':
        boot.send({ type: 'RESULT', result: s.result, by: s.by, at });
        break;
      case 'swap': {
        if (st.result !== null) break;
        // docs/protocol.md "Restore": a held clock pauses first (HOLD); a dead one cannot.
        if (s.mode === 'in-place' && st.status === 'running') boot.send({ type: 'PAUSE', at });
        const snapshot = restoreSnapshot(rebuildGame(tc, journal.eventsByGame(game.gameId)));
        // Through the wire: what the clock loads is what the message says.
        const wired = snapshotFromWire(snapshotToWire(snapshot));
        check?.(wired, snapshot);
        if (s.mode === 'in-place') {
          boot.send({ type: 'RESTORE', snapshot: wired, at: boot.now + 500 });
          break;
        }
        const next = new Boot(s.mode === 'reboot' ? 'A' : `SPARE-${boots}`, ++boots, tc, (origin * 7 + boots * 1_000_003) % 2 ** 32, report);
        next.send({ type: 'RESTORE', snapshot: wired, at: next.now });
        boot.actor.stop();
        boot = next;
        break;
      }
    }
    trace.push({ events, state: boot.state(), at: boot.lastEventAt });
  }
  return { journal, game, boot, trace };
}

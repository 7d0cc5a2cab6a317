// The clocks of a load run (scripts/load.ts, bench/host-hall.bench.ts): many clocks on one
// accelerated time line, each with its cable to the host, and a steady press load.
//
// Two kinds, mixed (docs/load.md "What runs"):
//  - `board`: the full simulated clock, the firmware on a virtual board through Johnny-Five
//    (VirtualClock; a press costs ~1.7 ms of CPU and ~15 ms of real time for the debounce);
//  - `headless`: the same firmware adapter and statecharts on a headless Hardware
//    (HeadlessClock; ~0.2 ms of CPU per press): what a thousand clocks can afford on one core.
// Both link to the host with the unchanged firmware link (outbox, time sync, acks).
//
// Players here are simpler than the hall's: once their clock is configured they start it
// and press alternately with log-normal think times until told to stop; a paused clock (held
// by a restarted host) gets one press, which is not a move, and then they wait for the
// resume. Every press the clock accepted (a `move` output of the statechart) is reported with
// the real monotonic instant it happened, so a run can compare each press with the journal
// and the subscribers; a press the clock did not take as a move is not reported.
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import type { ClockFirmware } from '../firmware-ts/clock-firmware.ts';
import type { ClockOutput } from '../rules/clock.machine.ts';
import type { ButtonName } from '../firmware-ts/menu-context.ts';
import { monotonicNowMs } from '../protocol/monotonic.ts';
import { mulberry32, type Rng } from '../protocol/prng.ts';
import { presetTimeControl, type Side } from '../protocol/time-control.ts';
import type { AcceleratedTime } from './accelerated-time.ts';
import { ClockCable } from './clock-cable.ts';
import { HeadlessClock } from './headless-clock.ts';
import { logNormalMs } from './player-script.ts';
import { VirtualClock } from './virtual-clock.ts';

export type LoadClockKind = 'board' | 'headless';

export interface LoadClock {
  readonly index: number;
  readonly serialId: string;
  readonly kind: LoadClockKind;
  readonly firmware: ClockFirmware;
  readonly cable: ClockCable;
  readonly link: ClockLink;
  tap(key: ButtonName): Promise<void> | void;
  /** Presses this clock accepted. */
  presses: number;
  /** Games the host configured on it. */
  configured: number;
  stop(): Promise<void>;
}

/** One accepted press: the clock, the side, its move number, and when (real monotonic ms). */
export interface Press {
  readonly clockId: string;
  readonly side: Side;
  readonly move: number;
  readonly atRealMs: number;
}

/** Key of a press in a run where each clock plays one game: clock/side/move. */
export const pressKey = (clockId: string, side: string, move: number): string => `${clockId}/${side}/${move}`;

export interface LoadClocksOptions {
  readonly time: AcceleratedTime;
  readonly seed: number;
  /** Serial id of clock `index`. */
  readonly serialId?: (index: number) => string;
  readonly onPress?: (press: Press) => void;
}

export async function bootLoadClock(index: number, kind: LoadClockKind, opts: LoadClocksOptions): Promise<LoadClock> {
  const serialId = opts.serialId?.(index) ?? `load-${index + 1}`;
  const tc = presetTimeControl('classical');
  let firmware: ClockFirmware;
  let tap: (key: ButtonName) => Promise<void> | void;
  let stopClock: () => Promise<void> | void;
  if (kind === 'board') {
    const clock = await VirtualClock.boot({ timeControl: tc, time: opts.time, snapshots: memorySnapshotStore(), sound: false });
    firmware = clock.firmware;
    tap = (key) => clock.tap(key);
    stopClock = () => clock.stop();
  } else {
    const clock = new HeadlessClock(tc, opts.time);
    firmware = clock.firmware;
    tap = (key) => clock.tap(key);
    stopClock = () => clock.stop();
  }
  const cable = new ClockCable(serialId, opts.seed * 7919 + index);
  const link = linkClockToHost(firmware, cable, { serialId, timers: realTimebase, statusIntervalMs: 0 });
  const c: LoadClock = {
    index,
    serialId,
    kind,
    firmware,
    cable,
    link,
    tap,
    presses: 0,
    configured: 0,
    async stop() {
      link.close('load over');
      cable.unplug();
      await stopClock();
    },
  };
  firmware.on('output', (out: ClockOutput) => {
    if (out.type === 'new-game') c.configured++;
    if (out.type !== 'move') return;
    c.presses++;
    opts.onPress?.({ clockId: serialId, side: out.side, move: out.move, atRealMs: monotonicNowMs() });
  });
  return c;
}

export interface PressLoadOptions {
  readonly time: AcceleratedTime;
  /** Median think time per move, hall ms (log-normal). */
  readonly thinkMedianMs: number;
  readonly thinkSigma: number;
  readonly seed: number;
  /** Starts are spread uniformly over this long (hall ms; default one minute), as arbiters walk along the rows. */
  readonly startSpreadMs?: number;
}

/**
 * Players at every clock: once the host configured the clock, they start it and press in
 * turn until `stop()`. Think times are drawn per clock from its own seeded stream.
 */
export class PressLoad {
  private stopped = false;
  private readonly done: Promise<void>[] = [];

  constructor(private readonly opts: PressLoadOptions) {}

  start(clocks: readonly LoadClock[]): void {
    for (const c of clocks) this.done.push(this.playAt(c, mulberry32((this.opts.seed * 1_000_003 + c.index) >>> 0)));
  }

  /**
   * Stops pressing; resolves when every player has put their hands down, or after
   * `boundRealMs` with the serial ids of the clocks whose player is still inside a wait or a
   * press (one load run hung here once, on a clock never identified: a bound names it, a
   * hang does not). Resolves with [] when all stopped.
   */
  async stop(boundRealMs = 20_000): Promise<string[]> {
    this.stopped = true;
    for (const wake of [...this.waiting]) wake();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<'bound'>((r) => (timer = setTimeout(() => r('bound'), boundRealMs)));
    const all = await Promise.race([Promise.all(this.done).then(() => 'all' as const), bound]);
    clearTimeout(timer);
    return all === 'all' ? [] : [...this.busy];
  }

  /** Serial ids of the clocks whose player is inside a wait or a press now. */
  private readonly busy = new Set<string>();

  /**
   * Presses on a paused clock (a held clock, an arbiter's pause): the player's hand was
   * already on its way. Laws 6.11: a paused clock changes no time on a press, so it is not a
   * move (the statechart only marks the player present) and the run's accounting, which
   * counts the clock's `move` outputs, does not count it. `pausedPressesAccepted` counts any that came out as a move while the clock
   * stayed paused (must be 0); `pausedPressesResumedMeanwhile` those the clock took as a move
   * because it had been resumed by the time the key went down (a move like any other).
   */
  pausedPresses = 0;
  pausedPressesAccepted = 0;
  pausedPressesResumedMeanwhile = 0;

  /** Players waiting for their paused clock: woken by the clock's next output, or by stop(). */
  private readonly waiting = new Set<() => void>();

  /**
   * Resolves when the clock is no longer paused (looked at after each output of its
   * statechart, once the transition has settled) or on stop().
   */
  private untilNotPaused(c: LoadClock): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.stopped && c.firmware.reading().status === 'paused') return;
        c.firmware.off('output', onOutput);
        this.waiting.delete(check);
        resolve();
      };
      const onOutput = () => setImmediate(check);
      c.firmware.on('output', onOutput);
      this.waiting.add(check);
      check();
    });
  }

  private async playAt(c: LoadClock, rng: Rng): Promise<void> {
    this.busy.add(c.serialId);
    try {
      await this.play(c, rng);
    } finally {
      this.busy.delete(c.serialId);
    }
  }

  private async play(c: LoadClock, rng: Rng): Promise<void> {
    const { time } = this.opts;
    while (c.configured === 0 && !this.stopped) await time.until(time.now() + 1_000);
    if (this.stopped) return;
    await time.until(time.now() + Math.round(rng() * (this.opts.startSpreadMs ?? 60_000)));
    if (this.stopped) return;
    await c.tap('startPause');
    while (!this.stopped) {
      await time.until(time.now() + logNormalMs(rng, this.opts.thinkMedianMs, this.opts.thinkSigma));
      if (this.stopped) return;
      const r = c.firmware.reading();
      if (r.status === 'paused') {
        // Held by the host (a restarted host brings every clock to the journal, docs/protocol.md
        // "Restore") or paused by an arbiter: the player presses once, then waits for the
        // arbiter to resume the clock (Laws 6.11), and thinks afresh.
        this.pausedPresses++;
        const before = c.presses;
        await c.tap(r.turn);
        if (c.presses !== before) {
          // A move came out: the clock ran again by the time the key went down (resumed during
          // a full board's ~15 ms debounce), or it took a press while paused (must not happen).
          if (c.firmware.reading().status === 'running') this.pausedPressesResumedMeanwhile++;
          else this.pausedPressesAccepted++;
        }
        await this.untilNotPaused(c);
        continue;
      }
      if (r.status !== 'running') return; // a flag (should not happen with these think times)
      await c.tap(r.turn);
    }
  }
}

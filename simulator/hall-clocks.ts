// The clocks of a simulated tournament hall, for people to watch (`chessclock hall`):
// one simulated clock per table — the unchanged firmware on a virtual board (Johnny-Five)
// — on accelerated time, each on a cable a host can open, with scripted players who
// play every game the host configures on their clock, from the start to the result they
// key in, then wait for the next one.
//
// Unlike Fleet (simulator/fleet.ts: one game per clock, simulated time jumping as fast as
// the process can go, for tests), time here flows steadily (AcceleratedTime) and the
// games follow the tournament: the host decides what each clock plays next.
//
// This module knows nothing of the host (simulator/ does not import host/): hall/simulated-hall.ts
// puts a Host on the cables and tells the players when a game may start.
import { linkClockToHost, type ClockLink } from '../firmware-ts/host-link.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { memorySnapshotStore } from '../firmware-ts/snapshot-store.ts';
import type { ClockOutput } from '../rules/clock.machine.ts';
import { mulberry32, type Rng } from '../protocol/prng.ts';
import { Command_Kind } from '../protocol/gen/chessclock_pb.ts';
import type { ReceivedMessage } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import type { AcceleratedTime } from './accelerated-time.ts';
import { ClockCable } from './clock-cable.ts';
import { PLAYED_RESULTS, type ClockResult } from '../rules/vocabulary.ts';
import { DEFAULT_PLAYERS, describeEnding, playGame, type GameSummary, type PlayerModel, type ScriptContext } from './player-script.ts';
import { VirtualClock } from './virtual-clock.ts';

export interface HallClocksOptions {
  readonly count: number;
  readonly time: AcceleratedTime;
  readonly seed: number;
  readonly players?: Partial<PlayerModel>;
  /** Serial id of clock `index` (0-based); default `sim-<index+1>`. */
  readonly serialId?: (index: number) => string;
  /**
   * The players' random stream of clock `index` (see gameRng); default the index. A hall
   * passes its table, so a table's players decide the same whichever clocks stand at the
   * other tables.
   */
  readonly stream?: (index: number) => number;
  /**
   * Hall ms the players wait, once a game is configured on their clock, before the arbiter
   * starts it (the rest of a knockout break, say). Default: a short walk to the board.
   */
  readonly startDelayMs?: (clock: HallClock) => number;
  /** Status heartbeat of each clock's link, real ms (0 = none). */
  readonly statusIntervalMs?: number;
  readonly log?: (line: string) => void;
}

export interface HallClock {
  readonly index: number;
  readonly serialId: string;
  readonly clock: VirtualClock;
  readonly cable: ClockCable;
  readonly link: ClockLink;
  /** Games this clock's players finished, in order. */
  readonly games: GameSummary[];
}

/** What a player's wait rejects with once the hall is stopped. */
export class HallStopped extends Error {
  constructor() {
    super('the hall stopped');
    this.name = 'HallStopped';
  }
}

/** Players sit down and the arbiter starts the clock this long (hall ms) after it was configured. */
export const SEATING_MS = 60_000;

/**
 * The players' random stream for game `gameNo` (1-based) on stream `stream` (a clock's
 * index, or its table): one stream per game, a function of the seed, the stream and the
 * game number only, so what the players decide before a game (who arrives late, how long the game runs, the result they agree on)
 * does not depend on how the previous games happened to be timed on a busy machine.
 */
export function gameRng(seed: number, stream: number, gameNo: number): Rng {
  return mulberry32((Math.imul(seed, 1_000_003) + Math.imul(stream, 7_919) + Math.imul(gameNo, 104_729)) >>> 0);
}

/**
 * The result the players of game `gameNo` on stream `stream` agree on if they end it
 * themselves (a flag or a forfeit decides otherwise): the first draw of the game's stream.
 */
export function agreedResult(seed: number, stream: number, gameNo: number): ClockResult {
  return drawResult(gameRng(seed, stream, gameNo));
}

function drawResult(rng: Rng): ClockResult {
  return PLAYED_RESULTS[Math.floor(rng() * PLAYED_RESULTS.length)];
}

export class HallClocks {
  readonly clocks: HallClock[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  private readonly releases = new Set<() => void>();
  /** Pending waits on hall time; stop() cancels them so a stopped hall leaves no timer behind. */
  private readonly waits = new Set<() => void>();

  private constructor(private readonly opts: HallClocksOptions) {}

  static async boot(opts: HallClocksOptions): Promise<HallClocks> {
    if (!Number.isInteger(opts.count) || opts.count < 1) throw new Error(`--clocks must be a whole number ≥ 1, got ${opts.count}`);
    const hall = new HallClocks(opts);
    for (let index = 0; index < opts.count; index++) {
      const serialId = opts.serialId?.(index) ?? `sim-${index + 1}`;
      // Until the host configures it, a clock shows the classical preset (as out of the box).
      const clock = await VirtualClock.boot({ timeControl: presetTimeControl('classical'), time: opts.time, snapshots: memorySnapshotStore(), sound: false });
      clock.sleep = (ms) => opts.time.until(opts.time.now() + ms);
      const cable = new ClockCable(serialId, opts.seed * 7919 + index);
      // Link timers (retransmission, heartbeats) run on real time; events carry hall time.
      const link = linkClockToHost(clock.firmware, cable, { serialId, timers: realTimebase, statusIntervalMs: opts.statusIntervalMs ?? 1000 });
      clock.hostLink = link;
      hall.clocks.push({ index, serialId, clock, cable, link, games: [] });
    }
    return hall;
  }

  /** Starts the players at every clock; they play until stop(). */
  play(): void {
    for (const c of this.clocks) this.loops.push(this.playAt(c));
  }

  private async playAt(c: HallClock): Promise<void> {
    const { time } = this.opts;
    const model: PlayerModel = { ...DEFAULT_PLAYERS, ...this.opts.players };
    // An arbiter's pause from the host holds the players at their board until the arbiter
    // resumes (without this the script would take the stopped clock for the end of the game).
    let held: Promise<void> | null = null;
    let release: (() => void) | null = null;
    c.link.link.on('message', (m: ReceivedMessage) => {
      if (m.body.case !== 'command') return;
      // (linkClockToHost's listener came first: the firmware has applied or refused it)
      if (m.body.value.kind === Command_Kind.PAUSE && !held && c.clock.firmware.reading().status === 'paused') held = new Promise((r) => (release = r));
      if (m.body.value.kind === Command_Kind.RESUME && held) {
        release!();
        held = release = null;
      }
    });
    this.releases.add(() => release?.());
    const until = async (t: number) => {
      await this.until(t);
      while (held && !this.stopped) await held;
      if (this.stopped) throw new HallStopped();
    };
    let configured = 0;
    let played = 0;
    let gameNo = 0; // games the players started at this clock
    let wake: (() => void) | null = null;
    c.clock.firmware.on('output', (out: ClockOutput) => {
      if (out.type !== 'new-game') return;
      configured++;
      wake?.();
    });
    while (!this.stopped) {
      if (configured === played) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          this.wakers.add(resolve);
        });
        this.wakers.delete(wake!);
        wake = null;
        continue;
      }
      played = configured;
      try {
        await this.until(time.now() + (this.opts.startDelayMs?.(c) ?? SEATING_MS));
      } catch {
        return; // stopped
      }
      if (configured !== played) continue; // reconfigured while the players sat down
      try {
        const rng = gameRng(this.opts.seed, this.opts.stream?.(c.index) ?? c.index, ++gameNo);
        const ctx: ScriptContext = { clock: c.clock, rng, model, until, agreedResult: drawResult(rng) };
        const summary = await playGame(ctx);
        c.games.push(summary);
        this.opts.log?.(`${c.serialId}: game over after ${summary.moves} moves, ${summary.result} (${describeEnding(summary)})`);
      } catch (err) {
        if (this.stopped) return;
        this.opts.log?.(`${c.serialId}: players stopped: ${(err as Error).message}`);
      }
    }
  }

  /**
   * Resolves when hall time reaches `t`; rejects with HallStopped once stop() is called
   * (the players leave: at --speed 1 a think can last minutes of real time, which must
   * not hold the process after Ctrl-C).
   */
  private until(t: number): Promise<void> {
    const { time } = this.opts;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<AcceleratedTime['setTimer']> | null = null;
      const cancel = () => {
        if (timer !== null) time.clearTimer(timer);
        this.waits.delete(cancel);
        reject(new HallStopped());
      };
      const tick = () => {
        timer = null;
        if (this.stopped) return cancel();
        const left = t - time.now();
        if (left > 0) {
          timer = time.setTimer(tick, left);
          return;
        }
        this.waits.delete(cancel);
        resolve();
      };
      this.waits.add(cancel);
      tick();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of [...this.waits]) w();
    for (const w of this.wakers) w();
    for (const r of this.releases) r();
    for (const c of this.clocks) {
      c.link.close('hall closed');
      c.cable.unplug();
      await c.clock.stop();
    }
  }
}

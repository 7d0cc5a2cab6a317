// The clock firmware: the hardware adapter around the clock statechart.
//
//   key edge ──► stamped `at` = time.now() ──► menu machine ──► clock machine (the rules)
//                                                                   │ outputs
//   LCD / LEDs / piezo ◄── repaint from readClock(state, now) ◄──────┘──► host link
//
// The adapter decides no rule: every key edge is stamped where it arrives and handed
// on; the display is repainted from the clock state (readClock) when something changed
// and when the shown text is due to change (msUntilDisplayChange), so the charged time
// never comes from display ticks (docs/architecture.md rules 2 and 3).
import { EventEmitter } from 'node:events';
import { createActor, type Actor } from 'xstate';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import type { Hardware } from './board.ts';
import type { BoardSession } from './board-session.ts';
import { readClock } from '../rules/clock-reading.ts';
import type { ClockState } from '../rules/clock-state.ts';
import { clockMachine, type ClockInput, type ClockMachine, type ClockOutput } from '../rules/clock.machine.ts';
import { msUntilDisplayChange, renderDigits, type ClockReading } from '../rules/display-format.ts';
import { clockView } from './clock-view.ts';
import { menuEventsFor, type ButtonName } from './menu-context.ts';
import { menuMachine, type MenuMachine } from './menu.machine.ts';
import type { ClockResult } from '../rules/vocabulary.ts';
import { menuMode, screenRows } from './menu-text.ts';
import type { SnapshotStore } from './snapshot-store.ts';
import { xstateClock, type Timebase } from './timebase.ts';

/**
 * A result entered at the clock (both players with their levers, or the arbiter in arbiter
 * mode), once the statechart recorded it: the firmware's 'result' event, for the host link.
 */
export type ResultEntry = { type: 'result'; result: ClockResult; by: 'players' | 'arbiter'; at: number };

export interface FirmwareOptions {
  hardware: Hardware;
  time: Timebase;
  /** The control for a fresh game (a restored game keeps its own). */
  timeControl: TimeControl;
  /** Where the clock state is saved at every change; a saved game is restored at boot. */
  snapshots?: SnapshotStore;
  /** Piezo on at a flag (the setup menu can change it). Default true. */
  sound?: boolean;
}

/** The flag beep: one short 2 kHz tone (loud enough in a hall, short enough not to disturb). */
export const FLAG_BEEP = { hz: 2000, ms: 200 } as const;

/** Clock outputs that change the clock state (everything but `rejected`): each is snapshotted. */
const CHANGES = new Set<ClockOutput['type']>([
  'started',
  'move',
  'flag',
  'forfeit',
  'paused',
  'resumed',
  'adjusted',
  'arrived',
  'moves-set',
  'takeback',
  'turn-set',
  'control-set',
  'delay-set',
  'reinstated',
  'increment-set',
  'result',
  'new-game',
  'restored',
]);

/**
 * A time base that continues from `fromMs`: after a power cut the new process's monotonic
 * clock starts near zero, but the restored clock state was stamped on the old one. The
 * time the power was off is not counted (the clock stood paused).
 */
export function continuingTimebase(base: Timebase, fromMs: number): Timebase {
  const offset = Math.max(0, fromMs - base.now());
  if (offset === 0) return base;
  return { now: () => base.now() + offset, setTimer: (fn, ms) => base.setTimer(fn, ms), clearTimer: (h) => base.clearTimer(h) };
}

export class ClockFirmware extends EventEmitter {
  readonly clock: Actor<ClockMachine>;
  readonly menu: Actor<MenuMachine>;
  readonly time: Timebase;
  /** True when this boot restored a saved game (power cut). */
  readonly restored: boolean;
  private hardware: Hardware;
  private readonly snapshots: SnapshotStore | undefined;
  private sound: boolean;
  /** The host's game this clock plays (its last Configure, or the game saved before a power cut). */
  private game: string | null;
  private repaintTimer: ReturnType<Timebase['setTimer']> | null = null;
  private leds: Record<Side, boolean | null> = { white: null, black: null };
  private stopped = false;
  /** Keys seen going down and not yet up. */
  private readonly down = new Set<ButtonName>();
  private readonly onDown = (key: ButtonName) => this.key('KEY_DOWN', key);
  private readonly onUp = (key: ButtonName) => this.key('KEY_UP', key);

  constructor(options: FirmwareOptions) {
    super();
    this.hardware = options.hardware;
    this.snapshots = options.snapshots;
    this.sound = options.sound ?? true;
    const saved = options.snapshots?.load() ?? null;
    const restore = saved && saved.status !== 'ready' ? saved : null;
    this.game = restore ? (options.snapshots?.loadGameId() ?? null) : null;
    this.restored = restore !== null;
    this.time = restore ? continuingTimebase(options.time, restore.lastAt) : options.time;
    const clock = xstateClock(this.time);

    this.clock = createActor(clockMachine, {
      input: { timeControl: restore?.timeControl ?? options.timeControl, ...(restore ? { restore } : {}) },
      clock,
    });
    this.menu = createActor(menuMachine, { input: { sound: this.sound, restored: restore?.timeControl ?? null }, clock });

    this.clock.on('*', (out) => this.onClockOutput(out as ClockOutput));
    this.menu.on('command', ({ input }) => this.clock.send(input));
    this.menu.on('sound', ({ on }) => (this.sound = on));
    this.menu.subscribe(() => this.repaint());
    this.hardware.keys.on('down', this.onDown);
    this.hardware.keys.on('up', this.onUp);
    this.clock.start();
    this.menu.start();
    if (restore) this.snapshots?.save(this.state(), this.game);
    this.repaint();
  }

  /** The host's game this clock plays: its last Configure's id ("" or null: none). */
  get gameId(): string | null {
    return this.game;
  }

  /** The host configured this clock for game `id` (the link calls it with the Configure it took). */
  setGame(id: string | null): void {
    this.game = id;
    this.snapshots?.save(this.state(), this.game);
  }

  now(): number {
    return this.time.now();
  }

  /** Whether the piezo beeps at a flag (the setup menu can switch it). */
  get soundOn(): boolean {
    return this.sound;
  }

  state(): ClockState {
    return this.clock.getSnapshot().context.clock;
  }

  reading(at = this.now()): ClockReading {
    return readClock(this.state(), at);
  }

  /** The text on the screen now (LCD rows, or the two 4-digit displays). */
  screen(at = this.now()): string[] {
    const reading = this.reading(at);
    const menu = this.menu.getSnapshot();
    if (this.hardware.screen.kind === 'digits' && menuMode(menu.value) === 'game') {
      return [renderDigits(reading, 'white'), renderDigits(reading, 'black')];
    }
    return screenRows(menu.value, menu.context, clockView(this.state(), at), at);
  }

  /**
   * A result recorded elsewhere (the arbiter at the host): the statechart's RESULT by
   * 'host', so the game is over at the clock too. null records nothing (a new game clears
   * the result).
   */
  showResult(result: ClockResult | null): void {
    if (result === null) return;
    this.command({ type: 'RESULT', result, by: 'host' });
  }

  /** A clock input from elsewhere (the host link), stamped now. */
  command(input: DistributiveOmit<ClockInput, 'at'>): void {
    this.clock.send({ ...input, at: this.now() } as ClockInput);
  }

  /**
   * The board under the clock reset (firmware-ts/board-session.ts saw it announce itself
   * again): its keys are dead until it is back, so a running clock is paused now, stamped
   * where the news arrives, and stays paused for the arbiter (docs/firmware.md, "When the
   * Arduino resets"). The pause is a clock output like any other: snapshotted, sent to the host.
   */
  boardReset(): void {
    if (this.stopped) return;
    if (this.state().status === 'running') this.command({ type: 'PAUSE' });
  }

  /** The board is back (new Johnny-Five components): listen to its keys and paint the clock state on it. */
  replaceHardware(hardware: Hardware): void {
    if (this.stopped) return;
    this.hardware.keys.off('down', this.onDown);
    this.hardware.keys.off('up', this.onUp);
    this.hardware = hardware;
    // Keys held on the old board are released with it: the new board reports them afresh.
    this.down.clear();
    hardware.keys.on('down', this.onDown);
    hardware.keys.on('up', this.onUp);
    this.leds = { white: null, black: null };
    this.repaint();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.hardware.keys.off('down', this.onDown);
    this.hardware.keys.off('up', this.onUp);
    if (this.repaintTimer !== null) this.time.clearTimer(this.repaintTimer);
    this.menu.stop();
    this.clock.stop();
  }

  private key(type: 'KEY_DOWN' | 'KEY_UP', key: ButtonName): void {
    if (this.stopped) return;
    // A release is a key's release only after its press. At connect StandardFirmata's first
    // port report can read an idle key LOW (a pin of the port not yet in INPUT mode reads 0),
    // the next HIGH, both inside five.Button's 7 ms debounce, which then reports only an 'up'
    // (seen with the real binary on the emulated Uno over a pty: the clock started by itself).
    // A lone 'up' of start/pause must not start the clock.
    if (type === 'KEY_DOWN') this.down.add(key);
    else if (!this.down.delete(key)) return;
    // docs/architecture.md rule 2: the edge is stamped here, where it arrives, and nowhere else.
    const at = this.now();
    this.menu.send({ type, key, at, ...clockView(this.state(), at) });
    this.emit('key', { key, edge: type === 'KEY_DOWN' ? 'down' : 'up', at });
  }

  private onClockOutput(out: ClockOutput): void {
    if (out.type === 'flag' && this.sound) this.hardware.beep(FLAG_BEEP.hz, FLAG_BEEP.ms);
    // The menu hears why the clock refused what it sent, a restore from the host, and each
    // illegal move recorded (FIDE Laws 7.5.5: the second one asks the arbiter for the result).
    for (const event of menuEventsFor(out, () => this.reading())) this.menu.send(event);
    this.repaint();
    if (CHANGES.has(out.type)) this.snapshots?.save(this.state(), this.game);
    this.emit('output', out);
    // A result entered at the clock goes to the host once the statechart has recorded it.
    if (out.type === 'result' && out.by !== 'host') this.emit('result', { type: 'result', result: out.result, by: out.by, at: out.at } satisfies ResultEntry);
  }

  /** Paints what the clock state says now and sleeps until the shown text next changes. */
  private repaint(): void {
    if (this.stopped) return;
    const at = this.now();
    const reading = this.reading(at);
    this.hardware.screen.paint(this.screen(at), reading.status === 'paused');
    for (const side of ['white', 'black'] as const) {
      // FIDE equipment standard (d): which clock runs, visible from 10 m.
      const on = reading.status === 'running' && reading.turn === side;
      if (this.leds[side] !== on) this.hardware.setLed(side, on);
      this.leds[side] = on;
    }
    if (this.repaintTimer !== null) this.time.clearTimer(this.repaintTimer);
    this.repaintTimer = null;
    let delay = Infinity;
    if (reading.status === 'running') {
      delay = msUntilDisplayChange(reading[reading.turn]);
      // A sandclock also fills the waiting side's time: repaint every tenth then.
      if (this.state().timeControl.white.kind === 'sandclock') delay = Math.min(delay, 100);
    }
    // FIDE Laws 6.7.1: the default-time countdown (`DT 14:32`) runs, also while paused.
    if (reading.forfeitAt !== null) delay = Math.min(delay, msUntilDisplayChange(reading.forfeitAt - at));
    if (Number.isFinite(delay)) this.repaintTimer = this.time.setTimer(() => this.repaint(), delay);
    this.emit('paint');
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Keeps a clock on a board session: paused when the board resets, repainted when it is back. */
export function followBoardSession(firmware: ClockFirmware, session: BoardSession): () => void {
  const onReset = () => firmware.boardReset();
  const onHardware = (hardware: Hardware) => firmware.replaceHardware(hardware);
  session.on('reset', onReset);
  session.on('hardware', onHardware);
  return () => {
    session.off('reset', onReset);
    session.off('hardware', onHardware);
  };
}

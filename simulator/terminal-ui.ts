// `chessclock sim`: a simulated clock for a person, in the terminal. The screen shows
// exactly what the virtual LCD holds (decoded from the I2C bytes the firmware sent), the
// two LEDs and the piezo. A terminal reports key presses but not releases, so each key
// is a tap (press, then release once the firmware saw the edge); the arbiter combination
// (hold mode+ok 2 s) has its own key. `chessclock sim` and `chessclock demo` both run
// this one terminal clock; its keys are listed here once (KEY_HELP, docs/simulator.md).
import type { ClockOutput } from '../rules/clock.machine.ts';
import type { ResultEntry } from '../firmware-ts/clock-firmware.ts';
import type { ButtonName } from '../firmware-ts/menu-context.ts';
import { setupTimeControl } from '../firmware-ts/menu-setup.ts';
import { ARBITER_HOLD_MS } from '../firmware-ts/menu.machine.ts';
import { menuMode } from '../firmware-ts/menu-text.ts';
import { describeTimeControl } from '../rules/time-control-text.ts';
import type { VirtualClock } from './virtual-clock.ts';

/** What the terminal needs of a clock: the virtual board's (virtual-clock.ts) or the emulated Uno's (uno/uno-clock.ts). */
export interface TerminalClock {
  readonly firmware: VirtualClock['firmware'];
  screen(): string[];
  readonly board: { led(side: 'white' | 'black'): boolean };
  tap(key: Parameters<VirtualClock['tap']>[0]): Promise<unknown>;
  hold(keys: Parameters<VirtualClock['hold']>[0], ms: number): Promise<void>;
}

/** The terminal clock's keys: the board's keys, one tap each (docs/simulator.md). */
export const KEY_HELP = [
  'a  White lever        l  Black lever        space  start / pause',
  'm  mode (setup; next item)   + plus   - minus   enter  ok (result; apply)',
  'A  arbiter mode (holds mode+ok 2 s)         q  quit',
];

/**
 * The heading: the control the clock runs, in words (or, in setup, the one being chosen).
 * `White 6 min, Black 5 min (draw = Black wins)`, `60 min sudden death`.
 */
export function terminalTitle(clock: TerminalClock): string {
  const menu = clock.firmware.menu.getSnapshot();
  if (menuMode(menu.value) === 'setup') {
    try {
      return `setup: ${describeTimeControl(setupTimeControl(menu.context.setup))}`;
    } catch (err) {
      return `setup: ${(err as Error).message}`;
    }
  }
  return describeTimeControl(clock.firmware.state().timeControl);
}

const KEYS: Record<string, ButtonName> = {
  a: 'white',
  l: 'black',
  ' ': 'startPause',
  m: 'mode',
  '+': 'plus',
  '=': 'plus',
  '-': 'minus',
  '\r': 'ok',
  '\n': 'ok',
};

export interface TerminalOptions {
  /** The heading, read at every repaint (default: terminalTitle, the control in words). */
  title?: () => string;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Extra status lines (e.g. the host link's state). */
  status?: () => string[];
  /** Calls `repaint` whenever the screen may have changed besides the firmware's paints (the emulated Uno's LCD latching bytes later). */
  onChange?: (repaint: () => void) => void;
}

function describe(out: ClockOutput | ResultEntry, soundOn: boolean): string | null {
  const t = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  switch (out.type) {
    case 'move':
      return `${out.side} move ${out.move}  W ${t(out.white)}  B ${t(out.black)}`;
    case 'flag':
      return `FLAG: ${out.side}'s time ran out${soundOn ? ' (beep)' : ''}`;
    case 'forfeit':
      return `FORFEIT: ${out.side} absent at the default time`;
    case 'adjusted':
      return `${out.reason === 'penalty' ? 'penalty' : 'adjusted'}: ${out.side} ${out.ms > 0 ? '+' : ''}${t(out.ms)}`;
    case 'result':
      return `result ${out.result} (${out.by})`;
    case 'takeback':
      return `take-back: ${out.side}'s move ${out.move + 1} annulled, times ${out.times === 'keep' ? 'kept' : 'rewound'} (illegal moves: ${out.illegalMoves})`;
    case 'turn-set':
      return `${out.side} on move`;
    case 'control-set':
      return `control corrected: ${describeTimeControl(out.timeControl)}; times kept`;
    case 'increment-set':
      return `quickplay increment +${out.ms / 1000} s for both sides`;
    case 'delay-set':
      return `quickplay delay ${out.ms / 1000} s for both sides`;
    case 'arrived':
      return `${out.side} is present`;
    case 'rejected':
      return `refused (${out.input.toLowerCase()}): ${out.reason}`;
    default:
      return out.type;
  }
}

/** Runs until `q` or Ctrl-C; resolves with the exit status. */
export function runTerminal(clock: TerminalClock, options: TerminalOptions): Promise<number> {
  const { input, output } = options;
  const log: string[] = [];
  const note = (line: string | null) => {
    if (!line) return;
    log.push(line);
    if (log.length > 6) log.shift();
  };
  clock.firmware.on('output', (out: ClockOutput) => {
    note(describe(out, clock.firmware.soundOn));
    // The terminal bell stands in for the piezo (not with --no-sound or sound off in setup).
    if (out.type === 'flag' && clock.firmware.soundOn) output.write('\x07');
  });

  let painted = '';
  const paint = () => {
    const rows = clock.screen();
    const led = (on: boolean) => (on ? '●' : '○');
    const lines = [
      `chessclock sim — ${(options.title ?? (() => terminalTitle(clock)))()}`,
      '',
      `  ┌${'─'.repeat(rows[0]?.length ?? 16)}┐`,
      ...rows.map((r) => `  │${r}│`),
      `  └${'─'.repeat(rows[0]?.length ?? 16)}┘`,
      `   White ${led(clock.board.led('white'))}    ${led(clock.board.led('black'))} Black`,
      '',
      ...KEY_HELP,
      '',
      ...(options.status?.() ?? []),
      ...log.map((l) => `  ${l}`),
    ];
    const frame = lines.join('\n');
    if (frame === painted) return;
    painted = frame;
    output.write(`\x1b[H\x1b[2J${frame}\n`);
  };
  // Repaint whenever the LCD or LEDs may have changed; the firmware drives the timing.
  clock.firmware.on('paint', paint);
  options.onChange?.(paint);
  const idle = setInterval(paint, 250);

  // Keys are played one at a time: each waits for its debounced edge at the firmware.
  let queue = Promise.resolve();
  const play = (fn: () => Promise<void>) => {
    queue = queue
      .then(fn)
      .catch((err: Error) => note(`error: ${err.message}`))
      .then(paint);
  };

  return new Promise((resolve) => {
    const finish = (code: number) => {
      clearInterval(idle);
      input.off('data', onData);
      if (input.isTTY) input.setRawMode(false);
      input.pause();
      output.write('\x1b[?25h\n');
      resolve(code);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === 'q' || ch === '\x03') return finish(0);
        if (ch === 'A') play(() => clock.hold(['mode', 'ok'], ARBITER_HOLD_MS + 100));
        const key = KEYS[ch];
        if (key) play(async () => void (await clock.tap(key)));
      }
    };
    if (input.isTTY) input.setRawMode(true);
    input.resume();
    input.on('data', onData);
    output.write('\x1b[?25l');
    paint();
  });
}

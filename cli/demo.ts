// `chessclock demo`: one clock in the terminal, running
// the same statechart as the clock at the board. Keys are stamped with the monotonic
// time where they arrive; the screen only repaints (charged time never comes from ticks).

import { createActor } from 'xstate';
import { monotonicNowMs as nowMs } from '../firmware-ts/monotonic.ts';
import { isPresetName, presetTimeControl, PRESETS, TimeControlError, type Side } from '../protocol/time-control.ts';
import { clockMachine, readClock, type ClockInput, type ClockOutput } from '../firmware-ts/clock.machine.ts';
import { formatClockTime } from '../firmware-ts/display-format.ts';

const HELP = `usage: chessclock demo [--preset NAME] [--default-time SECONDS]

An interactive clock in the terminal.
  presets: ${Object.keys(PRESETS).join(', ')} (default: classical)
keys:
  s        start (arbiter)            a / l   White's / Black's lever
  space    pause / resume             w / b   White / Black arrives
  p        penalty on the side on move (illegal move)
  q        quit`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  let preset = 'classical';
  let defaultTime: number | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--preset') preset = args[++i] ?? '';
    else if (a === '--default-time') defaultTime = Number(args[++i]);
    else {
      process.stderr.write(`chessclock demo: unknown option "${a}"\n${HELP}\n`);
      return 2;
    }
  }
  if (!isPresetName(preset)) {
    process.stderr.write(`chessclock demo: unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})\n`);
    return 2;
  }
  let timeControl;
  try {
    timeControl = presetTimeControl(preset, { defaultTime });
  } catch (err) {
    if (err instanceof TimeControlError) {
      process.stderr.write(`chessclock demo: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  const actor = createActor(clockMachine, { input: { timeControl } });
  const log: string[] = [];
  actor.on('*', (out: ClockOutput) => {
    const line = describe(out);
    if (line) log.push(line);
    if (log.length > 6) log.shift();
    if (out.type === 'flag') process.stdout.write('\x07'); // the piezo's beep
  });
  actor.start();

  const tty = process.stdin.isTTY === true;
  const paint = (): void => {
    const r = readClock(actor.getSnapshot().context.clock, nowMs());
    const mark = (side: Side): string =>
      r.forfeited[side] ? ' FORFEIT' : r.flag === side ? ' FLAG' : r.status === 'running' && r.turn === side ? ' <' : '';
    const screen = [
      `chessclock demo — ${PRESETS[preset as keyof typeof PRESETS].label}${defaultTime !== null ? `, default time ${defaultTime} s` : ''}`,
      '',
      `  White ${formatClockTime(r.white).padStart(9)}  move ${r.moves.white}${mark('white')}`,
      `  Black ${formatClockTime(r.black).padStart(9)}  move ${r.moves.black}${mark('black')}`,
      '',
      `  status: ${r.status}`,
      '',
      ...log.map((l) => `  ${l}`),
      '',
      '  s start · a/l levers · space pause/resume · w/b arrive · p penalty · q quit',
    ];
    if (tty) process.stdout.write('\x1b[H\x1b[2J' + screen.join('\n') + '\n');
  };

  const send = (input: ClockInput): void => {
    actor.send(input);
    paint();
  };

  return new Promise<number>((resolve) => {
    const timer = setInterval(paint, 100);
    const quit = (): void => {
      clearInterval(timer);
      process.stdin.off('data', onData);
      if (tty) process.stdin.setRawMode(false);
      process.stdin.pause();
      actor.stop();
      if (!tty) process.stdout.write(log.join('\n') + '\n');
      resolve(0);
    };
    const onData = (chunk: Buffer): void => {
      for (const key of chunk.toString('utf8')) {
        const at = nowMs();
        const status = actor.getSnapshot().context.clock.status;
        switch (key) {
          case 'q':
          case '\u0003': // Ctrl-C
            return quit();
          case 's':
            send({ type: 'START', at });
            break;
          case 'a':
            send({ type: 'PRESS', side: 'white', at });
            break;
          case 'l':
            send({ type: 'PRESS', side: 'black', at });
            break;
          case 'w':
            send({ type: 'ARRIVE', side: 'white', at });
            break;
          case 'b':
            send({ type: 'ARRIVE', side: 'black', at });
            break;
          case ' ':
            send({ type: status === 'running' ? 'PAUSE' : 'RESUME', at });
            break;
          case 'p':
            send({ type: 'PENALTY', side: actor.getSnapshot().context.clock.turn, at });
            break;
          default:
            break;
        }
      }
    };
    if (tty) process.stdin.setRawMode(true);
    process.stdin.on('data', onData);
    process.stdin.once('end', quit);
    process.stdin.resume();
    paint();
  });
}

function describe(out: ClockOutput): string | null {
  switch (out.type) {
    case 'started':
      return 'clock started: White to move';
    case 'move':
      return `${out.side} completed move ${out.move}: ${formatClockTime(out.white)} / ${formatClockTime(out.black)}`;
    case 'flag':
      return `FLAG: ${out.side}'s time ran out`;
    case 'forfeit':
      return `FORFEIT: ${out.side} absent at the default time`;
    case 'paused':
      return 'paused';
    case 'resumed':
      return 'resumed';
    case 'adjusted':
      return `${out.reason === 'penalty' ? 'penalty' : 'adjust'}: ${out.side} ${out.ms >= 0 ? '+' : ''}${out.ms / 1000} s`;
    case 'arrived':
      return `${out.side} arrived`;
    default:
      return null;
  }
}

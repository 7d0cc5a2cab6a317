// `chessclock clock`: the clock firmware at the board. Johnny-Five drives the Arduino
// (StandardFirmata) on --board; the host is on --link (a serial port, or tcp:HOST:PORT).
// Without --board the firmware runs on the simulator's virtual board (headless: the LCD
// text is printed whenever it changes). This file only parses arguments and wires rooms.
import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { connectHardware, type Hardware } from '../firmware-ts/board.ts';
import { BoardSession } from '../firmware-ts/board-session.ts';
import { ClockFirmware, followBoardSession } from '../firmware-ts/clock-firmware.ts';
import { CLOCK_OPTIONS_HELP, parseClockOptions, type ClockOptions } from '../firmware-ts/clock-options.ts';
import { linkClockOverReopeningLine, type ReopeningClockLink } from '../firmware-ts/host-line.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { fileSnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { FileOutboxStore } from '../protocol/session-api.ts';
import { VirtualBoard } from '../simulator/virtual-board.ts';

const HELP = `usage: chessclock clock [--board PORT] [--link PORT|tcp:HOST:PORT] [options]

Runs the clock firmware: Johnny-Five on the Arduino at --board (StandardFirmata),
the host link on --link (115 200 baud). Without --board, a simulated board.

options:
  --board PORT           the Arduino's serial port, e.g. /dev/ttyACM0 (omit: simulated board)
  --link PORT|tcp:H:P    the host link, e.g. /dev/ttyUSB0 (omit: no host; the clock still keeps time)
  --serial-id ID         the clock's id on the link (default: the machine's host name)
${CLOCK_OPTIONS_HELP}
                         (default state dir: ./clock-state; it holds the clock snapshot and the
                          link outbox, so a power cut or restart loses nothing)`;

interface ClockArgs {
  readonly options: ClockOptions;
  /** The Arduino's serial port; null: the simulated board. */
  readonly board: string | null;
  /** The host link; null: no host. */
  readonly linkSpec: string | null;
  readonly serialId: string;
}

/** The command line, or the exit status after a word on stderr. */
async function parseClockArgs(args: string[]): Promise<ClockArgs | number> {
  let options: ClockOptions;
  let board: string | null = null;
  let linkSpec: string | null = null;
  let serialId = hostname();
  try {
    options = await parseClockOptions(args);
    for (let i = 0; i < options.rest.length; i++) {
      const a = options.rest[i];
      const v = options.rest[i + 1];
      if (a === '--board' || a === '--link' || a === '--serial-id') {
        if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
        i++;
        if (a === '--board') board = v;
        else if (a === '--link') linkSpec = v;
        else serialId = v;
      } else throw new Error(`unknown option "${a}"`);
    }
  } catch (err) {
    process.stderr.write(`chessclock clock: ${(err as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  return { options, board, linkSpec, serialId };
}

interface OpenedBoard {
  readonly hardware: Hardware;
  /** The simulated board (no --board). */
  readonly virtual: VirtualBoard | null;
  /** The Arduino's session (--board). */
  readonly session: BoardSession | null;
}

/** The Arduino at `board` through a session that reconnects, or the simulated board. */
async function openBoard(board: string | null, options: ClockOptions): Promise<OpenedBoard> {
  if (board) {
    // A session, not a single connect: when the Arduino resets, Johnny-Five is reconnected
    // and the clock paused (firmware-ts/board-session.ts; docs/firmware.md).
    const session = await BoardSession.connect({ open: () => ({ port: board }), map: options.map });
    return { hardware: session.hardware, virtual: null, session };
  }
  const virtual = new VirtualBoard({ map: options.map, now: realTimebase.now });
  return { hardware: await connectHardware({ io: virtual }, options.map), virtual, session: null };
}

/** Says on stdout when the Arduino resets and when Johnny-Five is back. */
function reportBoardSession(board: string, session: BoardSession): void {
  session.on('reset', (why: string) => process.stdout.write(`board ${board}: ${why}; clock paused, reconnecting\n`));
  session.on('hardware', () => process.stdout.write(`board ${board}: Johnny-Five reconnected\n`));
  session.on('retry', (err: Error) => process.stdout.write(`board ${board}: reconnect failed (${err.message}); retrying\n`));
}

/** The link to the host on `linkSpec`, reopened with backoff; what it does is said on stdout. */
async function linkToHost(firmware: ClockFirmware, linkSpec: string, serialId: string, stateDir: string): Promise<ReopeningClockLink> {
  // The device is reopened with backoff after a cable pull; the outbox file keeps what the host has not acknowledged.
  const link = await linkClockOverReopeningLine(firmware, linkSpec, {
    serialId,
    outboxStore: new FileOutboxStore(join(stateDir, 'outbox.json')),
    bootId: randomInt(0, 2 ** 32 - 1),
    onEvent: (e) => {
      if (e.type === 'lost') process.stdout.write(`host line ${linkSpec} lost: ${e.reason}\n`);
      if (e.type === 'retry') process.stdout.write(`host line ${linkSpec}: reopening in ${e.inMs} ms (${e.reason})\n`);
      if (e.type === 'open' && e.opens > 1) process.stdout.write(`host line ${linkSpec} open again\n`);
    },
  });
  link.clockLink.link.on('up', () => process.stdout.write(`host link up on ${linkSpec}\n`));
  link.clockLink.link.on('close', (err: Error | null) => process.stdout.write(`host link closed${err ? `: ${err.message}` : ''}\n`));
  return link;
}

/** Headless simulated board: prints what its LCD shows whenever that changes. */
function printLcd(virtual: VirtualBoard, firmware: ClockFirmware): void {
  let last = '';
  const show = () => {
    const text = virtual.screen().join(' | ');
    if (text !== last) process.stdout.write(`LCD ${text}\n`);
    last = text;
  };
  firmware.on('paint', show);
  show();
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const parsed = await parseClockArgs(args);
  if (typeof parsed === 'number') return parsed;
  const { options, board, linkSpec, serialId } = parsed;
  const stateDir = options.stateDir ?? 'clock-state';

  let opened: OpenedBoard;
  try {
    opened = await openBoard(board, options);
  } catch (err) {
    process.stderr.write(`chessclock clock: board ${board ?? '(simulated)'}: ${(err as Error).message}\n`);
    return 1;
  }
  const { hardware, virtual, session } = opened;
  const firmware = new ClockFirmware({
    hardware,
    time: realTimebase,
    timeControl: options.timeControl,
    snapshots: fileSnapshotStore(stateDir),
    sound: options.sound ?? options.map.piezo?.enabled ?? true,
  });
  if (session) {
    followBoardSession(firmware, session);
    reportBoardSession(board!, session);
  }
  if (firmware.restored) process.stdout.write(`restored the game saved in ${stateDir} (paused; the arbiter confirms with ok)\n`);

  let link: ReopeningClockLink | null = null;
  if (linkSpec) {
    try {
      link = await linkToHost(firmware, linkSpec, serialId, stateDir);
    } catch (err) {
      process.stderr.write(`chessclock clock: ${(err as Error).message}\n`);
      firmware.stop();
      return 1;
    }
  }
  if (virtual) printLcd(virtual, firmware);
  // The clock runs until it is stopped; a ready clock has no timer pending, so hold the loop open.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(keepAlive);
  link?.close('clock stopped');
  firmware.stop();
  session?.close();
  if (session) {
    // Johnny-Five's serial board leaves handles behind after its port is closed (it has no
    // way to be shut down): give the closes a second, then end the process.
    setTimeout(() => process.exit(process.exitCode ?? 0), 1_000).unref();
  }
  return 0;
}

// `chessclock sim`: a simulated clock in the terminal for a person (the firmware on a
// virtual board, keys for levers and menus), optionally linked to a host; or with
// --clocks N a fleet of simulated clocks with scripted players (simulator/fleet.ts).
// This file only parses arguments and hands over to the simulator.
import { CLOCK_OPTIONS_HELP, parseClockOptions, type ClockOptions } from '../firmware-ts/clock-options.ts';
import { linkClockOverReopeningLine } from '../firmware-ts/host-line.ts';
import { realTimebase } from '../firmware-ts/monotonic.ts';
import { fileSnapshotStore } from '../firmware-ts/snapshot-store.ts';
import { createLink, FileOutboxStore, type ReceivedMessage } from '../protocol/session-api.ts';
import { describeTimeControl } from '../rules/time-control-text.ts';
import { Fleet, inMemoryHosts, ptyHosts } from '../simulator/fleet.ts';
import { KEY_HELP, runTerminal } from '../simulator/terminal-ui.ts';
import { VirtualClock } from '../simulator/virtual-clock.ts';
import { UnoClock } from '../simulator/uno/uno-clock.ts';

const HELP = `usage: chessclock sim [options]        (chessclock demo [options] is the same clock)
       chessclock sim --clocks N [--seed S] [--link memory|pty] [--ports-file FILE] [options]

A simulated chess clock in the terminal: the clock firmware runs unchanged on a
virtual Arduino; the screen shows what its 16×2 LCD shows. With --clocks, a fleet of
simulated clocks whose scripted players play one game each on simulated time
(deterministic for a seed), and a summary is printed.

keys (each a tap of the clock's key):
${KEY_HELP.map((l) => `  ${l}`).join('\n')}

options:
${CLOCK_OPTIONS_HELP}
  --link PATH|tcp:HOST:PORT  (one clock) link to a host over a serial device / pty, or TCP
  --serial-id ID             the clock's id on the link (default: sim-1)
  --uno                      run the firmware on an emulated Arduino Uno instead: the real
                             StandardFirmata binary on avr8js at 16 MHz, real time, Johnny-Five
                             speaking Firmata to it at 57,600 baud (boots in ~2 s; one core)
  --clocks N                 a fleet of N clocks
  --seed S                   the fleet's seed (default 1)
  --link memory|pty          (fleet) in-process host links, or one socat pty pair per clock
                             (a host process opens the other ends; see --ports-file)
  --ports-file FILE          (fleet, pty) write the host-side pty paths here, one per line`;

interface SimArgs {
  clocks: number | null;
  seed: number;
  link: string | null;
  serialId: string;
  portsFile: string | null;
  uno: boolean;
}

function parseSimArgs(rest: string[]): SimArgs {
  const out: SimArgs = { clocks: null, seed: 1, link: null, serialId: 'sim-1', portsFile: null, uno: false };
  const int = (v: string | undefined, name: string, min: number) => {
    if (v === undefined || !/^\d+$/.test(v) || Number(v) < min) throw new Error(`${name} must be a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--clocks') out.clocks = int(rest[++i], a, 1);
    else if (a === '--seed') out.seed = int(rest[++i], a, 0);
    else if (a === '--link') out.link = rest[++i] ?? '';
    else if (a === '--serial-id') out.serialId = rest[++i] ?? '';
    else if (a === '--ports-file') out.portsFile = rest[++i] ?? '';
    else if (a === '--uno') out.uno = true;
    else throw new Error(`unknown option "${a}"`);
  }
  if (out.link === '') throw new Error('--link needs a value');
  if (out.uno && out.clocks !== null) throw new Error('--uno runs one clock (an emulated Uno takes a core in real time): leave out --clocks');
  if (out.clocks !== null && out.link !== null && out.link !== 'memory' && out.link !== 'pty') {
    throw new Error(`with --clocks, --link must be "memory" or "pty", got "${out.link}"`);
  }
  return out;
}

async function runOne(options: ClockOptions, sim: SimArgs): Promise<number> {
  const boot = {
    timeControl: options.timeControl,
    map: options.map,
    time: realTimebase,
    snapshots: options.stateDir ? fileSnapshotStore(options.stateDir) : undefined,
    sound: options.sound ?? options.map.piezo?.enabled ?? true,
  };
  if (sim.uno) process.stdout.write('booting the emulated Uno (StandardFirmata 2.4 on avr8js)...\n');
  const clock = sim.uno ? await UnoClock.boot(boot) : await VirtualClock.boot(boot);
  let status = () => ['  host link: none (--link PATH|tcp:HOST:PORT)'];
  if (sim.link) {
    const outboxStore = options.stateDir ? new FileOutboxStore(`${options.stateDir}/outbox.json`) : undefined;
    let link;
    try {
      // The device is reopened with backoff after a cable pull; the outbox keeps what the host has not acknowledged.
      link = await linkClockOverReopeningLine(clock.firmware, sim.link, { serialId: sim.serialId, outboxStore });
    } catch (err) {
      await clock.stop();
      process.stderr.write(`chessclock sim: ${(err as Error).message}\n`);
      return 1;
    }
    clock.hostLink = link.clockLink;
    clock.onStop(() => link.close('quit'));
    status = () => [`  ${link.status()}`];
  }
  const code = await runTerminal(clock, {
    input: process.stdin,
    output: process.stdout,
    status:
      clock instanceof UnoClock
        ? () => [...status(), `  board: emulated Uno, ${clock.uno.resets} reset(s), Firmata ${clock.session.reconnects} reconnect(s)`]
        : status,
    // The emulated LCD latches its bytes after the firmware painted (Firmata at 57,600 baud).
    onChange: clock instanceof UnoClock ? (repaint) => clock.changes.on('change', repaint) : undefined,
  });
  await clock.stop();
  return code;
}

async function runFleet(options: ClockOptions, sim: SimArgs): Promise<number> {
  const clocks = sim.clocks ?? 1;
  const delivered: number[] = new Array(clocks).fill(0);
  const ptyPaths: string[] = [];
  let attach;
  if (sim.link === 'memory') {
    attach = inMemoryHosts(async (end, index) => {
      const host = createLink(end, { role: 'host', autoSync: false });
      host.on('message', (m: ReceivedMessage) => {
        if (m.body.case === 'clockEvent') delivered[index]++;
      });
      await host.ready;
    });
  } else if (sim.link === 'pty') {
    attach = ptyHosts((path) => void ptyPaths.push(path));
  }
  const started = performance.now();
  const fleet = await Fleet.create({ clocks, seed: sim.seed, timeControl: options.timeControl, attach, sound: false });
  if (sim.link === 'pty') {
    const list = ptyPaths.join('\n') + '\n';
    if (sim.portsFile) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(sim.portsFile, list);
    }
    process.stdout.write(`host-side ptys (open them with the host):\n${list}waiting for the host...\n`);
    await Promise.all(fleet.clocks.map((c) => c.hostLink?.link.ready));
  }
  const reports = await fleet.run();
  await Promise.all(fleet.clocks.map((c) => c.hostLink?.drained()));
  const realS = (performance.now() - started) / 1000;
  const hours = (fleet.time.now() / 3_600_000).toFixed(2);
  process.stdout.write(`fleet: ${clocks} clock(s), seed ${sim.seed}, control ${describeTimeControl(options.timeControl)}\n`);
  const header = ['clock'.padStart(5), 'moves'.padStart(6), 'ended'.padEnd(11), 'result'.padEnd(8), 'penalties', 'pauses', 'late', 'events'.padStart(7)];
  if (sim.link === 'memory') header.push('at-host'.padStart(8));
  process.stdout.write(header.join('  ') + '\n');
  for (const r of reports) {
    const cols = [
      String(r.index + 1).padStart(5),
      String(r.moves).padStart(6),
      r.ended.padEnd(11),
      r.result.padEnd(8),
      String(r.penalties).padStart(9),
      String(r.pauses).padStart(6),
      String(r.lateArrivals).padStart(4),
      String(r.events).padStart(7),
    ];
    if (sim.link === 'memory') cols.push(String(delivered[r.index]).padStart(8));
    process.stdout.write(cols.join('  ') + '\n');
  }
  const presses = reports.reduce((n, r) => n + r.moves, 0);
  process.stdout.write(`${presses} moves in ${hours} simulated hours, ${realS.toFixed(1)} s real\n`);
  await fleet.stop();
  return 0;
}

/** The help as the command was called: `chessclock demo` says its own name, with the same options. */
export function helpFor(name: string): string {
  if (name === 'sim') return HELP;
  const [, second, ...rest] = HELP.split('\n');
  return [
    `usage: chessclock ${name} [options]        (the terminal clock of chessclock sim, with its options)`,
    second.replace('chessclock sim', `chessclock ${name}`),
    ...rest,
  ].join('\n');
}

export async function run(args: string[], name = 'sim'): Promise<number> {
  const help = helpFor(name);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(help + '\n');
    return 0;
  }
  let options: ClockOptions;
  let sim: SimArgs;
  try {
    options = await parseClockOptions(args);
    sim = parseSimArgs(options.rest);
  } catch (err) {
    process.stderr.write(`chessclock ${name}: ${(err as Error).message}\n\n${help}\n`);
    return 2;
  }
  return sim.clocks === null ? runOne(options, sim) : runFleet(options, sim);
}

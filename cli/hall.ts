// `chessclock hall` (the `npm start` job): a simulated tournament hall to watch in the
// browser. One Host on a journal, with an embedded MQTT broker, plays a tournament — by
// default the Slovenian women's final 2007 (two semifinal mini-matches, tie-breaks when a
// match is tied), `--event all` every fixture event side by side, `--tournament FILE` any
// tournament file — with one simulated clock per table (the unchanged firmware on a
// virtual board) linked in memory, real clocks on the serial ports given (`--port`,
// `--ports`), scripted players at accelerated time, and the API + dashboard. A simulated
// floor arbiter confirms the results the players key in, so the director carries the
// knockout into its rapid and armageddon games and the events into their next rounds.
// See docs/load.md.
import { parseCommandOptions } from './command-options.ts';
import { stopSignal, stopWithin } from './stop.ts';
import { parseMqttOption } from '../host/adapters/mqtt/mqtt-target.ts';
import { loadPortsFile } from '../host/clocks/ports-file.ts';
import { parseTokenOption } from '../host/adapters/http/arbiter-tokens.ts';
import { SECURITY_HELP, SECURITY_OPTIONS, readSecurityOptions, securityWarnings } from './security-options.ts';
import { redactUrl } from '../host/adapters/mqtt/broker-access.ts';
import { parseListenOption } from '../host/adapters/http/listen-option.ts';
import {
  DEFAULT_EVENT,
  DEFAULT_MQTT,
  DEFAULT_SEED,
  fileHall,
  fixtureEventIds,
  fixtureHall,
  startSimulatedHall,
  type SimulatedHallOptions,
  type SimulatedHall,
} from '../hall/simulated-hall.ts';

const HELP = `usage: chessclock hall [options]

A simulated tournament hall: a host with its SQLite journal and an embedded MQTT broker,
one simulated clock per table, scripted players at accelerated time, and the arbiter
dashboard in the browser. By default the Slovenian women's final 2007: two semifinal
mini-matches (2 classical games; if tied, 2 rapid games, then an armageddon), then the
final.

options:
  --event ID|all         the fixture event(s) to play (repeatable or a comma list; default
                         ${DEFAULT_EVENT}); all = ${fixtureEventIds().join(', ')}
                         side by side; with --tournament: events of that file (default all)
  --tournament FILE      play this tournament file instead (JSON, docs/tournament.md)
  --clocks N             simulated clocks, one per free table (default: every free table)
  --speed X              hall time runs X times faster than real time (default 60: a classical game in a few
                         minutes, the tie-breaks within ten; 1 = real time)
  --seed N               players' seed (default ${DEFAULT_SEED}: one semifinal goes to the tie-breaks)
  --port PATH            a real clock on this serial port, at the next free table (repeatable)
  --ports FILE           ports file: [{ "path": "/dev/ttyUSB0", "table": 1 }, { "serial": "CLK-7", "table": 2 }]
  --mqtt TARGET          embedded | embedded:PORT | mqtt://host:1883 | none (default ${DEFAULT_MQTT}: any free port)
  --http [HOST:]PORT     API and dashboard (default 127.0.0.1:8080; 0 = any free port)
  --db FILE              the journal (default: a temporary file, removed on exit)
  --token NAME:SECRET    the arbiter's token for the dashboard (default: a random one, printed;
                         a token from --tokens FILE or CHESSCLOCK_TOKENS is never printed)
  --no-confirm           leave results for the arbiter (no simulated floor arbiter)
  -h, --help             this text

${SECURITY_HELP}

Stop with Ctrl-C.`;

function fail(message: string): number {
  process.stderr.write(`chessclock hall: ${message}\n`);
  return 2;
}

function positive(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name} ${text}: expected a ${integer ? 'whole ' : ''}number > 0`);
  return n;
}

const OPTIONS = {
  event: { type: 'string', multiple: true },
  tournament: { type: 'string' },
  clocks: { type: 'string' },
  speed: { type: 'string' },
  seed: { type: 'string' },
  port: { type: 'string', multiple: true },
  ports: { type: 'string' },
  mqtt: { type: 'string' },
  http: { type: 'string' },
  db: { type: 'string' },
  token: { type: 'string' },
  'no-confirm': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...SECURITY_OPTIONS,
} as const;

type HallValues = Extract<ReturnType<typeof parseCommandOptions<typeof OPTIONS>>, { values: unknown }>['values'];

/** The hall to start from the command's options; throws with the option that is wrong. */
function hallOptions(values: HallValues): SimulatedHallOptions {
  const token = values.token === undefined ? undefined : parseTokenOption(values.token);
  const security = readSecurityOptions({ ...values, token: undefined });
  const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed ${values.seed}: expected a whole number ≥ 0`);
  const hall = values.tournament === undefined ? fixtureHall(values.event ?? [DEFAULT_EVENT]) : fileHall(values.tournament, values.event ?? []);
  return {
    hall,
    clocks: positive('clocks', values.clocks, true),
    speed: positive('speed', values.speed, false),
    seed,
    db: values.db,
    listen: parseListenOption(values.http),
    token,
    tokens: security.tokens,
    mqttAccess: security.mqtt,
    httpSecurity: { ...security.http, captains: security.captains },
    confirm: !values['no-confirm'],
    mqtt: parseMqttOption(values.mqtt ?? DEFAULT_MQTT),
    ports: values.port ?? [],
    portEntries: values.ports === undefined ? [] : loadPortsFile(values.ports),
    log: (line) => process.stderr.write(`${line}\n`),
  };
}

/** Prints the security warnings (stderr) and where to watch the running hall: dashboard, token, API, MQTT (stdout). */
function printHall(hall: SimulatedHall, opts: SimulatedHallOptions, values: HallValues): void {
  const out = process.stdout;
  for (const w of securityWarnings({
    http: opts.listen ?? null,
    https: opts.httpSecurity?.https !== undefined,
    mqtt: opts.mqtt as { kind: string },
    mqttTls: opts.mqttAccess?.tls !== undefined,
  }))
    process.stderr.write(`${w}\n`);
  const events = opts.hall!.events.map((e) => e.id).join(', ');
  out.write(
    `chessclock hall: ${events}; ${hall.clocks.clocks.length} simulated clocks${hall.realLines.length ? `, ${hall.realLines.length} serial ports` : ''}, hall time ×${hall.time.speed}, journal ${hall.journal.path}\n`,
  );
  for (const l of hall.realLines) out.write(`serial port:     ${l.path} → table ${l.table}\n`);
  out.write(`dashboard:       ${hall.url}/\n`);
  out.write(
    hall.tokenGenerated || values.token !== undefined
      ? `arbiter token:   ${hall.token.token}   (${hall.token.arbiter}; paste it into the dashboard's token field)\n`
      : `arbiter token:   (${hall.token.arbiter}'s, from ${values.tokens !== undefined ? `--tokens ${values.tokens}` : 'CHESSCLOCK_TOKENS'}; not printed)\n`,
  );
  out.write(`API:             ${hall.url}/api/boards   live feed: ${hall.url.replace(/^http/, 'ws')}/ws\n`);
  out.write(
    `MQTT:            ${hall.mqtt ? `${redactUrl(hall.mqtt.url)}  topics chessclock/v1/#${hall.mqtt.broker ? ` (embedded broker; readers sign in${opts.mqttAccess?.anonymousRead ? ', anonymous read on' : ''})` : ''}` : 'none'}\n`,
  );
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseCommandOptions('hall', args, OPTIONS, HELP);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  let opts: SimulatedHallOptions;
  try {
    opts = hallOptions(values);
  } catch (err) {
    return fail((err as Error).message);
  }

  let hall: SimulatedHall;
  try {
    hall = await startSimulatedHall(opts);
  } catch (err) {
    process.stderr.write(`chessclock hall: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  printHall(hall, opts, values);
  const out = process.stdout;
  out.write('Ctrl-C stops the hall.\n');
  await stopSignal();
  out.write('stopping the hall…\n');
  const code = await stopWithin(
    () => hall.close(),
    (line) => process.stderr.write(`${line}\n`),
  );
  out.write('stopped.\n');
  return code;
}

// `chessclock host`: the hall PC. Parses the options and wires the rooms together — the
// serial bridge (one session per clock), the journal, the tournament, the director, the
// HTTP/WebSocket API and optionally MQTT. See docs/host.md.
import { parseCommandOptions } from './command-options.ts';
import { Journal } from '../host/store/journal.ts';
import { loadTournamentFile } from '../host/domain/tournament-file.ts';
import { findEvent, type Hall } from '../host/domain/model.ts';
import { boardReplay, replaySummary } from '../host/adapters/exports/replay-log.ts';
import { loadPortsFile, type PortEntry } from '../host/clocks/ports-file.ts';
import { listUsbSerialPorts, openSerialLine } from '../host/clocks/serial-lines.ts';
import { systemHostClock } from '../host/app/utc.ts';
import { SECURITY_HELP, SECURITY_OPTIONS, readSecurityOptions, securityWarnings, type SecuritySettings } from './security-options.ts';
import { parseListenOption, type ListenTarget } from '../host/adapters/http/listen-option.ts';
import { parseMqttOption, type MqttTarget } from '../host/adapters/mqtt/mqtt-target.ts';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { stopSignal, stopWithin } from './stop.ts';
import { fileBroadcastDelays, readBroadcastDelays, readBroadcastOptions } from '../host/adapters/broadcast/broadcast-options.ts';
import type { BroadcastSetup } from '../host/adapters/broadcast/broadcast-runner.ts';
import { readFileSync, statSync } from 'node:fs';

const HELP = `usage: chessclock host --db clocks.db --tournament hall.json [options]

The hall PC: finds the clocks on the serial ports, journals every press, drives each
board's next game from the results, serves the API and dashboard.

options:
  --db FILE              the journal (SQLite, created if missing; reopening resumes)
  --tournament FILE      the tournament file (events, rounds, pairings; JSON)
  --ports FILE           ports file: [{ "path": "/dev/ttyUSB0", "table": 1 }, { "serial": "CLK-7", "table": 2 }]
  --port PATH            a serial port to open (repeatable)
  --no-scan              do not open the USB serial ports SerialPort.list() finds
  --http [HOST:]PORT     API and dashboard address (default 127.0.0.1:8080; 0 = any free port)
  --no-http              no API
  --token NAME:SECRET    an arbiter's write token (repeatable; at least 16 characters);
                         visible in \`ps\`: prefer --tokens FILE or CHESSCLOCK_TOKENS
  --mqtt TARGET          embedded | embedded:PORT | embedded:HOST:PORT | mqtt://host:1883 |
                         mqtts://host:8883 | none (default)
  --replay BOARD         print the board's game as \`chessclock replay\` input and exit;
                         BOARD = EVENT/ROUND/BOARD, or ROUND/BOARD or BOARD with one event;
                         its result, who reported and who confirmed it go to stderr
  --game N               with --replay: game N of the board's match (default: the latest)
  --broadcast [EVENT/]ROUND=lichess:ROUND_ID
                         push the round's games live to a lichess broadcast round (repeatable;
                         EVENT may be left out with one event); docs/broadcast.md. The
                         tournament file's "broadcast" blocks do the same; an option overrides
  --moves [EVENT=]SOURCE the event's moves for the broadcast: a PGN file, a folder of PGN
                         files a board system rewrites, or an http(s) URL polled
  --lichess-url URL      lichess, a mirror or a stand-in (default https://lichess.org)
  --lichess-token-file FILE
                         the lichess token (scope study:write), else CHESSCLOCK_LICHESS_TOKEN;
                         never on the command line
  --broadcast-delay [EVENT=]SECONDS
                         show the event's games to lichess and the public PGN feed as they
                         stood SECONDS ago (e.g. 900); repeatable, one per event (default 0)
  -h, --help             this text

${SECURITY_HELP}`;

function fail(message: string): number {
  process.stderr.write(`chessclock host: ${message}\n`);
  return 2;
}

/** The options `chessclock host` takes (see HELP). */
const HOST_OPTIONS = {
  db: { type: 'string' },
  tournament: { type: 'string' },
  ports: { type: 'string' },
  port: { type: 'string', multiple: true },
  'no-scan': { type: 'boolean' },
  http: { type: 'string' },
  'no-http': { type: 'boolean' },
  token: { type: 'string', multiple: true },
  mqtt: { type: 'string' },
  replay: { type: 'string' },
  game: { type: 'string' },
  broadcast: { type: 'string', multiple: true },
  moves: { type: 'string', multiple: true },
  'lichess-url': { type: 'string' },
  'lichess-token-file': { type: 'string' },
  'broadcast-delay': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  ...SECURITY_OPTIONS,
} as const;

export async function run(args: string[]): Promise<number> {
  const parsed = parseCommandOptions('host', args, HOST_OPTIONS, HELP);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  if (!values.db) return fail('--db FILE is required (the journal)');
  if (!values.tournament) return fail('--tournament FILE is required');
  if (values.game !== undefined && values.replay === undefined) return fail("--game N goes with --replay BOARD (which board's match)");

  let hall,
    entries: PortEntry[] = [],
    listen,
    mqttTarget,
    broadcast: BroadcastSetup | null,
    broadcastDelay: Record<string, number>,
    security: SecuritySettings;
  try {
    hall = loadTournamentFile(values.tournament);
    if (values.ports) entries = loadPortsFile(values.ports);
    security = readSecurityOptions(values);
    listen = parseListenOption(values.http);
    mqttTarget = parseMqttOption(values.mqtt);
    broadcast = readBroadcastOptions(
      { broadcast: values.broadcast, moves: values.moves, lichessUrl: values['lichess-url'], lichessTokenFile: values['lichess-token-file'] },
      hall,
      {
        env: process.env,
        readFile: (path) => readFileSync(path, 'utf8'),
        isFolder: (path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false,
      },
    );
    broadcastDelay = { ...fileBroadcastDelays(hall), ...readBroadcastDelays(values['broadcast-delay'], hall) };
  } catch (err) {
    return fail((err as Error).message);
  }

  if (values.replay !== undefined) return printBoardReplay(values.db, hall, values.replay, values.game);

  const clock = systemHostClock();
  const log = (line: string) => process.stderr.write(`${new Date(clock.nowUtcMs()).toISOString()} ${line}\n`);
  const tablesBySerial = new Map(entries.filter((e) => e.serial && e.table).map((e) => [e.serial!, e.table!]));
  const tableByPath = new Map(entries.filter((e) => e.path).map((e) => [e.path!, e.table]));
  if (values['no-http'] && values['no-scan'] && entries.length === 0 && (values.port ?? []).length === 0) {
    return fail("nothing to serve: with --no-http and --no-scan, give the clocks' ports (--port PATH or --ports FILE)");
  }
  let running;
  try {
    running = await startHost({
      journal: values.db,
      hall,
      clock,
      tablesBySerial,
      log,
      ...(values['no-http'] ? {} : { http: { listen, tokens: security.tokens, captains: security.captains, ...security.http } }),
      mqtt: { target: mqttTarget, ...security.mqtt, onError: (e) => log(`mqtt: ${e.message}`), onRefused: (what) => log(`mqtt: ${what}`) },
      ...(broadcast ? { broadcast } : {}),
      broadcastDelay,
    });
  } catch (err) {
    // A journal that cannot be opened, a port already taken, a broker that refuses: one line (docs/reliability.md).
    return fail((err as Error).message);
  }
  const { host } = running;
  logStartup(running, values['no-http'] ? null : listen, mqttTarget, security, log);

  const stopScan = await openClockLines(host, tableByPath, values.port ?? [], !values['no-scan'], log);

  log(`stopping (${await stopSignal()})`);
  stopScan();
  const code = await stopWithin(() => running.close(), log);
  log('stopped');
  return code;
}

/** Logs the security warnings for this setup, then where the API and the MQTT publisher are. */
function logStartup(running: RunningHost, listen: ListenTarget | null, mqttTarget: MqttTarget, security: SecuritySettings, log: (line: string) => void): void {
  for (const w of securityWarnings({ http: listen, https: security.http.https !== undefined, mqtt: mqttTarget, mqttTls: security.mqtt.tls !== undefined }))
    log(w);
  if (running.url) log(`API and dashboard on ${running.url}`);
  if (running.mqtt) log(`publishing to ${running.mqtt.url}`);
  for (const t of running.broadcast?.status() ?? [])
    log(`broadcasting round ${t.round} of ${t.event}${t.boards ? ` (boards ${t.boards.from}-${t.boards.to})` : ''} to lichess round ${t.roundId}`);
}

/** `--replay BOARD [--game N]`: the board's game as `chessclock replay` input on stdout, its result and who confirmed it on stderr. */
function printBoardReplay(dbPath: string, hall: Hall, which: string, game: string | undefined): number {
  let journal: Journal;
  try {
    journal = new Journal(dbPath);
  } catch (err) {
    return fail((err as Error).message);
  }
  try {
    const parts = which.split('/');
    const eventId = parts.length === 3 ? parts[0] : hall.events.length === 1 ? hall.events[0].id : null;
    if (eventId === null) return fail(`--replay ${which}: the hall has ${hall.events.length} events; write EVENT/ROUND/BOARD`);
    const event = findEvent(hall, eventId);
    const nums = parts.slice(parts.length === 3 ? 1 : 0).map(Number);
    if (nums.some((n) => !Number.isInteger(n) || n < 1) || nums.length < 1 || nums.length > 2)
      return fail(`--replay ${which}: expected EVENT/ROUND/BOARD, ROUND/BOARD or BOARD`);
    const board = nums.at(-1)!;
    const round =
      nums.length === 2
        ? nums[0]
        : Math.max(
            0,
            ...journal
              .gamesByEvent(event.id)
              .filter((g) => g.board === board)
              .map((g) => g.round),
          );
    if (round === 0) return fail(`--replay ${which}: no game on board ${board} of ${event.id}`);
    let gameNo: number | undefined;
    if (game !== undefined) {
      gameNo = Number(game);
      if (!Number.isInteger(gameNo) || gameNo < 1) return fail(`--game ${game}: expected a game number 1, 2, … of the board's match`);
    }
    const replay = boardReplay(journal, event.id, round, board, gameNo);
    process.stdout.write(replay.text);
    // The appeal committee's view: the result, who reported it and who confirmed it; and any
    // journal event the statechart does not reproduce.
    process.stderr.write(`${replaySummary(replay.game, replay.of)}\n`);
    for (const m of replay.mismatches) process.stderr.write(`warning: ${m}\n`);
    return 0;
  } catch (err) {
    return fail(`--replay ${which}: ${(err as Error).message}`);
  } finally {
    journal.close();
  }
}

/**
 * Opens the clocks' serial lines: the ports file's paths and `--port`, then (with `scan`) every
 * USB serial port found now and every 2 s. Returns the function that stops the scan.
 */
async function openClockLines(
  host: RunningHost['host'],
  tableByPath: ReadonlyMap<string, number | undefined>,
  ports: readonly string[],
  scan: boolean,
  log: (line: string) => void,
): Promise<() => void> {
  const addPath = (path: string) => {
    if (host.lines().some((s) => s.key === path)) return;
    log(`opening ${path}`);
    host.addLine(path, openSerialLine(path), { table: tableByPath.get(path) });
  };
  for (const p of tableByPath.keys()) addPath(p);
  for (const p of ports) addPath(p);
  let scanTimer: NodeJS.Timeout | null = null;
  let lastScanError: string | null = null;
  const scanOnce = async () => {
    try {
      for (const p of await listUsbSerialPorts()) addPath(p);
      lastScanError = null;
    } catch (err) {
      // Said once, not every 2 s: the same failure repeats until something changes.
      const message = (err as Error).message;
      if (message !== lastScanError) log(`port scan failed: ${message} (trying again every 2 s)`);
      lastScanError = message;
    }
    scanTimer = setTimeout(scanOnce, 2_000);
  };
  if (scan) await scanOnce();
  return () => {
    if (scanTimer) clearTimeout(scanTimer);
  };
}

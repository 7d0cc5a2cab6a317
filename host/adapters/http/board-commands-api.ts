// The arbiter's commands to a board's clock over HTTP (docs/api.md "Writes"): the next game's
// setup, pause and resume, time changes, the move counter, arrivals, take-backs, the side on
// move, a corrected control, the quickplay increment and delay, and reinstating a forfeit.
// Each body is checked by its JSON schema (strict JSON types: server.ts), a time control is
// read by the one spec reader (protocol/time-control.ts readTimeControlSpec),
// and the command goes to the CommandSink with the arbiter's name, which journals it and asks
// the rule book whether the board's clock takes it now (rules/command-rules.ts).
import type { FastifyInstance } from 'fastify';
import { INCREMENT_TIMINGS, readTimeControlSpec, TimeControlError, type IncrementTiming, type TimeControl } from '../../../protocol/time-control.ts';
import { TAKEBACK_TIMES, type TakebackTimes } from '../../../rules/takeback.ts';
import { SIDES, type Side } from '../../../rules/vocabulary.ts';
import type { HostState, PlayerView } from '../../app/ports.ts';
import { boardOr404 } from './board-reads.ts';
import type { RunCommand } from './command-run.ts';
import { HttpError } from './http-error.ts';
import { BOARD_PARAMS, noBodyIsEmpty } from './schemas.ts';

export interface BoardCommandOptions {
  readonly state: HostState;
  /** Hands the command to the CommandSink with the request's arbiter and answers (command-run.ts). */
  readonly run: RunCommand;
}

// The schemas' words are the rule book's vocabulary (rules/vocabulary.ts), never a copy.
const SIDE = { type: 'string', enum: SIDES } as const;
const SIDE_BODY = { type: 'object', additionalProperties: false, required: ['side'], properties: { side: SIDE } } as const;
/** Printable text only: a control character (a newline) would split a PGN tag line of the broadcast (PGN standard §7). */
const PRINTABLE = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';
const PLAYER = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 200, pattern: PRINTABLE }, team: { type: 'string', maxLength: 200, pattern: PRINTABLE } },
} as const;
/** FIDE practice: an arbiter correction is minutes, not hours; 3 h caps typos. */
const MAX_ADJUST_MS = 3 * 3600 * 1000;
/** A move counter beyond this is a typing error (the longest game played had 269 moves). */
const MAX_MOVES = 999;
/** FIDE Guidelines III.4 speaks of 5 s; a minute per move caps typos (ms typed as seconds). The same for the delay. */
const MAX_INCREMENT_MS = 60_000;
const MAX_DELAY_MS = 60_000;
/** A control for both sides as the tournament file and the replay write it: a preset name or PGN field, or `{ white, black }`. */
const CONTROL = {
  oneOf: [
    { type: 'string', minLength: 1 },
    { type: 'object', additionalProperties: false, required: ['white', 'black'], properties: { white: {}, black: {} } },
  ],
} as const;
/**
 * One side's control in a corrected control: a PGN field, seconds or JSON stages
 * (docs/tournament.md), as the config's `{ white, black }` takes them: the one reader checks it
 * and names what is wrong (a schema's `oneOf` would match a string twice, the validator coercing).
 */
const SIDE_CONTROL = {} as const;

/**
 * Reads the configure body's time control with the one spec reader (protocol/time-control.ts
 * `readTimeControlSpec`): a preset name, one PGN control, `W…-B…`, or { white, black }; with
 * `defaultTime` and `incrementTiming`. (The body's own `white` and `black` are the players.)
 */
function readTimeControl(body: { timeControl: unknown; defaultTime?: number; incrementTiming?: IncrementTiming }): TimeControl {
  try {
    return readTimeControlSpec({ timeControl: body.timeControl, defaultTime: body.defaultTime ?? null, incrementTiming: body.incrementTiming }).timeControl;
  } catch (err) {
    if (err instanceof TimeControlError) throw new HttpError(400, `body: "timeControl": ${err.message}`, 'timeControl');
    throw err;
  }
}

/** The body of a corrected control: one form of control (`timeControl`, `preset`, or `white` and `black`), with `defaultTime` and `incrementTiming`. */
interface ControlBody {
  timeControl?: unknown;
  preset?: string;
  white?: unknown;
  black?: unknown;
  defaultTime?: number | null;
  incrementTiming?: IncrementTiming;
}

/**
 * The corrected control of a PUT …/control body, read by the one spec reader like every
 * written control; a default time or increment timing the body leaves out stays as the game
 * has it (`current`: the control in force), as in a replay's `control` line (docs/replay.md);
 * `"defaultTime": null` removes it.
 */
function readCorrectedControl(body: ControlBody, current: TimeControl | null): TimeControl {
  const forms = (['timeControl', 'preset', 'white'] as const).filter((k) => body[k] !== undefined);
  try {
    return readTimeControlSpec(body, {
      defaultTime: current === null || current.defaultTimeMs === null ? null : current.defaultTimeMs / 1000,
      incrementTiming: current?.incrementTiming ?? 'before-move',
    }).timeControl;
  } catch (err) {
    if (!(err instanceof TimeControlError)) throw err;
    // The field the reader names (a second form, a lone `white`), else the one form given.
    const named = (['timeControl', 'preset', 'white', 'black', 'defaultTime', 'incrementTiming'] as const).find((k) => k === err.token);
    const field = named ?? (forms.length === 1 ? forms[0] : 'timeControl');
    throw new HttpError(400, `body: "${field}": ${err.message}`, field);
  }
}

/** A command without content: no body or `{}`; a field sent with it is a mistake (400 naming it). */
const NO_CONTENT = { type: 'object', additionalProperties: false } as const;

/**
 * The take-back's body: none (as before the choice of the times, still a rewind), `{}`, or
 * `{ "times": "rewind" | "keep" }` (FIDE Laws 7.1). The dashboard always sends `times`.
 */
const TAKEBACK = { type: 'object', additionalProperties: false, properties: { times: { type: 'string' } } } as const;

/** The take-back's times; a value that is not one of them is a 400 saying what was sent. */
function takebackTimes(times: string | undefined): TakebackTimes {
  if (times === undefined) return 'rewind';
  if (!(TAKEBACK_TIMES as readonly string[]).includes(times)) {
    throw new HttpError(400, `body: "times" must be one of ${TAKEBACK_TIMES.map((t) => JSON.stringify(t)).join(', ')}, got ${JSON.stringify(times)}`, 'times');
  }
  return times as TakebackTimes;
}

type WithId = { Params: { id: string } };

/** The route options of a board write: the arbiter's token, the board id, the body's schema. */
export function writeOpts(app: FastifyInstance, body?: object) {
  return { onRequest: app.requireArbiter, schema: { params: BOARD_PARAMS, ...(body ? { body } : {}) } };
}

/** The same for a body that may be left out: none is `{}`. */
export function optionalBodyOpts(app: FastifyInstance, body: object) {
  return { ...writeOpts(app, body), preValidation: noBodyIsEmpty };
}

/** The next game's control and players (PUT …/config) and a corrected control (PUT …/control). */
function controlRoutes(app: FastifyInstance, { state, run }: BoardCommandOptions): void {
  app.put<WithId & { Body: { timeControl: unknown; defaultTime?: number; incrementTiming?: IncrementTiming; white?: PlayerView; black?: PlayerView } }>(
    '/api/boards/:id/config',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      required: ['timeControl'],
      properties: {
        timeControl: CONTROL,
        defaultTime: { type: 'integer', minimum: 0 },
        // FIDE practice credits the increment before the move; PGN and online play after it.
        incrementTiming: { type: 'string', enum: INCREMENT_TIMINGS },
        white: PLAYER,
        black: PLAYER,
      },
    }),
    async (req, reply) => {
      boardOr404(state, req.params.id);
      const timeControl = readTimeControl(req.body);
      return run(req, reply, { type: 'configure', boardId: req.params.id, timeControl, white: req.body.white, black: req.body.black });
    },
  );

  app.put<WithId & { Body: ControlBody }>(
    '/api/boards/:id/control',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      properties: {
        timeControl: CONTROL,
        preset: { type: 'string', minLength: 1 },
        white: SIDE_CONTROL,
        black: SIDE_CONTROL,
        // FIDE Laws 6.7.1: seconds; null removes the default time.
        defaultTime: { type: ['integer', 'null'], minimum: 0 },
        incrementTiming: { type: 'string', enum: INCREMENT_TIMINGS },
      },
    }),
    // FIDE Laws 6.10.2: the clock was set wrongly; the corrected control keeps both times, both counters and the periods credited.
    async (req, reply) => {
      const board = boardOr404(state, req.params.id);
      const current = board.live?.clock?.control ?? state.boardGame(board.id)?.timeControl ?? null;
      const timeControl = readCorrectedControl(req.body, current);
      return run(req, reply, { type: 'set-control', boardId: req.params.id, timeControl });
    },
  );
}

/** The clocks' time: start, pause and resume, an arbiter's adjustment or penalty, the increment and the delay. */
function timeRoutes(app: FastifyInstance, { run }: BoardCommandOptions): void {
  // FIDE Laws 6.5: the arbiter starts the clocks (a round's boards at once: rounds-api.ts).
  app.post<WithId>('/api/boards/:id/start', writeOpts(app), async (req, reply) => run(req, reply, { type: 'start', boardId: req.params.id }));
  for (const type of ['pause', 'resume'] as const) {
    app.post<WithId>(`/api/boards/:id/${type}`, writeOpts(app), async (req, reply) => run(req, reply, { type, boardId: req.params.id }));
  }

  app.post<WithId & { Body: { side: Side; ms: number } }>(
    '/api/boards/:id/adjust',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      required: ['side', 'ms'],
      properties: { side: SIDE, ms: { type: 'integer', minimum: -MAX_ADJUST_MS, maximum: MAX_ADJUST_MS } },
    }),
    async (req, reply) => {
      if (req.body.ms === 0) throw new HttpError(400, 'body: "ms" must not be 0 (nothing to adjust)', 'ms');
      return run(req, reply, { type: 'adjust', boardId: req.params.id, side: req.body.side, ms: req.body.ms });
    },
  );

  app.post<WithId & { Body: { side: Side } }>(
    '/api/boards/:id/penalty',
    writeOpts(app, SIDE_BODY),
    // FIDE Laws 7.5.5: the offender's opponent gets the extra time; the clock computes how much.
    async (req, reply) => run(req, reply, { type: 'penalty', boardId: req.params.id, side: req.body.side }),
  );

  app.post<WithId & { Body: { ms: number } }>(
    '/api/boards/:id/increment',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      required: ['ms'],
      properties: { ms: { type: 'integer', minimum: 0, maximum: MAX_INCREMENT_MS } },
    }),
    // FIDE Guidelines III.4: an increment for both sides after every later move (0 removes it).
    async (req, reply) => run(req, reply, { type: 'increment', boardId: req.params.id, ms: req.body.ms }),
  );

  app.post<WithId & { Body: { ms: number } }>(
    '/api/boards/:id/delay',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      required: ['ms'],
      properties: { ms: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS } },
    }),
    // FIDE Guidelines III.4: a delay for both sides instead of the increment, on every later turn (0 removes it).
    async (req, reply) => run(req, reply, { type: 'delay', boardId: req.params.id, ms: req.body.ms }),
  );
}

/** The game on the board: move counters, arrivals, a take-back, the side on move, a forfeit overruled. */
function gameRoutes(app: FastifyInstance, { run }: BoardCommandOptions): void {
  app.post<WithId & { Body: { side: Side; moves: number } }>(
    '/api/boards/:id/moves',
    writeOpts(app, {
      type: 'object',
      additionalProperties: false,
      required: ['side', 'moves'],
      properties: { side: SIDE, moves: { type: 'integer', minimum: 0, maximum: MAX_MOVES } },
    }),
    // FIDE Laws 6.10.2: a wrong move counter is corrected by the arbiter; the period follows from it.
    async (req, reply) => run(req, reply, { type: 'set-moves', boardId: req.params.id, side: req.body.side, moves: req.body.moves }),
  );

  app.post<WithId & { Body: { side: Side } }>(
    '/api/boards/:id/arrive',
    writeOpts(app, SIDE_BODY),
    // FIDE Laws 6.7.1: the arbiter saw the player arrive; the default time no longer threatens that side.
    async (req, reply) => run(req, reply, { type: 'arrive', boardId: req.params.id, side: req.body.side }),
  );

  // FIDE Laws 7.5.1 with 6.10.2: the last completed move is annulled (clock paused or flagged);
  // Laws 7.1: both times go back to its press (`rewind`, the default) or stay (`keep`).
  app.post<WithId & { Body: { times?: string } }>('/api/boards/:id/takeback', optionalBodyOpts(app, TAKEBACK), async (req, reply) =>
    run(req, reply, { type: 'takeback', boardId: req.params.id, times: takebackTimes(req.body.times) }),
  );

  app.post<WithId & { Body: { side: Side } }>(
    '/api/boards/:id/turn',
    writeOpts(app, SIDE_BODY),
    // FIDE Laws 6.10.2: the side on move (a replacement clock, a clock set with the wrong side running).
    async (req, reply) => run(req, reply, { type: 'set-turn', boardId: req.params.id, side: req.body.side }),
  );

  // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": a forfeit is overruled.
  app.post<WithId>('/api/boards/:id/reinstate', optionalBodyOpts(app, NO_CONTENT), async (req, reply) =>
    run(req, reply, { type: 'reinstate', boardId: req.params.id }),
  );
}

/** The arbiter's commands to a board's clock (docs/api.md "Writes"), as a Fastify plugin. */
export async function boardCommandRoutes(app: FastifyInstance, opts: BoardCommandOptions): Promise<void> {
  controlRoutes(app, opts);
  timeRoutes(app, opts);
  gameRoutes(app, opts);
}

// The arbiter's commands to a board's clock over HTTP (docs/api.md "Writes"): the next game's
// setup, pause and resume, time changes, the move counter, arrivals, take-backs, the side on
// move, a corrected control, the quickplay increment and delay, and reinstating a forfeit.
// Each body is checked by its JSON schema (after api.ts's strict check of the raw JSON types),
// a time control is read by the one spec reader (protocol/time-control.ts readTimeControlSpec),
// and the command goes to the CommandSink with the arbiter's name, which journals it and asks
// the rule book whether the board's clock takes it now (rules/command-rules.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INCREMENT_TIMINGS, readTimeControlSpec, TimeControlError, type IncrementTiming, type TimeControl } from '../../../protocol/time-control.ts';
import { TAKEBACK_TIMES, type TakebackTimes } from '../../../rules/takeback.ts';
import { SIDES, type Side } from '../../../rules/vocabulary.ts';
import type { ArbiterCommand, BoardGameJournal, BoardView, PlayerView } from '../../app/ports.ts';
import { HttpError } from './http-error.ts';

export interface BoardCommandRouteDeps {
  /** Hands the command to the CommandSink with the request's arbiter and answers as api.ts does. */
  readonly run: (req: FastifyRequest, reply: FastifyReply, command: ArbiterCommand) => Promise<FastifyReply>;
  /** The route options of a write: the arbiter token, the board id, and the body's schema with its strict type check. */
  readonly writeOpts: (body?: object) => object;
  readonly boardOr404: (id: string) => BoardView;
  /** The board's current game as journaled (its configured control), when the host keeps one. */
  readonly boardGame?: (id: string) => BoardGameJournal | undefined;
}

// The schemas' words are the rule book's vocabulary (rules/vocabulary.ts), never a copy.
const SIDE = { type: 'string', enum: SIDES } as const;
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

/** A command without content takes no body or `{}`: a field sent with it is a mistake (400 naming it). */
function noContent(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'body: must be empty or {} (this command takes no fields)');
  const field = Object.keys(body)[0];
  if (field !== undefined) throw new HttpError(400, `body: must NOT have additional properties ("${field}": this command takes no fields)`, field);
}

/**
 * The take-back's optional body, checked by hand (a call without a body, as before the choice
 * of the times, is still a rewind; a schema would refuse it): none, `{}`, or
 * `{ "times": "rewind" | "keep" }` (FIDE Laws 7.1). The dashboard always sends `times`.
 */
function takebackTimes(body: unknown): TakebackTimes {
  if (body === undefined || body === null) return 'rewind';
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'body: must be empty or an object with "times"');
  const b = body as Record<string, unknown>;
  for (const field of Object.keys(b)) if (field !== 'times') throw new HttpError(400, `body: unknown field "${field}"`, field);
  if (b.times === undefined) return 'rewind';
  if (!(TAKEBACK_TIMES as readonly unknown[]).includes(b.times)) {
    throw new HttpError(400, `body: "times" must be one of ${TAKEBACK_TIMES.map((t) => JSON.stringify(t)).join(', ')}, got ${JSON.stringify(b.times)}`, 'times');
  }
  return b.times as TakebackTimes;
}

type WithId = { Params: { id: string } };

export function registerBoardCommandRoutes(app: FastifyInstance, deps: BoardCommandRouteDeps): void {
  const { run, writeOpts, boardOr404 } = deps;

  app.put<WithId & { Body: { timeControl: unknown; defaultTime?: number; incrementTiming?: IncrementTiming; white?: PlayerView; black?: PlayerView } }>(
    '/api/boards/:id/config',
    writeOpts({
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
      boardOr404(req.params.id);
      const timeControl = readTimeControl(req.body);
      return run(req, reply, { type: 'configure', boardId: req.params.id, timeControl, white: req.body.white, black: req.body.black });
    },
  );

  for (const type of ['pause', 'resume'] as const) {
    app.post<WithId>(`/api/boards/:id/${type}`, writeOpts(), async (req, reply) => run(req, reply, { type, boardId: req.params.id }));
  }

  app.post<WithId & { Body: { side: Side; ms: number } }>(
    '/api/boards/:id/adjust',
    writeOpts({
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
    writeOpts({ type: 'object', additionalProperties: false, required: ['side'], properties: { side: SIDE } }),
    // FIDE Laws 7.5.5: the offender's opponent gets the extra time; the clock computes how much.
    async (req, reply) => run(req, reply, { type: 'penalty', boardId: req.params.id, side: req.body.side }),
  );

  app.post<WithId & { Body: { side: Side; moves: number } }>(
    '/api/boards/:id/moves',
    writeOpts({
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
    writeOpts({ type: 'object', additionalProperties: false, required: ['side'], properties: { side: SIDE } }),
    // FIDE Laws 6.7.1: the arbiter saw the player arrive; the default time no longer threatens that side.
    async (req, reply) => run(req, reply, { type: 'arrive', boardId: req.params.id, side: req.body.side }),
  );

  // FIDE Laws 7.5.1 with 6.10.2: the last completed move is annulled (clock paused or flagged);
  // Laws 7.1: both times go back to its press (`rewind`, the default) or stay (`keep`).
  app.post<WithId>('/api/boards/:id/takeback', writeOpts(), async (req, reply) => {
    const times = takebackTimes(req.body);
    return run(req, reply, { type: 'takeback', boardId: req.params.id, times });
  });

  app.post<WithId & { Body: { side: Side } }>(
    '/api/boards/:id/turn',
    writeOpts({ type: 'object', additionalProperties: false, required: ['side'], properties: { side: SIDE } }),
    // FIDE Laws 6.10.2: the side on move (a replacement clock, a clock set with the wrong side running).
    async (req, reply) => run(req, reply, { type: 'set-turn', boardId: req.params.id, side: req.body.side }),
  );

  app.put<WithId & { Body: ControlBody }>(
    '/api/boards/:id/control',
    writeOpts({
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
      const board = boardOr404(req.params.id);
      const current = board.live?.clock?.control ?? deps.boardGame?.(board.id)?.timeControl ?? null;
      const timeControl = readCorrectedControl(req.body, current);
      return run(req, reply, { type: 'set-control', boardId: req.params.id, timeControl });
    },
  );

  // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": a forfeit is overruled.
  app.post<WithId>('/api/boards/:id/reinstate', writeOpts(), async (req, reply) => {
    noContent(req.body);
    return run(req, reply, { type: 'reinstate', boardId: req.params.id });
  });

  app.post<WithId & { Body: { ms: number } }>(
    '/api/boards/:id/increment',
    writeOpts({
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
    writeOpts({
      type: 'object',
      additionalProperties: false,
      required: ['ms'],
      properties: { ms: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS } },
    }),
    // FIDE Guidelines III.4: a delay for both sides instead of the increment, on every later turn (0 removes it).
    async (req, reply) => run(req, reply, { type: 'delay', boardId: req.params.id, ms: req.body.ms }),
  );
}

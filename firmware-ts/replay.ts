// `chessclock replay`: JSON Lines of stamped inputs in, JSON Lines of what the clock
// did out (docs/replay.md). It runs the same statechart as the clock at the board,
// on a StepClock advanced to each line's `t`, so the timers that fire flags
// and forfeits fire at their exact computed instants, before any input at that time.

import { createActor, type Actor } from 'xstate';
import {
  formatTimeControl,
  isPresetName,
  parsePgnTimeControl,
  readTimeControlSpec,
  TimeControlError,
  type Side,
  type TimeControl,
} from '../protocol/time-control.ts';
import { periodForMoves } from '../rules/periods.ts';
import { clockMachine, type ClockInput, type ClockOutput } from '../rules/clock.machine.ts';
import { readClock } from '../rules/clock-reading.ts';
import { StepClock } from '../rules/step-clock.ts';

/**
 * The longest input line read (docs/replay.md "Input"): a real line is a few hundred
 * characters; a longer one is refused before it is held whole.
 */
export const MAX_LINE_CHARS = 65_536;

/** C0 and C1 control characters, DEL, line and paragraph separators and bidi controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character written as `\uXXXX`: an error message quotes the input
 * (JSON.parse's own messages do), and an escape sequence in bad input must not drive the
 * arbiter's terminal.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class ReplayError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${escapeControls(message)}`);
    this.name = 'ReplayError';
  }
}

type Json = Record<string, unknown>;

/** A press line in its canonical spelling (t has at most 15 digits: a safe integer). */
const PRESS_LINE = /^\{"t":(0|[1-9][0-9]{0,14}),"type":"press","side":"(white|black)"\}$/;
const SIDE_TYPES = new Set(['press', 'arrive', 'adjust', 'penalty', 'set-moves', 'moves', 'turn']);
const TIMED_TYPES = new Set([
  'start',
  'press',
  'arrive',
  'pause',
  'resume',
  'adjust',
  'penalty',
  'set-moves',
  'moves',
  'takeback',
  'reinstate',
  'increment',
  'delay',
  'turn',
  'control',
  'end',
]);

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Builds the game's time control from a setup line. */
export function setupTimeControl(line: Json): TimeControl {
  return lineTimeControl(line, 'setup', { defaultTime: null, incrementTiming: 'before-move' });
}

/**
 * The corrected control of a `control` line (FIDE Laws 6.10.2): the forms of a setup line; a
 * default time or increment timing the line does not give stays as the game has it.
 */
export function correctedTimeControl(line: Json, current: TimeControl): TimeControl {
  return lineTimeControl(line, 'control', {
    defaultTime: current.defaultTimeMs === null ? null : current.defaultTimeMs / 1000,
    incrementTiming: current.incrementTiming,
  });
}

function lineTimeControl(
  line: Json,
  kind: 'setup' | 'control',
  opts: { defaultTime: number | null; incrementTiming: TimeControl['incrementTiming'] },
): TimeControl {
  const forms = ['preset', 'timeControl', 'white'].filter((k) => line[k] !== undefined);
  if (forms.length === 0) {
    throw new TimeControlError(`${kind} needs "preset", "timeControl", or "white" and "black"`, kind);
  }
  if (forms.length > 1) {
    throw new TimeControlError(`${kind} has both "${forms[0]}" and "${forms[1]}": give one form of time control`, forms[1]);
  }
  if (line.white !== undefined && line.black === undefined) throw new TimeControlError(`${kind} has "white" but no "black"`, 'black');
  if (line.black !== undefined && line.white === undefined) throw new TimeControlError(`${kind} has "black" but no "white"`, 'white');
  if (line.defaultTime !== undefined && line.defaultTime !== null && typeof line.defaultTime !== 'number') {
    throw new TimeControlError(`"defaultTime" must be a whole number of seconds, got ${describe(line.defaultTime)}`, 'defaultTime');
  }
  // A setup's `timeControl` is a PGN field or the stage array (docs/replay.md "setup"): a preset
  // goes in `preset`, so a preset's name here is read as the PGN field it is not.
  if (typeof line.timeControl === 'string' && isPresetName(line.timeControl)) parsePgnTimeControl(line.timeControl);
  // The shape is the replay contract's; the control itself is read by the one reader the host,
  // the API and the clock's command line use (protocol/time-control.ts readTimeControlSpec).
  return readTimeControlSpec({
    ...line,
    defaultTime: line.defaultTime === undefined ? opts.defaultTime : line.defaultTime,
    incrementTiming: line.incrementTiming ?? opts.incrementTiming,
  }).timeControl;
}

/** The output line for a clock output, or null for outputs the replay contract does not print. */
function outputLine(out: ClockOutput, input: string): string | null {
  switch (out.type) {
    case 'takeback':
      return `{"t":${out.at},"type":"takeback","side":"${out.side}","move":${out.move},"times":"${out.times}","white":${out.white},"black":${out.black}}`;
    case 'turn-set':
      return `{"t":${out.at},"type":"turn","side":"${out.side}","white":${out.white},"black":${out.black}}`;
    case 'control-set': {
      const dt = out.timeControl.defaultTimeMs;
      return (
        `{"t":${out.at},"type":"control","timeControl":${JSON.stringify(formatTimeControl(out.timeControl))},` +
        `"defaultTime":${dt === null ? 'null' : dt / 1000},"incrementTiming":"${out.timeControl.incrementTiming}","white":${out.white},"black":${out.black}}`
      );
    }
    case 'delay-set':
      return `{"t":${out.at},"type":"delay","ms":${out.ms}}`;
    case 'moves-set':
      return `{"t":${out.at},"type":"moves","side":"${out.side}","moves":${out.moves},"period":${out.period},"white":${out.white},"black":${out.black}}`;
    case 'reinstated':
      return `{"t":${out.at},"type":"reinstated","white":${out.white},"black":${out.black}}`;
    case 'increment-set':
      return `{"t":${out.at},"type":"increment","ms":${out.ms}}`;
    case 'rejected':
      // A well-formed input the clock refuses in its state: nothing changed (no input error).
      return `{"t":${out.at},"type":"rejected","input":"${input}","reason":${JSON.stringify(out.reason)}}`;
    case 'move':
      return `{"t":${out.at},"type":"move","side":"${out.side}","move":${out.move},"white":${out.white},"black":${out.black}}`;
    case 'flag':
      return `{"t":${out.at},"type":"flag","side":"${out.side}","white":${out.white},"black":${out.black}}`;
    case 'forfeit':
      return `{"t":${out.at},"type":"forfeit","side":"${out.side}"}`;
    default:
      return null;
  }
}

/**
 * Streams replay input lines to output lines. Feed lines one by one with `line()`;
 * output goes to `write` as complete lines. Throws ReplayError on bad input, after
 * everything before that line has been written.
 */
export class Replayer {
  private lineNo: number;
  private actor: Actor<typeof clockMachine> | null = null;
  private clock: StepClock | null = null;
  private lastT = 0;
  /** The replay type of the input being applied (named in a `rejected` line). */
  private inputType = 'press';

  /** `firstLine`: the number of the first line fed (a batch from the middle of a stream). */
  constructor(
    private readonly write: (line: string) => void,
    firstLine = 1,
  ) {
    this.lineNo = firstLine - 1;
  }

  /** The next line fed is line `lineNo` of the input (chunks routed from a larger stream). */
  seek(lineNo: number): void {
    this.lineNo = lineNo - 1;
  }

  line(text: string): void {
    this.lineNo += 1;
    if (text.length > MAX_LINE_CHARS) throw new ReplayError(this.lineNo, `the line is longer than ${MAX_LINE_CHARS} characters`);
    // A byte-order mark before the first line is the editor's, not the input's (RFC 8259 §8.1 lets a parser ignore it).
    if (this.lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    // Most lines of a long replay are presses written exactly like this; they need no
    // general JSON parse (a line in any other spelling takes the general path below).
    const press = PRESS_LINE.exec(text);
    if (press !== null && this.actor) {
      this.inputType = 'press';
      return this.step({ type: 'PRESS', side: press[2] as Side, at: Number(press[1]) }, Number(press[1]));
    }
    if (text.trim() === '') return; // blank lines carry nothing
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new ReplayError(this.lineNo, `malformed JSON (${(err as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ReplayError(this.lineNo, 'expected a JSON object');
    }
    const line = parsed as Json;
    const type = line.type;
    if (type === 'setup') return this.setup(line);
    if (typeof type !== 'string' || !TIMED_TYPES.has(type)) {
      throw new ReplayError(this.lineNo, `unknown type ${describe(type)}`);
    }
    if (!this.actor) throw new ReplayError(this.lineNo, `"${type}" before any setup line`);
    const t = line.t;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) {
      throw new ReplayError(this.lineNo, `"t" must be a whole number of milliseconds ≥ 0, got ${describe(t)}`);
    }
    if (t < this.lastT) throw new ReplayError(this.lineNo, `"t" went backwards: ${t} after ${this.lastT}`);
    const input = this.input(type, line, t);
    this.inputType = type;
    if (input === 'refused') {
      this.lastT = t;
      this.clock!.advanceTo(t);
      return;
    }
    this.step(input, t);
  }

  /** Deadlines at or before t fire first (at their own instants), then the input. */
  private step(input: ClockInput | null, t: number): void {
    if (t < this.lastT) throw new ReplayError(this.lineNo, `"t" went backwards: ${t} after ${this.lastT}`);
    this.lastT = t;
    const clock = this.clock!;
    clock.advanceTo(t);
    if (input) {
      this.actor!.send(input);
      // A deadline the input made due at once (an adjust to zero) fires at this same t.
      clock.advanceTo(t);
    } else this.writeState(t);
  }

  /** Ends the stream: nothing more to do (a game without `end` simply stops). */
  finish(): void {
    this.actor?.stop();
    this.actor = null;
  }

  /** The clock input of a line; null for `end`; 'refused' when the line was answered here. */
  private input(type: string, line: Json, at: number): ClockInput | null | 'refused' {
    let side: 'white' | 'black' = 'white';
    if (SIDE_TYPES.has(type)) {
      if (line.side !== 'white' && line.side !== 'black') {
        throw new ReplayError(this.lineNo, `"side" must be "white" or "black", got ${describe(line.side)}`);
      }
      side = line.side;
    }
    switch (type) {
      case 'start':
        return this.startInput(line, at);
      case 'takeback':
        return this.takebackInput(line, at);
      case 'turn':
        return { type: 'SET_TURN', side, at };
      case 'control': {
        const current = this.actor!.getSnapshot().context.clock.timeControl;
        try {
          return { type: 'SET_CONTROL', timeControl: correctedTimeControl(line, current), at };
        } catch (err) {
          if (err instanceof TimeControlError) throw new ReplayError(this.lineNo, err.message);
          throw err;
        }
      }
      case 'delay':
        return { type: 'DELAY', ms: this.msOf(line, true), at };
      case 'reinstate':
        return { type: 'REINSTATE', at };
      case 'increment':
        return { type: 'INCREMENT', ms: this.msOf(line, true), at };
      case 'press':
        return { type: 'PRESS', side, at };
      case 'arrive':
        return { type: 'ARRIVE', side, at };
      case 'pause':
        return { type: 'PAUSE', at };
      case 'resume':
        return { type: 'RESUME', at };
      case 'penalty':
        return { type: 'PENALTY', side, at };
      case 'adjust':
        return { type: 'ADJUST', side, ms: this.msOf(line, false), at };
      case 'moves':
      case 'set-moves':
        return this.setMovesInput(type, line, side, at);
      default: // 'end'
        return null;
    }
  }

  /** FIDE Laws 6.7.1: the default time counts from the session's start, given when the board starts late. */
  private startInput(line: Json, at: number): ClockInput {
    // The session may have begun before the clock's time line does (a negative `session`).
    const session = line.session;
    if (session === undefined || session === null) return { type: 'START', at };
    if (typeof session !== 'number' || !Number.isSafeInteger(session)) {
      throw new ReplayError(this.lineNo, `"session" must be a whole number of milliseconds, got ${describe(session)}`);
    }
    if (session > at) throw new ReplayError(this.lineNo, `"session" ${session} is after "t" ${at}: the session starts at or before the clock`);
    return { type: 'START', at, sessionAt: session };
  }

  /** FIDE Laws 7.1: the arbiter may keep the clock times. */
  private takebackInput(line: Json, at: number): ClockInput {
    const times = line.times;
    if (times === undefined || times === null || times === 'rewind') return { type: 'TAKEBACK', at };
    if (times === 'keep') return { type: 'TAKEBACK', at, times: 'keep' };
    throw new ReplayError(this.lineNo, `"times" must be "rewind" or "keep", got ${describe(times)}`);
  }

  /** The line's `ms`: a whole number of milliseconds (≥ 0 when `nonNegative`). */
  private msOf(line: Json, nonNegative: boolean): number {
    const ms = line.ms;
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || (nonNegative && ms < 0)) {
      throw new ReplayError(this.lineNo, `"ms" must be a whole number of milliseconds${nonNegative ? ' ≥ 0' : ''}, got ${describe(ms)}`);
    }
    return ms;
  }

  /** FIDE Laws 6.10.2: the arbiter's correction of a move counter; a `period` that contradicts the count is refused. */
  private setMovesInput(type: string, line: Json, side: Side, at: number): ClockInput | 'refused' {
    const moves = line.moves;
    if (typeof moves !== 'number' || !Number.isSafeInteger(moves) || moves < 0) {
      throw new ReplayError(this.lineNo, `"moves" must be a whole number ≥ 0, got ${describe(moves)}`);
    }
    const period = line.period;
    if (period !== undefined && (typeof period !== 'number' || !Number.isSafeInteger(period) || period < 0)) {
      throw new ReplayError(this.lineNo, `"period" must be a whole number ≥ 0, got ${describe(period)}`);
    }
    if (typeof period === 'number') {
      // The period follows from the count (FIDE Laws 6.10.2); a period that contradicts it is refused.
      const tc = this.actor!.getSnapshot().context.clock.timeControl;
      const derived = periodForMoves(tc, side, moves);
      if (period !== derived) {
        const reason = `period ${period} contradicts ${moves} completed moves (period ${derived})`;
        this.write(outputLine({ type: 'rejected', at, input: 'SET_MOVES', reason }, type)!);
        return 'refused';
      }
    }
    return { type: 'SET_MOVES', side, moves, at };
  }

  private setup(line: Json): void {
    let tc: TimeControl;
    try {
      tc = setupTimeControl(line);
    } catch (err) {
      if (err instanceof TimeControlError) throw new ReplayError(this.lineNo, err.message);
      throw err;
    }
    this.finish();
    const clock = new StepClock();
    const actor = createActor(clockMachine, { input: { timeControl: tc }, clock });
    actor.on('*', (out) => {
      const text = outputLine(out, this.inputType);
      if (text !== null) this.write(text);
    });
    actor.start();
    this.actor = actor;
    this.clock = clock;
    this.lastT = 0;
  }

  private writeState(at: number): void {
    const r = readClock(this.actor!.getSnapshot().context.clock, at);
    this.write(
      `{"t":${at},"type":"state","status":"${r.status}","turn":"${r.turn}","white":${r.white},"black":${r.black},` +
        `"moves":{"white":${r.moves.white},"black":${r.moves.black}},"flag":${r.flag === null ? 'null' : `"${r.flag}"`},` +
        `"illegal":{"white":${r.illegalMoves.white},"black":${r.illegalMoves.black}}}`,
    );
  }
}

export interface ReplayChunk {
  id: number;
  /** Line number of `lines[0]` in the whole input. */
  firstLine: number;
  lines: string[];
}

export interface ReplayChunkResult {
  id: number;
  output: string;
  /** `line N: …` for the first bad line of the chunk (output holds what came before it). */
  error: string | null;
}

/**
 * Replays chunks of a larger stream. One instance serves every chunk of the games routed
 * to it, in input order, so each game's clock carries over from one chunk to the next.
 */
export class ChunkReplayer {
  private out: string[] = [];
  private readonly replayer = new Replayer((line) => this.out.push(line));

  run(chunk: ReplayChunk): ReplayChunkResult {
    this.out = [];
    let error: string | null = null;
    try {
      this.replayer.seek(chunk.firstLine);
      for (const line of chunk.lines) this.replayer.line(line);
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      error = err.message;
    }
    return { id: chunk.id, output: this.out.length ? this.out.join('\n') + '\n' : '', error };
  }
}

/**
 * Whether a line may start a new game. Cheap and conservative: a line that is a setup
 * line always contains the word (unless written with \\u escapes, which are parsed).
 */
export function isSetupLine(line: string): boolean {
  if (!line.includes('setup') && !line.includes('\\u')) return false;
  try {
    const parsed = JSON.parse(line) as { type?: unknown } | null;
    return typeof parsed === 'object' && parsed !== null && parsed.type === 'setup';
  } catch {
    return false;
  }
}

/** Replays a whole text (tests, small inputs). Returns the output lines. */
export function replayText(text: string): string[] {
  const out: string[] = [];
  const replayer = new Replayer((l) => out.push(l));
  for (const line of text.split('\n')) replayer.line(line);
  replayer.finish();
  return out;
}

// The arbiter's commands as the clock's protocol carries them: which Command (or Configure) each
// becomes on the wire, which protocol minor a clock must speak to take it, and how a result is
// shown on a clock. Pure: the clock fleet (clock-fleet.ts) checks the board and the clock, then
// sends what this table gives (docs/protocol.md "Commands", "Versions").
import { forfeitResultFor, isGameResult, RESULT_MEANING } from '../../rules/vocabulary.ts';
import { RESULT_TO_WIRE, SIDE_TO_WIRE } from '../../rules/clock-snapshot-wire.ts';
import { Command_Kind, type GameResult as WireResult } from '../../protocol/gen/chessclock_pb.ts';
import type { BodyInit } from '../../protocol/session-api.ts';
import { timeControlToProto, timeControlToWire } from '../../protocol/time-control-codec.ts';
import type { GameRow } from '../store/types.ts';
import type { ArbiterCommand } from './ports.ts';

const WIRE_SIDE = SIDE_TO_WIRE;

/**
 * The protocol minor a clock must speak for each arbiter command that came with a later minor:
 * the host refuses such a command itself, saying why, rather than sending what the clock's
 * firmware cannot read (it would refuse it with Nack INVALID anyway: docs/protocol.md, "Versions").
 */
export const COMMAND_MINOR: Partial<Record<ArbiterCommand['type'], { readonly minor: number; readonly what: string }>> = {
  arrive: { minor: 1, what: 'marking an arrival' },
  takeback: { minor: 1, what: 'take-back' },
  reinstate: { minor: 1, what: 'reinstating a forfeit' },
  increment: { minor: 1, what: 'the quickplay increment' },
  'set-turn': { minor: 4, what: 'setting the side on move' },
  'set-control': { minor: 4, what: 'correcting the time control' },
  delay: { minor: 4, what: 'the quickplay delay' },
};

/** The protocol minor `command` needs, with what to call it: a take-back keeping the times (FIDE Laws 7.1) came with 1.4. */
export function minorNeeded(command: ArbiterCommand): { minor: number; what: string } | undefined {
  if (command.type === 'takeback' && command.times === 'keep') return { minor: 4, what: 'a take-back keeping the clock times' };
  return COMMAND_MINOR[command.type];
}

/** Since protocol 1.4 a clock holds the double forfeit as its result (GameResult DOUBLE_FORFEIT). */
export const DOUBLE_FORFEIT_MINOR = 4;

/** Session start elapsed on the wire: a uint32 of ms. */
export const MAX_SESSION_ELAPSED_MS = 0xffffffff;

/** Results a clock can show (a forfeit has no clock form). */
const WIRE_RESULT: Readonly<Record<string, WireResult>> = RESULT_TO_WIRE;

/** A game's setup as a clock's Configure carries it: its labels, players, control and default time. */
export function configureBody(
  game: GameRow,
  eventName: string,
  override: { timeControl?: GameRow['timeControlValue']; white?: string; black?: string } = {},
): BodyInit {
  const cut = (s: string) => s.slice(0, 128); // wire text fields: at most 128 characters
  return {
    case: 'configure',
    value: {
      gameId: String(game.gameId),
      event: cut(eventName),
      round: game.matchId !== null ? `${game.round}.${game.gameNo}` : String(game.round),
      board: String(game.board),
      whitePlayer: cut(override.white ?? game.white),
      blackPlayer: cut(override.black ?? game.black),
      ...timeControlToProto(override.timeControl ?? game.timeControlValue),
    },
  } as BodyInit;
}

/**
 * The time since the session (round) began, as a start carries it (FIDE Laws 6.7.1: the default
 * time counts from the session's start; a duration needs no common time base: docs/protocol.md,
 * "Session start"): 0 without a session, clamped to the wire's uint32.
 */
export function sessionElapsedMs(sessionUtcMs: number | undefined, nowUtcMs: number): number {
  if (sessionUtcMs === undefined) return 0;
  return Math.min(MAX_SESSION_ELAPSED_MS, Math.max(0, Math.round(nowUtcMs - sessionUtcMs)));
}

const command = (value: Record<string, unknown>): BodyInit => ({ case: 'command', value }) as BodyInit;

/**
 * The Command a clock command becomes (every arbiter command but `configure`, which is a game's
 * Configure: configureBody, and the results, which are no clock command: null). `nowUtcMs`: for a start's session.
 */
export function commandBody(c: ArbiterCommand, nowUtcMs: number): BodyInit | null {
  switch (c.type) {
    // FIDE Laws 6.5: the arbiter starts White's clock (as Black's first press would, without showing Black present).
    case 'start':
      return command({ kind: Command_Kind.START, sessionElapsedMs: sessionElapsedMs(c.sessionUtcMs, nowUtcMs) });
    // FIDE Laws 6.7.1: the player is at the board; the clock reports ARRIVED.
    case 'arrive':
      return command({ kind: Command_Kind.ARRIVE, side: WIRE_SIDE[c.side] });
    // FIDE Laws 7.5.1 with 6.10.2: the clock annuls the last completed move and reports TAKEN_BACK;
    // Laws 7.1: the arbiter may keep both clock times (keep_times, since 1.4).
    case 'takeback':
      return command({ kind: Command_Kind.TAKEBACK, keepTimes: c.times === 'keep' });
    // FIDE Laws 6.10.2: the side on move (a replacement clock); the clock reports TURN_SET.
    case 'set-turn':
      return command({ kind: Command_Kind.SET_TURN, side: WIRE_SIDE[c.side] });
    // FIDE Laws 6.10.2: the corrected control, both times kept; the clock reports CONTROL_SET.
    case 'set-control':
      return command({ kind: Command_Kind.SET_CONTROL, control: timeControlToWire(c.timeControl) });
    // FIDE Guidelines III.4: a delay for both sides on every later turn; the clock reports DELAY_SET.
    case 'delay':
      return command({ kind: Command_Kind.DELAY, ms: c.ms });
    // FIDE Laws 6.7.1: the forfeit is overruled; the clock reports REINSTATED.
    case 'reinstate':
      return command({ kind: Command_Kind.REINSTATE });
    // FIDE Guidelines III.4: both sides get `ms` after every later move; the clock reports INCREMENT_SET.
    case 'increment':
      return command({ kind: Command_Kind.INCREMENT, ms: c.ms });
    case 'pause':
      return command({ kind: Command_Kind.PAUSE });
    case 'resume':
      return command({ kind: Command_Kind.RESUME });
    case 'adjust':
      return command({ kind: Command_Kind.ADJUST, side: WIRE_SIDE[c.side], ms: c.ms });
    // FIDE Laws 7.5.5: `side` made the illegal move; the clock credits the opponent.
    case 'penalty':
      return command({ kind: Command_Kind.PENALTY, side: WIRE_SIDE[c.side] });
    // FIDE Laws 6.10.2: the clock takes the corrected counter, credits a later period once (and reports MOVES_SET).
    case 'set-moves':
      return command({ kind: Command_Kind.SET_MOVES, side: WIRE_SIDE[c.side], moves: c.moves });
    case 'configure':
    case 'result':
    case 'confirm-result':
      return null;
  }
}

/**
 * The result as a clock speaking protocol minor `minor` can show it (a key of RESULT_TO_WIRE): a
 * played result as itself, a forfeit win as the win it counts as (rules/vocabulary.ts
 * RESULT_MEANING pgn). A double forfeit (FIDE Laws 6.7.1: both lose) is the clock's own result
 * `--` since 1.4 (GameResult DOUBLE_FORFEIT); an older clock has no form for it: ''
 * (resultBody then only stops a running clock). This is the one place that decides it.
 */
export function clockFormOf(result: string, minor: number): string {
  if (result === forfeitResultFor('both')) return minor >= DOUBLE_FORFEIT_MINOR ? result : '';
  return isGameResult(result) ? (RESULT_MEANING[result].pgn ?? '') : result;
}

/**
 * What shows a result on a clock of protocol minor `minor`: Command ENTER_RESULT (the clock's
 * RESULT input: a running clock stops at once and shows it), or PAUSE where the clock has no form
 * for it (`entered` false: a refusal then only means the clock was not running).
 */
export function resultBody(result: string, minor: number): { body: BodyInit; entered: boolean } {
  const wire = WIRE_RESULT[clockFormOf(result, minor)];
  return wire === undefined
    ? { body: command({ kind: Command_Kind.PAUSE }), entered: false }
    : { body: command({ kind: Command_Kind.ENTER_RESULT, result: wire }), entered: true };
}

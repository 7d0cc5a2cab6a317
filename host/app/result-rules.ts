// A result closes the game: what the host answers when an arbiter command reaches a board
// whose game has a result, and when a result is changed (journal-ports.ts). One text, so a
// refusal reads the same wherever it comes
// from (docs/architecture.md rule 10: the reason of a refused command says what and where).
//
// The rules (docs/api.md, "A game with a result"):
//  - FIDE Laws 5.1 / 5.2: a result ends the game. Its clock takes no command any more (start,
//    pause, resume, adjust, penalty, set-moves, increment, delay, takeback, reinstate, arrive,
//    set-turn, set-control) and is not set up anew (configure): 409, naming the board, the
//    result and what to do instead.
//  - FIDE Laws 8.7: the result stands, even if incorrect, unless the arbiter decides otherwise.
//    The arbiter's decision is a correction: `PUT /api/boards/:id/result`, journaled with who
//    made it, what it replaced and why; a confirmed result is only changed with a reason.
import { commandPlace } from '../../rules/command-rules.ts';
import { CLOCK_COMMANDS } from '../../rules/vocabulary.ts';
import type { ArbiterCommand, LiveClockState } from './ports.ts';

/** What the refusal needs to know of a board with a result. */
export interface BoardWithResult {
  readonly id: string;
  readonly event: string;
  readonly round: number;
  readonly board: number;
  readonly result: string;
  /** The arbiter who confirmed it, '' when confirmed by someone not named, null when not confirmed. */
  readonly confirmedBy: string | null;
}

/** The commands that reach a board's clock (everything but the result commands): the vocabulary's CLOCK_COMMANDS. */
export const CLOCK_COMMAND_TYPES: ReadonlySet<ArbiterCommand['type']> = new Set(CLOCK_COMMANDS);

/** What each command would have done, in the refusal's words. */
const WHAT: Readonly<Record<string, string>> = {
  configure: 'a new setup',
  start: 'a start',
  pause: 'a pause',
  resume: 'a resume',
  adjust: 'a time change',
  penalty: 'a penalty',
  'set-moves': 'a move-counter correction',
  arrive: 'an arrival',
  takeback: 'a take-back',
  reinstate: 'a reinstatement',
  increment: 'an increment',
  delay: 'a delay',
  'set-turn': 'setting the side on move',
  'set-control': 'a corrected time control',
};

/** How the refusal names the result: `1-0, confirmed by Ana`, `1-0, not confirmed yet`. */
function resultWords(b: BoardWithResult): string {
  if (b.confirmedBy === null) return `${b.result}, not confirmed yet`;
  return b.confirmedBy === '' ? `${b.result}, confirmed` : `${b.result}, confirmed by ${b.confirmedBy}`;
}

/** What the arbiter does to change a recorded result (a confirmed one needs a reason). */
export function correctionHint(b: BoardWithResult): string {
  const route = `PUT /api/boards/${b.id}/result`;
  return b.confirmedBy === null ? `correct the result (${route})` : `correct the result with a reason (${route} with "result" and "reason")`;
}

/**
 * Why a clock command is refused on a board whose game has a result: 409. Starts as the rule
 * book's own refusal for a finished game (rules/command-rules.ts: "… has a result: the game is
 * over"), then says which result, that nothing changes, and what to do instead.
 */
export function finishedGameRefusal(type: ArbiterCommand['type'], b: BoardWithResult): string {
  const where = commandPlace(b);
  // FIDE Laws 5.1 / 5.2: the game has ended; its times are what they were when it ended.
  const instead = type === 'configure' ? "the board's next game is set up when the round or the match goes on; to change this game, " : 'to change it, ';
  return `${where} has a result: the game is over (${resultWords(b)}): ${WHAT[type] ?? `"${type}"`} changes nothing now; ${instead}${correctionHint(b)}`;
}

/** Why a correction of a confirmed result is refused without a reason: 422 (FIDE Laws 8.7). */
export function correctionNeedsReason(b: BoardWithResult): string {
  return `${commandPlace(b)}: ${resultWords(b)}: a correction of a confirmed result must say why (send "reason"; it is journaled with the correction)`;
}

/**
 * A board's live state once its game has a result (null: no result, or nothing reported):
 * `finished`, nobody's clock running, the times the clock last reported. A result entered at
 * the host is no clock event (the clock does not echo ENTER_RESULT), and a clock that was
 * offline may have run on: the result, not the clock's last status, says the game is over.
 */
export function finishedLive(result: string | null, live: LiveClockState | null): LiveClockState | null {
  if (live === null || result === null) return live;
  if (live.status === 'finished' && !live.clock?.running) return live;
  return { ...live, status: 'finished', ...(live.clock ? { clock: { ...live.clock, running: false } } : {}) };
}

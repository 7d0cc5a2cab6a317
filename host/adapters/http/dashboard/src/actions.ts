// The arbiter's actions on one board, as pure functions (unit-tested in actions.test.ts):
//  - which of them the board takes now, and if not, why (the rule book's boardCommandRefusal,
//    with the host's own words for a board without a clock or with its clock offline);
//  - the HTTP calls an action makes (docs/api.md "Writes");
//  - what the arbiter's answer to a confirmation makes of the action (the take-back's choice of
//    the times, who is present at a start).
// What a careful action will change, asked before it is sent, is confirmations.ts.
import type { BoardView } from '../../../../app/ports.ts';
import type { TakebackTimes } from '../../../../../rules/takeback.ts';
import { boardCommandRefusal, commandPlace } from '../../../../../rules/command-rules.ts';
import { isGameResult, other, RESULT_MEANING, SIDE_NAME, type ArbiterCommandName, type GameResult, type Side } from '../../../../../rules/vocabulary.ts';
import type { IncrementTiming } from '../../../../../protocol/time-control.ts';
import { secondIllegalMoveBy, sideOnMove } from './board-text.ts';
import { isPresence } from '../../../../../rules/presence.ts';
import { startArrivals } from './presence.ts';

/** The corrected control as the arbiter typed it (PUT /api/boards/:id/control, FIDE Laws 6.10.2). */
export interface ControlCorrection {
  /** The control in the configure form's words: a preset, a PGN field (`40/5400+30:900+30`), `W360-B300`. */
  readonly timeControl: string;
  /** FIDE Laws 6.7.1, seconds; null removes the default time; left out, the one in force stays. */
  readonly defaultTime?: number | null;
  /** Left out, the timing in force stays. */
  readonly incrementTiming?: IncrementTiming;
}

/** What a control of the panel does: its HTTP requests are built from it (requestsOf). */
export type Action =
  | { readonly kind: 'pause' | 'resume' | 'reinstate' | 'confirm' }
  /** FIDE Laws 6.5; at a default time of 0 (6.7.1) `arrive` names the sides marked present first. */
  | { readonly kind: 'start'; readonly arrive?: readonly Side[] }
  /** FIDE Laws 7.5.1 with 7.1: both clock times rewound to the annulled press, or kept. */
  | { readonly kind: 'takeback'; readonly times: TakebackTimes }
  /** FIDE Guidelines III.4: the quickplay increment (after every move) or delay (on every turn). */
  | { readonly kind: 'increment' | 'delay'; readonly ms: number }
  | { readonly kind: 'arrive'; readonly side: Side }
  | { readonly kind: 'adjust'; readonly side: Side; readonly ms: number }
  | { readonly kind: 'penalty'; readonly side: Side }
  | { readonly kind: 'set-moves'; readonly side: Side; readonly moves: number }
  /** FIDE Laws 6.10.2: the side on move (a replacement clock). */
  | { readonly kind: 'set-turn'; readonly side: Side }
  /** FIDE Laws 6.10.2: a corrected control; the times stay. */
  | { readonly kind: 'set-control'; readonly correction: ControlCorrection }
  | { readonly kind: 'result'; readonly result: GameResult; readonly reason?: string };

export type ActionKind = Action['kind'];

/** The clock command each action sends (the vocabulary's CLOCK_COMMANDS), or the result commands. */
export const COMMAND_OF: Readonly<Record<ActionKind, ArbiterCommandName>> = {
  start: 'start',
  pause: 'pause',
  resume: 'resume',
  takeback: 'takeback',
  reinstate: 'reinstate',
  increment: 'increment',
  delay: 'delay',
  arrive: 'arrive',
  adjust: 'adjust',
  penalty: 'penalty',
  'set-moves': 'set-moves',
  'set-turn': 'set-turn',
  'set-control': 'set-control',
  result: 'result',
  confirm: 'confirm-result',
};

/** The clock is the one that acts: these need a clock the host can reach. */
const CLOCK_ACTIONS: readonly ActionKind[] = [
  'start',
  'pause',
  'resume',
  'takeback',
  'reinstate',
  'increment',
  'delay',
  'arrive',
  'adjust',
  'penalty',
  'set-moves',
  'set-turn',
  'set-control',
];

/**
 * Why `kind` cannot be done on board `b` now, or null when it can. The clock commands follow
 * the rule book (rules/command-rules.ts, the reason the host answers with); before that, a board
 * without a clock or with its clock offline is refused in the host's words (host/app/host.ts: it
 * would answer 503). A result can be entered until it is final; only a pending one is confirmed.
 * `side`: the side a per-side control acts on (the side on move is not set to itself).
 */
export function refusalOf(kind: ActionKind, b: BoardView, side?: Side): string | null {
  const where = commandPlace(b);
  if (CLOCK_ACTIONS.includes(kind)) {
    if (!b.clockId) return `${where} has no clock assigned`;
    if (b.clockOnline === false) return `clock ${b.clockId} of ${where} is offline: nothing can be changed on it`;
    // The control in force (a corrected one included), as the host asks it: no quickplay finish in blitz (FIDE Guidelines III.2.2).
    const facts = b.live ? { movesCompleted: b.live.moves.white + b.live.moves.black, ...(b.live.clock ? { timeControl: b.live.clock.control } : {}) } : {};
    const refusal = boardCommandRefusal(COMMAND_OF[kind], b, facts);
    if (refusal !== null) return refusal;
    if (kind === 'set-turn' && side && sideOnMove(b) === side) return `${where}: ${SIDE_NAME[side]} is on move already`;
    return null;
  }
  if (kind === 'confirm') {
    if (!b.result) return `${where} has no result to confirm`;
    if (b.resultConfirmed) return `the result of ${where} is confirmed`;
    return null;
  }
  // kind === 'result'
  if (b.resultFinal) return `the result of ${where} is final (the appeal time is over)`;
  return null;
}

/** The result button's words: the first entry enters, a later one corrects. */
export function resultButtonText(b: BoardView): string {
  return b.result ? 'Correct result' : 'Enter result';
}

/**
 * `action` as the arbiter answered its confirmation: the reason of a result correction, the
 * take-back's choice of the times (FIDE Laws 7.1), who is at the board at a default time of 0
 * (6.7.1: their arrivals go first). `chosen`: the values of the options chosen in the dialog.
 */
export function answeredAction(b: BoardView, action: Action, chosen: readonly string[], reason: string): Action {
  switch (action.kind) {
    case 'result':
      return reason ? { ...action, reason } : action;
    case 'takeback':
      return chosen[0] === 'keep' || chosen[0] === 'rewind' ? { kind: 'takeback', times: chosen[0] } : action;
    case 'start':
      return chosen[0] !== undefined && isPresence(chosen[0]) ? { kind: 'start', arrive: startArrivals(b, chosen[0]) } : action;
    default:
      return action;
  }
}

type Request = [method: string, path: string, body?: unknown];

/** The HTTP call of an action (docs/api.md "Writes"); a start with arrivals is requestsOf's. */
export function requestOf(boardId: string, action: Action): Request {
  const base = `/api/boards/${encodeURIComponent(boardId)}`;
  switch (action.kind) {
    case 'start':
    case 'pause':
    case 'resume':
    case 'reinstate':
      return ['POST', `${base}/${action.kind}`];
    case 'takeback':
      return ['POST', `${base}/takeback`, { times: action.times }];
    case 'confirm':
      return ['POST', `${base}/result/confirm`];
    case 'increment':
    case 'delay':
      return ['POST', `${base}/${action.kind}`, { ms: action.ms }];
    case 'arrive':
      return ['POST', `${base}/arrive`, { side: action.side }];
    case 'adjust':
      return ['POST', `${base}/adjust`, { side: action.side, ms: action.ms }];
    case 'penalty':
      return ['POST', `${base}/penalty`, { side: action.side }];
    case 'set-moves':
      return ['POST', `${base}/moves`, { side: action.side, moves: action.moves }];
    case 'set-turn':
      return ['POST', `${base}/turn`, { side: action.side }];
    case 'set-control':
      return ['PUT', `${base}/control`, action.correction];
    case 'result':
      return ['PUT', `${base}/result`, action.reason ? { result: action.result, reason: action.reason } : { result: action.result }];
  }
}

/**
 * Every call of an action, in order: a start at a default time of 0 first marks the chosen
 * players present (FIDE Laws 6.7.1), one `arrive` each, then starts. The page stops at the first
 * refusal, so a refused arrival never becomes a forfeit.
 */
export function requestsOf(boardId: string, action: Action): Request[] {
  if (action.kind === 'start' && action.arrive)
    return [...action.arrive.map((side) => requestOf(boardId, { kind: 'arrive', side })), requestOf(boardId, { kind: 'start' })];
  return [requestOf(boardId, action)];
}

/**
 * FIDE Laws 7.5.5: the result the arbiter is asked to record when a side's second illegal move
 * lost the game (the opponent's win, a played result of the vocabulary), or null: no side has
 * reached it, both have (the arbiter knows which came first), or the game has a result. Only a
 * suggestion: the result entry is preselected with it, nothing is entered.
 */
export function suggestedResult(b: BoardView): GameResult | null {
  const losers = secondIllegalMoveBy(b);
  if (losers.length !== 1) return null;
  const loser = losers[0];
  const found = Object.entries(RESULT_MEANING).find(([, m]) => !m.forfeit && m.points[loser] === 0 && m.points[other(loser)] === 1);
  return found && isGameResult(found[0]) ? found[0] : null;
}

/** The game a board plays now (event, round, game of a mini-match): a message belongs to it. */
export function gameOf(b: Pick<BoardView, 'event' | 'round' | 'game'>): string {
  return `${b.event}|${b.round}|${b.game?.no ?? 1}`;
}

/** A board's last action message, kept with the game it was about. */
export interface ActionMessage {
  readonly game: string;
  readonly kind: 'ok' | 'error';
  readonly text: string;
}

/** The message still to show for `b`: none once the board has moved on to another game or round (docs/dashboard.md: messages belong to a game). */
export function messageFor(m: ActionMessage | undefined, b: BoardView): ActionMessage | null {
  return m && m.game === gameOf(b) ? m : null;
}

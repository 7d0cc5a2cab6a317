// The arbiter's actions on one board, as pure functions (unit-tested in actions.test.ts):
//  - which of them the board takes now, and if not, why (the rule book's boardCommandRefusal,
//    with the host's own words for a board without a clock or with its clock offline);
//  - what a careful action will change, before it is sent: the figures before → after,
//    computed with the rule book on the clock basis the board carries (rules/clock-core.ts
//    adjustTime, penaltyTime, setMoves: the very functions the clock statechart runs), shown
//    with the clock's display rule (formatClockTime).
import type { BoardView } from '../../../../app/ports.ts';
import { adjustTime, penaltyTime, remainingMs, setMoves } from '../../../../../rules/clock-core.ts';
import { basisState } from '../../../../../rules/clock-snapshot.ts';
import { boardCommandRefusal, commandPlace } from '../../../../../rules/command-rules.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { other, RESULT_MEANING, SIDE_NAME, type ArbiterCommandName, type GameResult, type Side } from '../../../../../rules/vocabulary.ts';

/** What a control of the panel does: its HTTP request is built from it (panel.ts). */
export type Action =
  | { readonly kind: 'start' | 'pause' | 'resume' | 'takeback' | 'reinstate' | 'confirm' }
  | { readonly kind: 'increment'; readonly ms: number }
  | { readonly kind: 'arrive'; readonly side: Side }
  | { readonly kind: 'adjust'; readonly side: Side; readonly ms: number }
  | { readonly kind: 'penalty'; readonly side: Side }
  | { readonly kind: 'set-moves'; readonly side: Side; readonly moves: number }
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
  arrive: 'arrive',
  adjust: 'adjust',
  penalty: 'penalty',
  'set-moves': 'set-moves',
  result: 'result',
  confirm: 'confirm-result',
};

/** The clock is the one that acts: these need a clock the host can reach. */
const CLOCK_ACTIONS: readonly ActionKind[] = ['start', 'pause', 'resume', 'takeback', 'reinstate', 'increment', 'arrive', 'adjust', 'penalty', 'set-moves'];

/**
 * Why `kind` cannot be done on board `b` now, or null when it can. The clock commands follow
 * the rule book (rules/command-rules.ts, the reason the host answers with); before that, a board
 * without a clock or with its clock offline is refused in the host's words (host/app/host.ts: it
 * would answer 503). A result can be entered until it is final; only a pending one is confirmed.
 */
export function refusalOf(kind: ActionKind, b: BoardView): string | null {
  const where = commandPlace(b);
  if (CLOCK_ACTIONS.includes(kind)) {
    if (!b.clockId) return `${where} has no clock assigned`;
    if (b.clockOnline === false) return `clock ${b.clockId} of ${where} is offline: nothing can be changed on it`;
    // The control in force (a corrected one included), as the host asks it: no quickplay finish in blitz (FIDE Guidelines III.2.2).
    const facts = b.live ? { movesCompleted: b.live.moves.white + b.live.moves.black, ...(b.live.clock ? { timeControl: b.live.clock.control } : {}) } : {};
    return boardCommandRefusal(COMMAND_OF[kind], b, facts);
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

/** The question asked before an action, with what exactly will change; null: sent at once. */
export interface Confirmation {
  /** "Take 1 min from White on board 3?" */
  readonly title: string;
  /** Each change, `Board 3, White (Novak): 4:32 → 3:32`; then what the rule says. */
  readonly changes: readonly string[];
  readonly note: string;
  /** A correction of a confirmed result is journaled with a reason: the dialog asks for it. */
  readonly needsReason?: boolean;
  readonly confirmLabel: string;
}

function sideWho(b: BoardView, side: Side): string {
  const player = b[side];
  return `Board ${b.board}, ${SIDE_NAME[side]}${player ? ` (${player.name})` : ''}`;
}

/** "+1:00" / "−1:30": an amount of time in the clock's display form. */
export function signedTime(ms: number): string {
  return `${ms < 0 ? '−' : '+'}${formatClockTime(Math.abs(ms))}`;
}

/**
 * What `action` will change on board `b` at host time `nowMs`, or null when it is sent without
 * asking (start, pause, resume, confirm, a first result). Time changes, penalties, take-backs,
 * move counters, arrivals, reinstatements, the quickplay increment and result corrections ask.
 */
export function confirmationOf(b: BoardView, action: Action, nowMs: number): Confirmation | null {
  const live = b.live;
  const basis = live?.clock;
  const elapsed = live && !b.result ? Math.max(0, nowMs - live.atUtcMs) : 0;
  const where = `board ${b.board}`;
  switch (action.kind) {
    case 'adjust': {
      const { side, ms } = action;
      const verb = ms >= 0 ? `Give ${SIDE_NAME[side]} ${formatClockTime(ms)}` : `Take ${formatClockTime(-ms)} from ${SIDE_NAME[side]}`;
      if (!basis) {
        return { title: `${verb} on ${where}?`, changes: [`${sideWho(b, side)}: ${signedTime(ms)}`], note: "The host does not know this board's time control: the clock applies the change to its own figure.", confirmLabel: ms >= 0 ? 'Add time' : 'Take time' };
      }
      const state = basisState(basis);
      const before = remainingMs(state, side, elapsed);
      const { state: after, appliedMs } = adjustTime(state, side, ms, elapsed);
      const capped = appliedMs !== ms ? ` (no more than the ${formatClockTime(before)} left: ${signedTime(appliedMs)})` : '';
      return {
        title: `${verb} on ${where}?`,
        changes: [`${sideWho(b, side)}: ${formatClockTime(before)} → ${formatClockTime(remainingMs(after, side, elapsed))}${capped}`],
        note: `An arbiter's time adjustment (FIDE Laws 6.10.2), journaled with your name. ${SIDE_NAME[other(side)]}'s time does not change.`,
        confirmLabel: ms >= 0 ? 'Add time' : 'Take time',
      };
    }
    case 'penalty': {
      const offender = action.side;
      const gets = other(offender);
      const title = `Penalty for ${SIDE_NAME[offender]}'s illegal move on ${where}?`;
      if (!basis) return { title, changes: [`${sideWho(b, gets)}: gets the penalty time`], note: "FIDE Laws 7.5.5: the opponent gets extra time. The host does not know this board's time control: the clock adds its own.", confirmLabel: 'Give the penalty' };
      const state = basisState(basis);
      const before = remainingMs(state, gets, elapsed);
      const { state: after, appliedMs } = penaltyTime(state, offender, elapsed);
      return {
        title,
        changes: [`${sideWho(b, gets)}: ${formatClockTime(before)} → ${formatClockTime(remainingMs(after, gets, elapsed))} (${signedTime(appliedMs)})`],
        note: `FIDE Laws 7.5.5: for ${SIDE_NAME[offender]}'s illegal move ${SIDE_NAME[gets]} gets ${formatClockTime(appliedMs)}. ${SIDE_NAME[offender]}'s time does not change; the take-back of the move is a separate step.`,
        confirmLabel: 'Give the penalty',
      };
    }
    case 'set-moves': {
      const { side, moves } = action;
      const title = `Correct ${SIDE_NAME[side]}'s move counter on ${where}?`;
      const from = live ? live.moves[side] : 0;
      const changes = [`${sideWho(b, side)}: moves #${from} → #${moves}`];
      if (basis) {
        const state = basisState(basis);
        const before = remainingMs(state, side, elapsed);
        const { state: after, creditedMs } = setMoves(state, side, moves, elapsed);
        changes.push(
          creditedMs > 0
            ? `${sideWho(b, side)}: ${formatClockTime(before)} → ${formatClockTime(remainingMs(after, side, elapsed))} (the next period's ${formatClockTime(creditedMs)} credited)`
            : `${sideWho(b, side)}: time stays ${formatClockTime(before)} (no period time credited)`,
        );
      }
      return { title, changes, note: "FIDE Laws 6.10.2: the period follows from the count; a later period's time is credited once.", confirmLabel: 'Set moves' };
    }
    case 'takeback': {
      // The side that made the last move is the one not on move (paused or flagged).
      const mover = live && live.turn ? other(live.turn) : null;
      const who = mover ? `${SIDE_NAME[mover]}'s last move (#${live!.moves[mover]})` : 'the last move';
      const changes = mover
        ? [`${sideWho(b, mover)}: moves #${live!.moves[mover]} → #${Math.max(0, live!.moves[mover] - 1)}, on move again`, `${sideWho(b, mover)}: illegal moves ${live!.illegalMoves?.[mover] ?? 0} → ${(live!.illegalMoves?.[mover] ?? 0) + 1}`]
        : [];
      return {
        title: `Take back ${who} on ${where}?`,
        changes,
        note: 'FIDE Laws 7.5.1 with 6.10.2: both times go back to what they were at that press (no increment, no period time), and a flag that fell after it is annulled. The clock stays paused. The penalty (Laws 7.5.5) is a separate step.',
        confirmLabel: 'Take back',
      };
    }
    case 'arrive':
      return { title: `Mark ${SIDE_NAME[action.side]} as arrived at ${where}?`, changes: [`${sideWho(b, action.side)}: not arrived → present`], note: `FIDE Laws 6.7.1: ${SIDE_NAME[action.side]} can no longer lose by default. Times do not change.`, confirmLabel: 'Arrived' };
    case 'reinstate':
      return { title: `Reinstate the game on ${where}?`, changes: [`Board ${b.board}: forfeited → paused`], note: 'FIDE Laws 6.7.1 ("unless the arbiter decides otherwise"): the loss by default is overruled, both players count as present, and the clock stands paused with the times it had at the forfeit. Resume it when play goes on.', confirmLabel: 'Reinstate' };
    case 'increment':
      return {
        title: `Give both players ${action.ms / 1000} s after every move from now on, on ${where}?`,
        changes: [`Board ${b.board}: quickplay increment ${live?.incrementMs ? `${live.incrementMs / 1000} s` : 'none'} → ${action.ms / 1000} s per move`],
        note: "FIDE Guidelines III.4 (quickplay finish): the increment is added to each later completed move, on top of the control's own; it replaces an earlier quickplay increment. The 2 minutes for the opponent are a separate +time.",
        confirmLabel: 'Give the increment',
      };
    case 'result': {
      if (!b.result) return null; // a first entry: the arbiter confirms it afterwards anyway
      const word = (r: string) => RESULT_MEANING[r as GameResult]?.label ?? r;
      return {
        title: `Correct the result of ${where}?`,
        changes: [`Board ${b.board}: ${word(b.result)}${b.resultConfirmed ? ' (confirmed)' : ''} → ${word(action.result)} (unconfirmed)`],
        note: b.resultConfirmed ? 'A confirmed result is corrected only with a reason, journaled with your name; the corrected result waits for confirmation again.' : 'The correction is journaled with your name and the result it replaces.',
        needsReason: b.resultConfirmed,
        confirmLabel: 'Correct result',
      };
    }
    default:
      return null;
  }
}

/** The HTTP call of an action (docs/api.md "Arbiter actions"). */
export function requestOf(boardId: string, action: Action): [method: string, path: string, body?: unknown] {
  const base = `/api/boards/${encodeURIComponent(boardId)}`;
  switch (action.kind) {
    case 'start':
    case 'pause':
    case 'resume':
    case 'takeback':
    case 'reinstate':
      return ['POST', `${base}/${action.kind}`];
    case 'confirm':
      return ['POST', `${base}/result/confirm`];
    case 'increment':
      return ['POST', `${base}/increment`, { ms: action.ms }];
    case 'arrive':
      return ['POST', `${base}/arrive`, { side: action.side }];
    case 'adjust':
      return ['POST', `${base}/adjust`, { side: action.side, ms: action.ms }];
    case 'penalty':
      return ['POST', `${base}/penalty`, { side: action.side }];
    case 'set-moves':
      return ['POST', `${base}/moves`, { side: action.side, moves: action.moves }];
    case 'result':
      return ['PUT', `${base}/result`, action.reason ? { result: action.result, reason: action.reason } : { result: action.result }];
  }
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

/** The message still to show for `b`: none once the board has moved on to another game or round (issue 14). */
export function messageFor(m: ActionMessage | undefined, b: BoardView): ActionMessage | null {
  return m && m.game === gameOf(b) ? m : null;
}

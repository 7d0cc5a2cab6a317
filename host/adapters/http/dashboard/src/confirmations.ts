// What a careful action will change, asked before it is sent (unit-tested in actions.test.ts):
// the figures before → after, computed with the rule book on the clock basis the board carries
// (rules/arbiter-corrections.ts adjustTime, penaltyTime, setMoves, setTurn, setControl: the very
// functions the clock statechart runs), or read from the board view where the host computed
// them with the rule book (a take-back's both choices, `live.takebackPreview`), shown with the
// clock's display rule (formatClockTime). The dialog that asks is confirm-dialog.ts.
import type { BoardView } from '../../../../app/ports.ts';
import { adjustTime, penaltyTime, setControl, setMoves } from '../../../../../rules/arbiter-corrections.ts';
import { readClock, remainingMs } from '../../../../../rules/clock-reading.ts';
import type { ClockState } from '../../../../../rules/clock-state.ts';
import { illegalMoveLosers } from '../../../../../rules/illegal-moves.ts';
import { basisState } from '../../../../../rules/clock-snapshot.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { describeTimeControl } from '../../../../../rules/time-control-text.ts';
import { other, RESULT_MEANING, SIDE_NAME, SIDES, type GameResult, type Side } from '../../../../../rules/vocabulary.ts';
import { readTimeControlSpec, TimeControlError, type TimeControl } from '../../../../../protocol/time-control.ts';
import type { Action, ControlCorrection } from './actions.ts';
import { sideOnMove } from './board-text.ts';
import { startPresenceQuestion } from './presence.ts';
import type { Confirmation } from './confirmation.ts';

function sideWho(b: BoardView, side: Side): string {
  const player = b[side];
  return `Board ${b.board}, ${SIDE_NAME[side]}${player ? ` (${player.name})` : ''}`;
}

/** "+1:00" / "−1:30": an amount of time in the clock's display form. */
export function signedTime(ms: number): string {
  return `${ms < 0 ? '−' : '+'}${formatClockTime(Math.abs(ms))}`;
}

/** What the clock shows for `side` now: the rule book over the basis, else the last reported figure. */
function shownNow(b: BoardView, side: Side, elapsed: number): number {
  const live = b.live!;
  if (live.clock) return remainingMs(basisState(live.clock), side, elapsed);
  return side === 'white' ? live.whiteMs : live.blackMs;
}

/**
 * The control a correction installs on board `b` (FIDE Laws 6.10.2), read by the one reader of
 * a written control (protocol/time-control.ts readTimeControlSpec) with what the body leaves out
 * taken from the control in force, as the host reads it (docs/api.md `PUT …/control`); or an
 * Error naming the bad token (docs/architecture.md rule 10).
 */
export function correctedControl(b: BoardView, correction: ControlCorrection): TimeControl | Error {
  const current = b.live?.clock?.control ?? null;
  try {
    return readTimeControlSpec(correction, {
      defaultTime: current === null || current.defaultTimeMs === null ? null : current.defaultTimeMs / 1000,
      incrementTiming: current?.incrementTiming ?? 'before-move',
    }).timeControl;
  } catch (err) {
    if (err instanceof TimeControlError) return new Error(`corrected control: ${err.message}`);
    throw err;
  }
}

/**
 * What `action` will change on board `b` at host time `nowMs`, or null when it is sent without
 * asking (pause, resume, confirm, a first result, a start that forfeits nobody). Time changes,
 * penalties, take-backs, move counters, the side on move, a corrected control, arrivals,
 * reinstatements, the quickplay increment and delay, result corrections and a start at a
 * default time of 0 with a player not marked present ask.
 */
export function confirmationOf(b: BoardView, action: Action, nowMs: number): Confirmation | null {
  const live = b.live;
  const elapsed = live && !b.result ? Math.max(0, nowMs - live.atUtcMs) : 0;
  switch (action.kind) {
    case 'adjust':
      return adjustConfirmation(b, action.side, action.ms, elapsed);
    case 'penalty':
      return penaltyConfirmation(b, action.side, elapsed);
    case 'set-moves':
      return setMovesConfirmation(b, action.side, action.moves, elapsed);
    case 'takeback':
      return takebackConfirmation(b, elapsed);
    case 'set-turn':
      return setTurnConfirmation(b, action.side, elapsed);
    case 'set-control':
      return setControlConfirmation(b, action.correction, elapsed);
    case 'increment':
    case 'delay':
      return quickplayConfirmation(b, action.kind, action.ms);
    case 'start':
      // FIDE Laws 6.7.1: at a default time of 0 a start would forfeit a player not marked present.
      return startPresenceQuestion(b);
    case 'arrive':
      return {
        title: `Mark ${SIDE_NAME[action.side]} as arrived at board ${b.board}?`,
        changes: [`${sideWho(b, action.side)}: not arrived → present`],
        note: `FIDE Laws 6.7.1: ${SIDE_NAME[action.side]} can no longer lose by default. Times do not change.`,
        confirmLabel: 'Arrived',
      };
    case 'reinstate':
      return {
        title: `Reinstate the game on board ${b.board}?`,
        changes: [`Board ${b.board}: forfeited → paused`],
        note: 'FIDE Laws 6.7.1 ("unless the arbiter decides otherwise"): the loss by default is overruled, both players count as present, and the clock stands paused with the times it had at the forfeit. Resume it when play goes on.',
        confirmLabel: 'Reinstate',
      };
    case 'result':
      return resultConfirmation(b, action.result);
    default:
      return null;
  }
}

function adjustConfirmation(b: BoardView, side: Side, ms: number, elapsed: number): Confirmation {
  const basis = b.live?.clock;
  const verb = ms >= 0 ? `Give ${SIDE_NAME[side]} ${formatClockTime(ms)}` : `Take ${formatClockTime(-ms)} from ${SIDE_NAME[side]}`;
  const confirmLabel = ms >= 0 ? 'Add time' : 'Take time';
  if (!basis) {
    return {
      title: `${verb} on board ${b.board}?`,
      changes: [`${sideWho(b, side)}: ${signedTime(ms)}`],
      note: "The host does not know this board's time control: the clock applies the change to its own figure.",
      confirmLabel,
    };
  }
  const state = basisState(basis);
  const before = remainingMs(state, side, elapsed);
  const { state: after, appliedMs } = adjustTime(state, side, ms, elapsed);
  const capped = appliedMs !== ms ? ` (no more than the ${formatClockTime(before)} left: ${signedTime(appliedMs)})` : '';
  return {
    title: `${verb} on board ${b.board}?`,
    changes: [`${sideWho(b, side)}: ${formatClockTime(before)} → ${formatClockTime(remainingMs(after, side, elapsed))}${capped}`],
    note: `An arbiter's time adjustment (FIDE Laws 6.10.2), journaled with your name. ${SIDE_NAME[other(side)]}'s time does not change.`,
    confirmLabel,
  };
}

function penaltyConfirmation(b: BoardView, offender: Side, elapsed: number): Confirmation {
  const basis = b.live?.clock;
  const gets = other(offender);
  const title = `Penalty for ${SIDE_NAME[offender]}'s illegal move on board ${b.board}?`;
  if (!basis)
    return {
      title,
      changes: [`${sideWho(b, gets)}: gets the penalty time`],
      note: "FIDE Laws 7.5.5: the opponent gets extra time. The host does not know this board's time control: the clock adds its own.",
      confirmLabel: 'Give the penalty',
    };
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

function setMovesConfirmation(b: BoardView, side: Side, moves: number, elapsed: number): Confirmation {
  const live = b.live;
  const from = live ? live.moves[side] : 0;
  const changes = [`${sideWho(b, side)}: moves #${from} → #${moves}`];
  if (live?.clock) {
    const state = basisState(live.clock);
    const before = remainingMs(state, side, elapsed);
    const { state: after, creditedMs } = setMoves(state, side, moves, elapsed);
    changes.push(
      creditedMs > 0
        ? `${sideWho(b, side)}: ${formatClockTime(before)} → ${formatClockTime(remainingMs(after, side, elapsed))} (the next period's ${formatClockTime(creditedMs)} credited)`
        : `${sideWho(b, side)}: time stays ${formatClockTime(before)} (no period time credited)`,
    );
  }
  return {
    title: `Correct ${SIDE_NAME[side]}'s move counter on board ${b.board}?`,
    changes,
    note: "FIDE Laws 6.10.2: the period follows from the count; a later period's time is credited once.",
    confirmLabel: 'Set moves',
  };
}

/**
 * FIDE Laws 7.5.1 with 7.1: which move is annulled, and the arbiter's choice of the clock times,
 * each answer saying what both clocks will then show (`live.takebackPreview`: the host's run of
 * the rule book's takeBack both ways; this page holds no take-back record of its own).
 */
function takebackConfirmation(b: BoardView, elapsed: number): Confirmation {
  const live = b.live;
  const preview = live?.takebackPreview ?? null;
  // The side that made the last move is the one not on move (paused or flagged).
  const mover = preview?.side ?? (live?.turn ? other(live.turn) : null);
  const move = preview ? preview.move : mover && live ? live.moves[mover] : null;
  const who = mover ? `${SIDE_NAME[mover]}'s last move (#${move})` : 'the last move';
  const changes: string[] = [];
  if (mover && live && move !== null) {
    const illegal = live.illegalMoves?.[mover] ?? 0;
    changes.push(`${sideWho(b, mover)}: moves #${move} → #${Math.max(0, move - 1)}, on move again`);
    if (preview) {
      // The host's count after the take-back (rules/takeback.ts): a penalty of this same move already counted it.
      const after = preview.illegalMoves;
      const lost = illegalMoveLosers({ white: 0, black: 0, [mover]: after }).length > 0;
      changes.push(
        after === illegal
          ? `${sideWho(b, mover)}: illegal moves stay ${illegal} (the penalty already recorded this move)`
          : `${sideWho(b, mover)}: illegal moves ${illegal} → ${after}${lost ? `: the second, which FIDE Laws 7.5.5 makes a loss for ${SIDE_NAME[mover]}` : ''}`,
      );
    } else {
      changes.push(`${sideWho(b, mover)}: counted as an illegal move (${illegal} recorded so far; a penalty for this same move does not count it again)`);
    }
  }
  // Without a preview (a host that does not send one) the rewound figures are the clock's to know.
  const times = (after: { white: number; black: number } | null, kept: boolean): string[] =>
    live
      ? SIDES.map((s) => {
          const now = formatClockTime(shownNow(b, s, elapsed));
          const shown = after ? formatClockTime(after[s]) : kept ? now : 'as at that press';
          return `${sideWho(b, s)}: ${now} → ${shown}${kept ? ' (kept)' : ''}`;
        })
      : [];
  return {
    title: `Take back ${who} on board ${b.board}?`,
    changes,
    note: "FIDE Laws 7.5.1 with 6.10.2: the move is annulled and the clock stays paused. FIDE Laws 7.1: rewinding puts both times back to that press (no increment, no period time, the arbiter's adjustments kept) and annuls a flag that fell after it; keeping leaves both clocks and a fallen flag as they are. The penalty (Laws 7.5.5) is a separate step.",
    choice: {
      legend: 'The clock times (FIDE Laws 7.1)',
      multiple: false,
      options: [
        { value: 'rewind', label: 'Rewind the times', lines: times(preview?.rewind ?? null, false), checked: true },
        { value: 'keep', label: 'Keep the times', lines: times(preview?.keep ?? null, true), checked: false },
      ],
    },
    confirmLabel: 'Take back',
  };
}

/** FIDE Laws 6.10.2: who is on move after, and that no time moves. */
function setTurnConfirmation(b: BoardView, side: Side, elapsed: number): Confirmation {
  const live = b.live;
  const onMove = sideOnMove(b);
  const from = onMove ? SIDE_NAME[onMove] : 'not reported yet';
  const changes = [`Board ${b.board}: on move ${from} → ${SIDE_NAME[side]}`];
  if (live) for (const s of SIDES) changes.push(`${sideWho(b, s)}: time stays ${formatClockTime(shownNow(b, s, elapsed))}`);
  return {
    title: `Set ${SIDE_NAME[side]} on move on board ${b.board}?`,
    changes,
    note: `FIDE Laws 6.10.2 (a replacement clock, or a clock running for the wrong side): no time moves and no move is counted. ${SIDE_NAME[side]}'s clock runs when the clock is started or resumed.`,
    confirmLabel: `Set ${SIDE_NAME[side]} on move`,
  };
}

/**
 * FIDE Laws 6.10.2: the control before → after in words, and what stays: both times, the move
 * counters, each side's period under the corrected control (the rule book's setControl on the
 * clock the board view carries).
 */
function setControlConfirmation(b: BoardView, correction: ControlCorrection, elapsed: number): Confirmation {
  const corrected = correctedControl(b, correction);
  const basis = b.live?.clock;
  const to = corrected instanceof Error ? correction.timeControl : describeTimeControl(corrected);
  const changes = [`Board ${b.board}: control ${basis ? describeTimeControl(basis.control) : (b.timeControl ?? 'unknown')} → ${to}`];
  if (basis && !(corrected instanceof Error)) {
    const before: ClockState = basisState(basis);
    const after = readClock(setControl(before, corrected, elapsed), elapsed);
    for (const s of SIDES) {
      // Periods counted from 1, as the board view shows them (P1, P2).
      const [from, to] = [before[s].period + 1, after.period[s] + 1];
      const period = from === to ? `period ${to}` : `period ${from} → ${to} (counted as credited: no time is added)`;
      changes.push(`${sideWho(b, s)}: time stays ${formatClockTime(remainingMs(before, s, elapsed))} · moves #${after.moves[s]} · ${period}`);
    }
  }
  return {
    title: `Correct the time control on board ${b.board}?`,
    changes,
    note: 'FIDE Laws 6.10.2: the clock takes the corrected control and keeps both times as they are, both move counters and the periods already credited (none is credited twice). Set the times themselves with the time adjustments (+1 min, −1 min, seconds), using your best judgement.',
    confirmLabel: 'Correct the control',
  };
}

/** FIDE Guidelines III.4: the quickplay increment or delay, the one in force → the new one. */
function quickplayConfirmation(b: BoardView, kind: 'increment' | 'delay', ms: number): Confirmation {
  const live = b.live;
  if (kind === 'increment') {
    return {
      title: `Give both players ${ms / 1000} s after every move from now on, on board ${b.board}?`,
      changes: [`Board ${b.board}: quickplay increment ${live?.incrementMs ? `${live.incrementMs / 1000} s` : 'none'} → ${ms / 1000} s per move`],
      note: "FIDE Guidelines III.4 (quickplay finish): the increment is added to each later completed move, on top of the control's own; it replaces an earlier quickplay increment. The 2 minutes for the opponent are a separate +time.",
      confirmLabel: 'Give the increment',
    };
  }
  return {
    title: `Give both players a delay of ${ms / 1000} s on every turn from now on, on board ${b.board}?`,
    changes: [`Board ${b.board}: quickplay delay ${live?.delayMs ? `${live.delayMs / 1000} s` : 'none'} → ${ms / 1000} s per turn`],
    note: "FIDE Guidelines III.4 (quickplay finish): every turn that begins from now on waits that long before the player's time runs down, on top of the control's own delay; the turn in progress keeps the delay it began with. It replaces an earlier quickplay delay. The 2 minutes for the opponent are a separate +time.",
    confirmLabel: 'Give the delay',
  };
}

function resultConfirmation(b: BoardView, result: GameResult): Confirmation | null {
  if (!b.result) return null; // a first entry: the arbiter confirms it afterwards anyway
  const word = (r: string) => RESULT_MEANING[r as GameResult]?.label ?? r;
  return {
    title: `Correct the result of board ${b.board}?`,
    changes: [`Board ${b.board}: ${word(b.result)}${b.resultConfirmed ? ' (confirmed)' : ''} → ${word(result)} (unconfirmed)`],
    note: b.resultConfirmed
      ? 'A confirmed result is corrected only with a reason, journaled with your name; the corrected result waits for confirmation again.'
      : 'The correction is journaled with your name and the result it replaces.',
    needsReason: b.resultConfirmed,
    confirmLabel: 'Correct result',
  };
}

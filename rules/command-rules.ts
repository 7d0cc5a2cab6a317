// Which arbiter clock command a board's clock can take in its present status: one rule set for
// the host (host/app/journal-ports.ts) and for the dashboard,
// which disables a button with the same reason the host would answer (host/adapters/http/dashboard/app.js),
// so a refusal reads the same wherever it comes from. The clock itself still has the last word
// (its NACK). command-rules.test.ts holds this rule against the statechart
// (rules/clock.machine.ts) in every status, so the two cannot drift.
//
// Pure; typed with the vocabulary (rules/vocabulary.ts), not with the host's ports, because the
// dashboard's browser bundle imports it too (host/adapters/http/dashboard/src/actions.ts).
import type { TimeControl } from '../protocol/time-control.ts';
import { quickplayRefusal } from './arbiter-corrections.ts';
import type { ArbiterCommandName, BoardStatus } from './vocabulary.ts';

/** What the rule needs to know of a board, as the host's BoardView and the dashboard hold it. */
export interface BoardForCommands {
  readonly event: string;
  readonly round: number;
  readonly board: number;
  /** The game's result once entered (at the clock or at the host), else null. */
  readonly result: string | null;
  /** The board's clock as of its last event; null before the clock reported the game. */
  readonly live: { readonly status: BoardStatus; readonly moves?: { readonly white: number; readonly black: number } } | null;
}

/** Facts about the game the caller may know beyond its status. */
export interface CommandFacts {
  /**
   * Completed moves of both sides together, when the caller knows them (the dashboard does):
   * 0 means there is no move to take back, as the clock answers ("no completed move to take
   * back"). Hosts leave it out and let the clock answer: an arbiter's move-counter correction
   * can set the count to 0 over moves that were played.
   */
  readonly movesCompleted?: number;
  /** The game's time control in force, when the caller knows it: no quickplay finish in blitz (FIDE Guidelines III). */
  readonly timeControl?: TimeControl;
}

/**
 * The status the command rule reads for a board: `finished` once the game has a result (a
 * result entered at the host ends the game even if its clock was left running), else the
 * clock's, `ready` before the clock reported the game.
 */
export function commandStatus(board: Pick<BoardForCommands, 'result' | 'live'>): BoardStatus {
  if (board.result !== null && board.result !== undefined) return 'finished';
  return board.live?.status ?? 'ready';
}

/** How a refusal names the board: `board 2 of Slovenian Final round 1`. */
export function commandPlace(board: Pick<BoardForCommands, 'event' | 'round' | 'board'>): string {
  return `board ${board.board} of ${board.event} round ${board.round}`;
}

/** `clockCommandRefusal` for a board as the host's BoardView (or the dashboard) holds it. */
export function boardCommandRefusal(type: ArbiterCommandName, board: BoardForCommands, facts: CommandFacts = {}): string | null {
  return clockCommandRefusal(type, commandStatus(board), board.live !== null, commandPlace(board), facts);
}

/**
 * Why `type` cannot be sent to the clock of the board described by `where` now, or null when
 * it can. `hasGame`: the clock has reported a game (an event) for the board's current game.
 * The result commands (`result`, `confirm-result`) never reach the clock: null.
 */
export function clockCommandRefusal(type: ArbiterCommandName, status: BoardStatus, hasGame: boolean, where: string, facts: CommandFacts = {}): string | null {
  // A game with a result is over at the clock too: nothing but a new game (configure) changes it.
  const over = `${where} has a result: the game is over`;
  switch (type) {
    case 'start':
      // FIDE Laws 6.5: the arbiter starts White's clock; only a clock set up and not yet started can start.
      return status === 'ready' ? null : `${where} is ${status}, not ready: only a clock that has not started can be started`;
    case 'pause':
      return status === 'running' ? null : `${where} is ${status}, not running`;
    case 'resume':
      // FIDE Laws 6.10.2: after a flag the arbiter may let the game go on once the side on move
      // has time again; the clock refuses (its Nack says "adjust first") while it has none.
      if (status === 'finished') return over;
      return status === 'paused' || status === 'flagged' ? null : `${where} is ${status}, not paused or flagged`;
    case 'adjust':
    case 'penalty':
      if (!hasGame) return `${where} has no game on its clock`;
      // FIDE Laws 7.5.5: an illegal move needs a game in play; before the start there is none.
      if (type === 'penalty' && status === 'ready') return `${where} is ready: the game has not started, so no illegal move can be penalised`;
      if (status === 'finished') return over;
      // FIDE Laws 6.7.1: a game lost by default has no time to change until it is reinstated.
      return status === 'forfeited' ? `${where} is forfeited: reinstate the game before changing its times` : null;
    case 'set-moves':
      // FIDE Laws 6.10.2: a counter is corrected with the clock stopped (it may credit a period's time).
      if (status === 'finished') return over;
      return status === 'ready' || status === 'paused' || status === 'flagged'
        ? null
        : `${where} is ${status}: pause the clock before correcting a move counter`;
    case 'increment':
    case 'delay': {
      // FIDE Guidelines III.4: the quickplay increment or delay is introduced with the clock stopped, never in blitz.
      if (status === 'finished') return over;
      if (status !== 'ready' && status !== 'paused' && status !== 'flagged')
        return `${where} is ${status}: pause the clock before setting ${type === 'delay' ? 'a delay' : 'an increment'}`;
      const blitz = facts.timeControl ? quickplayRefusal(facts.timeControl) : null;
      return blitz === null ? null : `${where}: ${blitz}`;
    }
    case 'set-turn':
      // FIDE Laws 6.10.2: the side on move is set with the clock stopped and the game not decided.
      if (status === 'finished') return over;
      if (status === 'forfeited') return `${where} is forfeited: reinstate the game before setting the side on move`;
      return status === 'ready' || status === 'paused' ? null : `${where} is ${status}: only a ready or paused clock can be given the side on move`;
    case 'set-control':
      // FIDE Laws 6.10.2: a clock found set wrongly is corrected while it stands (also at a flag).
      if (status === 'finished') return over;
      if (status === 'forfeited') return `${where} is forfeited: reinstate the game before correcting its time control`;
      return status === 'ready' || status === 'paused' || status === 'flagged'
        ? null
        : `${where} is ${status}: pause the clock before correcting its time control`;
    case 'takeback':
      // FIDE Laws 7.5.1 with 6.10.2: the arbiter stops the clock, then the move is taken back.
      if (status === 'finished') return over;
      if (status !== 'paused' && status !== 'flagged') return `${where} is ${status}: only a paused or flagged clock can take a move back`;
      return facts.movesCompleted === 0 ? `${where}: no completed move to take back` : null;
    case 'reinstate':
      // FIDE Laws 6.7.1 "unless the arbiter decides otherwise": only a game lost by default.
      return status === 'forfeited' ? null : `${where} is ${status}, not forfeited: nothing to reinstate`;
    case 'arrive':
      // FIDE Laws 6.7.1: a player's arrival matters until the game is decided.
      if (status === 'finished') return over;
      return status === 'forfeited' ? `${where} is forfeited: reinstate the game to mark a late arrival` : null;
    case 'configure':
      return status === 'running' ? `${where} is running: pause it first` : null;
    default:
      return null;
  }
}

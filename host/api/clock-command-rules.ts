// Which arbiter clock command a board's clock can take in its present state: one rule set
// for every CommandSink (the journal-backed host and the in-memory one), so a refusal reads
// the same wherever it comes from. The clock itself still has the last word (its NACK).
import type { ArbiterCommand, ClockStatus } from './host-ports.ts';

/**
 * Why `type` cannot be sent to the clock of the board described by `where` now, or null when
 * it can. `hasGame`: the clock has reported a game (an event) for the board's current game.
 */
export function clockCommandRefusal(type: ArbiterCommand['type'], status: ClockStatus, hasGame: boolean, where: string): string | null {
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
      return status === 'ready' || status === 'paused' || status === 'flagged' ? null : `${where} is ${status}: pause the clock before correcting a move counter`;
    case 'increment':
      // FIDE Guidelines III.4: the quickplay increment is introduced with the clock stopped.
      if (status === 'finished') return over;
      return status === 'ready' || status === 'paused' || status === 'flagged' ? null : `${where} is ${status}: pause the clock before setting an increment`;
    case 'takeback':
      // FIDE Laws 7.5.1 with 6.10.2: the arbiter stops the clock, then the move is taken back.
      if (status === 'finished') return over;
      return status === 'paused' || status === 'flagged' ? null : `${where} is ${status}: only a paused or flagged clock can take a move back`;
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

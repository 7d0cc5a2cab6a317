// Which arbiter clock command a board's clock can take in its present state: one rule set
// for every CommandSink (the journal-backed host and the in-memory one), so a refusal reads
// the same wherever it comes from. The clock itself still has the last word (its NACK).
import type { ArbiterCommand, ClockStatus } from './host-ports.ts';

/**
 * Why `type` cannot be sent to the clock of the board described by `where` now, or null when
 * it can. `hasGame`: the clock has reported a game (an event) for the board's current game.
 */
export function clockCommandRefusal(type: ArbiterCommand['type'], status: ClockStatus, hasGame: boolean, where: string): string | null {
  switch (type) {
    case 'start':
      // FIDE Laws 6.5: the arbiter starts White's clock; only a clock set up and not yet started can start.
      return status === 'ready' ? null : `${where} is ${status}, not ready: only a clock that has not started can be started`;
    case 'pause':
      return status === 'running' ? null : `${where} is ${status}, not running`;
    case 'resume':
      return status === 'paused' ? null : `${where} is ${status}, not paused`;
    case 'adjust':
    case 'penalty':
    case 'set-moves':
      return hasGame ? null : `${where} has no game on its clock`;
    case 'configure':
      return status === 'running' ? `${where} is running: pause it first` : null;
    default:
      return null;
  }
}

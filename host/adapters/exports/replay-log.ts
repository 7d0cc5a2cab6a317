// A board's game in the `chessclock replay` input format (firmware-ts/replay.ts), so any
// dispute can be replayed through the same statechart the clock runs:
//   {"type":"setup","white":"360","black":"300","defaultTime":900,"incrementTiming":"before-move"}
//   {"t":0,"type":"start"}  {"t":T,"type":"press","side":"white"}  … {"t":T,"type":"end","result":"1-0",…}
//
// The lines are the inputs of the journal's rebuild (rules/rebuild.ts): each journaled event
// turned back into the input that produced it (a press by the mover, a penalty by the side
// that made the illegal move, …), checked against the statechart's own output. `t` is the
// clock's monotonic ms since the session's start: the game's start, or — for a board started
// after its session (round) began — that long before it ({"t":E,"type":"start","session":0}).
// Where the game went on on another clock boot (a power cut) or on a replacement clock
// (FIDE Laws 6.10.1), that clock began stopped: the replay pauses where the last one left off
// and goes on from there (docs/protocol.md "Restore"). Flags and forfeits are what the replay
// recomputes; results are not replay inputs, so the `end` line carries the game's result.

import { timeControlSpec, type TimeControl } from '../../../protocol/time-control.ts';
import type { ClockInput } from '../../../rules/clock.machine.ts';
import { rebuildGame } from '../../../rules/rebuild.ts';
import type { GameRow, Journal } from '../../store/journal.ts';

export class ReplayExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayExportError';
  }
}

export function setupLine(tc: TimeControl): string {
  const { defaultTime, incrementTiming, ...control } = timeControlSpec(tc);
  return JSON.stringify({ type: 'setup', ...control, ...(defaultTime === null ? {} : { defaultTime }), incrementTiming });
}

/** The replay input line (without `t`) of a statechart input; null for those the replay format has no line for. */
function replayInput(input: ClockInput, origin: number): Record<string, unknown> | null {
  switch (input.type) {
    case 'START':
      // FIDE Laws 6.7.1: a start after the session began says when it began (t = 0 is the session's start).
      return input.sessionAt !== undefined && input.sessionAt < input.at
        ? { type: 'start', session: Math.max(0, input.sessionAt - origin) }
        : { type: 'start' };
    case 'PRESS':
      return { type: 'press', side: input.side };
    case 'ARRIVE':
      return { type: 'arrive', side: input.side };
    case 'PAUSE':
      return { type: 'pause' };
    case 'RESUME':
      return { type: 'resume' };
    case 'ADJUST':
      return { type: 'adjust', side: input.side, ms: input.ms };
    case 'PENALTY':
      // FIDE Laws 7.5.5: `side` made the illegal move (the journal's event names the credited side).
      return { type: 'penalty', side: input.side };
    case 'SET_MOVES':
      // FIDE Laws 6.10.2: the count decides the period (and any period time credited), as on the clock.
      return { type: 'moves', side: input.side, moves: input.moves };
    case 'TAKEBACK':
      // FIDE Laws 7.1: a take-back that kept the clock times says so.
      return input.times === 'keep' ? { type: 'takeback', times: 'keep' } : { type: 'takeback' };
    case 'REINSTATE':
      return { type: 'reinstate' };
    case 'INCREMENT':
      return { type: 'increment', ms: input.ms };
    case 'DELAY':
      return { type: 'delay', ms: input.ms };
    case 'SET_TURN':
      // FIDE Laws 6.10.2: the arbiter set the side on move.
      return { type: 'turn', side: input.side };
    case 'SET_CONTROL':
      // FIDE Laws 6.10.2: the corrected control, whole (a default time it removed is null).
      return { type: 'control', ...timeControlSpec(input.timeControl) };
    default:
      // RESULT (the replay recomputes times, not results), RESTORE (the restored state is the
      // replayed one: docs/protocol.md "Restore"), NEW_GAME.
      return null;
  }
}

/**
 * The replay input lines of one game (without line ends): the inputs the journal's rebuild
 * gives the statechart (rules/rebuild.ts), so the replay is the journal's game exactly. The
 * last line is `end`; once the game has a result it carries it, who reported it and who
 * confirmed it (docs/replay.md "end"): the appeal committee's view of the truth.
 */
export function replayLines(journal: Journal, gameId: number): string[] {
  return gameReplay(journal, gameId).lines;
}

/**
 * The replay lines of a game and the journal events the statechart does not reproduce (each
 * named by its journal id: a journal that is not the clock's own story is shown, not hidden).
 */
export function gameReplay(journal: Journal, gameId: number): { lines: string[]; mismatches: string[] } {
  const game = journal.getGame(gameId);
  if (!game) throw new ReplayExportError(`no game ${gameId}`);
  const events = journal.eventsByGame(gameId);
  const inputs: ClockInput[] = [];
  const rebuilt = rebuildGame(game.timeControlValue, events, { onInput: (input) => inputs.push(input) });
  const mismatches = rebuilt.mismatches.map((m) => `journal event ${events[m.index].id} (${m.type}): ${m.reason}`);
  const lines = [setupLine(game.timeControlValue)];
  // t = 0 is the session's start: the game's start, or that long before it (FIDE Laws 6.7.1).
  const start = inputs.find((i) => i.type === 'START');
  const origin = start
    ? start.type === 'START' && start.sessionAt !== undefined
      ? Math.min(start.sessionAt, start.at)
      : start.at
    : (inputs[0]?.at ?? rebuilt.at);
  let lastT = 0;
  for (const input of inputs) {
    const line = replayInput(input, origin);
    if (line === null) continue;
    // Inputs before the start (an arrival) are replayed at 0; t never goes backwards.
    const t = Math.max(lastT, input.at - origin, 0);
    lines.push(JSON.stringify({ t, ...line }));
    lastT = t;
  }
  if (events.length > 0 || game.result !== null) {
    const end: Record<string, unknown> = { t: Math.max(lastT, rebuilt.at - origin, 0), type: 'end' };
    if (game.result !== null) {
      end.result = game.result;
      if (game.how) end.how = game.how;
      if (game.reportedBy) end.reportedBy = game.reportedBy;
      end.confirmedBy = game.confirmedBy;
    }
    lines.push(JSON.stringify(end));
  }
  return { lines, mismatches };
}

/** The replay input of the newest game on a board of an event's round. */
export function boardReplay(
  journal: Journal,
  event: string,
  round: number,
  board: number,
  gameNo?: number,
): { text: string; game: GameRow; of: number; mismatches: string[] } {
  const games = journal.gamesByBoard(event, round, board);
  if (!games.length) throw new ReplayExportError(`no game on board ${board} of ${event} round ${round}`);
  const game = gameNo === undefined ? games[games.length - 1] : games.find((g) => g.gameNo === gameNo);
  if (!game) throw new ReplayExportError(`board ${board} of ${event} round ${round} has games ${games.map((g) => g.gameNo).join(', ')}, not game ${gameNo}`);
  const { lines, mismatches } = gameReplay(journal, game.gameId);
  return { text: lines.join('\n') + '\n', game, of: games.length, mismatches };
}

/** One line for the appeal committee: which game, its players, and the result with who reported and who confirmed it. */
export function replaySummary(game: GameRow, of: number): string {
  const which = of > 1 ? `game ${game.gameNo} of ${of} (${game.kind}) on board ${game.board}` : `board ${game.board}`;
  const head = `${game.event} round ${game.round} ${which}, ${game.timeControl}: ${game.white} – ${game.black}`;
  if (game.result === null) return `${head}: no result yet`;
  const when = (ms: number | null) => (ms === null ? '' : ` at ${new Date(ms).toISOString()}`);
  const reported = game.reportedBy ? `, reported by ${game.reportedBy}${when(game.reportedUtcMs)}` : '';
  const confirmed = game.confirmedBy ? `, confirmed by ${game.confirmedBy}${when(game.confirmedUtcMs)}` : ', not confirmed by an arbiter';
  return `${head}: ${game.result}${game.how ? ` (${game.how})` : ''}${reported}${confirmed}`;
}

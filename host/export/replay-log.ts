// A board's game in the `chessclock replay` input format (firmware-ts/replay.ts), so any
// dispute can be replayed through the same statechart the clock runs:
//   {"type":"setup","white":"360","black":"300","defaultTime":900,"incrementTiming":"before-move"}
//   {"t":0,"type":"start"}  {"t":T,"type":"press","side":"white"}  … {"t":T,"type":"end"}
// `t` is clock monotonic ms since the game's start. Events of a later boot of the clock (after a
// power cut) or of a replacement clock have another monotonic base; their `t` comes from the
// UTC mapping instead (so it carries that mapping's uncertainty), and never goes backwards.
//
// Mapping from journal events (what the clock reported) to replay inputs (what was done):
//   started → start; moved → press by the mover; arrived → arrive; paused → pause;
//   resumed → resume; adjusted (reason 'arbiter') → adjust side ms;
//   adjusted (reason 'penalty') → penalty by the OTHER side (the event names the credited side);
//   moves-set → set-moves side moves period (the arbiter's correction);
//   flag, forfeit, result → nothing (flags and forfeits are what the replay recomputes).
//   The last line is `end`.

import { formatSideControl, hasDelay, type SideControl, type TimeControl } from '../../protocol/time-control.ts';
import type { ClockEventRow, Journal } from '../journal/journal.ts';

export class ReplayExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayExportError';
  }
}

/** One side in a form `setup` accepts: the PGN string, or the JSON stage array (seconds) when it has a delay. */
function sideForm(side: SideControl): unknown {
  if (!hasDelay(side) || side.kind === 'sandclock') return formatSideControl(side);
  return side.stages.map((s) => ({
    ...(s.moves === null ? {} : { moves: s.moves }),
    seconds: s.baseMs / 1000,
    ...(s.incrementMs ? { increment: s.incrementMs / 1000 } : {}),
    delay: s.delayMs / 1000,
    delayMode: s.delayMode,
  }));
}

export function setupLine(tc: TimeControl): string {
  const same = JSON.stringify(tc.white) === JSON.stringify(tc.black);
  const line: Record<string, unknown> = { type: 'setup' };
  if (same) line.timeControl = sideForm(tc.white);
  else {
    line.white = sideForm(tc.white);
    line.black = sideForm(tc.black);
  }
  if (tc.defaultTimeMs !== null) line.defaultTime = tc.defaultTimeMs / 1000;
  line.incrementTiming = tc.incrementTiming;
  return JSON.stringify(line);
}

function input(e: ClockEventRow): Record<string, unknown> | null {
  switch (e.type) {
    case 'started':
      return { type: 'start' };
    case 'moved':
      return { type: 'press', side: e.side };
    case 'arrived':
      return { type: 'arrive', side: e.side };
    case 'paused':
      return { type: 'pause' };
    case 'resumed':
      return { type: 'resume' };
    case 'adjusted': {
      const reason = e.detail?.reason;
      if (reason === 'penalty') return { type: 'penalty', side: e.side === 'white' ? 'black' : 'white' };
      const ms = e.detail?.ms;
      if (typeof ms !== 'number') throw new ReplayExportError(`event ${e.id} (adjusted) has no detail.ms`);
      return { type: 'adjust', side: e.side, ms };
    }
    case 'moves-set': {
      const moves = e.detail?.moves ?? e.move;
      if (typeof moves !== 'number') throw new ReplayExportError(`event ${e.id} (moves-set) has no move count`);
      const period = e.detail?.period;
      return { type: 'set-moves', side: e.side, moves, ...(typeof period === 'number' ? { period } : {}) };
    }
    default:
      return null;
  }
}

/** The replay input lines of one game (without line ends). */
export function replayLines(journal: Journal, gameId: number): string[] {
  const game = journal.getGame(gameId);
  if (!game) throw new ReplayExportError(`no game ${gameId}`);
  const events = journal.eventsByGame(gameId);
  const lines = [setupLine(game.timeControlValue)];
  const start = events.find((e) => e.type === 'started') ?? events[0];
  let lastT = 0;
  let last: ClockEventRow | null = null;
  for (const e of events) {
    const sameBase = e.clockId === start.clockId && e.bootId === start.bootId;
    const raw = sameBase ? e.monoMs - start.monoMs : e.utcMs - start.utcMs;
    // Inputs before the start (an arrival) are replayed at 0; t never goes backwards.
    const t = Math.max(lastT, raw, 0);
    const line = input(e);
    last = e;
    if (line === null) continue;
    lines.push(JSON.stringify({ t, ...line }));
    lastT = t;
  }
  if (last) {
    const sameBase = last.clockId === start.clockId && last.bootId === start.bootId;
    lines.push(JSON.stringify({ t: Math.max(lastT, sameBase ? last.monoMs - start.monoMs : last.utcMs - start.utcMs), type: 'end' }));
  }
  return lines;
}

/** The replay input of the newest game on a board of an event's round. */
export function boardReplay(journal: Journal, event: string, round: number, board: number): string {
  const games = journal.gamesByBoard(event, round, board);
  if (!games.length) throw new ReplayExportError(`no game on board ${board} of ${event} round ${round}`);
  return replayLines(journal, games[games.length - 1].gameId).join('\n') + '\n';
}

// A board's game in the `chessclock replay` input format (firmware-ts/replay.ts), so any
// dispute can be replayed through the same statechart the clock runs:
//   {"type":"setup","white":"360","black":"300","defaultTime":900,"incrementTiming":"before-move"}
//   {"t":0,"type":"start"}  {"t":T,"type":"press","side":"white"}  … {"t":T,"type":"end"}
// `t` is clock monotonic ms since the game's start — or, for a board started after its
// session (round) began, since the session's start: then the start line is
// {"t":E,"type":"start","session":0}, E being the session_elapsed_ms the clock reported. Events of a later boot of the clock (after a
// power cut) or of a replacement clock have another monotonic base; their `t` comes from the
// UTC mapping instead (so it carries that mapping's uncertainty), and never goes backwards.
//
// Mapping from journal events (what the clock reported) to replay inputs (what was done):
//   started → start; moved → press by the mover; arrived → arrive; paused → pause;
//   resumed → resume; adjusted (reason 'arbiter') → adjust side ms;
//   adjusted (reason 'penalty') → penalty by the OTHER side (the event names the credited side);
//   moves-set → moves side moves (the arbiter's correction; the period follows from the count);
//   taken-back → takeback; reinstated → reinstate; increment-set → increment ms;
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

/** How long before the game's `started` event its session began (FIDE Laws 6.7.1), ms; 0 when it began there. */
function sessionElapsed(e: ClockEventRow | undefined): number {
  const v = e?.type === 'started' ? e.detail?.sessionElapsedMs : undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : 0;
}

function input(e: ClockEventRow): Record<string, unknown> | null {
  switch (e.type) {
    case 'started':
      // The session began before the start: the replay's time base starts with it, at 0.
      return sessionElapsed(e) > 0 ? { type: 'start', session: 0 } : { type: 'start' };
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
      // FIDE Laws 6.10.2: the count decides the period (and any period time credited), as on the clock.
      const moves = e.detail?.moves ?? e.move;
      if (typeof moves !== 'number') throw new ReplayExportError(`event ${e.id} (moves-set) has no move count`);
      return { type: 'moves', side: e.side, moves };
    }
    case 'taken-back':
      // FIDE Laws 7.5.1 with 6.10.2: the clock annulled the last completed move.
      return { type: 'takeback' };
    case 'reinstated':
      // FIDE Laws 6.7.1: the arbiter overruled the forfeit.
      return { type: 'reinstate' };
    case 'increment-set': {
      // FIDE Guidelines III.4: the quickplay increment.
      const ms = e.detail?.ms;
      if (typeof ms !== 'number') throw new ReplayExportError(`event ${e.id} (increment-set) has no detail.ms`);
      return { type: 'increment', ms };
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
  const started = events.find((e) => e.type === 'started');
  const start = started ?? events[0];
  // t = 0 is the session's start: the game's start, or that long before it.
  const origin = sessionElapsed(started);
  const tOf = (e: ClockEventRow) => origin + (e.clockId === start.clockId && e.bootId === start.bootId ? e.monoMs - start.monoMs : e.utcMs - start.utcMs);
  let lastT = 0;
  let last: ClockEventRow | null = null;
  for (const e of events) {
    // Inputs before the start (an arrival) are replayed at 0 at the earliest; t never goes backwards.
    const t = Math.max(lastT, tOf(e), 0);
    const line = input(e);
    last = e;
    if (line === null) continue;
    lines.push(JSON.stringify({ t, ...line }));
    lastT = t;
  }
  if (last) lines.push(JSON.stringify({ t: Math.max(lastT, tOf(last)), type: 'end' }));
  return lines;
}

/** The replay input of the newest game on a board of an event's round. */
export function boardReplay(journal: Journal, event: string, round: number, board: number): string {
  const games = journal.gamesByBoard(event, round, board);
  if (!games.length) throw new ReplayExportError(`no game on board ${board} of ${event} round ${round}`);
  return replayLines(journal, games[games.length - 1].gameId).join('\n') + '\n';
}

// Starting a round from the arbiter's desk: every board of the round gets its own 'start'
// command through the CommandSink, so each one is checked against that board's clock and
// journaled with the arbiter (applied or refused, with the reason). A board that cannot
// start (already running, finished, clock offline) is reported as skipped; it does not
// stop the others.
import type { Actor, CommandSink, HostState, RoundStartOutcome } from './ports.ts';

export interface RoundStartOptions {
  /** The event's current round as the tournament knows it; default: the round its boards show now. */
  readonly currentRound?: number | null;
  /**
   * The session's (round's) start in UTC, sent with every board's start: the default time counts
   * from it (FIDE Laws 6.7.1), and each start is journaled with it. Default: none (each clock's own start).
   */
  readonly sessionUtcMs?: number;
}

export async function startRoundOnBoards(
  state: HostState,
  sink: CommandSink,
  event: string,
  round: number,
  actor: Actor,
  opts: RoundStartOptions = {},
): Promise<RoundStartOutcome> {
  const boards = state.boards().filter((b) => b.event === event);
  if (boards.length === 0) return { ok: false, status: 404, reason: `no event "${event}" on this host` };
  // The boards show each board's current game, so their rounds are the round being played.
  const shown = [...new Set(boards.map((b) => b.round))].sort((a, b) => a - b);
  const current = opts.currentRound !== undefined ? opts.currentRound : shown.at(-1)!;
  if (current === null) return { ok: false, status: 409, reason: `event "${event}" has finished all its rounds: round ${round} cannot start` };
  if (round !== current) {
    return { ok: false, status: 409, reason: `round ${round} of event "${event}" is not the current round (the current round is ${current})` };
  }
  const ofRound = boards.filter((b) => b.round === round).sort((a, b) => a.board - b.board);
  if (ofRound.length === 0) return { ok: false, status: 409, reason: `event "${event}" round ${round} has no boards open yet` };
  // Each board answers for itself (its clock's ACK or NACK); they are independent, so in parallel.
  const session = opts.sessionUtcMs !== undefined ? { sessionUtcMs: opts.sessionUtcMs } : {};
  const outcomes = await Promise.all(ofRound.map((b) => sink.execute({ type: 'start', boardId: b.id, ...session }, actor)));
  const started: string[] = [];
  const skipped: { boardId: string; reason: string }[] = [];
  outcomes.forEach((o, i) => (o.ok ? started.push(ofRound[i].id) : skipped.push({ boardId: ofRound[i].id, reason: o.reason })));
  return { ok: true, started, skipped };
}

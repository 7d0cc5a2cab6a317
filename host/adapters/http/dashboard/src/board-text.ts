// What a board's line and panel say, as pure functions of the board and the host's time (no
// DOM): the page and its unit tests (board-text.test.ts) share them. Every clock figure comes
// from the rule book (rules/): basisRemainingMs and basisDefaultTimeLeftMs for a running clock,
// formatClockTime for the display, the vocabulary for words; nothing here counts time itself.
import type { BoardView, LiveClockState } from '../../../../app/ports.ts';
import { illegalMoveLosers } from '../../../../../rules/illegal-moves.ts';
import { basisDefaultTimeLeftMs, basisRemainingMs } from '../../../../../rules/clock-snapshot.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { describeTimeControl } from '../../../../../rules/time-control-text.ts';
import { other, SIDE_NAME, type Side } from '../../../../../rules/vocabulary.ts';
import { points, resultText } from './words.ts';

/**
 * A side's remaining time at host time `nowMs`, with the rule book's arithmetic
 * (rules/clock-snapshot.ts basisRemainingMs over the clock basis the live state carries): the
 * running side's time with a simple or Bronstein delay, and with a sandclock both sides'. Once
 * the game has a result the times are those of the last event, even if the clock was left
 * running. A board whose control the host does not know shows the clock's last figures.
 */
export function remainingNow(b: BoardView, side: Side, nowMs: number): number | null {
  const live = b.live;
  if (!live) return null;
  const elapsed = b.result ? 0 : Math.max(0, nowMs - live.atUtcMs);
  if (live.clock) return basisRemainingMs(live.clock, side, elapsed);
  return side === 'white' ? live.whiteMs : live.blackMs;
}

/**
 * FIDE Laws 6.7.1: a player not present at the start loses unless they arrive within the
 * default time, counted from the start. Null when the side is present, the board does not
 * track default time, or the game is not under way.
 */
export function defaultLeftMs(b: BoardView, side: Side, nowMs: number): number | null {
  const live = b.live;
  if (b.result || !live || !live.clock || !live.present || live.present[side] !== false) return null;
  // The rule book's default-time countdown: from the session's start, through pauses.
  return basisDefaultTimeLeftMs(live.clock, Math.max(0, nowMs - live.atUtcMs));
}

/** Sides whose flag fell, first first (FIDE Laws 6.9: who fell first matters, III.3.1). */
export function flagsOf(live: LiveClockState | null): readonly Side[] {
  if (!live) return [];
  if (Array.isArray(live.flags)) return live.flags;
  return live.flag ? [live.flag] : [];
}

/**
 * The side on move as the clock has it: `live.turn`, or, before the start (when the board view
 * names no side on move), the side whose clock the start will run, from the clock's own state
 * the view carries (`live.clock.snapshot.turn`: White, or the side the arbiter set, FIDE Laws
 * 6.10.2). Null before the clock reported anything.
 */
export function sideOnMove(b: BoardView): Side | null {
  return b.live?.turn ?? b.live?.clock?.snapshot.turn ?? null;
}

/**
 * FIDE Laws 7.5.5: the sides whose illegal moves reached the count that loses the game (the rule
 * book's illegalMoveLosers over the clock's count, `live.illegalMoves`), while the game has no
 * result yet: the arbiter has a result to record.
 */
export function secondIllegalMoveBy(b: BoardView): Side[] {
  const illegal = b.live?.illegalMoves;
  if (b.result !== null || !illegal) return [];
  return illegalMoveLosers(illegal);
}

/**
 * What the panel says when a side's second illegal move lost the game (FIDE Laws 7.5.5), or ''.
 * The arbiter decides: the page enters nothing.
 */
export function illegalMoveLine(b: BoardView): string {
  const losers = secondIllegalMoveBy(b);
  if (losers.length === 0) return '';
  const each = losers.map(
    (s) =>
      `${SIDE_NAME[s]} has made a second illegal move: under FIDE Laws 7.5.5 the game is lost for ${SIDE_NAME[s]}, unless ${SIDE_NAME[other(s)]} cannot checkmate by any series of legal moves (then it is a draw).`,
  );
  const ask =
    losers.length === 1
      ? ` Record the result: the result entry below is set to ${SIDE_NAME[other(losers[0])]}'s win.`
      : ' Record the result the game ended with.';
  return `${each.join(' ')}${ask}`;
}

/**
 * The control the clock runs now, in words (a corrected one included: `live.clock.control`,
 * FIDE Laws 6.10.2), with the quickplay increment and delay in force (FIDE Guidelines III.4);
 * '' when the host does not know the control.
 */
export function controlLine(b: BoardView): string {
  const live = b.live;
  if (!live) return '';
  const quickplay: string[] = [];
  if (live.incrementMs) quickplay.push(`+${live.incrementMs / 1000} s increment per move`);
  if (live.delayMs) quickplay.push(`${live.delayMs / 1000} s delay per turn`);
  const control = live.clock ? `Control in force: ${describeTimeControl(live.clock.control)}` : '';
  const extra = quickplay.length ? `quickplay finish: ${quickplay.join(', ')}` : '';
  return [control, extra].filter(Boolean).join(' · ');
}

export function matchLine(b: BoardView): string {
  const m = b.match;
  if (!m) return '';
  const score = `Match ${points(m.whiteScore)}–${points(m.blackScore)}`;
  if (m.decided) return `${score} · decided: ${m.winner ?? '?'} wins${m.decidedBy ? ` (${m.decidedBy})` : ''}`;
  const stage = m.stage === 'classical' ? 'classical' : `${m.stage} tie-break`;
  return `${score} · ${stage}${b.game ? `, game ${b.game.no}` : ''}`;
}

export function flagLine(b: BoardView): string {
  const flags = flagsOf(b.live);
  if (flags.length === 0) return '';
  const first = `${SIDE_NAME[flags[0]]}'s flag fell first`;
  return flags.length > 1 ? `${first}, then ${SIDE_NAME[flags[1]]}'s` : first;
}

/** "Slovenian Final 2025/26 · R1 · B3 · G3 rapid". */
export function label(b: BoardView): string {
  return `${b.eventName || b.event} · ${rowLabel(b)}`;
}

/** "R1 · B3 · G3 rapid": a line's own label under its event's heading. */
export function rowLabel(b: BoardView): string {
  const game = b.game && b.game.matchId ? ` · G${b.game.no} ${b.game.kind}` : '';
  return `R${b.round} · B${b.board}${game}`;
}

/** Before a game's earliest start (a knockout break, or the round's scheduled start), the time left until it; else null. */
export function breakLeftMs(b: BoardView, nowMs: number): number | null {
  if (b.live || b.result || !b.startsAtUtcMs) return null;
  const left = b.startsAtUtcMs - nowMs;
  return left > 0 ? left : null;
}

/** Within this of a scheduled round's start the line counts down to it (docs/dashboard.md "Status in words"). */
export const SCHEDULED_COUNTDOWN_MS = 60 * 60_000;

/**
 * Why a game has not started yet, before its earliest start: `break`, the pause between two games
 * of a knockout mini-match (a later game of the pairing: the host sends its `break`); `scheduled`,
 * a round's first game waiting for the start the tournament file gives the round, however far away.
 */
export function waitOf(b: BoardView, nowMs: number): 'break' | 'scheduled' | null {
  if (breakLeftMs(b, nowMs) === null) return null;
  return b.break || (b.game?.no ?? 1) > 1 ? 'break' : 'scheduled';
}

/** "2026-12-05 15:00 UTC", or "15:00 UTC" on the host's day. */
function startText(atMs: number, nowMs: number): string {
  const at = new Date(atMs).toISOString();
  const sameDay = at.slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${at.slice(0, 10)} `}${at.slice(11, 16)} UTC`;
}

/**
 * The appeal window of a confirmed result (the regulation's, docs/regulations.md): until when an
 * appeal may be lodged, or that the result is final; '' where the event states no window.
 */
export function appealText(b: BoardView, nowMs: number): string {
  if (!b.resultConfirmed || b.appealUntilUtcMs === undefined) return '';
  if (b.appealUntilUtcMs === null) return ' · appeal time runs from the end of the round';
  if (b.resultFinal || nowMs >= b.appealUntilUtcMs) return ' · final (appeal time over)';
  return ` · appeal until ${new Date(b.appealUntilUtcMs).toISOString().slice(11, 16)} UTC`;
}

/** Whether the board has a clock the host knows to be disconnected now. */
export function isOffline(b: BoardView): boolean {
  return b.clockOnline === false && !!b.clockId && !b.result;
}

export function infoLine(b: BoardView, nowMs: number): string {
  if (b.result) return `${resultText(b.result)}${b.resultConfirmed ? ' ✓ confirmed' : ' (unconfirmed)'}${appealText(b, nowMs)}`;
  // The times shown are the last the host heard: say so when the clock is not connected.
  if (isOffline(b)) return `clock ${b.clockId} offline — times as last reported`;
  const left = breakLeftMs(b, nowMs);
  const tc = b.timeControl ? ` · ${b.timeControl}` : '';
  if (left !== null && waitOf(b, nowMs) === 'scheduled') {
    const countdown = left <= SCHEDULED_COUNTDOWN_MS ? ` · in ${formatClockTime(left)}` : '';
    return `starts ${startText(b.startsAtUtcMs!, nowMs)}${countdown}${tc}`;
  }
  if (left !== null) return `break: ${formatClockTime(left)} until the start${tc}`;
  return b.timeControl || '';
}

/** The clock line's health as the host sees it (docs/reliability.md "Link health"). */
export function linkHealthLine(b: BoardView): string {
  const l = b.link;
  if (!l) return '';
  const parts = [`${l.framesDropped} dropped (${l.crcFailures} CRC)`, `${l.retransmits} resent`, `${l.duplicatesReceived} repeats`];
  if (l.rttMs !== null) parts.push(`RTT ${Math.round(l.rttMs)} ms`);
  if (l.connections > 1) parts.push(`connection ${l.connections}`);
  return `link: ${parts.join(' · ')}`;
}

/**
 * The last time the host brought this board's clock to the journal (docs/protocol.md
 * "Restore"): the journal won, and the arbiter sees what the clock had differently. A clock
 * that held exactly the journal's game is mentioned only while the board waits, paused, for
 * the arbiter to resume it. Null: nothing to say.
 */
export function restoreLine(b: BoardView): { kind: 'error' | 'warning' | 'ok'; text: string } | null {
  const r = b.restore;
  if (!r || b.result) return null;
  const at = new Date(r.utcMs).toISOString().slice(11, 19);
  const problems: string[] = [];
  if (r.differences.length) problems.push(`it differed from the journal: ${r.differences.join('; ')}`);
  if (r.mismatches.length) problems.push(`journal events the rule book does not reproduce: ${r.mismatches.join('; ')}`);
  if (r.outcome === 'refused' || r.outcome === 'failed') {
    return {
      kind: 'error',
      text: `clock ${r.clockId} not brought to the journal at ${at} UTC: ${r.reason || r.outcome}${problems.length ? `; ${problems.join('; ')}` : ''}`,
    };
  }
  const paused = b.live && b.live.status === 'paused';
  if (!problems.length && !paused) return null;
  const what = r.outcome === 'restored' ? 'restored from the journal' : 'held, matching the journal';
  return {
    kind: problems.length ? 'warning' : 'ok',
    text: `clock ${r.clockId} ${what} at ${at} UTC${problems.length ? `; ${problems.join('; ')}` : ''}${paused ? ' — paused: resume when play goes on' : ''}`,
  };
}

/** The board's status word: the clock's, or `pending`/`finished` with a result, `break`, `scheduled`, `ready`, `idle`. */
export function statusOf(b: BoardView, nowMs: number): string {
  if (b.result) return b.resultConfirmed ? 'finished' : 'pending';
  if (b.live) return b.live.status;
  const wait = waitOf(b, nowMs);
  if (wait !== null) return wait;
  return b.timeControl ? 'ready' : 'idle';
}

/** Whether a board's text changes with time between events. */
export function ticking(b: BoardView, nowMs: number): boolean {
  if (breakLeftMs(b, nowMs) !== null) return true;
  if (!b.live || b.result) return false;
  return b.live.status === 'running' || defaultLeftMs(b, 'white', nowMs) !== null || defaultLeftMs(b, 'black', nowMs) !== null;
}

/** The event's current round as the boards show it: the highest round among its boards. */
export function eventsOf(boards: Iterable<BoardView>): { key: string; name: string; round: number }[] {
  const events = new Map<string, { key: string; name: string; round: number }>();
  for (const b of boards) {
    const e = events.get(b.event);
    if (!e) events.set(b.event, { key: b.event, name: b.eventName || b.event, round: b.round });
    else e.round = Math.max(e.round, b.round);
  }
  return [...events.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * What the live broadcast says of the board (docs/broadcast.md "On the dashboard"), one line, or
 * '' when the board's round is not broadcast: its lichess round, lichess's error for the game, a
 * difference between the moves and the presses, the moves games that match no board of the round.
 */
export function broadcastLine(b: BoardView): string {
  const bc = b.broadcast;
  if (!bc) return '';
  const parts = [`broadcast to lichess round ${bc.lichessRound}`];
  if (bc.lichessError) parts.push(`lichess refused the game: ${bc.lichessError}`);
  if (bc.warning) parts.push(bc.warning);
  if (bc.unmatchedCount) {
    const more = bc.unmatchedCount > (bc.unmatched?.length ?? 0) ? `; and ${bc.unmatchedCount - (bc.unmatched?.length ?? 0)} more` : '';
    parts.push(`moves games matching no board of round ${b.round}: ${(bc.unmatched ?? []).join('; ')}${more}`);
  }
  return parts.join(' · ');
}

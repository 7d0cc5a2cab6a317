// `chessclock export --broadcast-log` (docs/exports.md "Broadcast log"): what left the hall for a
// lichess broadcast, and when, from the journal's `broadcast_pushes` (docs/broadcast.md "The
// delay"). One line per request that left, tab-separated under a header: when it left (UTC),
// the round and its lichess round, the games with the moves each held, the instant they were shown
// as of and the newest journaled fact in them, the delay, lichess's answer, and the check an
// appeal asks for: `held` when nothing in it was newer than its time minus the delay, else `EARLY`.
import type { BroadcastPushRow } from '../../store/journal.ts';

const iso = (utcMs: number | null) => (utcMs === null ? '-' : new Date(utcMs).toISOString()); // formatting a stored time

export const BROADCAST_LOG_HEADER = ['sent (UTC)', 'round', 'lichess round', 'games (moves)', 'as of (UTC)', 'newest fact (UTC)', 'delay', 'answer', 'check'];

/** Whether nothing in the push was newer than its time minus the delay. */
export function heldBack(p: BroadcastPushRow): boolean {
  const limit = p.sentUtcMs - p.delayMs;
  return p.asOfUtcMs <= limit && (p.newestUtcMs === null || p.newestUtcMs <= limit);
}

function answerOf(p: BroadcastPushRow): string {
  if (p.status !== 200) return `${p.status ?? 'no answer'}: ${p.message ?? ''}`.trim();
  const refused = p.games.filter((g) => g.error !== null);
  if (refused.length === 0) return `200: ${p.games.length} game(s) taken`;
  return `200: ${refused.length} game(s) refused: ${refused.map((g) => `${g.gameId} (${g.error})`).join(', ')}`;
}

/** The log of `rows` (of one event; of round `round` when given), header first. */
export function broadcastLogText(rows: readonly BroadcastPushRow[], round?: number): string {
  const lines = rows
    .filter((p) => round === undefined || p.round === round)
    .map((p) =>
      [
        iso(p.sentUtcMs),
        String(p.round),
        p.lichessRound,
        p.games.map((g) => `${g.gameId.slice(g.gameId.lastIndexOf(':') + 1)}:${g.plies}`).join(' '),
        iso(p.asOfUtcMs),
        iso(p.newestUtcMs),
        `${p.delayMs / 1000} s`,
        answerOf(p).replace(/[\t\r\n]+/g, ' '),
        heldBack(p) ? 'held' : 'EARLY',
      ].join('\t'),
    );
  return [BROADCAST_LOG_HEADER.join('\t'), ...lines].join('\n') + '\n';
}

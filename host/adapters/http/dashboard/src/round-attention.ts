// The rounds that need the arbiter, in the attention strip beside the boards (docs/dashboard.md
// "Attention"): a Swiss round that waits for pairings (every result of the last round confirmed,
// nothing proposed or being paired) and a round whose pairings wait for approval. Both come from
// the host (GET /api/rounds/proposed: `proposals` and `waiting`, arbiters only; host/app/next-round.ts
// decides which rounds wait), read by the next-round box (next-round.ts); this only words them.
// Pure: no DOM, unit-tested (round-attention.test.ts).
import type { RoundProposalView, RoundWaitingView } from '../../../../app/ports.ts';
import { ATTENTION_KINDS, type AttentionItem } from './attention.ts';

/** The strip's key of a round item (a board id never starts so: board ids are `event-board`). */
export const ROUND_KEY_PREFIX = 'round:';

/** The event and round of a round item's key, or null for a board id. */
export function roundOfKey(key: string): { event: string; round: number } | null {
  if (!key.startsWith(ROUND_KEY_PREFIX)) return null;
  const rest = key.slice(ROUND_KEY_PREFIX.length);
  const at = rest.lastIndexOf(':');
  return { event: rest.slice(0, at), round: Number(rest.slice(at + 1)) };
}

function item(event: string, eventName: string, round: number, text: string, why: string): AttentionItem {
  const where = `${eventName} · round ${round}`;
  const key = `${ROUND_KEY_PREFIX}${event}:${round}`;
  return {
    boardId: key,
    kind: 'round',
    severity: 'amber',
    text,
    reasons: [why],
    where,
    eventName,
    title: `${where}: ${why}`,
    sortKey: [ATTENTION_KINDS.indexOf('round'), 1, Infinity, round, event, key],
  };
}

/**
 * The round items, pairings to approve first: `round 3 proposed: approve or reject`, then
 * `round 3 waits for pairings`. `names`: each event's name as the page shows it (the key when unknown).
 */
export function roundAttentionItems(
  proposals: readonly RoundProposalView[],
  waiting: readonly RoundWaitingView[],
  names: (event: string) => string | undefined,
): AttentionItem[] {
  const proposed = proposals
    .filter((p) => p.status === 'proposed')
    .map((p) => {
      const from = p.source === 'engine' ? 'the pairing engine' : `a TRF loaded by ${p.by}`;
      return item(p.event, names(p.event) ?? p.event, p.round, `Round ${p.round} proposed: approve or reject`, `pairings from ${from} wait for approval`);
    });
  const waits = waiting.map((w) =>
    item(
      w.event,
      names(w.event) ?? w.eventName,
      w.round,
      `Round ${w.round} waits for pairings`,
      w.round === 1 ? 'no round is paired yet' : `every result of round ${w.round - 1} is confirmed; load the pairings`,
    ),
  );
  return [...proposed, ...waits];
}

// The rounds in the attention strip (docs/dashboard.md "Attention"): a round whose pairings wait
// for approval and a Swiss round that waits for pairings (GET /api/rounds/proposed), worded for the
// strip and listed after every board (docs/tournament.md "Pairing the next round": nothing is opened
// without an arbiter's approval).
import { describe, expect, it } from 'vitest';
import type { RoundProposalView } from '../../../../app/ports.ts';
import { attentionCountText, compareAttention, type AttentionItem } from './attention.ts';
import { roundAttentionItems, roundOfKey } from './round-attention.ts';

const proposal = (event: string, round: number, status: RoundProposalView['status'], source: 'engine' | 'trf' = 'engine'): RoundProposalView => ({
  id: 1,
  event,
  round,
  status,
  source,
  by: source === 'engine' ? 'host' : 'Ana',
  atUtcMs: 0,
  boards: [],
  byes: [],
  canRunEngine: source === 'engine',
});

describe('round attention items', () => {
  it('a proposal waits for approval, a round for pairings; a failed, rejected or running proposal is no approval to give', () => {
    const items = roundAttentionItems(
      [proposal('open-a', 3, 'proposed', 'trf'), proposal('open-b', 2, 'failed'), proposal('open-c', 5, 'running')],
      [{ event: 'open-b', eventName: 'Open B', round: 2 }],
      (key) => ({ 'open-a': 'Open A' })[key],
    );
    expect(items.map((i) => [i.boardId, i.kind, i.severity, i.text, i.title])).toEqual([
      ['round:open-a:3', 'round', 'amber', 'Round 3 proposed: approve or reject', 'Open A · round 3: pairings from a TRF loaded by Ana wait for approval'],
      ['round:open-b:2', 'round', 'amber', 'Round 2 waits for pairings', 'Open B · round 2: every result of round 1 is confirmed; load the pairings'],
    ]);
    expect(roundOfKey(items[0].boardId)).toEqual({ event: 'open-a', round: 3 });
    expect(roundOfKey('open-a-3')).toBeNull();
  });

  it('after every board in the order, however urgent the board; the heading counts rounds apart from boards', () => {
    const [round] = roundAttentionItems([], [{ event: 'e', eventName: 'E', round: 1 }], () => undefined);
    expect(round.reasons).toEqual(['no round is paired yet']);
    const board: AttentionItem = { ...round, boardId: 'e-9', kind: 'time', sortKey: [6, 1, 90_000, 9, 'e', 'e-9'] };
    expect([round, board].sort(compareAttention).map((i) => i.boardId)).toEqual(['e-9', 'round:e:1']);
    expect(attentionCountText(0, 1)).toBe('1 round needs the arbiter');
    expect(attentionCountText(2, 1)).toBe('2 boards and 1 round need the arbiter');
    expect(attentionCountText(1, 2)).toBe('1 board and 2 rounds need the arbiter');
    expect(attentionCountText(0)).toBe('No board needs the arbiter');
  });
});

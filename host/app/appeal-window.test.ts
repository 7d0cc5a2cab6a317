// The boards a result's appeal window reaches beyond its own (appeal-window.ts, docs/regulations.md).
import { describe, expect, it } from 'vitest';
import { boardsWithNewAppealDeadline, type AppealBoard } from './appeal-window.ts';

const board = (id: string, event: string, round: number, appealUntilUtcMs?: number | null): AppealBoard => ({
  id,
  event,
  round,
  ...(appealUntilUtcMs !== undefined ? { appealUntilUtcMs } : {}),
});

describe('boards with a new appeal deadline', () => {
  const hall = [board('iv-1', 'ivanovo', 1, 1000), board('iv-2', 'ivanovo', 1, 1000), board('iv-3', 'ivanovo', 2, null), board('slo-1', 'slo', 1)];

  it('a result or its confirmation in an event with an appeal window: every other board of the same round', () => {
    for (const type of ['result', 'confirm-result'] as const) {
      expect(boardsWithNewAppealDeadline({ type }, hall[0], hall).map((b) => b.id)).toEqual(['iv-2']);
    }
  });

  it('a window not running yet (null) still reaches the round: the last confirmation starts it', () => {
    const round = [board('iv-1', 'ivanovo', 1, null), board('iv-2', 'ivanovo', 1, null)];
    expect(boardsWithNewAppealDeadline({ type: 'confirm-result' }, round[1], round).map((b) => b.id)).toEqual(['iv-1']);
  });

  it('no other board: another command, or an event that states no appeal window', () => {
    expect(boardsWithNewAppealDeadline({ type: 'pause' }, hall[0], hall)).toEqual([]);
    expect(boardsWithNewAppealDeadline({ type: 'adjust' }, hall[0], hall)).toEqual([]);
    expect(boardsWithNewAppealDeadline({ type: 'result' }, hall[3], [...hall, board('slo-2', 'slo', 1)])).toEqual([]);
  });
});

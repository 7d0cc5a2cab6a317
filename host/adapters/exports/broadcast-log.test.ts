// docs/exports.md "Broadcast log": one line per push, and the check an appeal reads — `held` when
// nothing in the push was newer than the time it left minus the delay (European rule Q.2.4), else `EARLY`.
import { describe, expect, it } from 'vitest';
import type { BroadcastPushRow } from '../../store/journal.ts';
import { broadcastLogText, heldBack } from './broadcast-log.ts';

const T = Date.UTC(2026, 4, 2, 14, 15);
const push = (over: Partial<BroadcastPushRow>): BroadcastPushRow => ({
  id: 1,
  sentUtcMs: T,
  answeredUtcMs: T + 80,
  event: 'open-2026',
  round: 3,
  lichessRound: 'aBcD1234',
  delayMs: 900_000,
  asOfUtcMs: T - 900_000,
  newestUtcMs: T - 901_500,
  games: [
    { gameId: 'open-2026:3.1.1', plies: 24, moves: 24, error: null },
    { gameId: 'open-2026:3.2.1', plies: 9, moves: null, error: 'Illegal move: Nf9' },
  ],
  status: 200,
  message: null,
  ...over,
});

describe('the broadcast log (docs/exports.md "Broadcast log")', () => {
  it('one line per push: when it left, the round, each game and its moves, the instants, the delay, the answer, held', () => {
    const text = broadcastLogText([push({}), push({ id: 2, round: 4, status: 429, message: 'lichess: too many requests (429); waiting a minute' })], 3);
    expect(text.split('\n')).toEqual([
      'sent (UTC)\tround\tlichess round\tgames (moves)\tas of (UTC)\tnewest fact (UTC)\tdelay\tanswer\tcheck',
      '2026-05-02T14:15:00.000Z\t3\taBcD1234\t3.1.1:24 3.2.1:9\t2026-05-02T14:00:00.000Z\t2026-05-02T13:59:58.500Z\t900 s\t200: 1 game(s) refused: open-2026:3.2.1 (Illegal move: Nf9)\theld',
      '',
    ]);
    expect(broadcastLogText([push({ status: 429, message: 'lichess: too many requests (429)' })]).split('\n')[1]).toMatch(
      /\t429: lichess: too many requests \(429\)\theld$/,
    );
  });

  it('a push holding a fact newer than its time minus the delay is EARLY', () => {
    expect(heldBack(push({}))).toBe(true);
    expect(heldBack(push({ newestUtcMs: T - 899_999 }))).toBe(false);
    expect(heldBack(push({ asOfUtcMs: T - 1_000 }))).toBe(false);
    expect(
      broadcastLogText([push({ newestUtcMs: T - 10_000 })])
        .trimEnd()
        .endsWith('\tEARLY'),
    ).toBe(true);
  });
});

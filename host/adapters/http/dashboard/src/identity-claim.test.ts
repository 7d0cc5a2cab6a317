// The panel's words and request for two lines claiming one clock id (docs/dashboard.md "Clock identity").
import { describe, expect, it } from 'vitest';
import type { BoardView } from '../../../../app/ports.ts';
import { identityClaimText, identityRequest } from './identity-claim.ts';

const T0 = Date.UTC(2026, 11, 3, 15, 0);
const board = {
  id: 'open-r1-b1',
  event: 'open',
  round: 1,
  board: 1,
  clockId: 'CLK 01',
  white: { name: 'W' },
  black: { name: 'B' },
  timeControl: '900+10',
  live: null,
  result: null,
  resultConfirmed: false,
} as BoardView;
const claim = { clockId: 'CLK 01', onlineLine: '/dev/ttyUSB0', onlineBoot: '00001001', line: '/dev/ttyUSB7', boot: '000bad01', sinceUtcMs: T0 };

describe('a claim on the board clock id, in the panel', () => {
  it('names both lines and boots and how long the claim has been refused; nothing without a claim', () => {
    const text = identityClaimText({ ...board, identityClaim: claim }, T0 + 12_400);
    expect(text).toContain('Two clocks say they are CLK 01');
    expect(text).toContain('/dev/ttyUSB0 (boot 00001001) plays this board');
    expect(text).toContain('/dev/ttyUSB7 (boot 000bad01) 12 s ago and is refused');
    expect(identityClaimText(board, T0)).toBe('');
  });

  it('asks the API for the choice on the claiming line, the clock id escaped in the path', () => {
    expect(identityRequest({ ...board, identityClaim: claim }, 'newcomer')).toEqual([
      'POST',
      '/api/clocks/CLK%2001/identity',
      { line: '/dev/ttyUSB7', keep: 'newcomer' },
    ]);
  });
});

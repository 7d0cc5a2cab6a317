// End to end: a full knockout mini-match of the Slovenian women's final 2007 (docs/regulations.md,
// art. 3) played on simulated clocks linked to the real Host over in-memory lines (the same
// match over real pty pairs: e2e-pty.test.ts). 2 classical draws → rapid 1-1 after the
// 30-minute break → armageddon draw → Black advances; checked in the journal, the TRF (by
// column) and the PGN (by tag). The arbiter confirms every result through the HTTP API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTrf } from '../host/adapters/exports/trf-parser.ts';
import { buildRig, checkMatchRecords, closeRig, playBoard2, playSlovenianMatch, trfCategory, type MatchRig } from './e2e-match.ts';

describe('Host ⇄ simulated clock over an in-memory line: the Slovenian final mini-match', () => {
  let rig: MatchRig;
  beforeEach(async () => {
    rig = await buildRig();
  });
  afterEach(async () => closeRig(rig));

  it('Slovenian final art. 3: 2 classical draws → rapid 1-1 → armageddon draw → Black advances (journal, TRF16 columns, PGN tags)', async () => {
    await playBoard2(rig);
    await playSlovenianMatch(rig);
    checkMatchRecords(rig, [40, 40, 30, 30, 24]);
    // The rapid TRF: game 3 and 4, each won by White.
    expect(
      parseTrf(trfCategory(rig, 'rapid'))
        .players.find((p) => p.rank === 1)!
        .rounds.map((r) => `${r.colour}${r.code}`),
    ).toEqual(['w1', 'b0']);
  }, 30_000);
});

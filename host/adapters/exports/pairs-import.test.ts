// A pairing program's pairs list read against the TRF it was paired from (docs/tournament.md "An event
// with an outside pairing program"; the `-p` format of the JaVaFo Advanced User Manual, which
// bbpPairings follows): the round number from the TRF's rounds played, the starting ranks its 001
// lines, a player the TRF sets out of the round keeping that entry, and errors naming the line.
import { describe, expect, it } from 'vitest';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { swissBeforeRound1 } from '../../app/next-round.fixture.ts';
import { registrationTrf } from './trf-event.ts';
import { parseTrf } from './trf-parser.ts';
import { pairsRound, roundsPlayed } from './pairs-import.ts';

/** The registration TRF of the 7-player Swiss (3 planned rounds), as `chessclock export --trf --round 0` writes it. */
function registration(): string {
  const raw = swissBeforeRound1();
  delete (raw.events[0] as { pairingEngine?: unknown }).pairingEngine;
  const journal = new Journal(':memory:');
  try {
    return registrationTrf(journal, parseTournament(raw), raw.events[0].id, 'white');
  } finally {
    journal.close();
  }
}

/** The TRF with a field written in round 1's columns (92-99) of a player's line: an entry set before the pairing. */
function withRound1Field(trf: string, rank: number, field: string): string {
  return trf
    .split('\r\n')
    .map((l) => (l.startsWith(`001 ${String(rank).padStart(4)}`) ? l.padEnd(91) + field : l))
    .join('\r\n');
}

const lineOf = (trf: string, rank: number) => trf.split('\r\n').findIndex((l) => l.startsWith(`001 ${String(rank).padStart(4)}`)) + 1;

describe('a pairs list read against the TRF it was paired from', () => {
  it('round 1 from the registration TRF: the boards in the list order, "N 0" the pairing-allocated bye (TRF16 U)', () => {
    const file = parseTrf(registration());
    expect(roundsPlayed(file)).toEqual({ played: 0, next: 1 });
    expect(pairsRound(file, '4\n1 5\n6 2\n3 7\n4 0\n')).toEqual({
      number: 1,
      date: null,
      startUtcMs: null,
      boards: [
        { board: 1, white: 1, black: 5 },
        { board: 2, white: 6, black: 2 },
        { board: 3, white: 3, black: 7 },
      ],
      teamMatches: [],
      knockout: [],
      byes: [{ player: 4, team: null, kind: 'U' }],
    });
  });

  it('a player the TRF sets out of the round (0000 - H, a requested bye; 0000 - Z, absent) keeps that entry; paired all the same: refused naming both lines', () => {
    const trf = withRound1Field(withRound1Field(registration(), 4, '0000 - H'), 7, '0000 - Z');
    const file = parseTrf(trf);
    // The column holding only entries set before the pairing is the round being paired (bbpPairings reads it so).
    expect(roundsPlayed(file)).toEqual({ played: 0, next: 1 });
    const round = pairsRound(file, '3\n1 5\n6 2\n3 0\n');
    expect(round.byes).toEqual([
      { player: 3, team: null, kind: 'U' },
      { player: 4, team: null, kind: 'H' },
      { player: 7, team: null, kind: 'Z' },
    ]);
    expect(() => pairsRound(file, '3\n1 5\n6 2\n3 4\n')).toThrow(
      `pairs file line 4: player 4 (Četrti, Igralec) is paired, but the TRF (line ${lineOf(trf, 4)}) sets them out of round 1 with "0000 - H"`,
    );
  });

  it('errors name the pairs file line: a player not in the TRF, paired twice, with themselves; a player left out names the TRF line', () => {
    const trf = registration();
    const file = parseTrf(trf);
    expect(() => pairsRound(file, '4\n1 5\n6 17\n3 7\n4 0\n')).toThrow(
      'pairs file line 3: player 17 is not in the TRF (its 001 lines have starting ranks 1-7)',
    );
    expect(() => pairsRound(file, '4\n1 5\n6 2\n3 5\n4 0\n')).toThrow('pairs file line 4: player 5 is paired twice');
    expect(() => pairsRound(file, '4\n1 5\n6 2\n3 3\n4 0\n')).toThrow(
      /pairs file line 4: player 3 is paired twice|pairs file line 4: player 3 is paired with themselves/,
    );
    expect(() => pairsRound(file, '3\n1 5\n6 2\n3 7\n')).toThrow(
      `pairs file: player 4 (Četrti, Igralec, TRF line ${lineOf(trf, 4)}) neither paired nor given the bye, and the TRF gives them no entry in round 1 (a requested bye or an absence: 0000 - H, 0000 - Z): was the list paired from another TRF?`,
    );
    expect(() => pairsRound(file, '4\n1 - 5\n')).toThrow('pairs file: line 1 announces 4 pairs, 1 follow');
  });

  it('a TRF whose planned rounds (142/XXR) are all played pairs no further round', () => {
    let trf = registration().replace('\r\n142 3\r\n', '\r\n142 1\r\n').replace('\r\nXXR 3\r\n', '\r\nXXR 1\r\n');
    const played: [number, string][] = [
      [1, '   5 w 1'],
      [5, '   1 b 0'],
      [6, '   2 w ='],
      [2, '   6 b ='],
      [3, '   7 w 0'],
      [7, '   3 b 1'],
      [4, '0000 - U'],
    ];
    for (const [rank, field] of played) trf = withRound1Field(trf, rank, field);
    expect(roundsPlayed(parseTrf(trf))).toEqual({ played: 1, next: 2 });
    expect(() => pairsRound(parseTrf(trf), '4\n1 2\n5 6\n7 4\n3 0\n')).toThrow(
      'the TRF has all its 1 planned rounds (tag 142/XXR): there is no round 2 to pair',
    );
  });
});

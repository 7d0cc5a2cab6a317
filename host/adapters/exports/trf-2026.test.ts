// TRF-2026 and TRF16, written and read (FIDE Handbook C.04 Annex 2: TRF16, and TRF-2026 as
// transcribed in echecsjs/trf SPEC.md; docs/exports.md "FIDE TRF"). TRF-2026 keeps TRF16's
// tournament tags and 001 columns and adds records: tag 152 (initial colour), 162 (point system),
// 240 (byes asked for), among others. bbpPairings' own reading of these files:
// test/trf-bbp-pairings.test.ts.
import { describe, expect, it } from 'vitest';
import { parseTournament } from '../../domain/tournament-file.ts';
import { Journal } from '../../store/journal.ts';
import { swissTournament } from '../../app/next-round.fixture.ts';
import { eventTrf, eventTrfReport } from './trf-event.ts';
import { byeLine, formatTrf, playerLine, type TrfReport } from './trf.ts';
import { checkTrf, col, parseTrf, TrfParseError } from './trf-parser.ts';
import { importTrf, TrfImportError } from './trf-import.ts';

/** The 7-player Swiss of the next-round tests: round 1 in the file (player 4 the pairing-allocated bye), 3 planned. */
function withJournal<T>(raw: unknown, body: (journal: Journal, hall: ReturnType<typeof parseTournament>) => T): T {
  const journal = new Journal(':memory:');
  try {
    return body(journal, parseTournament(raw));
  } finally {
    journal.close();
  }
}

/** The registration report (no round played) with the byes asked for and the initial colour. */
function registration(extra: Partial<TrfReport> = {}): TrfReport {
  const raw = swissTournament();
  raw.events[0].rounds = [] as never;
  return { ...withJournal(raw, (j, hall) => eventTrfReport(j, hall, raw.events[0].id, { upToRound: 0 })), ...extra };
}

const lines = (text: string) => text.split('\r\n');

describe('TRF-2026 written (the default) and TRF16 (the older form, on request)', () => {
  it('tag 152: the initial colour `W`/`B` in TRF-2026 beside XXC; TRF16 has XXC only', () => {
    const report = registration({ initialColour: 'black' });
    expect(lines(formatTrf(report)).filter((l) => /^(142|152|XXR|XXC) /.test(l))).toEqual(['142 3', '152 B', 'XXR 3', 'XXC black1']);
    expect(lines(formatTrf(report, 'trf16')).filter((l) => /^(142|152|XXR|XXC) /.test(l))).toEqual(['142 3', 'XXR 3', 'XXC black1']);
    expect(lines(formatTrf({ ...report, initialColour: 'white' }))).toContain('152 W');
    expect(lines(formatTrf({ ...report, initialColour: undefined })).some((l) => l.startsWith('152'))).toBe(false);
  });

  it('record 240: type at 5, round 7-9, starting ranks at 11-14, 16-19, … (TRF-2026 bye section); not in TRF16', () => {
    const l = byeLine({ kind: 'H', round: 3, players: [5, 1234] });
    expect(l).toBe('240 H 003    5 1234');
    expect([col(l, 1, 3), col(l, 5, 5), col(l, 7, 9), col(l, 11, 14), col(l, 16, 19)]).toEqual(['240', 'H', '003', '   5', '1234']);
    const report = registration({ requestedByes: [{ kind: 'Z', round: 1, players: [7] }] });
    expect(lines(formatTrf(report))).toContain('240 Z 001    7');
    expect(lines(formatTrf(report, 'trf16')).some((l) => l.startsWith('240'))).toBe(false);
  });

  it('the TRF16 form is the TRF-2026 file without its 152 and 240 records, line for line (nothing else differs)', () => {
    const report = registration({
      initialColour: 'black',
      requestedByes: [
        { kind: 'H', round: 1, players: [2] },
        { kind: 'Z', round: 1, players: [5, 6] },
      ],
    });
    const trf26 = lines(formatTrf(report));
    expect(trf26.filter((l) => /^(152|240) /.test(l))).toEqual(['152 B', '240 H 001    2', '240 Z 001    5    6']);
    expect(lines(formatTrf(report, 'trf16'))).toEqual(trf26.filter((l) => !/^(152|240) /.test(l)));
  });

  it('round trip: what the TRF-2026 writer writes the parser reads back (version, 152, 240, every 001 field); the TRF16 form reads as the same players', () => {
    const report = registration({
      initialColour: 'white',
      requestedByes: [
        { kind: 'H', round: 1, players: [2, 6] },
        { kind: 'F', round: 1, players: [3] },
      ],
    });
    const text = formatTrf(report);
    const file = parseTrf(text);
    expect(file.version).toBe('TRF-2026');
    expect(file.initialColour).toBe('white');
    expect(file.byes.map(({ kind, round, players }) => ({ kind, round, players }))).toEqual(report.requestedByes);
    expect(file.xxr).toBe(3);
    expect(file.tags.get('142')).toEqual(['3']);
    expect(file.players.map((p) => [p.rank, p.name, p.rating, p.points, p.placement])).toEqual(
      report.players.map((p) => [p.rank, p.name, p.rating, p.points, p.placement]),
    );
    expect(checkTrf(text)).toEqual([]);
    const old = parseTrf(formatTrf(report, 'trf16'));
    expect(old.players).toEqual(file.players.map((p) => ({ ...p, line: p.line - 1 }))); // one line fewer above them: no 152
    expect([old.initialColour, old.byes]).toEqual(['white', []]); // from XXC
  });
});

describe('TRF16 or TRF-2026: told apart by the records present', () => {
  const tail = playerLine({
    rank: 1,
    sex: null,
    title: null,
    name: 'Prvi, Igralec',
    rating: 2400,
    federation: null,
    fideId: null,
    birthDate: null,
    points: 0,
    placement: 1,
    rounds: [],
  });

  it('only TRF16 records (tags 012-132, 001, 013, JaVaFo XX?): TRF16; any record TRF16 lacks (142-362, 240-330, 80x): TRF-2026', () => {
    expect(parseTrf(`012 Open\r\n092 Swiss\r\n132 ${' '.repeat(87)}26/04/04\r\nXXR 3\r\n${tail}\r\n`).version).toBe('TRF16');
    for (const record of ['142 3', '152 W', '222 900+10', '240 H 001    1', '260 001 002    1    2', '352 WB'])
      expect(parseTrf(`012 Open\r\n${record}\r\n${tail}\r\n`).version, record).toBe('TRF-2026');
  });

  it('tag 152 is W or B; 240 names its type, round and players; a bad field is named by line and columns', () => {
    expect(() => parseTrf(`152 white\r\n${tail}`)).toThrow(/TRF line 1, columns 5: tag 152 \(initial colour\) must be W or B, got "white"/);
    expect(() => parseTrf(`240 X 001    1\r\n${tail}`)).toThrow(/TRF line 1, columns 5: record 240: the type of bye must be F, H or Z, got "X"/);
    expect(() => parseTrf(`240 H 0x1    1\r\n${tail}`)).toThrow(/TRF line 1, columns 7-9: record 240 round must be digits, got "0x1"/);
    expect(() => parseTrf(`240 H 001    1   ab\r\n${tail}`)).toThrow(TrfParseError);
    expect(() => parseTrf(`240 H 001\r\n${tail}`)).toThrow(/TRF line 1, columns 11-14: record 240 names no player/);
    // 152 over XXC, whichever comes first.
    expect(parseTrf(`XXC white1\r\n152 B\r\n${tail}`).initialColour).toBe('black');
    expect(parseTrf(`152 B\r\nXXC white1\r\n${tail}`).initialColour).toBe('black');
  });

  it('tag 162: the point of each result symbol, 9 columns apart (6, 7-10; 15, 16-19; …)', () => {
    const file = parseTrf(`162  W 3.0    D 1.0\r\n${tail}`);
    expect([...file.scoring].map(([s, v]) => [s, v.points])).toEqual([
      ['W', 3],
      ['D', 1],
    ]);
    expect(() => parseTrf(`162  Q 3.0\r\n${tail}`)).toThrow(/TRF line 1, columns 6: tag 162: the result symbol must be W, D, L, A, P or X, got "Q"/);
  });
});

describe('importing a TRF-2026: its 240 byes and its point system', () => {
  /** A pairing program's TRF of round 2 of the 7-player Swiss, from ours after round 1. */
  function afterRound1(): string {
    const raw = swissTournament();
    return withJournal(raw, (journal, hall) => {
      // Round 1 in the journal with results: the fixture's host is not needed, the report is built from the file.
      const report = eventTrfReport(journal, hall, raw.events[0].id, { upToRound: 0 });
      return formatTrf({
        ...report,
        rounds: 2,
        plannedRounds: 3,
        players: report.players.map((p) => {
          const pairs: Record<number, [number | null, 'w' | 'b' | null, ' ' | 'H']> = {
            1: [2, 'w', ' '],
            2: [1, 'b', ' '],
            3: [5, 'w', ' '],
            5: [3, 'b', ' '],
            4: [6, 'w', ' '],
            6: [4, 'b', ' '],
            7: [null, null, ' '], // blank here: record 240 gives the bye
          };
          const [opponent, colour, code] = pairs[p.rank];
          return {
            ...p,
            rounds: [
              { opponent: null, colour: null, code: ' ' },
              { opponent, colour, code },
            ],
          };
        }),
        requestedByes: [{ kind: 'H', round: 2, players: [7] }],
      });
    });
  }

  it("a 240 bye fills the player's blank field of a round the lines carry; the same code there agrees", () => {
    const event = importTrf(afterRound1(), { id: 'x' });
    expect(event.rounds[1].byes).toEqual([{ player: 7, team: null, kind: 'H' }]);
    expect(event.rounds[1].boards.map((b) => [b.white, b.black])).toEqual([
      [1, 2],
      [3, 5],
      [4, 6],
    ]);
    const both = afterRound1().replace(/^(001 {4}7 .{92})0000 - {2}/m, '$10000 - H');
    expect(both).not.toBe(afterRound1());
    expect(importTrf(both, { id: 'x' }).rounds[1].byes).toEqual([{ player: 7, team: null, kind: 'H' }]);
  });

  it("a 240 bye that contradicts the player's field is refused, naming both lines and the columns", () => {
    const text = afterRound1().replace('240 H 002    7', '240 H 002    3');
    const at = lines(text).findIndex((l) => l.startsWith('240')) + 1;
    const p3 = lines(text).findIndex((l) => l.startsWith('001    3')) + 1;
    expect(() => importTrf(text, { id: 'x' })).toThrow(TrfImportError);
    expect(() => importTrf(text, { id: 'x' })).toThrow(
      `TRF line ${at}, columns 11-14: record 240 gives player 3 the bye "H" in round 2, but line ${p3}, columns 102-109, has "5 w  "`,
    );
    expect(() => importTrf(afterRound1().replace('240 H 002    7', '240 H 002   17'), { id: 'x' })).toThrow(/record 240 names player 17, who has no 001 line/);
  });

  it('a 240 bye of a round the lines do not carry yet is left to the pairing program (no round without its pairing)', () => {
    const text = afterRound1().replace('240 H 002    7', '240 H 002    7\r\n240 Z 003    1');
    const event = importTrf(text, { id: 'x' });
    expect(event.rounds).toHaveLength(2);
    expect(parseTrf(text).byes.map((b) => [b.kind, b.round, b.players])).toEqual([
      ['H', 2, [7]],
      ['Z', 3, [1]],
    ]);
  });

  it('tag 162 with the default points is read; another point system is refused, naming the line (the host scores 1, ½, 0)', () => {
    const text = afterRound1();
    expect(importTrf(`162  W 1.0    D 0.5\r\n${text}`, { id: 'x' }).players).toHaveLength(7);
    expect(() => importTrf(`162  W 3.0    D 1.0\r\n${text}`, { id: 'x' })).toThrow(
      /TRF line 1: tag 162 gives W 3\.0 points; the host scores by the TRF's default points/,
    );
  });

  it('the export of an event carries its 240 records: written after round 0 for round 1, and read back', () => {
    const raw = swissTournament();
    raw.events[0].rounds = [
      {
        number: 1,
        date: '2026/04/04',
        boards: [
          { board: 1, white: 1, black: 5 },
          { board: 2, white: 6, black: 2 },
          { board: 3, white: 3, black: 4 },
        ],
        byes: [{ player: 7, kind: 'Z' }],
      },
    ] as never;
    const text = withJournal(raw, (j, hall) => eventTrf(j, hall, raw.events[0].id, { upToRound: 0, initialColour: 'white' }));
    expect(lines(text)).toContain('240 Z 001    7');
    expect(parseTrf(text).byes.map((b) => [b.kind, b.round, b.players])).toEqual([['Z', 1, [7]]]);
    const old = withJournal(raw, (j, hall) => eventTrf(j, hall, raw.events[0].id, { upToRound: 0, format: 'trf16' }));
    expect(lines(old).some((l) => l.startsWith('240'))).toBe(false);
  });
});

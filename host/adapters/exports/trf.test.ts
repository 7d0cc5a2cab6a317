import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadTournamentFile } from '../../domain/tournament-file.ts';
import { codesFor, eventByes, roundRecords, CODE_POINTS, type RoundRecord, type TrfCode } from '../../domain/standings.ts';
import { importTrf, parsePairsFile, parseTag222, tournamentFileOf } from './trf-import.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { formatTimeControl } from '../../../protocol/time-control.ts';
import { formatTrf, playerLine, teamLine, TrfError, type TrfPlayer, type TrfReport } from './trf.ts';
import { checkTrf, col, parseTrf, TrfParseError } from './trf-parser.ts';
import { Journal } from '../../store/journal.ts';
import { eventTrf } from './trf-event.ts';
import { swissTournament } from '../../app/next-round.fixture.ts';

const rozic: TrfPlayer = {
  rank: 1,
  sex: 'w',
  title: 'WIM',
  name: 'Rožič, Vesna',
  rating: 2250,
  federation: 'SLO',
  fideId: 90000001,
  birthDate: '1987/01/01',
  points: 1.5,
  placement: 1,
  rounds: [
    { opponent: 4, colour: 'w', code: '1' },
    { opponent: 12, colour: 'b', code: '=' },
    { opponent: null, colour: null, code: 'H' },
  ],
};

function report(players: TrfPlayer[], rounds: number): TrfReport {
  return {
    name: 'Test',
    city: 'Ljubljana',
    federation: 'SLO',
    startDate: '2007/08/16',
    endDate: '2007/08/19',
    chiefArbiter: 'Ana Srebrnič',
    deputyArbiters: [],
    type: 'Swiss',
    timeControlText: null,
    timeControl: '40/5400+30:900+30',
    rounds,
    plannedRounds: Math.max(rounds, 7),
    roundDates: [],
    players,
  };
}

describe('TRF16 player line (001) columns', () => {
  it('puts every field at its TRF16 columns', () => {
    const l = playerLine(rozic);
    expect(col(l, 1, 3)).toBe('001'); // data identification number
    expect(col(l, 5, 8)).toBe('   1'); // starting rank, right-aligned
    expect(col(l, 10, 10)).toBe('w'); // sex
    expect(col(l, 11, 13)).toBe('WIM'); // title
    expect(col(l, 15, 47)).toBe('Rožič, Vesna'.padEnd(33)); // name
    expect(col(l, 49, 52)).toBe('2250'); // FIDE rating
    expect(col(l, 54, 56)).toBe('SLO'); // federation
    expect(col(l, 58, 68)).toBe('   90000001'); // FIDE number, 11 columns
    expect(col(l, 70, 79)).toBe('1987/01/01'); // birth date
    expect(col(l, 81, 84)).toBe(' 1.5'); // points, "11.5"
    expect(col(l, 86, 89)).toBe('   1'); // rank
    // Round fields: opponent 92-95, colour 97, result 99; then 102-105/107/109; 112-115/117/119.
    expect([col(l, 92, 95), col(l, 97, 97), col(l, 99, 99)]).toEqual(['   4', 'w', '1']);
    expect([col(l, 102, 105), col(l, 107, 107), col(l, 109, 109)]).toEqual(['  12', 'b', '=']);
    expect([col(l, 112, 115), col(l, 117, 117), col(l, 119, 119)]).toEqual(['0000', '-', 'H']);
    expect(l).toHaveLength(119); // through the last round's result column
    // The separators between fields stay blank.
    for (const c of [4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91, 96, 98, 100, 101]) expect(col(l, c, c)).toBe(' ');
  });

  it('TRF-2026 record 310: team number 5-7, name 9-40, nickname 42-46, match points 55-60, game points 62-67, rank 69-71, players 74-77, 79-82, …', () => {
    const l = teamLine({ team: 3, name: 'Школа № 3', nickname: 'SH3', matchPoints: 2, gamePoints: 3.5, placement: 1, players: [9, 10, 11, 12] });
    expect([col(l, 1, 3), col(l, 5, 7), col(l, 9, 40).trim(), col(l, 42, 46), col(l, 55, 60), col(l, 62, 67), col(l, 69, 71)]).toEqual([
      '310',
      '  3',
      'Школа № 3',
      'SH3  ',
      '   2.0',
      '   3.5',
      '  1',
    ]);
    expect([col(l, 74, 77), col(l, 79, 82), col(l, 84, 87), col(l, 89, 92)]).toEqual(['   9', '  10', '  11', '  12']);
  });

  it('refuses a value that does not fit its columns, naming them', () => {
    expect(() => playerLine({ ...rozic, name: 'X'.repeat(34) })).toThrow(/does not fit columns 15-47 \(33 characters\)/);
    expect(() => playerLine({ ...rozic, rank: 10000 })).toThrow(/columns 5-8/);
  });
});

describe('TRF column layout of every record written (FIDE TRF16, C.04 Annex 2; TRF-2026 for 310/320/330; JaVaFo AUM for XXR)', () => {
  const ev = () => loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url))).events[0];
  // Round 1 of Ivanovo: 1-0 on odd boards, draws on even ones; team 5 has the bye.
  function ivanovoRound1(): string {
    const e = ev();
    const records = roundRecords(
      e.players.map((p) => p.rank),
      2,
      e.rounds[0].boards.map((b) => ({ round: 1, board: b.board, white: b.white, black: b.black, result: b.board % 2 ? '1-0' : '1/2-1/2' })),
      eventByes(e, 1),
    );
    // Round 2: the first two boards only (the others not paired yet, or unpaired: blank).
    const r2 = e.rounds[1].boards.slice(0, 2);
    r2.forEach((b) => {
      records.get(b.white)![1] = { opponent: b.black, colour: 'w', code: '1' };
      records.get(b.black)![1] = { opponent: b.white, colour: 'b', code: '0' };
    });
    const totals = new Map([...records].map(([rank, rs]) => [rank, rs.reduce((s, r) => s + CODE_POINTS[r.code], 0)]));
    return formatTrf({
      ...report(
        e.players.map((p) => ({ ...p, points: totals.get(p.rank)!, placement: 1, rounds: records.get(p.rank)! })),
        2,
      ),
      roundDates: ['2018/02/13', '2018/02/14'],
      plannedRounds: 7,
      timeControlText: '60 min, sudden death',
      timeControl: '3600',
      teams: e.teams.map((t) => ({
        team: t.id,
        name: t.name,
        nickname: t.nickname,
        matchPoints: 1,
        gamePoints: t.players.reduce((s, p) => s + totals.get(p)!, 0),
        placement: 1,
        players: t.players,
      })),
      teamColourSequence: 'WBWB',
      pab: { matchPoints: 1, gamePoints: 2, teams: [5, 0] },
      forfeitedMatches: [{ type: '--', round: 1, white: 3, black: 4 }],
    });
  }
  const linesOf = (text: string, id: string) => text.split('\r\n').filter((l) => l.startsWith(id));

  it('tournament tags 012 … 142 and 222/352: the tag in columns 1-3, a blank, the value from column 5 (TRF16 tournament section); 142 is the planned total, not the rounds played', () => {
    const text = ivanovoRound1();
    const tag = (id: string) => linesOf(text, id).map((l) => [col(l, 1, 3), col(l, 4, 4), l.slice(4)]);
    expect(tag('012')).toEqual([['012', ' ', 'Test']]);
    expect(tag('022')).toEqual([['022', ' ', 'Ljubljana']]);
    expect(tag('032')).toEqual([['032', ' ', 'SLO']]);
    expect(tag('042')).toEqual([['042', ' ', '2007/08/16']]);
    expect(tag('052')).toEqual([['052', ' ', '2007/08/19']]);
    expect(tag('062')).toEqual([['062', ' ', '20']]);
    expect(tag('072')).toEqual([['072', ' ', String(ev().players.filter((p) => (p.rating ?? 0) > 0).length)]]);
    expect(tag('082')).toEqual([['082', ' ', '5']]);
    expect(tag('092')).toEqual([['092', ' ', 'Swiss']]);
    expect(tag('102')).toEqual([['102', ' ', 'Ana Srebrnič']]);
    expect(tag('122')).toEqual([['122', ' ', '60 min, sudden death']]);
    expect(tag('142')).toEqual([['142', ' ', '7']]); // TRF-2026 tag 142: number of rounds (ITDX)
    expect(tag('222')).toEqual([['222', ' ', '3600']]);
    expect(tag('352')).toEqual([['352', ' ', 'WBWB']]);
    // 132: round dates YY/MM/DD at 92-99, 102-109 (TRF16).
    const [dates] = linesOf(text, '132');
    expect([col(dates, 1, 3), col(dates, 92, 99), col(dates, 102, 109)]).toEqual(['132', '18/02/13', '18/02/14']);
    expect(col(dates, 4, 91).trim()).toBe('');
    // 112 one line per deputy.
    expect(linesOf(formatTrf({ ...report([], 0), deputyArbiters: ['A', 'B'] }), '112')).toEqual(['112 A', '112 B']);
  });

  it('XXR: the planned number of rounds for a pairing engine (JaVaFo AUM "XXR number"); read back, and refused below the rounds written', () => {
    const text = ivanovoRound1();
    expect(linesOf(text, 'XXR')).toEqual(['XXR 7']);
    expect(parseTrf(text).xxr).toBe(7);
    expect(parseTrf(text).tags.get('142')).toEqual(['7']);
    expect(() => formatTrf({ ...report([rozic], 3), plannedRounds: 2 })).toThrow(/tag 142: 2 planned rounds, fewer than the 3 rounds written/);
    expect(() => parseTrf('XXR seven')).toThrow(/TRF line 1, columns 5-: XXR must give the number of rounds/);
  });

  it('001 lines keep their full width: a player not paired in the last round ends "0000 -" and the blank result column (TRF16 92-99 + 10(r-1)); bbpPairings refuses a line that stops at the colour', () => {
    const text = ivanovoRound1();
    const players = linesOf(text, '001');
    expect(players).toHaveLength(20);
    // Every line runs to round 2's result column, 109, whatever it holds.
    for (const l of players) expect(l).toHaveLength(109);
    const e = ev();
    const paired = new Set(e.rounds[1].boards.slice(0, 2).flatMap((b) => [b.white, b.black]));
    const unpaired = players.find((l) => !paired.has(Number(col(l, 5, 8))) && col(l, 99, 99) === '1')!;
    expect([col(unpaired, 102, 105), col(unpaired, 106, 106), col(unpaired, 107, 107), col(unpaired, 108, 108), col(unpaired, 109, 109)]).toEqual([
      '0000',
      ' ',
      '-',
      ' ',
      ' ',
    ]);
    expect(unpaired.endsWith('0000 -  ')).toBe(true);
    // The team bye's players: H with 0000 and "-" in round 1 (positions 92-95, 97, 99).
    const bye = players.find((l) => Number(col(l, 5, 8)) === e.teams.find((t) => t.id === 5)!.players[0])!;
    expect([col(bye, 92, 95), col(bye, 97, 97), col(bye, 99, 99)]).toEqual(['0000', '-', 'H']);
    expect(checkTrf(text)).toEqual([]);
  });

  it('013 (TRF16 team section): name 5-36, players 37-40, 42-45, …; 310 (TRF-2026) beside it', () => {
    const text = ivanovoRound1();
    const [t1] = linesOf(text, '013');
    expect(linesOf(text, '013')).toHaveLength(5);
    expect([col(t1, 1, 3), col(t1, 5, 36).trim(), col(t1, 37, 40), col(t1, 42, 45), col(t1, 47, 50), col(t1, 52, 55)]).toEqual([
      '013',
      'Школа № 1',
      '   1',
      '   2',
      '   3',
      '   4',
    ]);
    expect(t1).toHaveLength(55);
    for (const c of [4, 41, 46, 51]) expect(col(t1, c, c)).toBe(' ');
    const [t310] = linesOf(text, '310');
    expect([col(t310, 1, 3), col(t310, 5, 7), col(t310, 74, 77), col(t310, 89, 92)]).toEqual(['310', '  1', '   1', '   4']);
    expect(t310).toHaveLength(92);
  });

  it('320 (TRF-2026 PAB): match points 5-8, game points 10-13, the PAB team per round at 15-17, 19-21 (000 = none); 330: type 5-6, round 8-10, White 12-14, Black 16-18', () => {
    const text = ivanovoRound1();
    const [pab] = linesOf(text, '320');
    expect([col(pab, 1, 3), col(pab, 5, 8), col(pab, 10, 13), col(pab, 15, 17), col(pab, 19, 21)]).toEqual(['320', ' 1.0', ' 2.0', '005', '000']);
    const [f] = linesOf(text, '330');
    expect([col(f, 1, 3), col(f, 5, 6), col(f, 8, 10), col(f, 12, 14), col(f, 16, 18)]).toEqual(['330', '--', '001', '003', '004']);
  });
});

describe('the TRF before round 1: players and no round columns, for a pairing engine to pair round 1 (FIDE TRF16, C.04 Annex 2; JaVaFo AUM XXR, XXC)', () => {
  function beforeRound1(options: { initialColour?: 'white' | 'black' } = {}): string {
    const raw = swissTournament();
    raw.events[0].rounds = [] as never;
    const journal = new Journal(':memory:');
    try {
      return eventTrf(journal, parseTournament(raw), raw.events[0].id, { upToRound: 0, ...options });
    } finally {
      journal.close();
    }
  }

  it('tags as after any round (142 and XXR the planned total), XXC the initial colour by lot, no 132 round dates', () => {
    const text = beforeRound1({ initialColour: 'black' });
    const lines = text.split('\r\n');
    expect(lines.filter((l) => /^(012|062|072|142|222|XXR|XXC|132) /.test(l))).toEqual([
      '012 Open Swiss',
      '062 7',
      '072 7',
      '142 3',
      '222 900+10',
      'XXR 3',
      'XXC black1',
    ]);
    expect(parseTrf(text).xxr).toBe(3);
    // bbpPairings reads "XXC white1|black1" (or 152) and refuses to pair round 1 without it.
    expect(beforeRound1({ initialColour: 'white' }).split('\r\n')).toContain('XXC white1');
    expect(
      beforeRound1()
        .split('\r\n')
        .some((l) => l.startsWith('XXC')),
    ).toBe(false);
  });

  it('001 lines stop at the rank column 86-89: every field at its TRF16 columns, nothing from column 90 on (no round played)', () => {
    const text = beforeRound1({ initialColour: 'white' });
    const players = text.split('\r\n').filter((l) => l.startsWith('001'));
    expect(players).toHaveLength(7);
    for (const [i, l] of players.entries()) {
      expect(l).toHaveLength(89); // bbpPairings needs at least 84 characters; TRF16 ends the fixed part at 89
      expect([col(l, 1, 3), col(l, 5, 8), col(l, 81, 84), col(l, 86, 89)]).toEqual(['001', String(i + 1).padStart(4), ' 0.0', '   1']);
      // Every separator blank, as in a line with rounds (the column test above).
      for (const c of [4, 9, 14, 48, 53, 57, 69, 80, 85]) expect(col(l, c, c)).toBe(' ');
    }
    expect([col(players[0], 15, 47), col(players[0], 49, 52)]).toEqual(['Prvi, Igralec'.padEnd(33), '2400']);
    // The same columns as a player line with rounds, cut before the first round field (92-99).
    expect(players[0]).toBe(
      playerLine({
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
      }),
    );
    expect(checkTrf(text)).toEqual([]);
    expect(parseTrf(text).players.map((p) => [p.rank, p.rounds.length, p.points])).toEqual([1, 2, 3, 4, 5, 6, 7].map((r) => [r, 0, 0]));
  });

  it('only when asked for: an export of an event with no games is still refused', () => {
    const raw = swissTournament();
    raw.events[0].rounds = [] as never;
    const journal = new Journal(':memory:');
    try {
      expect(() => eventTrf(journal, parseTournament(raw), raw.events[0].id)).toThrow(/event "open-swiss" has no games in the journal yet/);
    } finally {
      journal.close();
    }
  });
});

describe('TRF round trip and points check', () => {
  const code = fc.constantFrom<TrfCode>('1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z', ' ');
  const playerArb = (rank: number, rounds: number) =>
    fc
      .record({
        sex: fc.constantFrom<'m' | 'w' | null>('m', 'w', null),
        title: fc.constantFrom(null, 'GM', 'WFM', 'CM'),
        name: fc.stringMatching(/^[A-Za-zčšž][A-Za-zčšž ,.'-]{0,31}[a-z]$/),
        rating: fc.option(fc.integer({ min: 1000, max: 2900 }), { nil: null }),
        federation: fc.constantFrom(null, 'SLO', 'RUS'),
        fideId: fc.option(fc.integer({ min: 1, max: 99_999_999_999 }), { nil: null }),
        birthDate: fc.constantFrom(null, '2005/02/13'),
        codes: fc.array(code, { minLength: rounds, maxLength: rounds }),
      })
      .map((p): TrfPlayer => {
        // Byes and blanks have no opponent; everything else plays "the next rank" (mirroring is not checked here).
        const recs: RoundRecord[] = p.codes.map((c) =>
          ['H', 'F', 'U', 'Z', ' '].includes(c) ? { opponent: null, colour: null, code: c } : { opponent: rank, colour: 'w', code: c },
        );
        return { ...p, rank, points: recs.reduce((s, r) => s + CODE_POINTS[r.code], 0), placement: rank, rounds: recs };
      });

  it('parseTrf reads back what formatTrf wrote, field by field (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => playerArb(i + 1, 3)))),
        (players) => {
          // Lines only (no checkTrf): the generated pairings need not mirror; this checks the columns.
          const text = players.map(playerLine).join('\n');
          const parsed = parseTrf(text);
          expect(
            parsed.players.map((p) => ({
              rank: p.rank,
              sex: p.sex || null,
              title: p.title || null,
              name: p.name,
              rating: p.rating,
              federation: p.federation || null,
              fideId: p.fideId,
              birthDate: p.birthDate || null,
              points: p.points,
              placement: p.placement,
              rounds: p.rounds,
            })),
          ).toEqual(
            players.map((p) => ({
              rank: p.rank,
              sex: p.sex,
              title: p.title,
              name: p.name.trim(),
              rating: p.rating,
              federation: p.federation,
              fideId: p.fideId,
              birthDate: p.birthDate,
              points: p.points,
              placement: p.placement,
              rounds: p.rounds.map((r) => ({ ...r, colour: r.colour })),
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('checkTrf: listed points that differ from the results are an error naming line and columns 81-84', () => {
    const records = roundRecords([1, 2], 1, [{ round: 1, board: 1, white: 1, black: 2, result: '1-0' }], []);
    const players: TrfPlayer[] = [1, 2].map((rank) => ({
      ...rozic,
      rank,
      name: `P${rank}`,
      points: rank === 1 ? 1 : 0,
      placement: rank,
      rounds: records.get(rank)!,
    }));
    const good = formatTrf(report(players, 1));
    expect(checkTrf(good)).toEqual([]);
    const bad = good.replace(/^(001 {4}2.{72}) 0\.0/m, '$1 1.0');
    expect(bad).not.toBe(good);
    expect(checkTrf(bad)).toEqual([{ line: expect.any(Number), columns: '81-84', message: 'player 2 lists 1.0 points but the results give 0.0' }]);
    // The writer refuses to produce such a file.
    players[1].points = 1;
    expect(() => formatTrf(report(players, 1))).toThrow(TrfError);
    expect(() => formatTrf(report(players, 1))).toThrow(/columns 81-84: player 2 lists 1\.0 points but the results give 0\.0/);
  });

  it("checkTrf: a game must appear on both players' lines, mirrored", () => {
    const records = roundRecords([1, 2], 1, [{ round: 1, board: 1, white: 1, black: 2, result: '1-0' }], []);
    records.get(2)![0].code = '1'; // both claim the win
    const players: TrfPlayer[] = [1, 2].map((rank) => ({ ...rozic, rank, name: `P${rank}`, points: 1, placement: 1, rounds: records.get(rank)! }));
    expect(() => formatTrf(report(players, 1))).toThrow(/round 1: player 1 vs 2 is not mirrored/);
  });

  it('TRF16 codes: forfeits + -, a game of less than one move W D L (not rated), draws =', () => {
    expect(codesFor({ round: 1, board: 1, white: 1, black: 2, result: '+-' })).toEqual({ white: '+', black: '-' });
    expect(codesFor({ round: 1, board: 1, white: 1, black: 2, result: '--' })).toEqual({ white: '-', black: '-' });
    expect(codesFor({ round: 1, board: 1, white: 1, black: 2, result: '0-1', movesPlayed: 0 })).toEqual({ white: 'L', black: 'W' });
    expect(codesFor({ round: 1, board: 1, white: 1, black: 2, result: '1/2-1/2', movesPlayed: 0 })).toEqual({ white: 'D', black: 'D' });
    expect(codesFor({ round: 1, board: 1, white: 1, black: 2, result: '1/2-1/2', movesPlayed: 12 })).toEqual({ white: '=', black: '=' });
  });

  it('the parser names line and columns of a bad field', () => {
    const l = playerLine(rozic).replace(/^(.{98})1/, '$1x');
    expect(() => parseTrf(`012 Test\n${l}`)).toThrow(TrfParseError);
    expect(() => parseTrf(`012 Test\n${l}`)).toThrow(/TRF line 2, columns 99: round 1 result code "x" is not a TRF16 code/);
    expect(() => parseTrf('001 abcd')).toThrow(/TRF line 1, columns 5-8: starting rank must be digits, got "abcd"/);
  });

  it('tag 222 both ways: `40/5400+30:900+30` and armageddon `W360-B300`', () => {
    expect(formatTimeControl(parseTag222('40/5400+30:900+30'))).toBe('40/5400+30:900+30');
    expect(formatTimeControl(parseTag222('W360-B300'))).toBe('W360-B300');
    expect(() => parseTag222('W360-Bx')).toThrow(/tag 222 "W360-Bx"/);
  });
});

describe('TRF pairings import', () => {
  it('reads back the Ivanovo round pairings, team matches and the team bye from a TRF', () => {
    const hall = loadTournamentFile(fileURLToPath(new URL('../../domain/fixtures/ivanovo-white-rook-2018.json', import.meta.url)));
    const ev = hall.events[0];
    // A pairing program's TRF for round 1: paired, results not yet in (result column blank).
    const records = roundRecords(
      ev.players.map((p) => p.rank),
      1,
      [],
      [],
    );
    for (const b of ev.rounds[0].boards) {
      records.get(b.white)![0] = { opponent: b.black, colour: 'w', code: ' ' };
      records.get(b.black)![0] = { opponent: b.white, colour: 'b', code: ' ' };
    }
    for (const p of [17, 18, 19, 20]) records.get(p)![0] = { opponent: null, colour: null, code: 'H' };
    const text = formatTrf({
      ...report(
        ev.players.map((p) => ({ ...p, points: [17, 18, 19, 20].includes(p.rank) ? 0.5 : 0, placement: 1, rounds: records.get(p.rank)! })),
        1,
      ),
      timeControl: '3600',
      teams: ev.teams.map((t) => ({
        team: t.id,
        name: t.name,
        nickname: t.nickname,
        matchPoints: 0,
        gamePoints: t.id === 5 ? 2 : 0,
        placement: 1,
        players: t.players,
      })),
      pab: { matchPoints: 1, gamePoints: 2, teams: [5] },
    });
    const imported = importTrf(text, { id: 'ivanovo-trf', defaultTimeMs: 15 * 60_000 });
    expect(imported.kind).toBe('team');
    expect(formatTimeControl(imported.timeControl)).toBe('3600');
    expect(imported.timeControl.defaultTimeMs).toBe(15 * 60_000);
    expect(imported.rounds[0].teamMatches).toEqual(ev.rounds[0].teamMatches);
    expect(imported.rounds[0].byes).toEqual([{ player: null, team: 5, kind: 'H' }]);
    expect(imported.players.find((p) => p.rank === 9)).toMatchObject({ name: 'Shkola3, Igrok1', team: 3, federation: 'RUS' });
    // As a tournament file (chessclock tournament import-trf): the loader reads back the same event.
    const file = tournamentFileOf(imported);
    const reread = parseTournament(JSON.parse(JSON.stringify(file))).events[0];
    expect(reread.rounds).toEqual(imported.rounds);
    expect(reread.players).toEqual(imported.players);
    expect(reread.teams).toEqual(imported.teams);
    expect(formatTimeControl(reread.timeControl)).toBe('3600');
    expect([reread.timeControl.defaultTimeMs, reread.plannedRounds, reread.kind]).toEqual([15 * 60_000, 7, 'team']);
  });

  it("keeps the pairing program's board order: FIDE board order (C.04.2 general handling rules; C.04.1 F.1) — score of the higher player, sum of scores, rank of the higher player — not White's rank", () => {
    // Round 1: 1-4 1-0, 5-2 0-1, 3-6 ½-½. Round 2 as a Dutch program pairs it: 2-1, 6-3, 4-5.
    const games = [
      { round: 1, board: 1, white: 1, black: 4, result: '1-0' as const },
      { round: 1, board: 2, white: 5, black: 2, result: '0-1' as const },
      { round: 1, board: 3, white: 3, black: 6, result: '1/2-1/2' as const },
    ];
    const records = roundRecords([1, 2, 3, 4, 5, 6], 2, games, []);
    for (const [w, b] of [
      [2, 1],
      [6, 3],
      [4, 5],
    ]) {
      records.get(w)![1] = { opponent: b, colour: 'w', code: ' ' };
      records.get(b)![1] = { opponent: w, colour: 'b', code: ' ' };
    }
    const players = [1, 2, 3, 4, 5, 6].map((rank) => ({
      ...rozic,
      rank,
      name: `P${rank}`,
      fideId: null,
      points: records.get(rank)!.reduce((s, r) => s + CODE_POINTS[r.code], 0),
      placement: rank,
      rounds: records.get(rank)!,
    }));
    const imported = importTrf(formatTrf(report(players, 2)), { id: 'swiss' });
    expect(imported.rounds[1].boards).toEqual([
      { board: 1, white: 2, black: 1 },
      { board: 2, white: 6, black: 3 },
      { board: 3, white: 4, black: 5 },
    ]);
    expect(imported.rounds[0].boards).toEqual([
      { board: 1, white: 1, black: 4 },
      { board: 2, white: 5, black: 2 },
      { board: 3, white: 3, black: 6 },
    ]);
    expect(imported.plannedRounds).toBe(7); // tag 142 / XXR
  });

  it('refuses a name with a control character, naming the line (PGN standard §7: it would split a PGN tag line)', () => {
    const text = formatTrf(report([{ ...rozic, rounds: [], points: 0 }], 0)).replace('Rožič, Vesna', 'Rožič,\tVesna');
    expect(() => importTrf(text, { id: 'x' })).toThrow(/TRF line \d+: player 1's name \(columns 15-47\) holds the control character U\+0009 at position 7/);
  });

  it('a pairing engine\'s pairs file (JaVaFo/bbpPairings -p: the count, then "white black", 0 for the bye) keeps its board order; a bad line is named', () => {
    expect(parsePairsFile('4\r\n6 3\r\n2 1\r\n4 5\r\n7 0\r\n')).toEqual([
      { board: 1, white: 6, black: 3 },
      { board: 2, white: 2, black: 1 },
      { board: 3, white: 4, black: 5 },
      { board: 4, white: 7, black: null },
    ]);
    expect(() => parsePairsFile('2\n1 2\n')).toThrow(/line 1 announces 2 pairs, 1 follow/);
    expect(() => parsePairsFile('2\n1 2\n3 x\n')).toThrow(/pairs file line 3: "white black"/);
    expect(() => parsePairsFile('2\n1 2\n2 3\n')).toThrow(/pairs file line 3: player 2 is paired twice/);
  });
});

// The tournament file forgives and explains (docs/tournament.md "The file", "What is checked"):
// every problem at once in the order of the text, a trailing comma accepted, syntax errors in
// words, dates checked against each other, the valid values of an unknown one listed, and one
// mistake said once (no knock-on problems where its field is named again).

import * as jsonc from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { parseTournamentText, TournamentFileError } from '../tournament-file.ts';
import { SYNTAX_SENTENCES } from './syntax-errors.ts';

function issuesOf(text: string): string[] {
  try {
    parseTournamentText(text);
  } catch (err) {
    if (err instanceof TournamentFileError) return err.issues;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

/** A file of one individual event; `event` lines go into the event object, `rounds` into its rounds. */
function file(event: string[], rounds: string[] = []): string {
  return [
    '{',
    '  "events": [{',
    '    "id": "open", "name": "Open", "kind": "individual", "timeControl": "classical",',
    ...event.map((l) => `    ${l}`),
    '    "players": [',
    '      { "rank": 1, "name": "A, A" },',
    '      { "rank": 2, "name": "B, B" },',
    '      { "rank": 3, "name": "C, C" },',
    '      { "rank": 4, "name": "D, D" }',
    '    ],',
    '    "rounds": [',
    ...rounds.map((l, i) => `      ${l}${i < rounds.length - 1 ? ',' : ''}`),
    '    ]',
    '  }]',
    '}',
  ].join('\n');
}

const round = (n: number, when: string, white = 1, black = 2) => `{ "number": ${n}, ${when} "boards": [{ "board": 1, "white": ${white}, "black": ${black} }] }`;

describe('every problem at once, in the order of the text (docs/tournament.md "The file")', () => {
  it("reports a bad startDate and a bad round start together (the event's own fields were read only when the rest was sound)", () => {
    const text = file(['"startDate": "2026/13/05",'], [round(1, '"start": "2026-05-02 10:00",')]);
    expect(issuesOf(text)).toEqual([
      'line 4:5 events[0].startDate: "2026/13/05" is not a day of the calendar (month 1-12, and a day the month has)',
      'line 12:22 events[0].rounds[0].start: must be an ISO date-time with offset, e.g. "2007-08-16T16:00:00+02:00", got "2026-05-02 10:00"',
    ]);
  });

  it('reports a key written twice with the problems of the fields, each in its place in the text', () => {
    const text = file(['"startDate": "2026/05/01", "startDate": "2026/05/02",'], [round(1, '', 1, 9)]).replace(
      '"name": "C, C"',
      '"name": "C, C", "federation": "Slovenia"',
    );
    expect(issuesOf(text)).toEqual([
      'line 4:32 events[0].startDate: duplicate key "startDate", first written at line 4:5; a key is written once per object',
      'line 8:36 events[0].players[2].federation: must be a 3-letter FIDE code, got "Slovenia"',
      "line 12:60 events[0].rounds[0].boards[0].black: no player with starting rank 9 (the players' ranks: 1-4)",
    ]);
  });

  it('lists the problems of one line by column, whatever order the fields are checked in', () => {
    const text = file(['"hallFirstTable": 0, "chiefArbiter": 7, "type": ["Swiss"],']).replace('"kind": "individual"', '"kind": "individul"');
    expect(issuesOf(text)).toEqual([
      'line 3:35 events[0].kind: must be one of individual, knockout, team, got "individul" (did you mean "individual"?)',
      'line 4:5 events[0].hallFirstTable: must be a whole number from 1 to 9999, got 0',
      'line 4:26 events[0].chiefArbiter: must be a non-empty string, got 7',
      'line 4:45 events[0].type: must be a non-empty string, got ["Swiss"]',
    ]);
  });
});

describe('syntax (JSON with comments; docs/tournament.md "The file")', () => {
  it('accepts a comma after the last field of an object and the last item of a list', () => {
    const text = file(['"city": "Ljubljana",'], [round(1, '')])
      .replace('"name": "D, D" }', '"name": "D, D", },')
      .replace(/\]\n {2}\}\]/, '],\n  },],');
    expect(text).toMatch(/"D, D", },\n/);
    const hall = parseTournamentText(text);
    expect(hall.events[0].players.map((p) => p.rank)).toEqual([1, 2, 3, 4]);
    expect(hall.events[0].rounds).toHaveLength(1);
  });

  it('says each syntax error in words at its line:column, with the position it refers to', () => {
    const cases: [string, string][] = [
      [
        '{\n  "events": [{ "id": "a" }]\n  "hall": {}\n}',
        'line 3:3: a comma is missing after the value that ends at 2:27 (fields and list items are separated by commas)',
      ],
      ['{ "events": [1,,2] }', 'line 1:16: a value is missing after the comma at 1:15: an extra comma?'],
      ['{ "events": }', 'line 1:13: a value is missing after the colon at 1:11'],
      ['{ "events" [] }', 'line 1:12: a colon (:) is missing after the field name that ends at 1:10'],
      ["{ 'events': [] }", `line 1:3: 'events' is in single quotes: texts and field names are written in double quotes ("…")`],
      [
        '{ "events": [{ "timeControl": classical }] }',
        'line 1:31: classical is not a JSON value: texts and field names are written in double quotes ("classical"); the only words without quotes are true, false and null',
      ],
      ['{ "hall": { "name": "Dom }\n}', 'line 1:21: unterminated string: a text is not closed with a double quote before the end of its line'],
      ['{ "events": [\n', 'line 2:1: the file ends before the list opened at 1:13 is closed with ]'],
      ['{ "events": [ { "id": "a" }\n}', 'line 2:1: } where ] should close the list opened at 1:13'],
      ['{ "events": [] }}', `line 1:17: "}" after the end of the file's object: an extra } or ]?`],
      [
        '{ "hall": { "name": "a\\qb" } }',
        'line 1:21: "\\"a\\\\qb\\"" holds a backslash escape JSON does not know (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; a backslash itself is written \\\\)',
      ],
      ['{ "events": 01 }', 'line 1:14: 01 is not a number as JSON writes it: no leading zero (write 1, or 0.5)'],
      ['/* the hall', 'line 1:1: a comment opened with /* is never closed with */'],
      ['', 'line 1:1: the file is empty: a tournament file is one object, { "events": [ … ] }'],
    ];
    for (const [text, sentence] of cases) expect(issuesOf(text), text).toEqual([sentence]);
  });

  it("says each of an organiser's syntax mistakes in one pass, one line each", () => {
    const text = [
      '{',
      '  "events": [{',
      '    "id": "e1", "name": "Open" "kind": "individual",',
      '    "timeControl": "classical",',
      '    "players": [',
      '      { "rank": 1, "name": "A, A" }',
      '      { "rank": 2, "name": "B, B" },',
      '      { "rank": 3, "name": \'C\' },',
      '      { "rank": 4, name: "D" },',
      '    ],',
      '    "rated": True,',
      '    "hallFirstTable": +1,',
      '    "city": "Lj',
      '  }]',
      '}',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      'line 3:32: a comma is missing after the value that ends at 3:30 (fields and list items are separated by commas)',
      'line 7:7: a comma is missing after the value that ends at 6:35 (fields and list items are separated by commas)',
      `line 8:28: 'C' is in single quotes: texts and field names are written in double quotes ("…")`,
      'line 9:20: name is not a JSON value: texts and field names are written in double quotes ("name"); the only words without quotes are true, false and null',
      'line 11:14: True is not a JSON value: write it in lower case, true',
      'line 12:23: +1 is not a number as JSON writes it: no + sign (write 1)',
      'line 13:13: unterminated string: a text is not closed with a double quote before the end of its line',
    ]);
    // One bracket of the wrong kind: said once, not again where the brackets after it no longer pair.
    expect(issuesOf('{ "events": [ { "id": "a" ]\n}')).toEqual(['line 1:27: ] where } should close the object opened at 1:15']);
  });

  it('has a sentence for every ParseErrorCode jsonc-parser reports (1-16), none left as a code name', () => {
    const names: string[] = [];
    for (let code = 1; code <= 16; code++) names.push(jsonc.printParseErrorCode(code));
    expect(names).not.toContain('<unknown ParseErrorCode>');
    expect(Object.keys(SYNTAX_SENTENCES).sort()).toEqual([...names].sort());
  });

  it("reports two mistakes on two lines, and one mistake once (not the parser's follow-on errors on its line)", () => {
    const text = '{\n  "hall": { \'name\': "Dom" },\n  "events": [1 2]\n}';
    expect(issuesOf(text)).toEqual([
      `line 2:13: 'name' is in single quotes: texts and field names are written in double quotes ("…")`,
      'line 3:16: a comma is missing after the value that ends at 3:14 (fields and list items are separated by commas)',
    ]);
  });
});

describe('dates checked against each other (docs/tournament.md "Dates")', () => {
  const dates = ['"startDate": "2026/05/01", "endDate": "2026/05/04",'];

  it('refuses an endDate before the startDate, said once: the rounds are not measured against dates that contradict each other', () => {
    expect(issuesOf(file(['"startDate": "2026/05/04", "endDate": "2026/05/01",'], [round(1, '"date": "2026/05/04",')]))).toEqual([
      'line 4:32 events[0].endDate: 2026/05/01 is before the startDate 2026/05/04; an event ends on or after the day it starts',
    ]);
  });

  it("refuses a round outside the event's dates, rounds going backwards, and a start not on its round's date; two rounds on one day pass", () => {
    const rounds = [
      round(1, '"date": "2026/04/30",'), // before the start
      round(2, '"date": "2026/05/02", "start": "2026-05-02T10:00:00+02:00",', 3, 4),
      round(3, '"date": "2026/05/02", "start": "2026-05-02T16:00:00+02:00",', 2, 1), // same day, later: fine
      round(4, '"date": "2026/05/01",', 4, 3), // backwards
      round(5, '"date": "2026/05/03", "start": "2026-05-04T10:00:00+02:00",', 1, 3), // start on another day
      round(6, '"date": "2026/05/05",', 3, 1), // after the end
    ];
    expect(issuesOf(file(dates, rounds))).toEqual([
      "line 12:22 events[0].rounds[0].date: 2026/04/30 is before the event's startDate 2026/05/01 (events[0].startDate)",
      'line 15:22 events[0].rounds[3].date: 2026/05/01 is before 2026/05/02, the day of the round before (events[0].rounds[2]); rounds are played in order',
      "line 16:44 events[0].rounds[4].start: 2026-05-04T10:00:00+02:00 is not on the round's date 2026/05/03",
      "line 17:22 events[0].rounds[5].date: 2026/05/05 is after the event's endDate 2026/05/04 (events[0].endDate)",
    ]);
  });

  it('says several rounds outside the event once, at the event date they point at', () => {
    const rounds = [round(1, '"date": "2026/05/04",'), round(2, '"date": "2026/05/05",', 3, 4), round(3, '"date": "2026/05/06",', 2, 1)];
    expect(issuesOf(file(['"startDate": "2026/05/01", "endDate": "2026/05/03",'], rounds))).toEqual([
      'line 4:32 events[0].endDate: 2026/05/03: 3 rounds are after it (rounds[0] on 2026/05/04, rounds[1] on 2026/05/05, rounds[2] on 2026/05/06); is the endDate right?',
    ]);
  });

  it('refuses a start not after the start of the round before', () => {
    const rounds = [round(1, '"start": "2026-05-02T16:00:00+02:00",'), round(2, '"start": "2026-05-02T14:00:00Z",', 3, 4)];
    expect(issuesOf(file(dates, rounds))).toEqual([
      'line 13:22 events[0].rounds[1].start: 2026-05-02T14:00:00Z is not after 2026-05-02T16:00:00+02:00, the start of the round before (events[0].rounds[0]); rounds are played in order',
    ]);
  });

  it('says a mistyped round date once: the next round is not also "out of order"', () => {
    const rounds = [round(1, '"date": "2026/05/02",'), round(2, '"date": "2026/06/03",', 3, 4), round(3, '"date": "2026/05/03",', 2, 1)];
    expect(issuesOf(file(dates, rounds))).toEqual([
      "line 13:22 events[0].rounds[1].date: 2026/06/03 is after the event's endDate 2026/05/04 (events[0].endDate)",
    ]);
  });

  it('refuses a day the calendar does not have (31 April, 29 February 2026), in a date and in a start', () => {
    expect(issuesOf(file(['"startDate": "2026/04/31",'], [round(1, '"start": "2026-02-29T10:00:00Z",')]))).toEqual([
      'line 4:5 events[0].startDate: "2026/04/31" is not a day of the calendar (month 1-12, and a day the month has)',
      'line 12:22 events[0].rounds[0].start: must be an ISO date-time with offset, e.g. "2007-08-16T16:00:00+02:00", got "2026-02-29T10:00:00Z"',
    ]);
    expect(() => parseTournamentText(file(['"startDate": "2028/02/29",'], [round(1, '"start": "2028-02-29T10:00:00Z",')]))).not.toThrow();
  });
});

describe('an unknown value is told with the valid ones (docs/tournament.md "The file")', () => {
  it('lists the presets, and names the one a typo away', () => {
    expect(issuesOf(file([]).replace('"timeControl": "classical"', '"timeControl": "rapidd"'))).toEqual([
      'line 3:57 events[0].timeControl: unknown preset "rapidd" (did you mean "rapid"?); the presets are: classical, rapid, armageddon, sudden-death-60; use an object for other controls',
    ]);
    expect(issuesOf(file([]).replace('"timeControl": "classical"', '"timeControl": { "preset": "clasical" }'))).toEqual([
      'line 3:57 events[0].timeControl: unknown preset "clasical" (did you mean "classical"?) (known: classical, rapid, armageddon, sudden-death-60)',
    ]);
  });

  it('names the field a typo away, and the ranks there are for a player the event does not have', () => {
    expect(issuesOf(file(['"cheifArbiter": "Ana",'], [round(1, '', 1, 7)]))).toEqual([
      'line 4:5 events[0].cheifArbiter: unknown field (did you mean "chiefArbiter"?) (known: id, name, city, federation, startDate, endDate, chiefArbiter, deputyArbiters, kind, type, timeControl, rated, hallFirstTable, boardsPerTeam, players, teams, rounds, plannedRounds, roundRobinUpTo, appeal, knockout, teamScoring, pairingEngine, broadcast)',
      "line 12:60 events[0].rounds[0].boards[0].black: no player with starting rank 7 (the players' ranks: 1-4)",
    ]);
  });
});

describe('an unknown value is told with the valid ones: codes and players', () => {
  it('a bye code in the wrong case, a sex, and a firstWhite not of the match: the valid ones named (TRF16 bye codes H F U Z; position 10 m/w)', () => {
    const text = file([], [round(1, '"byes": [{ "player": 3, "kind": "h" }],')]).replace('"name": "D, D"', '"name": "D, D", "sex": "W"');
    expect(issuesOf(text)).toEqual([
      'line 8:36 events[0].players[3].sex: must be "m" or "w" (TRF16 position 10), got "W" (did you mean "w"?)',
      'line 11:46 events[0].rounds[0].byes[0].kind: must be one of H F U Z (TRF16 bye codes), got "h" (did you mean "H"?)',
    ]);
    const ko = [
      '{ "events": [{ "id": "ko", "name": "KO", "kind": "knockout", "timeControl": "classical",',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }, { "rank": 3, "name": "C" }],',
      '  "rounds": [{ "number": 1, "knockout": [{ "board": 1, "players": [1, 2], "firstWhite": 3 }] }] }] }',
    ].join('\n');
    expect(issuesOf(ko)).toEqual(["line 3:75 events[0].rounds[0].knockout[0].firstWhite: must be one of the match's players (player 1 or player 2), got 3"]);
  });
});

describe('one mistake is said once (docs/tournament.md "The file")', () => {
  it('a player refused for a bad rank or a missing name: the rounds that pair that rank report nothing more', () => {
    const text = file([], [round(1, '', 1, 2), round(2, '', 2, 10000), round(3, '', 10000, 1)])
      .replace('{ "rank": 2, "name": "B, B" }', '{ "rank": 2 }')
      .replace('{ "rank": 3, "name": "C, C" }', '{ "rank": 10000, "name": "C, C" }');
    expect(issuesOf(text)).toEqual([
      'line 6:7 events[0].players[1].name: missing',
      'line 7:9 events[0].players[2].rank: must be a whole number from 1 to 9999, got 10000',
    ]);
    // A rank written in quotes is refused once; the rounds name the number it means.
    const quoted = file([], [round(1, '', 1, 2), round(2, '', 2, 1)]).replace('{ "rank": 2, "name": "B, B" }', '{ "rank": "2", "name": "B, B" }');
    expect(issuesOf(quoted)).toEqual(['line 6:9 events[0].players[1].rank: must be a whole number from 1 to 9999, got "2"']);
  });

  it('a misspelt time-control field is the one problem, not also the field it should have been', () => {
    const text = file([]).replace('"timeControl": "classical"', '"timeControl": { "white": "40/5400+30:900+30", "blak": "40/5400+30:900+30" }');
    expect(issuesOf(text)).toEqual([
      'line 3:104 events[0].timeControl.blak: unknown field (did you mean "black"?) (known: preset, timeControl, white, black, defaultTime, incrementTiming)',
    ]);
  });

  it('a team with a missing name, and a team listing a refused player: the players, the teams and the matches that name them report nothing more', () => {
    const team = [
      '{ "events": [{ "id": "t", "name": "T", "kind": "team", "boardsPerTeam": 2, "timeControl": "classical",',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2 }, { "rank": 3, "name": "C" }, { "rank": 4, "name": "D" }],',
      '  "teams": [{ "id": 1, "name": "One", "players": [1, 2] }, { "id": 2, "players": [3, 4] }, { "id": 0, "name": "Zero", "players": [] }],',
      '  "rounds": [{ "number": 1, "teamMatches": [{ "white": 1, "black": 2, "boards": [{ "white": 1, "black": 3 }, { "white": 4, "black": 2 }] }],',
      '              "byes": [{ "team": 0, "kind": "F" }] }]',
      '}] }',
    ].join('\n');
    expect(issuesOf(team)).toEqual([
      'line 2:43 events[0].players[1].name: missing',
      'line 3:60 events[0].teams[1].name: missing',
      'line 3:94 events[0].teams[2].id: must be a whole number from 1 to 999, got 0',
    ]);
  });

  it("a knockout player refused: the match's firstWhite and the final that takes the match's winner report nothing more", () => {
    const text = [
      '{ "events": [{ "id": "ko", "name": "KO", "kind": "knockout", "timeControl": "classical",',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }, { "rank": 3, "name": "C" }, { "rank": 4 }],',
      '  "rounds": [',
      '    { "number": 1, "knockout": [{ "board": 1, "players": [1, 4], "firstWhite": 4 }, { "board": 2, "players": [2, 3] }] },',
      '    { "number": 2, "knockout": [{ "board": 1, "players": [{ "winnerOf": { "round": 1, "board": 1 } }, { "winnerOf": { "round": 1, "board": 2 } }] }] }',
      '  ] }] }',
    ].join('\n');
    expect(issuesOf(text)).toEqual(['line 2:99 events[0].players[3].name: missing']);
  });

  it('an event refused for a problem of its own still has its id compared, and a later event is named by its place in the file', () => {
    const ev = (id: string, extra: string) =>
      `{ "id": "${id}", "name": "N", "kind": "individual", "timeControl": "classical", ${extra} "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }], "rounds": [{ "number": 1, "boards": [{ "board": 1, "white": 1, "black": 2 }] }] }`;
    const text = [
      '{ "events": [',
      `  ${ev('a', '"plannedRounds": 0,')},`,
      `  ${ev('a', '"hallFirstTable": 3,')},`,
      `  ${ev('c', '"hallFirstTable": 3,')}`,
      '] }',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      'line 2:79 events[0].plannedRounds: must be a whole number from 1 to 999, got 0',
      'line 3:5 events[1].id: event id "a" is also used by events[0]',
      'line 4:79 events[2].hallFirstTable: hall tables 3-3 of "c" overlap tables 3-3 of "a"; set hallFirstTable so events share no table',
    ]);
  });

  it('a misspelt kind: the event is checked as the kind a typo away, its knockout sections not refused as well', () => {
    const text = [
      '{ "events": [{ "id": "ko", "name": "KO", "kind": "knockot", "timeControl": "classical", "knockout": { "seed": 1 },',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }],',
      '  "rounds": [{ "number": 1, "knockout": [{ "board": 1, "players": [1, 2] }] }] }] }',
    ].join('\n');
    expect(issuesOf(text)).toEqual(['line 1:42 events[0].kind: must be one of individual, knockout, team, got "knockot" (did you mean "knockout"?)']);
  });

  it('a boardsPerTeam refused does not also count the boards of every match', () => {
    const text = [
      '{ "events": [{ "id": "t", "name": "T", "kind": "team", "boardsPerTeam": 0, "timeControl": "classical",',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }, { "rank": 3, "name": "C" }, { "rank": 4, "name": "D" }],',
      '  "teams": [{ "id": 1, "name": "One", "players": [1, 2] }, { "id": 2, "name": "Two", "players": [3, 4] }],',
      '  "rounds": [{ "number": 1, "teamMatches": [{ "white": 1, "black": 2, "boards": [{ "white": 1, "black": 3 }, { "white": 4, "black": 2 }] }] }]',
      '}] }',
    ].join('\n');
    expect(issuesOf(text)).toEqual(['line 1:56 events[0].boardsPerTeam: must be a whole number from 1 to 14, got 0']);
  });

  it('a missing kind: the event is checked as the kind its sections show, its knockout not refused as well', () => {
    const text = [
      '{ "events": [{ "id": "ko", "name": "KO", "timeControl": "classical",',
      '  "players": [{ "rank": 1, "name": "A" }, { "rank": 2, "name": "B" }],',
      '  "rounds": [{ "number": 1, "knockout": [{ "board": 1, "players": [1, 2] }] }] }] }',
    ].join('\n');
    expect(issuesOf(text)).toEqual(['line 1:14 events[0].kind: missing: one of individual, knockout, team (the event\'s sections look like "knockout")']);
  });
});

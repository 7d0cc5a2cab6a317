import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatTimeControl } from '../../protocol/time-control.ts';
import { loadTournamentFile, parseTournament, TournamentFileError } from './tournament-file.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function issuesOf(value: unknown): string[] {
  try {
    parseTournament(value);
  } catch (err) {
    if (err instanceof TournamentFileError) return err.issues;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

const minimal = () => ({
  events: [
    {
      id: 'e1',
      name: 'Open',
      kind: 'individual',
      timeControl: 'classical',
      players: [
        { rank: 1, name: 'A, A' },
        { rank: 2, name: 'B, B' },
        { rank: 3, name: 'C, C' },
      ],
      rounds: [{ number: 1, boards: [{ board: 1, white: 1, black: 2 }], byes: [{ player: 3, kind: 'U' }] }],
    },
  ],
});

describe('tournament file', () => {
  it('loads the Slovenian final: knockout pairings, drawn colours, the classical preset, two events in one hall', () => {
    const hall = loadTournamentFile(fixture('slovenian-final-2007.json'));
    expect(hall.events.map((e) => e.id)).toEqual(['slo-w-2007', 'slo-open-2007']);
    const ev = hall.events[0];
    expect(ev.kind).toBe('knockout');
    expect(formatTimeControl(ev.timeControl)).toBe('40/5400+30:900+30');
    // Regulation art. 3: rapid play-off half an hour after the last game.
    expect(ev.knockout).toMatchObject({ breakBeforeRapidMs: 30 * 60_000, breakBeforeArmageddonMs: 0, seed: 2007 });
    expect(ev.rounds[0].knockout[0]).toMatchObject({ board: 1, players: [{ rank: 1 }, { rank: 4 }], firstWhite: 1 });
    expect(ev.rounds[0].knockout[0].classicalStartsUtcMs[0]).toBe(Date.UTC(2007, 7, 16, 14, 0));
    // Art. 3: knockout ("po pokalnem sistemu"): the final is played by the semifinal winners, colours drawn.
    expect(ev.rounds[1].knockout[0].players).toEqual([{ winnerOf: { round: 1, board: 1 } }, { winnerOf: { round: 1, board: 2 } }]);
    expect(ev.rounds[1].knockout[0].firstWhite).toBeNull();
    expect(hall.events[1].hallFirstTable).toBe(3);
  });

  describe("knockout rounds paired from earlier results (Slovenian women's final 2007: the final between the semifinal winners)", () => {
    type Entrant = number | Record<string, unknown>;
    const knockout = (round2: { board: number; players: Entrant[]; firstWhite?: number | null }[], round3?: typeof round2) => ({
      events: [
        {
          id: 'ko',
          name: 'KO',
          kind: 'knockout',
          timeControl: 'classical',
          players: [1, 2, 3, 4, 5].map((rank) => ({ rank, name: `P${rank}` })),
          rounds: [
            {
              number: 1,
              knockout: [
                { board: 1, players: [1, 4], firstWhite: 1 },
                { board: 2, players: [2, 3] },
              ],
            },
            { number: 2, knockout: round2 },
            ...(round3 ? [{ number: 3, knockout: round3 }] : []),
          ],
        },
      ],
    });
    const W = (round: number, board: number) => ({ winnerOf: { round, board } });
    const L = (round: number, board: number) => ({ loserOf: { round, board } });

    it('accepts a final of the winners and a match for 3rd place of the losers', () => {
      const ev = parseTournament(
        knockout([
          { board: 1, players: [W(1, 1), W(1, 2)] },
          { board: 2, players: [L(1, 1), L(1, 2)], firstWhite: null },
        ]),
      ).events[0];
      expect(ev.rounds[1].knockout).toEqual([
        { board: 1, players: [W(1, 1), W(1, 2)], firstWhite: null, classicalStartsUtcMs: [] },
        { board: 2, players: [L(1, 1), L(1, 2)], firstWhite: null, classicalStartsUtcMs: [] },
      ]);
      // A player not in round 1 (a seeded entry) may meet a winner; references reach any earlier round.
      const later = parseTournament(knockout([{ board: 1, players: [W(1, 1), W(1, 2)] }], [{ board: 1, players: [5, W(2, 1)] }])).events[0];
      expect(later.rounds[2].knockout[0].players).toEqual([{ rank: 5 }, W(2, 1)]);
    });

    it('refuses a board the earlier round does not have, a round that is not earlier, and a bad reference', () => {
      expect(issuesOf(knockout([{ board: 1, players: [W(1, 3), W(1, 2)] }]))).toEqual([
        'events[0].rounds[1].knockout[0].players[0]: round 1 has no knockout board 3 (boards 1, 2)',
      ]);
      expect(issuesOf(knockout([{ board: 1, players: [W(2, 1), W(1, 2)] }]))).toEqual([
        'events[0].rounds[1].knockout[0].players[0]: the winner of round 2 board 1: must be an earlier round than this round 2 (a match waits only for matches played before it)',
      ]);
      expect(
        issuesOf(
          knockout([
            { board: 1, players: [W(1, 1), { winnerOf: { round: 1 } }] },
            { board: 2, players: [{ champion: 1 }, 5] },
          ]),
        ),
      ).toEqual([
        'events[0].rounds[1].knockout[0].players[1].winnerOf.board: missing',
        'events[0].rounds[1].knockout[1].players[0]: must be a starting rank, { "winnerOf": { "round": R, "board": B } } or { "loserOf": { "round": R, "board": B } }, got {"champion":1}',
      ]);
    });

    it('refuses a match outcome referenced twice', () => {
      expect(
        issuesOf(
          knockout([
            { board: 1, players: [W(1, 1), W(1, 2)] },
            { board: 2, players: [W(1, 1), 5] },
          ]),
        ),
      ).toContain(
        'events[0].rounds[1].knockout[1].players[0]: the winner of round 1 board 1 is already referenced at events[0].rounds[1].knockout[0].players[0]; a match outcome goes to one place',
      );
    });

    it('refuses firstWhite when a player is a reference: the colours of game 1 are drawn by lot (art. 3)', () => {
      expect(issuesOf(knockout([{ board: 1, players: [W(1, 1), W(1, 2)], firstWhite: 1 }]))).toEqual([
        'events[0].rounds[1].knockout[0].firstWhite: must be null or absent when a player is "winnerOf"/"loserOf": the colours of game 1 are then drawn by lot',
      ]);
      expect(issuesOf(knockout([{ board: 1, players: [5, W(1, 2)], firstWhite: 5 }]))[0]).toMatch(/firstWhite: must be null or absent/);
    });

    it('refuses a round where one player could turn up twice (rank 1 against the winner of her own semifinal)', () => {
      expect(issuesOf(knockout([{ board: 1, players: [1, W(1, 1)] }]))).toEqual([
        'events[0].rounds[1].knockout[0].players[1]: the winner of round 1 board 1 and player 1 (at events[0].rounds[1].knockout[0].players[0]) may both be player 1; a player plays once per round',
      ]);
      // Two rounds on: the final's winner is any of 1-4, so rank 2 cannot be paired against her.
      expect(issuesOf(knockout([{ board: 1, players: [W(1, 1), W(1, 2)] }], [{ board: 1, players: [W(2, 1), 2] }]))).toEqual([
        'events[0].rounds[2].knockout[0].players[1]: player 2 and the winner of round 2 board 1 (at events[0].rounds[2].knockout[0].players[0]) may both be player 2; a player plays once per round',
      ]);
    });
  });

  it('loads the Ivanovo team Swiss: 4 boards per team, FIDE team colours, default time 15 min, a team bye', () => {
    const hall = loadTournamentFile(fixture('ivanovo-white-rook-2018.json'));
    const ev = hall.events[0];
    expect(ev.kind).toBe('team');
    expect(ev.timeControl.defaultTimeMs).toBe(15 * 60_000); // Ivanovo: 15 min allowed lateness
    expect(formatTimeControl(ev.timeControl)).toBe('3600');
    const r1 = ev.rounds[0];
    expect(r1.boards.map((b) => b.board)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(r1.teamMatches[0].boards[1]).toEqual({ board: 2, white: 6, black: 2 }); // team 2 has White on board 2
    expect(r1.byes).toEqual([{ player: null, team: 5, kind: 'H' }]);
    expect(ev.players.find((p) => p.rank === 17)?.team).toBe(5);
    // A Swiss of 7 rounds (docs/regulations.md): the planned total, whatever pairings the file holds yet.
    expect([ev.plannedRounds, ev.rounds.length]).toEqual([7, 2]);
  });

  it("teamScoring.byePointsPerPlayer: 0, 0.5 or 1, the points of a TRF bye code (each player of a team bye gets the code worth the regulation's points)", () => {
    const v = minimal() as any;
    v.events[0].teamScoring = { byePointsPerPlayer: 0.25 };
    expect(issuesOf(v)).toContain('events[0].teamScoring.byePointsPerPlayer: must be 0, 0.5 or 1 (the points of the TRF bye codes Z, H, F), got 0.25');
    v.events[0].teamScoring = { byePointsPerPlayer: 1 };
    expect(parseTournament(v).events[0].teamScoring.byePointsPerPlayer).toBe(1);
  });

  it('plannedRounds (TRF tag 142 / XXR): defaults to the rounds listed, and may not be fewer', () => {
    expect(parseTournament(minimal()).events[0].plannedRounds).toBe(1);
    const v = minimal() as any;
    v.events[0].plannedRounds = 0;
    expect(issuesOf(v)).toContain('events[0].plannedRounds: must be a whole number from 1 to 999, got 0');
    v.events[0].rounds.push({ number: 2, boards: [{ board: 1, white: 2, black: 3 }] }, { number: 3, boards: [] });
    v.events[0].plannedRounds = 2;
    expect(issuesOf(v)).toContain('events[0].plannedRounds: 2 is fewer than the 3 rounds listed in "rounds"');
  });

  it('names the path of a missing field: events[0].rounds[0].boards[0].white: missing', () => {
    const v = minimal();
    delete (v.events[0].rounds[0].boards[0] as Record<string, unknown>).white;
    expect(issuesOf(v)).toContain('events[0].rounds[0].boards[0].white: missing');
  });

  it('reports every problem at once, each with its path', () => {
    const v = minimal() as any;
    v.events[0].players[1].rank = 1; // duplicate starting rank
    v.events[0].players[2].federation = 'Slovenia';
    v.events[0].rounds[0].boards.push({ board: 1, white: 3, black: 9 });
    v.events[0].timeControl = '40/5400+30:abc';
    const issues = issuesOf(v);
    expect(issues).toEqual(
      expect.arrayContaining([
        'events[0].players[1].rank: starting rank 1 is also used by players[0]',
        'events[0].players[2].federation: must be a 3-letter FIDE code, got "Slovenia"',
        'events[0].rounds[0].boards[1].board: board 1 is used twice in this round',
        "events[0].rounds[0].boards[1].black: no player with starting rank 9 (the players' ranks: 1, 3)",
        'events[0].timeControl: unknown preset "40/5400+30:abc"; the presets are: classical, rapid, armageddon, sudden-death-60; use an object for other controls',
      ]),
    );
  });

  it('refuses names with a control character, naming the field path (PGN standard §7: printing characters only; a newline would split a PGN tag line or a TRF record)', () => {
    const v = minimal() as any;
    v.events[0].players[1].name = 'B,\nB';
    v.events[0].name = 'Open\t2018';
    v.events[0].deputyArbiters = ['Ana\u0085Srebrnič'];
    v.hall = { site: 'Ljubljana\rSLO' };
    const issues = issuesOf(v);
    expect(issues).toEqual(
      expect.arrayContaining([
        'events[0].players[1].name: "B,\\nB" holds the control character U+000A at position 3; names and texts must be printable (PGN standard §7, TRF16 one record per line)',
        expect.stringMatching(/^events\[0\]\.name: "Open\\t2018" holds the control character U\+0009 at position 5;/),
        expect.stringMatching(/^events\[0\]\.deputyArbiters\[0\]: .* U\+0085 at position 4;/),
        expect.stringMatching(/^hall\.site: .* U\+000D at position 10;/),
      ]),
    );
    // Only these: the player is kept, so the board pairing it reports nothing false.
    expect(issues).toHaveLength(4);
    // Printable names, accents and Cyrillic included, pass.
    const ok = minimal() as any;
    ok.events[0].players[1].name = 'Рожич, Vesna';
    expect(() => parseTournament(ok)).not.toThrow();
  });

  it('refuses a player paired twice in a round, and a bye for a paired player', () => {
    const v = minimal() as any;
    v.events[0].rounds[0].byes = [{ player: 2, kind: 'H' }];
    expect(issuesOf(v)).toContain('events[0].rounds[0].byes[0].player: player 2 is already paired in this round at events[0].rounds[0].boards[0].black');
  });

  it('names the bad token of a time control', () => {
    const v = minimal() as any;
    v.events[0].timeControl = { white: '360', black: '3x0' };
    expect(issuesOf(v)[0]).toMatch(/^events\[0\]\.timeControl: bad seconds "3x0"/);
  });

  it('refuses a team board whose player is not in the team with that colour (FIDE team colours)', () => {
    const hall = JSON.parse(
      JSON.stringify({
        events: [
          {
            id: 't',
            name: 'T',
            kind: 'team',
            boardsPerTeam: 2,
            timeControl: 'sudden-death-60',
            players: [1, 2, 3, 4].map((rank) => ({ rank, name: `P${rank}` })),
            teams: [
              { id: 1, name: 'A', players: [1, 2] },
              { id: 2, name: 'B', players: [3, 4] },
            ],
            rounds: [
              {
                number: 1,
                teamMatches: [
                  {
                    white: 1,
                    black: 2,
                    boards: [
                      { white: 1, black: 3 },
                      { white: 2, black: 4 },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(issuesOf(hall)).toEqual([
      'events[0].rounds[0].teamMatches[0].boards[1].white: player 2 is not in team 2, which has White on board 2',
      'events[0].rounds[0].teamMatches[0].boards[1].black: player 4 is not in team 1, which has Black on board 2',
    ]);
  });

  it('refuses events whose hall tables overlap', () => {
    const v = minimal() as any;
    v.events.push({ ...JSON.parse(JSON.stringify(v.events[0])), id: 'e2' });
    expect(issuesOf(v)).toEqual(['events[1].hallFirstTable: hall tables 1-1 of "e2" overlap tables 1-1 of "e1"; set hallFirstTable so events share no table']);
  });

  it('reads JSON with comments, and names each problem by line:column and field path; bad JSON by line:column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tour-'));
    try {
      const text = [
        '{',
        '  // The hall: one open, three players.',
        '  "events": [{',
        '    "id": "e1", "name": "Open", "kind": "individual", "timeControl": "classical", /* preset */',
        '    "players": [',
        '      { "rank": 1, "name": "A, A" },',
        '      { "rank": 2 },',
        '      { "rank": 3, "name": "C, C", "federation": "Slovenia" }',
        '    ]',
        '  }]',
        '}',
      ].join('\n');
      writeFileSync(join(dir, 'hall.json'), text);
      let issues: string[] = [];
      try {
        loadTournamentFile(join(dir, 'hall.json'));
      } catch (err) {
        if (err instanceof TournamentFileError) issues = err.issues;
      }
      expect(issues).toEqual([
        'line 7:7 events[0].players[1].name: missing', // the missing field: at its object
        'line 8:36 events[0].players[2].federation: must be a 3-letter FIDE code, got "Slovenia"', // at the key
      ]);
      writeFileSync(join(dir, 'good.json'), text.replace('{ "rank": 2 }', '{ "rank": 2, "name": "B, B" }').replace('"Slovenia"', '"SLO"'));
      expect(loadTournamentFile(join(dir, 'good.json')).events[0].players.map((p) => p.name)).toEqual(['A, A', 'B, B', 'C, C']);
      writeFileSync(join(dir, 'colon.json'), '{\n  "events" []\n}\n');
      expect(() => loadTournamentFile(join(dir, 'colon.json'))).toThrow(/line 2:12: a colon \(:\) is missing after the field name that ends at 2:10/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses YAML with a message saying a dependency is needed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tour-'));
    try {
      writeFileSync(join(dir, 'hall.yaml'), 'events: []\n');
      expect(() => loadTournamentFile(join(dir, 'hall.yaml'))).toThrow(/YAML is not supported: no YAML parser is installed/);
      writeFileSync(join(dir, 'bad.json'), '{"events": [}');
      expect(() => loadTournamentFile(join(dir, 'bad.json'))).toThrow(
        /bad\.json: 1 problem\(s\)[\s\S]*line 1:13: } where ] should close the list opened at 1:12/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tournament file: a Swiss event\'s pairing engine (docs/tournament.md "Pairing the next round")', () => {
  it('reads the command (JaVaFo / bbpPairings command line: the host appends IN.trf -p OUT.txt) and the time limit, 60 s by default', () => {
    const file = minimal();
    Object.assign(file.events[0], { plannedRounds: 5, pairingEngine: { command: ['bbpPairings.exe', '--dutch'] } });
    expect(parseTournament(file).events[0].pairingEngine).toEqual({ command: ['bbpPairings.exe', '--dutch'], timeoutMs: 60_000 });
    Object.assign(file.events[0], { pairingEngine: { command: ['java', '-ea', '-jar', 'javafo.jar'], timeoutSeconds: 20 } });
    expect(parseTournament(file).events[0].pairingEngine).toEqual({ command: ['java', '-ea', '-jar', 'javafo.jar'], timeoutMs: 20_000 });
    expect(parseTournament(minimal()).events[0].pairingEngine).toBeUndefined();
    // The engine pairs against the planned total (TRF 142/XXR): without plannedRounds it would be the rounds listed, none before round 1.
    const drawn = minimal() as { events: Record<string, unknown>[] };
    Object.assign(drawn.events[0], { plannedRounds: 5, pairingEngine: { command: ['bbpPairings.exe', '--dutch'], initialColour: 'black' } });
    expect(parseTournament(drawn).events[0].pairingEngine).toEqual({ command: ['bbpPairings.exe', '--dutch'], timeoutMs: 60_000, initialColour: 'black' });
    Object.assign(drawn.events[0], { pairingEngine: { command: ['bbpPairings.exe', '--dutch'], initialColour: 'w' } });
    expect(issuesOf(drawn)).toEqual([
      'events[0].pairingEngine.initialColour: must be "white" or "black" (the colour drawn by lot for the top-ranked player in round 1), got "w"',
    ]);
    const unplanned = minimal() as { events: Record<string, unknown>[] };
    Object.assign(unplanned.events[0], { rounds: [], pairingEngine: { command: ['bbpPairings.exe', '--dutch'] } });
    expect(issuesOf(unplanned)).toEqual([
      'events[0].plannedRounds: missing: a pairing engine pairs against the planned number of rounds (TRF tag 142 and XXR)',
    ]);
  });

  it('refuses an engine for a team event (bbpPairings and JaVaFo pair players), an empty command, a bad argument and an unknown field, naming the path', () => {
    const team = JSON.parse(readFileSync(fixture('ivanovo-white-rook-2018.json'), 'utf8'));
    team.events[0].pairingEngine = { command: ['bbpPairings.exe', '--dutch'] };
    expect(issuesOf(team)).toEqual([
      expect.stringMatching(/^events\[0\]\.pairingEngine: only for an individual Swiss event \("kind": "individual"\): the engine pairs players, not teams/),
    ]);
    const file = minimal();
    Object.assign(file.events[0], { pairingEngine: { command: [] } });
    expect(issuesOf(file)).toEqual(['events[0].pairingEngine.command: must name the program, e.g. ["bbpPairings.exe", "--dutch"]']);
    Object.assign(file.events[0], { pairingEngine: { command: ['bbp', 7], timeoutSeconds: 0, shell: true } });
    expect(issuesOf(file)).toEqual([
      'events[0].pairingEngine.shell: unknown field (known: command, timeoutSeconds, initialColour)',
      'events[0].pairingEngine.timeoutSeconds: must be a whole number from 1 to 3600, got 0',
      'events[0].pairingEngine.command[1]: must be a non-empty string, got 7',
    ]);
  });
});

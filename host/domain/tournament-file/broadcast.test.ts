// The tournament file's `broadcast` block (docs/tournament.md "The broadcast block"): read into
// the event's model, and each mistake refused with its field path.
import { describe, expect, it } from 'vitest';
import { parseTournament, TournamentFileError } from '../tournament-file.ts';

const hallWith = (broadcast: unknown, extra: Record<string, unknown> = { plannedRounds: 7 }) => ({
  events: [
    {
      id: 'open',
      name: 'Open',
      kind: 'individual',
      timeControl: 'classical',
      ...extra,
      players: [
        { rank: 1, name: 'A, A' },
        { rank: 2, name: 'B, B' },
      ],
      broadcast,
    },
  ],
});

function issuesOf(value: unknown): string[] {
  try {
    parseTournament(value);
  } catch (err) {
    if (err instanceof TournamentFileError) return err.issues;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe("the tournament file's broadcast block", () => {
  it('reads the moves source, the delay and each round to its lichess round, a big round split by board ranges', () => {
    const hall = parseTournament(
      hallWith({
        moves: '/srv/livechess/open/',
        delay: 900, // European rule Q.2.4: 15 minutes
        rounds: {
          '2': [
            { boards: '101-200', lichess: 'EfGh5678' },
            { boards: '1-100', lichess: 'AbCd1234' },
          ],
          '1': 'QrSt0000',
        },
      }),
    );
    expect(hall.events[0].broadcast).toEqual({
      moves: '/srv/livechess/open/',
      delaySeconds: 900,
      rounds: [
        { round: 1, roundId: 'QrSt0000', boards: null },
        { round: 2, roundId: 'AbCd1234', boards: { from: 1, to: 100 } },
        { round: 2, roundId: 'EfGh5678', boards: { from: 101, to: 200 } },
      ],
    });
  });

  it('defaults: no moves source (clocks and results only) and no delay', () => {
    const hall = parseTournament(hallWith({ rounds: { '1': 'AbCd1234' } }));
    expect(hall.events[0].broadcast).toEqual({ moves: null, delaySeconds: 0, rounds: [{ round: 1, roundId: 'AbCd1234', boards: null }] });
    expect(parseTournament(hallWith(undefined)).events[0].broadcast).toBeUndefined();
  });

  it('refuses a round id that is not 8 letters or digits, with its field path (lichess push API: roundId of 8 characters)', () => {
    const issues = issuesOf(hallWith({ rounds: { '1': 'AbCd123', '2': [{ boards: '1-10', lichess: 'https://lichess.org/x' }] } }));
    expect(issues).toEqual([
      expect.stringMatching(/^events\[0\]\.broadcast\.rounds\.1: a lichess round id .*got "AbCd123"/),
      expect.stringMatching(/^events\[0\]\.broadcast\.rounds\.2\[0\]\.lichess: a lichess round id .*"https:\/\/lichess.org\/x"/),
    ]);
  });

  it('refuses a round past the planned rounds, and a key that is no round number', () => {
    expect(issuesOf(hallWith({ rounds: { '8': 'AbCd1234', first: 'EfGh5678' } }))).toEqual([
      "events[0].broadcast.rounds.8: round 8 is past the event's 7 planned rounds (plannedRounds, or the rounds listed)",
      'events[0].broadcast.rounds.first: a round is named by its number "1", "2", …, got "first"',
    ]);
  });

  it('refuses board ranges that overlap, a range written wrong, and one lichess round used twice', () => {
    const issues = issuesOf(
      hallWith({
        rounds: {
          '1': [
            { boards: '1-100', lichess: 'AbCd1234' },
            { boards: '100-200', lichess: 'EfGh5678' },
            { boards: '201', lichess: 'IjKl9012' },
            { boards: '300-250', lichess: 'MnOp3456' },
          ],
          '2': 'AbCd1234',
        },
      }),
    );
    expect(issues).toEqual([
      'events[0].broadcast.rounds.1[1].boards: boards 100-200 overlap boards 1-100 of events[0].broadcast.rounds.1[0]',
      'events[0].broadcast.rounds.1[2].boards: must be a range of boards "FROM-TO" with 1 ≤ FROM ≤ TO, e.g. "1-100", got "201"',
      'events[0].broadcast.rounds.1[3].boards: must be a range of boards "FROM-TO" with 1 ≤ FROM ≤ TO, e.g. "1-100", got "300-250"',
      'events[0].broadcast.rounds.2: lichess round AbCd1234 is already used by events[0].broadcast.rounds.1[0].lichess',
    ]);
  });

  it('refuses a negative or fractional delay, an unknown field, and a URL that is not http(s)', () => {
    expect(issuesOf(hallWith({ delay: -5, moves: 'ftp://x/y.pgn', token: 'lip_x' }))).toEqual([
      expect.stringMatching(/^events\[0\]\.broadcast\.token: unknown field/),
      'events[0].broadcast.moves: a URL must be http(s)://HOST/…, got "ftp://x/y.pgn"',
      'events[0].broadcast.delay: must be a whole number from 0 to 86400, got -5',
    ]);
    expect(issuesOf(hallWith({ delay: 1.5 }))).toEqual(['events[0].broadcast.delay: must be a whole number from 0 to 86400, got 1.5']);
  });
});

describe("the template's commented broadcast example", () => {
  it('validates once uncommented (docs/tournament.md "The broadcast block")', async () => {
    const { TOURNAMENT_TEMPLATE } = await import('../tournament-template.ts');
    const { parseTournamentText } = await import('../tournament-file.ts');
    const uncommented = TOURNAMENT_TEMPLATE.replace('// "broadcast": {', '"broadcast": {');
    expect(uncommented).not.toBe(TOURNAMENT_TEMPLATE);
    expect(parseTournamentText(uncommented).events[1].broadcast).toEqual({
      moves: '/srv/livechess/teams/',
      delaySeconds: 900,
      rounds: [
        { round: 1, roundId: 'AbCd1234', boards: null },
        { round: 2, roundId: 'EfGh5678', boards: null },
      ],
    });
  });
});

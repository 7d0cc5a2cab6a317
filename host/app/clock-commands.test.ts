// The command → wire table (clock-commands.ts): each arbiter command as the clock's protocol
// carries it, the protocol minor each needs, the session start a start carries, a result as a
// clock of each minor shows it, and a game's Configure. Table-tested: a row per command.
import { describe, expect, it } from 'vitest';
import { Command_Kind, GameResult as WireResult, Side as WireSide } from '../../protocol/gen/chessclock_pb.ts';
import { presetTimeControl, timeControl, parseSideControl } from '../../protocol/time-control.ts';
import { timeControlToProto, timeControlToWire } from '../../protocol/time-control-codec.ts';
import { ARBITER_COMMANDS } from '../../rules/vocabulary.ts';
import type { GameRow } from '../store/types.ts';
import { clockFormOf, commandBody, configureBody, MAX_SESSION_ELAPSED_MS, minorNeeded, resultBody, sessionElapsedMs } from './clock-commands.ts';
import type { ArbiterCommand } from './ports.ts';

const NOW = 1_750_000_000_000;
const rapid = presetTimeControl('rapid');

/** Every arbiter command, and the Command it becomes on the wire (null: none — a Configure, or no clock command). */
const TABLE: ReadonlyArray<[ArbiterCommand, Record<string, unknown> | null]> = [
  [
    { type: 'start', boardId: 'b' },
    { kind: Command_Kind.START, sessionElapsedMs: 0 },
  ],
  [
    { type: 'start', boardId: 'b', sessionUtcMs: NOW - 90_000 },
    { kind: Command_Kind.START, sessionElapsedMs: 90_000 },
  ],
  [{ type: 'pause', boardId: 'b' }, { kind: Command_Kind.PAUSE }],
  [{ type: 'resume', boardId: 'b' }, { kind: Command_Kind.RESUME }],
  [
    { type: 'adjust', boardId: 'b', side: 'black', ms: -30_000 },
    { kind: Command_Kind.ADJUST, side: WireSide.BLACK, ms: -30_000 },
  ],
  [
    { type: 'penalty', boardId: 'b', side: 'white' },
    { kind: Command_Kind.PENALTY, side: WireSide.WHITE },
  ],
  [
    { type: 'set-moves', boardId: 'b', side: 'white', moves: 40 },
    { kind: Command_Kind.SET_MOVES, side: WireSide.WHITE, moves: 40 },
  ],
  [
    { type: 'arrive', boardId: 'b', side: 'black' },
    { kind: Command_Kind.ARRIVE, side: WireSide.BLACK },
  ],
  [
    { type: 'takeback', boardId: 'b' },
    { kind: Command_Kind.TAKEBACK, keepTimes: false },
  ],
  [
    { type: 'takeback', boardId: 'b', times: 'rewind' },
    { kind: Command_Kind.TAKEBACK, keepTimes: false },
  ],
  [
    { type: 'takeback', boardId: 'b', times: 'keep' },
    { kind: Command_Kind.TAKEBACK, keepTimes: true },
  ],
  [
    { type: 'set-turn', boardId: 'b', side: 'black' },
    { kind: Command_Kind.SET_TURN, side: WireSide.BLACK },
  ],
  [
    { type: 'set-control', boardId: 'b', timeControl: rapid },
    { kind: Command_Kind.SET_CONTROL, control: timeControlToWire(rapid) },
  ],
  [
    { type: 'delay', boardId: 'b', ms: 5000 },
    { kind: Command_Kind.DELAY, ms: 5000 },
  ],
  [{ type: 'reinstate', boardId: 'b' }, { kind: Command_Kind.REINSTATE }],
  [
    { type: 'increment', boardId: 'b', ms: 2000 },
    { kind: Command_Kind.INCREMENT, ms: 2000 },
  ],
  [{ type: 'configure', boardId: 'b', timeControl: rapid }, null],
  [{ type: 'result', boardId: 'b', result: '1-0' }, null],
  [{ type: 'confirm-result', boardId: 'b' }, null],
];

describe('each arbiter command on the wire (docs/protocol.md "Commands")', () => {
  it('the table has a row for every command of the vocabulary', () => {
    expect(new Set(TABLE.map(([c]) => c.type))).toEqual(new Set(ARBITER_COMMANDS));
  });

  it.each(TABLE.map(([c, wire]) => [`${c.type} ${JSON.stringify(c)}`, c, wire] as const))('%s', (_name, c, wire) => {
    const body = commandBody(c, NOW);
    if (wire === null) expect(body).toBeNull();
    else expect(body).toEqual({ case: 'command', value: wire });
  });
});

describe('the protocol minor a command needs (docs/protocol.md "Versions")', () => {
  const needs: ReadonlyArray<[ArbiterCommand, number | null]> = [
    [{ type: 'start', boardId: 'b' }, null],
    [{ type: 'pause', boardId: 'b' }, null],
    [{ type: 'adjust', boardId: 'b', side: 'white', ms: 1000 }, null],
    [{ type: 'set-moves', boardId: 'b', side: 'white', moves: 3 }, null],
    [{ type: 'configure', boardId: 'b', timeControl: rapid }, null],
    [{ type: 'arrive', boardId: 'b', side: 'white' }, 1],
    [{ type: 'takeback', boardId: 'b' }, 1],
    [{ type: 'takeback', boardId: 'b', times: 'rewind' }, 1],
    // FIDE Laws 7.1: keeping both times came with 1.4.
    [{ type: 'takeback', boardId: 'b', times: 'keep' }, 4],
    [{ type: 'reinstate', boardId: 'b' }, 1],
    [{ type: 'increment', boardId: 'b', ms: 1000 }, 1],
    [{ type: 'set-turn', boardId: 'b', side: 'white' }, 4],
    [{ type: 'set-control', boardId: 'b', timeControl: rapid }, 4],
    [{ type: 'delay', boardId: 'b', ms: 1000 }, 4],
  ];
  it.each(needs.map(([c, minor]) => [JSON.stringify(c), c, minor] as const))('%s', (_name, c, minor) => {
    expect(minorNeeded(c)?.minor ?? null).toBe(minor);
  });

  it('names what needs it, for the refusal', () => {
    expect(minorNeeded({ type: 'takeback', boardId: 'b', times: 'keep' })!.what).toBe('a take-back keeping the clock times');
    expect(minorNeeded({ type: 'delay', boardId: 'b', ms: 1 })!.what).toBe('the quickplay delay');
  });
});

describe('a start carries the time since the session began (FIDE Laws 6.7.1)', () => {
  it.each([
    ['no session', undefined, 0],
    ['the session began now', NOW, 0],
    ['a session in the future counts as now', NOW + 5000, 0],
    ['whole ms, rounded', NOW - 1234.6, 1235],
    ["clamped to the wire's uint32", NOW - 2 * MAX_SESSION_ELAPSED_MS, MAX_SESSION_ELAPSED_MS],
  ] as const)('%s', (_name, session, elapsed) => {
    expect(sessionElapsedMs(session, NOW)).toBe(elapsed);
  });
});

describe('a result as a clock shows it (ENTER_RESULT, or PAUSE where it has no form)', () => {
  const rows: ReadonlyArray<[string, number, string, WireResult | null]> = [
    ['1-0', 0, '1-0', WireResult.WHITE_WINS],
    ['0-1', 4, '0-1', WireResult.BLACK_WINS],
    ['1/2-1/2', 1, '1/2-1/2', WireResult.DRAW],
    // A forfeit win is shown as the win it counts as (the PGN Result tag's form).
    ['+-', 0, '1-0', WireResult.WHITE_WINS],
    ['-+', 4, '0-1', WireResult.BLACK_WINS],
    // FIDE Laws 6.7.1: both lose — the clock's own `--` since 1.4; an older clock only stops.
    ['--', 4, '--', WireResult.DOUBLE_FORFEIT],
    ['--', 3, '', null],
  ];
  it.each(rows)('%s on a clock of 1.%i: %s', (result, minor, form, wire) => {
    expect(clockFormOf(result, minor)).toBe(form);
    const { body, entered } = resultBody(result, minor);
    expect(entered).toBe(wire !== null);
    expect(body).toEqual({ case: 'command', value: wire === null ? { kind: Command_Kind.PAUSE } : { kind: Command_Kind.ENTER_RESULT, result: wire } });
  });
});

describe("a game's Configure", () => {
  const game = {
    gameId: 17,
    event: 'slo-w-2007',
    round: 1,
    board: 2,
    gameNo: 3,
    matchId: 'slo-w-2007/r1/b2',
    kind: 'rapid',
    white: 'Bajt, Indira',
    black: 'Tretja, Igralka',
    timeControlValue: rapid,
  } as GameRow;

  it('labels a mini-match game with its number, and carries the players and the control', () => {
    expect(configureBody(game, '17. državno prvenstvo članic')).toEqual({
      case: 'configure',
      value: {
        gameId: '17',
        event: '17. državno prvenstvo članic',
        round: '1.3',
        board: '2',
        whitePlayer: 'Bajt, Indira',
        blackPlayer: 'Tretja, Igralka',
        ...timeControlToProto(rapid),
      },
    });
  });

  it("a game of no match is labelled with its round; an override (the arbiter's configure) replaces the setup; text fields are cut to the wire's 128 characters", () => {
    const tc = timeControl(parseSideControl('300'), parseSideControl('300'));
    const body = configureBody({ ...game, matchId: null }, 'E'.repeat(200), { timeControl: tc, white: 'W'.repeat(130) });
    expect(body.value).toMatchObject({
      round: '1',
      event: 'E'.repeat(128),
      whitePlayer: 'W'.repeat(128),
      blackPlayer: 'Tretja, Igralka',
      ...timeControlToProto(tc),
    });
  });
});

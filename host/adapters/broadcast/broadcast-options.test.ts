// docs/broadcast.md "From the command line": the broadcast's options read into a setup, each
// mistake said with its option; the token only from the environment or a file, never repeated.
import { describe, expect, it } from 'vitest';
import type { Hall } from '../../domain/model.ts';
import { BroadcastHall, BLITZ, CLASSICAL } from './broadcast-hall.fixture.ts';
import { type BroadcastOptionIo, readBroadcastDelays, readBroadcastOptions } from './broadcast-options.ts';

const fixture = new BroadcastHall();
const { hall } = fixture;
fixture.journal.close();
const io = (over: Partial<BroadcastOptionIo> = {}): BroadcastOptionIo => ({
  env: { CHESSCLOCK_LICHESS_TOKEN: 'lip_fromEnv' },
  readFile: () => {
    throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  },
  isFolder: (p) => p.startsWith('/livechess'),
  ...over,
});
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('the broadcast options of chessclock host', () => {
  it('maps rounds to lichess rounds, each event its moves source; the token from the environment; lichess.org by default', () => {
    const setup = readBroadcastOptions(
      {
        broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`, `${BLITZ}/1=lichess:wXyZ9876`],
        moves: [`${CLASSICAL}=/livechess/open/round-1`, `${BLITZ}=https://example.org/blitz.pgn`],
      },
      hall,
      io(),
    );
    expect(setup).toEqual({
      targets: [
        { event: CLASSICAL, round: 1, roundId: 'aBcD1234' },
        { event: BLITZ, round: 1, roundId: 'wXyZ9876' },
      ],
      lichessUrl: 'https://lichess.org',
      token: 'lip_fromEnv',
      moves: { [CLASSICAL]: { kind: 'folder', path: '/livechess/open/round-1' }, [BLITZ]: { kind: 'url', url: 'https://example.org/blitz.pgn' } },
    });
    // The token from a file instead (its line, trimmed), and a stand-in's URL.
    const fromFile = readBroadcastOptions(
      { broadcast: [`${CLASSICAL}/2=lichess:aBcD1234`], lichessUrl: 'http://127.0.0.1:9663', lichessTokenFile: 'token.txt' },
      hall,
      io({ env: {}, readFile: () => 'lip_fromFile\n' }),
    );
    expect([fromFile?.token, fromFile?.lichessUrl]).toEqual(['lip_fromFile', 'http://127.0.0.1:9663']);
    expect(readBroadcastOptions({}, hall, io())).toBeNull();
  });

  it('says what is wrong, with the option and its value, and never the token', () => {
    const messages = [
      refusal(() => readBroadcastOptions({ broadcast: ['lichess:aBcD1234'] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: ['1=lichess:aBcD1234'] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: ['nope/1=lichess:aBcD1234'] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/0=lichess:aBcD1234`] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD`] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`, `${CLASSICAL}/1=lichess:wXyZ9876`] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`], moves: ['games.pgn'] }, hall, io())),
      refusal(() => readBroadcastOptions({ moves: [`${CLASSICAL}=games.pgn`] }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`] }, hall, io({ env: {} }))),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`], lichessTokenFile: 'token.txt' }, hall, io())),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`], lichessTokenFile: 'token.txt' }, hall, io({ env: {} }))),
      refusal(() =>
        readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`], lichessTokenFile: 't' }, hall, io({ env: {}, readFile: () => 'lip_a lip_b' })),
      ),
      refusal(() => readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:aBcD1234`], lichessUrl: 'lichess.org' }, hall, io())),
    ];
    expect(messages).toEqual([
      '--broadcast lichess:aBcD1234: expected [EVENT/]ROUND=lichess:ROUND_ID, e.g. --broadcast 1=lichess:aBcD1234',
      '--broadcast 1=lichess:aBcD1234: the hall has 2 events; write EVENT/ROUND=lichess:ROUND_ID',
      `--broadcast nope/1=lichess:aBcD1234: no event "nope" in the tournament file (events: ${CLASSICAL}, ${BLITZ})`,
      `--broadcast ${CLASSICAL}/0=lichess:aBcD1234: round "0" is not a round number 1, 2, …`,
      `--broadcast ${CLASSICAL}/1=lichess:aBcD: lichess round id "aBcD": must be 8 letters or digits (the id in the round's URL)`,
      `--broadcast ${CLASSICAL}/1=lichess:wXyZ9876: round 1 of ${CLASSICAL} is already pushed to lichess:aBcD1234`,
      '--moves games.pgn: the hall has 2 events; write EVENT=SOURCE',
      '--moves goes with --broadcast [EVENT/]ROUND=lichess:ROUND_ID (which round to push)',
      '--broadcast needs a lichess token (scope study:write): set CHESSCLOCK_LICHESS_TOKEN or give --lichess-token-file FILE',
      'the lichess token is given twice: by CHESSCLOCK_LICHESS_TOKEN and by --lichess-token-file; give one',
      '--lichess-token-file token.txt: ENOENT',
      '--lichess-token-file t: expected the token alone on one line',
      '--lichess-url lichess.org: expected an http(s) URL, e.g. https://lichess.org',
    ]);
    for (const m of messages) expect(m).not.toMatch(/lip_/);
  });

  describe('the tournament file\'s broadcast block (docs/tournament.md "The broadcast block")', () => {
    const withBlock = (broadcast: NonNullable<Hall['events'][number]['broadcast']>): Hall => ({
      ...hall,
      events: hall.events.map((e) => (e.id === CLASSICAL ? { ...e, broadcast } : e)),
    });
    const filed = withBlock({
      moves: '/livechess/open/',
      delaySeconds: 900,
      rounds: [
        { round: 1, roundId: 'aBcD1234', boards: { from: 1, to: 1 } },
        { round: 1, roundId: 'eFgH5678', boards: { from: 2, to: 2 } },
        { round: 2, roundId: 'iJkL9012', boards: null },
      ],
    });

    it('runs the broadcast the file maps, as --broadcast does: each board range to its lichess round, the moves source, the delay', () => {
      expect(readBroadcastOptions({}, filed, io())).toEqual({
        targets: [
          { event: CLASSICAL, round: 1, roundId: 'aBcD1234', boards: { from: 1, to: 1 } },
          { event: CLASSICAL, round: 1, roundId: 'eFgH5678', boards: { from: 2, to: 2 } },
          { event: CLASSICAL, round: 2, roundId: 'iJkL9012' },
        ],
        lichessUrl: 'https://lichess.org',
        token: 'lip_fromEnv',
        moves: { [CLASSICAL]: { kind: 'folder', path: '/livechess/open/' } },
        delays: { [CLASSICAL]: 900 },
      });
    });

    it('the command line overrides the file: --broadcast for its round, --moves for its event', () => {
      const setup = readBroadcastOptions({ broadcast: [`${CLASSICAL}/1=lichess:zZzZ0000`], moves: [`${CLASSICAL}=https://example.org/open.pgn`] }, filed, io());
      expect(setup?.targets).toEqual([
        { event: CLASSICAL, round: 2, roundId: 'iJkL9012' },
        { event: CLASSICAL, round: 1, roundId: 'zZzZ0000' },
      ]);
      expect(setup?.moves).toEqual({ [CLASSICAL]: { kind: 'url', url: 'https://example.org/open.pgn' } });
    });

    it('still takes the token only from the environment or a token file, and says the file asked for it', () => {
      expect(refusal(() => readBroadcastOptions({}, filed, io({ env: {} })))).toBe(
        "the tournament file's broadcast block needs a lichess token (scope study:write): set CHESSCLOCK_LICHESS_TOKEN or give --lichess-token-file FILE",
      );
      // A block with a moves source and no round mapped pushes nothing, and needs no token.
      expect(readBroadcastOptions({}, withBlock({ moves: '/livechess/open/', delaySeconds: 0, rounds: [] }), io({ env: {} }))).toBeNull();
    });
  });

  it('--broadcast-delay [EVENT=]SECONDS: each event its delay in whole seconds (docs/broadcast.md "The delay"); each mistake said', () => {
    expect(readBroadcastDelays([`${CLASSICAL}=900`, `${BLITZ}=0`], hall)).toEqual({ [CLASSICAL]: 900, [BLITZ]: 0 });
    expect(readBroadcastDelays(undefined, hall)).toEqual({});
    const one = { ...hall, events: [hall.events[0]] };
    expect(readBroadcastDelays(['900'], one)).toEqual({ [CLASSICAL]: 900 });
    expect(
      [['900'], ['nope=900'], [`${CLASSICAL}=15m`], [`${CLASSICAL}=-5`], [`${CLASSICAL}=86401`], [`${CLASSICAL}=900`, `${CLASSICAL}=600`]].map((v) =>
        refusal(() => readBroadcastDelays(v, hall)),
      ),
    ).toEqual([
      '--broadcast-delay 900: the hall has 2 events; write EVENT=SECONDS',
      `--broadcast-delay nope=900: no event "nope" in the tournament file (events: ${CLASSICAL}, ${BLITZ})`,
      `--broadcast-delay ${CLASSICAL}=15m: "15m" is not a delay in whole seconds from 0 to 86400, e.g. 900 for 15 minutes`,
      `--broadcast-delay ${CLASSICAL}=-5: "-5" is not a delay in whole seconds from 0 to 86400, e.g. 900 for 15 minutes`,
      `--broadcast-delay ${CLASSICAL}=86401: "86401" is not a delay in whole seconds from 0 to 86400, e.g. 900 for 15 minutes`,
      `--broadcast-delay ${CLASSICAL}=600: event ${CLASSICAL} has a delay already (900 s)`,
    ]);
  });
});

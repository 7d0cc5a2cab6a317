// What the match panels and the captains' page write (protocol-text.ts, pure): the colours drawn
// by lot (Slovenian final 2007 art. 3) and the team match protocol (Ivanovo 2018 regulations,
// docs/regulations.md: each captain signs the match protocol, the arbiter confirms it, a later
// correction voids the marks made before it). The views are typed by host/app/captains.ts.
import { describe, expect, it } from 'vitest';
import type { CaptainMark, TeamMatchSide, TeamMatchView } from '../../../../app/captains.ts';
import type { BoardView, LotView } from '../../../../app/ports.ts';
import {
  arbiterMark,
  captainConfirmQuestion,
  captainConfirmState,
  captainMark,
  captainPageMarks,
  disputeQuestion,
  lotsChanged,
  lotText,
  markedResults,
  matchTitle,
  noMatchText,
  protocolMayChange,
  teamEventRounds,
} from './protocol-text.ts';
import { resultWords } from './words.ts';

const T15 = Date.UTC(2018, 1, 13, 15, 0);
const min = (n: number) => T15 + n * 60_000;

function side(id: number, name: string, pts: number, captain: CaptainMark | null = null): TeamMatchSide {
  return { id, name, points: pts, captain };
}

function match(extra: Partial<TeamMatchView> = {}): TeamMatchView {
  return {
    id: 'ivanovo-2018/r1/m1',
    event: 'ivanovo-2018',
    round: 1,
    match: 1,
    teams: [side(1, 'Школа № 1', 2.5), side(2, 'Школа № 2', 1.5)],
    boards: [
      { board: 1, boardId: 'b1', white: { name: 'Иванов', team: 1 }, black: { name: 'Петров', team: 2 }, result: '1-0', confirmed: true },
      { board: 2, boardId: 'b2', white: { name: 'Сидоров', team: 2 }, black: { name: 'Козлов', team: 1 }, result: '1/2-1/2', confirmed: false },
    ],
    resultsIn: true,
    resultsConfirmed: false,
    arbiter: null,
    ...extra,
  };
}

const confirmed: CaptainMark = { state: 'confirmed', captain: 'Kapitan Pervoy', atUtcMs: T15, results: ['1-0', '1/2-1/2'] };
const voided: CaptainMark = { ...confirmed, void: { board: 2, from: '1/2-1/2', to: '1-0', arbiter: 'Glavny Sudya', atUtcMs: min(10) } };
const disputed: CaptainMark = {
  state: 'disputed',
  captain: 'Kapitan Vtoroy',
  atUtcMs: min(5),
  results: ['1-0', '1/2-1/2'],
  reason: 'the draw was offered after the flag fell',
};

describe('colours by lot (Slovenian final 2007 art. 3)', () => {
  const lot = (extra: Partial<LotView>): LotView => ({
    stage: 'classical',
    white: 'Četrta, Igralka',
    whiteRank: 4,
    source: 'random',
    by: 'director',
    atUtcMs: Date.UTC(2007, 7, 16, 13, 45),
    ...extra,
  });

  it('says who has White, which game, how the lot was drawn and when', () => {
    expect(lotText(lot({}))).toBe('Colours by lot (game 1): Četrta, Igralka has White — drawn by the host (cryptographic random draw) at 13:45 UTC');
    expect(lotText(lot({ source: 'arbiter', by: 'Ana Srebrnič', stage: 'armageddon' }))).toBe(
      'Colours by lot (armageddon): Četrta, Igralka has White — drawn in the hall, entered by arbiter Ana Srebrnič at 13:45 UTC',
    );
    expect(lotText(lot({ source: 'seed' }))).toMatch(/— from the tournament file's seed \(a rehearsal: known in advance\) at 13:45 UTC$/);
  });

  it('asks for the lots again only when a board opens another knockout game (a lot is drawn when that game opens)', () => {
    const g = (no: number, matchId: string | null = 'slo/m1'): Pick<BoardView, 'game'> => ({ game: { no, kind: 'classical', matchId } });
    expect(lotsChanged(undefined, g(1))).toBe(true);
    expect(lotsChanged(g(1), g(1))).toBe(false);
    expect(lotsChanged(g(1), g(2))).toBe(true);
    expect(lotsChanged(undefined, {})).toBe(false); // no mini-match: no lot
    expect(lotsChanged(g(1), g(1, null))).toBe(false);
  });
});

describe('which team matches the arbiter page asks for', () => {
  const b = (event: string, round: number, team?: string) => ({ event, round, white: { name: 'X', ...(team ? { team } : {}) } });

  it("a team event's current round is the highest among its boards; individual events and filtered-out events are left out", () => {
    const boards = [b('ivanovo', 1, 'A'), b('ivanovo', 2, 'B'), b('slo', 3), b('other', 1, 'C')];
    expect([...teamEventRounds(boards, '')]).toEqual([
      ['ivanovo', 2],
      ['other', 1],
    ]);
    expect([...teamEventRounds(boards, 'other')]).toEqual([['other', 1]]);
    expect(teamEventRounds([{ event: 'x', round: 1, white: null }], '').size).toBe(0);
  });

  it('a protocol may change with a result, its confirmation or a new round, not with the clock', () => {
    const before = { result: null, resultConfirmed: false, round: 1 };
    expect(protocolMayChange(undefined, before)).toBe(true);
    expect(protocolMayChange(before, { ...before })).toBe(false);
    expect(protocolMayChange(before, { ...before, result: '1-0' })).toBe(true);
    expect(protocolMayChange(before, { ...before, resultConfirmed: true })).toBe(true);
    expect(protocolMayChange(before, { ...before, round: 2 })).toBe(true);
  });
});

describe('the team match protocol on the arbiter page', () => {
  it('titles a match with its round, teams and board points (halves as ½)', () => {
    expect(matchTitle(match())).toBe('R1 M1 · Школа № 1 – Школа № 2 · 2½–1½');
  });

  it("writes each captain's mark: none, ✓ confirmed, ✗ disputed with the reason, void with the correction that voided it", () => {
    expect(captainMark(side(1, 'Школа № 1', 0))).toEqual(['none', 'Школа № 1: captain has not confirmed']);
    expect(captainMark(side(1, 'Школа № 1', 0, confirmed))).toEqual(['confirmed', 'Школа № 1: ✓ confirmed by Kapitan Pervoy at 15:00 UTC']);
    expect(captainMark(side(2, 'Школа № 2', 0, disputed))).toEqual([
      'disputed',
      'Школа № 2: ✗ disputed by Kapitan Vtoroy at 15:05 UTC: "the draw was offered after the flag fell"',
    ]);
    // The results in the rule book's words (½-½ for a draw), as the browser test reads them.
    expect(captainMark(side(1, 'Школа № 1', 0, voided))).toEqual([
      'void',
      'Школа № 1: confirmed by Kapitan Pervoy at 15:00 UTC — void: board 2 corrected ½-½ → 1-0 by Glavny Sudya at 15:10 UTC',
    ]);
    expect(markedResults(side(1, 'Школа № 1', 0, confirmed))).toBe(`on ${resultWords('1-0')}, ½-½`);
    expect(markedResults(side(1, 'Школа № 1', 0))).toBe('');
  });

  it("writes the arbiter's mark: what is missing, void after a correction, or final (naming a captain who had not confirmed)", () => {
    expect(arbiterMark(match({ resultsIn: false }))).toEqual(['none', 'games in play']);
    expect(arbiterMark(match())).toEqual(['none', "confirm every board's result, then the match"]);
    expect(arbiterMark(match({ resultsConfirmed: true }))).toEqual(['none', "waiting for the arbiter's confirmation"]);
    const mark = { arbiter: 'Glavny Sudya', atUtcMs: min(15), captainsConfirmed: { '1': true, '2': false } };
    expect(arbiterMark(match({ arbiter: mark }))).toEqual([
      'final',
      'match confirmed by Glavny Sudya at 15:15 UTC (final), without the confirmation of Школа № 2',
    ]);
    expect(arbiterMark(match({ arbiter: { ...mark, captainsConfirmed: { '1': true, '2': true } } }))).toEqual([
      'final',
      'match confirmed by Glavny Sudya at 15:15 UTC (final)',
    ]);
    expect(arbiterMark(match({ arbiterVoid: mark }))).toEqual(['void', "the arbiter's confirmation of 15:15 UTC is void after a correction: confirm again"]);
  });

  it('Confirm match asks for a reason only over a standing dispute (a voided dispute no longer stands)', () => {
    expect(disputeQuestion(match())).toBeNull();
    const q = disputeQuestion(match({ teams: [side(1, 'Школа № 1', 2.5, confirmed), side(2, 'Школа № 2', 1.5, disputed)] }));
    expect(q).toBe(`Школа № 2's captain disputes: "the draw was offered after the flag fell"\n\nConfirm the match anyway? Say why (journaled with your name):`);
    expect(disputeQuestion(match({ teams: [side(1, 'Школа № 1', 2.5), side(2, 'Школа № 2', 1.5, { ...disputed, void: voided.void })] }))).toBeNull();
  });
});

describe("the captains' page", () => {
  it('writes the marks from the captain’s side: you, the other captain, the arbiter (with the appeal deadline once final)', () => {
    const m = match({ teams: [side(1, 'Школа № 1', 2.5, voided), side(2, 'Школа № 2', 1.5, disputed)] });
    expect(captainPageMarks(m, 1)).toEqual([
      [
        'void',
        'Your confirmation (confirmed by Kapitan Pervoy at 15:00 UTC) is void: the arbiter corrected board 2 (½-½ → 1-0) at 15:10 UTC; check the results and confirm again',
      ],
      ['disputed', `Школа № 2's captain (Kapitan Vtoroy) disputed at 15:05 UTC: "the draw was offered after the flag fell"`],
      ['none', 'Waiting for the arbiter to confirm the match'],
    ]);
    expect(captainPageMarks(match({ teams: [side(1, 'Школа № 1', 2.5, confirmed), side(2, 'Школа № 2', 1.5)], resultsIn: false }), 1)).toEqual([
      ['confirmed', 'You (Kapitan Pervoy) confirmed at 15:00 UTC'],
      ['none', "Школа № 2's captain: not confirmed yet"],
      ['none', 'Games still in play'],
    ]);
    const final = match({ arbiter: { arbiter: 'Glavny Sudya', atUtcMs: min(15), captainsConfirmed: {} }, appealUntilUtcMs: min(45) });
    expect(captainPageMarks(final, 2).at(-1)).toEqual(['final', 'Confirmed by the arbiter Glavny Sudya at 15:15 UTC: final · appeal until 15:45 UTC']);
    expect(captainPageMarks(match({ arbiterVoid: { arbiter: 'Glavny Sudya', atUtcMs: min(15), captainsConfirmed: {} } }), 2).at(-1)?.[0]).toBe('void');
  });

  it('Confirm lists every result shown (a captain signs what they read) and is offered once every result is in and not yet signed', () => {
    expect(captainConfirmQuestion(match())).toBe('Confirm the results of Школа № 1 – Школа № 2 (2½ – 1½)?\n\nboard 1: 1-0\nboard 2: ½-½');
    expect(captainConfirmQuestion(match({ boards: [{ ...match().boards[0], result: null }] }))).toMatch(/board 1: —$/);
    expect(captainConfirmState(match({ resultsIn: false }), 1)).toEqual({ disabled: true, title: 'every board needs a result first' });
    expect(captainConfirmState(match({ teams: [side(1, 'Школа № 1', 2.5, confirmed), side(2, 'Школа № 2', 1.5)] }), 1)).toEqual({
      disabled: true,
      title: 'you confirmed these results',
    });
    // A voided confirmation, or a dispute, may be followed by a new confirmation.
    expect(captainConfirmState(match({ teams: [side(1, 'Школа № 1', 2.5, voided), side(2, 'Школа № 2', 1.5)] }), 1).disabled).toBe(false);
    expect(captainConfirmState(match({ teams: [side(1, 'Школа № 1', 2.5), side(2, 'Школа № 2', 1.5, disputed)] }), 2).disabled).toBe(false);
  });

  it('says why there is no match to sign: no round open, a bye, or no match', () => {
    expect(noMatchText({ round: null, bye: null })).toBe('No round is open yet.');
    expect(noMatchText({ round: 3, bye: { kind: 'H' } })).toBe('Round 3: your team has the bye (H).');
    expect(noMatchText({ round: 3, bye: null })).toBe('Round 3: your team has no match.');
  });
});

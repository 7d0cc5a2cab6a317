// What the match panels (match-panels.ts) and the captains' page (captain.ts) write about a
// knockout mini-match's lots and a team match's protocol (docs/api.md "Captains"): pure, over
// the API's own types (host/app/ports.ts, host/app/captains.ts, types only), unit-tested in
// protocol-text.test.ts. Results are in the rule book's words (words.ts resultWords).
import type { TeamMatchSide, TeamMatchView } from '../../../../app/captains.ts';
import type { BoardView, LotView } from '../../../../app/ports.ts';
import { hhmm, points, resultWords } from './words.ts';

/** How a mark stands, for the style (`data-state`): none yet, confirmed, disputed, void, final. */
export type MarkState = 'none' | 'confirmed' | 'disputed' | 'void' | 'final';
export type Mark = readonly [MarkState, string];

// ---- colours by lot (Slovenian final 2007 art. 3) -------------------------------------

/** The sentence for one lot: who has White, how the lot was drawn, when. */
export function lotText(lot: LotView): string {
  const which = lot.stage === 'armageddon' ? 'armageddon' : 'game 1';
  const how =
    lot.source === 'arbiter'
      ? `drawn in the hall, entered by arbiter ${lot.by}`
      : lot.source === 'seed'
        ? "from the tournament file's seed (a rehearsal: known in advance)"
        : 'drawn by the host (cryptographic random draw)';
  return `Colours by lot (${which}): ${lot.white} has White — ${how} at ${hhmm(lot.atUtcMs)}`;
}

/** The mini-match game a board plays (`matchId#no`), '' for a board outside a mini-match. */
export function gameKey(b: Pick<BoardView, 'game'> | undefined): string {
  return b && b.game && b.game.matchId ? `${b.game.matchId}#${b.game.no}` : '';
}

/**
 * Whether the lots are asked for again: a board now plays another knockout game (a lot is drawn
 * when the game that needs it opens). One comparison per board update, whatever the number of boards.
 */
export function lotsChanged(before: Pick<BoardView, 'game'> | undefined, b: Pick<BoardView, 'game'>): boolean {
  const key = gameKey(b);
  return key !== '' && key !== gameKey(before);
}

// ---- team matches: which the arbiter's page asks for ----------------------------------

/** Team events shown (every board, or only `event`'s) and their current round: the highest among their boards. */
export function teamEventRounds(boards: Iterable<Pick<BoardView, 'event' | 'round' | 'white'>>, event: string): Map<string, number> {
  const rounds = new Map<string, number>();
  for (const b of boards) {
    if (!(b.white && b.white.team) || (event && b.event !== event)) continue;
    rounds.set(b.event, Math.max(rounds.get(b.event) || 0, b.round));
  }
  return rounds;
}

/** Whether a team board's change may have changed its match's protocol: a result, its confirmation, a new round. */
export function protocolMayChange(
  before: Pick<BoardView, 'result' | 'resultConfirmed' | 'round'> | undefined,
  b: Pick<BoardView, 'result' | 'resultConfirmed' | 'round'>,
): boolean {
  return !before || before.result !== b.result || before.resultConfirmed !== b.resultConfirmed || before.round !== b.round;
}

// ---- team matches on the arbiter's page ------------------------------------------------

/** `R2 M1 · Школа № 1 – Школа № 5 · 2½–1½`. */
export function matchTitle(m: TeamMatchView): string {
  return `R${m.round} M${m.match} · ${m.teams[0].name} – ${m.teams[1].name} · ${points(m.teams[0].points)}–${points(m.teams[1].points)}`;
}

/** One captain's mark as the arbiter reads it. */
export function captainMark(t: TeamMatchSide): Mark {
  const c = t.captain;
  if (!c) return ['none', `${t.name}: captain has not confirmed`];
  const when = hhmm(c.atUtcMs);
  if (c.void)
    return [
      'void',
      `${t.name}: ${c.state} by ${c.captain} at ${when} — void: board ${c.void.board} corrected ${resultWords(c.void.from)} → ${resultWords(c.void.to)} by ${c.void.arbiter} at ${hhmm(c.void.atUtcMs)}`,
    ];
  if (c.state === 'confirmed') return ['confirmed', `${t.name}: ✓ confirmed by ${c.captain} at ${when}`];
  return ['disputed', `${t.name}: ✗ disputed by ${c.captain} at ${when}: "${c.reason ?? ''}"`];
}

/** The results a captain's mark was made on, for its tooltip ('' without a mark). */
export function markedResults(t: TeamMatchSide): string {
  return t.captain && t.captain.results ? `on ${t.captain.results.map(resultWords).join(', ')}` : '';
}

/** The arbiter's mark (final, void, or what is still missing) as the arbiter reads it. */
export function arbiterMark(m: TeamMatchView): Mark {
  if (m.arbiter) {
    const confirmed = m.arbiter.captainsConfirmed;
    const missing = m.teams.filter((t) => !confirmed[String(t.id)]).map((t) => t.name);
    return [
      'final',
      `match confirmed by ${m.arbiter.arbiter} at ${hhmm(m.arbiter.atUtcMs)} (final)${missing.length ? `, without the confirmation of ${missing.join(' and ')}` : ''}`,
    ];
  }
  if (m.arbiterVoid) return ['void', `the arbiter's confirmation of ${hhmm(m.arbiterVoid.atUtcMs)} is void after a correction: confirm again`];
  if (!m.resultsIn) return ['none', 'games in play'];
  if (!m.resultsConfirmed) return ['none', "confirm every board's result, then the match"];
  return ['none', "waiting for the arbiter's confirmation"];
}

/** The question Confirm match asks over standing disputes (null: none, nothing to ask). */
export function disputeQuestion(m: TeamMatchView): string | null {
  const disputes = m.teams.filter((t) => t.captain && !t.captain.void && t.captain.state === 'disputed');
  if (disputes.length === 0) return null;
  const lines = disputes.map((t) => `${t.name}'s captain disputes: "${t.captain?.reason ?? ''}"`).join('\n');
  return `${lines}\n\nConfirm the match anyway? Say why (journaled with your name):`;
}

// ---- the captains' page ---------------------------------------------------------------

/** One line per mark as a captain of `myTeam` reads it: each captain's (a void one says why) and the arbiter's. */
export function captainPageMarks(m: TeamMatchView, myTeam: number): Mark[] {
  const lines: Mark[] = [];
  for (const t of m.teams) {
    const whose = t.id === myTeam ? 'Your confirmation' : `${t.name}'s captain`;
    const who = t.id === myTeam ? 'You' : `${t.name}'s captain`;
    const c = t.captain;
    if (!c) lines.push(['none', `${whose}: not confirmed yet`]);
    else if (c.void) {
      const v = c.void;
      lines.push([
        'void',
        `${whose} (${c.state} by ${c.captain} at ${hhmm(c.atUtcMs)}) is void: the arbiter corrected board ${v.board} (${resultWords(v.from)} → ${resultWords(v.to)}) at ${hhmm(v.atUtcMs)}; check the results and confirm again`,
      ]);
    } else if (c.state === 'confirmed') lines.push(['confirmed', `${who} (${c.captain}) confirmed at ${hhmm(c.atUtcMs)}`]);
    else lines.push(['disputed', `${who} (${c.captain}) disputed at ${hhmm(c.atUtcMs)}: "${c.reason ?? ''}"`]);
  }
  if (m.arbiter) {
    const appeal = m.appealUntilUtcMs ? ` · appeal until ${hhmm(m.appealUntilUtcMs)}` : '';
    lines.push(['final', `Confirmed by the arbiter ${m.arbiter.arbiter} at ${hhmm(m.arbiter.atUtcMs)}: final${appeal}`]);
  } else if (m.arbiterVoid)
    lines.push(['void', `The arbiter's confirmation of ${hhmm(m.arbiterVoid.atUtcMs)} is void after the correction: the arbiter confirms again`]);
  else lines.push(['none', m.resultsIn ? 'Waiting for the arbiter to confirm the match' : 'Games still in play']);
  return lines;
}

/** What the captain's Confirm asks: the match, its score and every board's result shown (a captain signs what they read). */
export function captainConfirmQuestion(m: TeamMatchView): string {
  const shown = m.boards.map((b) => `board ${b.board}: ${resultWords(b.result)}`).join('\n');
  return `Confirm the results of ${m.teams[0].name} – ${m.teams[1].name} (${points(m.teams[0].points)} – ${points(m.teams[1].points)})?\n\n${shown}`;
}

/** Why the captain's Confirm is (not) offered: every result in, and not signed already. */
export function captainConfirmState(m: TeamMatchView, myTeam: number): { disabled: boolean; title: string } {
  const mine = m.teams.find((t) => t.id === myTeam)?.captain ?? null;
  const signed = !!mine && mine.state === 'confirmed' && !mine.void;
  if (!m.resultsIn) return { disabled: true, title: 'every board needs a result first' };
  if (signed) return { disabled: true, title: 'you confirmed these results' };
  return { disabled: false, title: 'sign the match protocol with these results' };
}

/** What the captain's page says when the round shown has no match of the team. */
export function noMatchText(v: { readonly round: number | null; readonly bye: { readonly kind: string } | null }): string {
  if (v.round === null) return 'No round is open yet.';
  return v.bye ? `Round ${v.round}: your team has the bye (${v.bye.kind}).` : `Round ${v.round}: your team has no match.`;
}

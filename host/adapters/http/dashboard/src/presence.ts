// FIDE Laws 6.7.1 with a default time of 0: a player who is not at the board when the clock
// starts loses the game at once. The clock counts a player present only when told (a press of
// the player's lever, or the arbiter's `arrive`), so a Start that forgets a seated player would
// forfeit them. Before such a start the page asks who is at the board and sends their arrivals
// first (docs/dashboard.md "Default time 0: who is present?"), as the clock's own menu does at
// the board (docs/firmware.md "Default time 0: who is present?"). Pure: boards in, questions
// and arrivals out; the dialog is confirm-dialog.ts, the calls panel.ts and main.ts.
import type { BoardView } from '../../../../app/ports.ts';
import { SIDE_NAME, SIDES, type Side } from '../../../../../rules/vocabulary.ts';
import { presenceChoices, presentSides, type Presence } from '../../../../../rules/presence.ts';
import type { ChoiceOption, Confirmation } from './confirmation.ts';

/**
 * The default time in force on board `b` (FIDE Laws 6.7.1), ms: the control the clock runs (a
 * corrected one included, `live.clock.control`), else the board's configured `defaultTimeMs`;
 * null when the game has none.
 */
export function defaultTimeInForce(b: BoardView): number | null {
  if (b.live?.clock) return b.live.clock.control.defaultTimeMs;
  return b.defaultTimeMs ?? null;
}

/**
 * The sides a start of board `b` would forfeit at once: at a default time of 0, those the clock
 * has not marked present (before the clock reported anything, both: a clock counts nobody
 * present until told). Empty when the start asks nothing: another default time, or everyone
 * marked present.
 */
export function absentAtZeroDefault(b: BoardView): Side[] {
  if (b.result !== null || defaultTimeInForce(b) !== 0) return [];
  const present = b.live?.present;
  return SIDES.filter((s) => !present || !present[s]);
}

function who(b: BoardView, side: Side): string {
  const player = b[side];
  return `${SIDE_NAME[side]}${player ? ` (${player.name})` : ''}`;
}

/** What each answer means on board `b`: who is marked present, who loses by default. */
function presenceLines(b: BoardView, p: Presence): string[] {
  const seated = presentSides(p);
  const absent = SIDES.filter((s) => !seated.includes(s));
  const lines: string[] = [];
  if (seated.length > 0) lines.push(`${seated.map((s) => who(b, s)).join(' and ')} ${seated.length > 1 ? 'are' : 'is'} marked present, then the clock starts`);
  else lines.push('nobody is marked present; the clock starts');
  for (const s of absent) lines.push(`${who(b, s)} loses by default at the start (FIDE Laws 6.7.1)`);
  return lines;
}

const PRESENCE_LABEL: Readonly<Record<Presence, string>> = {
  both: 'Both players are at the board',
  white: 'White only',
  black: 'Black only',
  neither: 'Neither player',
};

/**
 * The question before starting board `b` at a default time of 0 with a side not marked present;
 * null when the start asks nothing. Both players are preselected; a side the clock already has
 * as present stays present (only the answers that include it are offered: an arrival is never
 * taken back).
 */
export function startPresenceQuestion(b: BoardView): Confirmation | null {
  const absent = absentAtZeroDefault(b);
  if (absent.length === 0) return null;
  const options: ChoiceOption[] = presenceChoices({ white: !absent.includes('white'), black: !absent.includes('black') }).map((p) => ({
    value: p,
    label: PRESENCE_LABEL[p],
    lines: presenceLines(b, p),
    checked: p === 'both',
  }));
  return {
    title: `Start board ${b.board}: who is at the board?`,
    changes: [`Board ${b.board}: default time 0 — ${absent.map((s) => who(b, s)).join(' and ')} not yet marked present`],
    note: 'FIDE Laws 6.7.1: with a default time of 0, a player who is not at the board when the clock starts loses the game. The players you choose are marked present (as "Arrived") before the clock starts; the others lose by default at once.',
    choice: { legend: 'Who is at the board?', multiple: false, options },
    confirmLabel: 'Start',
  };
}

/** The arrivals to send before the start for answer `p`: the chosen sides not yet marked present. */
export function startArrivals(b: BoardView, p: Presence): Side[] {
  const absent = absentAtZeroDefault(b);
  return presentSides(p).filter((s) => absent.includes(s));
}

/** One player's arrival to send before a round starts. */
export interface Arrival {
  readonly boardId: string;
  readonly side: Side;
}

const arrivalValue = (a: Arrival) => JSON.stringify([a.boardId, a.side]);

/**
 * The question before starting a round (the boards that round start would start, `boards`): one
 * dialog for the round listing, board by board, every player a default time of 0 would forfeit
 * at the start, each ticked (seated) to begin with; the arbiter unticks whoever is not at the
 * board. Null when no board of the round needs it: the round starts at once.
 */
export function roundPresenceQuestion(event: string, round: number, boards: readonly BoardView[]): Confirmation | null {
  const listed = [...boards].sort((a, b) => a.board - b.board).filter((b) => absentAtZeroDefault(b).length > 0);
  if (listed.length === 0) return null;
  const options: ChoiceOption[] = listed.flatMap((b) =>
    absentAtZeroDefault(b).map((side) => ({
      value: arrivalValue({ boardId: b.id, side }),
      label: `Board ${b.board} · ${who(b, side)}`,
      lines: [],
      checked: true,
    })),
  );
  const players = options.length === 1 ? '1 player' : `${options.length} players`;
  const boardsText = listed.length === 1 ? '1 board' : `${listed.length} boards`;
  return {
    title: `Start round ${round} of ${event}: is everyone seated?`,
    changes: [`${boardsText} with a default time of 0: ${players} not yet marked present`],
    note: 'FIDE Laws 6.7.1: with a default time of 0, a player who is not at the board when the clock starts loses the game. Every ticked player is marked present (as "Arrived") before the round starts; untick a player who is not at the board: that player loses by default at the start. Nothing starts if an arrival is refused.',
    choice: { legend: 'Seated now (untick the absent)', multiple: true, options },
    confirmLabel: `Start round ${round}`,
  };
}

/** The arrivals the round question's ticked answers ask for (values as roundPresenceQuestion made them). */
export function roundArrivals(chosen: readonly string[]): Arrival[] {
  return chosen.map((value) => {
    const [boardId, side] = JSON.parse(value) as [string, Side];
    return { boardId, side };
  });
}

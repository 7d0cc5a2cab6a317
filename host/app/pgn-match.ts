// A moves file's game joined to the journal's game, shared by `chessclock export --pgn --moves`
// (host/adapters/exports/pgn-merge.ts, docs/exports.md "Clock times merged into the moves") and
// the live broadcast (host/adapters/broadcast/, docs/broadcast.md): which journal game an input
// game is (GameId, else round + names), each press's %clk and %emt, the side of each main-line
// move, and the input's own clock commands taken out.

import type { Side } from '../../protocol/time-control.ts';
import type { ClockEventRow, GameRow } from '../store/journal.ts';
import type { TournamentEvent } from '../domain/model.ts';
import { GameRebuilder } from '../../rules/rebuild.ts';
import { pressClocks } from '../../rules/press-clocks.ts';
import { pgnGameId } from './pgn-game.ts';
import { firstMove, mainLine, type MovetextGame } from './pgn-movetext.ts';

/** One press: the mover's remaining time after it and the time the move took. */
export interface PressTime {
  clockMs: number;
  /** Null when the rebuild did not reproduce the press (then only %clk is written). */
  emtMs: number | null;
}

/**
 * Each side's presses by move number (`white:12`), from the journal's `moved` events rebuilt
 * through the statechart; `mismatches` counts events the rebuild did not reproduce (their
 * %emt may then be off).
 */
export function pressTimes(game: GameRow, events: readonly ClockEventRow[]): { presses: Map<string, PressTime>; mismatches: number } {
  const clocks = pressClocks(events);
  const emts = new Map<string, number | null>();
  const rebuild = new GameRebuilder(game.timeControlValue);
  try {
    events.forEach((e, index) => {
      const mismatch = rebuild.feed(e, index);
      if (e.type !== 'moved' || e.side === null || e.move === null) return;
      // The press just fed is the statechart's last completed move (completeMove's undo record,
      // at this instant); a later press of the same move (after a take-back) replaces it.
      const undo = rebuild.state.undo;
      const ok = mismatch === null && undo !== null && undo.turn === e.side && undo.at === rebuild.at;
      emts.set(`${e.side}:${e.move}`, ok ? undo.turnActiveMs : null);
    });
  } finally {
    rebuild.stop();
  }
  const presses = new Map<string, PressTime>();
  for (const [key, clockMs] of clocks) presses.set(key, { clockMs, emtMs: emts.get(key) ?? null });
  return { presses, mismatches: rebuild.mismatches.length };
}

const normal = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
const unknown = (v: string | undefined) => v === undefined || v.trim() === '' || v.trim() === '?';

/**
 * The journal game an input game is: by its GameId tag when it has one (`EVENT:r.b.g`, as the
 * round PGN writes it); else by Round `r.b` or `r.b.g` (game 1 when g is left out) with White
 * and Black equal to the journal's players; else, Round `r` or unknown, by White and Black alone
 * (one game of those players in that round or the event). An Event tag that is neither unknown
 * nor the event's name means another event. Names compare without case and extra spaces.
 */
export function matchJournalGame(event: TournamentEvent, games: readonly GameRow[], tags: ReadonlyMap<string, string>): GameRow | string {
  const gameId = tags.get('GameId');
  if (gameId !== undefined && !unknown(gameId)) {
    const found = games.find((g) => pgnGameId(event.id, g.round, g.board, g.gameNo) === gameId.trim());
    return found ?? `GameId "${gameId}" is no game of event "${event.id}" in the journal`;
  }
  const eventTag = tags.get('Event');
  if (!unknown(eventTag) && normal(eventTag!) !== normal(event.name)) return `Event "${eventTag}" is not "${event.name}"`;
  const white = tags.get('White');
  const black = tags.get('Black');
  if (unknown(white) || unknown(black)) return 'no GameId, and White or Black is missing: the game cannot be matched';
  const players = (g: GameRow) => normal(g.white) === normal(white!) && normal(g.black) === normal(black!);
  const round = (tags.get('Round') ?? '').trim();
  const m = /^(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(round);
  if (m && m[2] !== undefined) {
    const [r, b, n] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
    const at = games.find((g) => g.round === r && g.board === b && g.gameNo === n);
    if (!at) return `Round "${round}": the journal has no round ${r} board ${b} game ${n}`;
    if (!players(at)) return `Round "${round}" is ${at.white} – ${at.black} in the journal, not ${white} – ${black}`;
    return at;
  }
  if (!m && !unknown(round)) return `Round "${round}" is not r, r.b or r.b.g`;
  const candidates = games.filter((g) => players(g) && (!m || g.round === Number(m[1])));
  if (candidates.length === 1) return candidates[0];
  return candidates.length === 0
    ? `no game ${white} – ${black}${m ? ` in round ${m[1]}` : ''} in the journal`
    : `${candidates.length} games ${white} – ${black} in the journal (${candidates.map((g) => `${g.round}.${g.board}.${g.gameNo}`).join(', ')}): give Round r.b.g or GameId`;
}

const CLOCK_COMMAND = /\[%(?:clk|emt)\s[^\]]*\]\s*/g;

export function describeKey(key: string): string {
  const [side, k] = key.split(':');
  return `${side === 'white' ? 'White' : 'Black'}'s move ${k}`;
}

export function countPresses(presses: ReadonlyMap<string, PressTime>, side: Side): number {
  let n = 0;
  for (const key of presses.keys()) if (key.startsWith(`${side}:`)) n++;
  return n;
}

/**
 * The k-th move of a side is the side's k-th press (docs/exports.md "Clock times merged into the
 * moves"): each main-line move's key (`white:3`), and how the moves and the presses differ in
 * number, in words (`White 3 moves / 2 presses, Black …; no press for 1 move(s), first …`), or
 * null when every move has its press and every press its move.
 */
export function movesByPress(game: MovetextGame, presses: ReadonlyMap<string, PressTime>): { keys: string[]; difference: string | null } {
  const counts = { white: 0, black: 0 };
  const keys = plySides(game).map((side) => `${side}:${++counts[side]}`);
  const pressed = { white: countPresses(presses, 'white'), black: countPresses(presses, 'black') };
  const missing = keys.filter((k) => !presses.has(k));
  if (counts.white === pressed.white && counts.black === pressed.black && missing.length === 0) return { keys, difference: null };
  const difference =
    `White ${counts.white} moves / ${pressed.white} presses, Black ${counts.black} moves / ${pressed.black} presses` +
    `${missing.length ? `; no press for ${missing.length} move(s), first ${describeKey(missing[0])}` : ''}`;
  return { keys, difference };
}

/** The side of each main-line move: alternating from White, or from the side the FEN tag gives. */
export function plySides(game: MovetextGame): Side[] {
  const startBlack = firstMove(game).black;
  return mainLine(game).map((_, i) => ((i + (startBlack ? 1 : 0)) % 2 === 0 ? 'white' : 'black'));
}

/** The input's own [%clk]/[%emt] commands in main-line comments are replaced by the journal's; an emptied comment goes. */
export function stripClockCommands(game: MovetextGame): MovetextGame {
  let depth = 0;
  const tokens = game.tokens.flatMap((t) => {
    if (t.kind === 'open') depth++;
    if (t.kind === 'close') depth--;
    if (t.kind !== 'comment' || depth !== 0 || !CLOCK_COMMAND.test(t.text)) return [t];
    CLOCK_COMMAND.lastIndex = 0;
    const text = t.text.replace(CLOCK_COMMAND, '').trim();
    return text === '' ? [] : [{ ...t, text }];
  });
  return { ...game, tokens };
}

// A game as PGN, shared by the round's PGN feed and export (host/adapters/exports/pgn.ts) and
// the live broadcast (host/adapters/broadcast/): the tag pairs, the results, the live clock and
// the GameId. Tags: the Seven Tag Roster (PGN standard
// §8.1.1: Event, Site, Date, Round, White, Black, Result), then GameId, WhiteElo/BlackElo,
// WhiteFideId/BlackFideId, WhiteTeam/BlackTeam, TimeControl (§9.6.1; `?` with
// WhiteTimeControl/BlackTimeControl for unequal controls), Termination, and the live clock tags
// broadcast relays read:
//  - `WhiteClock` / `BlackClock`: each side's remaining time, h:mm:ss (lichess broadcast reads
//    these tags; DGT LiveChess writes them);
//  - `Clock`: the running clock, `W/h:mm:ss` or `B/h:mm:ss` (PGN supplement, "Clock" tag: only one
//    clock runs at a time, so one tag names it); left out while no clock runs (paused, not started, over).
// Times are computed at `nowUtcMs` by the rule book from the game rebuilt from the journal
// (liveClock): the running side's time with delays and the sandclock, never below 0; seconds
// are rounded up as the clock's display does (rules/display-format.ts formatPgnClock).
//
// Results are the four PGN results (§8.2.6), and a double forfeit, which has none: its Result
// tag is `0-0` (as lichess broadcasts read it), a comment says both lost by forfeit,
// and the movetext ends with `*`, the one marker every reader the suite runs accepts there. A
// forfeit with no press on the clock (`+-`/`-+`) is not a game and is left out of the file
// (docs/exports.md, "Forfeits in PGN").
//
// The clock does not know the moves. Movetext is the moves when the caller has them (from an
// electronic board or the relay), each followed by `{[%clk h:mm:ss]}` from the matching press
// (the mover's remaining time after the press); without moves the movetext is the result alone.

import type { Side, TimeControl } from '../../protocol/time-control.ts';
import { formatSideControl, formatTimeControl } from '../../protocol/time-control.ts';
import type { ClockEventRow, GameRow } from '../store/journal.ts';
import { controlCharacterIn, type TournamentEvent } from '../domain/model.ts';
import { formatPgnClock } from '../../rules/display-format.ts';
import { basisRemainingMs, clockBasis } from '../../rules/clock-snapshot.ts';
import { rebuildGame, type RebuiltGame } from '../../rules/rebuild.ts';
import { forfeitResultFor, RESULT_MEANING, type PgnResultToken, type GameResult } from '../../rules/vocabulary.ts';
import { forfeitedSides } from './journal-records.ts';

export class PgnWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PgnWriteError';
  }
}

/** PGN string escaping (§7): backslash and double quote; a control character (a newline would split the tag line) is refused. */
function quote(tag: string, value: string): string {
  const bad = controlCharacterIn(value);
  if (bad) throw new PgnWriteError(`PGN tag ${tag}: the value ${JSON.stringify(value)} holds ${bad} (PGN standard §7 allows printing characters only)`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export interface PgnGame {
  event: string;
  site: string;
  /** YYYY.MM.DD, `??` for unknown parts. */
  date: string;
  /** `round.board` (e.g. "1.3"). */
  round: string;
  white: string;
  black: string;
  /** null while the game runs or the result is not yet confirmed → `*`. A double forfeit (`--`) is written `0-0`. */
  result: GameResult | null;
  /** The `GameId` tag: one game of the event, e.g. `slo-w-2007:1.1.3` (lichess relays match games by it). */
  gameId?: string | null;
  timeControl: TimeControl;
  whiteElo?: number | null;
  blackElo?: number | null;
  whiteFideId?: number | null;
  blackFideId?: number | null;
  whiteTeam?: string | null;
  blackTeam?: string | null;
  termination?: string | null;
  clock?: { whiteMs: number; blackMs: number; running: Side | null } | null;
  /** SAN moves, when known, with the mover's remaining time after each. */
  moves?: { san: string; clockMs: number | null }[];
  comment?: string | null;
}

/** The double forfeit (FIDE Laws 6.7.1: neither player came, both lose) in the vocabulary's words. */
export const DOUBLE_FORFEIT: GameResult = forfeitResultFor('both');

/**
 * The Result tag of a double forfeit (`--`). PGN standard §8.2.6 has no result for it; `0-0` is
 * what lichess broadcasts read as both lost (lila pull request 16081). Readers that do not
 * know it (chessops, @mliebelt/pgn-parser) read the game as `*`, unknown: never as a win or a draw.
 */
export const DOUBLE_FORFEIT_RESULT_TAG = '0-0';

/**
 * The movetext's game termination marker of a double forfeit: `*`. The token `0-0` there is
 * read as castling by chessops (a move, in a game that has none) and refused with the whole
 * file by pgn-parser; `*` is read by both (docs/exports.md "Forfeits in PGN").
 */
const DOUBLE_FORFEIT_MARKER: PgnResultToken = '*';

/** What the movetext of a double forfeit says, when the caller gives no comment of its own. */
const DOUBLE_FORFEIT_COMMENT = 'Both players lost by forfeit (0-0).';

/** The movetext's termination marker (§8.2.6): the vocabulary's PGN token (rules/vocabulary.ts), a forfeit win as the win it counts as. */
export function pgnResult(r: GameResult | null): PgnResultToken {
  if (r === null) return '*';
  if (r === DOUBLE_FORFEIT) return DOUBLE_FORFEIT_MARKER;
  const token = RESULT_MEANING[r].pgn;
  if (token === null) throw new PgnWriteError(`result ${r} (${RESULT_MEANING[r].meaning}) has no PGN result token (PGN standard §8.2.6)`);
  return token;
}

/** The Result tag: the marker, except for a double forfeit (`0-0`). */
export function resultTag(r: GameResult | null): string {
  return r === DOUBLE_FORFEIT ? DOUBLE_FORFEIT_RESULT_TAG : pgnResult(r);
}

/** A game's tag pairs in the order the file writes them (the Seven Tag Roster first, PGN standard §8.1.1). */
export function pgnTagPairs(g: PgnGame, formatClock: (ms: number) => string = formatPgnClock): [string, string][] {
  const tags: [string, string][] = [
    ['Event', g.event],
    ['Site', g.site],
    ['Date', g.date],
    ['Round', g.round],
    ['White', g.white],
    ['Black', g.black],
    ['Result', resultTag(g.result)],
  ];
  if (g.gameId) tags.push(['GameId', g.gameId]);
  if (g.whiteElo) tags.push(['WhiteElo', String(g.whiteElo)]);
  if (g.blackElo) tags.push(['BlackElo', String(g.blackElo)]);
  if (g.whiteFideId) tags.push(['WhiteFideId', String(g.whiteFideId)]);
  if (g.blackFideId) tags.push(['BlackFideId', String(g.blackFideId)]);
  if (g.whiteTeam) tags.push(['WhiteTeam', g.whiteTeam]);
  if (g.blackTeam) tags.push(['BlackTeam', g.blackTeam]);
  if (formatTimeControl(g.timeControl).startsWith('W')) {
    // Unequal controls (armageddon) have no §9.6.1 form: TimeControl is the standard's "?"
    // (§9.6.1: the control cannot be given in one field), each side's in a tag of its own
    // (the names Cute Chess writes and reads; docs/exports.md).
    tags.push(['TimeControl', '?'], ['WhiteTimeControl', formatSideControl(g.timeControl.white)], ['BlackTimeControl', formatSideControl(g.timeControl.black)]);
  } else tags.push(['TimeControl', formatTimeControl(g.timeControl)]);
  if (g.termination) tags.push(['Termination', g.termination]);
  if (g.clock) {
    tags.push(['WhiteClock', formatClock(g.clock.whiteMs)], ['BlackClock', formatClock(g.clock.blackMs)]);
    const running = g.clock.running;
    if (running !== null) {
      tags.push(['Clock', `${running === 'white' ? 'W' : 'B'}/${formatClock(running === 'white' ? g.clock.whiteMs : g.clock.blackMs)}`]);
    }
  }
  return tags;
}

/** Tag pair lines (§8.1), each value escaped (§7). */
export function formatTagPairs(tags: readonly [string, string][]): string[] {
  return tags.map(([k, v]) => `[${k} ${quote(k, v)}]`);
}

export function formatPgnGame(g: PgnGame): string {
  const head = formatTagPairs(pgnTagPairs(g)).join('\n');
  const tokens: string[] = [];
  // A double forfeit says so in the movetext too: readers that do not know `0-0` read `*`.
  const comment = g.comment ?? (g.result === DOUBLE_FORFEIT ? DOUBLE_FORFEIT_COMMENT : null);
  if (comment) tokens.push(`{${comment.replace(/}/g, ')')}}`);
  (g.moves ?? []).forEach((m, i) => {
    if (i % 2 === 0) tokens.push(`${i / 2 + 1}.`);
    tokens.push(m.san);
    if (m.clockMs !== null) tokens.push(`{[%clk ${formatPgnClock(m.clockMs)}]}`);
  });
  tokens.push(pgnResult(g.result));
  // §8.2.5: movetext lines of at most 79 characters.
  const lines: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line && line.length + 1 + t.length > 79) {
      lines.push(line);
      line = t;
    } else line = line ? `${line} ${t}` : t;
  }
  lines.push(line);
  return `${head}\n\n${lines.join('\n')}\n`;
}

/**
 * The live clock of a game at `nowUtcMs`: the game rebuilt from its journaled events through
 * the statechart (rules/rebuild.ts), read with the rule book after the time since its last
 * event (the running side's time with delays and the sandclock included). `stopped`: the
 * game has a confirmed result, so no clock runs in the broadcast.
 */
export function liveClock(
  game: GameRow,
  events: readonly ClockEventRow[],
  nowUtcMs: number,
  stopped: boolean,
  rebuilt: RebuiltGame = rebuildGame(game.timeControlValue, events),
): PgnGame['clock'] {
  return liveClockFrom(events, stopped, rebuilt)(nowUtcMs);
}

/** liveClock at any instant from one rebuild: the game's clock as a function of the instant (the broadcast's cached merge). */
export function liveClockFrom(events: readonly ClockEventRow[], stopped: boolean, rebuilt: RebuiltGame): (nowUtcMs: number) => PgnGame['clock'] {
  const last = events.at(-1);
  if (!last) return () => null;
  const basis = clockBasis(rebuilt.state, rebuilt.at);
  const running = !stopped && basis.running ? rebuilt.state.turn : null;
  const at = running === null ? { ...basis, running: false } : basis;
  return (nowUtcMs) => {
    const elapsed = running === null ? 0 : Math.max(0, nowUtcMs - last.utcMs);
    return { whiteMs: basisRemainingMs(at, 'white', elapsed), blackMs: basisRemainingMs(at, 'black', elapsed), running };
  };
}

export function pgnTermination(game: GameRow): string | null {
  if (game.result === null || game.confirmedBy === null) return null;
  if (game.how === 'flag') return 'time forfeit';
  // PGN §9.8.1 "rules infraction": administratively adjudicated as a loss (e.g. FIDE Laws 6.7.1 lateness).
  if (RESULT_MEANING[game.result].forfeit) return 'rules infraction';
  return 'normal';
}

/**
 * A game that was not played, which the PGN leaves out: a confirmed forfeit win with no press on
 * the clock (FIDE Laws 6.7.1 lateness; FIDE rating regulations do not rate it, TRF16 writes it
 * `+`/`-`, and a `1-0` without moves would be taken for a game played). A double forfeit is
 * written (`0-0`, which no game played ends with: docs/exports.md "Forfeits in PGN").
 */
export function unplayedGame(result: GameResult | null, events: readonly ClockEventRow[]): boolean {
  if (result === null || !RESULT_MEANING[result].forfeit || result === DOUBLE_FORFEIT) return false;
  return !events.some((e) => e.type === 'moved');
}

/**
 * The comment of a double forfeit: both lost, and when neither came within the default time
 * (the clock forfeited both, whoever entered the result) the Law, FIDE Laws 6.7.1.
 */
export function doubleForfeitComment(game: GameRow, events: readonly ClockEventRow[]): string {
  return game.how === 'forfeit-lateness' || forfeitedSides(events).length === 2
    ? 'Both players lost by forfeit (0-0): neither was at the board within the default time (FIDE Laws 6.7.1).'
    : DOUBLE_FORFEIT_COMMENT;
}

/** The `GameId` tag: event, round, board and game number, the same on every request and after a host restart. */
export function pgnGameId(eventId: string, round: number, board: number, gameNo: number): string {
  return `${eventId}:${round}.${board}.${gameNo}`;
}

/**
 * A journal game as PGN without its moves, at `nowUtcMs`: the tags (`Round` `r.b`, or `r.b.g` for
 * a knockout mini-match's games, which share a board), the result once an arbiter confirmed it,
 * its termination, and the live clock. Null for a forfeit win that was not played (`unplayedGame`).
 */
export function journalPgnGame(event: TournamentEvent, site: string, game: GameRow, events: readonly ClockEventRow[], nowUtcMs: number): PgnGame | null {
  const found = journalPgnGameFrom(event, site, game, events);
  return found === null ? null : { ...found.head, clock: found.clockAt(nowUtcMs) };
}

/** journalPgnGame with its clock at any instant, from one rebuild (the broadcast's cached merge); `head.clock` is null. */
export function journalPgnGameFrom(
  event: TournamentEvent,
  site: string,
  game: GameRow,
  events: readonly ClockEventRow[],
): { head: PgnGame; clockAt: (nowUtcMs: number) => PgnGame['clock'] } | null {
  const confirmed = game.confirmedBy !== null ? game.result : null;
  if (unplayedGame(confirmed, events)) return null;
  const white = event.players.find((p) => p.rank === game.whiteRank);
  const black = event.players.find((p) => p.rank === game.blackRank);
  const startedAt = events.find((e) => e.type === 'started')?.utcMs ?? game.earliestStartUtcMs ?? game.createdUtcMs;
  const date = new Date(startedAt).toISOString().slice(0, 10).replace(/-/g, '.'); // formatting a stored time
  // The control the game was played under: a correction the arbiter installed (FIDE Laws 6.10.2) wins.
  const rebuilt = rebuildGame(game.timeControlValue, events);
  const head: PgnGame = {
    event: event.name,
    site,
    date,
    round: game.matchId !== null ? `${game.round}.${game.board}.${game.gameNo}` : `${game.round}.${game.board}`,
    white: game.white,
    black: game.black,
    result: confirmed,
    gameId: pgnGameId(event.id, game.round, game.board, game.gameNo),
    timeControl: rebuilt.state.timeControl,
    whiteElo: white?.rating ?? null,
    blackElo: black?.rating ?? null,
    whiteFideId: white?.fideId ?? null,
    blackFideId: black?.fideId ?? null,
    whiteTeam: game.whiteTeam,
    blackTeam: game.blackTeam,
    termination: pgnTermination(game),
    comment: confirmed === DOUBLE_FORFEIT ? doubleForfeitComment(game, events) : null,
    clock: null,
  };
  return { head, clockAt: liveClockFrom(events, confirmed !== null || game.result !== null, rebuilt) };
}

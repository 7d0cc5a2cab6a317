// The team match protocol (Ivanovo "White Rook" 2018: the captains sign the match protocol,
// docs/regulations.md): each captain confirms the results of their team's match, or disputes
// them with a short reason; the arbiter's confirmation of the match is final.
//
// Everything is journaled as actions (`captain-confirm`, `captain-dispute`, `match-confirm`) with
// who and when, and every view is recomputed from the journal, so a restarted host shows the
// same marks. A captain's mark never changes a result: results are the arbiter's (FIDE Laws 8.7),
// and a mark is only valid for the results it was made on. When the arbiter corrects a result
// of the match afterwards, every earlier mark of that match (the captains' and the arbiter's own
// match confirmation) is void, and the view says which correction voided it.
import { RESULT_MEANING, type GameResult } from '../../rules/vocabulary.ts';
import { appealDeadline } from '../domain/appeal.ts';
import { playerByRank, teamById, type Hall, type TeamMatch, type TournamentEvent } from '../domain/model.ts';
import type { ArbiterActionRow, GameRow, Journal } from '../store/journal.ts';
import { boardIdOf } from './journal-ports.ts';

const CAPTAIN_CONFIRM = 'captain-confirm';
const CAPTAIN_DISPUTE = 'captain-dispute';
const MATCH_CONFIRM = 'match-confirm';

/** How a captain's action is signed in the journal's `arbiter` column (like `arbiter:NAME` for a reporter). */
const captainActor = (name: string): string => `captain:${name}`;

/** Who a captain token speaks for: one team of one team event. */
export interface CaptainIdentity {
  readonly captain: string;
  readonly event: string;
  readonly team: number;
}

export interface TeamRef {
  readonly id: number;
  readonly name: string;
}

/** A correction that voided a mark: which board, from what to what, by whom and when. */
export interface VoidedBy {
  readonly board: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly arbiter: string;
  readonly atUtcMs: number;
}

/** A captain's standing mark on the match: the latest confirmation or dispute of their team. */
export interface CaptainMark {
  readonly state: 'confirmed' | 'disputed';
  readonly captain: string;
  readonly atUtcMs: number;
  /** The results the mark was made on, in board order (null: no result yet). */
  readonly results: readonly (string | null)[];
  readonly reason?: string;
  /** Set when the arbiter corrected a result of the match after the mark: the mark no longer counts. */
  readonly void?: VoidedBy;
}

export interface ArbiterMark {
  readonly arbiter: string;
  readonly atUtcMs: number;
  /** Whether each captain had a valid confirmation when the arbiter confirmed (by team id). */
  readonly captainsConfirmed: Readonly<Record<string, boolean>>;
  readonly reason?: string;
  readonly void?: VoidedBy;
}

export interface TeamMatchBoard {
  readonly board: number;
  /** The board's id in the API (`/api/boards/:id`). */
  readonly boardId: string;
  readonly white: { readonly name: string; readonly team: number };
  readonly black: { readonly name: string; readonly team: number };
  readonly result: string | null;
  readonly confirmed: boolean;
}

export interface TeamMatchSide extends TeamRef {
  /** Board points of the team from the results in so far. */
  readonly points: number;
  readonly captain: CaptainMark | null;
}

/** One team match and its protocol, as the dashboard and the captain view show it. */
export interface TeamMatchView {
  /** `EVENT/rROUND/mMATCH` */
  readonly id: string;
  readonly event: string;
  readonly round: number;
  /** 1-based, in the round's pairing order. */
  readonly match: number;
  /** [the team with White on board 1, the other]. */
  readonly teams: readonly [TeamMatchSide, TeamMatchSide];
  readonly boards: readonly TeamMatchBoard[];
  readonly resultsIn: boolean;
  /** Every board's result confirmed by an arbiter. */
  readonly resultsConfirmed: boolean;
  /** The arbiter's confirmation of the match (final), unless a later correction voided it. */
  readonly arbiter: ArbiterMark | null;
  /** The arbiter's last match confirmation when a later correction voided it (the arbiter confirms again). */
  readonly arbiterVoid?: ArbiterMark;
  /** The latest appeal deadline of the match's results, where the event states a window. */
  readonly appealUntilUtcMs?: number | null;
}

export type ProtocolOutcome =
  | { readonly ok: true; readonly match: TeamMatchView; readonly unchanged?: boolean }
  | { readonly ok: false; readonly status: 403 | 404 | 409 | 422; readonly reason: string };

/** What `GET /api/captain/match` answers: the captain's team and its match of a round (null: none yet, or a bye). */
export interface CaptainMatchView {
  readonly captain: string;
  readonly event: string;
  readonly eventName: string;
  readonly team: TeamRef;
  readonly round: number | null;
  /** The rounds opened so far, oldest first: a captain may still sign an earlier round's match. */
  readonly openedRounds: readonly number[];
  readonly match: TeamMatchView | null;
  readonly bye: { readonly kind: string } | null;
}

type Refusal = Extract<ProtocolOutcome, { ok: false }>;
const refuse = (status: Refusal['status'], reason: string): Refusal => ({ ok: false, status, reason });

interface MarkPayload {
  matchId: string;
  team?: number;
  teamName?: string;
  captain?: string;
  results: (string | null)[];
  reason?: string;
  captainsConfirmed?: Record<string, boolean>;
}

export class TeamMatchProtocols {
  constructor(
    private readonly journal: Journal,
    private readonly hall: Hall,
    private readonly nowUtcMs: () => number,
  ) {}

  /** Why a captain token's scope is wrong for this hall (checked when the host starts), or null. */
  checkCaptain(c: CaptainIdentity): string | null {
    const event = this.hall.events.find((e) => e.id === c.event);
    if (!event) return `captain ${c.captain}: no event "${c.event}" in the tournament (events: ${this.hall.events.map((e) => e.id).join(', ')})`;
    if (event.kind !== 'team') return `captain ${c.captain}: event "${c.event}" is not a team event`;
    if (!event.teams.some((t) => t.id === c.team))
      return `captain ${c.captain}: event "${c.event}" has no team ${c.team} (teams: ${event.teams.map((t) => t.id).join(', ')})`;
    return null;
  }

  /** The team matches of the rounds opened so far (with games in the journal), optionally of one event and round. */
  matches(query: { event?: string; round?: number } = {}): TeamMatchView[] {
    const actions = this.journal.arbiterActions();
    const out: TeamMatchView[] = [];
    for (const event of this.hall.events) {
      if (event.kind !== 'team' || (query.event !== undefined && query.event !== event.id)) continue;
      for (const r of event.rounds) {
        if (query.round !== undefined && r.number !== query.round) continue;
        if (this.journal.gamesByRound(event.id, r.number).length === 0) continue;
        r.teamMatches.forEach((tm, i) => out.push(this.view(event, r.number, i + 1, tm, actions)));
      }
    }
    return out;
  }

  /** The captain's team and its match in `round` (default: the latest round opened). */
  captainMatch(who: CaptainIdentity, round?: number): { ok: true; view: CaptainMatchView } | Refusal {
    const event = this.teamEvent(who.event);
    if (!event) return refuse(404, `no team event "${who.event}"`);
    const team = teamById(event, who.team);
    const opened = event.rounds.filter((r) => this.journal.gamesByRound(event.id, r.number).length > 0).map((r) => r.number);
    const base = { captain: who.captain, event: event.id, eventName: event.name, team: { id: team.id, name: team.name }, openedRounds: opened };
    if (round !== undefined && !opened.includes(round)) {
      return refuse(404, `round ${round} of ${event.name} is not open (${opened.length ? `open: ${opened.join(', ')}` : 'no round is open yet'})`);
    }
    const number = round ?? (opened.length ? Math.max(...opened) : null);
    if (number === null) return { ok: true, view: { ...base, round: null, match: null, bye: null } };
    const r = event.rounds.find((x) => x.number === number)!;
    const index = r.teamMatches.findIndex((m) => m.white === team.id || m.black === team.id);
    if (index < 0) {
      const bye = r.byes.find((b) => b.team === team.id);
      return { ok: true, view: { ...base, round: number, match: null, bye: bye ? { kind: bye.kind } : null } };
    }
    return {
      ok: true,
      view: { ...base, round: number, match: this.view(event, number, index + 1, r.teamMatches[index], this.journal.arbiterActions()), bye: null },
    };
  }

  /**
   * A captain confirms the match's results as they saw them (`results`, in board order): refused
   * (409) while a board has no result, or when the results changed since they were shown.
   */
  confirmByCaptain(who: CaptainIdentity, round: number, match: number, results: readonly string[]): ProtocolOutcome {
    return this.journal.transaction(() => {
      const found = this.captainsMatch(who, round, match);
      if (!found.ok) return found;
      const { event, tm, view } = found;
      const missing = view.boards.filter((b) => b.result === null).map((b) => b.board);
      if (missing.length)
        return refuse(
          409,
          `${this.where(view, event)}: not every result is in (board${missing.length > 1 ? 's' : ''} ${missing.join(', ')} still without a result): confirm once all are in`,
        );
      const changed = this.changedSince(view, results);
      if (changed) return refuse(409, changed);
      const side = this.sideOf(view, who.team);
      const mark = side.captain;
      if (
        mark &&
        mark.state === 'confirmed' &&
        !mark.void &&
        sameResults(
          mark.results,
          view.boards.map((b) => b.result),
        )
      ) {
        return { ok: true, match: view, unchanged: true };
      }
      this.record(event, round, who, CAPTAIN_CONFIRM, {
        matchId: view.id,
        team: side.id,
        teamName: side.name,
        captain: who.captain,
        results: view.boards.map((b) => b.result),
      });
      return { ok: true, match: this.view(event, round, match, tm, this.journal.arbiterActions()) };
    });
  }

  /**
   * A captain disputes the match's results with a short reason (at any time before the arbiter's
   * final confirmation: a protest is lodged as soon as something happens). It changes no result.
   */
  disputeByCaptain(who: CaptainIdentity, round: number, match: number, reason: string): ProtocolOutcome {
    const text = reason.trim();
    if (text === '') return refuse(422, 'a dispute needs a reason');
    return this.journal.transaction(() => {
      const found = this.captainsMatch(who, round, match);
      if (!found.ok) return found;
      const { event, tm, view } = found;
      if (view.arbiter) {
        const appeal = view.appealUntilUtcMs
          ? `; an appeal (in writing, to the appeals committee) is possible until ${new Date(view.appealUntilUtcMs).toISOString().slice(11, 16)} UTC`
          : '';
        return refuse(
          409,
          `${this.where(view, event)}: the arbiter ${view.arbiter.arbiter} confirmed the match at ${new Date(view.arbiter.atUtcMs).toISOString().slice(11, 16)} UTC: the result is final here${appeal} (docs/regulations.md)`,
        );
      }
      const side = this.sideOf(view, who.team);
      this.record(event, round, who, CAPTAIN_DISPUTE, {
        matchId: view.id,
        team: side.id,
        teamName: side.name,
        captain: who.captain,
        results: view.boards.map((b) => b.result),
        reason: text,
      });
      return { ok: true, match: this.view(event, round, match, tm, this.journal.arbiterActions()) };
    });
  }

  /**
   * The arbiter confirms the match: final. Every board's result must be confirmed first (that is
   * where the arbiter decides between reported results, FIDE Laws 8.7). Without the captains'
   * confirmations it is still taken, and the journal records which captains had not confirmed;
   * over a standing dispute the arbiter says why (`reason`, else 422).
   */
  confirmByArbiter(eventId: string, round: number, match: number, arbiter: string, reason?: string): ProtocolOutcome {
    return this.journal.transaction(() => {
      const event = this.teamEvent(eventId);
      if (!event) return refuse(404, `no team event "${eventId}"`);
      const found = this.matchOf(event, round, match);
      if (!found.ok) return found;
      const { tm, view } = found;
      const where = this.where(view, event);
      const missing = view.boards.filter((b) => b.result === null).map((b) => b.board);
      if (missing.length) return refuse(409, `${where}: not every result is in (board${missing.length > 1 ? 's' : ''} ${missing.join(', ')})`);
      const unconfirmed = view.boards.filter((b) => !b.confirmed).map((b) => b.board);
      if (unconfirmed.length)
        return refuse(
          409,
          `${where}: confirm the result of board${unconfirmed.length > 1 ? 's' : ''} ${unconfirmed.join(', ')} first (POST /api/boards/:id/result/confirm)`,
        );
      if (view.arbiter) return refuse(409, `${where}: already confirmed by ${view.arbiter.arbiter} at ${new Date(view.arbiter.atUtcMs).toISOString()}`);
      const text = reason?.trim() || undefined;
      const disputes = view.teams.filter((t) => t.captain && !t.captain.void && t.captain.state === 'disputed');
      if (disputes.length && text === undefined) {
        return refuse(
          422,
          `${where}: ${disputes.map((t) => `${t.name}'s captain ${t.captain!.captain} disputes it ("${t.captain!.reason}")`).join('; ')}: say why the match stands ("reason"), journaled for an appeal`,
        );
      }
      const captainsConfirmed = Object.fromEntries(view.teams.map((t) => [String(t.id), !!t.captain && !t.captain.void && t.captain.state === 'confirmed']));
      this.journal.recordArbiterAction({
        utcMs: this.nowUtcMs(),
        arbiter,
        action: MATCH_CONFIRM,
        event: event.id,
        round,
        board: null,
        payload: { matchId: view.id, results: view.boards.map((b) => b.result), captainsConfirmed, ...(text ? { reason: text } : {}) } satisfies MarkPayload,
        outcome: 'applied',
      });
      return { ok: true, match: this.view(event, round, match, tm, this.journal.arbiterActions()) };
    });
  }

  // ---- reading the journal -----------------------------------------------------------

  private teamEvent(id: string): TournamentEvent | undefined {
    const event = this.hall.events.find((e) => e.id === id);
    return event && event.kind === 'team' ? event : undefined;
  }

  private where(view: TeamMatchView, event: TournamentEvent): string {
    return `${event.name} round ${view.round} match ${view.match} (${view.teams[0].name} – ${view.teams[1].name})`;
  }

  private matchOf(event: TournamentEvent, round: number, match: number): { ok: true; tm: TeamMatch; view: TeamMatchView } | Refusal {
    const r = event.rounds.find((x) => x.number === round);
    if (!r || this.journal.gamesByRound(event.id, round).length === 0) return refuse(404, `round ${round} of ${event.name} is not open`);
    const tm = r.teamMatches[match - 1];
    if (!tm) return refuse(404, `round ${round} of ${event.name} has no match ${match} (matches 1-${r.teamMatches.length})`);
    return { ok: true, tm, view: this.view(event, round, match, tm, this.journal.arbiterActions()) };
  }

  /** The match, if it is the captain's team's: 403 for another team's match. */
  private captainsMatch(
    who: CaptainIdentity,
    round: number,
    match: number,
  ): { ok: true; event: TournamentEvent; tm: TeamMatch; view: TeamMatchView } | Refusal {
    const event = this.teamEvent(who.event);
    if (!event) return refuse(404, `no team event "${who.event}"`);
    const found = this.matchOf(event, round, match);
    if (!found.ok) return found;
    if (found.tm.white !== who.team && found.tm.black !== who.team) {
      return refuse(
        403,
        `${this.where(found.view, event)} is not your team's match (${teamById(event, who.team).name}): a captain confirms only their own team's match`,
      );
    }
    return { ok: true, event, tm: found.tm, view: found.view };
  }

  private sideOf(view: TeamMatchView, team: number): TeamMatchSide {
    return view.teams[0].id === team ? view.teams[0] : view.teams[1];
  }

  /** Why `seen` (the results the captain was shown) is not what stands now, or null. */
  private changedSince(view: TeamMatchView, seen: readonly string[]): string | null {
    if (seen.length !== view.boards.length) return `the match has ${view.boards.length} boards, ${seen.length} results were sent: reload the match and check`;
    const diff = view.boards
      .filter((b, i) => b.result !== seen[i])
      .map((b) => `board ${b.board} is ${b.result ?? 'without a result'} (you saw ${seen[view.boards.indexOf(b)]})`);
    return diff.length ? `the results changed since you loaded them: ${diff.join(', ')}; reload the match and check` : null;
  }

  private record(event: TournamentEvent, round: number, who: CaptainIdentity, action: string, payload: MarkPayload): void {
    this.journal.recordArbiterAction({
      utcMs: this.nowUtcMs(),
      arbiter: captainActor(who.captain),
      action,
      event: event.id,
      round,
      board: null,
      payload,
      outcome: 'applied',
    });
  }

  private view(event: TournamentEvent, round: number, match: number, tm: TeamMatch, actions: readonly ArbiterActionRow[]): TeamMatchView {
    const id = `${event.id}/r${round}/m${match}`;
    const games: (GameRow | undefined)[] = tm.boards.map((b) => this.journal.gamesByBoard(event.id, round, b.board)[0]);
    const boards = matchBoards(event, tm, games);
    const points = (team: number) =>
      boards.reduce((sum, b) => {
        if (b.result === null) return sum;
        const p = RESULT_MEANING[b.result as GameResult].points;
        return sum + (b.white.team === team ? p.white : 0) + (b.black.team === team ? p.black : 0);
      }, 0);
    const voidedAfter = voidingOf(actions, games, boards);
    const mine = actions.filter((a) => a.outcome === 'applied' && (a.payload as MarkPayload | null)?.matchId === id);
    const captainOf = (team: number): CaptainMark | null => {
      const last = mine.filter((a) => (a.action === CAPTAIN_CONFIRM || a.action === CAPTAIN_DISPUTE) && (a.payload as MarkPayload).team === team).at(-1);
      if (!last) return null;
      const p = last.payload as MarkPayload;
      const voided = voidedAfter(last.id, p.results);
      return {
        state: last.action === CAPTAIN_CONFIRM ? 'confirmed' : 'disputed',
        captain: p.captain ?? last.arbiter,
        atUtcMs: last.utcMs,
        results: p.results,
        ...(p.reason ? { reason: p.reason } : {}),
        ...(voided ? { void: voided } : {}),
      };
    };
    const lastArbiter = mine.filter((a) => a.action === MATCH_CONFIRM).at(-1);
    let arbiter: ArbiterMark | null = null;
    if (lastArbiter) {
      const p = lastArbiter.payload as MarkPayload;
      const voided = voidedAfter(lastArbiter.id, p.results);
      arbiter = {
        arbiter: lastArbiter.arbiter,
        atUtcMs: lastArbiter.utcMs,
        captainsConfirmed: p.captainsConfirmed ?? {},
        ...(p.reason ? { reason: p.reason } : {}),
        ...(voided ? { void: voided } : {}),
      };
    }
    const side = (team: number): TeamMatchSide => ({ id: team, name: teamById(event, team).name, points: points(team), captain: captainOf(team) });
    const appealUntilUtcMs = this.appealUntil(event, round, games);
    return {
      id,
      event: event.id,
      round,
      match,
      teams: [side(tm.white), side(tm.black)],
      boards,
      resultsIn: boards.every((b) => b.result !== null),
      resultsConfirmed: boards.every((b) => b.confirmed),
      // A voided match confirmation is shown (with why) but is no longer the final word.
      arbiter: arbiter && !arbiter.void ? arbiter : null,
      ...(arbiter?.void ? { arbiterVoid: arbiter } : {}),
      ...(appealUntilUtcMs !== undefined ? { appealUntilUtcMs } : {}),
    };
  }

  /** When the match's appeal time ends (null: a game still without its deadline); undefined: the event has no appeal. */
  private appealUntil(event: TournamentEvent, round: number, games: readonly (GameRow | undefined)[]): number | null | undefined {
    const appeal = event.appeal;
    if (!appeal) return undefined;
    const roundGames = appeal.from === 'round-end' ? this.journal.gamesByRound(event.id, round) : [];
    const deadlines = games.map((g) => (g ? appealDeadline(appeal, g, roundGames) : null));
    return deadlines.some((d) => d === null) ? null : Math.max(...(deadlines as number[]));
  }
}

/** The match's boards as the captains see them: the players (as journaled once a game exists), their teams, each result and whether it is confirmed. */
function matchBoards(event: TournamentEvent, tm: TeamMatch, games: readonly (GameRow | undefined)[]): TeamMatchBoard[] {
  return tm.boards.map((b, i) => {
    const g = games[i];
    const white = playerByRank(event, b.white);
    const black = playerByRank(event, b.black);
    return {
      board: b.board,
      boardId: boardIdOf(event.id, b.board),
      // FIDE team colours: the first-named team has White on boards 1, 3, … (the file's teams say so too).
      white: { name: g?.white ?? white.name, team: white.team ?? (i % 2 === 0 ? tm.white : tm.black) },
      black: { name: g?.black ?? black.name, team: black.team ?? (i % 2 === 0 ? tm.black : tm.white) },
      result: g?.result ?? null,
      confirmed: !!g && g.result !== null && g.confirmedBy !== null,
    };
  });
}

/**
 * What voids a mark made at action `id` on the results `seen`: the first correction of a result
 * of this match after it, if any — an arbiter's result or adopted report that replaced a result
 * (the journal keeps what it replaced as `previous`); else a result the mark was made on that
 * stands no more. A first result of a board still in play when the mark was made (a dispute)
 * voids nothing.
 */
function voidingOf(
  actions: readonly ArbiterActionRow[],
  games: readonly (GameRow | undefined)[],
  boards: readonly TeamMatchBoard[],
): (id: number, seen: readonly (string | null)[]) => VoidedBy | undefined {
  const gameIds = new Set(games.flatMap((g) => (g ? [g.gameId] : [])));
  const current = boards.map((b) => b.result);
  return (id: number, seen: readonly (string | null)[]): VoidedBy | undefined => {
    for (const a of actions) {
      if (a.id <= id || a.outcome !== 'applied' || a.gameId === null || !gameIds.has(a.gameId)) continue;
      if (a.action !== 'result' && a.action !== 'confirm-result') continue;
      const p = (a.payload ?? {}) as { result?: string; previous?: { result?: string | null } | null };
      const from = p.previous?.result ?? null;
      if (from === null || from === p.result) continue;
      const game = games.find((g) => g?.gameId === a.gameId)!;
      return { board: game.board, from, to: p.result ?? null, arbiter: a.arbiter, atUtcMs: a.utcMs };
    }
    // Belt and braces: a result the mark was made on that stands no more, however it changed.
    const i = current.findIndex((r, k) => seen[k] !== null && seen[k] !== undefined && r !== seen[k]);
    if (i < 0) return undefined;
    const g = games[i]!;
    return { board: boards[i].board, from: seen[i] ?? null, to: current[i], arbiter: g.reportedBy ?? 'host', atUtcMs: g.reportedUtcMs ?? 0 };
  };
}

function sameResults(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

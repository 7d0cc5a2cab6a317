// The match director: turns the tournament model and the confirmed results in the journal
// into the next games to play. It opens a round (one journal game per board, or game 1 of
// each knockout mini-match) and, after each confirmed result, tells the host what the board
// plays next — or that the match is decided and how.
//
// Stateless between calls: everything is recomputed from the journal, so a host restarted
// on the same journal continues exactly where it stopped. Lots drawn for colours are
// journaled as director actions so an appeal can check them.

import { randomInt } from 'node:crypto';
import { isRoundRobin, roundRobinRounds } from '../domain/berger.ts';
import { restoreApprovedRounds } from './proposal-records.ts';
import { restoreEntries } from './entries.ts';
import { category } from '../../protocol/time-control.ts';
import type { Journal, GameRow, MatchRow } from '../store/journal.ts';
import {
  describeEntrant,
  findEvent,
  playerByRank,
  teamById,
  type Hall,
  type KnockoutEntrant,
  type KnockoutPairing,
  type TournamentEvent,
} from '../domain/model.ts';
import {
  breakRemainingMs,
  KnockoutError,
  knockoutStep,
  seededLot,
  type FinishedGame,
  type KnockoutSpec,
  type KnockoutStep,
  type Lot,
  type MatchStage,
} from '../domain/knockout.ts';

export class DirectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DirectorError';
  }
}

/** The name the director signs its own journaled actions with (lots drawn). */
export const DIRECTOR = 'director';

export type DirectorUpdate =
  | { type: 'none'; game: GameRow }
  | { type: 'next-game'; game: GameRow; breakRemainingMs: number; step: KnockoutStep }
  | { type: 'decided'; match: MatchRow; step: KnockoutStep };

export interface DirectorOptions {
  /**
   * The lot for an event. Default: a fresh cryptographic draw when the colours are due, journaled
   * (action `draw-lot`) so that every later step and a restarted host read the same draw; an
   * event with a `knockout.seed` (rehearsals and tests: the colours are then known in advance)
   * draws from that seed instead.
   */
  lot?: (event: TournamentEvent) => Lot;
  /** The fresh draw: 0 gives White to the match's first player, 1 to the second (default `crypto.randomInt(2)`). */
  draw?: () => 0 | 1;
}

/** What a journaled lot records (`draw-lot` action payload). */
export interface LotDraw {
  /** The knockout lot's label: `MATCH:classical` (game 1's colours) or `MATCH:armageddon`. */
  label: string;
  matchId: string;
  stage: 'classical' | 'armageddon';
  /** Starting rank of the player given White. */
  whiteRank: number;
  white: string;
  /** `random` (crypto.randomInt at the host) or `arbiter` (the draw made in the hall, entered by the arbiter). */
  source: 'random' | 'arbiter';
}

export function matchId(event: string, round: number, board: number): string {
  return `${event}/r${round}/b${board}`;
}

export class Director {
  constructor(
    readonly journal: Journal,
    readonly hall: Hall,
    private readonly options: DirectorOptions = {},
  ) {
    // The regulation's round robin (Ivanovo: 8 teams or fewer): every round from the FIDE Berger
    // tables (C.05 Annex 1), for the exports and the standings as for openRound. Deterministic
    // from the file, so a host restarted on its journal has the same rounds.
    for (const event of hall.events) {
      if (event.rounds.length === 0 && isRoundRobin(event)) event.rounds = roundRobinRounds(event);
    }
    // The late entrants an arbiter entered in the hall (entries.ts), then a Swiss event's rounds
    // paired in the hall (engine or TRF) and approved by an arbiter (next-round.ts), which may pair them.
    restoreEntries(journal, hall);
    restoreApprovedRounds(journal, hall);
  }

  private lot(event: TournamentEvent, nowUtcMs: number | null): Lot {
    if (this.options.lot) return this.options.lot(event);
    if (event.knockout?.seed !== null && event.knockout?.seed !== undefined) return seededLot(event.knockout.seed);
    return (label) => {
      const drawn = this.lotDraw(event.id, label);
      if (drawn) return this.lotValue(event, label, drawn.whiteRank);
      // Due now, and not drawn yet: a fresh draw, journaled before anything uses it.
      const [matchIdOf, stage] = splitLabel(label);
      if (nowUtcMs === null) throw new DirectorError(`lot "${label}" is not drawn yet: it is drawn when the director opens the game`);
      const players = this.matchPlayersById(event, matchIdOf);
      const index = this.options.draw?.() ?? (randomInt(2) as 0 | 1);
      const whiteRank = players[index];
      this.journalLot(event, { label, matchId: matchIdOf, stage, whiteRank, white: playerByRank(event, whiteRank).name, source: 'random' }, DIRECTOR, nowUtcMs);
      return this.lotValue(event, label, whiteRank);
    };
  }

  /** The lot's number for a drawn White: below ½ gives White to the match's first player (knockout.ts drawWhite). */
  private lotValue(event: TournamentEvent, label: string, whiteRank: number): number {
    const players = this.matchPlayersById(event, splitLabel(label)[0]);
    return whiteRank === players[0] ? 0.25 : 0.75;
  }

  private matchPlayersById(event: TournamentEvent, id: string): [number, number] {
    const m = /^(.*)\/r(\d+)\/b(\d+)$/.exec(id);
    if (!m) throw new DirectorError(`lot for "${id}": not a mini-match id`);
    return this.spec(event, Number(m[2]), Number(m[3])).players;
  }

  /** The journaled draw of a lot, if it was drawn. */
  lotDraw(eventId: string, label: string): LotDraw | null {
    for (const a of this.journal.arbiterActions()) {
      if (a.action !== 'draw-lot' || a.outcome !== 'applied' || a.event !== eventId) continue;
      const p = a.payload as LotDraw | null;
      if (p && p.label === label) return p;
    }
    return null;
  }

  private journalLot(event: TournamentEvent, draw: LotDraw, arbiter: string, nowUtcMs: number): void {
    const m = /\/r(\d+)\/b(\d+)$/.exec(draw.matchId)!;
    this.journal.recordArbiterAction({
      utcMs: nowUtcMs,
      arbiter,
      action: 'draw-lot',
      event: event.id,
      round: Number(m[1]),
      board: Number(m[2]),
      payload: draw,
      outcome: 'applied',
    });
  }

  /**
   * The arbiter enters the lot drawn in the hall (the players draw the colours) for game 1 of a
   * mini-match (`classical`, when the file fixes no colours) or its armageddon, before the
   * director needs it; a lot already drawn is not drawn again (refused, naming who drew it).
   */
  enterLot(eventId: string, round: number, board: number, stage: 'classical' | 'armageddon', whiteRank: number, arbiter: string, nowUtcMs: number): LotDraw {
    const event = findEvent(this.hall, eventId);
    return this.journal.transaction(() => {
      const spec = this.spec(event, round, board);
      if (stage === 'classical' && spec.firstWhite !== null)
        throw new DirectorError(`match ${spec.matchId}: the tournament file fixes game 1's colours; nothing to draw`);
      if (!spec.players.includes(whiteRank))
        throw new DirectorError(`match ${spec.matchId}: player ${whiteRank} does not play in it (players ${spec.players.join(' and ')})`);
      const label = `${spec.matchId}:${stage}`;
      const before = this.lotDraw(event.id, label);
      if (before)
        throw new DirectorError(
          `match ${spec.matchId}: the ${stage} colours were already drawn (${before.source === 'arbiter' ? 'entered by an arbiter' : 'drawn by the host'}: ${before.white} has White)`,
        );
      const draw: LotDraw = { label, matchId: spec.matchId, stage, whiteRank, white: playerByRank(event, whiteRank).name, source: 'arbiter' };
      this.journalLot(event, draw, arbiter, nowUtcMs);
      return draw;
    });
  }

  /**
   * Creates the round's games in the journal (idempotent: existing games are returned as they
   * are). Individual and team events: one game per board with the event's time control.
   * Knockout: each mini-match and its first game. Byes are not games (they go to TRF only).
   */
  openRound(eventId: string, round: number, nowUtcMs: number, clocks: Record<number, string> = {}): GameRow[] {
    const event = findEvent(this.hall, eventId);
    const r = event.rounds.find((x) => x.number === round);
    if (!r) throw new DirectorError(`event "${eventId}" has no round ${round} (rounds 1-${event.rounds.length})`);
    return this.journal.transaction(() => {
      if (event.kind === 'knockout') {
        return r.knockout.map((k) => {
          const spec = this.spec(event, round, k.board);
          const existing = this.journal.gamesByMatch(spec.matchId);
          if (existing.length) return existing[existing.length - 1];
          const step = knockoutStep(spec, [], this.lot(event, nowUtcMs));
          this.journal.saveMatch({
            matchId: spec.matchId,
            event: event.id,
            round,
            board: k.board,
            playerA: playerByRank(event, spec.players[0]).name,
            playerB: playerByRank(event, spec.players[1]).name,
            status: 'playing',
            winner: null,
            loser: null,
            decidedBy: null,
            score: step.score,
            updatedUtcMs: nowUtcMs,
          });
          return this.createNextGame(event, round, k.board, spec, step, nowUtcMs, clocks[k.board] ?? null);
        });
      }
      const teamOf = (rank: number): string | null => {
        const team = playerByRank(event, rank).team;
        return event.kind === 'team' && team !== null ? teamById(event, team).name : null;
      };
      return r.boards.map((b) => {
        const existing = this.journal.gamesByBoard(event.id, round, b.board);
        if (existing.length) return existing[0];
        const white = playerByRank(event, b.white);
        const black = playerByRank(event, b.black);
        return this.journal.createGame({
          event: event.id,
          round,
          board: b.board,
          kind: category(event.timeControl),
          white: white.name,
          black: black.name,
          whiteRank: white.rank,
          blackRank: black.rank,
          whiteTeam: teamOf(white.rank),
          blackTeam: teamOf(black.rank),
          timeControl: event.timeControl,
          clockId: clocks[b.board] ?? null,
          earliestStartUtcMs: r.startUtcMs,
          createdUtcMs: nowUtcMs,
        });
      });
    });
  }

  /**
   * Call after a result was confirmed by the arbiter. For a knockout game: creates the next game
   * of the mini-match on the same board (same clock) or records the match decision.
   */
  afterConfirmedResult(gameId: number, nowUtcMs: number): DirectorUpdate {
    const game = this.journal.getGame(gameId);
    if (!game) throw new DirectorError(`no game ${gameId}`);
    if (game.result === null || game.confirmedBy === null) {
      throw new DirectorError(`game ${gameId} (${game.event} round ${game.round} board ${game.board}): result not confirmed by an arbiter yet`);
    }
    if (game.matchId === null) return { type: 'none', game };
    const event = findEvent(this.hall, game.event);
    return this.journal.transaction(() => {
      const spec = this.spec(event, game.round, game.board);
      const step = this.step(spec, event, nowUtcMs);
      if (step.status === 'decided') {
        const names = (rank: number) => playerByRank(event, rank).name;
        const match: MatchRow = {
          ...this.journal.getMatch(spec.matchId)!,
          status: 'decided',
          winner: names(step.winner),
          loser: names(step.loser),
          decidedBy: step.decidedBy,
          score: step.score,
          updatedUtcMs: nowUtcMs,
        };
        this.journal.saveMatch(match);
        return { type: 'decided', match, step };
      }
      const existing = this.journal.gamesByMatch(spec.matchId).find((g) => g.gameNo === step.next.gameNo);
      const next = existing ?? this.createNextGame(event, game.round, game.board, spec, step, nowUtcMs, game.clockId);
      const match = this.journal.getMatch(spec.matchId)!;
      this.journal.saveMatch({ ...match, score: step.score, updatedUtcMs: nowUtcMs });
      return { type: 'next-game', game: next, breakRemainingMs: breakRemainingMs(step, nowUtcMs), step };
    });
  }

  /** Where a knockout mini-match stands, from its confirmed games in the journal. */
  knockoutState(eventId: string, round: number, board: number, nowUtcMs: number): { step: KnockoutStep; breakRemainingMs: number } {
    const event = findEvent(this.hall, eventId);
    // A read: it never draws a lot (a lot is drawn when the director opens the game that needs it).
    const step = this.step(this.spec(event, round, board), event, null);
    return { step, breakRemainingMs: breakRemainingMs(step, nowUtcMs) };
  }

  spec(event: TournamentEvent, round: number, board: number): KnockoutSpec {
    if (event.kind !== 'knockout' || !event.knockout) throw new DirectorError(`event "${event.id}" is not a knockout event`);
    const k = event.rounds.find((r) => r.number === round)?.knockout.find((x) => x.board === board);
    if (!k) throw new DirectorError(`event "${event.id}" round ${round} has no mini-match on board ${board}`);
    const id = matchId(event.id, round, board);
    return {
      matchId: id,
      players: this.matchPlayers(event, id, k),
      firstWhite: k.firstWhite,
      rules: event.knockout,
      eventTimeControl: event.timeControl,
      classicalStartsUtcMs: k.classicalStartsUtcMs,
    };
  }

  /**
   * The starting ranks of a mini-match's two players, in the file's order (the lot for colours
   * depends on it). A "winnerOf"/"loserOf" entrant is resolved from the decided match when the
   * round is opened; once opened, the match keeps the players its games were created for, so
   * a restarted host (or a later correction of an earlier result) never re-pairs a match in play.
   */
  private matchPlayers(event: TournamentEvent, id: string, k: KnockoutPairing): [number, number] {
    const [a, b] = k.players;
    if ('rank' in a && 'rank' in b) return [a.rank, b.rank];
    const opened = this.journal.getMatch(id);
    const first = opened ? this.journal.gamesByMatch(id)[0] : undefined;
    if (opened && first && first.whiteRank !== null && first.blackRank !== null) {
      // Game 1 holds the ranks; the match row's playerA says which of them is entrant A.
      const aIsWhite = opened.playerA === first.white;
      return aIsWhite ? [first.whiteRank, first.blackRank] : [first.blackRank, first.whiteRank];
    }
    return [this.resolveEntrant(event, id, a), this.resolveEntrant(event, id, b)];
  }

  /** A player of `forMatch`: a starting rank, or the winner/loser of a decided earlier match. */
  private resolveEntrant(event: TournamentEvent, forMatch: string, e: KnockoutEntrant): number {
    if ('rank' in e) return e.rank;
    const ref = 'winnerOf' in e ? e.winnerOf : e.loserOf;
    const refId = matchId(event.id, ref.round, ref.board);
    const row = this.journal.getMatch(refId);
    // Rounds open when the previous one is finished, so this means the round was opened by hand too early.
    if (!row || row.status !== 'decided') {
      throw new DirectorError(`cannot pair match ${forMatch}: ${describeEntrant(e)} (match ${refId}) is ${row ? 'not decided yet' : 'not opened yet'}`);
    }
    const step = this.step(this.spec(event, ref.round, ref.board), event, null);
    const rank = step.status === 'decided' ? ('winnerOf' in e ? step.winner : step.loser) : null;
    const name = 'winnerOf' in e ? row.winner : row.loser;
    // The match row and the confirmed games must tell the same story (a result corrected after
    // the decision and not yet re-confirmed would not); the arbiter settles it first.
    if (rank === null || playerByRank(event, rank).name !== name) {
      throw new DirectorError(
        `cannot pair match ${forMatch}: match ${refId} is recorded as won by ${row.winner}, but its confirmed games ` +
          (rank === null ? 'do not decide it' : `give ${describeEntrant(e)} as ${playerByRank(event, rank).name}`),
      );
    }
    return rank;
  }

  /** `nowUtcMs`: when a lot that is due may be drawn and journaled; null where none can be due (a decided match). */
  private step(spec: KnockoutSpec, event: TournamentEvent, nowUtcMs: number | null): KnockoutStep {
    const finished: FinishedGame[] = [];
    for (const g of this.journal.gamesByMatch(spec.matchId)) {
      if (g.result === null || g.confirmedBy === null) break; // only confirmed results move a match on
      finished.push({
        gameNo: g.gameNo,
        stage: g.kind as MatchStage,
        white: g.whiteRank!,
        black: g.blackRank!,
        result: g.result,
        endedUtcMs: g.endedUtcMs ?? g.reportedUtcMs!,
      });
    }
    try {
      return knockoutStep(spec, finished, this.lot(event, nowUtcMs));
    } catch (err) {
      // Games that no rule of the match decides (an armageddon both players forfeited, FIDE
      // Laws 6.7.1) or that do not fit it: the arbiter's to settle, said as the director's
      // refusal (the host logs it; the confirmation stands), never a fault of the request.
      if (err instanceof KnockoutError) throw new DirectorError(err.message);
      throw err;
    }
  }

  private createNextGame(
    event: TournamentEvent,
    round: number,
    board: number,
    spec: KnockoutSpec,
    step: KnockoutStep,
    nowUtcMs: number,
    clockId: string | null,
  ): GameRow {
    if (step.status !== 'play') throw new DirectorError(`match ${spec.matchId} is decided`);
    const { next } = step;
    const white = playerByRank(event, next.white);
    const black = playerByRank(event, next.black);
    if (next.colorsByLot) {
      this.journal.recordArbiterAction({
        utcMs: nowUtcMs,
        arbiter: DIRECTOR,
        action: 'draw-colours',
        event: event.id,
        round,
        board,
        payload: {
          matchId: spec.matchId,
          gameNo: next.gameNo,
          stage: next.stage,
          white: white.name,
          seed: event.knockout?.seed ?? null,
          source:
            this.lotDraw(event.id, `${spec.matchId}:${next.stage === 'armageddon' ? 'armageddon' : 'classical'}`)?.source ??
            (this.options.lot ? 'injected' : 'seed'),
        },
        outcome: 'applied',
      });
    }
    return this.journal.createGame({
      event: event.id,
      round,
      board,
      gameNo: next.gameNo,
      matchId: spec.matchId,
      kind: next.stage,
      white: white.name,
      black: black.name,
      whiteRank: white.rank,
      blackRank: black.rank,
      timeControl: next.timeControl,
      clockId,
      earliestStartUtcMs: next.earliestStartUtcMs,
      createdUtcMs: nowUtcMs,
    });
  }
}

/** `MATCH:stage` → [MATCH, stage]; the match id holds slashes, never a colon after the event id's. */
function splitLabel(label: string): [string, 'classical' | 'armageddon'] {
  const i = label.lastIndexOf(':');
  const stage = label.slice(i + 1);
  if (stage !== 'classical' && stage !== 'armageddon') throw new DirectorError(`lot "${label}": unknown stage`);
  return [label.slice(0, i), stage];
}

// A knockout mini-match as the Slovenian women's final 2007 plays it (seeds/000_*.txt, art. 3):
//  - 2 classical games (90 min / 40 moves + 15 min, 30 s per move from move 1); colours of
//    game 1 drawn (or fixed by the organiser), then alternating: each player has White once;
//  - if tied: "half an hour after the game ends" 2 rapid games (15 min + 10 s), colours alternating;
//  - if still tied: "immediately" one golden game (armageddon), White 6 min, Black 5 min,
//    colours drawn by lot, and a draw is enough for Black to win the match.
//
// Pure: the state of a match is a fold over its finished games, so a host restarted on its
// journal recomputes exactly where every match stands. Lots come from an injected function
// of a label, so the same seed always draws the same colours (auditable, replayable).

import { presetTimeControl, type PresetName, type TimeControl } from '../../protocol/time-control.ts';
import { RESULT_MEANING, type GameResult } from '../../rules/vocabulary.ts';
import type { KnockoutRules } from './model.ts';

export type MatchStage = 'classical' | 'rapid' | 'armageddon';

/** Draws a lot: a number in [0, 1) that depends only on the label (and the lot's seed). */
export type Lot = (label: string) => number;

export class KnockoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KnockoutError';
  }
}

export interface KnockoutSpec {
  matchId: string;
  /** Player ids (starting ranks) of the two players. */
  players: [number, number];
  /** White in game 1 when fixed by the organiser; null = drawn by lot. */
  firstWhite: number | null;
  rules: KnockoutRules;
  /**
   * The event's time control (the tournament file's, read by readTimeControlSpec): every game of
   * the match takes its default time (FIDE Laws 6.7.1) and increment timing, whatever its stage
   * (`stageTimeControl`), as a Swiss round's games take the event's control whole.
   */
  eventTimeControl: TimeControl;
  /** Scheduled starts of the classical games (UTC ms), if the schedule fixes them. */
  classicalStartsUtcMs?: readonly number[];
  classicalGames?: number;
  rapidGames?: number;
}

export interface FinishedGame {
  gameNo: number;
  stage: MatchStage;
  white: number;
  black: number;
  result: GameResult;
  endedUtcMs: number;
}

export interface NextGame {
  gameNo: number;
  stage: MatchStage;
  preset: PresetName;
  timeControl: TimeControl;
  white: number;
  black: number;
  /** The game may not start before this (previous end + break, or the schedule); null = any time. */
  earliestStartUtcMs: number | null;
  /** True when this game's colours were drawn by lot. */
  colorsByLot: boolean;
}

export interface MatchScore {
  /** Points per player id, by stage (forfeits count as won/lost games). */
  classical: Record<number, number>;
  rapid: Record<number, number>;
  armageddon: FinishedGame | null;
}

export type KnockoutStep =
  | { status: 'play'; next: NextGame; score: MatchScore }
  | { status: 'decided'; winner: number; loser: number; decidedBy: MatchStage; score: MatchScore };

/** A seeded lot: mulberry32 over an FNV-1a hash of `${seed}:${label}`. */
export function seededLot(seed: number): Lot {
  return (label: string) => {
    let h = 0x811c9dc5 ^ seed;
    for (const ch of `${seed}:${label}`) {
      h ^= ch.codePointAt(0)!;
      h = Math.imul(h, 0x01000193);
    }
    let t = (h + 0x6d2b79f5) | 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The control of a game of `stage`: the stage's own (art. 3: `classical`, `rapid`, `armageddon`
 * presets) with the event's default time (FIDE Laws 6.7.1: a player absent that long after the
 * game's start loses) and increment timing, so that a no-show in a tie-break game is forfeited by
 * the clock as in a classical one.
 */
export function stageTimeControl(stage: MatchStage, eventTimeControl: TimeControl): TimeControl {
  return { ...presetTimeControl(stage), defaultTimeMs: eventTimeControl.defaultTimeMs, incrementTiming: eventTimeControl.incrementTiming };
}

/** Points White and Black score with a result (a forfeit counts as a won game for the match). */
export function gamePoints(result: GameResult): { white: number; black: number } {
  // The vocabulary's points: a win 1, a draw ½, a forfeit win 1, a forfeit loss 0.
  return RESULT_MEANING[result].points;
}

function drawWhite(lot: Lot, label: string, players: [number, number]): number {
  const x = lot(label);
  if (!(x >= 0 && x < 1)) throw new KnockoutError(`lot "${label}" returned ${x}, expected a number in [0, 1)`);
  return x < 0.5 ? players[0] : players[1];
}

/**
 * Where the match stands after `finished` games (in game order): the next game to configure,
 * or the decision. Throws KnockoutError on games that do not fit the match (wrong number,
 * wrong players or colours), or an armageddon that no rule decides (double forfeit).
 */
export function knockoutStep(spec: KnockoutSpec, finished: readonly FinishedGame[], lot: Lot): KnockoutStep {
  const nClassical = spec.classicalGames ?? 2;
  const nRapid = spec.rapidGames ?? 2;
  const [a, b] = spec.players;
  if (a === b) throw new KnockoutError(`match ${spec.matchId}: a player cannot meet herself`);
  if (spec.firstWhite !== null && spec.firstWhite !== a && spec.firstWhite !== b) {
    throw new KnockoutError(`match ${spec.matchId}: firstWhite ${spec.firstWhite} is not a player of the match`);
  }
  const score: MatchScore = { classical: { [a]: 0, [b]: 0 }, rapid: { [a]: 0, [b]: 0 }, armageddon: null };
  const firstWhite = spec.firstWhite ?? drawWhite(lot, `${spec.matchId}:classical`, spec.players);
  const firstBlack = firstWhite === a ? b : a;

  // The whole plan, game by game; the match stops as soon as it is decided.
  const plan = (gameNo: number): { stage: MatchStage; white: number; black: number; byLot: boolean } => {
    if (gameNo <= nClassical + nRapid) {
      const stage: MatchStage = gameNo <= nClassical ? 'classical' : 'rapid';
      // Colours alternate game by game through the classical and rapid games (each player has
      // White once per pair); rapid game 1 goes to classical game 1's White.
      const odd = gameNo % 2 === 1;
      return { stage, white: odd ? firstWhite : firstBlack, black: odd ? firstBlack : firstWhite, byLot: spec.firstWhite === null && gameNo === 1 };
    }
    const white = drawWhite(lot, `${spec.matchId}:armageddon`, spec.players);
    return { stage: 'armageddon', white, black: white === a ? b : a, byLot: true };
  };

  const decided = (stage: MatchStage, winner: number): KnockoutStep => ({ status: 'decided', winner, loser: winner === a ? b : a, decidedBy: stage, score });

  let lastEnd: number | null = null;
  for (let i = 0; i < finished.length; i++) {
    const g = finished[i];
    const want = plan(i + 1);
    if (g.gameNo !== i + 1) throw new KnockoutError(`match ${spec.matchId}: expected game ${i + 1}, got game ${g.gameNo}`);
    if (g.stage !== want.stage || g.white !== want.white || g.black !== want.black) {
      throw new KnockoutError(
        `match ${spec.matchId} game ${g.gameNo}: expected ${want.stage} with White ${want.white}, Black ${want.black}; ` +
          `got ${g.stage} with White ${g.white}, Black ${g.black}`,
      );
    }
    const pts = gamePoints(g.result);
    lastEnd = g.endedUtcMs;
    if (g.stage === 'armageddon') {
      score.armageddon = g;
      if (g.result === '--') throw new KnockoutError(`match ${spec.matchId}: armageddon double forfeit — no rule decides it; the arbiter must`);
      // Slovenian final art. 3: in the golden game a draw is enough for Black.
      return decided('armageddon', pts.white > pts.black ? g.white : g.black);
    }
    const bucket = score[g.stage];
    bucket[g.white] += pts.white;
    bucket[g.black] += pts.black;
    if (i + 1 === nClassical && score.classical[a] !== score.classical[b]) {
      return decided('classical', score.classical[a] > score.classical[b] ? a : b);
    }
    if (i + 1 === nClassical + nRapid && score.rapid[a] !== score.rapid[b]) {
      return decided('rapid', score.rapid[a] > score.rapid[b] ? a : b);
    }
    if (i + 1 > nClassical + nRapid) throw new KnockoutError(`match ${spec.matchId}: game ${g.gameNo} after the armageddon`);
  }

  const gameNo = finished.length + 1;
  const next = plan(gameNo);
  const earliest = earliestStartUtcMs(spec, next.stage, gameNo, lastEnd, nClassical);
  return {
    status: 'play',
    score,
    next: {
      gameNo,
      stage: next.stage,
      preset: next.stage,
      timeControl: stageTimeControl(next.stage, spec.eventTimeControl),
      white: next.white,
      black: next.black,
      earliestStartUtcMs: earliest,
      colorsByLot: next.byLot,
    },
  };
}

/**
 * When game `gameNo` of `stage` may start: a classical game at its scheduled start (and not before
 * the previous game ended), a rapid game the break after the previous game's end, the armageddon
 * the break before it (art. 3: "half an hour after the game ends", "immediately").
 */
function earliestStartUtcMs(spec: KnockoutSpec, stage: MatchStage, gameNo: number, lastEnd: number | null, nClassical: number): number | null {
  if (stage === 'classical') {
    const scheduled = spec.classicalStartsUtcMs?.[gameNo - 1] ?? null;
    return scheduled === null ? lastEnd : lastEnd === null ? scheduled : Math.max(scheduled, lastEnd);
  }
  if (stage === 'rapid') {
    const brk = gameNo === nClassical + 1 ? spec.rules.breakBeforeRapidMs : spec.rules.breakBetweenRapidMs;
    return lastEnd! + brk;
  }
  return lastEnd! + spec.rules.breakBeforeArmageddonMs;
}

/** The break countdown: how long until the next game may start (0 when it may start now). */
export function breakRemainingMs(step: KnockoutStep, nowUtcMs: number): number {
  if (step.status !== 'play' || step.next.earliestStartUtcMs === null) return 0;
  return Math.max(0, step.next.earliestStartUtcMs - nowUtcMs);
}

// Scripted players (and their arbiter) for one simulated clock: they arrive, think, press
// their levers, now and then make an illegal move or stop the clock, and enter the result
// at the end, all through the clock's keys like people at a board.
//
// Think times are log-normal: move times of human players are strongly right-skewed
// (most moves quick, a few very long), and a log-normal fits them well; the median is a
// fraction of the per-move budget of the side's first period. Players in time trouble
// speed up, which keeps flags rare but possible.
import type { Rng } from '../protocol/prng.ts';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import { ARBITER_ITEMS } from '../firmware-ts/menu-arbiter.ts';
import { ARBITER_HOLD_MS } from '../firmware-ts/menu.machine.ts';
import { PRESENCE_CHOICES, type Presence } from '../rules/presence.ts';
import { CLOCK_RESULTS, PLAYED_RESULTS, type ClockResult } from '../rules/vocabulary.ts';
import { menuMode } from '../firmware-ts/menu-text.ts';
import type { VirtualClock } from './virtual-clock.ts';

export interface PlayerModel {
  /** Median think time as a fraction of the per-move budget (first period). */
  thinkMedianFraction: number;
  /** Log-normal shape σ (spread of the log of think times). */
  thinkSigma: number;
  /** Chance that a player arrives late, per player and game. */
  lateProbability: number;
  /** A late player arrives uniformly within this long after the start. */
  lateMaxMs: number;
  /** Chance of an illegal move (arbiter penalty), per move. */
  penaltyProbability: number;
  /** Chance that a player stops the clock to call the arbiter, per move. */
  pauseProbability: number;
  /** The game ends (resignation or agreed draw) after this many moves per side, drawn uniformly. */
  movesMin: number;
  movesMax: number;
}

export const DEFAULT_PLAYERS: PlayerModel = {
  thinkMedianFraction: 0.5,
  thinkSigma: 0.9,
  lateProbability: 0.05,
  lateMaxMs: 20 * 60_000,
  penaltyProbability: 0.003,
  pauseProbability: 0.005,
  movesMin: 25,
  movesMax: 80,
};

/** A standard normal draw (Box-Muller). */
function normal(rng: Rng): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function logNormalMs(rng: Rng, medianMs: number, sigma: number): number {
  return Math.max(1, Math.round(medianMs * Math.exp(sigma * normal(rng))));
}

/** Per-move budget: the first period's time (plus increments) over its moves, or over 60 moves for sudden death. */
export function moveBudgetMs(tc: TimeControl, side: Side): number {
  const first = tc[side].stages[0];
  const moves = first.moves ?? 60;
  return (first.baseMs + moves * first.incrementMs) / moves;
}

export interface ScriptContext {
  clock: VirtualClock;
  rng: Rng;
  model: PlayerModel;
  /** Resolves when the fleet's simulated time reaches `t`. */
  until(t: number): Promise<void>;
  /**
   * The result the players agree on when they end the game themselves (resignation or
   * draw), chosen before the game; default: drawn from `rng` at the end. A hall sets it so
   * the results follow the seed alone, not the timing of the game (hall/simulated-hall.ts relies on it
   * to show a tie-break with its default seed).
   */
  agreedResult?: ClockResult;
}

export interface GameSummary {
  moves: number;
  result: ClockResult;
  /**
   * How the game ended, from the clock and the result: a resignation (a decisive result the
   * players entered), a draw agreed, a flag fallen, or a forfeit (a player, or both, absent at
   * the default time: FIDE Laws 6.7.1).
   */
  ended: 'resignation' | 'draw agreed' | 'flag' | 'forfeit';
  penalties: number;
  pauses: number;
  lateArrivals: number;
}

/** The arbiter gives the offender's opponent the penalty, through the arbiter menu. */
export async function arbiterPenalty(ctx: ScriptContext, offender: Side): Promise<void> {
  const { clock } = ctx;
  const now = () => clock.time.now();
  await clock.tap('startPause'); // stop the clock (Laws 7.5.1: the arbiter is called)
  await ctx.until(now() + 20_000); // the arbiter walks over
  await clock.hold(['mode', 'ok'], ARBITER_HOLD_MS);
  const index = ARBITER_ITEMS.findIndex((i) => i.kind === 'penalty' && i.side === offender);
  for (let i = 0; i < index; i++) await clock.tap('mode');
  await clock.tap('ok');
  await clock.tap('startPause'); // leave arbiter mode
  await clock.tap('startPause'); // resume
}

/**
 * In result entry (or on the arbiter's result item), taps `plus` until `wanted` is chosen.
 * Throws when the menu does not offer it (after a flag only the opponent's win and the draw).
 */
export async function chooseResult(clock: { firmware: VirtualClock['firmware']; tap(key: 'plus'): Promise<unknown> }, wanted: ClockResult): Promise<void> {
  const menu = () => clock.firmware.menu.getSnapshot().context.result;
  for (let i = 0; i <= CLOCK_RESULTS.length && menu().choice !== wanted; i++) await clock.tap('plus');
  if (menu().choice !== wanted) throw new Error(`the result menu does not offer ${wanted} (offers ${menu().choices.join(', ')})`);
}

/** The arbiter records the double forfeit in arbiter mode (it opens on "reinstate" after a forfeit). */
async function arbiterDoubleForfeit(ctx: ScriptContext): Promise<ClockResult> {
  const { clock } = ctx;
  await clock.hold(['mode', 'ok'], ARBITER_HOLD_MS);
  const from = clock.firmware.menu.getSnapshot().context.itemIndex;
  const to = ARBITER_ITEMS.findIndex((i) => i.kind === 'result');
  for (let i = 0; i < (to - from + ARBITER_ITEMS.length) % ARBITER_ITEMS.length; i++) await clock.tap('mode');
  await chooseResult(clock, '--');
  await clock.tap('ok');
  await clock.tap('startPause'); // leave arbiter mode
  return clock.results.at(-1)?.result ?? '--';
}

/** The arbiter answers the clock's question before a start with a default time of 0: who is here. */
export async function answerPresence(clock: Pick<VirtualClock, 'firmware' | 'tap'>, here: Record<Side, boolean>): Promise<void> {
  const wanted: Presence = here.white && here.black ? 'both' : here.white ? 'white' : here.black ? 'black' : 'neither';
  const choice = () => clock.firmware.menu.getSnapshot().context.presence.choice;
  for (let i = 0; i < PRESENCE_CHOICES.length && choice() !== wanted; i++) await clock.tap('plus');
  if (choice() !== wanted) throw new Error(`the presence question does not offer ${wanted}`);
  await clock.tap('ok');
}

async function enterResult(ctx: ScriptContext, wanted: ClockResult | null): Promise<ClockResult> {
  const { clock } = ctx;
  await clock.tap('ok');
  const offered = clock.firmware.menu.getSnapshot().context.result;
  // After a flag nothing is preselected (FIDE Laws 6.9): the players agree on the opponent's win.
  const flagWin: ClockResult | null = offered.choice === null ? (offered.choices.find((r) => r !== '1/2-1/2') ?? null) : null;
  const choice = wanted ?? offered.choice ?? flagWin;
  if (choice) await chooseResult(clock, choice);
  await clock.tap('ok');
  await clock.tap('white');
  await clock.tap('black');
  return clock.results.at(-1)?.result ?? '1/2-1/2';
}

/** Plays one game on the clock (already configured with its control) from now to the result. */
export async function playGame(ctx: ScriptContext): Promise<GameSummary> {
  const { clock, rng, model } = ctx;
  const now = () => clock.time.now();
  const tc = clock.firmware.state().timeControl;
  const t0 = now();
  const arrival: Record<Side, number> = { white: t0, black: t0 };
  let lateArrivals = 0;
  for (const side of ['white', 'black'] as const) {
    if (rng() < model.lateProbability) {
      arrival[side] = t0 + Math.round(rng() * model.lateMaxMs);
      lateArrivals++;
    }
  }
  const arrived: Record<Side, boolean> = { white: arrival.white === t0, black: arrival.black === t0 };
  const targetMoves = model.movesMin + Math.floor(rng() * (model.movesMax - model.movesMin + 1));
  let penalties = 0;
  let pauses = 0;

  await clock.tap('startPause'); // the arbiter starts the round (Laws 6.6)
  // With a default time of 0 the clock first asks who is at the board (FIDE Laws 6.7.1).
  if (menuMode(clock.firmware.menu.getSnapshot().value) === 'presence') await answerPresence(clock, arrived);
  // Present players show themselves with a tap of their own lever (a press by the side
  // not on move changes no time; White's is its first move, so White only waits).
  if (arrived.black && tc.defaultTimeMs !== null) await clock.tap('black');

  for (;;) {
    const reading = clock.firmware.reading();
    if (reading.status !== 'running') break;
    const side = reading.turn;
    if (reading.moves.white >= targetMoves && reading.moves.black >= targetMoves) break;
    const start = Math.max(now(), arrival[side]);
    let think = logNormalMs(rng, model.thinkMedianFraction * moveBudgetMs(tc, side), model.thinkSigma);
    const left = reading[side] - (start - now());
    if (left < 2 * think) think = Math.max(1, Math.round(left * (0.05 + 0.6 * rng()))); // time trouble
    const pressAt = start + think;
    // The opponent may arrive while this side thinks.
    const opp = side === 'white' ? 'black' : 'white';
    if (!arrived[opp] && arrival[opp] < pressAt) {
      await ctx.until(arrival[opp]);
      arrived[opp] = true;
      if (clock.firmware.reading().status === 'running') await clock.tap(opp);
    }
    await ctx.until(pressAt);
    arrived[side] = true;
    if (clock.firmware.reading().status !== 'running') break; // a flag or a forfeit came first
    await clock.tap(side);
    if (rng() < model.penaltyProbability && clock.firmware.reading().status === 'running') {
      penalties++;
      await arbiterPenalty(ctx, side);
    } else if (rng() < model.pauseProbability && clock.firmware.reading().status === 'running') {
      pauses++;
      await clock.tap('startPause');
      await ctx.until(now() + 60_000 + Math.round(rng() * 240_000));
      await clock.tap('startPause');
    }
  }

  const end = clock.firmware.reading();
  let wanted: ClockResult | null = null;
  if (end.status !== 'flagged' && end.status !== 'forfeited') {
    // Resignation or an agreed draw: the players stop the clock and enter the result.
    await clock.tap('startPause');
    wanted = ctx.agreedResult ?? PLAYED_RESULTS[Math.floor(rng() * PLAYED_RESULTS.length)];
  }
  // FIDE Laws 6.7.1: neither player came, both lose: a result only the arbiter enters ("--").
  const bothForfeited = end.status === 'forfeited' && end.forfeited.white && end.forfeited.black;
  const result = bothForfeited ? await arbiterDoubleForfeit(ctx) : await enterResult(ctx, wanted);
  const final = clock.firmware.reading();
  // Worded from what happened: a decisive result the players entered is a resignation, not an agreement.
  const ended: GameSummary['ended'] =
    end.status === 'flagged' ? 'flag' : end.status === 'forfeited' ? 'forfeit' : result === '1/2-1/2' ? 'draw agreed' : 'resignation';
  return { moves: final.moves.white + final.moves.black, result, ended, penalties, pauses, lateArrivals };
}

/** The reason a game ended, for the hall's log line `game over after N moves, RESULT (REASON)`. */
export function describeEnding(summary: Pick<GameSummary, 'ended' | 'result'>): string {
  if (summary.ended === 'flag') return 'a flag fell';
  if (summary.ended === 'forfeit')
    return summary.result === '--'
      ? 'neither player came: both forfeited, entered by the arbiter (FIDE Laws 6.7.1)'
      : 'a player did not come: forfeited (FIDE Laws 6.7.1)';
  return summary.ended === 'draw agreed' ? 'draw agreed' : `resignation: ${summary.result === '1-0' ? 'Black' : 'White'} resigned`;
}

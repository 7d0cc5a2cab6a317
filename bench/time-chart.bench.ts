// The time chart's cost (rules/time-chart.ts, GET /api/boards/:id/chart.svg): one classical game
// of 80 moves a side (past the move-40 bonus) played on the real statechart and journaled as the
// host journals it, then charted from its events: the rebuild through the statechart and the SVG,
// per chart, small and full. What a hall of screens costs when every chart is redrawn (an ETag hit
// costs none of this: the route answers 304 before drawing).
import { presetTimeControl } from '../protocol/time-control.ts';
import { journals, playJournaled, type Step } from '../host/clocks/journaled-clock.fixture.ts';
import { timeChartOf, timeChartSvg, type ChartSize } from '../rules/time-chart.ts';

const MOVES = 80;
const ROUNDS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run(): Promise<void> {
  const steps: Step[] = [{ kind: 'start' }];
  for (let i = 0; i < 2 * MOVES; i++) steps.push({ kind: 'wait', ms: 20_000 + ((i * 7919) % 40_000) }, { kind: 'press', wrong: false });
  const played = playJournaled(presetTimeControl('classical'), steps, 1_000);
  const events = played.journal.eventsByGame(played.game.gameId);
  const tc = played.game.timeControlValue;
  for (const size of ['small', 'full'] as ChartSize[]) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ROUNDS + 20; i++) {
      const t0 = performance.now();
      const svg = timeChartSvg(timeChartOf(tc, events), { size, white: 'Rožič, Vesna', black: 'Bajt, Indira', caption: 'Round 1, board 1' });
      const dt = performance.now() - t0;
      if (i >= 20) times.push(dt); // the first ones warm the JIT
      bytes = svg.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `time chart ${size}: ${events.length} events (${MOVES} moves a side), p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms per chart, ${bytes} bytes`,
    );
  }
  journals.forEach((j) => j.close());
}

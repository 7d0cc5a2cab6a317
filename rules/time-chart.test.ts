// The time chart on games played on the real statechart and journaled as the host journals them
// (host/clocks/journaled-clock.fixture.ts: firmware event body → protobuf → journal row in SQLite).
// The plotted points are read back from the SVG (data attributes and coordinates) and compared
// with the journal's own figures; each marker kind appears for a game that has it.
import { afterAll, describe, expect, it } from 'vitest';
import { parseSideControl, presetTimeControl, timeControl, type Side } from '../protocol/time-control.ts';
import { journals, playJournaled, type Step } from '../host/clocks/journaled-clock.fixture.ts';
import type { ClockEventRow } from '../host/store/journal.ts';
import { readClock } from './clock-reading.ts';
import { pressClocks } from './press-clocks.ts';
import { escapeXml, timeChartOf, timeChartSvg, type TimeChart } from './time-chart.ts';

afterAll(() => journals.forEach((j) => j.close()));

const MIN = 60_000;

/** White and Black each play `n` moves, `thinkMs` per move. */
function moves(n: number, thinkMs: number): Step[] {
  return Array.from({ length: 2 * n }, () => [{ kind: 'wait', ms: thinkMs } as Step, { kind: 'press', wrong: false } as Step]).flat();
}

/** Classical 90/40 + 15 min, 30 s per move: 41 moves each, with an adjustment, a penalty and a take-back on the way. */
function classicalGame() {
  const steps: Step[] = [
    { kind: 'start' },
    ...moves(10, 30_000),
    { kind: 'pause' },
    { kind: 'adjust', side: 'white', ms: -MIN }, // the arbiter takes a minute from White
    { kind: 'penalty', side: 'black' }, // Black's illegal move: two minutes to White (FIDE Laws 7.5.5)
    { kind: 'resume' },
    ...moves(5, 20_000),
    { kind: 'pause' },
    { kind: 'takeback' }, // Black's move 15 annulled
    { kind: 'resume' },
    { kind: 'wait', ms: 10_000 },
    { kind: 'press', wrong: false }, // Black's move 15 again
    ...moves(26, 90_000).slice(0, -1), // …up to White's 41st move, past the move-40 control
  ];
  return playJournaled(presetTimeControl('classical'), steps, 1_000);
}

/** Two-minute sudden death: White thinks too long and the flag falls (FIDE Laws 6.9). */
function flagGame() {
  const tc = timeControl(parseSideControl('120'), parseSideControl('120'));
  return playJournaled(tc, [{ kind: 'start' }, ...moves(2, 5_000), { kind: 'wait', ms: 200_000 }], 7_000);
}

interface Line {
  moves: number[];
  ms: number[];
  xy: [number, number][];
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The SVG's lines and markers, as a reader of the picture gets them. */
function readSvg(svg: string) {
  const root = /<svg[^>]*>/.exec(svg)![0];
  const [left, top, width, height] = attr(root, 'data-plot')!.split(' ').map(Number);
  const plot = { left, top, width, height, xMax: Number(attr(root, 'data-x-max')), msMax: Number(attr(root, 'data-ms-max')) };
  const lines: Partial<Record<Side, Line>> = {};
  for (const [tag] of svg.matchAll(/<polyline[^>]*>/g)) {
    lines[attr(tag, 'data-side') as Side] = {
      moves: attr(tag, 'data-moves')!.split(' ').map(Number),
      ms: attr(tag, 'data-ms')!.split(' ').map(Number),
      xy: attr(tag, 'points')!
        .split(' ')
        .map((p) => p.split(',').map(Number) as [number, number]),
    };
  }
  const markers = [...svg.matchAll(/<g data-kind="([^"]+)" data-side="([^"]+)" data-move="(\d+)" data-ms="(\d+)"(?: data-delta-ms="(-?\d+)")?>/g)].map((m) => ({
    kind: m[1],
    side: m[2] as Side,
    move: Number(m[3]),
    ms: Number(m[4]),
    deltaMs: m[5] === undefined ? null : Number(m[5]),
  }));
  return { plot, lines, markers };
}

/** What the journal says each side had after each of its presses (the last press of a move wins, as in PGN %clk). */
function journalPoints(events: readonly ClockEventRow[], side: Side): Map<number, number> {
  const out = new Map<number, number>();
  const started = events.find((e) => e.type === 'started')!;
  out.set(0, side === 'white' ? started.whiteMs : started.blackMs);
  for (const e of events) if (e.type === 'moved' && e.side === side) out.set(e.move!, side === 'white' ? e.whiteMs : e.blackMs);
  return out;
}

describe('time chart from the journal', () => {
  const classical = classicalGame();
  const events = classical.journal.eventsByGame(classical.game.gameId);
  const chart: TimeChart = timeChartOf(classical.game.timeControlValue, events);

  it('the statechart reproduces every journaled event of the game (the chart stands on the rule book, rules/rebuild.ts)', () => {
    expect(chart.mismatches).toEqual([]);
    // The game went past move 40 for both sides, as played.
    expect(readClock(classical.boot.state(), classical.boot.now).moves).toEqual({ white: 41, black: 40 });
  });

  for (const size of ['small', 'full'] as const) {
    it(`${size}: every plotted point is the journal's remaining time after that press, at the coordinate of its move and time (PGN %clk figures)`, () => {
      const svg = timeChartSvg(chart, { size, white: 'Rožič, Vesna', black: 'Bajt, Indira' });
      const { plot, lines } = readSvg(svg);
      for (const side of ['white', 'black'] as const) {
        const line = lines[side]!;
        const want = journalPoints(events, side);
        expect(new Map(line.moves.map((m, i) => [m, line.ms[i]]))).toEqual(want);
        expect(line.moves).toEqual([...want.keys()].sort((a, b) => a - b));
        // The coordinates are those figures on the axes the picture declares.
        line.xy.forEach(([x, y], i) => {
          expect(x).toBeCloseTo(plot.left + (line.moves[i] / plot.xMax) * plot.width, 1);
          expect(y).toBeCloseTo(plot.top + (1 - line.ms[i] / plot.msMax) * plot.height, 1);
        });
      }
      // The same reading as the PGN export's %clk (one function, rules/press-clocks.ts).
      const clk = pressClocks(events);
      expect(lines.white!.ms[41]).toBe(clk.get('white:41'));
      expect(lines.black!.ms[40]).toBe(clk.get('black:40'));
    });
  }

  it('FIDE Laws 6.10.2: the move-40 period bonus (+15 min in 90/40+15+30 s) is marked on each side at its 40th move, at the time the journal shows after it', () => {
    const bonus = chart.markers.filter((m) => m.kind === 'period-bonus');
    expect(bonus.map((m) => [m.side, m.move, m.deltaMs])).toEqual([
      ['white', 40, 15 * MIN],
      ['black', 40, 15 * MIN],
    ]);
    for (const m of bonus) {
      const press = events.filter((e) => e.type === 'moved' && e.side === m.side && e.move === 40).at(-1)!;
      expect(m.ms).toBe(m.side === 'white' ? press.whiteMs : press.blackMs);
    }
    const { markers } = readSvg(timeChartSvg(chart, { size: 'full', white: 'W', black: 'B' }));
    expect(markers.filter((m) => m.kind === 'period-bonus').map((m) => m.move)).toEqual([40, 40]);
    expect(timeChartSvg(chart, { size: 'full', white: 'W', black: 'B' })).toContain('time control: move 40');
  });

  it("FIDE Laws 7.5.5: a penalty is marked on the credited side with its 2 minutes; an arbiter's adjustment with the time taken", () => {
    const { markers } = readSvg(timeChartSvg(chart, { size: 'full', white: 'W', black: 'B' }));
    const adjusted = events.filter((e) => e.type === 'adjusted');
    expect(markers.filter((m) => m.kind === 'adjustment')).toEqual([{ kind: 'adjustment', side: 'white', move: 10, ms: adjusted[0].whiteMs, deltaMs: -MIN }]);
    expect(markers.filter((m) => m.kind === 'penalty')).toEqual([{ kind: 'penalty', side: 'white', move: 10, ms: adjusted[1].whiteMs, deltaMs: 2 * MIN }]);
  });

  it('FIDE Laws 7.5.1: a take-back is marked at the annulled move, and the move played again replaces its point', () => {
    const takeback = chart.markers.filter((m) => m.kind === 'takeback');
    expect(takeback.map((m) => [m.side, m.move, m.text])).toEqual([['black', 14, "Black's move 15 taken back (FIDE Laws 7.5.1)"]]);
    const presses = events.filter((e) => e.type === 'moved' && e.side === 'black' && e.move === 15);
    expect(presses).toHaveLength(2);
    const line = readSvg(timeChartSvg(chart, { size: 'small', white: 'W', black: 'B' })).lines.black!;
    expect(line.ms[line.moves.indexOf(15)]).toBe(presses[1].blackMs);
    expect(line.moves.filter((m) => m === 15)).toHaveLength(1);
  });

  it('FIDE Laws 6.9: a flag is marked at zero on the side whose flag fell, during its next move', () => {
    const g = flagGame();
    const ev = g.journal.eventsByGame(g.game.gameId);
    expect(ev.at(-1)!.type).toBe('flag');
    const c = timeChartOf(g.game.timeControlValue, ev);
    expect(c.mismatches).toEqual([]);
    const { markers } = readSvg(timeChartSvg(c, { size: 'small', white: 'W', black: 'B' }));
    expect(markers).toEqual([{ kind: 'flag', side: 'white', move: 2, ms: 0, deltaMs: null }]);
    expect(c.markers[0].text).toBe("White's flag fell during move 3 (FIDE Laws 6.9)");
  });

  it('FIDE Laws 6.7.1: a loss by default is marked on the absent side; 6.10.2: a move-counter correction to 40 is marked, with the period bonus it credits', () => {
    const late = playJournaled(
      timeControl(parseSideControl('900+10'), parseSideControl('900+10'), { defaultTime: 60 }),
      [{ kind: 'start' }, { kind: 'arrive', side: 'black' }, { kind: 'wait', ms: 61_000 }],
      11_000,
    );
    const lateEvents = late.journal.eventsByGame(late.game.gameId);
    expect(lateEvents.map((e) => e.type)).toContain('forfeit');
    const forfeit = timeChartOf(late.game.timeControlValue, lateEvents);
    expect(forfeit.mismatches).toEqual([]);
    expect(forfeit.markers.map((m) => [m.kind, m.side, m.move])).toEqual([['forfeit', 'white', 0]]);

    const corrected = playJournaled(
      presetTimeControl('classical'),
      [{ kind: 'start' }, ...moves(3, 20_000), { kind: 'pause' }, { kind: 'moves', side: 'white', moves: 40 }],
      13_000,
    );
    const ev = corrected.journal.eventsByGame(corrected.game.gameId);
    const c = timeChartOf(corrected.game.timeControlValue, ev);
    expect(c.mismatches).toEqual([]);
    const set = ev.find((e) => e.type === 'moves-set')!;
    expect(c.markers.map((m) => [m.kind, m.side, m.move, m.ms, m.deltaMs])).toEqual([
      ['moves-set', 'white', 40, set.whiteMs, null],
      ['period-bonus', 'white', 40, set.whiteMs, 15 * MIN],
    ]);
    expect(c.markers[1].text).toBe('+15:00 for White: period 2 begins by the move-counter correction (FIDE Laws 6.10.2)');
  });

  it("a journal that is not the clock's own story is said so in the <desc> (rules/rebuild.ts mismatches), and its figures are still the ones drawn", () => {
    const tampered = events.map((e) => (e.type === 'moved' && e.side === 'white' && e.move === 5 ? { ...e, whiteMs: e.whiteMs + 7_000 } : e));
    const c = timeChartOf(classical.game.timeControlValue, tampered);
    expect(c.mismatches).toHaveLength(1);
    expect(c.points.white.find((p) => p.move === 5)!.ms).toBe(events.find((e) => e.type === 'moved' && e.side === 'white' && e.move === 5)!.whiteMs + 7_000);
    expect(timeChartSvg(c, { size: 'small', white: 'W', black: 'B' })).toMatch(
      /1 journaled event\(s\) differ from the clock&#39;s rules \(first: event \d+, times /,
    );
  });

  it('accessible: a <title> and a <desc> that say what the chart shows, White solid and Black dashed, markers with a letter and words', () => {
    const svg = timeChartSvg(chart, { size: 'full', white: 'Rožič, Vesna', black: 'Bajt, Indira', caption: 'Round 1, board 1' });
    expect(svg).toMatch(/<svg[^>]* role="img" aria-labelledby="chart-title chart-desc"/);
    expect(svg).toContain('<title id="chart-title">Time chart: Rožič, Vesna (White) – Bajt, Indira (Black)</title>');
    const desc = /<desc id="chart-desc">([^<]*)<\/desc>/.exec(svg)![1];
    expect(desc).toContain('White (Rožič, Vesna, solid line)');
    expect(desc).toContain('Black (Bajt, Indira, dashed line)');
    expect(desc).toContain('B: +15:00 for White: period 2 begins after move 40 (FIDE Laws 6.10.2)');
    const [white, black] = [...svg.matchAll(/<polyline[^>]*>/g)].map((m) => m[0]);
    expect(white).not.toContain('stroke-dasharray');
    expect(black).toContain('stroke-dasharray');
    // The legend names every marker by letter.
    expect(svg).toContain('<tspan font-weight="bold">P</tspan> penalty: time to the opponent of an illegal move (FIDE Laws 7.5.5)');
    // Nothing the dashboard's CSP (style-src 'self') would block in a served SVG.
    expect(svg).not.toMatch(/<style|\sstyle=/);
  });

  it('escapes every name (XML 1.0 §2.4): markup in a player name stays text', () => {
    const evil = `<script>alert("x")</script> & 'O'Neil'`;
    const svg = timeChartSvg(chart, { size: 'full', white: evil, black: 'B', caption: '<b>round</b>' });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain(escapeXml(evil));
    expect(escapeXml(evil)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;O&#39;Neil&#39;');
  });

  it('a game not started yet: no line, "no moves yet"', () => {
    const svg = timeChartSvg(timeChartOf(presetTimeControl('rapid'), []), { size: 'small', white: 'W', black: 'B' });
    expect(svg).not.toContain('<polyline');
    expect(svg).toContain('no moves yet');
  });
});

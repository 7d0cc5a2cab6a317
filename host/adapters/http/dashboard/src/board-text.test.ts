// A board waiting for its start (docs/dashboard.md "Status in words"): a round scheduled ahead
// (the tournament file's round `start`, two days away) is `scheduled` with its start date and time,
// counting down only in its last hour; the pause between two games of a knockout mini-match
// (Slovenian final 2007, art. 3: the rapid games after a break) is `break` with its countdown.
import { describe, expect, it } from 'vitest';
import type { BoardView } from '../../../../app/ports.ts';
import { broadcastLine, infoLine, statusOf, ticking } from './board-text.ts';
import { rowView } from './hall.ts';

const NOW = Date.UTC(2026, 8, 12, 12, 30);

function waiting(startsAtUtcMs: number, extra: Partial<BoardView> = {}): BoardView {
  return {
    id: 'open-4',
    event: 'open',
    eventName: 'Open',
    round: 3,
    board: 4,
    clockId: 'clk-4',
    clockOnline: true,
    white: { name: 'A' },
    black: { name: 'B' },
    timeControl: '40/5400+30:1800+30',
    live: null,
    result: null,
    resultConfirmed: false,
    startsAtUtcMs,
    game: { no: 1, kind: 'classical', matchId: null },
    ...extra,
  };
}

describe('a board before its start', () => {
  it('a round two days ahead is scheduled, with its start date and time, not a 48-hour break', () => {
    const b = waiting(NOW + 48 * 3_600_000 + 30 * 60_000);
    expect(statusOf(b, NOW)).toBe('scheduled');
    expect(infoLine(b, NOW)).toBe('starts 2026-09-14 13:00 UTC · 40/5400+30:1800+30');
    expect(rowView(b, NOW).statusText).toBe('scheduled');
  });

  it('on the day: the time alone; in the last hour, the countdown; at the start, ready', () => {
    const b = waiting(Date.UTC(2026, 8, 12, 15, 0));
    expect(infoLine(b, NOW)).toBe('starts 15:00 UTC · 40/5400+30:1800+30');
    const soon = Date.UTC(2026, 8, 12, 14, 31, 30);
    expect(infoLine(b, soon)).toBe('starts 15:00 UTC · in 28:30 · 40/5400+30:1800+30');
    expect(ticking(b, soon)).toBe(true);
    expect(statusOf(b, Date.UTC(2026, 8, 12, 15, 0))).toBe('ready');
  });

  it("a knockout mini-match's next game after its break stays a break", () => {
    const b = waiting(NOW + 30 * 60_000, { game: { no: 3, kind: 'rapid', matchId: 'm1' }, timeControl: '900+10' });
    expect(statusOf(b, NOW)).toBe('break');
    expect(infoLine(b, NOW)).toBe('break: 30:00 until the start · 900+10');
  });
});

describe('the board panel\'s broadcast line (docs/broadcast.md "On the dashboard")', () => {
  it("says the lichess round, lichess's error, the difference of moves and presses, and the round's unmatched games with how many more", () => {
    expect(broadcastLine(waiting(NOW))).toBe('');
    expect(broadcastLine(waiting(NOW, { broadcast: { lichessRound: 'AbCd1234' } }))).toBe('broadcast to lichess round AbCd1234');
    const unmatched = Array.from({ length: 5 }, (_, i) => `"3.${20 + i} X – Y" (round-3.pgn:${1 + 12 * i}): no board of round 3 has these players`);
    const line = broadcastLine(
      waiting(NOW, {
        broadcast: {
          lichessRound: 'AbCd1234',
          lichessError: 'Illegal move e5',
          warning: 'Moves and clock presses differ: White 1 moves / 0 presses',
          unmatched,
          unmatchedCount: 7,
        },
      }),
    );
    expect(line).toBe(
      `broadcast to lichess round AbCd1234 · lichess refused the game: Illegal move e5 · Moves and clock presses differ: White 1 moves / 0 presses · moves games matching no board of round 3: ${unmatched.join('; ')}; and 2 more`,
    );
  });
});

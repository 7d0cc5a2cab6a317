// A hall for the broadcast tests: a classical event (FIDE's 40/90 + 30/30 control, the move-40
// bonus) and a blitz event, round 1 opened on two boards each, and each board's clock the real
// statechart with every output journaled as the host journals it (host/clocks/journaled-clock.fixture.ts).
import { parseTournamentText } from '../../domain/tournament-file.ts';
import type { Hall } from '../../domain/model.ts';
import { Director } from '../../app/director.ts';
import { Boot } from '../../clocks/journaled-clock.fixture.ts';
import { journalInput } from '../../clocks/clock-event.ts';
import { Journal, type GameRow } from '../../store/journal.ts';
import type { RoundState } from './live-pgn.ts';

export const START = Date.UTC(2026, 4, 2, 14, 0);
/** The clock's own time line starts here; journal UTC = START + (clock time − ORIGIN). */
const ORIGIN = 1_000_000;

const player = (rank: number, name: string) => ({ rank, name, sex: 'm', rating: 2400 - rank, federation: 'SLO', fideId: 90_000_000 + rank });

function eventJson(id: string, name: string, timeControl: unknown, firstRank: number) {
  const ranks = [1, 2, 3, 4];
  return {
    id,
    name,
    city: 'Ljubljana',
    federation: 'SLO',
    startDate: '2026/05/02',
    endDate: '2026/05/03',
    chiefArbiter: 'Ana Srebrnič',
    kind: 'individual',
    type: 'Round robin',
    timeControl,
    ...(firstRank > 1 ? { hallFirstTable: 3 } : {}),
    players: ranks.map((r) => player(r, `Igralec${firstRank + r - 1}, Prvi`)),
    rounds: [
      {
        number: 1,
        date: '2026/05/02',
        start: '2026-05-02T16:00:00+02:00',
        boards: [
          { board: 1, white: 1, black: 2 },
          { board: 2, white: 3, black: 4 },
        ],
      },
    ],
  };
}

export const CLASSICAL = 'open-2026';
export const BLITZ = 'blitz-2026';

export class BroadcastHall {
  readonly journal = new Journal(':memory:');
  readonly hall: Hall = parseTournamentText(
    JSON.stringify({
      hall: { name: 'Šahovski dom', site: 'Ljubljana SLO' },
      events: [eventJson(CLASSICAL, 'Odprto prvenstvo 2026', 'classical', 1), eventJson(BLITZ, 'Hitropotezno 2026', { timeControl: '180+2' }, 5)],
    }),
  );
  readonly games: Record<string, GameRow[]> = {};
  private boots = 0;

  constructor() {
    const director = new Director(this.journal, this.hall);
    this.games[CLASSICAL] = director.openRound(CLASSICAL, 1, START, { 1: 'clk-1', 2: 'clk-2' });
    this.games[BLITZ] = director.openRound(BLITZ, 1, START, { 1: 'clk-3', 2: 'clk-4' });
  }

  /** The board's clock, started at START: the real statechart, every output journaled. */
  clock(game: GameRow): Boot {
    const boot = new Boot(game.clockId!, ++this.boots, game.timeControlValue, ORIGIN, (b, ev) => {
      this.journal.append({ ...journalInput(b.clockId, b.bootId, ++b.seq, ev, { utcMs: START + (ev.atMs - ORIGIN), uncertaintyMs: 2 }), gameId: game.gameId });
    });
    boot.send({ type: 'START', at: ORIGIN });
    return boot;
  }

  /** The journal UTC of a clock instant. */
  utc(clockMs: number): number {
    return START + (clockMs - ORIGIN);
  }

  /** The round as the broadcast reads it from the journal. */
  round(eventId: string): RoundState {
    const event = this.hall.events.find((e) => e.id === eventId)!;
    const games = this.journal.gamesByRound(eventId, 1).map((game) => ({ game, events: this.journal.eventsByGame(game.gameId) }));
    return { event, site: this.hall.site ?? '?', games };
  }

  /** The journal's remaining time of each side's k-th press (`white:1`, …), the later press of a move winning. */
  pressFigures(game: GameRow): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.journal.eventsByGame(game.gameId)) if (e.type === 'moved') out.set(`${e.side}:${e.move}`, e.side === 'white' ? e.whiteMs : e.blackMs);
    return out;
  }
}

/** A press by the side on move after `thinkMs`. */
export const press = (clock: Boot, thinkMs: number) => clock.send({ type: 'PRESS', side: clock.state().turn, at: clock.now + thinkMs });

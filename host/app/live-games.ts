// The live state of each game the host shows (live-state.ts LiveGame), kept beside the journal:
// built from the game's journaled events when first asked, then fed each new event as it is
// journaled. The board views read it (board-views.ts), the command rules check against it
// (journal-ports.ts), and the retained MQTT state is drafted from it after a result.
import type { Journal } from '../store/journal.ts';
import type { ClockEventRow, GameRow } from '../store/types.ts';
import { recordFromJournalRow } from './journal-records.ts';
import { LiveGame } from './live-state.ts';
import { finishedLive } from './result-rules.ts';
import type { ClockEventRecord, LiveClockState } from './views.ts';

interface Entry {
  readonly game: LiveGame;
  /** What the state was built for (controlKey). */
  readonly control: string;
  /** Every boot of a clock that fed it (`clockId/bootId`), and the last one. */
  readonly boots: Set<string>;
  boot: string | null;
  /** The journal id of the last event folded in. */
  lastId: number;
}

/**
 * What a game's live state was built for: the whole control, default time (FIDE Laws 6.7.1) and
 * increment timing included. Its written form (`game.timeControl`, "40/5400+30:900+30") leaves
 * both out, so a board set up anew with only another default time would keep the old state.
 */
function controlKey(game: GameRow): string {
  return JSON.stringify(game.timeControlValue);
}

export class LiveGames {
  private readonly games = new Map<number, Entry>();

  constructor(private readonly journal: Journal) {}

  /** The game's live state as its clock reported it (built from the journal when first asked, or after its control changed). */
  of(game: GameRow): LiveClockState | null {
    const gameId = game.gameId;
    let live = this.games.get(gameId);
    const control = controlKey(game);
    if (!live || live.control !== control) {
      this.drop(gameId);
      live = { game: new LiveGame(game.timeControlValue), control, boots: new Set(), boot: null, lastId: 0 };
      for (const row of this.journal.eventsByGame(gameId)) {
        live.lastId = Math.max(live.lastId, row.id);
        const r = recordFromJournalRow(row);
        if (!r) continue;
        live.boot = `${r.clockId}/${r.bootId}`;
        live.boots.add(live.boot);
        live.game.feed(r);
      }
      this.games.set(gameId, live);
    }
    return live.game.state;
  }

  /**
   * The board's live state: the clock's, and `finished` once the game has a result, however it
   * came (FIDE Laws 5.1 / 5.2: the result ends the game). A result entered at the host is not
   * a clock event (the clock does not echo ENTER_RESULT), and a clock that was offline may have
   * run on: the times stay the clock's last reported ones and nobody's clock runs.
   */
  ofBoard(game: GameRow): LiveClockState | null {
    return finishedLive(game.result, this.of(game));
  }

  /**
   * A newly journaled event of `game`: folded into the game's state when that state is kept. An
   * event of an earlier boot arriving late (its outbox), or a control changed since: the journal's
   * order is not this arrival order, so the game is rebuilt from the journal when next asked.
   * Already in it (row.id ≤ lastId): the state was built from the journal after the writer
   * thread committed this event and before the host heard so.
   */
  journaled(row: ClockEventRow, record: ClockEventRecord, game: GameRow | null): void {
    if (row.gameId === null) return;
    const live = this.games.get(row.gameId);
    if (!live) return;
    const boot = `${record.clockId}/${record.bootId}`;
    const control = game ? controlKey(game) : null;
    if (row.id <= live.lastId && control === live.control) return;
    if ((boot !== live.boot && live.boots.has(boot)) || control !== live.control) return this.drop(row.gameId);
    live.lastId = row.id;
    live.boots.add(boot);
    live.boot = boot;
    live.game.feed(record);
  }

  private drop(gameId: number): void {
    this.games.get(gameId)?.game.stop();
    this.games.delete(gameId);
  }
}

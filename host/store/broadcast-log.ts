// The `broadcast_pushes` table (schema.ts, version 5): each request that left the hall for a
// lichess broadcast round, when it left and what came back, for an appeal to show that nothing
// left before its time plus the delay (docs/broadcast.md "The delay", docs/exports.md
// "Broadcast log").
import type { JournalConnection } from './connection.ts';
import { int, optInt, parseJson, text, type Row } from './fields.ts';

/** One game of a push: how many moves it held, and what lichess said of it. */
export interface BroadcastPushGame {
  gameId: string;
  /** Main-line moves (plies) pushed. */
  plies: number;
  /** The moves lichess read (a 200), else null. */
  moves: number | null;
  /** lichess's error for this game, else null. */
  error: string | null;
}

export interface BroadcastPushInput {
  sentUtcMs: number;
  answeredUtcMs: number;
  event: string;
  round: number;
  lichessRound: string;
  delayMs: number;
  /** The instant the games were shown as of (now − delay when the state was read). */
  asOfUtcMs: number;
  /** The newest journaled fact the games held (null: no game). */
  newestUtcMs: number | null;
  games: BroadcastPushGame[];
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** What went wrong, when the push was not answered 200. */
  message: string | null;
}

export interface BroadcastPushRow extends BroadcastPushInput {
  id: number;
}

export class BroadcastLog {
  private readonly insert;
  private readonly select;

  constructor(private readonly conn: JournalConnection) {
    this.insert = conn.prepare(`
      INSERT INTO broadcast_pushes (sent_utc_ms, answered_utc_ms, event, round, lichess_round, delay_ms, as_of_utc_ms, newest_utc_ms, games, status, message)
      VALUES (@sentUtcMs, @answeredUtcMs, @event, @round, @lichessRound, @delayMs, @asOfUtcMs, @newestUtcMs, @games, @status, @message)`);
    this.select = conn.prepare('SELECT * FROM broadcast_pushes WHERE (@event IS NULL OR event = @event) ORDER BY id');
  }

  record(p: BroadcastPushInput): number {
    const where = `broadcast push to lichess round ${JSON.stringify(p.lichessRound)}`;
    return this.conn.transaction(() => {
      const info = this.insert.run({
        sentUtcMs: int(p.sentUtcMs, 'sentUtcMs', where),
        answeredUtcMs: int(p.answeredUtcMs, 'answeredUtcMs', where),
        event: text(p.event, 'event', where),
        round: int(p.round, 'round', where, 1),
        lichessRound: text(p.lichessRound, 'lichessRound', where),
        delayMs: int(p.delayMs, 'delayMs', where),
        asOfUtcMs: int(p.asOfUtcMs, 'asOfUtcMs', where),
        newestUtcMs: optInt(p.newestUtcMs, 'newestUtcMs', where),
        games: JSON.stringify(p.games),
        status: optInt(p.status, 'status', where),
        message: p.message,
      });
      return Number(info.lastInsertRowid);
    });
  }

  list(event?: string): BroadcastPushRow[] {
    return (this.select.all({ event: event ?? null }) as Row[]).map((r) => ({
      id: r.id as number,
      sentUtcMs: r.sent_utc_ms as number,
      answeredUtcMs: r.answered_utc_ms as number,
      event: r.event as string,
      round: r.round as number,
      lichessRound: r.lichess_round as string,
      delayMs: r.delay_ms as number,
      asOfUtcMs: r.as_of_utc_ms as number,
      newestUtcMs: (r.newest_utc_ms as number | null) ?? null,
      games: parseJson(r.games) as BroadcastPushGame[],
      status: (r.status as number | null) ?? null,
      message: (r.message as string | null) ?? null,
    }));
  }
}

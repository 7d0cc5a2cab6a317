// The `matches` table: a knockout mini-match between two players (its games are in `games`
// with its match id), its status and, once decided, who won and how (host/app/director.ts).
import type { JournalConnection } from './connection.ts';
import { json, parseJson, type Row } from './fields.ts';
import type { Outbox } from './outbox.ts';
import type { MatchRow } from './types.ts';

function toMatch(r: Row): MatchRow {
  return {
    matchId: r.match_id as string,
    event: r.event as string,
    round: r.round as number,
    board: r.board as number,
    playerA: r.player_a as string,
    playerB: r.player_b as string,
    status: r.status as MatchRow['status'],
    winner: (r.winner as string | null) ?? null,
    loser: (r.loser as string | null) ?? null,
    decidedBy: (r.decided_by as MatchRow['decidedBy']) ?? null,
    score: parseJson(r.score_json),
    updatedUtcMs: r.updated_utc_ms as number,
  };
}

export class Matches {
  private readonly upsertMatch;
  private readonly matchById;
  private readonly matchesOfEvent;

  constructor(
    private readonly conn: JournalConnection,
    private readonly outbox: Outbox,
  ) {
    this.upsertMatch = conn.prepare(`
      INSERT INTO matches (match_id, event, round, board, player_a, player_b, status, winner, loser, decided_by, score_json, updated_utc_ms)
      VALUES (@matchId, @event, @round, @board, @playerA, @playerB, @status, @winner, @loser, @decidedBy, @score, @updatedUtcMs)
      ON CONFLICT (match_id) DO UPDATE SET status = excluded.status, winner = excluded.winner, loser = excluded.loser,
        decided_by = excluded.decided_by, score_json = excluded.score_json, updated_utc_ms = excluded.updated_utc_ms`);
    this.matchById = conn.prepare('SELECT * FROM matches WHERE match_id = ?');
    this.matchesOfEvent = conn.prepare('SELECT * FROM matches WHERE event = ? ORDER BY round, board');
  }

  /** Stores a match as it stands; the moment it is decided, its outbox row too. */
  saveMatch(m: MatchRow): void {
    this.conn.transaction(() => {
      const before = this.getMatch(m.matchId);
      this.upsertMatch.run({ ...m, score: json(m.score) });
      if (m.status === 'decided' && before?.status !== 'decided') {
        this.outbox.write('match-decided', m, m.updatedUtcMs);
      }
    });
  }

  getMatch(matchId: string): MatchRow | null {
    const r = this.matchById.get(matchId) as Row | undefined;
    return r ? toMatch(r) : null;
  }

  matchesByEvent(event: string): MatchRow[] {
    return (this.matchesOfEvent.all(event) as Row[]).map(toMatch);
  }
}

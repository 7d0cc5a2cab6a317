// The `arbiter_actions` table: every arbiter command with who gave it and its outcome (applied
// or refused, with the reason), every Configure the host sent, lots drawn, result entries and
// confirmations with what they replaced (FIDE Laws 8.7: kept for an appeal).
import type { JournalConnection } from './connection.ts';
import { int, json, parseJson, text, type Row } from './fields.ts';
import type { Outbox } from './outbox.ts';
import type { ArbiterActionInput, ArbiterActionRow } from './types.ts';

export class ArbiterActions {
  private readonly insertAction;
  private readonly actions;

  constructor(
    private readonly conn: JournalConnection,
    private readonly outbox: Outbox,
  ) {
    this.insertAction = conn.prepare(`
      INSERT INTO arbiter_actions (utc_ms, arbiter, action, game_id, clock_id, event, round, board, payload, outcome, reason)
      VALUES (@utcMs, @arbiter, @action, @gameId, @clockId, @event, @round, @board, @payload, @outcome, @reason)`);
    this.actions = conn.prepare('SELECT * FROM arbiter_actions WHERE (@gameId IS NULL OR game_id = @gameId) ORDER BY id');
  }

  /** Journals an arbiter action (applied or refused) with who did it, and its outbox row. */
  recordArbiterAction(a: ArbiterActionInput): number {
    return this.conn.transaction(() => {
      const id = this.insert(a);
      this.outbox.write('arbiter-action', { id, ...a }, a.utcMs);
      return id;
    });
  }

  /** Stores an action inside the caller's transaction (a result's, results.ts), with no outbox row of its own. */
  insert(a: ArbiterActionInput): number {
    const where = `arbiter action ${JSON.stringify(a.action)}`;
    const info = this.insertAction.run({
      utcMs: int(a.utcMs, 'utcMs', where),
      arbiter: text(a.arbiter, 'arbiter', where),
      action: text(a.action, 'action', where),
      gameId: a.gameId ?? null,
      clockId: a.clockId ?? null,
      event: a.event ?? null,
      round: a.round ?? null,
      board: a.board ?? null,
      payload: json(a.payload),
      outcome: a.outcome,
      reason: a.reason ?? null,
    });
    return Number(info.lastInsertRowid);
  }

  arbiterActions(gameId?: number): ArbiterActionRow[] {
    return (this.actions.all({ gameId: gameId ?? null }) as Row[]).map((r) => ({
      id: r.id as number,
      utcMs: r.utc_ms as number,
      arbiter: r.arbiter as string,
      action: r.action as string,
      gameId: (r.game_id as number | null) ?? null,
      clockId: (r.clock_id as string | null) ?? null,
      event: (r.event as string | null) ?? null,
      round: (r.round as number | null) ?? null,
      board: (r.board as number | null) ?? null,
      payload: parseJson(r.payload),
      outcome: r.outcome as 'applied' | 'rejected',
      reason: (r.reason as string | null) ?? null,
    }));
  }
}

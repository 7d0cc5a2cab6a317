// Results: what a game's result is and who says so. A clock's report (both players confirmed it
// on the clock), an arbiter's entry or correction, an arbiter's confirmation (only confirmed
// results are exported), and the `result_reports` table: every result a clock reported, filed
// against its game once, pending beside a different result until the arbiter decides
// (FIDE Laws 8.7). The result itself is a column of `games` (games.ts); each decision is an
// arbiter action (arbiter-actions.ts) with what it replaced, in the same transaction.
import type { ArbiterActions } from './arbiter-actions.ts';
import type { JournalConnection } from './connection.ts';
import { int, JournalError, text, type Row } from './fields.ts';
import { endOf, type Games } from './games.ts';
import type { Outbox } from './outbox.ts';
import type { ReadCache } from './read-cache.ts';
import { GAME_RESULTS } from '../../rules/vocabulary.ts';
import type { ClockResultInput, ClockResultOutcome, GameResult, GameRow, ResultReport, ResultReportRow, ResultReportStatus } from './types.ts';

const RESULT_SET = new Set<string>(GAME_RESULTS);

function toReport(r: Row): ResultReportRow {
  return {
    id: r.id as number,
    eventId: (r.event_id as number | null) ?? null,
    clockId: (r.clock_id as string | null) ?? null,
    gameId: (r.game_id as number | null) ?? null,
    result: r.result as GameResult,
    how: (r.how as string | null) ?? null,
    reportedBy: r.reported_by as string,
    utcMs: r.utc_ms as number,
    status: r.status as ResultReportStatus,
    resolvedBy: (r.resolved_by as string | null) ?? null,
    resolvedUtcMs: (r.resolved_utc_ms as number | null) ?? null,
  };
}

export class ResultBook {
  private readonly insertReport;
  private readonly reportByEvent;
  private readonly reportById;
  private readonly reportsOfGame;
  private readonly pendingReports;
  private readonly resolveReport;

  constructor(
    private readonly conn: JournalConnection,
    private readonly reads: ReadCache,
    private readonly games: Games,
    private readonly actions: ArbiterActions,
    private readonly outbox: Outbox,
  ) {
    this.insertReport = conn.prepare(`
      INSERT INTO result_reports (event_id, clock_id, game_id, result, how, reported_by, utc_ms, status)
      VALUES (@eventId, @clockId, @gameId, @result, @how, @reportedBy, @utcMs, @status)
      ON CONFLICT (event_id) DO NOTHING`);
    this.reportByEvent = conn.prepare('SELECT * FROM result_reports WHERE event_id = ?');
    this.reportById = conn.prepare('SELECT * FROM result_reports WHERE id = ?');
    this.reportsOfGame = conn.prepare('SELECT * FROM result_reports WHERE game_id = ? ORDER BY id');
    this.pendingReports = conn.prepare(`SELECT * FROM result_reports WHERE status = 'pending' ORDER BY id`);
    this.resolveReport = conn.prepare(
      'UPDATE result_reports SET status = @status, game_id = @gameId, resolved_by = @by, resolved_utc_ms = @utcMs WHERE id = @id',
    );
  }

  /**
   * Records a game's result (from the clock with both players' confirmation, or from an arbiter).
   * A new report clears an earlier confirmation: the arbiter must confirm again.
   * Arbiter reports are journaled as arbiter actions in the same transaction, a correction with
   * what it replaced and why (`reason`, required over a confirmed result: FIDE Laws 8.7).
   */
  reportResult(gameId: number, report: ResultReport): GameRow {
    return this.conn.transaction(() => {
      const where = `result for game ${gameId}`;
      const game = this.games.getGame(gameId);
      if (!game) throw new JournalError(`${where}: no such game`, 'gameId');
      if (!RESULT_SET.has(report.result)) {
        throw new JournalError(`${where}: "result" must be one of ${GAME_RESULTS.join(' ')}, got ${JSON.stringify(report.result)}`, 'result');
      }
      const how = text(report.how, 'how', where);
      const utcMs = int(report.utcMs, 'utcMs', where);
      const reason = report.reason === undefined || report.reason === null ? null : text(report.reason.trim(), 'reason', where);
      if (report.source === 'arbiter' && game.confirmedBy !== null && reason === null) {
        // FIDE Laws 8.7: the result stands unless the arbiter decides otherwise; the decision is kept with why.
        throw new JournalError(
          `${where}: ${game.result} was confirmed by ${game.confirmedBy}: a correction of a confirmed result must say why ("reason")`,
          'reason',
        );
      }
      let reportedBy: string;
      if (report.source === 'clock') {
        if (report.bothPlayersConfirmed !== true) {
          throw new JournalError(`${where}: a result from the clock counts only when both players confirmed it`, 'bothPlayersConfirmed');
        }
        if (game.confirmedBy !== null) {
          throw new JournalError(`${where}: already confirmed by ${game.confirmedBy}; only an arbiter can change it`, 'source');
        }
        reportedBy = 'clock';
      } else if (report.source === 'arbiter') {
        reportedBy = `arbiter:${text(report.arbiter, 'arbiter', where)}`;
      } else {
        throw new JournalError(`${where}: "source" must be "clock" or "arbiter", got ${JSON.stringify(report.source)}`, 'source');
      }
      this.games.writeResultColumns({
        gameId,
        result: report.result,
        how,
        reportedBy,
        utcMs,
        // A correction does not move the game's end (the break before a tie-break counts from it).
        endedUtcMs: int(report.endedUtcMs ?? (game.result !== null ? endOf(game) : null) ?? utcMs, 'endedUtcMs', where),
      });
      if (report.source === 'arbiter') {
        // A correction keeps what it replaced (and who had entered and confirmed it) for an appeal.
        const previous =
          game.result === null ? {} : { previous: { result: game.result, how: game.how, reportedBy: game.reportedBy, confirmedBy: game.confirmedBy } };
        // A clock's pending report that says what the arbiter now recorded is settled by it.
        const settled = this.reportsOf(gameId, 'pending').filter((r) => r.result === report.result);
        this.reads.clear();
        for (const r of settled) this.resolveReport.run({ id: r.id, status: 'adopted', gameId, by: report.arbiter!, utcMs });
        this.actions.insert({
          utcMs,
          arbiter: report.arbiter!,
          action: 'result',
          gameId,
          payload: {
            result: report.result,
            how,
            ...previous,
            ...(reason !== null ? { reason } : {}),
            ...(settled.length ? { settledReports: settled.map((r) => r.id) } : {}),
          },
          outcome: 'applied',
        });
      }
      const updated = this.games.getGame(gameId)!;
      this.outbox.write('result', updated, utcMs);
      return updated;
    });
  }

  /**
   * An arbiter confirms the reported result; only confirmed results are exported. With
   * `reportId`, the arbiter decides between results (FIDE Laws 8.7): that clock report (a
   * pending one of this game, or one of a clock that had no game) becomes the game's result,
   * as its reporter reported it, and is confirmed. Either way every other pending report of
   * the game is dismissed: the confirmation is the arbiter's decision, journaled with what it
   * adopted and dismissed. Adopting a report over a confirmed result is a correction of it:
   * `reason` is required then, as for `reportResult`.
   */
  confirmResult(gameId: number, arbiter: string, utcMs: number, opts: { reportId?: number; reason?: string } = {}): GameRow {
    return this.conn.transaction(() => {
      const where = `confirmation of game ${gameId}`;
      const game = this.games.getGame(gameId);
      if (!game) throw new JournalError(`${where}: no such game`, 'gameId');
      text(arbiter, 'arbiter', where);
      int(utcMs, 'utcMs', where);
      const reason = opts.reason === undefined || opts.reason === null ? null : text(opts.reason.trim(), 'reason', where);
      let adopted: ResultReportRow | null = null;
      if (opts.reportId !== undefined) {
        const r = this.reportById.get(opts.reportId) as Row | undefined;
        adopted = r ? toReport(r) : null;
        if (!adopted || adopted.status !== 'pending' || (adopted.gameId !== null && adopted.gameId !== gameId)) {
          throw new JournalError(`${where}: no pending reported result ${opts.reportId} for this game`, 'report');
        }
        if (game.confirmedBy !== null && reason === null) {
          throw new JournalError(
            `${where}: ${game.result} was confirmed by ${game.confirmedBy}: a correction of a confirmed result must say why ("reason")`,
            'reason',
          );
        }
        this.games.writeResultColumns({
          gameId,
          result: adopted.result,
          how: adopted.how ?? 'played',
          reportedBy: adopted.reportedBy,
          utcMs: adopted.utcMs,
          endedUtcMs: (game.result !== null ? endOf(game) : null) ?? adopted.utcMs,
        });
        this.reads.clear();
        this.resolveReport.run({ id: adopted.id, status: 'adopted', gameId, by: arbiter, utcMs });
      } else if (game.result === null) {
        throw new JournalError(`${where}: the game has no result to confirm`, 'result');
      }
      const dismissed = this.reportsOf(gameId, 'pending');
      this.reads.clear();
      for (const r of dismissed) this.resolveReport.run({ id: r.id, status: 'dismissed', gameId, by: arbiter, utcMs });
      this.games.writeConfirmationColumns(gameId, arbiter, utcMs);
      const confirmed = this.games.getGame(gameId)!;
      const report = (r: ResultReportRow) => ({ id: r.id, result: r.result, reportedBy: r.reportedBy, utcMs: r.utcMs });
      this.actions.insert({
        utcMs,
        arbiter,
        action: 'confirm-result',
        gameId,
        payload: {
          result: confirmed.result,
          ...(adopted
            ? {
                adopted: report(adopted),
                previous: game.result === null ? null : { result: game.result, how: game.how, reportedBy: game.reportedBy, confirmedBy: game.confirmedBy },
              }
            : {}),
          ...(dismissed.length ? { dismissed: dismissed.map(report) } : {}),
          ...(reason !== null ? { reason } : {}),
        },
        outcome: 'applied',
      });
      this.outbox.write('result-confirmed', confirmed, utcMs);
      return confirmed;
    });
  }

  /**
   * Files a result a clock reported (docs: schema.ts version 2), once per clock event:
   *  - the game has no result: it becomes the game's result (`reportResult`), filed `recorded`;
   *  - the game holds the same result: filed `agreed`, nothing changes;
   *  - the game holds another result, confirmed or not, or the clock had no game (`gameId`
   *    null): filed `pending`, for the arbiter to decide. A clock never overwrites a result.
   * A second filing of the same event (a retransmission after a host crash) is `duplicate`.
   */
  fileClockResult(input: ClockResultInput): ClockResultOutcome {
    return this.conn.transaction((): ClockResultOutcome => {
      const where = `clock result of event ${input.eventId}`;
      const filed = this.reportByEvent.get(int(input.eventId, 'eventId', where, 1)) as Row | undefined;
      if (filed) {
        const report = toReport(filed);
        return { outcome: 'duplicate', report, game: report.gameId === null ? null : this.games.getGame(report.gameId) };
      }
      if (!RESULT_SET.has(input.result)) {
        throw new JournalError(`${where}: "result" must be one of ${GAME_RESULTS.join(' ')}, got ${JSON.stringify(input.result)}`, 'result');
      }
      const reportedBy = input.source === 'arbiter' ? `arbiter:${text(input.arbiter, 'arbiter', where)}` : 'clock';
      const game = input.gameId === null ? null : this.games.getGame(input.gameId);
      if (input.gameId !== null && !game) throw new JournalError(`${where}: no game ${input.gameId}`, 'gameId');
      let status: ResultReportStatus;
      if (game === null) status = 'pending';
      else if (game.result === null) {
        this.reportResult(game.gameId, {
          result: input.result,
          how: input.how,
          source: input.source,
          arbiter: input.arbiter,
          bothPlayersConfirmed: input.bothPlayersConfirmed,
          utcMs: input.utcMs,
          endedUtcMs: input.endedUtcMs,
        });
        status = 'recorded';
      } else status = game.result === input.result ? 'agreed' : 'pending';
      this.reads.clear();
      const info = this.insertReport.run({
        eventId: input.eventId,
        clockId: text(input.clockId, 'clockId', where),
        gameId: game?.gameId ?? null,
        result: input.result,
        how: input.how,
        reportedBy,
        utcMs: int(input.utcMs, 'utcMs', where),
        status,
      });
      const report = toReport(this.reportById.get(Number(info.lastInsertRowid)) as Row);
      const after = game === null ? null : this.games.getGame(game.gameId)!;
      if (status === 'pending') this.outbox.write('result-report', { report, game: after }, input.utcMs);
      return { outcome: status, report, game: after };
    });
  }

  private reportsOf(gameId: number, status?: ResultReportStatus): ResultReportRow[] {
    const all = this.reads.read(`reports ${gameId}`, () => (this.reportsOfGame.all(gameId) as Row[]).map(toReport));
    return all.filter((r) => status === undefined || r.status === status);
  }

  /**
   * Results clocks reported: of one game (every filing, oldest first), or every pending one
   * (conflicts with a game's result, and reports of clocks that had no game: `gameId` null).
   */
  resultReports(query: { gameId: number } | { pending: true }): ResultReportRow[] {
    if ('gameId' in query) return this.reportsOf(query.gameId);
    return (this.pendingReports.all() as Row[]).map(toReport);
  }
}

// The `games` table: each game of a board (its players, control, clock) and the result it
// holds, and what the boards show (each board's newest game with its last event). Who may set
// or confirm a result, and how a clock's report is filed, is results.ts; this module only
// writes the columns it is told to. Reads are cached until a write to the table (read-cache.ts).
import { formatTimeControl, type TimeControl } from '../../protocol/time-control.ts';
import type { ClockEvents } from './clock-events.ts';
import type { JournalConnection } from './connection.ts';
import { int, JournalError, optInt, text, type Row } from './fields.ts';
import type { ReadCache } from './read-cache.ts';
import type { BoardState, GameRow, NewGame } from './types.ts';
import type { GameResult } from '../../rules/vocabulary.ts';

export function toGame(r: Row): GameRow {
  return {
    gameId: r.game_id as number,
    event: r.event as string,
    round: r.round as number,
    board: r.board as number,
    gameNo: r.game_no as number,
    matchId: (r.match_id as string | null) ?? null,
    kind: r.kind as GameRow['kind'],
    white: r.white as string,
    black: r.black as string,
    whiteRank: (r.white_rank as number | null) ?? null,
    blackRank: (r.black_rank as number | null) ?? null,
    whiteTeam: (r.white_team as string | null) ?? null,
    blackTeam: (r.black_team as string | null) ?? null,
    timeControl: r.time_control as string,
    timeControlValue: JSON.parse(r.time_control_json as string) as TimeControl,
    clockId: (r.clock_id as string | null) ?? null,
    earliestStartUtcMs: (r.earliest_start_utc_ms as number | null) ?? null,
    endedUtcMs: (r.ended_utc_ms as number | null) ?? null,
    result: (r.result as GameResult | null) ?? null,
    how: (r.how as string | null) ?? null,
    reportedBy: (r.reported_by as string | null) ?? null,
    reportedUtcMs: (r.reported_utc_ms as number | null) ?? null,
    confirmedBy: (r.confirmed_by as string | null) ?? null,
    confirmedUtcMs: (r.confirmed_utc_ms as number | null) ?? null,
    createdUtcMs: r.created_utc_ms as number,
  };
}

/** When a game with a result ended: the end recorded with it, else when the result came. */
export function endOf(game: GameRow): number | null {
  return game.endedUtcMs ?? game.reportedUtcMs;
}

/** A result as the games table stores it (results.ts decides whether it may). */
export interface ResultColumns {
  readonly gameId: number;
  readonly result: GameResult;
  readonly how: string;
  readonly reportedBy: string;
  readonly utcMs: number;
  readonly endedUtcMs: number;
}

export class Games {
  private readonly insertGame;
  private readonly gameById;
  private readonly currentGameOfClock;
  private readonly newestGamesOf;
  private readonly playedGameOf;
  private readonly assignClockTo;
  private readonly reconfigure;
  private readonly writeResult;
  private readonly writeConfirmation;
  private readonly gamesOfRound;
  private readonly gamesOfEvent;
  private readonly gamesOfBoard;
  private readonly gamesOfMatch;
  private readonly currentGames;
  private readonly currentGameOfBoardStmt;

  constructor(
    conn: JournalConnection,
    private readonly reads: ReadCache,
    private readonly events: ClockEvents,
    /** Whether a batch still being written holds a start or move of the game (the writer thread's). */
    private readonly playInFlight: (gameId: number) => boolean,
  ) {
    this.insertGame = conn.prepare(`
      INSERT INTO games (event, round, board, game_no, match_id, kind, white, black, white_rank, black_rank,
        white_team, black_team, time_control, time_control_json, clock_id, earliest_start_utc_ms, created_utc_ms)
      VALUES (@event, @round, @board, @gameNo, @matchId, @kind, @white, @black, @whiteRank, @blackRank,
        @whiteTeam, @blackTeam, @timeControl, @timeControlJson, @clockId, @earliestStartUtcMs, @createdUtcMs)`);
    this.gameById = conn.prepare('SELECT * FROM games WHERE game_id = ?');
    this.currentGameOfClock = conn.prepare('SELECT * FROM games WHERE clock_id = ? AND result IS NULL ORDER BY game_id DESC LIMIT 1');
    // The clock's two newest games, with a result or not (games_by_clock index).
    this.newestGamesOf = conn.prepare('SELECT * FROM games WHERE clock_id = ? ORDER BY game_id DESC LIMIT 2');
    this.playedGameOf = conn.prepare(`
      SELECT g.* FROM games g WHERE g.clock_id = ? AND (g.result IS NOT NULL
        OR EXISTS (SELECT 1 FROM clock_events e WHERE e.game_id = g.game_id AND e.type = 'started'))
      ORDER BY g.game_id DESC LIMIT 1`);
    this.assignClockTo = conn.prepare('UPDATE games SET clock_id = ? WHERE game_id = ?');
    this.reconfigure = conn.prepare(`
      UPDATE games SET time_control = @timeControl, time_control_json = @timeControlJson,
        white = COALESCE(@white, white), black = COALESCE(@black, black) WHERE game_id = @gameId`);
    this.writeResult = conn.prepare(`
      UPDATE games SET result = @result, how = @how, reported_by = @reportedBy, reported_utc_ms = @utcMs,
        ended_utc_ms = @endedUtcMs, confirmed_by = NULL, confirmed_utc_ms = NULL
      WHERE game_id = @gameId`);
    this.writeConfirmation = conn.prepare('UPDATE games SET confirmed_by = ?, confirmed_utc_ms = ? WHERE game_id = ?');
    this.gamesOfRound = conn.prepare('SELECT * FROM games WHERE event = ? AND round = ? ORDER BY board, game_no');
    this.gamesOfEvent = conn.prepare('SELECT * FROM games WHERE event = ? ORDER BY round, board, game_no');
    this.gamesOfBoard = conn.prepare('SELECT * FROM games WHERE event = ? AND round = ? AND board = ? ORDER BY game_no');
    this.gamesOfMatch = conn.prepare('SELECT * FROM games WHERE match_id = ? ORDER BY game_no');
    this.currentGames = conn.prepare(`
      SELECT g.* FROM games g
      WHERE NOT EXISTS (SELECT 1 FROM games h WHERE h.event = g.event AND h.board = g.board
        AND (h.round > g.round OR (h.round = g.round AND h.game_no > g.game_no)))
        AND (@event IS NULL OR g.event = @event)
      ORDER BY g.event, g.board`);
    this.currentGameOfBoardStmt = conn.prepare('SELECT * FROM games WHERE event = ? AND board = ? ORDER BY round DESC, game_no DESC LIMIT 1');
  }

  createGame(g: NewGame): GameRow {
    const where = `game ${g.event} round ${g.round} board ${g.board}`;
    const row = {
      event: text(g.event, 'event', where),
      round: int(g.round, 'round', where, 1),
      board: int(g.board, 'board', where, 1),
      gameNo: int(g.gameNo ?? 1, 'gameNo', where, 1),
      matchId: g.matchId ?? null,
      kind: text(g.kind, 'kind', where),
      white: text(g.white, 'white', where),
      black: text(g.black, 'black', where),
      whiteRank: optInt(g.whiteRank, 'whiteRank', where),
      blackRank: optInt(g.blackRank, 'blackRank', where),
      whiteTeam: g.whiteTeam ?? null,
      blackTeam: g.blackTeam ?? null,
      timeControl: formatTimeControl(g.timeControl),
      timeControlJson: JSON.stringify(g.timeControl),
      clockId: g.clockId ?? null,
      earliestStartUtcMs: optInt(g.earliestStartUtcMs, 'earliestStartUtcMs', where),
      createdUtcMs: int(g.createdUtcMs, 'createdUtcMs', where),
    };
    try {
      this.reads.clear();
      const info = this.insertGame.run(row);
      return this.getGame(Number(info.lastInsertRowid))!;
    } catch (err) {
      if (err instanceof Error && /UNIQUE/.test(err.message)) {
        throw new JournalError(`${where} game ${row.gameNo} already exists`, 'gameNo');
      }
      throw err;
    }
  }

  getGame(gameId: number): GameRow | null {
    return this.reads.read(`game ${gameId}`, () => {
      const r = this.gameById.get(gameId) as Row | undefined;
      return r ? toGame(r) : null;
    });
  }

  /** The clock's two newest games, with a result or not (newest first). */
  newestGamesOfClock(clockId: string): GameRow[] {
    return this.reads.read(`newest games of ${clockId}`, () => (this.newestGamesOf.all(clockId) as Row[]).map(toGame));
  }

  /** The clock's game without a result yet (the one its events belong to). */
  currentGameForClock(clockId: string): GameRow | null {
    return this.reads.read(`current game of ${clockId}`, () => {
      const r = this.currentGameOfClock.get(clockId) as Row | undefined;
      return r ? toGame(r) : null;
    });
  }

  /**
   * The game a clock last played: its newest game that has a result or was started. A result
   * the clock sends comes from that game (it refuses one before the start), even when a next
   * game is already assigned to the clock.
   */
  playedGameOfClock(clockId: string): GameRow | null {
    const r = this.playedGameOf.get(clockId) as Row | undefined;
    return r ? toGame(r) : null;
  }

  /** Whether the game's clock has been started (a started or moved event is journaled). */
  gameStarted(gameId: number): boolean {
    // A start or move still being written counts: what is refused because of it stays refusable.
    if (this.playInFlight(gameId)) return true;
    return this.events.hasPlay(gameId);
  }

  /**
   * The arbiter set the game up anew before it began (another time control, a player
   * replaced). Refused once the game has a result or its clock has started: the record of
   * a game in progress never changes under it.
   */
  reconfigureGame(gameId: number, setup: { timeControl: TimeControl; white?: string | null; black?: string | null }): GameRow {
    const game = this.getGame(gameId);
    if (!game) throw new JournalError(`no game ${gameId}`, 'gameId');
    const where = `game ${game.event} round ${game.round} board ${game.board}`;
    if (game.result !== null) throw new JournalError(`${where} already has a result`, 'gameId');
    if (this.gameStarted(gameId)) throw new JournalError(`${where} has started: it cannot be set up anew`, 'gameId');
    this.reads.clear();
    this.reconfigure.run({
      gameId,
      timeControl: formatTimeControl(setup.timeControl),
      timeControlJson: JSON.stringify(setup.timeControl),
      white: setup.white == null ? null : text(setup.white, 'white', where),
      black: setup.black == null ? null : text(setup.black, 'black', where),
    });
    return this.getGame(gameId)!;
  }

  assignClock(gameId: number, clockId: string | null): void {
    this.reads.clear();
    const info = this.assignClockTo.run(clockId, gameId);
    if (info.changes === 0) throw new JournalError(`no game ${gameId}`, 'gameId');
  }

  /** Stores a game's result, clearing its confirmation (inside the caller's transaction: results.ts). */
  writeResultColumns(columns: ResultColumns): void {
    this.reads.clear();
    this.writeResult.run(columns);
  }

  /** Stores who confirmed the game's result and when (inside the caller's transaction: results.ts). */
  writeConfirmationColumns(gameId: number, arbiter: string, utcMs: number): void {
    this.reads.clear();
    this.writeConfirmation.run(arbiter, utcMs, gameId);
  }

  gamesByRound(event: string, round: number): GameRow[] {
    return (this.gamesOfRound.all(event, round) as Row[]).map(toGame);
  }

  gamesByEvent(event: string): GameRow[] {
    return (this.gamesOfEvent.all(event) as Row[]).map(toGame);
  }

  gamesByBoard(event: string, round: number, board: number): GameRow[] {
    return (this.gamesOfBoard.all(event, round, board) as Row[]).map(toGame);
  }

  gamesByMatch(matchId: string): GameRow[] {
    return (this.gamesOfMatch.all(matchId) as Row[]).map(toGame);
  }

  /** Games with a result; `confirmedOnly` keeps those an arbiter confirmed (the ones exports may use). */
  results(event: string, opts: { round?: number; confirmedOnly?: boolean } = {}): GameRow[] {
    const games = opts.round === undefined ? this.gamesByEvent(event) : this.gamesByRound(event, opts.round);
    return games.filter((g) => g.result !== null && (!opts.confirmedOnly || g.confirmedBy !== null));
  }

  /** The latest state of every board (its newest game and last event), optionally for one event. */
  boardStates(event?: string): BoardState[] {
    return (this.currentGames.all({ event: event ?? null }) as Row[]).map((r) => {
      const game = toGame(r);
      const last = this.events.lastOfGame(game.gameId);
      return { event: game.event, round: game.round, board: game.board, game, last };
    });
  }

  /** The newest game of one board of an event (what `boardStates` gives it, without the others). */
  currentGameOfBoard(event: string, board: number): GameRow | null {
    const r = this.currentGameOfBoardStmt.get(event, board) as Row | undefined;
    return r ? toGame(r) : null;
  }
}

// Bringing a clock to the journal's game (docs/protocol.md "Restore: Held and Restore"): the journal
// is the truth. A clock that connects to a board whose game is under way — a new clock, the
// same clock after a reboot or a power cut, a spare swapped in (FIDE Laws 6.10.1), or any
// clock after the host restarted — is
//
//   1. held: Command HOLD stops it (a running clock pauses and reports it) and it answers
//      with what it holds (Held). Its outbox is delivered in order first, so every event it
//      still had is journaled before the Held arrives;
//   2. compared: the host rebuilds the game from the journal through the one statechart
//      (rules/rebuild.ts) and compares the clock's own state with it;
//   3. restored: unless the clock already holds exactly the journal's game, stopped, the
//      host configures it for the game if it holds another, and sends the journal's state
//      (Restore). The clock loads it stopped and reports RESTORED, which is journaled.
//
// The arbiter resumes (Laws 6.11 / 6.10.1: the arbiter sets a replaced clock and restarts it).
// What differed is logged and journaled with the restore, for the board's card. A clock older
// than protocol 1.4 would skip what a game's corrections put in the snapshot (a corrected
// control, the quickplay delay) and play on under the configured control: such a game is not
// restored to it; the card and the log say why, and the arbiter sets the clock by hand.
import type { Held } from '../../protocol/gen/chessclock_pb.ts';
import { fittingSnapshotBody } from '../../protocol/frame-encoder.ts';
import { formatTimeControl, type TimeControl } from '../../protocol/time-control.ts';
import { snapshotDifferences, type ClockSnapshot } from '../../rules/clock-snapshot.ts';
import { snapshotFromWire, snapshotToWire } from '../../rules/clock-snapshot-wire.ts';
import { rebuildGame, restoreSnapshot, type RebuiltGame } from '../../rules/rebuild.ts';
import type { BodyInit } from '../../protocol/session-api.ts';
import type { GameRow, Journal } from '../store/journal.ts';
import type { ClockSession } from './clock-session.ts';

/** The protocol minor that can hold and restore (docs/protocol.md "Versions"). */
export const RESTORE_MINOR = 2;

/** The protocol minor whose clocks load a snapshot's corrections: a corrected control, the quickplay delay (docs/protocol.md "Versions"). */
export const CORRECTIONS_MINOR = 4;

/**
 * What of the journal's snapshot a clock before protocol 1.4 would not load (it skips the fields
 * it does not know) and so play on without, in the arbiter's words; empty: nothing.
 * `configured`: the control the game was configured with (what such a clock would run).
 */
export function lostBeforeCorrections(snap: ClockSnapshot, configured: TimeControl): string[] {
  const lost: string[] = [];
  // FIDE Laws 6.10.2: the clock would run the control it was configured with, the wrong one.
  if (snap.control !== null) lost.push(`the corrected time control ${formatTimeControl(snap.control)} (it would run ${formatTimeControl(configured)})`);
  // FIDE Guidelines III.4: the quickplay delay for turns to come, and the one a turn began with.
  if (snap.extraDelayMs > 0) lost.push(`the quickplay delay of ${snap.extraDelayMs / 1000} s`);
  if (snap.turnExtraDelayMs > 0 || snap.undo.some((u) => u.turnExtraDelayMs > 0)) lost.push('the quickplay delay a turn began with');
  return lost;
}

/** The journal's action name of a restore, and what the board's card shows of the last one. */
export const RESTORE_ACTION = 'restore-clock';

export interface RestoreNote {
  readonly utcMs: number;
  readonly clockId: string;
  /**
   * 'restored': the journal's state was sent; 'in-step': the clock already held it; 'refused' /
   * 'failed': it did not take it (refused also: a clock too old for the game's corrections).
   */
  readonly outcome: 'restored' | 'in-step' | 'refused' | 'failed';
  /** What the clock held that the journal does not say, in the arbiter's words (empty: nothing). */
  readonly differences: readonly string[];
  /** Journal events the statechart does not reproduce (a journal that is not the clock's own story). */
  readonly mismatches: readonly string[];
  readonly reason?: string;
}

/** The game rebuilt from the journal, and the state a clock is restored with. */
export function journalGameState(journal: Journal, game: GameRow): { rebuilt: RebuiltGame; snapshot: ClockSnapshot } {
  const rebuilt = rebuildGame(game.timeControlValue, journal.eventsByGame(game.gameId));
  return { rebuilt, snapshot: restoreSnapshot(rebuilt) };
}

export interface RestoreDeps {
  readonly journal: Journal;
  readonly nowUtcMs: () => number;
  /** Configures the clock for `game` (journaled as the host's configure-clock). */
  readonly configure: (s: ClockSession, game: GameRow) => Promise<void>;
  readonly actor: string;
  readonly log: (line: string) => void;
}

/**
 * Holds the clock of session `s`, compares it with the journal's game `game` and restores
 * it to it. Journals what was done (action `restore-clock`) and returns it; throws only
 * what the session throws (offline, refused HOLD).
 */
export async function bringClockToJournal(s: ClockSession, game: GameRow, deps: RestoreDeps): Promise<RestoreNote> {
  const clockId = s.clockId!;
  const held: Held = await s.hold();
  const { rebuilt, snapshot } = journalGameState(deps.journal, game);
  const mismatches = rebuilt.mismatches.map((m) => `event ${m.index + 1} (${m.type}): ${m.reason}`);
  const gameId = String(game.gameId);
  const sameGame = held.gameId === gameId;
  let differences: string[];
  if (!sameGame) {
    differences = [`the clock held ${held.gameId ? `game ${held.gameId}` : 'no game from this host'}, not game ${gameId}`];
  } else {
    try {
      differences = snapshotDifferences(game.timeControlValue, snapshotFromWire(held.snapshot!, 'held.snapshot'), snapshot);
    } catch (err) {
      differences = [`the clock's own state could not be read: ${(err as Error).message}`];
    }
  }
  const where = { gameId: game.gameId, clockId, event: game.event, round: game.round, board: game.board };
  const record = (note: RestoreNote) => {
    deps.journal.recordArbiterAction({
      utcMs: note.utcMs,
      arbiter: deps.actor,
      action: RESTORE_ACTION,
      ...where,
      payload: { outcome: note.outcome, differences: note.differences, mismatches: note.mismatches, clockGame: held.gameId || null, snapshot },
      outcome: note.outcome === 'refused' || note.outcome === 'failed' ? 'rejected' : 'applied',
      reason: note.reason ?? null,
    });
    const what =
      note.outcome === 'in-step'
        ? "holds the journal's game"
        : note.outcome === 'restored'
          ? "restored to the journal's game"
          : `not restored (${note.reason})`;
    deps.log(
      `clock ${clockId}: ${what} ${game.event} round ${game.round} board ${game.board} game ${game.gameNo}, stopped` +
        (note.differences.length ? `; the clock differed: ${note.differences.join('; ')}` : '') +
        (note.mismatches.length ? `; journal events the statechart does not reproduce: ${note.mismatches.join('; ')}` : ''),
    );
    return note;
  };
  // The clock holds exactly the journal's game and the journal already says it stands stopped: nothing to send.
  if (sameGame && differences.length === 0 && rebuilt.state.status !== 'running') {
    return record({ utcMs: deps.nowUtcMs(), clockId, outcome: 'in-step', differences, mismatches });
  }
  // A clock before 1.4 would drop the game's corrections and play on without them: it is left
  // held (paused) as it is, for the arbiter to set by hand (FIDE Laws 6.10.1).
  const minor = s.hello?.protocolMinor ?? 0;
  const lost = minor < CORRECTIONS_MINOR ? lostBeforeCorrections(snapshot, game.timeControlValue) : [];
  if (lost.length > 0) {
    const reason = `its firmware speaks protocol 1.${minor}, which cannot hold ${lost.join(' and ')}: restoring this game needs 1.${CORRECTIONS_MINOR} (update the clock firmware, or set the clock by hand)`;
    return record({ utcMs: deps.nowUtcMs(), clockId, outcome: 'refused', differences, mismatches, reason });
  }
  try {
    if (!sameGame) await deps.configure(s, game);
    // One frame: with a corrected control of many stages, the oldest presses are left out (fewer moves can be taken back).
    const wire = snapshotToWire(snapshot);
    const body = fittingSnapshotBody(wire.undo.length, (n) => ({
      case: 'restore' as const,
      value: { gameId, snapshot: { ...wire, undo: wire.undo.slice(0, n) } },
    }));
    if (body === null)
      throw new Error(
        `the journal's state of game ${gameId} does not fit one frame even without its presses (a corrected control of too many stages): set the clock by hand`,
      );
    if (body.value.snapshot.undo.length < wire.undo.length)
      deps.log(
        `clock ${clockId}: game ${gameId} restored with its last ${body.value.snapshot.undo.length} of ${wire.undo.length} presses (one frame): older moves cannot be taken back on it`,
      );
    await s.request(body as BodyInit);
  } catch (err) {
    const refused = (err as Error).name === 'ClockRefusedError';
    record({ utcMs: deps.nowUtcMs(), clockId, outcome: refused ? 'refused' : 'failed', differences, mismatches, reason: (err as Error).message });
    throw err;
  }
  return record({ utcMs: deps.nowUtcMs(), clockId, outcome: 'restored', differences, mismatches });
}

/** The note of the last restore of a game, from the journal (null: none). */
export function lastRestoreNote(journal: Journal, gameId: number): RestoreNote | null {
  const actions = journal.arbiterActions(gameId).filter((a) => a.action === RESTORE_ACTION);
  const a = actions.at(-1);
  if (!a) return null;
  const p = (a.payload ?? {}) as { outcome?: RestoreNote['outcome']; differences?: string[]; mismatches?: string[] };
  return {
    utcMs: a.utcMs,
    clockId: a.clockId ?? '',
    outcome: p.outcome ?? (a.outcome === 'applied' ? 'restored' : 'failed'),
    differences: p.differences ?? [],
    mismatches: p.mismatches ?? [],
    ...(a.reason ? { reason: a.reason } : {}),
  };
}

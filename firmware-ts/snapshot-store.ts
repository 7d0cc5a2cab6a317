// The clock state on disk, written at every press so a power cut loses nothing that
// was shown: after the restart the clock resumes, paused, exactly there (docs/firmware.md "Power cut and restart").
//
// The write is atomic: the new state goes to a temporary file, is flushed to the disk
// (fsync), then renamed over the old one (rename is atomic on POSIX file systems), so a
// cut in the middle leaves either the old snapshot or the new one, never half of one.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { completeClockState, type ClockState } from '../rules/clock-state.ts';

/** What is saved: the clock state and the host's game it plays (null: none configured by a host). */
export interface SavedClock {
  readonly state: ClockState;
  readonly gameId: string | null;
}

export interface SnapshotStore {
  save(state: ClockState, gameId?: string | null): void;
  /** The last saved state, or null if none was saved. Throws naming the file if it is unreadable. */
  load(): ClockState | null;
  /** The host's game id saved with the last state (null if none). */
  loadGameId(): string | null;
}

export function fileSnapshotStore(dir: string, name = 'clock-state.json'): SnapshotStore {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const tmp = `${path}.tmp`;
  return {
    save(state, gameId = null) {
      const fd = openSync(tmp, 'w');
      try {
        // The game id rides beside the state's own fields (older files simply lack it).
        writeSync(fd, JSON.stringify(gameId === null ? state : { ...state, gameId }));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    },
    load() {
      const saved = read();
      if (saved === null) return null;
      const { gameId: _gameId, ...state } = saved as ClockState & { gameId?: unknown };
      return state as ClockState;
    },
    loadGameId() {
      const saved = read() as { gameId?: unknown } | null;
      return typeof saved?.gameId === 'string' ? saved.gameId : null;
    },
  };
  function read(): ClockState | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`${path}: not a clock snapshot (${(err as Error).message})`);
    }
    const v = value as Partial<ClockState>;
    if (typeof v !== 'object' || v === null || typeof v.status !== 'string' || typeof v.lastAt !== 'number' || !v.timeControl || !v.white || !v.black) {
      throw new Error(`${path}: not a clock snapshot (missing status, lastAt, timeControl or sides)`);
    }
    // A file an older firmware wrote lacks the newer fields: the game goes on as it stood.
    return completeClockState(value as ClockState);
  }
}

/**
 * Keeps the snapshot in memory (tests, the fleet): survives a simulated power cut, not a real
 * one. The clock state is immutable (every step makes a new value), so the store keeps the
 * value itself: no copy per press, however long the game's take-back history grows.
 */
export function memorySnapshotStore(): SnapshotStore & { saves: number } {
  let saved: ClockState | null = null;
  let game: string | null = null;
  return {
    saves: 0,
    save(state, gameId = null) {
      saved = state;
      game = gameId;
      this.saves++;
    },
    load: () => saved,
    loadGameId: () => game,
  };
}

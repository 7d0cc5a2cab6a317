// The clock state on disk, written at every press so a power cut loses nothing that
// was shown: after the restart the clock resumes, paused, exactly there (issue 4).
//
// The write is atomic: the new state goes to a temporary file, is flushed to the disk
// (fsync), then renamed over the old one (rename is atomic on POSIX file systems), so a
// cut in the middle leaves either the old snapshot or the new one, never half of one.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ClockState } from '../rules/clock-core.ts';

export interface SnapshotStore {
  save(state: ClockState): void;
  /** The last saved state, or null if none was saved. Throws naming the file if it is unreadable. */
  load(): ClockState | null;
}

export function fileSnapshotStore(dir: string, name = 'clock-state.json'): SnapshotStore {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const tmp = `${path}.tmp`;
  return {
    save(state) {
      const fd = openSync(tmp, 'w');
      try {
        writeSync(fd, JSON.stringify(state));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    },
    load() {
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
      return value as ClockState;
    },
  };
}

/**
 * Keeps the snapshot in memory (tests, the fleet): survives a simulated power cut, not a real
 * one. The clock state is immutable (every step makes a new value), so the store keeps the
 * value itself: no copy per press, however long the game's take-back history grows.
 */
export function memorySnapshotStore(): SnapshotStore & { saves: number } {
  let saved: ClockState | null = null;
  return {
    saves: 0,
    save(state) {
      saved = state;
      this.saves++;
    },
    load: () => saved,
  };
}

// A small real disk for the disk-full tests (docs/reliability.md, "Disk full"): a tmpfs mounted
// by the test (that needs root, as CI has), filled with a file until the kernel answers ENOSPC,
// so every SQLite write that needs a new block meets a real SQLITE_FULL; deleting the file gives
// space back.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const isRoot = process.getuid?.() === 0;

/** A small real disk: a tmpfs of `sizeMiB`, unmounted by the returned function. */
export function smallDisk(sizeMiB: number): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir]);
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the disk with a file until the kernel says ENOSPC; returns the file to delete for space. */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (let size = 256 * 1024; size >= 512; ) {
      try {
        writeSync(fd, Buffer.alloc(size));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

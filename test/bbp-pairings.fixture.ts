// bbpPairings (the FIDE-endorsed Dutch/Burstein pairing engine, Apache-2.0) for the tests that run
// a real pairing program on our TRFs. It is never committed: the tests build it with `make` from its
// source tarball into a cache outside the repository, once per tarball.
//
// Where it comes from, first found wins:
//   1. CHESSCLOCK_BBPPAIRINGS: a built `bbpPairings.exe`;
//   2. CHESSCLOCK_BBPPAIRINGS_SRC, else `shared/tools/bbpPairings-src.tgz` in the folder beside the
//      clone (where CI keeps it): built into $XDG_CACHE_HOME (or ~/.cache)/chessclock/;
//   3. `bbpPairings.exe` on the PATH.
// With none of them the tests that need it skip and say why; under CI that is an error.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export type BbpPairings = { exe: string; skip?: undefined } | { exe?: undefined; skip: string };

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Builds the tarball's engine into the cache (once per tarball content) and returns the executable. */
function buildFrom(tarball: string): string {
  const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16);
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chessclock');
  const done = join(cache, `bbpPairings-${digest}`);
  const exe = join(done, 'bbpPairings.exe');
  if (existsSync(exe)) return exe;
  mkdirSync(cache, { recursive: true });
  // Built in a scratch folder and renamed into place, so two test workers building at once never
  // see half an engine: the second rename fails and that worker uses the first one's build.
  const scratch = mkdtempSync(join(cache, 'bbpPairings-build-'));
  try {
    execFileSync('tar', ['xzf', tarball, '-C', scratch], { stdio: 'pipe' });
    const src = join(scratch, 'bbpPairings');
    execFileSync('make', ['-j2'], { cwd: src, stdio: 'pipe', timeout: 600_000 });
    try {
      renameSync(src, done);
    } catch (err) {
      if (!existsSync(exe)) throw err;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return exe;
}

let found: BbpPairings | undefined;

/** The engine, built if need be (allow a few minutes the first time), or why there is none. */
export function bbpPairings(): BbpPairings {
  if (found) return found;
  const given = process.env.CHESSCLOCK_BBPPAIRINGS;
  const tarball = process.env.CHESSCLOCK_BBPPAIRINGS_SRC || join(ROOT, '..', 'shared', 'tools', 'bbpPairings-src.tgz');
  if (given) found = { exe: given };
  else if (existsSync(tarball)) found = { exe: buildFrom(tarball) };
  else {
    const exe = onPath('bbpPairings.exe');
    found = exe
      ? { exe }
      : {
          skip: `bbpPairings not available: no CHESSCLOCK_BBPPAIRINGS, no source tarball at ${tarball} (CHESSCLOCK_BBPPAIRINGS_SRC), no bbpPairings.exe on the PATH`,
        };
  }
  if (found.skip && process.env.CI) throw new Error(`under CI the pairing-engine tests must run: ${found.skip}`);
  return found;
}

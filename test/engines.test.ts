// The Node.js versions the project supports (package.json `engines`, README "Set up",
// docs/runtime.md) are versions every installed package supports too: for each package in
// package-lock.json that declares `engines.node`, the project's range must lie inside it, or
// `npm ci` on a supported Node prints EBADENGINE (npm checks each package's range against the
// running Node, docs/runtime.md "Keeping the ranges honest"). A dependency update that drops a
// supported Node fails here, naming the package, on whichever Node the suite runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

const pkg = readJson('package.json') as { engines: { node: string } };
const lock = readJson('package-lock.json') as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
};
const supported = pkg.engines.node;

describe(`Node.js ${supported} (package.json engines)`, () => {
  it('is a valid range, and the README says the same', () => {
    expect(semver.validRange(supported)).not.toBeNull();
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\`${supported}\``);
  });

  it('lies inside every installed package’s engines.node: npm ci prints no EBADENGINE on it', () => {
    const narrower: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // npm reads only the object form; the old array form (`["node >= 6"]`) is not checked.
      const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
      if (path === '' || range === undefined) continue;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (semver.validRange(range) === null || !semver.subset(supported, range)) {
        narrower.push(`${name}@${entry.version} wants node ${JSON.stringify(range)}`);
      }
    }
    expect(narrower, `packages that do not support all of ${supported}; pin an older version or override it (docs/runtime.md)`).toEqual([]);
  });

  it('includes the Node running this suite (CI and scripts/test-node.sh run only supported ones)', () => {
    expect(semver.satisfies(process.versions.node, supported), `Node ${process.versions.node}`).toBe(true);
  });
});

// The generated code in protocol/gen/ is committed (no build step); it must be what
// `npm run gen:proto` makes from chessclock.proto today, or the schema and the code disagree.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const committed = join(root, 'protocol', 'gen');
const fresh = mkdtempSync(join(tmpdir(), 'chessclock-gen-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('protocol/gen is generated from chessclock.proto', () => {
  it('regenerating with buf + protoc-gen-es gives the committed files byte for byte', () => {
    execFileSync(join(root, 'scripts', 'gen-proto.sh'), [join(fresh, 'gen')], { cwd: root, stdio: 'pipe' });
    const files = readdirSync(join(fresh, 'gen')).sort();
    expect(files).toEqual(readdirSync(committed).sort());
    for (const file of files) {
      const want = readFileSync(join(fresh, 'gen', file), 'utf8');
      const have = readFileSync(join(committed, file), 'utf8');
      // On failure: run `npm run gen:proto` and commit protocol/gen.
      expect(have, `protocol/gen/${file} is stale: run npm run gen:proto`).toBe(want);
    }
  });
});

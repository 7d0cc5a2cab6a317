// The compiled parts of the dependency tree load on the Node running the suite
// (docs/runtime.md): an addon built for another Node's ABI, or one whose build failed and was
// dropped by npm, fails here by name instead of at a tournament. Each is the copy the product
// code reaches: the journal's better-sqlite3, the host's serial binding (@serialport/bindings-cpp),
// the serialport 8 that Johnny-Five and firmata open a real board with (`chessclock clock
// --board`), and the serialport 9 of avrgirl-arduino (`chessclock flash`). The last two are
// built by node-gyp on install against the running Node's headers.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** `require` as seen from inside a package, so that its own nested copy is the one loaded. */
const requireFrom = (...packagePath: string[]) => createRequire(join(ROOT, 'node_modules', ...packagePath, 'package.json'));
const rootRequire = createRequire(join(ROOT, 'package.json'));

describe(`native addons on Node ${process.versions.node} (ABI ${process.versions.modules})`, () => {
  it('better-sqlite3 opens a database and runs a query (the journal)', () => {
    const Database = rootRequire('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(':memory:');
    try {
      expect(db.prepare('select 6 * 7 as answer').get()).toEqual({ answer: 42 });
    } finally {
      db.close();
    }
  });

  it('@serialport/bindings-cpp loads its binding (the host’s clock lines)', async () => {
    const { autoDetect } = (await import('@serialport/bindings-cpp')) as typeof import('@serialport/bindings-cpp');
    expect(typeof autoDetect().open).toBe('function');
  });

  it('firmata’s serialport 8 loads its compiled binding (Johnny-Five on a real board)', () => {
    const serialport = requireFrom('firmata')('serialport') as { Binding?: { name?: string } };
    expect(requireFrom('firmata')('serialport/package.json').version).toMatch(/^8\./);
    expect(typeof serialport.Binding).toBe('function');
  });

  it('avrgirl-arduino’s serialport 9 loads its compiled binding (chessclock flash)', () => {
    const serialport = requireFrom('avrgirl-arduino')('serialport') as { Binding?: unknown };
    expect(requireFrom('avrgirl-arduino')('serialport/package.json').version).toMatch(/^9\./);
    expect(typeof serialport.Binding).toBe('function');
  });
});

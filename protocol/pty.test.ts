import { describe, expect, it } from 'vitest';
import { openSync, closeSync, writeSync, readSync } from 'node:fs';
import { openPtyPair, ptySkipReason, SocatMissingError } from './pty.ts';

describe('socat pty pair helper', () => {
  it('when CI is set a missing socat is never a reason to skip (the test must run and fail)', () => {
    expect(ptySkipReason({ CI: 'true' }, '/nonexistent/socat')).toBeNull();
  });

  it('locally, a missing socat skips with a message naming the Debian package', () => {
    expect(ptySkipReason({}, '/nonexistent/socat')).toMatch(/Debian package `socat`/);
  });

  it('opening without socat fails loudly with the package name', async () => {
    await expect(openPtyPair({ socatPath: '/nonexistent/socat' })).rejects.toBeInstanceOf(SocatMissingError);
  });

  it.skipIf(ptySkipReason() !== null)('gives two connected /dev/pts paths and kills socat on close', async () => {
    const pty = await openPtyPair();
    try {
      expect(pty.a).toMatch(/^\/dev\/pts\/\d+$/);
      expect(pty.b).toMatch(/^\/dev\/pts\/\d+$/);
      const a = openSync(pty.a, 'r+');
      const b = openSync(pty.b, 'r+');
      writeSync(a, Buffer.from([0xc0, 0x01, 0xdb, 0x0a]));
      const buf = Buffer.alloc(16);
      let n = 0;
      for (let i = 0; i < 100 && n < 4; i++) {
        try {
          n += readSync(b, buf, n, 16 - n, null);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        }
      }
      expect([...buf.subarray(0, 4)]).toEqual([0xc0, 0x01, 0xdb, 0x0a]); // raw: no tty translation of 0x0a
      closeSync(a);
      closeSync(b);
    } finally {
      await pty.close();
    }
    expect(() => process.kill(pty.pid, 0)).toThrow();
  });
});

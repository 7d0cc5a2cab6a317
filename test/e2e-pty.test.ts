// End to end: the Slovenian final mini-match (see e2e-knockout.test.ts) with every
// clock on a REAL serial line: a socat pty pair, the host opening its end with the
// `serialport` package at 115200 (host/clocks/serial-lines.ts), the clock its own end.
// Needs the Debian package `socat`; skipped locally without it, never under CI.
import { afterEach, describe, it } from 'vitest';
import { openPtyPair, ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { openSerialLine } from '../host/clocks/serial-lines.ts';
import { buildRig, checkMatchRecords, closeRig, playBoard2, playSlovenianMatch, type MatchRig } from './e2e-match.ts';

const skip = ptySkipReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('Host ⇄ simulated clocks over real pty pairs (socat + serialport)', () => {
  let rig: MatchRig | null = null;
  const ptys: PtyPair[] = [];
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    await Promise.all(ptys.splice(0).map((p) => p.close()));
  });

  it('Slovenian final art. 3 over serial ports: classical draws → rapid 1-1 → armageddon draw → Black advances', async () => {
    rig = await buildRig({
      wire: async (r, clock, table) => {
        const pty = await openPtyPair();
        ptys.push(pty);
        await clock.connectPty(pty.b);
        r.host.addLine(pty.a, openSerialLine(pty.a), { table });
      },
    });
    await playBoard2(rig);
    await playSlovenianMatch(rig);
    checkMatchRecords(rig, [40, 40, 30, 30, 24]);
  }, 30_000);
});

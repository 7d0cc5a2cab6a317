// `chessclock clock` as a process: the firmware on the simulated board (no --board),
// linked over a real socat pty pair to a host opened with the real serialport package.
// The host configures the game and starts it; the clock's events come back.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClockEvent_Kind, Command_Kind } from '../protocol/gen/chessclock_pb.ts';
import { openPtyPair, openSerialLink, ptySkipReason, type ReceivedMessage, type SerialLink } from '../protocol/session-api.ts';
import { timeControlToProto } from '../protocol/time-control-codec.ts';
import { presetTimeControl } from '../protocol/time-control.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const bin = join(import.meta.dirname, '..', 'bin', 'chessclock.mjs');

function startClock(args: string[]): { child: ChildProcess; stdout: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [bin, 'clock', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, exited };
}

async function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('chessclock clock (process)', () => {
  it('rejects a bad wiring option naming it', async () => {
    const { exited, stdout } = startClock(['--default-time', 'soon']);
    expect(await exited).toBe(2);
    expect(stdout()).toContain('--default-time must be whole seconds, got "soon"');
  });

  const skip = ptySkipReason();
  it.skipIf(skip !== null)(`configured and started by a host over a pty; SIGTERM stops it cleanly ${skip ?? ''}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-cli-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const pty = await openPtyPair();
    cleanups.push(() => pty.close());
    const clock = startClock(['--link', pty.a, '--serial-id', 'board-7', '--state-dir', join(dir, 'state')]);
    const host: SerialLink = await openSerialLink(pty.b, { role: 'host', autoSync: false });
    cleanups.push(() => host.close());
    const got: ReceivedMessage[] = [];
    host.link.on('message', (m: ReceivedMessage) => got.push(m));
    await host.link.ready;
    expect(host.link.peerHello?.serialId).toBe('board-7');
    await host.link.send({ case: 'configure', value: { gameId: 'r1b7', ...timeControlToProto(presetTimeControl('sudden-death-60')) } });
    await waitFor('configureAck', () => got.find((m) => m.body.case === 'configureAck'));
    await waitFor('the LCD showing 1:00:00', () => clock.stdout().includes('LCD 1:00:00  1:00:00 | #0 P1 REDY #0 P1'));
    await host.link.send({ case: 'command', value: { kind: Command_Kind.START } });
    const started = await waitFor('started', () =>
      got.find((m) => m.body.case === 'clockEvent' && (m.body.value as { kind: number }).kind === ClockEvent_Kind.STARTED),
    );
    expect(started.body.value).toMatchObject({ whiteMs: 3_600_000, blackMs: 3_600_000 });
    clock.child.kill('SIGTERM');
    expect(await clock.exited).toBe(0);
  });
});

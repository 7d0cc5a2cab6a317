// Shutdown is bounded whatever state the broker is in (docs/host.md "Stopping"): `chessclock
// hall` and `chessclock host` publish to an external Mosquitto (Debian package `mosquitto`)
// that is then killed (SIGKILL) or hung (SIGSTOP: the TCP connection stays open, nothing
// answers); SIGINT must stop the command with status 0 well within its 10 s deadline, and the
// broker's password never appears in what the command prints.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mosquitto, freePort, SKIP_MOSQUITTO, SKIP_MOSQUITTO_MESSAGE } from './mosquitto.ts';

const SKIP = SKIP_MOSQUITTO;
if (SKIP) console.warn(SKIP_MOSQUITTO_MESSAGE);
const BIN = 'bin/chessclock.mjs';
const SECRET = 'broker-pass-9f3k2';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; text: () => string; waitFor(re: RegExp): Promise<void>; exited: Promise<{ code: number | null; ms: number }>; signalAt(): void } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  let sentAt = 0;
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => child.once('exit', (code) => resolve({ code, ms: performance.now() - sentAt })));
  return {
    child,
    text: () => text,
    signalAt: () => {
      sentAt = performance.now();
      child.kill('SIGINT');
    },
    exited,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const until = performance.now() + 30_000;
        const poll = (): void => {
          if (re.test(text)) return resolve();
          if (child.exitCode !== null) return reject(new Error(`exited (${child.exitCode}) before ${re}:\n${text}`));
          if (performance.now() > until) return reject(new Error(`no ${re} in:\n${text}`));
          setTimeout(poll, 50);
        };
        poll();
      }),
  };
}

async function broker(): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-broker-'));
  const b = new Mosquitto(await freePort(), dir);
  cleanups.push(async () => {
    await b.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  await b.start();
  return b;
}

/** Well inside the commands' own 10 s deadline: a clean stop, not the deadline's forced exit. */
const BOUND_MS = 8_000;

describe.skipIf(SKIP)('shutdown with the external broker killed or hung', () => {
  for (const state of ['killed (SIGKILL)', 'hung (SIGSTOP)'] as const) {
    it(`chessclock hall stops on SIGINT with the broker ${state}`, { timeout: 60_000 }, async () => {
      const b = await broker();
      const hall = run(['hall', '--http', '0', '--speed', '100', '--mqtt', `mqtt://hall:${SECRET}@127.0.0.1:${b.port}`]);
      await hall.waitFor(/Ctrl-C stops the hall/);
      await hall.waitFor(/configured for/); // the clocks are playing and the host publishing
      if (state === 'killed (SIGKILL)') await b.kill();
      else b.pause();
      hall.signalAt();
      const { code, ms } = await hall.exited;
      b.resume();
      expect(code, hall.text()).toBe(0);
      expect(ms).toBeLessThan(BOUND_MS);
      expect(hall.text()).toContain('stopped.');
      expect(hall.text()).toContain('mqtt://hall:***@127.0.0.1');
      expect(hall.text()).not.toContain(SECRET); // redacted in every line (docs/host.md "Secrets")
    });
  }

  it('chessclock host (tokens from --tokens FILE and CHESSCLOCK_TOKENS, none on the command line) stops on SIGINT with the broker killed', {
    timeout: 60_000,
  }, async () => {
    const b = await broker();
    const dir = mkdtempSync(join(tmpdir(), 'shutdown-host-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify([{ arbiter: 'Boris', token: 'b-long-arbiter-token-2' }]));
    const host = run(
      [
        'host',
        '--db',
        join(dir, 'clocks.db'),
        '--tournament',
        'host/domain/fixtures/slovenian-final-2007.json',
        '--no-scan',
        '--http',
        '0',
        '--mqtt',
        `mqtt://127.0.0.1:${b.port}`,
        '--mqtt-user',
        'hall-host',
        '--tokens',
        join(dir, 'tokens.json'),
      ],
      { CHESSCLOCK_MQTT_PASSWORD: SECRET, CHESSCLOCK_TOKENS: JSON.stringify([{ arbiter: 'Ana', token: 'a-long-arbiter-token-1' }]) },
    );
    await host.waitFor(/publishing to mqtt:\/\/127\.0\.0\.1/);
    const api = /API and dashboard on (http:\/\/127\.0\.0\.1:\d+)/.exec(host.text())![1];
    for (const [token, arbiter] of [
      ['a-long-arbiter-token-1', 'Ana'],
      ['b-long-arbiter-token-2', 'Boris'],
    ]) {
      const res = await fetch(`${api}/api/arbiter`, { headers: { authorization: `Bearer ${token}` } });
      expect(await res.json()).toEqual({ arbiter });
    }
    await b.kill();
    host.signalAt();
    const { code, ms } = await host.exited;
    expect(code, host.text()).toBe(0);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(host.text()).toMatch(/stopped\n/);
    expect(host.text()).not.toContain(SECRET);
    expect(host.text()).not.toContain('a-long-arbiter-token-1');
    expect(host.text()).not.toContain('b-long-arbiter-token-2');
  });
});

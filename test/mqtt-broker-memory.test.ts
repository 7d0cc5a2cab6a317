// A real `chessclock host --mqtt embedded:0` process under the attack that once grew it by
// 756 MB: five connections each sending a CONNECT whose fixed header claims 200 MB (MQTT
// 3.1.1 §2.2.3), then as much of that body as the host will take. The embedded broker lives
// in the host's process, so what it buffers before sign-in is the host's memory
// (docs/mqtt.md "Limits", docs/reliability.md). Linux only: the host's memory is read from
// /proc/PID/status.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedHeader } from '../host/adapters/mqtt/mqtt-bytes.fixture.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));
const CLAIMED = 200_000_000;
/** What each attacker sends of its claimed body at most: 40 MB, 200 MB in all. */
const OFFERED = 40 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x41);

/** The resident memory of a process, from /proc/PID/status (kB). */
function residentKb(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]);
}

/** One attacker: the header, then the body as fast as the host takes it, until it closes or all is sent. Resolves with what was written and whether the host closed it. */
function attack(port: number): Promise<{ written: number; closedByHost: boolean }> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    let written = 0;
    let done = false;
    const finish = (closedByHost: boolean) => {
      if (done) return;
      done = true;
      s.destroy();
      resolve({ written, closedByHost });
    };
    s.on('error', () => finish(true)); // a reset or a broken pipe: the host closed it
    s.on('close', () => finish(true));
    const pump = () => {
      while (!done && written < OFFERED) {
        written += CHUNK.length;
        if (!s.write(CHUNK)) return void s.once('drain', pump);
      }
      if (!done) finish(false);
    };
    s.once('connect', () => {
      s.write(fixedHeader(0x10, CLAIMED));
      pump();
    });
  });
}

describe.skipIf(process.platform !== 'linux')('the embedded broker under five unfinished 200 MB CONNECTs (docs/mqtt.md "Limits")', () => {
  let child: ChildProcess | null = null;
  let dir = '';
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A real `chessclock host --mqtt embedded:0` with `extra` options; resolves with its broker's port once it listens. */
  async function startHostProcess(extra: string[], said: string[]): Promise<number> {
    dir = mkdtempSync(join(tmpdir(), 'broker-memory-'));
    writeFileSync(join(dir, 'ports.json'), '[]');
    child = spawn(
      process.execPath,
      [
        BIN,
        'host',
        '--db',
        join(dir, 'clocks.db'),
        '--tournament',
        FIXTURE,
        '--ports',
        join(dir, 'ports.json'),
        '--no-scan',
        '--http',
        '127.0.0.1:0',
        '--mqtt',
        'embedded:0',
        '--token',
        'Ana Srebrnič:a-long-arbiter-token-memory',
        ...extra,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    return new Promise<number>((resolve, reject) => {
      child!.stderr!.on('data', (c: Buffer) => {
        said.push(c.toString());
        const m = said.join('').match(/publishing to mqtt:\/\/127\.0\.0\.1:(\d+)/);
        if (m) resolve(Number(m[1]));
      });
      child!.once('exit', (code) => reject(new Error(`the host exited (${code}) before its broker listened:\n${said.join('')}`)));
    });
  }

  /** Resolves once the host's log has a line with `text`. */
  const logged = (said: string[], text: string) =>
    new Promise<void>((resolve) => {
      const check = () =>
        said
          .join('')
          .split('\n')
          .some((l) => l.includes(text))
          ? resolve()
          : void child!.stderr!.once('data', check);
      check();
    });

  it('--mqtt-max-packet sets the largest packet the broker takes (docs/mqtt.md "Limits")', async () => {
    const said: string[] = [];
    const port = await startHostProcess(['--mqtt-max-packet', '1024'], said);
    const s: Socket = connect({ host: '127.0.0.1', port });
    const closed = new Promise<void>((resolve) => s.on('close', () => resolve()));
    s.on('error', () => undefined);
    s.once('connect', () => s.write(fixedHeader(0x10, 2000)));
    await closed;
    await logged(said, 'the broker takes at most 1024');
  }, 60_000);

  it('closes each before its body is read, and the host stays within 50 MB of its idle memory', async () => {
    const said: string[] = [];
    const port = await startHostProcess([], said);
    const idleKb = residentKb(child!.pid!);
    const results = await Promise.all(Array.from({ length: 5 }, () => attack(port)));
    const afterKb = residentKb(child!.pid!);
    // Every attacker was cut off by the host, none was let send its 40 MB.
    expect(results.map((r) => r.closedByHost)).toEqual([true, true, true, true, true]);
    expect(afterKb - idleKb).toBeLessThan(50 * 1024);
    await logged(said, 'connection closed from 127.0.0.1: packet refused');
    // One log line for the burst of five, not five.
    expect(
      said
        .join('')
        .split('\n')
        .filter((l) => l.includes('packet refused')).length,
    ).toBe(1);
    console.info(
      `host memory: idle ${Math.round(idleKb / 1024)} MB, after the attack ${Math.round(afterKb / 1024)} MB; written before the host closed: ${results.map((r) => `${(r.written / 2 ** 20).toFixed(1)} MB`).join(', ')}`,
    );
  }, 60_000);
});

// A pair of connected pseudo-terminals from `socat`, so tests (and other rooms' end-to-end
// tests) open real serial ports with the real `serialport` package: what one end writes,
// the other reads, through the kernel's tty layer — the same code path as a USB-serial
// adapter, minus the wire. (A pty does not pace bytes at the baud rate it is set to.)
//
//   socat -d -d pty,raw,echo=0 pty,raw,echo=0
//
// prints "N PTY is /dev/pts/N" twice on stderr, then "starting data transfer loop" once
// both ends exist. We wait for that line, hand out the two paths, and kill socat on close.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface PtyPair {
  /** Path of one end, e.g. /dev/pts/5. */
  readonly a: string;
  /** Path of the other end. */
  readonly b: string;
  readonly pid: number;
  /** Kills socat and waits for it to exit. Idempotent. */
  close(): Promise<void>;
}

export class SocatMissingError extends Error {
  constructor(detail: string) {
    super(`socat is not installed (${detail}); install the Debian package \`socat\` (apt-get install socat)`);
    this.name = 'SocatMissingError';
  }
}

/** True when a `socat` binary can be run. */
export function socatAvailable(socatPath = 'socat'): boolean {
  const r = spawnSync(socatPath, ['-V'], { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

/**
 * For tests: null when pty tests must run, else the reason to skip. Never skips when the
 * CI variable is set — there a missing socat must fail the run, not hide it.
 */
export function ptySkipReason(env: NodeJS.ProcessEnv = process.env, socatPath = 'socat'): string | null {
  if (env.CI) return null;
  return socatAvailable(socatPath) ? null : 'skipped: real-serial-port tests need socat — install the Debian package `socat`';
}

const PTY_LINE = /PTY is (\S+)/;
const READY_LINE = /starting data transfer loop/;

/** Starts socat and resolves with both pty paths once it relays data. */
export function openPtyPair(opts: { timeoutMs?: number; socatPath?: string } = {}): Promise<PtyPair> {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  return new Promise<PtyPair>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(opts.socatPath ?? 'socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      reject(new SocatMissingError(e instanceof Error ? e.message : String(e)));
      return;
    }
    const paths: string[] = [];
    let stderr = '';
    let settled = false;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const kill = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void kill().then(() => reject(err));
    };
    const timer = setTimeout(() => fail(new Error(`socat did not report two ptys within ${timeoutMs} ms; stderr so far:\n${stderr}`)), timeoutMs);
    child.once('error', (e: NodeJS.ErrnoException) => fail(e.code === 'ENOENT' ? new SocatMissingError('spawn socat: ENOENT') : e));
    child.once('exit', (code, signal) => fail(new Error(`socat exited (code ${code}, signal ${signal}) before it was ready; stderr:\n${stderr}`)));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      stderr += text;
      for (const line of text.split('\n')) {
        const m = PTY_LINE.exec(line);
        if (m) paths.push(m[1]);
      }
      if (!settled && paths.length >= 2 && READY_LINE.test(stderr)) {
        settled = true;
        clearTimeout(timer);
        // Keep draining stderr so socat never blocks on a full pipe.
        child.stderr!.resume();
        resolve({ a: paths[0], b: paths[1], pid: child.pid!, close: kill });
      }
    });
  });
}

// The bench's side of bench/support/host-process.ts: the host started in a process of its own,
// asked over its stdin/stdout (one JSON line per request), and the clocks' TCP connections to it.
// Used by bench/host-ceiling.bench.ts and bench/dashboard.bench.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { HostProcessOptions } from './host-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The host process and its request/answer channel. */
export class HostProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly next: () => Promise<Record<string, unknown>>,
    readonly port: number,
    readonly url: string,
  ) {}

  static async start(opts: HostProcessOptions): Promise<HostProcess> {
    const args = [
      ...(process.env.HOST_PROCESS_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      'bin/run-ts.mjs',
      'bench/support/host-process.ts',
      JSON.stringify({ stamps: true, ...opts }),
    ];
    // HOST_PROCESS_CPUS=0: the host runs on these cores only (taskset), so that the bench's clocks
    // (run the bench itself with `taskset -c 1`) do not take the host's core from it, as on a
    // hall PC, where the clocks are serial devices and not processes.
    const cpus = process.env.HOST_PROCESS_CPUS;
    const child = cpus
      ? spawn('taskset', ['-c', cpus, process.execPath, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    // The host's V8 may print on stdout too (HOST_PROCESS_NODE_ARGS=--trace-gc): such lines go to
    // HOST_PROCESS_LOG, or to stderr, and the answers are the JSON lines.
    const log = process.env.HOST_PROCESS_LOG;
    const next = async (): Promise<Record<string, unknown>> => {
      for (;;) {
        const { value, done } = await lines.next();
        if (done) throw new Error('the host process closed its stdout');
        const line = String(value);
        if (line.startsWith('{')) return JSON.parse(line) as Record<string, unknown>;
        if (log) appendFileSync(log, line + '\n');
        else process.stderr.write(line + '\n');
      }
    };
    const ready = await next();
    return new HostProcess(child, next, ready.port as number, ready.url as string);
  }

  /** Sends a request; answers with the reply's field `key`, or the whole reply without one. */
  async ask<T>(what: string, key?: string): Promise<T> {
    this.child.stdin!.write(what + '\n');
    const reply = await this.next();
    return (key === undefined ? reply : reply[key]) as T;
  }

  async stop(): Promise<void> {
    this.child.stdin!.write('stop\n');
    await new Promise<void>((r) => this.child.once('exit', () => r()));
  }
}

/** A clock's line to the host process: one TCP connection on 127.0.0.1, no Nagle delay. */
export async function connectTo(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  return socket;
}

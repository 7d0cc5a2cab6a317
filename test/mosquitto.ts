// A real Mosquitto broker for the end-to-end tests (Debian package `mosquitto`), and a TCP
// gate to keep publishers away from a restarted broker until a subscriber is back.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';

export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => spawnSync(p, ['-h']).error === undefined);
/** Skip only locally: under CI (`CI` set) the tests run and fail when the package is missing. */
export const SKIP_MOSQUITTO = MOSQUITTO === undefined && !process.env.CI;
export const SKIP_MOSQUITTO_MESSAGE = 'skipping the Mosquitto tests: install the Debian package `mosquitto` (apt-get install mosquitto)';

export async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface MosquittoOptions {
  /**
   * `persistence true` as Debian's /etc/mosquitto/mosquitto.conf sets it, with Mosquitto's
   * default `autosave_interval` (1800 s): sessions and queues are written to disk at a clean
   * stop or every half hour, so a SIGKILL loses what arrived since.
   */
  readonly persistence?: boolean;
  /** Config lines instead of `allow_anonymous true` (e.g. a password file and an ACL). */
  readonly access?: readonly string[];
  /** Listener lines instead of the plain one (e.g. a TLS listener); `${port}` is replaced. */
  readonly listener?: readonly string[];
}

/** A broker process on 127.0.0.1:port, by default with persistence off (retained and sessions die with it). */
export class Mosquitto {
  private proc: ChildProcess | null = null;
  private log: string[] = [];
  constructor(
    readonly port: number,
    /** Where its config file goes. */
    private readonly dir: string,
    private readonly options: MosquittoOptions = {},
  ) {}

  /** The broker's last output lines (its refusals are logged with -v). */
  output(): string {
    return this.log.join('');
  }

  async start(): Promise<void> {
    if (MOSQUITTO === undefined) throw new Error('mosquitto not found: install the Debian package `mosquitto`');
    const conf = join(this.dir, `mosquitto-${this.port}.conf`);
    const store = join(this.dir, `mosquitto-${this.port}-data/`);
    if (this.options.persistence) mkdirSync(store, { recursive: true });
    writeFileSync(
      conf,
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder the caller writes, filled in here
        ...(this.options.listener?.map((l) => l.replace('${port}', String(this.port))) ?? [`listener ${this.port} 127.0.0.1`]),
        ...(this.options.access ?? ['allow_anonymous true']),
        // Started as root, Mosquitto drops to the `mosquitto` user, who cannot read the test's files.
        ...(process.getuid?.() === 0 ? ['user root'] : []),
        ...(this.options.persistence ? ['persistence true', `persistence_location ${store}`] : ['persistence false']),
        '',
      ].join('\n'),
    );
    const proc = spawn(MOSQUITTO, ['-c', conf, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    const keep = (chunk: Buffer): void => {
      this.log.push(chunk.toString());
      if (this.log.length > 50) this.log.shift();
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    // Ready once it accepts TCP connections.
    const until = performance.now() + 10_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`mosquitto exited (${proc.exitCode}):\n${this.log.join('')}`);
      const ok = await new Promise<boolean>((resolve) => {
        const s = connect(this.port, '127.0.0.1');
        s.once('connect', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      if (performance.now() > until) throw new Error(`mosquitto did not listen on ${this.port}:\n${this.log.join('')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** SIGSTOP: a hung broker (connections stay open, nothing answers); resume() lets it go on. */
  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  /** SIGKILL: a crash, no goodbye to the clients. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    this.proc = null;
  }
}

/**
 * Publishers reach the broker through this relay so a test can keep them away from the
 * restarted broker until the subscriber has subscribed again: MQTT does not replay a
 * non-retained message to a subscriber that was not subscribed when it arrived (and with
 * persistence off the broker forgets sessions when it dies), so without this ordering a
 * lost message could be the subscriber's absence rather than the publisher's fault.
 */
export class TcpGate {
  readonly server: Server;
  private open = true;
  private readonly pairs = new Set<Socket>();
  constructor(private readonly targetPort: number) {
    this.server = createServer((down) => {
      if (!this.open) return void down.destroy();
      const up = connect(this.targetPort, '127.0.0.1');
      this.pairs.add(down).add(up);
      const drop = (): void => {
        down.destroy();
        up.destroy();
        this.pairs.delete(down);
        this.pairs.delete(up);
      };
      down.on('error', drop).on('close', drop);
      up.on('error', drop).on('close', drop);
      down.pipe(up).pipe(down);
    });
  }
  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as { port: number }).port;
  }
  setOpen(open: boolean): void {
    this.open = open;
    if (!open) for (const s of this.pairs) s.destroy();
  }
  async close(): Promise<void> {
    this.setOpen(false);
    await new Promise((r) => this.server.close(r));
  }
}

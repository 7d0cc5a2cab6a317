// The clock's line to the host that survives cable pulls (docs/reliability.md "Faults"): the
// clock's link writes to this stream for its whole life, as the firmware writes to its
// UART, and the device under it (a serial port, a pty, a TCP socket) is opened again with
// backoff whenever it goes away — as the host reopens its end (host/clocks/session.machine.ts).
//
// While no device is open the bytes fall on the floor, like an unplugged cable: the link's
// outbox keeps every unacknowledged event and the session resends it once a device is back,
// so nothing the clock recorded meanwhile is lost (docs/protocol.md). A line that closed the
// link instead would refuse the events raised while it is out.
import { Duplex } from 'node:stream';
import type { ClockFirmware } from './clock-firmware.ts';
import { linkClockToHost, openHostLine, type ClockLink, type ClockLinkOptions } from './host-link.ts';

export interface HostLineBackoff {
  /** First wait after a failure (default 250 ms). */
  readonly initialMs: number;
  /** Longest wait (default 5 s). */
  readonly maxMs: number;
}

export type HostLineEvent =
  | { readonly type: 'open'; readonly opens: number }
  | { readonly type: 'lost'; readonly reason: string }
  | { readonly type: 'retry'; readonly reason: string; readonly inMs: number; readonly attempt: number };

export interface HostLineOptions {
  /** Opens the device (e.g. firmware-ts/host-link.ts `openHostLine(spec)`); rejects when it cannot. */
  readonly open: () => Promise<Duplex>;
  readonly backoff?: HostLineBackoff;
  /** Told of every open, loss and retry (the terminal clock shows it; `chessclock clock` logs it). */
  readonly onEvent?: (e: HostLineEvent) => void;
}

/** The wait before attempt `attempt` (1 = the first retry): doubling from initialMs up to maxMs. */
export function hostLineBackoffMs(backoff: HostLineBackoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
}

export class ReopeningHostLine extends Duplex {
  private device: Duplex | null = null;
  private readonly backoff: HostLineBackoff;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;
  /** How many times a device was opened. */
  opens = 0;
  /** Why the last open or device failed, or null. */
  lastError: string | null = null;
  private readonly onData = (chunk: Buffer) => this.push(chunk);

  constructor(private readonly opts: HostLineOptions) {
    super();
    this.backoff = opts.backoff ?? { initialMs: 250, maxMs: 5_000 };
  }

  /** Opens the device now; if it cannot, keeps trying with backoff. Resolves after the first attempt. */
  async start(): Promise<void> {
    await this.tryOpen();
  }

  /** True while a device is open under the line. */
  get connected(): boolean {
    return this.device !== null && !this.device.destroyed;
  }

  /** Stops reopening and closes the device (the line itself ends too). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const d = this.device;
    this.device = null;
    d?.off('data', this.onData);
    d?.destroy();
    this.push(null);
  }

  private async tryOpen(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    let d: Duplex;
    try {
      d = await this.opts.open();
    } catch (err) {
      this.retry((err as Error).message);
      return;
    }
    if (this.stopped) {
      d.destroy();
      return;
    }
    this.attempt = 0;
    this.lastError = null;
    this.device = d;
    this.opens++;
    d.on('data', this.onData);
    let gone = false;
    const lost = (err?: Error) => {
      if (gone || this.device !== d) return;
      gone = true;
      d.off('data', this.onData);
      this.device = null;
      const reason = err?.message ?? 'the device closed';
      this.opts.onEvent?.({ type: 'lost', reason });
      d.destroy();
      this.retry(reason);
    };
    d.once('close', () => lost());
    d.on('error', (err: Error) => lost(err));
    this.opts.onEvent?.({ type: 'open', opens: this.opens });
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.lastError = reason;
    this.attempt++;
    const inMs = hostLineBackoffMs(this.backoff, this.attempt);
    this.opts.onEvent?.({ type: 'retry', reason, inMs, attempt: this.attempt });
    this.timer = setTimeout(() => void this.tryOpen(), inMs);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const d = this.device;
    // No device: the bytes are lost as on a pulled cable; the session resends what matters.
    if (d && !d.destroyed && d.writable) d.write(chunk);
    cb();
  }

  override _read(): void {}

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (!this.stopped) this.stop();
    cb(err);
  }
}

/** The clock's link to the host over a line that reopens its device: what `sim --link` and `clock --link` run. */
export interface ReopeningClockLink {
  readonly clockLink: ClockLink;
  readonly line: ReopeningHostLine;
  /** One line for a status display: the device, whether it is open, and what waits for the host. */
  status(): string;
  /** Closes the link and stops reopening. */
  close(reason: string): void;
}

/**
 * Opens `spec` (a serial device, a pty, or tcp:HOST:PORT) and links the clock to the host
 * over it, reopening the device with backoff whenever it goes away. The first open must
 * succeed: a wrong path is a mistake to report at once (one line naming the path), not a
 * cable to wait for.
 */
export async function linkClockOverReopeningLine(
  firmware: ClockFirmware,
  spec: string,
  options: ClockLinkOptions & { readonly backoff?: HostLineBackoff; readonly onEvent?: (e: HostLineEvent) => void },
): Promise<ReopeningClockLink> {
  const line = new ReopeningHostLine({ open: () => openHostLine(spec), backoff: options.backoff, onEvent: options.onEvent });
  await line.start();
  if (!line.connected) {
    const why = line.lastError ?? 'it did not open';
    line.stop();
    throw new Error(`--link ${spec}: ${why.includes(spec) ? why : `cannot open ${spec}: ${why}`}`);
  }
  const clockLink = linkClockToHost(firmware, line, options);
  return {
    clockLink,
    line,
    status: () =>
      `host link ${spec}: ${line.connected ? clockLink.link.state : `device gone, reopening (${line.lastError ?? '…'})`}, ${clockLink.pending()} event(s) awaiting the host's ack`,
    close: (reason) => {
      clockLink.close(reason);
      line.stop();
    },
  };
}

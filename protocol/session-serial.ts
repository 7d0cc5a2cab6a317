// A Link over a real serial port, opened by path with the `serialport` package
// (a USB-serial adapter, an RS-485 dongle, or one end of a socat pty pair in tests).
// 115200 baud 8N1, no flow control: the line the clocks use.
import { SerialPort } from 'serialport';
import { createLink, type Link } from './link.ts';
import type { LinkOptions } from './link-types.ts';

export const DEFAULT_BAUD_RATE = 115_200;

export interface SerialLink {
  readonly link: Link;
  readonly port: SerialPort;
  /** Closes the link (pending sends reject) and then the port. */
  close(): Promise<void>;
}

export class SerialOpenError extends Error {
  constructor(
    readonly path: string,
    cause: Error,
  ) {
    super(`cannot open serial port ${path}: ${cause.message}`);
    this.name = 'SerialOpenError';
  }
}

/** Opens `path` and starts a Link on it once the port is open. */
export async function openSerialLink(path: string, opts: LinkOptions & { baudRate?: number }): Promise<SerialLink> {
  const { baudRate = DEFAULT_BAUD_RATE, ...linkOpts } = opts;
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(new SerialOpenError(path, err)) : resolve())));
  const link = createLink(port, linkOpts);
  const close = async () => {
    link.close(`serial port ${path} closed by the application`);
    if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  };
  return { link, port, close };
}

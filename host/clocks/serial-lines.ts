// Serial lines for the host: discovery (SerialPort.list() plus the ports file and --port
// paths) and opening a port at 115200 8N1 as a session's `Line`.
//
// Discovery repeats (default every 2 s) so a clock plugged in during the round gets a
// session; a line that vanished stays with its session, which keeps retrying with backoff
// (a USB clock that comes back usually gets the same /dev/serial/by-id path).
import { SerialPort } from 'serialport';
import { DEFAULT_BAUD_RATE } from '../../protocol/session-api.ts';
import type { Line } from './clock-session.ts';

export function openSerialLine(path: string, baudRate = DEFAULT_BAUD_RATE): () => Promise<Line> {
  return async () => {
    const port = new SerialPort({ path, baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(new Error(`cannot open ${path}: ${err.message}`)) : resolve())));
    return {
      duplex: port,
      close: () =>
        new Promise<void>((resolve) => {
          if (!port.isOpen) return resolve();
          port.close(() => resolve());
        }),
    };
  };
}

export interface ListedPort {
  readonly path: string;
  readonly vendorId?: string;
}

/**
 * USB serial adapters among the system's ports (those with a USB vendor id): the clocks.
 * Built-in UARTs (/dev/ttyS*) have none and are left alone.
 */
export async function listUsbSerialPorts(list: () => Promise<ListedPort[]> = () => SerialPort.list()): Promise<string[]> {
  const ports = await list();
  return ports.filter((p) => p.vendorId !== undefined && p.vendorId !== '').map((p) => p.path);
}

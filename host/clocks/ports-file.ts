// The ports file of `chessclock host --ports ports.json`: which lines to open and which
// hall table each clock stands at.
//
//   [ { "path": "/dev/ttyUSB0", "table": 1 },
//     { "path": "/dev/serial/by-id/usb-FTDI_FT232R_A9XK-if00-port0", "table": 2 },
//     { "serial": "CLK-0042", "table": 3 } ]
//
// An entry with `path` opens that line; an entry with only `serial` places a clock found on
// any line (listed by SerialPort.list(), --port, or another entry). Errors name the entry.
import { readFileSync } from 'node:fs';

export interface PortEntry {
  readonly path?: string;
  readonly serial?: string;
  readonly table?: number;
}

export class PortsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortsFileError';
  }
}

export function parsePortsFile(text: string, file = 'ports file'): PortEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PortsFileError(`${file}: not JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(value)) throw new PortsFileError(`${file}: expected a JSON array of { "path" | "serial", "table" } entries`);
  const tables = new Map<number, string>();
  return value.map((raw, i) => {
    const where = `${file}: entry [${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PortsFileError(`${where}: expected an object`);
    const e = raw as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      if (!['path', 'serial', 'table'].includes(k)) throw new PortsFileError(`${where}: unknown field "${k}" (known: path, serial, table)`);
    }
    if (e.path !== undefined && (typeof e.path !== 'string' || e.path === '')) throw new PortsFileError(`${where}.path: expected a non-empty string`);
    if (e.serial !== undefined && (typeof e.serial !== 'string' || e.serial === '')) throw new PortsFileError(`${where}.serial: expected a non-empty string`);
    if (e.path === undefined && e.serial === undefined) throw new PortsFileError(`${where}: needs "path" or "serial"`);
    if (e.table !== undefined && !(Number.isInteger(e.table) && (e.table as number) >= 1)) {
      throw new PortsFileError(`${where}.table: expected a whole number ≥ 1, got ${JSON.stringify(e.table)}`);
    }
    if (typeof e.table === 'number') {
      const key = String(e.path ?? e.serial);
      const before = tables.get(e.table);
      if (before !== undefined) throw new PortsFileError(`${where}.table: table ${e.table} is already given to ${before}`);
      tables.set(e.table, key);
    }
    return { path: e.path as string | undefined, serial: e.serial as string | undefined, table: e.table as number | undefined };
  });
}

export function loadPortsFile(file: string): PortEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new PortsFileError(`${file}: cannot read (${(err as Error).message})`);
  }
  return parsePortsFile(text, file);
}

// Intel HEX → flash image, for the emulated Uno (simulator/uno/emulated-uno.ts).
//
// The format (Intel, "Hexadecimal Object File Format Specification", rev. A): one record a
// line, `:LLAAAATT<data>CC`, LL data bytes at address AAAA, record type TT (00 data, 01 end
// of file, 02 extended segment address, 04 extended linear address; 03/05 start addresses
// are ignored: the AVR starts at 0), CC the two's-complement checksum of every byte before it.
// A bad line is refused naming its line number, so a truncated download is not run.
import { createRequire } from 'node:module';

/** The ATmega328P has 32 KiB of flash. */
export const UNO_FLASH_BYTES = 0x8000;

export class IntelHexError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'IntelHexError';
  }
}

/** Parses Intel HEX text into a flash image of `flashBytes` bytes (unused bytes read 0xFF, as erased flash). */
export function parseIntelHex(text: string, flashBytes = UNO_FLASH_BYTES): Uint8Array {
  const flash = new Uint8Array(flashBytes).fill(0xff);
  let base = 0;
  let ended = false;
  let lastLine = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const no = i + 1;
    if (line === '') continue;
    lastLine = no;
    if (ended) throw new IntelHexError(no, 'data after the end-of-file record');
    if (!/^:([0-9A-Fa-f]{2})+$/.test(line) || line.length < 11) throw new IntelHexError(no, `not an Intel HEX record: ${JSON.stringify(line.slice(0, 20))}`);
    const bytes = Buffer.from(line.slice(1), 'hex');
    const count = bytes[0];
    if (bytes.length !== count + 5) throw new IntelHexError(no, `length byte says ${count} data bytes, the record has ${bytes.length - 5}`);
    const sum = bytes.reduce((s, b) => (s + b) & 0xff, 0);
    if (sum !== 0) throw new IntelHexError(no, 'checksum mismatch');
    const address = (bytes[1] << 8) | bytes[2];
    const type = bytes[3];
    const data = bytes.subarray(4, 4 + count);
    if (type === 0x00) {
      const at = base + address;
      if (at + count > flashBytes) throw new IntelHexError(no, `data at 0x${at.toString(16)} runs past the ${flashBytes}-byte flash`);
      flash.set(data, at);
    } else if (type === 0x01) ended = true;
    else if (type === 0x02) base = ((data[0] << 8) | data[1]) * 16;
    else if (type === 0x04) base = ((data[0] << 8) | data[1]) << 16;
    else if (type !== 0x03 && type !== 0x05) throw new IntelHexError(no, `unknown record type 0x${type.toString(16).padStart(2, '0')}`);
  }
  if (!ended) throw new IntelHexError(lastLine, 'no end-of-file record (truncated file?)');
  return flash;
}

/**
 * The StandardFirmata 2.4 build for the Uno that avrgirl-arduino ships: the one binary the
 * emulated Uno runs and `chessclock flash` writes to a real board.
 */
export function standardFirmataHexPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('avrgirl-arduino/package.json');
  return pkg.replace(/package\.json$/, 'junk/hex/uno/StandardFirmata.cpp.hex');
}

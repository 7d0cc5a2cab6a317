import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IntelHexError, parseIntelHex, standardFirmataHexPath } from './intel-hex.ts';

// Intel, "Hexadecimal Object File Format Specification" rev. A: records, checksums, types.
describe('Intel HEX loader (Intel HEX spec rev. A)', () => {
  it('places data records at their address; erased flash reads 0xFF', () => {
    // 4 bytes at 0x0010, then EOF. Checksum: two's complement of the sum of the record's bytes.
    const flash = parseIntelHex(':0400100001020304E2\n:00000001FF\n', 64);
    expect([...flash.subarray(0x0e, 0x16)]).toEqual([0xff, 0xff, 1, 2, 3, 4, 0xff, 0xff]);
  });

  it('an extended segment address (type 02) offsets the following records', () => {
    const flash = parseIntelHex(':020000020001FB\n:01000000AA55\n:00000001FF\n', 64);
    expect(flash[16]).toBe(0xaa);
  });

  it.each([
    [':0400100001020304E3\n:00000001FF\n', 'line 1: checksum mismatch'],
    [':0400100001020304E2\n', 'no end-of-file record'],
    [':0500100001020304E2\n:00000001FF\n', 'line 1: length byte says 5 data bytes, the record has 4'],
    ['0400100001020304E2\n:00000001FF\n', 'line 1: not an Intel HEX record'],
    [':00000001FF\n:0400100001020304E2\n', 'line 2: data after the end-of-file record'],
    [':0400400001020304B2\n:00000001FF\n', 'line 1: data at 0x40 runs past the 64-byte flash'],
  ])('refuses %j naming the line', (text, problem) => {
    expect(() => parseIntelHex(text, 64)).toThrow(IntelHexError);
    expect(() => parseIntelHex(text, 64)).toThrow(problem);
  });

  it('reads the StandardFirmata build avrgirl-arduino ships for the Uno: a reset vector jump at 0', () => {
    const path = standardFirmataHexPath();
    expect(path).toMatch(/avrgirl-arduino\/junk\/hex\/uno\/StandardFirmata\.cpp\.hex$/);
    const flash = parseIntelHex(readFileSync(path, 'utf8'));
    // 0x940C: JMP, the first word of every ATmega328P vector table.
    expect(flash[0] | (flash[1] << 8)).toBe(0x940c);
  });
});

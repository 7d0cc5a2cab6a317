// The frame check sequence: CRC-16/CCITT-FALSE (catalogued by Greg Cook's "Catalogue of
// parametrised CRC algorithms" as CRC-16/IBM-3740, alias CRC-16/AUTOSAR, CRC-16/CCITT-FALSE):
//   width 16, poly 0x1021, init 0xFFFF, refin false, refout false, xorout 0x0000,
//   check ("123456789") 0x29B1.
// It is what the `crc` package calls crc16ccitt (its table is pycrc's `--model=ccitt`).
// Reflected variants are also sold as "CCITT" (KERMIT, check 0x2189; MCRF4XX, check 0x6F91,
// e.g. avr-libc _crc_ccitt_update): not these. Written big-endian after the payload.
import crc16ccitt from 'crc/calculators/crc16ccitt';

export const CRC_NAME = 'CRC-16/CCITT-FALSE';
export const CRC_BYTES = 2;
/** The catalogue's check value: the CRC of the ASCII bytes "123456789". */
export const CRC_CHECK = 0x29b1;

/** CRC-16/CCITT-FALSE of `bytes` (optionally continuing from `previous`). */
export function crc16(bytes: Uint8Array, previous?: number): number {
  return crc16ccitt(bytes, previous);
}

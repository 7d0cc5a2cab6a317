// A 4-digit 7-segment display behind an HT16K33 backpack, as the bytes arrive.
//
// five.Led.Digits (controller HT16K33) writes commands as one byte (0x21 oscillator
// on, 0x80|blink|display-on, 0xE0|brightness) and the display RAM as [0x00, 16 bytes]
// (HT16K33 datasheet: "Display data address pointer"). On the common 4-digit backpack
// RAM rows 0, 1, 3, 4 are the digits and row 2 the colon. Johnny-Five stores each digit
// with the segment bits reversed except the decimal point (lib/led/ledcontrol.js
// sendDigit); the model undoes that with johnny-five's own character table, so the text
// it reads back is the five-slot string that was printed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DIGIT_CHARS } = require('johnny-five/lib/led/led-chars.js') as { DIGIT_CHARS: Record<string, number> };

function toRam(code: number): number {
  if (code <= 0 || code >= 255) return code;
  const bits = code.toString(2).padStart(8, '0').split('');
  return parseInt(bits[0] + bits.slice(1).reverse().join(''), 2);
}

const DECIMAL = DIGIT_CHARS['.'];
const FROM_RAM = new Map<number, string>();
// Where 7-segment glyphs coincide (0/O, 5/S, 2/Z, 1/I...), digits win, then upper case.
const rank = (ch: string) => (/[0-9]/.test(ch) ? 0 : /[A-Z]/.test(ch) ? 1 : 2);
const chars = Object.keys(DIGIT_CHARS)
  .filter((ch) => ch !== '.' && ch !== ':')
  .sort((a, b) => rank(a) - rank(b));
for (const ch of chars) {
  const code = DIGIT_CHARS[ch];
  if (!FROM_RAM.has(toRam(code))) FROM_RAM.set(toRam(code), ch);
  if (!FROM_RAM.has(toRam(code | DECIMAL))) FROM_RAM.set(toRam(code | DECIMAL), `${ch}.`);
}
FROM_RAM.set(0, ' ');

export class Ht16k33Digits {
  readonly ram = new Array<number>(16).fill(0);
  oscillatorOn = false;
  displayOn = false;
  /** 0 = steady; 1 = 2 Hz, 2 = 1 Hz, 3 = 0.5 Hz (HT16K33 blinking frequency bits). */
  blink = 0;
  brightness = 15;

  write(bytes: readonly number[]): void {
    if (bytes.length === 0) return;
    const [first] = bytes;
    if (bytes.length > 1 && (first & 0xf0) === 0x00) {
      // RAM write from address `first`
      bytes.slice(1).forEach((b, i) => {
        if (first + i < 16) this.ram[first + i] = b;
      });
    } else if ((first & 0xf0) === 0x20) this.oscillatorOn = (first & 1) === 1;
    else if ((first & 0xf0) === 0x80) {
      this.displayOn = (first & 1) === 1;
      this.blink = (first >> 1) & 0x3;
    } else if ((first & 0xf0) === 0xe0) this.brightness = first & 0x0f;
  }

  /** The five slots (digit, digit, colon, digit, digit) as Led.Digits#print takes them. */
  text(): string {
    let out = '';
    for (const row of [0, 1, 2, 3, 4]) {
      const value = this.ram[row * 2];
      if (row === 2) out += value ? ':' : ' ';
      else out += FROM_RAM.get(value) ?? '?';
    }
    return out;
  }
}

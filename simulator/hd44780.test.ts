import { describe, expect, it } from 'vitest';
import { Hd44780 } from './hd44780.ts';

// PCF8574 backpack pins: P0 RS, P2 EN, P3 backlight, P4-P7 D4-D7.
const EN = 0x04;
function pulse(lcd: Hd44780, nibble: number, rs: boolean): void {
  const port = (nibble << 4) | (rs ? 1 : 0) | 0x08;
  lcd.writePort(port | EN);
  lcd.writePort(port); // falling edge of EN latches (HD44780 datasheet, figure 25)
}
function byte(lcd: Hd44780, value: number, rs: boolean): void {
  pulse(lcd, value >> 4, rs);
  pulse(lcd, value & 0x0f, rs);
}

describe('HD44780 behind a PCF8574 (HD44780 datasheet, 4-bit interface)', () => {
  it('follows the 8-bit power-on state, the switch to 4-bit, and writes both lines', () => {
    const lcd = new Hd44780();
    // Initialisation by instruction: 0x3 three times, then 0x2 (4-bit), as single nibbles.
    for (const n of [0x3, 0x3, 0x3, 0x2]) pulse(lcd, n, false);
    byte(lcd, 0x28, false); // function set: 4-bit, 2 lines
    byte(lcd, 0x0c, false); // display on
    byte(lcd, 0x01, false); // clear
    for (const ch of 'Hi') byte(lcd, ch.charCodeAt(0), true);
    byte(lcd, 0x80 | 0x40 | 3, false); // DDRAM 0x43: line 2, column 3
    for (const ch of 'there') byte(lcd, ch.charCodeAt(0), true);
    expect(lcd.text()).toEqual(['Hi              ', '   there        ']);
    expect(lcd.displayOn).toBe(true);
    expect(lcd.backlight).toBe(true);
    // The address counter stands after "there" on line 2; display control 0x0C hides the cursor.
    expect(lcd.cursor).toEqual({ row: 1, col: 8, visible: false, blink: false });
    byte(lcd, 0x0e, false); // display on, cursor on (what five.LCD's on() sends)
    expect(lcd.cursor).toMatchObject({ visible: true, blink: false });
    byte(lcd, 0x0d, false); // blink on, cursor off
    expect(lcd.cursor).toMatchObject({ visible: false, blink: true });
  });

  it('ignores writes without an EN falling edge', () => {
    const lcd = new Hd44780();
    for (const n of [0x3, 0x3, 0x3, 0x2]) pulse(lcd, n, false);
    lcd.writePort(0x41 | 0x08); // data on the pins, EN never high
    lcd.writePort(0x41 | 0x08);
    expect(lcd.text()[0]).toBe(' '.repeat(16));
  });
});

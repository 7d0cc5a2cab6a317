// A 16×2 HD44780 character LCD behind a PCF8574 I2C backpack, as the bytes arrive.
//
// five.LCD (controller PCF8574) writes one byte per I2C write to the expander; the
// expander's pins drive the LCD: P0 = RS, P1 = RW, P2 = EN, P3 = backlight,
// P4-P7 = D4-D7 (johnny-five lib/lcd.js; the common backpack wiring). The LCD latches
// D4-D7 on the falling edge of EN (HD44780 datasheet, "Interfacing to the MPU").
// It powers up in 8-bit mode: every latched nibble is then a whole instruction until a
// function set with DL=0 switches it to 4-bit mode, after which nibbles pair up, high
// nibble first. The model keeps DDRAM (80 bytes: line 1 at 0x00-0x27, line 2 at
// 0x40-0x67) and shows the first 16 columns of each line.

const RS = 0x01;
const EN = 0x04;
const BACKLIGHT = 0x08;

export class Hd44780 {
  private readonly ddram = new Uint8Array(0x68).fill(0x20);
  private address = 0;
  private increment = true;
  private fourBit = false;
  private pendingHigh: number | null = null;
  private lastPort = 0;
  private toCgram = false;
  displayOn = false;
  /** Display control's C and B bits: the underline cursor and the blinking block. */
  cursorOn = false;
  cursorBlink = false;
  backlight = false;
  /** Instructions and characters latched so far (for tests and the bench). */
  latchedBytes = 0;

  constructor(
    readonly cols = 16,
    readonly rows = 2,
  ) {}

  /** One byte written to the PCF8574 port. */
  writePort(port: number): void {
    this.backlight = (port & BACKLIGHT) !== 0;
    const falling = (this.lastPort & EN) !== 0 && (port & EN) === 0;
    if (falling) this.latch(this.lastPort >> 4, (this.lastPort & RS) !== 0);
    this.lastPort = port;
  }

  private latch(nibble: number, rs: boolean): void {
    if (!this.fourBit) {
      // 8-bit mode on a 4-bit bus: D0-D3 are not wired and read as 0.
      this.execute(nibble << 4, rs);
      return;
    }
    if (this.pendingHigh === null) {
      this.pendingHigh = nibble;
      return;
    }
    const byte = (this.pendingHigh << 4) | nibble;
    this.pendingHigh = null;
    this.execute(byte, rs);
  }

  private execute(byte: number, rs: boolean): void {
    this.latchedBytes++;
    if (rs) {
      if (this.toCgram) return; // custom glyph bitmaps: not shown as text
      this.ddram[this.address] = byte;
      this.step(this.increment ? 1 : -1);
      return;
    }
    if (byte & 0x80) {
      this.toCgram = false;
      this.address = this.wrap(byte & 0x7f);
    } else if (byte & 0x40) {
      this.toCgram = true;
    } else if (byte & 0x20) {
      this.fourBit = (byte & 0x10) === 0;
      this.pendingHigh = null;
    } else if (byte & 0x10) {
      // cursor/display shift: moves the cursor (display shift is not modelled)
      if ((byte & 0x08) === 0) this.step(byte & 0x04 ? 1 : -1);
    } else if (byte & 0x08) {
      this.displayOn = (byte & 0x04) !== 0;
      this.cursorOn = (byte & 0x02) !== 0;
      this.cursorBlink = (byte & 0x01) !== 0;
    } else if (byte & 0x04) {
      this.increment = (byte & 0x02) !== 0;
    } else if (byte & 0x02) {
      this.address = 0;
      this.toCgram = false;
    } else if (byte & 0x01) {
      this.ddram.fill(0x20);
      this.address = 0;
      this.increment = true;
      this.toCgram = false;
    }
  }

  private wrap(address: number): number {
    if (address >= 0x28 && address < 0x40) return 0x40;
    if (address >= 0x68) return 0x00;
    return address;
  }

  private step(delta: number): void {
    let a = this.address + delta;
    if (delta > 0) a = this.wrap(a);
    else if (a < 0) a = 0x67;
    else if (a >= 0x28 && a < 0x40) a = 0x27;
    this.address = a;
  }

  /**
   * The cursor: where the next character goes (the address counter), and whether the glass
   * shows it (an underline, or a blinking block). A column past 15 is off the 16 visible ones.
   */
  get cursor(): { row: number; col: number; visible: boolean; blink: boolean } {
    const row = this.address >= 0x40 ? 1 : 0;
    return { row, col: this.address - (row === 1 ? 0x40 : 0), visible: this.displayOn && this.cursorOn, blink: this.displayOn && this.cursorBlink };
  }

  /** The visible text, one string per row (HD44780 ROM A00: ASCII 0x20-0x7D). */
  text(): string[] {
    const rows: string[] = [];
    for (let r = 0; r < this.rows; r++) {
      const base = r === 0 ? 0x00 : 0x40;
      let line = '';
      for (let c = 0; c < this.cols; c++) {
        const code = this.ddram[base + c];
        line += code >= 0x20 && code <= 0x7d ? String.fromCharCode(code) : code === 0x7e ? '→' : code === 0x7f ? '←' : '#';
      }
      rows.push(line);
    }
    return rows;
  }
}

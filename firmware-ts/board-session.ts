// The board the clock runs on, kept connected across resets of the microcontroller.
//
// The clock's brain (the statechart, its times, its snapshot) lives in this process; the
// Arduino running StandardFirmata only reads keys and drives the LCD, LEDs and piezo. When
// the AVR resets (a brown-out, a watchdog, someone reopening its port), it forgets every pin
// mode, the I2C setup and the input reports Johnny-Five asked for, boots, and announces its
// Firmata version again. Johnny-Five does not notice on its own, so this session watches for
// that second version report (or the port closing), then reopens the board (on an Uno,
// opening the port resets it once more: the boot is clean) and builds the components again.
//
// The clock is told before and after (`'reset'`, `'hardware'`): firmware-ts/clock-firmware.ts
// pauses a running clock at the instant the reset is seen (stamped where it arrives,
// docs/architecture.md rule 2) and repaints its state, the one in its snapshot, on the new
// board. docs/firmware.md "When the Arduino resets" says why the clock pauses.
import { EventEmitter } from 'node:events';
import { connectHardware, type BoardSource, type Hardware } from './board.ts';
import type { HardwareMap } from './hardware-map.ts';

export interface BoardSessionOptions {
  /** Opens the board; called again for every reconnect. A port path, or a Johnny-Five IO. */
  open: () => BoardSource;
  map: HardwareMap;
  /** Bound on each wait for StandardFirmata's handshake (default 15 s). */
  timeoutMs?: number;
  /** Wait before retrying a failed reconnect (default 1 s). */
  retryMs?: number;
}

type FirmataLike = EventEmitter & { transport?: EventEmitter & { close?: (cb?: () => void) => void; isOpen?: boolean } };

export class BoardSession extends EventEmitter {
  hardware!: Hardware;
  /** Reconnects done after a reset or a lost port. */
  reconnects = 0;
  private io: FirmataLike | null = null;
  private closed = false;
  private reconnecting = false;

  private constructor(private readonly options: BoardSessionOptions) {
    super();
  }

  /** Connects to the board; resolves once Johnny-Five is ready and the components exist. */
  static async connect(options: BoardSessionOptions): Promise<BoardSession> {
    const session = new BoardSession(options);
    await session.attach();
    return session;
  }

  close(): void {
    this.closed = true;
    this.release();
  }

  private async attach(): Promise<void> {
    const hardware = await connectHardware(this.options.open(), this.options.map, this.options.timeoutMs);
    const io = (hardware.board as unknown as { io: FirmataLike }).io;
    this.hardware = hardware;
    this.io = io;
    // A version report after the handshake: the board rebooted under us.
    io.on('reportversion', () => this.lost(io, 'the board reset (it announced its Firmata version again)'));
    io.on('close', () => this.lost(io, "the board's port closed"));
    io.on('disconnect', () => this.lost(io, 'the board was disconnected'));
  }

  private release(): void {
    const io = this.io;
    this.io = null;
    if (!io) return;
    io.removeAllListeners('reportversion');
    io.removeAllListeners('close');
    io.removeAllListeners('disconnect');
    if (io.transport?.isOpen !== false) io.transport?.close?.();
  }

  private lost(io: FirmataLike, why: string): void {
    if (this.closed || this.reconnecting || io !== this.io) return;
    this.reconnecting = true;
    this.emit('reset', why);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    while (!this.closed) {
      this.release();
      try {
        await this.attach();
        this.reconnects++;
        this.reconnecting = false;
        this.emit('hardware', this.hardware);
        return;
      } catch (err) {
        this.emit('retry', err as Error);
        await new Promise((r) => setTimeout(r, this.options.retryMs ?? 1000));
      }
    }
  }
}

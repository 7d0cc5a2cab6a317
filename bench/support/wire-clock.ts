// A light clock for the host-ceiling bench (bench/host-ceiling.bench.ts): the real link
// (protocol/link.ts as the clock: Hello, outbox, seq, window, acks, time sync answered from
// its own monotonic time) and the rule book's clock core (rules/clock-core.ts: the times of
// each press as the statechart computes them), with the event bodies the firmware sends
// (firmware-ts/host-link.ts clockEventBody). What is left out is the firmware adapter — the
// menu statechart, the display and the snapshot after each press — which costs ~0.2 ms per
// press (docs/load.md) and would make the load generator, not the host, the limit: one core
// cannot offer 20,000 presses/s through it. This is a load generator, not a clock to play on.
import type { Duplex } from 'node:stream';
import { Nack_Code, type Configure } from '../../protocol/gen/chessclock_pb.ts';
import { createLink, type BodyInit, type Link, type ReceivedMessage } from '../../protocol/session-api.ts';
import { timeControlFromProto } from '../../protocol/time-control-codec.ts';
import type { Side } from '../../protocol/time-control.ts';
import { completeMove, startClock } from '../../rules/clock-core.ts';
import { readClock } from '../../rules/clock-reading.ts';
import { initialClock, type ClockState } from '../../rules/clock-state.ts';
import { clockEventBody } from '../../firmware-ts/host-link.ts';

/** One monotonic time base shared by every process of the bench (CLOCK_MONOTONIC). */
export const systemMonotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export class WireClock {
  readonly link: Link;
  private clock: ClockState | null = null;
  /** The game the host configured (ConfigureAck sent); null before. */
  gameId: string | null = null;
  presses = 0;
  acked = 0;
  /** Sends that failed (link closed before the ack): must stay 0 in a clean run. */
  failed = 0;
  private readonly t0 = performance.now();

  constructor(
    readonly serialId: string,
    duplex: Duplex,
    bootId: number,
  ) {
    this.link = createLink(duplex, {
      role: 'clock',
      identity: { serialId, firmwareVersion: 'bench-wire-clock', bootId },
      time: { now: () => this.now(), setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
    });
    this.link.on('message', (m: ReceivedMessage) => this.onMessage(m));
  }

  /** The clock's own time base: ms since it booted (the link's at_ms and time sync read it). */
  now(): number {
    return Math.floor(performance.now() - this.t0);
  }

  private onMessage(m: ReceivedMessage): void {
    if (m.body.case !== 'configure') return;
    const cfg = m.body.value as Configure;
    if (this.clock && this.clock.startedAt !== null) {
      this.send({ case: 'nack', value: { refusedSeq: m.seq, code: Nack_Code.NOT_NOW, reason: 'the clock is running' } } as BodyInit);
      return;
    }
    this.clock = initialClock(timeControlFromProto(cfg), this.now());
    this.gameId = cfg.gameId;
    this.send({ case: 'configureAck', value: { gameId: cfg.gameId } } as BodyInit);
  }

  /** Starts the game (the STARTED event). */
  start(): void {
    if (!this.clock) throw new Error(`${this.serialId}: not configured`);
    const at = this.now();
    this.clock = startClock(this.clock, at);
    const r = readClock(this.clock, at);
    this.emit({ type: 'started', at, sessionAt: this.clock.startedAt ?? at, white: r.white, black: r.black }, r);
  }

  /**
   * The player on move presses: the rule book completes the move, and the MOVED event goes to
   * the host. `onAck` is called when the host acknowledged it (journaled).
   */
  press(onAck?: () => void): { side: Side; move: number } {
    if (!this.clock) throw new Error(`${this.serialId}: not configured`);
    const at = this.now();
    const side = this.clock.turn;
    this.clock = completeMove(this.clock, at);
    const move = this.clock[side].moves;
    const r = readClock(this.clock, at);
    this.emit({ type: 'move', at, side, move, white: r.white, black: r.black }, r, onAck);
    this.presses++;
    return { side, move };
  }

  private emit(out: Parameters<typeof clockEventBody>[0], r: ReturnType<typeof readClock>, onAck?: () => void): void {
    const body = clockEventBody(out, r.status, { white: r.white, black: r.black }, this.clock!);
    if (body) this.send(body, onAck);
  }

  private send(body: BodyInit, onAck?: () => void): void {
    this.link.send(body).then(
      () => {
        this.acked++;
        onAck?.();
      },
      () => this.failed++,
    );
  }

  close(): void {
    this.link.close('bench over');
  }
}

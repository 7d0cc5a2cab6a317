// What the MQTT publisher's tests share: clients that are closed after each test, a board's
// clock event and live state, and waiting for a condition (publisher-thread.test.ts,
// publisher-storage-fault.test.ts).
import { afterEach } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { ClockEventRecord, LiveClockState } from '../../app/ports.ts';

/** Undone after each test, the last first. */
export const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An MQTT client that reconnects quickly, ended after the test. */
export function client(url: string, clientId: string): MqttClient {
  const c = mqtt.connect(url, { clientId, reconnectPeriod: 100 });
  cleanups.push(() => c.endAsync(true));
  return c;
}

export interface TestBoard {
  readonly clockId: string;
  readonly event: string;
  readonly round: number;
  readonly board: number;
}

/** The board's `seq`-th move, players alternating. */
export function movedEvent(b: TestBoard, seq: number): ClockEventRecord {
  return {
    clockId: b.clockId,
    bootId: 'boot-a',
    seq,
    event: b.event,
    round: b.round,
    board: b.board,
    type: 'moved',
    side: seq % 2 === 0 ? 'white' : 'black',
    move: seq,
    whiteMs: 900_000 - seq * 1000,
    blackMs: 900_000 - seq * 900,
    monoMs: seq * 1000,
    utcMs: 1_750_000_000_000 + seq * 1000,
  };
}

/** A running game's live state after event `e`. */
export function runningState(e: ClockEventRecord): LiveClockState {
  return {
    clockId: e.clockId,
    bootId: e.bootId,
    seq: e.seq,
    status: 'running',
    turn: 'white',
    whiteMs: e.whiteMs ?? 0,
    blackMs: e.blackMs ?? 0,
    atUtcMs: e.utcMs,
    moves: { white: e.seq, black: e.seq },
    flag: null,
    period: { white: 1, black: 1 },
    present: { white: true, black: true },
    flags: [],
    startedAtUtcMs: 1_750_000_000_000,
  };
}

/** Resolves once `check` holds (polled every 10 ms); fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Real serial ports: a socat pty pair opened with the real `serialport` package at 115200
// baud on both ends; handshake, configuration, 1,000 events and time sync across it.
// Skips locally without socat (naming the Debian package); never skips when CI is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPtyPair, ptySkipReason, type PtyPair } from './pty.ts';
import { openSerialLink, type SerialLink } from './session-serial.ts';
import { systemTime, type TimeSource } from './monotonic.ts';
import type { ReceivedMessage } from './link-types.ts';
import { ClockEvent_Kind, Side } from './gen/chessclock_pb.ts';
import { timeControlToProto } from './time-control-codec.ts';
import { presetTimeControl } from './time-control.ts';

const skip = ptySkipReason();
if (skip) console.warn(skip);

/** The clock's time base: host time plus a known offset, so the estimate can be checked. */
const CLOCK_OFFSET_MS = 7_654_321.25;
const clockTime: TimeSource = { ...systemTime, now: () => systemTime.now() + CLOCK_OFFSET_MS };

describe.skipIf(skip !== null)('Link over a socat pty pair with serialport at 115200 baud', () => {
  let pty: PtyPair;
  let clock: SerialLink;
  let host: SerialLink;

  beforeAll(async () => {
    pty = await openPtyPair();
    host = await openSerialLink(pty.b, { role: 'host', autoSync: { phaseExchanges: 64, phaseIntervalMs: 10, intervalMs: 200 } });
    clock = await openSerialLink(pty.a, {
      role: 'clock',
      time: clockTime,
      identity: { serialId: 'CC-PTY-1', firmwareVersion: '0.1.0', bootId: 0x5eed, capabilities: ['delay'] },
    });
  });

  afterAll(async () => {
    await clock?.close();
    await host?.close();
    await pty?.close();
  });

  it('opens both ends at 115200 baud and completes the handshake', async () => {
    expect(clock.port.baudRate).toBe(115_200);
    expect(host.port.baudRate).toBe(115_200);
    await Promise.all([clock.link.ready, host.link.ready]);
    expect(host.link.peerHello).toMatchObject({ serialId: 'CC-PTY-1', bootId: 0x5eed, protocolMajor: 1 });
  });

  it('configures the clock: Configure is answered by ConfigureAck with the same game id', async () => {
    // The clock application (a few lines here; firmware-ts/ in real life).
    const answering = (async () => {
      for await (const m of clock.link) {
        if (m.body.case === 'configure') {
          await clock.link.send({ case: 'configureAck', value: { gameId: m.body.value.gameId } });
          return m.body.value;
        }
      }
      return null;
    })();
    const acked = (async () => {
      for await (const m of host.link) if (m.body.case === 'configureAck') return m.body.value.gameId;
      return null;
    })();
    await host.link.send({
      case: 'configure',
      value: {
        gameId: 'R3-B7',
        event: 'Club championship',
        round: '3',
        board: '7',
        whitePlayer: 'Ana',
        blackPlayer: 'Bor',
        ...timeControlToProto(presetTimeControl('rapid')),
      },
    });
    const configured = await answering;
    expect(configured?.white?.stages[0]).toMatchObject({ baseMs: 900_000, incrementMs: 10_000 });
    expect(await acked).toBe('R3-B7');
  });

  it('carries 1,000 moved events exactly once and in order', async () => {
    const got: ReceivedMessage[] = [];
    const all = new Promise<void>((resolve) => {
      const on = (m: ReceivedMessage) => {
        if (m.body.case !== 'clockEvent') return;
        got.push(m);
        if (got.length === 1000) {
          host.link.off('message', on);
          resolve();
        }
      };
      host.link.on('message', on);
    });
    const sends: Promise<void>[] = [];
    const first = clock.link.outbox.nextSeq;
    for (let i = 0; i < 1000; i++) {
      sends.push(
        clock.link.send({
          case: 'clockEvent',
          value: {
            kind: ClockEvent_Kind.MOVED,
            side: i % 2 ? Side.BLACK : Side.WHITE,
            atMs: 50_000 + i,
            moveNumber: 1 + (i >> 1),
            whiteMs: 900_000 - i,
            blackMs: 900_000 - i,
          },
        }),
      );
    }
    await Promise.all([...sends, all]);
    expect(got.map((m) => m.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => first + i));
    expect(got.map((m) => (m.body.value as { atMs: number }).atMs)).toEqual(Array.from({ length: 1000 }, (_, i) => 50_000 + i));
    expect(clock.link.outbox.size).toBe(0);
    expect(host.link.counters.badCrc).toBe(0);
  });

  it('time sync across the ptys finds the known clock offset within its stated uncertainty', async () => {
    // At least 64 samples, and (on a loaded machine, where a round trip can take tens of ms) until
    // one quick round trip brought the uncertainty under 10 ms: bounded, not a fixed wait.
    const settled = () => {
      const est = host.link.timeSync?.estimate();
      return est !== undefined && est !== null && est.samples >= 64 && est.uncertaintyMs < 10;
    };
    for (let waited = 0; !settled() && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const e = host.link.timeSync!.estimate()!;
    expect(e.samples).toBeGreaterThanOrEqual(64);
    // Host and clock share this machine's monotonic clock, so the true offset is exactly
    // CLOCK_OFFSET_MS; integer-ms stamps and pty scheduling are all the error there is.
    expect(Math.abs(e.offsetMs - CLOCK_OFFSET_MS)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeLessThan(10);
    const stamp = Math.floor(clockTime.now());
    expect(Math.abs(host.link.timeSync!.clockToHostMs(stamp) - (stamp - CLOCK_OFFSET_MS))).toBeLessThanOrEqual(e.uncertaintyMs + 1);
  }, 60_000);
});

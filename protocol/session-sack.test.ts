// Selective acknowledgement (protocol 1.3; docs/protocol.md "Selective acknowledgement"):
// the receiver says which messages after a gap arrived; the sender never resends those and
// resends at once each hole sent before one of them. Negotiated by the protocol minor: a 1.2
// peer on either side gets cumulative acks only, and every pairing delivers each message once,
// in order, over a line that drops one chunk in ten each way (the modelled 115,200-baud line).
import { describe, expect, it } from 'vitest';
import { createLink } from './link.ts';
import type { ReceivedMessage } from './link-types.ts';
import { FakeTime } from './testing/fake-time.ts';
import { createLossyPair } from './lossy-line.ts';
import { Outbox } from './outbox.ts';
import { Session, type SessionIo } from './session.ts';
import { OUR_VERSION, SACK_MINOR } from './handshake.ts';
import { ClockEvent_Kind, Side } from './gen/chessclock_pb.ts';

const text = { encode: (b: string) => new TextEncoder().encode(b), decode: (bytes: Uint8Array) => new TextDecoder().decode(bytes) };

function sender(time: FakeTime) {
  const outbox = new Outbox<string>({ bootId: 7, codec: text });
  const sent: { seq: number; at: number }[] = [];
  const io: SessionIo<string> = {
    transmit: (seq) => {
      if (seq > 0) sent.push({ seq, at: time.now() });
    },
    deliver: () => {},
    acked: () => {},
    failed: (err) => {
      throw err;
    },
  };
  const session = new Session<string>(time, outbox, 7, 1, io, { sack: true, initialRtoMs: 1_000, minRtoMs: 1_000 });
  return { outbox, session, sent };
}

describe('selective acks in the session (protocol 1.3)', () => {
  it('a sacked message is never resent; the holes sent before it are resent at once, without waiting for the RTO', async () => {
    const time = new FakeTime();
    const s = sender(time);
    for (let i = 1; i <= 6; i++) s.outbox.accept(`m${i}`);
    s.session.pump();
    expect(s.sent.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // The receiver has 1; 2 and 4 were lost; 3, 5 and 6 arrived (bits for 3 = ack+2, 5, 6).
    time.advance(10);
    s.session.onAck(1, 0b1101);
    expect(s.sent.slice(6).map((x) => x.seq)).toEqual([2, 4]);
    expect(s.session.counters.sacked).toBe(3);
    // The same evidence again resends nothing more.
    s.session.onAck(1, 0b1101);
    expect(s.sent).toHaveLength(8);
    // RTOs pass with 2 and 4 lost again: only they are resent, never 3, 5, 6.
    for (let i = 0; i < 4; i++) time.advance(5_000);
    const resent = new Set(s.sent.slice(6).map((x) => x.seq));
    expect([...resent].sort()).toEqual([2, 4]);
    // The cumulative ack frees everything.
    s.session.onAck(6);
    expect(s.session.inFlightCount).toBe(0);
    s.session.stop();
  });

  it('without selective acks the same loss is resent one hole per round trip (the 1.2 behaviour)', async () => {
    const time = new FakeTime();
    const s = sender(time);
    for (let i = 1; i <= 6; i++) s.outbox.accept(`m${i}`);
    s.session.pump();
    time.advance(10);
    s.session.onAck(1); // a 1.2 receiver: no bits
    expect(s.sent).toHaveLength(6); // nothing resent before the RTO
    s.session.stop();
  });
});

function moved(i: number) {
  return {
    case: 'clockEvent' as const,
    value: {
      kind: ClockEvent_Kind.MOVED,
      side: i % 2 ? Side.BLACK : Side.WHITE,
      atMs: 1_000 + i,
      moveNumber: 1 + (i >> 1),
      whiteMs: 900_000 - i,
      blackMs: 900_000 - i,
    },
  };
}

async function transfer(clockMinor: number, hostMinor: number, n = 600) {
  const time = new FakeTime();
  const pair = createLossyPair({ seed: 1303, time, impairment: { drop: 0.1 }, latencyMs: 1, bytesPerMs: 11.52 });
  const clock = createLink(pair.a, {
    role: 'clock',
    time,
    identity: { serialId: 'CC-SACK', firmwareVersion: '0.1.0', bootId: 99 },
    outboxCapacity: n + 10,
    version: { major: 1, minor: clockMinor },
  });
  const host = createLink(pair.b, { role: 'host', time, autoSync: false, version: { major: 1, minor: hostMinor } });
  const got: number[] = [];
  host.on('message', (m: ReceivedMessage) => {
    if (m.body.case === 'clockEvent') got.push(m.body.value.atMs - 1_000);
  });
  await time.runUntil(() => clock.state === 'up' && host.state === 'up', 60_000);
  let acked = 0;
  for (let i = 0; i < n; i++) void clock.send(moved(i)).then(() => acked++);
  await time.runUntil(() => acked === n && got.length >= n, 3_600_000);
  const out = { got, clockSacked: clock.counters.sacked, hostSacked: host.counters.sacked, agreed: host.agreedVersion };
  clock.close();
  host.close();
  return out;
}

describe('selective acks negotiated by protocol minor, over a line losing 10% of chunks each way', () => {
  const pairings: Array<[string, number, number, boolean]> = [
    [`1.${OUR_VERSION.minor} clock and host: selective acks`, OUR_VERSION.minor, OUR_VERSION.minor, true],
    [`1.${SACK_MINOR - 1} clock, 1.${OUR_VERSION.minor} host: cumulative acks only`, SACK_MINOR - 1, OUR_VERSION.minor, false],
    [`1.${OUR_VERSION.minor} clock, 1.${SACK_MINOR - 1} host: cumulative acks only`, OUR_VERSION.minor, SACK_MINOR - 1, false],
  ];
  for (const [name, clockMinor, hostMinor, sack] of pairings) {
    it(`${name}: every message once, in order`, async () => {
      const r = await transfer(clockMinor, hostMinor);
      expect(r.got).toEqual(Array.from({ length: 600 }, (_, i) => i));
      expect(r.agreed).toEqual({ major: 1, minor: Math.min(clockMinor, hostMinor) });
      // The clock sends; only the host acks its messages, selectively when both speak 1.3.
      if (sack) expect(r.clockSacked).toBeGreaterThan(0);
      else expect(r.clockSacked).toBe(0);
    }, 60_000);
  }
});

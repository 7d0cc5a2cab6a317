import { describe, expect, it } from 'vitest';
import { FakeTime } from './testing/fake-time.ts';
import { Outbox, type OutboxCodec } from './outbox.ts';
import { Session, SessionTimeoutError, type SessionOptions } from './session.ts';

// Two sessions wired frame-to-frame through a hand-controlled "wire" (no bytes, no
// streams): the tests decide which frames get lost, duplicated or reordered.
const text: OutboxCodec<string> = { encode: (s) => new TextEncoder().encode(s), decode: (b) => new TextDecoder().decode(b) };

interface Frame {
  from: 'a' | 'b';
  seq: number;
  ack: number;
  body: string | null;
}

function pair(opts: SessionOptions = {}) {
  const time = new FakeTime(1_000);
  const wire: Frame[] = [];
  const got = { a: [] as string[], b: [] as string[] };
  const failures: Error[] = [];
  const acked: number[] = [];
  const make = (me: 'a' | 'b', bootId: number) => {
    const outbox = new Outbox<string>({ bootId, codec: text, capacity: 100_000 });
    const session = new Session<string>(
      time,
      outbox,
      bootId,
      1,
      {
        transmit: (seq, ack, body) => wire.push({ from: me, seq, ack, body }),
        deliver: (body) => got[me].push(body),
        acked: (entries) => acked.push(...entries.map((e) => e.seq)),
        failed: (err) => failures.push(err),
      },
      opts,
    );
    return { outbox, session };
  };
  const a = make('a', 11);
  const b = make('b', 22);
  /** Delivers queued frames; `fate` may drop ('drop'), keep, or duplicate ('dup') each one. */
  const deliver = (fate: (f: Frame, i: number) => 'ok' | 'drop' | 'dup' = () => 'ok') => {
    let i = 0;
    while (wire.length > 0) {
      const f = wire.shift()!;
      const to = f.from === 'a' ? b.session : a.session;
      const verdict = fate(f, i++);
      const times = verdict === 'drop' ? 0 : verdict === 'dup' ? 2 : 1;
      for (let k = 0; k < times; k++) {
        to.onAck(f.ack);
        if (f.seq > 0) to.onMessage(f.seq, f.body);
      }
    }
  };
  return { time, wire, got, failures, acked, a, b, deliver };
}

describe('Session: sequence numbers, cumulative acks, retransmission (docs/protocol.md "Session")', () => {
  it('delivers in order, exactly once, and drains the outbox when the line is perfect', () => {
    const p = pair();
    for (let i = 1; i <= 100; i++) p.a.outbox.accept(`m${i}`);
    p.a.session.pump();
    expect(p.a.session.inFlightCount).toBe(32); // the window
    for (let round = 0; round < 20 && p.a.outbox.size > 0; round++) {
      p.deliver();
      p.time.advance(10); // ack delay
      p.deliver();
    }
    expect(p.got.b).toEqual(Array.from({ length: 100 }, (_, i) => `m${i + 1}`));
    expect(p.a.outbox.size).toBe(0);
    expect(p.a.session.counters.retransmits).toBe(0);
    expect(p.acked).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('retransmits a lost message after the RTO and the receiver holds the ones after the gap', () => {
    const p = pair();
    for (const m of ['x1', 'x2', 'x3']) p.a.outbox.accept(m);
    p.a.session.pump();
    p.deliver((f) => (f.seq === 1 ? 'drop' : 'ok'));
    expect(p.got.b).toEqual([]);
    expect(p.b.session.counters.outOfOrderHeld).toBe(2);
    p.time.advance(250); // initial RTO
    expect(p.a.session.counters.retransmits).toBe(1);
    p.deliver();
    expect(p.got.b).toEqual(['x1', 'x2', 'x3']);
    p.time.advance(10);
    p.deliver();
    expect(p.a.outbox.size).toBe(0);
  });

  it('drops duplicates and answers them with an immediate ack (the sender missed ours)', () => {
    const p = pair();
    p.a.outbox.accept('once');
    p.a.session.pump();
    p.deliver((f) => (f.from === 'a' ? 'dup' : 'ok'));
    expect(p.got.b).toEqual(['once']);
    expect(p.b.session.counters.duplicatesDropped).toBe(1);
    expect(p.b.session.counters.acksSent).toBe(1);
    expect(p.a.outbox.size).toBe(0);
  });

  it('backs off exponentially and gives up after maxRetransmits with an error that says what', () => {
    const p = pair({ initialRtoMs: 100, maxRtoMs: 100_000, maxRetransmits: 3 });
    p.a.outbox.accept('into the void');
    p.a.session.pump();
    const sentAt: number[] = [];
    for (let t = 0; t < 2_000; t++) {
      const before = p.wire.length;
      p.time.advance(1);
      if (p.wire.length > before) sentAt.push(p.time.now());
    }
    expect(sentAt).toEqual([1_100, 1_300, 1_700]); // RTO 100, then ×2 each time (RFC 6298 §5.5)
    expect(p.failures).toHaveLength(1);
    expect(p.failures[0]).toBeInstanceOf(SessionTimeoutError);
    expect(p.failures[0].message).toMatch(/boot 11 seq 1 after 4 transmissions over 1500 ms/);
    expect(p.a.outbox.entries().map((e) => e.body)).toEqual(['into the void']); // not lost
  });

  it('ignores an ack for a seq never sent (it must not drop unreceived messages)', () => {
    const p = pair();
    p.a.outbox.accept('m');
    p.a.session.pump();
    p.a.session.onAck(5);
    expect(p.a.outbox.size).toBe(1);
    expect(p.a.session.counters.bogusAcks).toBe(1);
  });

  it('drops messages too far ahead of the gap, counts them, and still recovers', () => {
    const p = pair({ receiveWindow: 4, window: 8 });
    for (let i = 1; i <= 8; i++) p.a.outbox.accept(`m${i}`);
    p.a.session.pump();
    p.deliver((f) => (f.seq === 1 ? 'drop' : 'ok'));
    expect(p.b.session.counters.outOfOrderHeld).toBe(3); // 2,3,4
    expect(p.b.session.counters.outOfOrderDropped).toBe(4); // 5..8
    for (let i = 0; i < 40 && p.a.outbox.size > 0; i++) {
      p.time.advance(50);
      p.deliver();
    }
    expect(p.got.b).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8']);
  });

  it('size rule: a new ack value rides on the next few frames, then is left out (0)', () => {
    const p = pair({ ackRepeats: 2 });
    p.b.outbox.accept('cfg');
    p.b.session.pump();
    p.deliver(); // a receives seq 1 → a's ack value is 1
    for (const m of ['e1', 'e2', 'e3']) p.a.outbox.accept(m);
    p.a.session.pump();
    expect(p.wire.filter((f) => f.from === 'a').map((f) => f.ack)).toEqual([1, 1, 0]);
  });

  it('an unknown (newer minor) message takes its place in the sequence but is not delivered', () => {
    const p = pair();
    p.b.session.onMessage(1, 'first');
    p.b.session.onMessage(3, 'third');
    p.b.session.onMessage(2, null);
    expect(p.got.b).toEqual(['first', 'third']);
    expect(p.b.session.ackValue).toBe(3);
  });
});

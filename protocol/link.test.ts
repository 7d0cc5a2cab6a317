import { describe, expect, it } from 'vitest';
import type { Duplex } from 'node:stream';
import { createLink } from './link.ts';
import { LinkClosedError, type LinkOptions, type ReceivedMessage } from './link-types.ts';
import { FakeTime, settle } from './testing/fake-time.ts';
import { createLossyPair, type Impairment } from './lossy-line.ts';
import { MemoryOutboxStore } from './outbox.ts';
import { SessionTimeoutError } from './session.ts';
import { VersionMismatchError } from './handshake.ts';
import { envelope } from './codec.ts';
import { encodeFrame, slipEncode } from './frame-encoder.ts';
import { FrameParser } from './frame-decoder.ts';
import { crc16 } from './crc.ts';
import { ClockEvent_Kind, Command_Kind, Nack_Code, Side } from './gen/chessclock_pb.ts';
import type { Envelope } from './codec.ts';
import { timeControlToProto } from './time-control-codec.ts';
import { presetTimeControl } from './time-control.ts';

const identity = (bootId: number) => ({ serialId: 'CC-0042', firmwareVersion: '0.1.0', bootId, capabilities: ['battery'] });

/** Deterministic uint32s for session ids and the host's boot id. */
function counter(start: number) {
  let n = start;
  return () => (n = (n * 1103515245 + 12345) >>> 0);
}

function moved(i: number) {
  return {
    case: 'clockEvent' as const,
    value: {
      kind: ClockEvent_Kind.MOVED,
      side: i % 2 ? Side.BLACK : Side.WHITE,
      atMs: 1000 + i * 10,
      moveNumber: 1 + (i >> 1),
      whiteMs: 300_000 - i,
      blackMs: 300_000 - i,
      status: 0,
    },
  };
}

function setup(
  opts: { seed?: number; impairment?: Impairment; clock?: Partial<LinkOptions>; host?: Partial<LinkOptions>; latencyMs?: number; time?: FakeTime } = {},
) {
  const time = opts.time ?? new FakeTime(10_000);
  const pair = createLossyPair({ seed: opts.seed ?? 1, time, impairment: opts.impairment, latencyMs: opts.latencyMs ?? 1 });
  const clock = createLink(pair.a, { role: 'clock', time, identity: identity(0xc10c), random: counter(1), ...opts.clock });
  const host = createLink(pair.b, { role: 'host', time, autoSync: false, random: counter(2), ...opts.host });
  const got = { clock: [] as ReceivedMessage[], host: [] as ReceivedMessage[] };
  clock.on('message', (m: ReceivedMessage) => got.clock.push(m));
  host.on('message', (m: ReceivedMessage) => got.host.push(m));
  return { time, pair, clock, host, got };
}

describe('Link handshake and delivery (docs/protocol.md "Session", "Handshake and versioning")', () => {
  it('a clock refused with Nack INVALID greets again after its wait and goes up once admitted; without the option the refusal closes it', async () => {
    // docs/protocol.md "Handshake and versioning": a clock whose id another line carries is
    // refused, and greets again, so that the arbiter may take it as the replacement.
    const t = setup({ clock: { greetAgainAfterRefusal: { initialMs: 5_000, maxMs: 30_000 } }, host: { admit: () => 'serial id CC-0042 is already online' } });
    const refusals: { at: number; why: string }[] = [];
    t.clock.on('refused', (err: Error) => refusals.push({ at: t.time.now(), why: err.message }));
    await t.time.runUntil(() => t.host.state === 'closed' && t.clock.refusedBecause !== null);
    expect(t.clock.state).toBe('connecting');
    expect(t.clock.refusedBecause?.message).toMatch(/already online/);
    // The host's line reopens (its session machine does) and this time admits the clock.
    const again = createLink(t.pair.b, { role: 'host', time: t.time, autoSync: false, random: counter(3) });
    await t.time.runUntil(() => t.clock.state === 'up' && again.state === 'up');
    expect(t.time.now() - refusals[0].at).toBeGreaterThanOrEqual(5_000);
    expect(t.clock.refusedBecause).toBeNull();

    const plain = setup({ host: { admit: () => 'not this clock' } });
    await plain.time.runUntil(() => plain.clock.state === 'closed');
    expect(plain.clock.closedBecause?.message).toMatch(/not this clock/);
  });

  it('clock greets, host answers, both go up; events and commands flow both ways', async () => {
    const t = setup();
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.state === 'up');
    await expect(t.clock.ready).resolves.toBeUndefined();
    expect(t.host.peerHello).toMatchObject({
      serialId: 'CC-0042',
      firmwareVersion: '0.1.0',
      bootId: 0xc10c,
      protocolMajor: 1,
      firstSeq: 1,
      capabilities: ['battery'],
    });
    const sent = t.clock.send(moved(0));
    const cmd = t.host.send({ case: 'command', value: { kind: Command_Kind.PAUSE } });
    let done = false;
    void Promise.all([sent, cmd]).then(() => (done = true));
    await t.time.runUntil(() => done);
    expect(t.got.host.map((m) => [m.body.case, m.seq, m.bootId])).toEqual([['clockEvent', 1, 0xc10c]]);
    expect(t.got.clock.map((m) => [m.body.case, m.seq])).toEqual([['command', 1]]);
    expect(t.clock.outbox.size).toBe(0);
    expect(t.host.outbox.size).toBe(0);
  });

  it('10,000 events at 10% chunk loss (plus corruption, duplication, splits, delay) arrive exactly once, in order; the outbox drains', async () => {
    // Fake time: the whole transfer takes ~2 s of CPU; the printed figure is fake line time.
    const impairment: Impairment = { drop: 0.1, corrupt: 0.02, duplicate: 0.02, split: 0.05, delay: 0.05, maxDelayMs: 20 };
    const t = setup({ seed: 20261129, impairment, latencyMs: 2, clock: { outboxCapacity: 20_000 } });
    const N = 10_000;
    let acked = 0;
    for (let i = 0; i < N; i++) void t.clock.send(moved(i)).then(() => acked++);
    const start = t.time.now();
    await t.time.runUntil(() => acked === N, 3_600_000);
    process.stdout.write(`lossy 10k: ${t.time.now() - start} ms of fake line time, ${t.clock.counters.retransmits} retransmits\n`);
    expect(t.got.host.length).toBe(N);
    const seqs = t.got.host.map((m) => m.seq);
    expect(seqs).toEqual(Array.from({ length: N }, (_, i) => i + 1)); // in order, no gaps, no repeats
    expect(t.got.host.map((m) => (m.body.value as { atMs: number }).atMs)).toEqual(Array.from({ length: N }, (_, i) => 1000 + i * 10));
    expect(t.clock.outbox.size).toBe(0);
    const c = t.clock.counters;
    const h = t.host.counters;
    expect(t.pair.stats.aToB.dropped).toBeGreaterThan(N * 0.08);
    expect(c.retransmits).toBeGreaterThan(0);
    expect(h.badCrc).toBeGreaterThan(0);
    expect(h.duplicatesDropped).toBeGreaterThan(0);
    expect(h.delivered).toBe(N);
  }, 60_000);

  it('send() rejects with a clear error when the peer stops acknowledging; the message stays in the outbox', async () => {
    const t = setup({ clock: { session: { initialRtoMs: 50, maxRetransmits: 4 } } });
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.state === 'up');
    t.host.close('host unplugged'); // host gone: nothing acks any more
    const p = t.clock.send(moved(1));
    let err: unknown;
    p.catch((e) => (err = e));
    await t.time.runUntil(() => err !== undefined);
    expect(err).toBeInstanceOf(SessionTimeoutError);
    expect(String(err)).toMatch(/did not acknowledge boot 49420 seq 1 after 5 transmissions/);
    expect(t.clock.outbox.entries()).toHaveLength(1);
    expect(t.clock.state).toBe('closed');
  });

  it('close() rejects pending sends and ends the async iterator', async () => {
    const t = setup();
    await t.time.runUntil(() => t.host.state === 'up');
    const seen: ReceivedMessage[] = [];
    const iterating = (async () => {
      for await (const m of t.host) seen.push(m);
    })();
    void t.clock.send(moved(0));
    await t.time.runUntil(() => seen.length === 1);
    const p = t.host.send({ case: 'command', value: { kind: Command_Kind.START } });
    t.host.close();
    await expect(p).rejects.toBeInstanceOf(LinkClosedError);
    await iterating;
    expect(seen.map((m) => m.seq)).toEqual([1]);
  });

  it('refuses to accept an invalid or oversized message up front (nothing invalid enters the outbox)', async () => {
    const t = setup();
    await expect(t.clock.send({ case: 'clockEvent', value: { kind: ClockEvent_Kind.MOVED } })).rejects.toThrow(/clock_event\.side/);
    const long = 'x'.repeat(128);
    await expect(
      t.host.send({
        case: 'configure',
        value: { gameId: long, event: long, round: long, board: long, whitePlayer: long, blackPlayer: long, ...timeControlToProto(presetTimeControl('rapid')) },
      }),
    ).rejects.toThrow(/exceeds the 512-byte maximum/);
    await expect(t.clock.send({ case: 'hello', value: {} })).rejects.toThrow(/not an application message/);
    expect(t.clock.outbox.entries().every((e) => e.body.case !== 'hello')).toBe(true);
  });
});

describe('versioning (docs/protocol.md "Handshake and versioning")', () => {
  it('a clock speaking protocol 2 gets a Nack naming both versions, and neither link goes up', async () => {
    const t = setup({ clock: { version: { major: 2, minor: 1 } } });
    const nacks: Envelope[] = [];
    const spy = new FrameParser();
    t.pair.b.on('data', () => {}); // (the host link reads b)
    const origWrite = t.pair.b.write.bind(t.pair.b);
    (t.pair.b as Duplex).write = ((chunk: Uint8Array) => {
      nacks.push(...spy.push(chunk).filter((e) => e.body.case === 'nack'));
      return origWrite(chunk);
    }) as Duplex['write'];
    await t.time.runUntil(() => t.host.state === 'closed' && t.clock.state === 'closed');
    await expect(t.host.ready).rejects.toBeInstanceOf(VersionMismatchError);
    await expect(t.clock.ready).rejects.toThrow(/the clock sends frames of protocol 2\.x, this host speaks 1\.4/);
    expect(nacks[0].body).toMatchObject({ case: 'nack', value: { code: Nack_Code.UNSUPPORTED_VERSION } });
  });

  it('a Hello claiming major 2 inside a version-1 frame is refused the same way', async () => {
    const time = new FakeTime();
    const { a, b } = createLossyPair({ seed: 5, time });
    const host = createLink(b, { role: 'host', time, autoSync: false });
    const replies = new FrameParser();
    const got: Envelope[] = [];
    a.on('data', (c: Buffer) => got.push(...replies.push(c)));
    a.write(
      encodeFrame(
        envelope({
          body: { case: 'hello', value: { serialId: 'X', firmwareVersion: '9', protocolMajor: 2, protocolMinor: 0, bootId: 1, firstSeq: 1, sessionId: 7 } },
        }),
      ),
    );
    await time.runUntil(() => got.length > 0);
    expect(got[0].body).toMatchObject({
      case: 'nack',
      value: {
        code: Nack_Code.UNSUPPORTED_VERSION,
        reason: 'protocol version mismatch: the clock speaks 2.0, this host speaks 1.4; major versions must be equal (update the host software)',
      },
    });
    expect(host.state).toBe('closed');
  });

  it('a newer minor version: unknown body case and unknown fields are skipped, acked, not fatal', async () => {
    // The test plays a clock of protocol 1.5 (newer than this code's 1.4) by hand, writing raw protobuf bytes.
    const time = new FakeTime();
    const { a, b } = createLossyPair({ seed: 6, time });
    const host = createLink(b, { role: 'host', time, autoSync: false, random: counter(9) });
    const delivered: ReceivedMessage[] = [];
    host.on('message', (m: ReceivedMessage) => delivered.push(m));
    const fromHost = new FrameParser();
    const replies: Envelope[] = [];
    a.on('data', (c: Buffer) => replies.push(...fromHost.push(c)));
    a.write(
      encodeFrame(
        envelope({
          body: {
            case: 'hello',
            value: { serialId: 'CC-NEW', firmwareVersion: '1.5.0', protocolMajor: 1, protocolMinor: 5, bootId: 77, firstSeq: 1, sessionId: 5 },
          },
        }),
      ),
    );
    await time.runUntil(() => host.state === 'up');
    expect(host.agreedVersion).toEqual({ major: 1, minor: 4 });

    const frame = (payload: number[]) => {
      const content = [1, ...payload];
      const crc = crc16(Uint8Array.from(content));
      return slipEncode(Uint8Array.from([...content, crc >> 8, crc & 0xff]));
    };
    // seq 1 carries body field 14: a message type this host does not know (oneof case).
    //   08 01          field 1 (seq) varint 1
    //   72 03 08 2a 10 field 14, length 3: { field 1 = 42, field 2 = … }
    a.write(frame([0x08, 0x01, 0x72, 0x03, 0x08, 0x2a, 0x10]).subarray(0)); // (broken inner bytes are the newer peer's business)
    // seq 2: a moved ClockEvent with an extra field 19 (varint 7) the host does not know.
    //   08 02                     seq 2
    //   1a 0e                     field 3 clock_event, length 14
    //      10 01                  side WHITE
    //      18 e8 07               at_ms 1000
    //      20 01                  move_number 1
    //      98 01 07               field 19 varint 7   ← unknown (two-byte tag)
    //      28 05                  white_ms 5  (after the unknown field: parsing continues)
    a.write(frame([0x08, 0x02, 0x1a, 0x0e, 0x10, 0x01, 0x18, 0xe8, 0x07, 0x20, 0x01, 0x98, 0x01, 0x07, 0x28, 0x05, 0x30, 0x06]));
    await time.runUntil(() => delivered.length === 1 && replies.some((e) => e.ack === 2));
    expect(delivered[0].seq).toBe(2);
    expect(delivered[0].body).toMatchObject({ case: 'clockEvent', value: { side: Side.WHITE, atMs: 1000, moveNumber: 1, whiteMs: 5, blackMs: 6 } });
    expect(host.state).toBe('up');
  });
});

describe('reconnects and reboots keep every event, named by (boot id, seq)', () => {
  it('after a power cut, restored events are sent under their old boot id, then the clock greets with the new one', async () => {
    const time = new FakeTime(0);
    const store = new MemoryOutboxStore();
    // Boot 1: the line is dead (everything dropped), three events are accepted and persisted.
    const dead = createLossyPair({ seed: 1, time, impairment: { drop: 1 } });
    const boot1 = createLink(dead.a, { role: 'clock', time, identity: identity(111), outboxStore: store });
    for (let i = 0; i < 3; i++) void boot1.send(moved(i)).catch(() => {});
    time.advance(100);
    boot1.close('power cut');
    // Boot 2 with a fresh boot id, same flash.
    const line = createLossyPair({ seed: 2, time, latencyMs: 1 });
    const clock = createLink(line.a, { role: 'clock', time, identity: identity(222), outboxStore: store, random: counter(3) });
    const host = createLink(line.b, { role: 'host', time, autoSync: false, random: counter(4) });
    const got: ReceivedMessage[] = [];
    host.on('message', (m: ReceivedMessage) => got.push(m));
    const boots: number[] = [];
    host.on('up', (u: { peerBoot: number }) => boots.push(u.peerBoot));
    await time.runUntil(() => got.length === 3 && host.peerHello?.bootId === 222);
    void clock.send(moved(3));
    await time.runUntil(() => got.length === 4);
    expect(got.map((m) => [m.bootId, m.seq])).toEqual([
      [111, 1],
      [111, 2],
      [111, 3],
      [222, 1],
    ]);
    expect(boots).toEqual([111, 222]);
    await time.runUntil(() => clock.outbox.size === 0);
    expect(store.saved?.entries).toEqual([]);
  });

  it('host restart: the new host answers the orphaned event with Nack NOT_READY, the clock greets again, nothing is lost or doubled', async () => {
    const t = setup();
    await t.time.runUntil(() => t.host.state === 'up');
    await Promise.all([t.clock.send(moved(0)), t.time.runUntil(() => t.clock.outbox.size === 0)]);
    t.host.close('host process restarted');
    const host2 = createLink(t.pair.b, { role: 'host', time: t.time, autoSync: false, random: counter(99) });
    const got2: ReceivedMessage[] = [];
    host2.on('message', (m: ReceivedMessage) => got2.push(m));
    void t.clock.send(moved(1));
    void t.clock.send(moved(2));
    await t.time.runUntil(() => got2.length === 2);
    expect(got2.map((m) => [m.bootId, m.seq])).toEqual([
      [0xc10c, 2],
      [0xc10c, 3],
    ]);
    expect(t.got.host.map((m) => m.seq)).toEqual([1]);
    expect(host2.counters.nacksSent).toBeGreaterThanOrEqual(1);
  });

  it('host restart while the clock only sends heartbeats: a Status also triggers NOT_READY, the clock greets again', async () => {
    const t = setup();
    await t.time.runUntil(() => t.host.state === 'up' && t.clock.state === 'up');
    t.host.close('host process restarted');
    const host2 = createLink(t.pair.b, { role: 'host', time: t.time, autoSync: false, random: counter(98) });
    t.clock.post({ case: 'status', value: { atMs: 5, whiteMs: 1, blackMs: 2, turn: Side.WHITE } });
    await t.time.runUntil(() => host2.state === 'up' && t.clock.counters.handshakes === 2);
    expect(host2.peerHello?.serialId).toBe('CC-0042');
    expect(host2.counters.nacksSent).toBe(1);
  });

  it('reconnect to the same host: commands already executed are not delivered again (HelloAck boot id)', async () => {
    const t = setup({ impairment: {} });
    await t.time.runUntil(() => t.host.state === 'up');
    // The clock's ack for the command is lost: make the line drop clock→host for a while.
    void t.host.send({ case: 'command', value: { kind: Command_Kind.ADJUST, side: Side.WHITE, ms: 60_000 } });
    await t.time.runUntil(() => t.got.clock.length === 1);
    // The clock reconnects (same boot, same Link) before acking: force a new greeting.
    (t.clock as unknown as { startHandshake(): void }).startHandshake();
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.outbox.size === 0);
    await settle();
    expect(t.got.clock.map((m) => m.seq)).toEqual([1]); // the +60 s adjustment ran once
  });
});

describe('deferred acks: acknowledge only what the application has made durable', () => {
  it('nothing is acked until handled(); then acks advance in order, and nothing is delivered twice', async () => {
    const t = setup({ host: { deferAck: true } });
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.state === 'up');
    for (let i = 0; i < 3; i++) void t.clock.send(moved(i));
    await t.time.runUntil(() => t.got.host.length === 3);
    t.time.advance(1_000); // the clock's retransmissions come and are dropped as duplicates
    await settle();
    expect(t.clock.outbox.size).toBe(3);
    expect(t.got.host.map((m) => m.seq)).toEqual([1, 2, 3]);
    t.got.host[1].handled(); // out of order: seq 1 is not durable yet, so nothing can be acked
    t.time.advance(50);
    await settle();
    expect(t.clock.outbox.size).toBe(3);
    t.got.host[0].handled();
    await t.time.runUntil(() => t.clock.outbox.size === 1);
    t.got.host[2].handled();
    await t.time.runUntil(() => t.clock.outbox.size === 0);
    expect(t.got.host.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(t.host.counters.duplicatesDropped).toBeGreaterThan(0);
  });

  it('onMessage: acked when its promise resolves; a host that crashes before that gets the events again', async () => {
    const t = setup({ host: { deferAck: true, onMessage: () => new Promise<void>(() => {}) } }); // never durable
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.state === 'up');
    void t.clock.send(moved(0));
    void t.clock.send(moved(1));
    await t.time.runUntil(() => t.got.host.length === 2);
    t.host.close('host crashed before the journal write');
    const durable: number[] = [];
    const host2 = createLink(t.pair.b, {
      role: 'host',
      time: t.time,
      autoSync: false,
      deferAck: true,
      onMessage: async (m) => {
        durable.push(m.seq);
      },
      random: counter(77),
    });
    await t.time.runUntil(() => t.clock.outbox.size === 0 && host2.state === 'up');
    expect(durable).toEqual([1, 2]);
  });

  it('an onMessage that fails closes the link, naming the message', async () => {
    const t = setup({
      host: {
        deferAck: true,
        onMessage: async () => {
          throw new Error('disk full');
        },
      },
    });
    await t.time.runUntil(() => t.clock.state === 'up' && t.host.state === 'up');
    void t.clock.send(moved(0));
    await t.time.runUntil(() => t.host.state === 'closed');
    expect(t.host.closedBecause?.message).toBe('link closed: the application failed to handle seq 1 of boot 49420: disk full');
    expect(t.clock.outbox.size).toBe(1);
  });
});

describe('the host\'s time sync schedule (docs/protocol.md "Time sync")', () => {
  /** The instants (ms after the host went up) at which the host asked the clock for its time, until `untilMs`; and the timers made. */
  async function syncInstants(repeating: boolean, untilMs: number) {
    const time = new FakeTime(10_000);
    // Without setRepeating the link re-arms a one-shot timer after each exchange, as before.
    const oneShots = { now: () => time.now(), setTimer: (fn: () => void, ms: number) => time.setTimer(fn, ms), clearTimer: (h: object) => time.clearTimer(h) };
    const t = setup({
      time,
      host: { time: repeating ? time : oneShots, autoSync: { phaseExchanges: 4, phaseIntervalMs: 50, intervalMs: 500, timeoutMs: 40 } },
    });
    const asked: number[] = [];
    let up = 0;
    t.host.on('up', () => (up = time.now()));
    t.host.on('sync', (s: { t1: number }) => asked.push(s.t1));
    await time.runUntil(() => t.host.state === 'up');
    await time.runUntil(() => time.now() >= up + untilMs);
    const created = time.timersCreated;
    t.host.close();
    t.clock.close();
    return { asked: asked.map((a) => Math.round(a - up)), created };
  }

  it('asks every phaseIntervalMs until phaseExchanges are in, then every intervalMs; a repeating timer keeps the same instants with a timer per period, not per exchange', async () => {
    const once = await syncInstants(false, 5_000);
    const rep = await syncInstants(true, 5_000);
    // The phase: 0, 50, 100, 150 and 200 ms (the fifth is asked before the fourth answer is counted), then every 500 ms.
    expect(once.asked.slice(0, 8)).toEqual([0, 50, 100, 150, 200, 700, 1200, 1700]);
    expect(rep.asked).toEqual(once.asked);
    // Each exchange has its own timeout timer either way; the one-shots add one timer per exchange on top.
    expect(once.created - rep.created).toBeGreaterThanOrEqual(once.asked.length - 3);
  });
});

// Protocol link figures (docs/protocol.md, docs/benchmarks.md "Protocol — link"): goodput of the reliable session
// (handshake done, clock → host moved events, each acknowledged).
//  1. in-memory Duplex pair, real time: what the session code itself can do;
//  2. a modelled 115200-baud line (11.52 bytes/ms, 1 ms latency) under fake time, clean
//     and with 10 % chunk loss: what the protocol achieves on a real clock's line;
//  3. a socat pty pair opened with `serialport` at 115200 baud, real time (a pty does not
//     pace bytes at the baud rate, so this can exceed the physical limit printed next to it).
import { createLink, type Link } from '../protocol/link.ts';
import type { ReceivedMessage } from '../protocol/link-types.ts';
import { monotonicNowMs, systemTime } from '../protocol/monotonic.ts';
import { FakeTime } from '../protocol/testing/fake-time.ts';
import { createLossyPair, type Impairment } from '../protocol/lossy-line.ts';
import { openPtyPair, socatAvailable } from '../protocol/pty.ts';
import { openSerialLink } from '../protocol/session-serial.ts';
import { ClockEvent_Kind, Side } from '../protocol/gen/chessclock_pb.ts';
import { OUR_VERSION, SACK_MINOR } from '../protocol/handshake.ts';

const LINE_BYTES_PER_S = 115_200 / 10; // 8N1: 10 bits per byte

const identity = { serialId: 'CC-BENCH', firmwareVersion: '0.1.0', bootId: 0xbe4c };

function moved(i: number) {
  return {
    case: 'clockEvent' as const,
    value: {
      kind: ClockEvent_Kind.MOVED,
      side: i % 2 ? Side.BLACK : Side.WHITE,
      atMs: 3_600_000 + i * 997,
      moveNumber: 1 + ((i >> 1) % 120),
      whiteMs: 5_400_000 - i * 13,
      blackMs: 5_400_000 - i * 11,
    },
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Result {
  events: number;
  ms: number;
  clockBytesOut: number;
  retransmits: number;
}

/** Sends `n` events clock → host and resolves when every one is acked and delivered. */
async function pump(clock: Link, host: Link, n: number, now: () => number, drive?: (done: () => boolean) => Promise<void>): Promise<Result> {
  let delivered = 0;
  host.on('message', (m: ReceivedMessage) => {
    if (m.body.case === 'clockEvent') delivered++;
  });
  const bytes0 = clock.counters.bytesOut;
  const t0 = now();
  let acked = 0;
  // Events are produced in batches with a turn of the event loop in between, as a clock
  // (or a fleet) would: accepting 20,000 synchronously would block the loop past the RTO
  // and measure spurious retransmissions instead of the session.
  for (let i = 0; i < n; i++) {
    void clock.send(moved(i)).then(() => acked++);
    if (i % 256 === 255 && !drive) await new Promise((r) => setImmediate(r));
  }
  const done = () => acked === n && delivered === n;
  if (drive) await drive(done);
  else while (!done()) await new Promise((r) => setImmediate(r));
  return { events: n, ms: now() - t0, clockBytesOut: clock.counters.bytesOut - bytes0, retransmits: clock.counters.retransmits };
}

async function inMemory(n: number): Promise<Result> {
  const pair = createLossyPair({ seed: 1, time: systemTime, immediate: true });
  const clock = createLink(pair.a, { role: 'clock', identity, outboxCapacity: n + 10 });
  const host = createLink(pair.b, { role: 'host', autoSync: false });
  await Promise.all([clock.ready, host.ready]);
  const r = await pump(clock, host, n, monotonicNowMs);
  clock.close();
  host.close();
  return r;
}

/** `clockMinor`: the clock's protocol minor (below SACK_MINOR: cumulative acks only, as before 1.3). */
async function modelledLine(n: number, impairment: Impairment, clockMinor = OUR_VERSION.minor): Promise<Result> {
  const time = new FakeTime();
  const pair = createLossyPair({ seed: 115200, time, impairment, latencyMs: 1, bytesPerMs: LINE_BYTES_PER_S / 1000 });
  const clock = createLink(pair.a, { role: 'clock', time, identity, outboxCapacity: n + 10, version: { major: OUR_VERSION.major, minor: clockMinor } });
  const host = createLink(pair.b, { role: 'host', time, autoSync: false });
  await time.runUntil(() => clock.state === 'up' && host.state === 'up');
  const r = await pump(
    clock,
    host,
    n,
    () => time.now(),
    (done) => time.runUntil(done, 24 * 3_600_000),
  );
  clock.close();
  host.close();
  return r;
}

async function overPty(n: number): Promise<Result | null> {
  if (!socatAvailable()) return null;
  const pty = await openPtyPair();
  const host = await openSerialLink(pty.b, { role: 'host', autoSync: false });
  const clock = await openSerialLink(pty.a, { role: 'clock', identity, outboxCapacity: n + 10 });
  try {
    await Promise.all([clock.link.ready, host.link.ready]);
    return await pump(clock.link, host.link, n, monotonicNowMs);
  } finally {
    await clock.close();
    await host.close();
    await pty.close();
  }
}

function line(label: string, r: Result, extra = ''): void {
  const s = r.ms / 1000;
  const perEvent = r.clockBytesOut / r.events;
  console.log(
    `${label}: ${fmt(r.events / s)} events/s, ${fmt(r.clockBytesOut / s)} wire bytes/s clock→host, ` +
      `${perEvent.toFixed(2)} bytes/event (frame + share of control), ${r.retransmits} retransmits${extra}`,
  );
}

export async function run(): Promise<void> {
  // Warm-up: JIT the whole path once.
  await inMemory(2_000);
  for (let i = 0; i < 2; i++) line(`in-memory pair, real time, 20,000 events (run ${i + 1})`, await inMemory(20_000));

  const clean = await modelledLine(5_000, {});
  const perEvent = clean.clockBytesOut / clean.events;
  line(
    'modelled 115200-baud line (fake time), 5,000 events, no loss',
    clean,
    `; physical limit ${fmt(LINE_BYTES_PER_S / perEvent)} events/s at ${perEvent.toFixed(2)} bytes/event`,
  );
  // Selective acks (protocol 1.3): the same line and loss, with and without them, in one run.
  const cleanRate = clean.events / (clean.ms / 1000);
  const withSack = await modelledLine(5_000, { drop: 0.1 });
  line(
    `modelled 115200-baud line (fake time), 5,000 events, 10% chunk loss each way, selective acks (1.${OUR_VERSION.minor} both ends)`,
    withSack,
    `; ${((100 * withSack.events) / (withSack.ms / 1000) / cleanRate).toFixed(0)}% of the clean line`,
  );
  const cumulative = await modelledLine(5_000, { drop: 0.1 }, SACK_MINOR - 1);
  line(
    `modelled 115200-baud line (fake time), 5,000 events, 10% chunk loss each way, cumulative acks only (a 1.${SACK_MINOR - 1} clock)`,
    cumulative,
    `; ${((100 * cumulative.events) / (cumulative.ms / 1000) / cleanRate).toFixed(0)}% of the clean line`,
  );

  const pty = await overPty(5_000);
  if (!pty) {
    console.log('pty: skipped — socat is not installed (Debian package `socat`)');
    return;
  }
  const ptyPerEvent = pty.clockBytesOut / pty.events;
  line(
    'socat pty pair with serialport at 115200 baud, 5,000 events',
    pty,
    `; physical limit at 115200 baud: ${fmt(LINE_BYTES_PER_S / ptyPerEvent)} events/s (11,520 B/s ÷ ${ptyPerEvent.toFixed(2)} B/event)`,
  );
}

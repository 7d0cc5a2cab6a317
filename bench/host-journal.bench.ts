// Host journal figures (docs/benchmarks.md "Host — journal"):
//  - appends/s and p50/p99 latency of `append` (one event, one commit, one fsync: the host
//    acknowledges a press to the clock only after this returns);
//  - appends/s and latency of `appendMany` batches (one commit per batch);
//  - the same single appends with synchronous=NORMAL, to show what FULL costs;
//  - retransmitted duplicates (the UNIQUE key rejects them).
// On a real file in the OS temp directory (fsync goes to the disk under it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { presetTimeControl } from '../protocol/time-control.ts';
import { Journal, type ClockEventInput, type JournalOptions } from '../host/store/journal.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1e6; // the bench's one monotonic clock (ms)

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function event(clock: number, seq: number): ClockEventInput {
  return {
    clockId: `C${clock}`,
    bootId: 'b1',
    seq,
    type: 'moved',
    side: seq % 2 ? 'white' : 'black',
    move: Math.ceil(seq / 2),
    whiteMs: 5_400_000 - (seq % 5000) * 1000,
    blackMs: 5_400_000 - (seq % 5000) * 900,
    monoMs: seq * 30_000,
    utcMs: 1_700_000_000_000 + seq * 30_000,
    uncertaintyMs: 2,
  };
}

function open(dir: string, name: string, clocks: number, options: JournalOptions = {}): Journal {
  const j = new Journal(join(dir, name), options);
  for (let c = 0; c < clocks; c++) {
    j.createGame({
      event: 'bench',
      round: 1,
      board: c + 1,
      kind: 'standard',
      white: 'W',
      black: 'B',
      timeControl: presetTimeControl('classical'),
      clockId: `C${c}`,
      createdUtcMs: 0,
    });
  }
  return j;
}

function line(label: string, count: number, totalMs: number, latencies: number[], unit = 'append'): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} ${Math.round((count / totalMs) * 1000)
      .toLocaleString('en')
      .padStart(9)} events/s   ` + `p50 ${pct(sorted, 50).toFixed(3)} ms  p99 ${pct(sorted, 99).toFixed(3)} ms per ${unit}`,
  );
}

function singles(j: Journal, n: number, clocks: number, label: string): void {
  const lat: number[] = [];
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const a = now();
    j.append(event(i % clocks, Math.floor(i / clocks) + 1));
    lat.push(now() - a);
  }
  line(label, n, now() - t0, lat);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  const clocks = 100;
  try {
    const full = open(dir, 'full.db', clocks);
    singles(full, 3000, clocks, 'append, synchronous=FULL (as shipped)');

    for (const size of [10, 100, 1000]) {
      const batches = Math.max(20, Math.floor(20_000 / size));
      const lat: number[] = [];
      let seq = 100_000;
      const t0 = now();
      for (let b = 0; b < batches; b++) {
        const batch = Array.from({ length: size }, (_, i) => event(i % clocks, seq + Math.floor(i / clocks)));
        seq += Math.ceil(size / clocks);
        const a = now();
        full.appendMany(batch);
        lat.push(now() - a);
      }
      line(`appendMany, batches of ${size}, FULL`, batches * size, now() - t0, lat, 'batch');
    }

    // Retransmissions: every event again (UNIQUE (clock, boot, seq) → isNew false).
    const lat: number[] = [];
    const t0 = now();
    let dup = 0;
    for (let i = 0; i < 3000; i++) {
      const a = now();
      if (!full.append(event(i % clocks, Math.floor(i / clocks) + 1)).isNew) dup++;
      lat.push(now() - a);
    }
    line(`duplicate append (${dup}/3000 refused)`, 3000, now() - t0, lat);
    full.close();

    const normal = open(dir, 'normal.db', clocks, { synchronous: 'NORMAL' }); // comparison only: the journal ships with FULL
    singles(normal, 3000, clocks, 'append, synchronous=NORMAL (not used)');
    normal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

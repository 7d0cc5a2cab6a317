// Test fixture (not a test): appends events to the journal at argv[2] forever, printing each
// seq only after `append` returned. journal.test.ts kills this process with SIGKILL and checks
// that every printed (acknowledged) seq is in the journal: durability across a host crash.
import { Journal } from './journal.ts';

const journal = new Journal(process.argv[2]);
const bootId = process.argv[3] ?? 'boot-1';
for (let seq = 1; ; seq++) {
  journal.append({
    clockId: 'clock-crash',
    bootId,
    seq,
    gameId: null,
    type: 'moved',
    side: seq % 2 ? 'white' : 'black',
    move: seq,
    whiteMs: 1000,
    blackMs: 1000,
    monoMs: seq,
    utcMs: 1_700_000_000_000 + seq,
    uncertaintyMs: 1,
  });
  process.stdout.write(`${seq}\n`);
  if (seq % 50 === 0) await new Promise((r) => setImmediate(r));
}

// Test fixture (not a test): journals clock events forever through the writer thread
// (Journal option writerThread, appendInBackground), in batches of 1 to 7, and prints each
// event's seq only after its batch's `durable` resolved: what the host would acknowledge.
// journal.test.ts kills this process with SIGKILL mid-stream and checks that every printed seq
// is in the journal, in the order it was sent.
import { Journal } from './journal.ts';

const journal = new Journal(process.argv[2], { writerThread: true });
let seq = 0;
for (let n = 1; ; n = (n % 7) + 1) {
  const batch = Array.from({ length: n }, () => {
    seq++;
    return {
      event: {
        clockId: 'clock-crash',
        bootId: 'boot-1',
        seq,
        gameId: null,
        type: 'moved' as const,
        side: seq % 2 ? ('white' as const) : ('black' as const),
        move: seq,
        whiteMs: 1000,
        blackMs: 1000,
        monoMs: seq,
        utcMs: 1_700_000_000_000 + seq,
        uncertaintyMs: 1,
      },
    };
  });
  const { durable } = journal.appendInBackground(batch);
  await durable;
  process.stdout.write(batch.map((b) => `${b.event.seq}\n`).join(''));
}

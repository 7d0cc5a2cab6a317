// The host side of `npm run bench -- host-memory` (bench/host-memory.bench.ts), in a process of
// its own so that its memory is the host's alone: the real host (startHost through LoadHost:
// the journal on disk, synchronous=FULL, the director, the API) with one line per clock, each
// line a TCP connection from the bench process on 127.0.0.1. It answers on stdout with one JSON
// line per request read from stdin: `mem` (after a full GC), `online` (clocks online), `stop`.
//   node --expose-gc bin/run-ts.mjs bench/support/host-memory-host.ts N
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { systemTime } from '../../protocol/monotonic.ts';
import { AnchoredClock } from '../../host/app/utc.ts';
import { LoadHost, loadTournament } from '../../scripts/load-host.ts';

const n = Number(process.argv[2]);
const gc = (globalThis as { gc?: () => void }).gc;
const mem = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
};
const say = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

const dir = mkdtempSync(join(tmpdir(), 'bench-mem-'));
const sockets: Socket[] = [];
const waiting: Array<(s: Socket) => void> = [];
const server = createServer((s) => {
  s.setNoDelay(true);
  const w = waiting.shift();
  if (w) w(s);
  else sockets.push(s);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as { port: number }).port;
const nextSocket = () => new Promise<Socket>((resolve) => (sockets.length ? resolve(sockets.shift()!) : waiting.push(resolve)));

const before = mem();
const hostClock = new AnchoredClock({ now: () => systemTime.now(), setTimer: systemTime.setTimer, clearTimer: systemTime.clearTimer }, { hostMs: 0, utcMs: Date.UTC(2026, 0, 10, 10, 0) });
const lh = await LoadHost.start(
  { dbFile: join(dir, 'bench.db'), hall: loadTournament(n), clock: hostClock, api: true },
  Array.from({ length: n }, (_, i) => ({
    key: `tcp:${i + 1}`,
    table: i + 1,
    clockId: `load-${i + 1}`,
    open: async () => {
      const s = await nextSocket();
      return { duplex: s, close: () => void s.destroy() };
    },
  })),
);
say({ type: 'ready', port, before, started: mem() });

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'mem') say({ type: 'mem', mem: mem(), online: lh.online() });
  else if (line === 'online') say({ type: 'online', online: lh.online() });
  else if (line === 'stop') break;
}
await lh.close();
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);

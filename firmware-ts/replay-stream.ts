// Streaming replay of a JSON Lines input (docs/replay.md).
//
// Lines are handled as they arrive, in chunks of at most one input read (so a slow feed
// gets its output line by line and a file gets large chunks), and nothing holds more
// than a few chunks: memory stays constant whatever the length of a game or a file.
//
// Games are independent (each `setup` line starts a new one), so on a large input each
// new game goes to a "lane": this thread or one of the worker threads, and every later
// chunk of that game follows it to the same lane, whose Replayer keeps the game's actor
// between chunks. Outputs are written back in input order. The first input lines run on
// this thread, so a small input never starts a worker.
import { availableParallelism } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { ChunkReplayer, isSetupLine, type ReplayChunk, type ReplayChunkResult } from './replay.ts';

export interface ReplayStreamOptions {
  /** Worker threads for large inputs; 0 replays on this thread only. Default: the core count. */
  workers?: number;
  /** Lines on this thread before new games go to workers. */
  inlineLines?: number;
  /** Most lines in one chunk. */
  chunkLines?: number;
}

const WORKER_URL = new URL('./replay-worker.mjs', import.meta.url);
const INLINE = -1;

export async function replayStream(
  input: Readable,
  output: Writable,
  errors: Writable,
  options: ReplayStreamOptions = {},
): Promise<number> {
  const workerCount = options.workers ?? availableParallelism();
  const inlineLines = options.inlineLines ?? 50_000;
  const chunkLines = options.chunkLines ?? 4_096;
  const inFlightLimit = Math.max(4, workerCount * 4);

  let nextId = 0;
  let nextToWrite = 0;
  let failed: string | null = null;
  let fatal: Error | null = null;
  const finished = new Map<number, ReplayChunkResult>();
  let wake: (() => void) | null = null;
  const signal = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const progress = (): Promise<void> => new Promise<void>((resolve) => (wake = resolve));

  let writing: Promise<void> = Promise.resolve();
  /** Writes finished chunks in input order; stops at the first error. */
  const accept = (result: ReplayChunkResult): void => {
    finished.set(result.id, result);
    while (failed === null && finished.has(nextToWrite)) {
      const r = finished.get(nextToWrite)!;
      finished.delete(nextToWrite);
      nextToWrite += 1;
      if (r.output !== '' && !output.write(r.output)) {
        writing = new Promise<void>((resolve) => output.once('drain', resolve));
      }
      if (r.error !== null) failed = r.error;
    }
    signal();
  };

  const inline = new ChunkReplayer();
  const workers: Worker[] = [];
  const busy: number[] = [];
  const worker = (index: number): Worker => {
    while (workers.length <= index) {
      const w = new Worker(WORKER_URL, { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      const k = workers.length;
      w.on('message', (result: ReplayChunkResult) => {
        busy[k] -= 1;
        accept(result);
      });
      w.on('error', (err) => {
        fatal = err;
        signal();
      });
      workers.push(w);
      busy.push(0);
    }
    return workers[index];
  };
  /** The lane for a new game: this thread at first, then the least busy worker. */
  const laneForNewGame = (lineNo: number): number => {
    if (workerCount === 0 || lineNo <= inlineLines) return INLINE;
    let best = 0;
    for (let k = 1; k < workerCount; k++) if ((busy[k] ?? 0) < (busy[best] ?? 0)) best = k;
    return best;
  };

  let lane = INLINE;
  let lineNo = 0;
  let pending: string[] = [];
  let pendingFirst = 1;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk: ReplayChunk = { id: nextId++, firstLine: pendingFirst, lines: pending };
    pending = [];
    if (lane === INLINE) accept(inline.run(chunk));
    else {
      busy[lane] = (busy[lane] ?? 0) + 1;
      worker(lane).postMessage(chunk);
    }
    while (failed === null && fatal === null && nextId - nextToWrite >= inFlightLimit) await progress();
    await writing;
  };
  const take = async (line: string): Promise<void> => {
    lineNo += 1;
    if (isSetupLine(line)) {
      await flush();
      lane = laneForNewGame(lineNo);
    }
    if (pending.length === 0) pendingFirst = lineNo;
    pending.push(line);
    if (pending.length >= chunkLines) await flush();
  };

  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const data of input) {
      if (failed !== null || fatal !== null) break;
      const text = rest + (typeof data === 'string' ? data : decoder.write(data as Buffer));
      let start = 0;
      let nl: number;
      // Lines are split by hand: readline's per-line events cost more than the clock.
      while ((nl = text.indexOf('\n', start)) !== -1) {
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl; // CRLF
        await take(text.slice(start, end));
        start = nl + 1;
      }
      rest = text.slice(start);
      // What this read brought is replayed now: a live feed sees its output at once.
      await flush();
    }
    if (failed === null && fatal === null) {
      rest += decoder.end();
      if (rest !== '') await take(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
      await flush();
    }
    while (failed === null && fatal === null && nextToWrite < nextId) await progress();
    await writing;
    if (fatal) throw fatal;
    if (failed !== null) {
      errors.write(`${failed}\n`);
      return 2;
    }
    return 0;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

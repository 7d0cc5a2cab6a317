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
import { ChunkReplayer, isSetupLine, MAX_LINE_CHARS, type ReplayChunk, type ReplayChunkResult } from './replay.ts';

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

/** Finished chunks written in input order, stopping at the first error; wakes the reader on each. */
class InOrderOutput {
  nextId = 0;
  nextToWrite = 0;
  failed: string | null = null;
  fatal: Error | null = null;
  /** The pending 'drain' of the output, if a write filled its buffer. */
  writing: Promise<void> = Promise.resolve();
  private readonly finished = new Map<number, ReplayChunkResult>();
  private wake: (() => void) | null = null;

  constructor(private readonly output: Writable) {}

  get stopped(): boolean {
    return this.failed !== null || this.fatal !== null;
  }

  signal(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Resolves at the next finished chunk (or failure). */
  progress(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  accept(result: ReplayChunkResult): void {
    this.finished.set(result.id, result);
    while (this.failed === null && this.finished.has(this.nextToWrite)) {
      const r = this.finished.get(this.nextToWrite)!;
      this.finished.delete(this.nextToWrite);
      this.nextToWrite += 1;
      if (r.output !== '' && !this.output.write(r.output)) {
        this.writing = new Promise<void>((resolve) => this.output.once('drain', resolve));
      }
      if (r.error !== null) this.failed = r.error;
    }
    this.signal();
  }
}

/** Where games are replayed: this thread (INLINE) or a worker thread, started when first needed. */
class ReplayLanes {
  readonly inline = new ChunkReplayer();
  readonly workers: Worker[] = [];
  private readonly busy: number[] = [];

  constructor(
    private readonly out: InOrderOutput,
    private readonly workerCount: number,
    private readonly inlineLines: number,
  ) {}

  /** The lane for a new game: this thread at first, then the least busy worker. */
  forNewGame(lineNo: number): number {
    if (this.workerCount === 0 || lineNo <= this.inlineLines) return INLINE;
    let best = 0;
    for (let k = 1; k < this.workerCount; k++) if ((this.busy[k] ?? 0) < (this.busy[best] ?? 0)) best = k;
    return best;
  }

  run(lane: number, chunk: ReplayChunk): void {
    if (lane === INLINE) return this.out.accept(this.inline.run(chunk));
    this.busy[lane] = (this.busy[lane] ?? 0) + 1;
    this.worker(lane).postMessage(chunk);
  }

  private worker(index: number): Worker {
    while (this.workers.length <= index) {
      const w = new Worker(WORKER_URL, { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      const k = this.workers.length;
      w.on('message', (result: ReplayChunkResult) => {
        this.busy[k] -= 1;
        this.out.accept(result);
      });
      w.on('error', (err) => {
        this.out.fatal = err;
        this.out.signal();
      });
      this.workers.push(w);
      this.busy.push(0);
    }
    return this.workers[index];
  }
}

/**
 * Each whole line of `text` to `take`, in order (LF or CRLF); returns what follows the last
 * newline. Lines are split by hand: readline's per-line events cost more than the clock.
 */
async function eachLine(text: string, take: (line: string) => Promise<void>): Promise<string> {
  let start = 0;
  let nl: number;
  while ((nl = text.indexOf('\n', start)) !== -1) {
    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl; // CRLF
    await take(text.slice(start, end));
    start = nl + 1;
  }
  return text.slice(start);
}

export async function replayStream(input: Readable, output: Writable, errors: Writable, options: ReplayStreamOptions = {}): Promise<number> {
  const workerCount = options.workers ?? availableParallelism();
  const chunkLines = options.chunkLines ?? 4_096;
  const inFlightLimit = Math.max(4, workerCount * 4);
  const out = new InOrderOutput(output);
  const lanes = new ReplayLanes(out, workerCount, options.inlineLines ?? 50_000);

  let lane = INLINE;
  let lineNo = 0;
  let pending: string[] = [];
  let pendingFirst = 1;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk: ReplayChunk = { id: out.nextId++, firstLine: pendingFirst, lines: pending };
    pending = [];
    lanes.run(lane, chunk);
    while (!out.stopped && out.nextId - out.nextToWrite >= inFlightLimit) await out.progress();
    await out.writing;
  };
  const take = async (line: string): Promise<void> => {
    lineNo += 1;
    if (isSetupLine(line)) {
      await flush();
      lane = lanes.forNewGame(lineNo);
    }
    if (pending.length === 0) pendingFirst = lineNo;
    pending.push(line);
    if (pending.length >= chunkLines) await flush();
  };

  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const data of input) {
      if (out.stopped) break;
      rest = await eachLine(rest + (typeof data === 'string' ? data : decoder.write(data as Buffer)), take);
      if (rest.length > MAX_LINE_CHARS) {
        // A line with no end in sight is not held whole: its first part is refused as too long, in order.
        await take(rest.slice(0, MAX_LINE_CHARS + 1));
        rest = '';
        await flush();
        break;
      }
      // What this read brought is replayed now: a live feed sees its output at once.
      await flush();
    }
    if (!out.stopped) {
      rest += decoder.end();
      if (rest !== '') await take(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
      await flush();
    }
    while (!out.stopped && out.nextToWrite < out.nextId) await out.progress();
    await out.writing;
    if (out.fatal) throw out.fatal;
    if (out.failed !== null) {
      errors.write(`${out.failed}\n`);
      return 2;
    }
    return 0;
  } finally {
    await Promise.all(lanes.workers.map((w) => w.terminate()));
  }
}

// Streaming replay of a JSON Lines input (docs/replay.md). Games are independent (each
// `setup` line starts a new one), so large inputs are cut into batches of whole games and
// replayed on worker threads, with the output written back in input order. Small inputs
// never start a worker. Memory stays bounded: a few batches are in flight at a time and
// reading waits for them.
import { availableParallelism } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { isSetupLine } from './replay.ts';
import { replayBatch, type ReplayBatch, type ReplayBatchResult } from './replay-worker.ts';

export interface ReplayStreamOptions {
  /** Worker threads for large inputs; 0 replays on this thread. Default: the core count. */
  workers?: number;
  /** Lines per batch before it is cut at the next setup line. */
  batchLines?: number;
}

const WORKER_URL = new URL('./replay-worker.mjs', import.meta.url);

class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly queue: ReplayBatch[] = [];
  private readonly all: Worker[] = [];

  constructor(
    size: number,
    private readonly onResult: (result: ReplayBatchResult) => void,
    private readonly onError: (err: Error) => void,
  ) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_URL);
      worker.on('message', (result: ReplayBatchResult) => {
        this.idle.push(worker);
        this.pump();
        this.onResult(result);
      });
      worker.on('error', (err) => this.onError(err));
      this.all.push(worker);
      this.idle.push(worker);
    }
  }

  submit(batch: ReplayBatch): void {
    this.queue.push(batch);
    this.pump();
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) this.idle.pop()!.postMessage(this.queue.shift());
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}

export async function replayStream(
  input: Readable,
  output: Writable,
  errors: Writable,
  options: ReplayStreamOptions = {},
): Promise<number> {
  const workers = options.workers ?? availableParallelism();
  const batchLines = options.batchLines ?? 16_384;
  const inFlightLimit = Math.max(2, workers * 3);

  let nextId = 0;
  let nextToWrite = 0;
  let failed: string | null = null;
  let fatal: Error | null = null;
  const done = new Map<number, ReplayBatchResult>();
  let wake: (() => void) | null = null;
  const signal = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const waitForProgress = (): Promise<void> => new Promise<void>((resolve) => (wake = resolve));

  let writing = Promise.resolve();
  const write = (chunk: string): void => {
    if (chunk === '') return;
    if (!output.write(chunk)) writing = new Promise<void>((resolve) => output.once('drain', resolve));
  };

  /** Writes finished batches in input order; stops at the first error. */
  const accept = (result: ReplayBatchResult): void => {
    done.set(result.id, result);
    while (failed === null && done.has(nextToWrite)) {
      const r = done.get(nextToWrite)!;
      done.delete(nextToWrite);
      nextToWrite += 1;
      write(r.output);
      if (r.error !== null) failed = r.error;
    }
    signal();
  };

  let pool: WorkerPool | null = null;
  const submit = async (lines: string[], firstLine: number): Promise<void> => {
    const batch: ReplayBatch = { id: nextId++, firstLine, lines };
    if (workers === 0) {
      accept(replayBatch(batch));
    } else {
      pool ??= new WorkerPool(workers, accept, (err) => {
        fatal = err;
        signal();
      });
      pool.submit(batch);
    }
    while (failed === null && fatal === null && nextId - nextToWrite >= inFlightLimit) await waitForProgress();
    await writing;
  };

  const decoder = new StringDecoder('utf8');
  let rest = '';
  let lineNo = 0;
  let batch: string[] = [];
  let batchFirst = 1;
  /** A batch is cut only where a new game starts, so a game never spans two batches. */
  const cutsBatch = (line: string): boolean => batch.length >= batchLines && isSetupLine(line);
  const cut = async (): Promise<void> => {
    await submit(batch, batchFirst);
    batch = [];
    batchFirst = lineNo;
  };

  try {
    for await (const chunk of input) {
      if (failed !== null || fatal !== null) break;
      const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
      let start = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', start)) !== -1) {
        // Lines are split by hand: readline's per-line events cost more than the clock.
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl; // CRLF
        const line = text.slice(start, end);
        start = nl + 1;
        lineNo += 1;
        if (cutsBatch(line)) await cut();
        batch.push(line);
      }
      rest = text.slice(start);
    }
    if (failed === null && fatal === null) {
      rest += decoder.end();
      if (rest !== '') {
        const line = rest.endsWith('\r') ? rest.slice(0, -1) : rest;
        lineNo += 1;
        if (cutsBatch(line)) await cut();
        batch.push(line);
      }
      if (batch.length > 0) {
        // The last batch runs here unless workers are already busy with earlier ones.
        if (pool === null) accept(replayBatch({ id: nextId++, firstLine: batchFirst, lines: batch }));
        else await submit(batch, batchFirst);
      }
    }
    while (failed === null && fatal === null && nextToWrite < nextId) await waitForProgress();
    await writing;
    if (fatal) throw fatal;
    if (failed !== null) {
      errors.write(`${failed}\n`);
      return 2;
    }
    return 0;
  } finally {
    await (pool as WorkerPool | null)?.close();
  }
}

// A replay worker: replays whole games handed to it in batches and returns their output.
// Each batch starts at a setup line (or is the stream's start), so games never span
// two batches and workers need nothing from each other.
import { parentPort } from 'node:worker_threads';
import { Replayer, ReplayError } from './replay.ts';

export interface ReplayBatch {
  id: number;
  firstLine: number;
  lines: string[];
}

export interface ReplayBatchResult {
  id: number;
  output: string;
  error: string | null;
}

export function replayBatch(batch: ReplayBatch): ReplayBatchResult {
  const out: string[] = [];
  const replayer = new Replayer((l) => out.push(l), batch.firstLine);
  let error: string | null = null;
  try {
    for (const line of batch.lines) replayer.line(line);
  } catch (err) {
    if (!(err instanceof ReplayError)) throw err;
    error = err.message;
  } finally {
    replayer.finish();
  }
  return { id: batch.id, output: out.length ? out.join('\n') + '\n' : '', error };
}

parentPort?.on('message', (batch: ReplayBatch) => {
  parentPort!.postMessage(replayBatch(batch));
});

// A replay worker thread: replays the chunks of the games routed to it (replay-stream.ts).
// Every chunk of a game comes to the same worker in input order, so one ChunkReplayer,
// kept across chunks, carries each game's clock from one chunk to the next.
import { parentPort } from 'node:worker_threads';
import { ChunkReplayer, type ReplayChunk } from './replay.ts';

if (parentPort) {
  const port = parentPort;
  const replayer = new ChunkReplayer();
  port.on('message', (chunk: ReplayChunk) => port.postMessage(replayer.run(chunk)));
}

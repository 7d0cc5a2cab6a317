// `chessclock replay [FILE]`: streams JSON Lines from FILE (or stdin) through the clock.
// Contract: docs/replay.md. Exit 0 on success, 2 on bad input (one line on stderr).

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { Replayer, ReplayError } from '../firmware-ts/replay.ts';

const HELP = `usage: chessclock replay [FILE]

Reads JSON Lines (FILE, or stdin when FILE is omitted or "-") of clock inputs stamped
with a monotonic time \`t\` in ms, runs them through the clock statechart, and writes
JSON Lines of moves, flags, forfeits and end states to stdout. See docs/replay.md.

Exit status: 0 done; 2 bad input (stderr says "line N: what is wrong").`;

/** Buffers output lines and writes them in large chunks, honouring backpressure. */
class LineSink {
  private buf: string[] = [];
  private size = 0;
  constructor(private readonly out: Writable) {}

  push(line: string): void {
    this.buf.push(line);
    this.size += line.length + 1;
  }

  get full(): boolean {
    return this.size >= 1 << 16;
  }

  async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const chunk = this.buf.join('\n') + '\n';
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once('drain', resolve));
  }
}

export async function replayStream(input: Readable, output: Writable, errors: Writable): Promise<number> {
  const sink = new LineSink(output);
  const replayer = new Replayer((line) => sink.push(line));
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      replayer.line(line);
      if (sink.full) await sink.flush();
    }
    replayer.finish();
    await sink.flush();
    return 0;
  } catch (err) {
    await sink.flush();
    if (err instanceof ReplayError) {
      errors.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    lines.close();
  }
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  if (args.length > 1) {
    process.stderr.write(`chessclock replay: expected at most one FILE, got ${args.length}\n`);
    return 2;
  }
  const file = args[0];
  let input: Readable = process.stdin;
  if (file !== undefined && file !== '-') {
    const stream = createReadStream(file);
    const opened = await new Promise<Error | null>((resolve) => {
      stream.once('open', () => resolve(null));
      stream.once('error', resolve);
    });
    if (opened) {
      process.stderr.write(`chessclock replay: cannot read ${file}: ${opened.message}\n`);
      return 2;
    }
    input = stream;
  }
  return replayStream(input, process.stdout, process.stderr);
}

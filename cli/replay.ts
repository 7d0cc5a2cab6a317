// `chessclock replay [FILE]`: streams JSON Lines from FILE (or stdin) through the clock.
// Contract: docs/replay.md. Exit 0 on success, 2 on bad input (one line on stderr).

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { replayStream } from '../firmware-ts/replay-stream.ts';

const HELP = `usage: chessclock replay [FILE]

Reads JSON Lines (FILE, or stdin when FILE is omitted or "-") of clock inputs stamped
with a monotonic time \`t\` in ms, runs them through the clock statechart, and writes
JSON Lines of moves, flags, forfeits and end states to stdout. See docs/replay.md.

Exit status: 0 done; 2 bad input (stderr says "line N: what is wrong").`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const option = args.find((a) => a.startsWith('-') && a !== '-');
  if (option !== undefined) {
    process.stderr.write(`chessclock replay: unknown option "${option}" (a file whose name starts with "-" is ./${option})\n\n${HELP}\n`);
    return 2;
  }
  if (args.length > 1) {
    process.stderr.write(`chessclock replay: expected at most one FILE, got ${args.length}\n\n${HELP}\n`);
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

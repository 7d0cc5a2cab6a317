// Reads PGN tag pairs back (PGN standard §8.1: `[Name "value"]`, strings with \" and \\
// escapes) and splits a multi-game file into games. Enough to check our exports and to read a
// relay's PGN; it does not parse moves.

export class PgnParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`PGN line ${line}: ${message}`);
    this.name = 'PgnParseError';
  }
}

export interface PgnTagGame {
  /** Tag pairs in file order (a repeated tag is an error). */
  tags: Record<string, string>;
  order: string[];
  movetext: string;
  /** Line of the game's first tag. */
  line: number;
}

const TAG = /^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/;

export function parsePgnTags(text: string): PgnTagGame[] {
  const games: PgnTagGame[] = [];
  let current: PgnTagGame | null = null;
  let inMoves = false;
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (line.startsWith('[')) {
      if (!current || inMoves) {
        current = { tags: {}, order: [], movetext: '', line: n };
        games.push(current);
        inMoves = false;
      }
      const m = TAG.exec(line);
      if (!m) throw new PgnParseError(n, `malformed tag pair: ${line}`);
      const [, name, escaped] = m;
      if (name in current.tags) throw new PgnParseError(n, `tag "${name}" repeated`);
      current.tags[name] = escaped.replace(/\\(.)/g, '$1');
      current.order.push(name);
    } else if (line !== '') {
      if (!current) throw new PgnParseError(n, 'movetext before any tag pair');
      inMoves = true;
      current.movetext = current.movetext ? `${current.movetext} ${line}` : line;
    }
  });
  return games;
}

/** h:mm:ss (or hh:mm:ss) → ms, for clock tags and %clk. */
export function parseClockText(text: string): number {
  const m = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(text);
  if (!m) throw new Error(`not an h:mm:ss time: "${text}"`);
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
}
